"""The package's layers: dependencies point inward, nothing imports the command line, no import cycle, games apart.

Every ``import`` in ``src/clubsuite`` is read with :mod:`ast` (those inside functions too: an import made late is
still a dependency), each module is placed in a layer by its name, and every import must go to the same layer or an
inner one. A game's folder holds modules of several layers: its rules (inner) and its outer parts (``bot``,
``solving``, ``objective``, ``bulk``, ``playout`` and ``differential``: the bots' layer, with the exact solver;
``screen`` and ``narration``: the terminal's; ``report``: simulation's; ``rl``: the learning adapters'), so that a
game is one folder while its rules never import a screen.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "clubsuite"

CORE, ENGINE, GAMES, RECORDS, BOTS, FACES, OUTER = range(7)
LAYER_NAMES = (
    "core",
    "engine",
    "game rules",
    "records",
    "bots",
    "screens, narration, simulation, the learning adapters and the server",
    "cli",
)

CORE_MODULES = {
    "cards",
    "errors",
    "options",
    "seeding",
    "sampling",
    "safetext",
    "copying",
    "events",
    "jsonform",
    "wording",
    "reasons",
    "card_reasons",
    "native",
}
ENGINE_MODULES = {"engine", "match_base", "view_base"}
GAME_PARTS = {
    "bot": BOTS,
    "solving": BOTS,
    "objective": BOTS,
    "bulk": BOTS,
    "playout": BOTS,
    "differential": BOTS,
    "vector": BOTS,
    "screen": FACES,
    "narration": FACES,
    "report": FACES,
    "rl": FACES,
    "schema": RECORDS,
}


def module_name(path: Path) -> str:
    """``clubsuite.games.whist.hand`` for ``src/clubsuite/games/whist/hand.py``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(name: str) -> int:
    """The layer of a module of the package, from its name."""
    parts = name.split(".")[1:]
    if not parts or parts[0] in CORE_MODULES or parts == ["games"]:
        return CORE  # the bare ``clubsuite.games`` package is only the folder the registry scans
    head = parts[0]
    if head == "i18n":  # the catalogs and their words: core; gathering every message of every game: outer
        return FACES if parts[1:] and parts[1] in ("sources", "__main__") else CORE
    if head in ENGINE_MODULES:
        return ENGINE
    if head == "games":
        return GAME_PARTS.get(parts[2], GAMES) if len(parts) > 2 else GAMES
    if head in ("records", "schema"):
        return RECORDS
    if head in ("bots", "runner", "solver"):
        return BOTS
    if head in ("tui", "narration", "sim", "server", "analysis", "rl"):
        return FACES
    if head == "cli":
        return OUTER
    raise AssertionError(f"module {name} has no layer: add it to tests/test_layers.py")


def imports_of(path: Path, name: str) -> set[str]:
    """The package modules that the module at ``path`` imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # ``from clubsuite.games import free``: the name may be a module of its own.
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                if candidate in MODULES:
                    found.add(candidate)
    return {m for m in found if m == "clubsuite" or m.startswith("clubsuite.")}


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {name: imports_of(path, name) for name, path in MODULES.items()}


def test_every_module_of_the_package_has_a_layer() -> None:
    for name in MODULES:
        layer(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_inward_and_nothing_imports_the_command_line(name: str) -> None:
    mine = layer(name)
    for target in GRAPH[name]:
        theirs = layer(target)
        assert theirs <= mine, (
            f"{name} ({LAYER_NAMES[mine]}) imports {target} ({LAYER_NAMES[theirs]}): an inner layer never imports "
            "an outer one"
        )


def test_a_game_imports_no_other_game() -> None:
    for name, targets in GRAPH.items():
        parts = name.split(".")
        if len(parts) < 3 or parts[1] != "games":
            continue
        for target in targets:
            other = target.split(".")
            if len(other) > 2 and other[1] == "games":
                assert other[2] == parts[2], f"{name} imports {target}: each game stands alone in its folder"


def test_the_package_has_no_import_cycle() -> None:
    # Depth-first search over every import (late imports included); a module's own package does not count as a
    # dependency of it (Python loads the package first anyway, and a package naming its modules is not a cycle).
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH.get(name, ())):
            if name.startswith(target + ".") or target not in GRAPH:
                continue
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name)


def test_the_layer_check_sees_a_wrong_import() -> None:
    # The check itself must be able to fail: a rules module importing a screen is outward.
    assert layer("clubsuite.games.whist.screen") > layer("clubsuite.games.whist.hand")
    assert layer("clubsuite.cli.play") > max(layer(n) for n in MODULES if not n.startswith("clubsuite.cli"))
    assert "clubsuite.tui.table" in GRAPH["clubsuite.games.whist.screen"]
