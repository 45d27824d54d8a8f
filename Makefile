# clubsuite: `make play` to play, `make serve` to serve online play, `make test` to check everything. Each sets up
# .venv when it is missing.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
ARGS ?=
# Test processes (pytest-xdist): one per core and one more, since many tests wait on a real server's timers, a
# worker process or a browser rather than compute; JOBS=0 runs the suite in this one process. (The test servers send
# their in-process clients no keepalive pings, which a loaded machine once made late: tests/server/serverkit.py.)
JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$((n + 1)))
CORES := $(shell nproc 2>/dev/null || echo 1)
# `make check`'s test processes: one per core, as its tests mostly compute (FAST_JOBS=0: in this one process).
FAST_JOBS ?= $(CORES)
EXTRAS := [dev,server,rl,openspiel,dask,plots]

.PHONY: play serve watch test check fast lint typecheck unit bench clean setup screenshots puzzle-sets serve-install base-install

# The compiled core (src/clubsuite/native) is built by the same install; its sources changing rebuilds it.
NATIVE_SOURCES := setup.py $(wildcard src/clubsuite/native/*.h src/clubsuite/native/*.pxi src/clubsuite/native/*.pyx src/clubsuite/games/*/_core.pyx src/clubsuite/games/*/*.h)

# What each command needs, one stamp each: play and watch the package alone, serve its server extra, everything else
# every extra and the tools. A larger set serves a smaller one (after `make test`, `make serve` installs nothing).
BASE_STAMP := $(VENV)/.installed-base
SERVE_STAMP := $(VENV)/.installed-server
JS_STAMP := node_modules/.installed
STAMP_INPUTS := pyproject.toml $(NATIVE_SOURCES)

# uv installs what pip would, in a fraction of pip's time (pip is the fallback where uv cannot be had); the package
# itself is always built again, as its C sources may be what changed. $(1): the extras; $(2): the stamps it makes.
define install
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "clubsuite needs Python 3.11 or newer")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "installing clubsuite$(1) and what it needs into $(VENV), and building its compiled core (a minute or two the first time)"
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.9' \
		&& $(BIN)/uv pip install --python $(BIN)/python --reinstall-package clubsuite -e '.$(1)' \
		|| $(BIN)/python -m pip install --disable-pip-version-check -e '.$(1)'
	@$(BIN)/python -c 'from clubsuite.native import built; print("compiled core built for:", ", ".join(k for k, v in built().items() if v) or "nothing (no C compiler: pure Python, the same results, slower)")'
	@touch $(2)
endef

# A stamp is up to date where a larger one is newer than every input: `current STAMP...` says so.
current = for s in $(1); do test -f $$s && test -z "$$(find $(STAMP_INPUTS) -newer $$s)" && exit 0; done; exit 1

$(STAMP): $(STAMP_INPUTS)
	$(call install,$(EXTRAS),$(STAMP) $(SERVE_STAMP) $(BASE_STAMP))

$(SERVE_STAMP): $(STAMP_INPUTS)
	@if ($(call current,$(STAMP))); then touch $(SERVE_STAMP); else $(MAKE) --no-print-directory serve-install; fi

$(BASE_STAMP): $(STAMP_INPUTS)
	@if ($(call current,$(STAMP) $(SERVE_STAMP))); then touch $(BASE_STAMP); else $(MAKE) --no-print-directory base-install; fi

serve-install:
	$(call install,[server],$(SERVE_STAMP) $(BASE_STAMP))

base-install:
	$(call install,,$(BASE_STAMP))

setup: $(STAMP)

play: $(BASE_STAMP)
	@$(BIN)/clubs play whist $(ARGS)

# Plain log lines on a terminal (JSON where standard error is not one): clubs serve --log-format.
# The offline app (/app) needs Pyodide in the cache: fetched once from the npm registry (clubs app fetch); where it
# cannot be had, the server runs without the app and says so.
serve: $(SERVE_STAMP)
	@$(BIN)/clubs app fetch || echo "the offline app is not served: Pyodide could not be fetched (clubs app fetch)"
	@$(BIN)/clubs serve $(ARGS)

watch: $(BASE_STAMP)
	@$(BIN)/clubs watch whist $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools examples
	$(BIN)/ruff format --check src tests bench tools examples

# mypy checks in one worker process per core (a clean clone's first check: about half the time of one process).
# On a loaded machine its workers may not answer within mypy's three seconds (mypy's issue 22024): it then stops
# with status 2 (as for an error that stops a check), and the check is made again in one process, which reports
# whatever there is to report.
typecheck: $(STAMP) $(JS_STAMP)
	@echo "$(BIN)/mypy --strict --num-workers $(CORES) src/clubsuite"
	@$(BIN)/mypy --strict --num-workers $(CORES) src/clubsuite; status=$$?; \
		if [ $$status -eq 2 ]; then echo "mypy stopped (status 2): checking again in one process"; \
			$(BIN)/mypy --strict src/clubsuite; else exit $$status; fi
	node_modules/.bin/tsc -p tsconfig.json

# The page's scripts are checked by TypeScript from their JSDoc (`// @ts-check`, tsconfig.json), and the offline
# app's tests build it with Pyodide: the versions pinned in package-lock.json, from the npm registry, into
# node_modules. Node.js and npm come from the distribution where
# they are missing (as root), like the browser tests' Chromium.
$(JS_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { test "$$(id -u)" = 0 && command -v apt-get >/dev/null \
		&& echo "installing Node.js and npm (apt-get), to type-check the page's scripts" \
		&& { apt-get install -y -q nodejs npm >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q nodejs npm >/dev/null; }; }; } \
		|| { echo "make typecheck needs Node.js and npm (apt-get install nodejs npm)"; exit 1; }
	@echo "installing TypeScript and Pyodide (pinned in package-lock.json) into node_modules"
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $(JS_STAMP)

# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE): every server, worker and
# command the tests start would otherwise compile the package from source again, and pytest rewrite every test
# module's asserts again at each run (collection 23 s instead of 9).
# The thirty slowest tests are listed at the end, and every test's time is kept in build/test-times.xml
# (`python tools/test_times.py` sums it by folder and file), to see where the time goes; with CLUBS_TEST_CPU=1 each
# test's CPU seconds too, the processes it started included (`python tools/test_times.py --cpu`, tests/cpu_times.py).
unit: $(STAMP) $(JS_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(JOBS) --dist worksteal --durations=30 \
		--junitxml=build/test-times.xml

test: lint typecheck unit

# The fast inner loop: lint, types and the tests of the games' rules, records, views and presentation and the units
# that need no browser, server, PostgreSQL, separate process, kernel comparison or run of a second or more (the
# markers come from what each test uses, `long` by hand: tests/conftest.py), each property tried on 20 examples; the
# server's and the puzzles' tests are left to `make test`. Under two minutes on two cores. These tests mostly
# compute, so one test process per core (FAST_JOBS; another would only take its share of the cores).
FAST := not (browser or postgres or cluster or live or differential or long or cli)
fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE CLUBS_HYPOTHESIS=check $(BIN)/python -m pytest -n $(FAST_JOBS) --dist worksteal \
		-m "$(FAST)" --ignore=tests/server --ignore=tests/puzzles --ignore=tests/solver --durations=10

check: lint typecheck fast

$(BENCH_STAMP): $(STAMP)
	-$(BIN)/python -m pip install --quiet --disable-pip-version-check 'open_spiel>=1.5' \
		|| echo "open_spiel could not be installed: the benchmark runs without the comparison"
	@touch $(BENCH_STAMP)

# Pictures of every game's browser table at 1280 and 390 px (and the lobby and a replay) in screenshots/; needs
# Debian's chromium (apt-get install chromium).
screenshots: $(STAMP)
	$(BIN)/python tools/screenshots.py --out screenshots $(ARGS)

# The starter puzzle sets shipped in the package (src/clubsuite/puzzles/data), made again from their seed (about 40
# minutes on two cores; the pools are kept in build/puzzle-pools, so a stopped run goes on); docs/puzzles.md.
puzzle-sets: $(STAMP)
	$(BIN)/python tools/make_puzzle_sets.py --workers 2 $(ARGS)
	$(BIN)/python -m clubsuite.puzzles.sets --write

bench: $(BENCH_STAMP)
	$(BIN)/python bench/bench.py $(ARGS)
	$(BIN)/python bench/search.py
	@echo "The compiled core's figures again with it turned off (the pure-Python fallback):"
	CLUBS_PURE_PYTHON=1 $(BIN)/python bench/search.py --only "solve whist" --only "whist, 7 tricks" --only "play-outs" --only "partnership, first card" --only "pimc(samples=16), North"
	CLUBS_PURE_PYTHON=1 $(BIN)/python bench/bench.py --only clubsuite-whist --only clubsuite-partnership --only clubsuite-free --only clubsuite-northstar-3p --only openspiel-hearts --only openspiel-dou_dizhu
	$(BIN)/python bench/vs_openspiel.py --deals 4 --matchups ours:ismcts-fair,heuristic:ismcts-fair

clean:
	rm -rf $(VENV) node_modules build dist screenshots .mypy_cache .pytest_cache .ruff_cache .hypothesis src/*.egg-info
