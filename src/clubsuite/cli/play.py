"""``clubs play`` and ``clubs watch``: a match in the terminal, against bots or between bots.

Works in a colour terminal and with piped standard input (plain output, no colour), so games can be scripted and
tested. The game brings its screen (its registry part ``screen``, a :class:`clubsuite.tui.table.Table`), which
reads a human's moves in the game's notation; input reading (:mod:`clubsuite.cli.lineinput`), ``?``/``h``/``s``/``q``,
``--save`` (:mod:`clubsuite.cli.saving`), stop signals (:mod:`clubsuite.cli.stopping`), ``--seed``, ``--bots`` and
``--players`` are shared, for any number of seats.
"""

from __future__ import annotations

import os
import random
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import click
from rich.console import Console

from clubsuite.bots import SomeBot, make_bot
from clubsuite.bots.base import split_bot_list
from clubsuite.bots.personas import level_words, persona_names
from clubsuite.cli.common import (
    MAX_SEED,
    FiniteFloatRange,
    fail,
    handle_errors,
    with_players,
)
from clubsuite.cli.describe import FillsHelp, default_game_name
from clubsuite.cli.lineinput import UnreadableLineError, read_line
from clubsuite.cli.saving import Saver, check_save_path, input_ended, save_and_say, stopped
from clubsuite.cli.stopping import Stopped, StopSignals
from clubsuite.engine import SomeGame, SomeMatch, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.i18n import LANGUAGES, Words, from_environment, parse_language
from clubsuite.i18n.render import english_notation
from clubsuite.runner import deal_next
from clubsuite.safetext import quoted, shown
from clubsuite.seeding import derive_seed
from clubsuite.tui.table import SomeTable, screen_class

SPEC_SHOWN = 200
"""The most characters of the rules spec shown in the first line of the screen."""

QUIT = "quit"
"""What :func:`human_action` returns when the player asks to stop."""


def human_action(
    table: SomeTable, match: SomeMatch, seat: int, hint_bot: SomeBot | None, rng: random.Random
) -> object | None:
    """Ask the human until they give a legal action; :data:`QUIT` if they quit, None at the end of input."""
    table.show_state(match, seat)
    while True:
        try:
            table.prompt_open = True
            text = read_line(table.prompt(match, seat), table.console)
            table.prompt_open = False
        except UnreadableLineError as exc:
            table.prompt_open = False
            table.say(str(exc), style="red")
            continue
        if text is None:
            return None
        if not text:
            continue
        command = table.command(text)  # a letter, the English word or the table's language's (warum)
        if command == "quit":
            return QUIT
        if command == "help":
            table.show_legal(match)
            continue
        if command == "hint":
            table.show_hint(match, seat, hint_bot, rng)
            continue
        if command == "scores":
            table.show_scores(match)
            continue
        if command == "why":
            table.show_why()
            continue
        action = table.read_action(match, seat, english_notation(text, table.lang))
        if action is None:
            continue
        reason = match.explain(action, seat)  # as this seat: an action another seat may not make is refused
        if reason is not None:
            table.say(table.refusal(reason), style="red")
            continue
        return action


def _hint_bot(game: str) -> SomeBot | None:
    """The heuristic bot of ``game`` for hints, or None if the game has none yet."""
    try:
        return make_bot("heuristic", game)
    except InvalidOptionsError:
        return None


@dataclass(frozen=True)
class _Setup:
    """What the command line decided: the game, its options and spec, the seat count and the bots."""

    info: SomeGame
    options: object
    spec: str
    """The rules spec played (``--variant`` or GAME, with ``players=N`` added by ``--players``)."""
    n_seats: int
    bots: list[str]
    """The bot names, one per bot seat in seat order."""
    screen: type[SomeTable]
    """The game's terminal screen."""


def _bot_names(seed: int, bots: dict[int, str]) -> dict[int, str]:
    """The names the bots at ``bots`` (seat -> bot) go by, as a table in the browser names its bots (``Cleo``,
    never ``Heuristic 1``): chosen from the seed, so a match dealt again from its seed meets the same players."""
    return persona_names(f"seed {seed}", list(bots), [])


def _at_the_table(table: SomeTable, names: list[str], bots: dict[int, str]) -> str:
    """Who sits where, in turn order, each bot with its level in words (``Cleo (normal bot)``): a player tells the
    bots apart by name in play, and learns here which is which."""
    words = Words(table.lang)
    shown_names = [
        table.tr("{name} ({level})", name=names[s], level=words.get(level_words(bots[s]))) if s in bots else names[s]
        for s in range(len(names))
    ]
    return table.tr("At the table, in turn order: {players}", players=", ".join(shown_names))


def _setup(
    game: str,
    variant: str | None,
    players: int | None,
    bots: str | None,
    humans: int,
    seats: dict[str, int],
) -> _Setup:
    """Read GAME, ``--variant``, ``--players`` and ``--bots``; ``humans`` is how many seats are not bots (1 for
    ``play``, 0 for ``watch``); ``seats`` maps the seat options given (``--seat``, ``--first-dealer``, counted
    from 1 as players count) to their
    values, each checked against the number of seats."""
    if variant is not None and not variant.strip():
        fail(f"--variant is empty: give a spec such as {default_game_name()}")
    spec = with_players(variant or game, players)
    try:
        info, options = resolve(spec)
    except InvalidOptionsError as exc:
        if players is not None and f"players={players}" in str(exc):
            fail(f"{exc} (from --players {players})")
        raise
    if variant is not None:
        game_info, _ = resolve(game)
        if game_info.name != info.name:
            fail(f"--variant {quoted(variant)} is a spec of {info.name}, but the game given is {quoted(game)}")
    screen = screen_class(info)
    if screen is None:
        fail(f"{info.title} cannot be played in the terminal yet")
    n_seats = info.n_seats(options)
    for option, value in seats.items():
        if value > n_seats:
            fail(f"{option} {value}: {info.title} with {n_seats} players has seats 1 to {n_seats}")
    if bots is None:
        bots = "heuristic"
    names = split_bot_list(bots)
    if not all(names):
        fail(f"--bots {quoted(bots)} has an empty bot name")
    need = n_seats - humans
    if len(names) == 1:
        names = names * need
    if len(names) != need:
        fail(f"--bots needs {need} bot names (or one for all), got {len(names)}: {quoted(bots)}")
    for n in names:
        try:
            make_bot(n, info.name)  # validates the name
        except InvalidOptionsError as exc:
            if n == "heuristic":  # the default: say how to play anyway, never substitute silently
                fail(f"{exc} (no heuristic bot for {info.title} yet: try --bots random)")
            raise
    return _Setup(info, options, spec, n_seats, names, screen)


class _Console(Console):
    """A console that ends quietly, like the other commands, when the reader of a pipe stops reading."""

    def on_broken_pipe(self) -> None:
        """Send the rest to nowhere and exit with status 0 (``clubs watch ... | head`` is a normal use)."""
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(0)


def _console(plain: bool) -> Console:
    if plain:
        return _Console(no_color=True, highlight=False, emoji=False, width=120, force_terminal=False)
    return _Console(highlight=False)


SYMBOLS = "\u2663\u2666\u2665\u2660\u00b7"
"""The suit symbols and the middle dot, which the screens use where the terminal can show them."""


def _symbols(console: Console, plain: bool) -> bool:
    """Whether to show suits as symbols: on a terminal (not piped) whose encoding can write them; otherwise cards
    are written with letters (10H), which every encoding can show."""
    if plain:
        return False
    try:
        SYMBOLS.encode(console.encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _seed(seed: int | None) -> int:
    return seed if seed is not None else secrets.randbelow(2**31)


common_options = [
    click.option(
        "--seed",
        type=click.IntRange(0, MAX_SEED),
        default=None,
        help="Seed of the deals, 0 to 2**64 - 1 (default: random; printed at the end).",
    ),
    click.option(
        "--variant",
        default=None,
        metavar="SPEC",
        help="Rules spec of the game, overriding GAME, e.g. {examples}.",
    ),
    click.option(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="How many players, for a game where it is an option ({players}).",
    ),
    click.option(
        "--save",
        "save_path",
        type=click.Path(path_type=Path),
        default=None,
        help="Write the record at the end, when you quit, when the input ends or when the game is stopped by a "
        "signal (checked before the game starts; written atomically).",
    ),
    click.option(
        "--first-dealer",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Seat of the first dealer, counted from 1 as players count (1 to the number of players).",
    ),
]

BOTS_DEFAULT_HELP = "heuristic"


CommandFunc = TypeVar("CommandFunc", bound=Callable[..., None])


def _with_common(func: CommandFunc) -> CommandFunc:
    """``func`` with the options ``play`` and ``watch`` share."""
    for opt in reversed(common_options):
        func = opt(func)
    return func


def _lang_option(typing: bool) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--lang``: the language a table in the terminal speaks (``play`` and ``watch``); ``typing``: whether the
    command reads moves typed in, which the help then says how to write."""
    typed = (
        " Cards are typed in the usual notation (QH, 10C) in every language, or with the language's own letters "
        "where they are unambiguous (German DH); the commands and the exchange round's answers in the language's "
        "own words too (German warum for why, b/t for keep/exchange), beside the English ones."
        if typing
        else ""
    )
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES, case_sensitive=False),
        default=None,
        help="The language of the table's words (English, German, French, Dutch); default: CLUBS_LANG, else the "
        "locale, else English." + typed,
    )


@click.command(cls=FillsHelp)
@click.argument("game", default=default_game_name)
@click.option(
    "--seat",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Your seat, counted from 1 as players count (1 to the number of players).",
)
@click.option(
    "--bots",
    default=None,
    show_default=BOTS_DEFAULT_HELP,
    help="The bots in the other seats, in seat order: one for all, or one per other seat, comma-separated. A bot is "
    "a level (easy, normal, hard, expert), a kind (random, heuristic, pimc, ismcts) or a kind with settings "
    "such as pimc(samples=8,ms=100).",
)
@_lang_option(typing=True)
@_with_common
@handle_errors
def play_command(
    game: str,
    seat: int,
    bots: str | None,
    lang: str | None,
    seed: int | None,
    variant: str | None,
    players: int | None,
    save_path: Path | None,
    first_dealer: int,
) -> None:
    """Play GAME ({game_names}, or a variant such as {a_variant}) against bots in the terminal.

    Moves: {moves}. ? lists the legal moves, h asks the heuristic bot for a hint, s shows the scores, w (why) the
    rule behind a move refused, q quits.
    Standard input may be piped (plain output, no colour).
    """
    plain = not (sys.stdin.isatty() and sys.stdout.isatty())
    setup = _setup(game, variant, players, bots, 1, {"--seat": seat, "--first-dealer": first_dealer})
    seat, first_dealer = seat - 1, first_dealer - 1  # the engine's seats, from 0
    info = setup.info
    check_save_path(save_path)
    seed_given = seed is not None
    seed = _seed(seed)
    match: SomeMatch = info.new_match(setup.options, first_dealer)
    bot_players: list[SomeBot | None] = []
    names: list[str] = []
    seats: list[dict[str, str]] = []
    language = lang.lower() if lang else terminal_language()
    bots_at = dict(zip([s for s in range(setup.n_seats) if s != seat], setup.bots, strict=True))
    bot_names = _bot_names(seed, bots_at)
    for s in range(setup.n_seats):
        if s == seat:
            bot_players.append(None)
            names.append(Words(language).get("You"))  # the player's seat, named in their language
            seats.append({"name": "you", "kind": "human"})
        else:
            bot_players.append(make_bot(bots_at[s], info.name))
            names.append(bot_names[s])
            seats.append({"name": bot_names[s], "kind": "bot", "bot": bots_at[s]})  # as the table named it
    console = _console(plain)
    table = setup.screen(console, names, seat, symbols=_symbols(console, plain))
    table.lang = language
    table.game = info
    saver = Saver(save_path, seats, seed)
    # The seed deals every hand, so it is shown only when the player chose it, or once the match is over.
    head = {"title": table.shown(table.title), "spec": shown(setup.spec, SPEC_SHOWN), "seed": seed}
    if seed_given:
        table.say(table.tr("{title} · variant {spec} · seed {seed}", **head), style="bold")
    else:
        table.say(table.tr("{title} · variant {spec}", **head), style="bold")
    table.say(_at_the_table(table, names, bots_at))
    table.show_intro(match)
    table.say(
        table.tr(
            "A move refused is said in plain words; type {why} (or w) then to read the rule behind it.",
            why=table.typed("why"),
        )
    )
    rng = random.Random(derive_seed(seed, 0xB07))
    hint = _hint_bot(info.name)

    def choose(s: int) -> object:
        player = bot_players[s]
        if player is None:
            return human_action(table, match, s, hint, rng)
        return player.choose(match.view(s), match.legal_actions(), rng)

    with StopSignals(keep_when_held=True) as signals:
        if _play_out(match, info, seed, table, saver, signals, choose):
            signals.hold()
            table.say(table.tr("The deals came from seed {seed} (play them again with --seed {seed}).", seed=seed))
            save_and_say(saver, match, table)


def terminal_language() -> str:
    """The language of ``CLUBS_LANG``, else of the locale, else English; a ``CLUBS_LANG`` that names no shipped
    language is refused (status 2) rather than ignored."""
    given = os.environ.get("CLUBS_LANG")
    if given and parse_language(given) is None:
        raise click.UsageError(
            f"CLUBS_LANG={quoted(given[:40])} is not a language clubsuite speaks: expected one of "
            f"{', '.join(LANGUAGES)}"
        )
    return from_environment()


def _play_out(
    match: SomeMatch,
    info: SomeGame,
    seed: int,
    table: SomeTable,
    saver: Saver,
    signals: StopSignals,
    choose: Callable[[int], object],
    show_deals: bool = False,
    delay: float = 0.0,
) -> bool:
    """Deal and play ``match`` to its end, each action from ``choose(seat)``; False if the player quit (the game so
    far is then saved). The end of input (``choose`` gives None) and a stop signal end the command here, after
    saving the game so far; a signal during a deal or a move waits until it is done, and one during a save is
    ignored."""
    try:
        while not match.is_over:
            with signals.changing():
                events = deal_next(match, info, seed)
            table.show_events(match, events)
            if show_deals:
                table.show_deal(match)
            while match.to_act is not None:
                s = match.to_act
                action = choose(s)
                if action is None:
                    signals.hold()
                    input_ended(saver, match, table)
                if action == QUIT:
                    signals.hold()
                    table.say(table.tr("Game stopped before the end (you quit)."))
                    save_and_say(saver, match, table)
                    return False
                with signals.changing():
                    events = match.apply(action, seat=s)
                table.show_events(match, events)
                if delay and table.trick_ended(events):
                    time.sleep(delay)
    except Stopped as stop:
        signals.hold()
        stopped(saver, match, stop, table)
    return True


@click.command(cls=FillsHelp)
@click.argument("game", default=default_game_name)
@click.option(
    "--bots",
    default=None,
    show_default=BOTS_DEFAULT_HELP,
    help="The bots in seat order: one for all seats, or one per seat, comma-separated: a level (easy, normal, hard, "
    "expert), a kind (random, heuristic, pimc, ismcts) or a kind with settings such as pimc(samples=8,ms=100).",
)
@click.option("--delay", type=FiniteFloatRange(0, 10), default=0.0, help="Seconds to pause after each trick (0 to 10).")
@_lang_option(typing=False)
@_with_common
@handle_errors
def watch_command(
    game: str,
    bots: str | None,
    lang: str | None,
    seed: int | None,
    variant: str | None,
    players: int | None,
    save_path: Path | None,
    first_dealer: int,
    delay: float,
) -> None:
    """Watch bots play a whole match of GAME ({game_names}, or a variant such as {a_variant}), all hands shown."""
    plain = not sys.stdout.isatty()
    setup = _setup(game, variant, players, bots, 0, {"--first-dealer": first_dealer})
    first_dealer -= 1  # the engine's seat, from 0
    info = setup.info
    check_save_path(save_path)
    seed = _seed(seed)
    match: SomeMatch = info.new_match(setup.options, first_dealer)
    bot_players = [make_bot(b, info.name) for b in setup.bots]
    bots_at = dict(enumerate(setup.bots))
    bot_names = _bot_names(seed, bots_at)
    names = [bot_names[s] for s in range(len(setup.bots))]
    console = _console(plain)
    table = setup.screen(console, names, None, symbols=_symbols(console, plain))
    table.lang = lang.lower() if lang else terminal_language()
    saver = Saver(save_path, [{"name": names[s], "kind": "bot", "bot": b} for s, b in enumerate(setup.bots)], seed)
    head = {"title": table.shown(table.title), "spec": shown(setup.spec, SPEC_SHOWN), "seed": seed}
    table.say(table.tr("{title} · variant {spec} · seed {seed}", **head), style="bold")
    table.say(_at_the_table(table, names, bots_at))
    rng = random.Random(derive_seed(seed, 0xB07))

    def choose(s: int) -> object:
        return bot_players[s].choose(match.view(s), match.legal_actions(), rng)

    with StopSignals(keep_when_held=True) as signals:
        _play_out(match, info, seed, table, saver, signals, choose, show_deals=True, delay=delay)
        signals.hold()
        save_and_say(saver, match, table)
