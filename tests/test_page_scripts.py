"""The page's scripts (``server/http/static/js``) as modules: each import names a script that exists, and no two
scripts import each other, directly or round a longer loop (a cycle makes which module runs first depend on which
page loads them, and a value read while loading undefined)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "src" / "clubsuite" / "server" / "http" / "static" / "js"
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?\sfrom\s+["']\./([\w.-]+\.js)["']""", re.MULTILINE)


def imports_of(text: str) -> set[str]:
    """The scripts of this folder that a script's text imports or re-exports from (``from "./x.js"``)."""
    return set(IMPORT.findall(text))


GRAPH = {path.name: imports_of(path.read_text(encoding="utf-8")) for path in sorted(SCRIPTS.glob("*.js"))}


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (the scripts round it, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph.get(name, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_the_folder_holds_the_page_scripts() -> None:
    assert {"table.js", "cards.js", "i18n.js", "notation.js", "lobby.js"} <= set(GRAPH)


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_every_import_names_a_script_that_exists(name: str) -> None:
    assert GRAPH[name] <= set(GRAPH), f"{name} imports {sorted(GRAPH[name] - set(GRAPH))}"


def test_no_scripts_import_each_other() -> None:
    assert cycle_in(GRAPH) is None, " -> ".join(cycle_in(GRAPH) or [])


def test_the_cycle_check_sees_a_cycle() -> None:
    assert imports_of('import {a} from "./a.js";\nexport {b} from "./b.js";') == {"a.js", "b.js"}
    assert cycle_in({"cards.js": {"i18n.js"}, "i18n.js": {"cards.js"}}) == ["cards.js", "i18n.js", "cards.js"]
    assert cycle_in({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": set()}) is None
