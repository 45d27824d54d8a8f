"""Generic layers hold no game names: outside ``games/<name>/`` the source names no game, so a new game touches
nothing but its own folder. Game names reach the outer layers only through the registry (defaults, help texts).

The card vocabulary (``cards.py``) holds the cards every game draws on (the standard pack, the jokers, the 60 cards
numbered 1 to 15) in one index space, without naming a game; a game names its own deck.
"""

from __future__ import annotations

import re
from pathlib import Path

from clubsuite.engine import games

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "clubsuite"
EXEMPT = {"__init__.py"}
"""The package's ``__init__`` (its front door, whose docstring may say what the package is for)."""
RULING_ID = re.compile(r"\b(CW|FC|NS|CP)-\d")
"""A ruling id belongs to one game's rules."""


ENGLISH = {"free", "partnership"}
"""Game names that are also English words ("a game of fixed partnerships"): named as a game only when quoted or
dotted (``"free"``, ``games.free``)."""


def game_words() -> re.Pattern[str]:
    """The names of every registered game and variant, and the titles' distinctive words."""
    words = {info.name for info in games()} | {v for info in games() for v in info.variants}
    plain = sorted((re.escape(w) for w in words - ENGLISH), key=len, reverse=True)
    plain += ["Free Clubs", "North Star"]
    quoted = "|".join(re.escape(w) for w in sorted(words & ENGLISH))
    return re.compile(rf"(?<![\w-])({'|'.join(plain)})(?![\w])|[\"'`.]({quoted})\b|\b({quoted})[\"'`](?!\w)")


def offending_lines() -> list[str]:
    """``path:line: text`` for every line outside a game's folder that names a game or cites a game's ruling."""
    pattern = game_words()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "games" or (len(relative.parts) == 1 and relative.name in EXEMPT):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line) or RULING_ID.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
    return found


def test_generic_layers_name_no_game_and_cite_no_game_ruling() -> None:
    assert offending_lines() == []


def test_the_name_check_finds_a_game_name() -> None:
    pattern = game_words()
    assert pattern.search("if game == 'whist':") and pattern.search("games.northstar")
    assert not pattern.search("a game of fixed partnerships") and not pattern.search("free of charge")
    assert RULING_ID.search("(CW-5)")


SCRIPTS = PACKAGE / "server" / "http" / "static" / "js"


def script_words() -> re.Pattern[str]:
    """The names of every game and variant as a script would name one: a name that is no English word anywhere,
    one that is (``free``) only as a whole string (``"free"``) or a property (``.free``)."""
    words = {info.name for info in games()} | {v for info in games() for v in info.variants}
    plain = sorted((re.escape(w) for w in words - ENGLISH), key=len, reverse=True)
    plain += ["Free Clubs", "North Star"]
    quoted = "|".join(re.escape(w) for w in sorted(words & ENGLISH))
    return re.compile(rf"(?<![\w-])({'|'.join(plain)})(?![\w])|([\"'`])({quoted})\2|\.({quoted})\b")


def offending_script_lines() -> list[str]:
    """``file:line: text`` for every line of the page's scripts that names a game or cites a game's ruling."""
    pattern = script_words()
    found = []
    for path in sorted(SCRIPTS.glob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line) or RULING_ID.search(line):
                found.append(f"{path.name}:{number}: {line.strip()}")
    return found


def test_the_pages_scripts_name_no_game_and_show_what_the_game_declares() -> None:
    assert offending_script_lines() == []


def test_the_script_check_finds_a_game_name_branched_on() -> None:
    pattern = script_words()
    assert pattern.search('if (game === "free") {') and pattern.search("game === 'northstar'")
    assert pattern.search("// Free Clubs' auction") and pattern.search("VARIANTS.whist")
    assert not pattern.search('t("free seat")') and not pattern.search("a game of fixed partnerships")
    assert (SCRIPTS / "table.js").exists() and (SCRIPTS / "board.js").exists()
