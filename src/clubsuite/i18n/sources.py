"""Every message the catalogs must hold, gathered from where it is written: the engine's refusal templates
(:mod:`clubsuite.reasons`, one per reason code), the names of suits and ranks, the page's own words (the strings its
scripts pass to ``t(...)`` and ``tn(...)``, found by Babel's JavaScript extractor) and the terminal's (the strings
its screens pass to ``self.tr(...)`` and ``self.trn(...)``, found by Babel's Python extractor)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.extract import extract

from clubsuite.engine import games
from clubsuite.lesson import lesson_of
from clubsuite.present import load_presentation
from clubsuite.reasons import NUMBER_WORDS, SUITS, templates

SCRIPTS = Path(__file__).resolve().parents[1] / "server" / "http" / "static" / "js"
"""The page's scripts, whose ``t("...")`` and ``tn("...", "...", n)`` words are messages."""
APP_SCRIPTS = Path(__file__).resolve().parents[1] / "app" / "static" / "js"
"""The offline app's own scripts (its lobby, its side of the worker): their words are the page's too."""
JS_KEYWORDS = {"t": (1,), "tn": (1, 2)}
"""The page's translation functions, as Babel's extractor reads them."""

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace", "joker")
"""Rank names a card's name uses (the cards numbered 1 to 15 are named by their number)."""


@dataclass(frozen=True)
class Message:
    """One message: its English words, plural, context and a note for the translator."""

    msgid: str
    plural: str | None = None
    context: str | None = None
    note: str = ""


def reason_messages() -> Iterator[Message]:
    """One message per refusal template, keyed by its reason code."""
    for info in games():  # every game registered, and with it every game's refusals
        load_presentation(info)  # and what its table shows, asks and tells, its rulings in plain words
        lesson_of(info)  # and the steps of the guided first hand (clubsuite.lesson)
    for code, kind in sorted(templates().items()):
        what = "What an offered action does" if ".offer_" in code else "Refusal"
        what = "A step of the guided first hand" if "lesson" in code else what
        what = "What the table shows beside the cards" if "shown" in code else what
        what = "What the seat to act is asked" if ".ask_" in code else what
        what = "The label of an action's button" if ".label_" in code or code in ("shown.play", "shown.pass") else what
        what = "A ruling in plain words, for a player's why?" if ".ruling_" in code else what
        what = "What happened at the table, told" if "said" in code else what
        note = f"{what} {code}" + (f" (ruling {kind.rule})" if kind.rule else "") + ". Parameters: "
        note += ", ".join(sorted(kind.fields())) or "none"
        yield Message(kind.text, kind.plural, code, note)


def card_messages() -> Iterator[Message]:
    """Suit and rank names, and how a card's name is made of them."""
    for suit in SUITS:
        yield Message(suit, None, "suit", "a suit's name in a sentence, plural: no hearts")
        yield Message(suit[:-1], None, "suit.one", "a suit's name in a sentence, singular: a heart")
        yield Message(suit, None, "suit.card", "a suit's name in a card's name: queen of hearts")
    for rank in RANKS:
        yield Message(rank, None, "rank", "a rank's name in a card's name")
    for letter in ("J", "Q", "K", "A"):
        yield Message(letter, None, "rank.short", "a rank's letter in a card written short: Q as in Q\u2665")
    yield Message("{rank} of {suit}", None, "card", "a card's name: queen of hearts")
    yield Message("Joker {n}", None, "card.joker", "a Joker's name: Joker 1")
    yield Message("seat {n}", None, "seat", "a seat named by its number, counted from 1")
    yield Message("{card} as {n}", None, "card.wild", "a wild 15 and the value it stands for: 15 of clubs as 7")
    for word in NUMBER_WORDS.values():
        yield Message(word, None, "number", "a count in words, in a sentence: play two cards")


def lobby_messages() -> Iterator[Message]:
    """The words the server gives in English for a page to look up (context ``words``): each game's name and
    summary, its options' labels, help, values and short words, its variants, the bots a seat may be given, and the
    words of a flag's value."""
    from clubsuite import naming  # the lobby's words (imported here: the catalogs' sources, not a layer)

    context = naming.WORDS
    for info in games():
        words = naming.game_words(info)
        yield Message(words.title, None, context, f"a game's name: {info.name}")
        yield Message(info.title, None, context, f"a game's full name: {info.name}")
        yield Message(info.summary, None, context, f"a game in a few words: {info.name}")
        for key, option in words.options.items():
            where = f"{info.name}, option {key}"
            yield Message(option.label, None, context, f"{where}: its label")
            yield Message(option.help, None, context, f"{where}: what it does")
            shorts = [option.short] if isinstance(option.short, str) else list(option.short.values())
            if option.one and isinstance(option.short, str):  # a number's words, with a plural
                yield Message(option.one, option.short, context, f"{where}: in a table's name ({{}} is the number)")
                shorts = []
            for short in shorts:
                yield Message(short, None, context, f"{where}: in a table's name ({{}} is the value)")
            for label in option.choices.values():
                yield Message(label, None, context, f"{where}: a choice")
        for name, variant in words.variants.items():
            yield Message(variant.label, None, context, f"{info.name}, variant {name}: its name")
            yield Message(variant.description, None, context, f"{info.name}, variant {name}: what it changes")
    for label in naming.BOT_WORDS.values():
        yield Message(label, None, context, "a bot a seat may be given")
    for value in ("on", "off"):
        yield Message(value, None, context, "an option's value: on or off")


def page_messages() -> Iterator[Message]:
    """The words the page's scripts translate, in file order."""
    for path in [*sorted(SCRIPTS.glob("*.js")), *sorted(APP_SCRIPTS.glob("*.js"))]:
        with path.open("rb") as f:
            for _line, text, _comments, _context in extract("javascript", f, keywords=JS_KEYWORDS):
                if isinstance(text, tuple):
                    yield Message(text[0], text[1], None, f"page: {path.name}")
                else:
                    yield Message(text, None, None, f"page: {path.name}")


def theme_messages() -> Iterator[Message]:
    """Each game's puzzle themes (context ``words``, as the lobby's): a theme's name and what it means."""
    from clubsuite import naming
    from clubsuite.puzzles.themes import theme_names

    for info in games():
        for theme, (name, meaning) in theme_names(info.name).items():
            yield Message(name, None, naming.WORDS, f"{info.name}, a puzzle's theme {theme}: its name")
            yield Message(meaning, None, naming.WORDS, f"{info.name}, a puzzle's theme {theme}: what it means")


PYTHON_KEYWORDS = {"tr": (1,), "trn": (1, 2)}
"""The terminal's translation methods (``self.tr("...")``, ``self.trn("...", "...", n)`` of a screen)."""
TYPED_KEYWORDS = {"typed": (1,)}
"""The words a player types at the terminal (``Marked.typed("why")``), each language's own in the ``typed``
context."""


def terminal_sources() -> list[Path]:
    """The terminal's screens, whose ``tr``/``trn`` words are messages: the shared table, each game's screen and
    the lines ``clubs play`` and ``clubs watch`` say around a match."""
    package = Path(__file__).resolve().parents[1]
    tables = [*(package / "tui").glob("*.py"), *(package / "games").glob("*/screen.py")]
    return sorted([*tables, package / "cli" / "play.py", package / "cli" / "saving.py", package / "cli" / "puzzle.py"])


def terminal_messages() -> Iterator[Message]:
    """The words the terminal translates, in file order."""
    package = Path(__file__).resolve().parents[1]
    for path in terminal_sources():
        with path.open("rb") as f:
            for _line, text, _comments, _context in extract("python", f, keywords=PYTHON_KEYWORDS):
                where = f"terminal: {path.relative_to(package)}"
                if isinstance(text, tuple):
                    yield Message(text[0], text[1], None, where)
                else:
                    yield Message(text, None, None, where)
        with path.open("rb") as f:
            for _line, text, _comments, _context in extract("python", f, keywords=TYPED_KEYWORDS):
                yield Message(
                    str(text),
                    None,
                    "typed",
                    f"terminal: {path.relative_to(package)}: a word or key a player types (one word, lower case, "
                    "unlike the others of its prompt and never a move)",
                )


def mail_messages() -> Iterator[Message]:
    """The words of the reminders' e-mails and of their links' pages (context ``mail``)."""
    from clubsuite.server.turns.mail import CONTEXT, MESSAGES

    for text, plural, note in MESSAGES:
        yield Message(text, plural, CONTEXT, f"e-mail: {note}")


def messages() -> list[Message]:
    """Every message, each once (the first place it is met gives its note)."""
    seen: dict[tuple[str | None, str], Message] = {}
    every = (
        *reason_messages(),
        *card_messages(),
        *lobby_messages(),
        *theme_messages(),
        *page_messages(),
        *mail_messages(),
    )
    for message in (*every, *terminal_messages()):
        seen.setdefault((message.context, message.msgid), message)
    return list(seen.values())
