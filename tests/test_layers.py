"""The package's layers: dependencies point inward, nothing imports the command line, no import cycle, games apart.

Every ``import`` in ``src/clubsuite`` is read with :mod:`ast` (those inside functions too: an import made late is
still a dependency), each module is placed in a layer by its name (:data:`LAYERS`, inner first), and every import
must go to the same layer or an inner one. Above the bots each package is a layer of its own, so an import between
two packages can run one way only, and a self-test shows that each arrow that once ran back up (puzzles to the
server, bots to the learning interfaces, imitation learning to the benchmark's evaluation) fails the check. A game's
folder holds modules of several layers: its rules (inner) and its outer parts (:data:`GAME_PARTS`: ``bot``,
``solving``, ``objective``, ``bulk``, ``playout``, ``differential``: the bots'; ``rl``, the game's action ids and
observation: the coding's, which a learned bot reads; ``present`` and ``why``: presentation's; ``screen``: the
terminal's; ``report``: simulation's; ``themes``: the puzzles'), so that a game is one folder
while its rules never import a screen. Its table of parts (``parts.py``) stands with its rules: at its top it imports
only the engine; each of its methods imports one part of its own game when called, and the types it names for the
type checker (under ``TYPE_CHECKING``) may come from any layer but the command line.

Inside the server the same holds between its parts, inner first: the modules at its top (limits, tokens, logs,
workers), ``store`` (the database), ``people`` (accounts and ratings), ``table`` (tables in play), ``community`` (the
rated queue, club nights) and ``http`` (the web application).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path
from types import MappingProxyType

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "clubsuite"

LAYERS = (
    "core",
    "engine",
    "game rules",
    "records and ratings",
    "the exact solver",
    "the coding of actions and observations",
    "bots and the runner that plays them",
    "presentation",
    "replay narration",
    "lessons",
    "the terminal table and screens",
    "analysis",
    "simulation",
    "learning interfaces and the benchmark's environments",
    "imitation learning",
    "puzzles",
    "the offline table in the page",
    "the benchmark's evaluation",
    "server",
    "the catalogs' sources",
    "the offline app's build",
    "cli",
)
"""The layers, inner first: a module imports only modules of its own layer or of inner ones. Above the bots every
package is a layer of its own, so that an import between two of them runs one way only: ``puzzles`` never reaches
the server, the bots never reach the learning interfaces, imitation learning never reaches the benchmark's
evaluation (each names the modules it shares with the other, in the layer below both)."""
(
    CORE,
    ENGINE,
    GAMES,
    RECORDS,
    SOLVER,
    CODING,
    BOTS,
    PRESENT,
    NARRATION,
    LESSON,
    TUI,
    ANALYSIS,
    SIM,
    RL,
    LEARNING,
    PUZZLES,
    OFFLINE,
    BENCHMARK,
    SERVER,
    SOURCES,
    APP,
    OUTER,
) = range(len(LAYERS))
LAYER_NAMES = LAYERS

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
    "npzread",
    "docblock",
    "pools",
}
ENGINE_MODULES = {"engine", "match_base", "view_base"}
PACKAGES = {
    "records": RECORDS,
    "schema": RECORDS,
    "ratings": RECORDS,
    "solver": SOLVER,
    "coding": CODING,
    "bots": BOTS,
    "runner": BOTS,
    "present": PRESENT,
    "naming": PRESENT,
    "narration": NARRATION,
    "lesson": LESSON,
    "tabletalk": LESSON,
    "tui": TUI,
    "analysis": ANALYSIS,
    "sim": SIM,
    "rl": RL,
    "learning": LEARNING,
    "puzzles": PUZZLES,
    "offline": OFFLINE,
    "benchmark": BENCHMARK,
    "server": SERVER,
    "app": APP,
    "cli": OUTER,
}
"""The layer of each package (or module) above the engine, by the first part of its name."""
GAME_PARTS = {
    "schema": RECORDS,
    "rl": CODING,
    "bot": BOTS,
    "solving": BOTS,
    "objective": BOTS,
    "bulk": BOTS,
    "playout": BOTS,
    "differential": BOTS,
    "vector": BOTS,
    "endgame": BOTS,
    "benchmark": BOTS,
    "present": PRESENT,
    "why": PRESENT,
    "themes": PUZZLES,
    "screen": TUI,
    "lesson": LESSON,
    "tabletalk": LESSON,
    "report": SIM,
}
"""The layer of each outer part of a game's folder (the other modules of the folder are its rules)."""


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
        return SOURCES if parts[1:] and parts[1] in ("sources", "__main__") else CORE
    if head in ENGINE_MODULES:
        return ENGINE
    if head == "games":
        return GAME_PARTS.get(parts[2], GAMES) if len(parts) > 2 else GAMES
    if head in PACKAGES:
        return PACKAGES[head]
    raise AssertionError(f"module {name} has no layer: add it to tests/test_layers.py")


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> set[str]:
    """The package modules one import statement names (``package``: the package a relative import starts from)."""
    if isinstance(node, ast.Import):
        found = {alias.name for alias in node.names}
    else:
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - node.level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        found = {base}
        # ``from clubsuite.games import free``: the name may be a module of its own.
        found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULE_NAMES)
    return {m for m in found if m == "clubsuite" or m.startswith("clubsuite.")}


def _is_type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (the block the type checker alone reads)."""
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def sorted_imports(source: str, name: str, is_package: bool = False) -> dict[str, set[str]]:
    """The package modules a module's source imports, by when: ``eager`` (at its top, when it is imported),
    ``late`` (inside a function: when the function runs) and ``typing`` (under ``if TYPE_CHECKING:``)."""
    package = name if is_package else name.rpartition(".")[0]
    out: dict[str, set[str]] = {"eager": set(), "late": set(), "typing": set()}

    def walk(node: ast.AST, when: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                out[when] |= _targets(child, package)
            inner = when
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "typing" if when == "typing" else "late"
            elif _is_type_checking(child):
                inner = "typing"
            walk(child, inner)

    walk(ast.parse(source), "eager")
    return out


def is_parts_table(name: str) -> bool:
    """Whether ``name`` is a game's table of parts (``clubsuite.games.<game>.parts``)."""
    parts = name.split(".")
    return len(parts) == 4 and parts[1] == "games" and parts[3] == "parts"


def imports_of(path: Path, name: str) -> set[str]:
    """The package modules that the module at ``path`` depends on: anywhere in it (an import made late is still a
    dependency), but for a game's table of parts, whose late imports each point at one of its game's parts and
    whose typing imports name the types its parts must have (:func:`test_a_games_parts_table...`)."""
    found = sorted_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")
    if is_parts_table(name):
        return found["eager"]
    return found["eager"] | found["late"] | found["typing"]


def parts_table_problems(name: str, found: dict[str, set[str]]) -> list[str]:
    """What is wrong with a game's table of parts: a late import of anything but its own game's modules (each
    method imports its own part, nothing else), or a typing import of the command line."""
    game = ".".join(name.split(".")[:3])
    wrong = [
        f"{name} imports {t} when a part is asked for: only its game's own modules"
        for t in sorted(found["late"])
        if t != game and not t.startswith(game + ".")
    ]
    wrong += [f"{name} names a type of {t}: the command line" for t in sorted(found["typing"]) if layer(t) == OUTER]
    return wrong


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
MODULE_NAMES = set(MODULES)


@functools.cache
def graph() -> Mapping[str, frozenset[str]]:
    """Each module's imports (:func:`imports_of`), read when a test first asks: reading every module's source takes
    seconds, which every test process would otherwise spend collecting, whether or not it runs these tests. Kept
    for the process, so no test may change it (frozen)."""
    return MappingProxyType({name: frozenset(imports_of(path, name)) for name, path in MODULES.items()})


def test_every_module_of_the_package_has_a_layer() -> None:
    for name in MODULES:
        layer(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_inward_and_nothing_imports_the_command_line(name: str) -> None:
    mine = layer(name)
    for target in graph()[name]:
        theirs = layer(target)
        assert theirs <= mine, (
            f"{name} ({LAYER_NAMES[mine]}) imports {target} ({LAYER_NAMES[theirs]}): an inner layer never imports "
            "an outer one"
        )


def test_a_game_imports_no_other_game() -> None:
    for name, targets in graph().items():
        parts = name.split(".")
        if len(parts) < 3 or parts[1] != "games":
            continue
        for target in targets:
            other = target.split(".")
            if len(other) > 2 and other[1] == "games":
                assert other[2] == parts[2], f"{name} imports {target}: each game stands alone in its folder"


PARTS_TABLES = sorted(n for n in MODULES if is_parts_table(n))


def test_every_game_has_a_table_of_parts() -> None:
    games = {n.split(".")[2] for n in MODULES if n.startswith("clubsuite.games.") and n.count(".") == 2}
    assert {n.split(".")[2] for n in PARTS_TABLES} == games


@pytest.mark.parametrize("name", PARTS_TABLES)
def test_a_games_parts_table_imports_each_part_when_asked_and_only_its_own(name: str) -> None:
    found = sorted_imports(MODULES[name].read_text(encoding="utf-8"), name)
    assert found["late"], f"{name} imports no part when asked: its methods should"
    assert parts_table_problems(name, found) == []


def test_the_parts_table_check_sees_a_wrong_import() -> None:
    name = "clubsuite.games.whist.parts"
    eager = sorted_imports("from clubsuite.tui.table import Table\n", name)
    assert layer(next(iter(eager["eager"]))) > layer(name)  # a part imported at the top: an outward arrow
    other_game = sorted_imports("def f():\n    from clubsuite.games.free.screen import FreeTable\n", name)
    assert parts_table_problems(name, other_game) != []
    own = sorted_imports("def f():\n    from clubsuite.games.whist import bot\n", name)
    assert parts_table_problems(name, own) == []
    cli = sorted_imports("if TYPE_CHECKING:\n    from clubsuite.cli.play import main\n", name)
    assert parts_table_problems(name, cli) != []
    typed = sorted_imports("if TYPE_CHECKING:\n    from clubsuite.tui.table import Table\n", name)
    assert typed["eager"] == set() and parts_table_problems(name, typed) == []


def test_the_package_has_no_import_cycle() -> None:
    # Depth-first search over every import (late imports included); a module's own package does not count as a
    # dependency of it (Python loads the package first anyway, and a package naming its modules is not a cycle).
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph().get(name, ())):
            if name.startswith(target + ".") or target not in graph():
                continue
            if state.get(target) == 1:
                cycle = [*stack[stack.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph()):
        if name not in state:
            visit(name)


def outward(name: str, target: str) -> bool:
    """Whether ``name`` importing ``target`` runs outward (what :func:`test_imports_point_inward...` refuses)."""
    return layer(target) > layer(name)


def test_the_layer_check_sees_a_wrong_import() -> None:
    # The check itself must be able to fail: a rules module importing a screen is outward.
    assert layer("clubsuite.games.whist.screen") > layer("clubsuite.games.whist.hand")
    assert layer("clubsuite.cli.play") > max(layer(n) for n in MODULES if not n.startswith("clubsuite.cli"))
    assert "clubsuite.tui.table" in graph()["clubsuite.games.whist.screen"]


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("clubsuite.puzzles.rating", "clubsuite.server.people.results"),  # puzzles -> server
        ("clubsuite.bots.policy", "clubsuite.rl.aec"),  # bots -> rl (rl -> bots is the allowed way)
        ("clubsuite.learning.positions", "clubsuite.benchmark.evaluate"),  # learning -> benchmark
        ("clubsuite.sim.calibration", "clubsuite.server.store.database"),  # simulation -> server
        ("clubsuite.bots.pimc", "clubsuite.analysis.review"),  # bots -> the review that reads them
        ("clubsuite.rl.vector", "clubsuite.learning.network"),  # learning interfaces -> imitation learning
        ("clubsuite.offline.table", "clubsuite.server.table.live"),  # the page's core -> the server it stands without
        ("clubsuite.tabletalk", "clubsuite.server.table.protocol"),  # the shared messages -> one transport's
    ],
)
def test_each_back_arrow_fails_the_layer_check(name: str, target: str) -> None:
    # The arrows that once ran back up: each is refused, and its reverse is allowed.
    assert outward(name, target)
    assert not outward(target, name)


SERVER_PARTS = ("store", "people", "table", "community", "puzzles", "turns", "http")
"""The server's subpackages, inner first: each imports only those before it and the modules at the server's top
(which import none of them). ``store`` the database; ``people`` accounts and ratings; ``table`` tables in play;
``community`` the rated queue and club nights, which seat people at tables; ``puzzles`` the puzzles served and
rated; ``turns`` turn-based tables' clocks and the reminders of players away; ``http`` the web application."""
SERVER_TOP_MODULES = ("limits", "tokens", "decency", "logs", "workers")
SERVER_TOP = {"clubsuite.server", *(f"clubsuite.server.{m}" for m in SERVER_TOP_MODULES)}
"""The modules at the server's top, which every part of it may use: at most a dozen."""
SERVER_PLACES = ("the server's top", *SERVER_PARTS)


def server_rank(name: str) -> int | None:
    """0 for a module at the server's top, 1 + its subpackage's place in :data:`SERVER_PARTS` for one below; None
    outside the server."""
    parts = name.split(".")
    if parts[:2] != ["clubsuite", "server"]:
        return None
    if len(parts) > 2 and parts[2] in SERVER_PARTS:
        return 1 + SERVER_PARTS.index(parts[2])
    assert name in SERVER_TOP, f"{name} is at the server's top: put it in a subpackage, or add it to SERVER_TOP"
    return 0


def outward_imports(name: str, targets: AbstractSet[str]) -> list[str]:
    """The imports of server module ``name`` that go to a later (outer) server part than its own."""
    mine = server_rank(name)
    assert mine is not None
    wrong = []
    for target in sorted(targets):
        theirs = server_rank(target)
        if theirs is not None and theirs > mine and not name.startswith(target + "."):
            wrong.append(f"{name} ({SERVER_PLACES[mine]}) imports {target} ({SERVER_PLACES[theirs]})")
    return wrong


def test_the_server_top_stays_small_and_every_server_module_has_a_place() -> None:
    assert len(SERVER_TOP) <= 12
    for name in MODULES:
        server_rank(name)


@pytest.mark.parametrize("name", sorted(n for n in MODULES if server_rank(n) is not None))
def test_the_server_parts_import_inward(name: str) -> None:
    assert outward_imports(name, graph()[name]) == []


def test_the_server_order_sees_a_wrong_import() -> None:
    assert outward_imports("clubsuite.server.store.database", {"clubsuite.server.http.app"}) != []
    assert outward_imports("clubsuite.server.people.accounts", {"clubsuite.server.table.hub"}) != []
    assert outward_imports("clubsuite.server.limits", {"clubsuite.server.table.protocol"}) != []
    assert outward_imports("clubsuite.server.http.app", {"clubsuite.server.store.database"}) == []
    assert "clubsuite.server.table.hub" in graph()["clubsuite.server.community.matchmaking"]
