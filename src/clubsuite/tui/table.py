"""The terminal table every game's screen builds on, and how the outer layers find a game's screen.

A game's screen (its registry part ``screen``, e.g. ``games/<name>/screen.py``) subclasses :class:`Table`. The
commands (``clubs play``, ``clubs watch``) drive it; the screen says what happened and what the seat sees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from string import Formatter
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from rich.console import Console
from rich.text import Text

from clubsuite import events as shared_events
from clubsuite.bots import SomeBot
from clubsuite.cards import STANDARD, Card
from clubsuite.engine import SomeGame, SomeMatch, find_game
from clubsuite.events import Event
from clubsuite.i18n import DEFAULT, Words
from clubsuite.i18n.render import reason_words
from clubsuite.present import Fact, Known, SaidKind, asked_of, rulings_of, said_line, said_of, shown_of, wire_form
from clubsuite.reasons import Reason, reason_of
from clubsuite.safetext import safe_lines
from clubsuite.tui.render import Faces, score_table


class Marked:
    """Class texts of a screen (``rules_line = Marked.tr("...")``): the English words as written, marked for the
    catalogs (their extractor reads every ``tr("...")``); the table words them in its language when it shows them."""

    @staticmethod
    def tr(msgid: str) -> str:
        """``msgid`` itself, marked as the terminal's words."""
        return msgid

    @staticmethod
    def typed(word: str) -> str:
        """``word`` itself, marked as a word a player types (the catalogs' ``typed`` context: each language's own
        word for it, which the table accepts beside the English)."""
        return word


TYPED = "typed"
"""The catalogs' context of the words a player types at the terminal (a command, an answer): ``warum`` is German
for ``why``."""

COMMANDS = {
    Marked.typed("help"): ("?", "help", "legal"),
    Marked.typed("hint"): ("h", "hint"),
    Marked.typed("scores"): ("s", "scores"),
    Marked.typed("why"): ("w", "why"),
    Marked.typed("quit"): ("q", "quit", "exit"),
}
"""The commands a player may type instead of a move, each by its English name: the letters and words that give
it in every language (the letters are the same everywhere, so that they never clash with a language's moves); the
table's language adds its own word for each (:meth:`Table.command`)."""

EXAMPLE_CARD = STANDARD.parse("QH")
"""The card the help line's example writes in the table's language (``{card}``: ``QH``, German ``DH``)."""

HELP_LINE = Marked.tr("Enter a card (e.g. {card}) or its number; ? legal moves, h hint, s scores, q quit.")
"""How a card is entered, the default :attr:`Table.help_line` (``{card}`` is :data:`EXAMPLE_CARD` as the table's
language writes it, which is how a player types it)."""


@dataclass(frozen=True)
class Told:
    """An event as the table tells it: the event, its line in the table's language, and what it does to the table
    in the words every game shares (``deal``, ``put``, ``trick``, ``scored`` or empty)."""

    event: Event
    line: str
    kind: SaidKind


MatchT_contra = TypeVar("MatchT_contra", bound=SomeMatch, contravariant=True)


class Table(Generic[MatchT_contra]):
    """The terminal table every game's screen builds on: one console, seat names, and how to say things.

    Generic over the match it shows: a game's screen is a ``Table`` of its own match class.

    A game's screen subclasses it and provides ``public_view`` (what anyone watching sees, which its events' words
    may read), ``show_state``, ``prompt``, ``read_action``, ``legal_words``, ``show_deal`` (for spectators) and the
    class texts ``title``, ``rules_line`` and ``help_line``; it may change ``after_event`` (what it shows after an
    event beside its words), ``show_intro``, ``show_legal``, ``show_hint`` and ``show_scores``, which have plain
    defaults. The events themselves are told in the game's present words (:meth:`show_events`), or in the words
    every game shares (:func:`clubsuite.present.said_alike`) where the game has none, as the page tells them.

    Every word a player reads goes through :meth:`tr` or :meth:`trn` with its English words written out as a
    literal (the catalogs are gathered from those literals; a class text is marked with :meth:`Marked.tr`): whole
    sentences, named ``{placeholders}``. A text the catalogs lack (a game added from outside) stays English.
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
        self.lang = DEFAULT
        """The language the table is worded in (``clubs play --lang``)."""
        self.game: SomeGame | None = None
        """The game played, whose rulings ``why`` explains (set by ``clubs play``)."""
        self.last_rule: str | None = None
        """The ruling behind the last move refused, which ``why`` explains."""

    @property
    def faces(self) -> Faces:
        """How this table writes a card: suit symbols where the terminal shows them, the rank letters of
        :attr:`lang` (the alphabet its refusals name cards in)."""
        return Faces(self.symbols, self.lang)

    def card_words(self, card: Card) -> str:
        """A card as this table writes it, without colour (a list of legal moves)."""
        return self.faces.label(card)

    def action_words(self, match: MatchT_contra, action: object) -> str:
        """An action as this table writes it: a card in its alphabet (:meth:`card_words`), anything else in the
        game's notation (a hint, a bid of pass)."""
        return self.card_words(action) if isinstance(action, Card) else match.format_action(action)

    def refusal(self, refused: BaseException | str) -> str:
        """Why an action was refused, in :attr:`lang`: the catalog's words for its reason, English included (a
        player's words: no ruling ids, the seat by its player's name; a refusal that carries no reason is the
        engine's sentence)."""
        reason = reason_of(refused)
        self.last_rule = reason.rule if reason is not None else None
        if reason is None:
            return str(refused)
        return reason_words(reason, self.lang, self._seat_words, self.symbols)

    def tr(self, msgid: str, **params: object) -> str:
        """The terminal's words ``msgid`` in :attr:`lang`, ``{name}`` placeholders filled from ``params``: the
        catalog's, English included (the words in the code cite the rulings; a player reads them without), or the
        words as written where the catalog lacks them."""
        text = Words(self.lang).get(msgid)
        return text.format(**params) if params else text

    def trn(self, one: str, many: str, n: int, **params: object) -> str:
        """Words with a plural, chosen by ``n`` (``{n}`` is filled with it) in :attr:`lang`."""
        text = Words(self.lang).plural(one, many, n)
        return text.format(n=n, **params)

    def _seat_words(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat)

    def either(self, seat: int, you: str, them: str) -> str:
        """``you`` where ``seat`` is the human's, else ``them``: the two wordings of a sentence about a seat (its
        verb agrees with its subject: ``You play``, ``Cleo plays``)."""
        return you if seat == self.human else them

    def styled(self, words: str, /, **params: object) -> Text:
        """Words from :meth:`tr` called without parameters (their ``{placeholders}`` still open) filled from
        ``params``: a ``Text`` (a card in its colour) keeps its style, anything else is written plain."""
        out = Text()
        for literal, field, spec, _conversion in Formatter().parse(words):
            out.append(literal)
            if field is not None:
                value = params[field]
                if isinstance(value, Text):
                    out.append_text(value)
                else:
                    out.append(format(value, spec or ""))
        return out

    def no_card_number(self, number: int, held: int) -> str:
        """The refusal of a card number outside the hand shown (``held`` cards)."""
        return self.trn(
            "There is no card number {number}: your hand has {n} card.",
            "There is no card number {number}: your hand has {n} cards.",
            held,
            number=number,
        )

    def shown(self, text: str) -> str:
        """A class text (:attr:`rules_line`, :attr:`help_line`) in :attr:`lang`, its ``{card}`` the example card in
        the language's letters; nothing stays nothing."""
        return self.tr(text).replace("{card}", self.example_card()) if text else text

    def example_card(self) -> str:
        """:data:`EXAMPLE_CARD` as a player of :attr:`lang` types it: the language's rank letter and the suit's
        letter (``QH``; German and French ``DH``, Dutch ``VH``), which the table reads as written."""
        return Faces(False, self.lang).label(EXAMPLE_CARD)

    def typed(self, word: str) -> str:
        """The word a player of :attr:`lang` types for ``word`` (English; the catalogs' ``typed`` context), in
        lower case."""
        return Words(self.lang).get(word, TYPED).lower()

    def command(self, text: str) -> str | None:
        """The command (a key of :data:`COMMANDS`: ``why``) that ``text`` gives, by its letter, its English word or
        its word in :attr:`lang`; None where it is not a command."""
        low = text.strip().lower()
        for name, given in COMMANDS.items():
            if low in given or low == self.typed(name):
                return name
        return None

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
        self.console.print(
            score_table(self.names, match.hand_scores, match.totals, ascii_only=not self.symbols, tr=self.tr)
        )

    def after_legal(self, match: MatchT_contra) -> None:
        """What to add after the list of legal moves (the input help)."""
        self.say(self.shown(self.help_line), style="dim")

    def show_intro(self, match: MatchT_contra) -> None:
        """The reminder of the rules and of how to enter a move, shown to a player before the first deal."""
        self.say(self.shown(self.rules_line), style="dim")
        self.say(self.shown(self.help_line), style="dim")

    def show_legal(self, match: MatchT_contra) -> None:
        """Answer ``?``: the legal moves, then the input help."""
        self.say(self.tr("Legal: {moves}", moves=" ".join(self.legal_words(match))))
        self.after_legal(match)

    def show_hint(self, match: MatchT_contra, seat: int, hint_bot: SomeBot | None, rng: random.Random) -> None:
        """Answer ``h``: the move the game's heuristic bot would make."""
        if hint_bot is None:
            self.say(self.tr("No hint bot is available for this game yet."))
        else:
            self.say(
                self.tr(
                    "Hint: {move}",
                    move=self.action_words(match, hint_bot.choose(match.view(seat), match.legal_actions(), rng)),
                )
            )

    def show_why(self) -> None:
        """Answer ``why``: the rule behind the last move refused, in plain words, with its ruling's id (the one
        place the terminal shows one, as the browser's "why?" does)."""
        found = rulings_of(self.game) if self.game is not None and self.last_rule is not None else {}
        ruling = found.get(self.last_rule or "")
        if ruling is None:
            self.say(
                self.tr(
                    "No move has been refused yet: type {why} after one to read the rule behind it.",
                    why=self.typed("why"),
                )
            )
            return
        # the pages' words: their no-break spaces (French puts one before a colon) are plain spaces in a terminal
        title = reason_words(ruling.title, self.lang, self._seat_words, self.symbols).replace("\u00a0", " ")
        text = reason_words(ruling.text, self.lang, self._seat_words, self.symbols).replace("\u00a0", " ")
        self.say(self.tr("{title} ({rule}): {text}", title=title, rule=self.last_rule, text=text))

    def trick_ended(self, events: Sequence[object]) -> bool:
        """Whether ``events`` end a trick (``clubs watch --delay`` pauses after them)."""
        return any(isinstance(e, shared_events.TrickTaken) for e in events)

    # -- what happened, told as the game's presenter tells it ---------------------------------------------------------
    def seat_in(self, seat: int) -> str:
        """A seat named inside a sentence the game tells: "you" in :attr:`lang` for the player's own seat (the
        sentences about it are its own, "You play ..."), as the page names it, else its player's name."""
        return Words(self.lang).get("you") if seat == self.human else self._seat_words(seat)

    def public_view(self, match: MatchT_contra) -> Mapping[str, Any]:
        """The table as anyone watching sees it (the game's spectator view): what an event's words may read of the
        table besides the event (its players, its teams), never a card a seat holds."""
        raise NotImplementedError

    def told(self, match: MatchT_contra, events: Sequence[object]) -> list[Told]:
        """``events`` as the game's presenter tells them (:func:`clubsuite.present.said_of`), each on one line in
        :attr:`lang` as this table's reader reads it (a player's own events as "You ..."): the very line the page
        shows for it; an event nobody tells gives none."""
        info = self.info_of(match)
        view = self.public_view(match)
        out = []
        for ev in events:
            if not isinstance(ev, Event):
                continue
            told_here = said_of(info, wire_form(ev), view)
            if told_here is not None:
                line = said_line(told_here, self.human, self.lang, self.seat_in, self.symbols)
                out.append(Told(ev, line.replace("\u00a0", " "), told_here.kind))
        return out

    def show_events(self, match: MatchT_contra, events: Sequence[object]) -> None:
        """Say what just happened, in the game's words (:meth:`told`): a new hand after a blank line, in bold as the
        match's end and a hand's points are, a trick taken in colour; after each event what the game's screen adds
        of its own (:meth:`after_event`: a score sheet, the cards the reader may see move)."""
        told = {id(t.event): t for t in self.told(match, events)}
        for ev in events:
            line = told.get(id(ev))
            if line is not None:
                if line.kind == "deal":
                    self.say()
                style = "bold" if line.kind in ("deal", "scored") or isinstance(ev, shared_events.MatchEnded) else ""
                self.say(line.line, style="cyan" if line.kind == "trick" else style)
            self.after_event(match, ev)

    def info_of(self, match: MatchT_contra) -> SomeGame:
        """The game played: :attr:`game` where ``clubs play`` set it, else the game of ``match``."""
        return self.game if self.game is not None else find_game(match.game)[0]

    def worded(self, reasons: Sequence[Reason], joined: str = " ") -> str:
        """Reasons of the game's presenter in :attr:`lang`, joined: seats named as :meth:`seat_in` names them,
        cards as the table writes them (the pages' no-break spaces plain spaces, as a terminal shows them)."""
        words = (reason_words(r, self.lang, self.seat_in, self.symbols) for r in reasons)
        return joined.join(words).replace("\u00a0", " ")

    def show_asked(self, match: MatchT_contra, seat: int) -> None:
        """What ``seat``, to act now, is asked, as the game's presenter asks it (the page's prompt, word for word):
        read from the seat's view and its legal actions."""
        legal = [match.format_action(a) for a in match.legal_actions()]
        found = asked_of(self.info_of(match), match.view(seat).to_dict(), match.options, legal)
        if found is not None:
            self.say(self.worded(found.words), style="bold")

    def facts(self, match: MatchT_contra, seat: int | None) -> tuple[Fact, ...]:
        """What the game shows beside the cards to ``seat`` (None: anyone watching), as its presenter declares it."""
        view = match.view(seat).to_dict() if seat is not None else dict(self.public_view(match))
        found = shown_of(self.info_of(match), view, match.options)
        return () if found is None else found.facts

    def known(self, match: MatchT_contra, seat: int) -> tuple[Known, ...]:
        """The cards beside the hand that ``seat`` knows (what it passed or received, its bid cards), under their
        titles, as the game's presenter declares them for the seat's view."""
        found = shown_of(self.info_of(match), match.view(seat).to_dict(), match.options)
        return () if found is None else found.known

    def fact_line(self, fact: Fact) -> str:
        """One fact beside the table on one line: its label, then what it says."""
        return self.tr("{label}: {words}", label=self.worded((fact.label,)), words=self.worded(fact.words, fact.joined))

    def after_event(self, match: MatchT_contra, event: object) -> None:
        """What the game's screen shows after an event beside its words: nothing here (a game's screen adds a score
        sheet after a hand, the hidden cards its reader may see)."""

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


@runtime_checkable
class HasScreen(Protocol):
    """A game's parts that have a terminal table."""

    def screen(self) -> type[SomeTable]:
        """The table's class."""
        ...


def screen_class(info: SomeGame) -> type[SomeTable] | None:
    """The terminal screen of a game (its part ``screen``), or None if the game has none."""
    return info.parts.screen() if isinstance(info.parts, HasScreen) else None
