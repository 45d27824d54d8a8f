"""The benchmark's frozen opponents (docs/benchmark.md, "Frozen opponents"): every environment pins its reference
levels by the hash of their choices on its frozen positions; ``clubs evaluate`` refuses a level that chooses
otherwise (another bot registered under its name, by an agent's own module or another package) and names each side's
hash and every pinned level's in its result."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.bots import base
from clubsuite.errors import InvalidOptionsError
from clubsuite.rl.benchmarks import ENVS
from clubsuite.rl.opponents import POSITIONS, check_level, choices_hash, positions, reference_levels
from native_helpers import printed_without_the_compiled_core

WHIST = ENVS["clubs_whist-v1"]

IMPOSTOR = """
from clubsuite.bots.base import make_bot, register_bot

# On import, whist's heuristic (and with it the level normal, built from it) becomes the random bot.
register_bot("heuristic", lambda: make_bot("random", "whist"), "whist")


def make(spec):
    return make_bot("random", "whist")
"""


@pytest.mark.long
@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_every_environment_pins_each_reference_level_of_its_game_as_it_chooses_now(env_id: str) -> None:
    env = ENVS[env_id]
    assert [name for name, _ in env.opponents] == reference_levels(env)
    assert {"random", "easy", "heuristic", "hard", "expert"} <= set(reference_levels(env))
    for name, pinned in env.opponents:
        assert choices_hash(env, name) == pinned, f"{env_id}: {name} chooses otherwise than pinned"
    # two names of one bot hash alike, two bots do not
    assert env.pinned("normal") == env.pinned("heuristic")
    assert len({env.pinned(name) for name in ("random", "easy", "heuristic", "hard", "expert")}) == 5


@pytest.mark.long
def test_the_levels_choose_the_same_without_the_compiled_core() -> None:
    """The pinned choices are the bots', whichever path plays them: the pure-Python path hashes alike."""
    code = (
        "from clubsuite.rl.benchmarks import ENVS; from clubsuite.rl.opponents import choices_hash;"
        "e = ENVS['clubs_partnership-v1']; print(*(choices_hash(e, n) for n in ('heuristic', 'hard')))"
    )
    partnership = ENVS["clubs_partnership-v1"]
    assert printed_without_the_compiled_core(code) == [partnership.pinned("heuristic"), partnership.pinned("hard")]


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_the_frozen_positions_are_spread_over_the_trace_and_every_seat(env_id: str) -> None:
    env = ENVS[env_id]
    found = [(decision, seat) for decision, _, seat in positions(env)]
    assert len(found) == POSITIONS
    decisions = [d for d, _ in found]
    assert decisions == sorted(set(decisions)) and decisions[0] == 0
    info, options = env.resolved()
    assert {seat for _, seat in found} == set(range(info.n_seats(options)))


def test_a_level_whose_choices_differ_from_the_pinned_ones_is_refused_naming_it() -> None:
    """A changed level (here: the pinned hash of another bot) is refused, naming the argument and the environment;
    a registry bot the environment does not pin is taken, unpinned."""
    assert check_level(WHIST, "heuristic", "--against") == WHIST.pinned("heuristic")
    swapped = dataclasses.replace(
        WHIST, opponents=tuple((n, WHIST.pinned("random") if n == "heuristic" else h) for n, h in WHIST.opponents)
    )
    with pytest.raises(InvalidOptionsError, match="--against heuristic") as refused:
        check_level(swapped, "heuristic", "--against")
    assert "clubs_whist-v1" in str(refused.value) and "new version of the environment" in str(refused.value)
    assert check_level(WHIST, "pimc(samples=2)", "--against") is None


@pytest.fixture
def impostor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An agent's module that registers the random bot as whist's heuristic when imported; the registry is given
    back as it was after the test."""
    base.bot_names("whist")  # the registry loaded before it is copied
    monkeypatch.setattr(base, "_FACTORIES", dict(base._FACTORIES))
    name = f"impostor_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(IMPOSTOR)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    yield name
    sys.modules.pop(name, None)


@pytest.mark.parametrize("level", ["heuristic", "normal"])
def test_an_agent_module_that_registers_another_bot_under_a_levels_name_is_refused(impostor: str, level: str) -> None:
    game = ["--game", "clubs_whist-v1", "--deals", "30"]
    done = clubs_in_process(["evaluate", f"{impostor}:make", "--against", level, *game])
    assert done.status == 2, done.stdout
    assert f"--against {level}: the bot the registry builds under that name chooses otherwise" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    # the agent's side is checked as well: a reference level named as the agent
    done = clubs_in_process(["evaluate", "heuristic", "--against", f"{impostor}:make", *game])
    assert done.status == 2 and "AGENT heuristic: the bot the registry builds" in done.stderr


@pytest.mark.long
def test_the_result_names_each_sides_choices_and_every_pinned_level() -> None:
    done = clubs_in_process(
        ["evaluate", "random", "--against", "heuristic", "--game", "free", "--deals", "30", "--json"]
    )
    assert done.status == 0, done.stderr
    data = json.loads(done.stdout)
    free = ENVS["clubs_free-v1"]
    assert data["env"]["opponents"] == dict(free.opponents)
    assert data["agent"]["choices_sha256"] == free.pinned("random")
    assert data["against"]["choices_sha256"] == free.pinned("heuristic")
    text = clubs_in_process(["evaluate", "random", "--against", "learned", "--game", "free", "--deals", "30"])
    assert text.status == 0, text.stderr
    assert "learned is not one of clubs_free-v1's frozen opponents" in text.stdout
