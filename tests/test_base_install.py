"""The package installed as ``pip install clubsuite`` installs it: from a wheel, without any extra, in a new virtual
environment. Such an install plays, watches, simulates, replays and solves, lists every command in its help, and
``clubs serve`` says which extra it needs rather than failing on an import.

The wheel is built from the package's own files (``pyproject.toml``, ``setup.py``, ``README.md``, ``src/``) with
``CLUBS_NO_COMPILE=1``: a pure-Python wheel in seconds rather than the compiled core's minute. What an install
without extras can miss is a Python import of a package only an extra brings, and that is the same with or without
the kernels (they import nothing). The base packages come from the package registry as any install's would (uv's
cache makes that quick).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).parent / "uv"
"""The installer ``make setup`` puts in the environment; pip (slower) where it is missing."""
EXTRA_ONLY = ("fastapi", "uvicorn", "sqlalchemy", "limits", "gymnasium", "dask", "matplotlib", "pytest")
"""Packages that only an extra (or the tests) bring: none may be importable in the new environment (NumPy is a
base dependency: the learned bot plays in every install)."""


def _copy_package(into: Path) -> Path:
    """The files a wheel is built from, without what a build here left beside them (C, built kernels, caches)."""
    source = into / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__", "*.egg-info", ".hypothesis"),
    )
    return source


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A command run with the environment's variables, less any that would let the new environment see this one's
    packages, plus ``env``."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return subprocess.run(
        args, cwd=cwd, env={**clean, **env}, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL
    )


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, (done.args, done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


def _install_without_extras(work: Path) -> tuple[Path, Path]:
    """A new virtual environment in ``work`` with the package's wheel installed without extras: (its ``bin``
    folder, a scratch folder to run in)."""
    source = _copy_package(work)
    wheels = work / "dist"
    env = work / "env"
    if UV.exists():
        _ok(_run([str(UV), "build", "--quiet", "--wheel", "--out-dir", str(wheels), "."], source, CLUBS_NO_COMPILE="1"))
        _ok(_run([str(UV), "venv", "--quiet", "--python", sys.executable, str(env)], work))
        install = [str(UV), "pip", "install", "--quiet", "--python", str(env / "bin" / "python")]
    else:
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        _ok(
            _run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), "."], source, CLUBS_NO_COMPILE="1")
        )
        _ok(_run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(env)], work))
        install = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    (wheel,) = wheels.glob("clubsuite-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name  # pure: CLUBS_NO_COMPILE built no kernel
    _ok(_run([*install, str(wheel)], work))
    scratch = work / "scratch"
    scratch.mkdir()
    return env / "bin", scratch


@pytest.mark.long
def test_an_install_without_extras_plays_watches_simulates_replays_solves_and_says_what_serving_needs(
    tmp_path: Path,
) -> None:
    """One wheel, one new environment (built once: the checks below share it)."""
    bin_dir, scratch = _install_without_extras(tmp_path)
    _holds_only_the_base_packages(bin_dir, scratch)
    _plays_watches_simulates_replays_and_solves(bin_dir, scratch)
    _serve_lists_its_options_and_says_which_extra_to_install(bin_dir, scratch)


def _holds_only_the_base_packages(bin_dir: Path, scratch: Path) -> None:
    """What the new environment holds: clubsuite and its base dependencies as pyproject.toml names them, and no
    package an extra brings."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    probe = (
        "import importlib.util, sys\n"
        f"print(' '.join(n for n in {EXTRA_ONLY!r} if importlib.util.find_spec(n) is not None))\n"
        "from importlib.metadata import requires\n"
        "print('|'.join(r for r in requires('clubsuite') if 'extra ==' not in r))\n"
    )
    lines = _ok(_run([str(bin_dir / "python"), "-c", probe], scratch)).splitlines()
    assert lines[0] == "", f"packages of an extra installed without it: {lines[0]}"
    assert sorted(lines[1].split("|")) == sorted(declared)


def _plays_watches_simulates_replays_and_solves(bin_dir: Path, scratch: Path) -> None:
    """Every command a player or a designer uses without a server, run from the installed ``clubs``; the group's
    help lists every command (it imports them all)."""
    clubs = str(bin_dir / "clubs")
    helped = _ok(_run([clubs, "--help"], scratch))
    listed = {line.split()[0] for line in helped.splitlines() if line.startswith("  ") and line.split()}
    assert {"play", "watch", "simulate", "replay", "solve", "serve", "review"} <= listed, helped
    watched = _ok(_run([clubs, "watch", "whist", "--seed", "1", "--delay", "0", "--save", "match.json"], scratch))
    assert "Record saved" in watched and (scratch / "match.json").is_file()
    assert "winner" in _ok(_run([clubs, "replay", "match.json"], scratch))
    learned = _ok(
        _run([clubs, "watch", "free", "--seed", "1", "--delay", "0", "--bots", "learned,learned,learned"], scratch)
    )
    assert "learned bot" in learned and "Final totals" in learned  # the shipped policies are in the wheel
    solved = _ok(_run([clubs, "solve", "match.json", "--hand", "2", "--actions", "20"], scratch))
    assert "the best card" in solved
    simulated = _ok(_run([clubs, "simulate", "northstar", "--matches", "4", "--workers", "1"], scratch))
    assert "win rate" in simulated
    # A researcher's first evaluation: the frozen deals and levels are in the wheel; an install names no commit.
    evaluated = _ok(_run([clubs, "evaluate", "random", "--against", "heuristic", "--game", "free", "--deals", "30",
                          "--json"], scratch))  # fmt: skip
    result = json.loads(evaluated)
    assert result["against"]["choices_sha256"] == result["env"]["opponents"]["heuristic"]
    assert result["provenance"]["commit"] is None and result["provenance"]["versions"]["compiled_kernels"] == []
    # Played by a person: the German table's words come from the catalogs the wheel carries; input ended: status 1.
    played = _run([clubs, "play", "whist", "--lang", "de"], scratch)
    assert played.returncode == 1 and "Partie vor dem Ende abgebrochen" in played.stdout + played.stderr, played


def _serve_lists_its_options_and_says_which_extra_to_install(bin_dir: Path, scratch: Path) -> None:
    """``clubs serve --help`` works without the server's packages; serving says what to install, status 2, no
    traceback."""
    clubs = str(bin_dir / "clubs")
    assert "--max-tables" in _ok(_run([clubs, "serve", "--help"], scratch))
    served = _run([clubs, "serve", "--port", "0"], scratch)
    assert served.returncode == 2, served
    assert "pip install 'clubsuite[server]'" in served.stderr and "Traceback" not in served.stderr, served.stderr


@pytest.mark.long
def test_the_source_distribution_and_the_wheel_build_and_pass_twine_check(tmp_path: Path) -> None:
    """What a package index would take: an sdist that holds the license, the compiled core's sources and the
    benchmark's declarations, and a wheel, both of whose metadata (the README as the long description, the license)
    ``twine check`` passes."""
    source = _copy_package(tmp_path)
    dist = tmp_path / "dist"
    if UV.exists():
        _ok(_run([str(UV), "build", "--quiet", "--sdist", "--wheel", "--out-dir", str(dist), "."], source,
                 CLUBS_NO_COMPILE="1"))  # fmt: skip
    else:
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
        _ok(_run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), "."], source, CLUBS_NO_COMPILE="1"))
        _ok(_run([sys.executable, "setup.py", "-q", "sdist", "--dist-dir", str(dist)], source, CLUBS_NO_COMPILE="1"))
    (sdist,) = dist.glob("clubsuite-*.tar.gz")
    (wheel,) = dist.glob("clubsuite-*.whl")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "setup.py", "src/clubsuite/games/whist/_core.pyx"} <= names
    assert "src/clubsuite/games/whist/benchmark.py" in names and "src/clubsuite/rl/opponents.py" in names
    twine = Path(sys.executable).parent / "twine"
    checked = _ok(_run([str(twine), "check", "--strict", str(sdist), str(wheel)], tmp_path))
    assert checked.count("PASSED") == 2, checked
