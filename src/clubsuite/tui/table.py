"""The terminal table every game's screen builds on, and how the outer layers find a game's screen.

A game's screen (its registry part ``screen``, e.g. ``games/<name>/screen.py``) subclasses :class:`Table`. The
commands (``clubs play``, ``clubs watch``) drive it; the screen says what happened and what the seat sees.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from rich.console import Console
from rich.text import Text

from clubsuite import events as shared_events
from clubsuite.bots import SomeBot
from clubsuite.engine import SomeGame, SomeMatch, load_part
from clubsuite.safetext import safe_lines
from clubsuite.tui.render import card_text, score_table

HELP_LINE = "Enter a card (e.g. 10H) or its number; ? legal moves, h hint, s scores, q quit."


MatchT_contra = TypeVar("MatchT_contra", bound=SomeMatch, contravariant=True)


class Table(Generic[MatchT_contra]):
    """The terminal table every game's screen builds on: one console, seat names, and how to say things.

    Generic over the match it shows: a game's screen is a ``Table`` of its own match class.

    A game's screen subclasses it and provides ``show_events``, ``show_state``, ``prompt``, ``read_action``,
    ``legal_words``, ``show_deal`` (for spectators) and the class texts ``title``, ``rules_line`` and ``help_line``;
    it may change ``show_intro``, ``show_legal``, ``show_hint`` and ``show_scores``, which have plain defaults.
    """

    title = "Clubs"
    """The game's name in the first line of the screen."""
    rules_line = ""
    """A one-line reminder of the rules shown to a player at the start."""
    help_line = HELP_LINE
    """How to enter a move, shown at the start and after ``?``."""
    move_help = "a card in notation (10H, TH, 10♥, QC) or its number in the list shown"
    """How a move is entered, in a few words (``clubs play --help`` lists it for every game)."""

    def __init__(self, console: Console, names: Sequence[str], human: int | None, symbols: bool) -> None:
        self.console = console
        self.names = list(names)
        self.human = human
        self.symbols = symbols
        self.prompt_open = False
        """Whether a prompt waits on its line for input (a message that cuts in starts a new line)."""

    def act(self, seat: int, verb: str) -> str:
        """``You play`` for the human, ``Random 1 plays`` for a bot."""
        if seat == self.human:
            return f"You {verb}"
        return (
            f"{self.names[seat]} {verb}es" if verb.endswith(("sh", "ch", "x", "s")) else f"{self.names[seat]} {verb}s"
        )

    def say_trick_events(self, ev: object, tricks_won: Sequence[int]) -> bool:
        """Describe a first lead, a card played or a trick won (the events every trick game shares,
        :mod:`clubsuite.events`); False for any other event."""
        if isinstance(ev, shared_events.PlayStarted):
            self.say(f"{self.act(ev.leader, 'lead')} the first trick.")
        elif isinstance(ev, shared_events.CardPlayed):
            line = Text(f"{self.act(ev.seat, 'play')} ")
            line.append_text(card_text(ev.card, self.symbols))
            self.say(line)
        elif isinstance(ev, shared_events.TrickTaken):
            counts = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(tricks_won))
            self.say(f"  {self.act(ev.seat, 'win')} trick {ev.number} (tricks: {counts})", style="cyan")
        else:
            return False
        return True

    def say(self, text: str | Text = "", style: str = "") -> None:
        """Print one line, with anything that is not printable escaped (a line may quote outside text, such as the
        input refused; a line that needed escaping loses its colours)."""
        plain = text.plain if isinstance(text, Text) else text
        safe = safe_lines(plain)
        if safe != plain:
            text = safe
        self.console.print(text, style=style or None, highlight=False, soft_wrap=True, markup=False)

    def _totals(self, match: MatchT_contra) -> str:
        return ", ".join(f"{self.names[s]} {t:+d}" for s, t in enumerate(match.totals))

    def show_scores(self, match: MatchT_contra) -> None:
        """The score sheet of the match so far."""
        self.console.print(score_table(self.names, match.hand_scores, match.totals, ascii_only=not self.symbols))

    def after_legal(self, match: MatchT_contra) -> None:
        """What to add after the list of legal moves (the input help)."""
        self.say(self.help_line, style="dim")

    def show_intro(self, match: MatchT_contra) -> None:
        """The reminder of the rules and of how to enter a move, shown to a player before the first deal."""
        self.say(self.rules_line, style="dim")
        self.say(self.help_line, style="dim")

    def show_legal(self, match: MatchT_contra) -> None:
        """Answer ``?``: the legal moves, then the input help."""
        self.say("Legal: " + " ".join(self.legal_words(match)))
        self.after_legal(match)

    def show_hint(self, match: MatchT_contra, seat: int, hint_bot: SomeBot | None, rng: random.Random) -> None:
        """Answer ``h``: the move the game's heuristic bot would make."""
        if hint_bot is None:
            self.say("No hint bot is available for this game yet.")
        else:
            self.say(f"Hint: {match.format_action(hint_bot.choose(match.view(seat), match.legal_actions(), rng))}")

    def trick_ended(self, events: Sequence[object]) -> bool:
        """Whether ``events`` end a trick (``clubs watch --delay`` pauses after them)."""
        return any(isinstance(e, shared_events.TrickTaken) for e in events)

    def show_events(self, match: MatchT_contra, events: Sequence[object]) -> None:
        """Describe what just happened (each game's screen says it its own way)."""
        raise NotImplementedError

    def show_state(self, match: MatchT_contra, seat: int) -> None:
        """The human's screen before a decision."""
        raise NotImplementedError

    def show_deal(self, match: MatchT_contra) -> None:
        """For spectators: every hidden card of the hand just dealt."""
        raise NotImplementedError

    def prompt(self, match: MatchT_contra, seat: int) -> str:
        """The question put to the human."""
        raise NotImplementedError

    def legal_words(self, match: MatchT_contra) -> list[str]:
        """The legal actions in notation, in display order."""
        raise NotImplementedError

    def read_action(self, match: MatchT_contra, seat: int, text: str) -> object | None:
        """Read the human's input as an action, or say what is wrong with it and return None."""
        raise NotImplementedError


SomeTable = Table[Any]
"""The screen of a game chosen by name at run time (its match type is known only then)."""


def screen_class(info: SomeGame) -> type[SomeTable] | None:
    """The terminal screen of a game (its registry part ``screen``), or None if the game has none."""
    cls = load_part(info, "screen")
    if cls is None:
        return None
    if not (isinstance(cls, type) and issubclass(cls, Table)):
        raise TypeError(f"the screen of {info.name} is not a Table subclass: {cls!r}")
    return cls
