"""``clubs puzzle``: puzzles played in the terminal, one after another, each attempt rated and kept on this computer.

The position is drawn as the game's table draws it for the seat to act (every other hand listed too for a puzzle
where every hand is shown), the goal is said in the game's terms, and the player's first answer is rated against the
puzzle (:mod:`clubsuite.puzzles.rating`): right, the line of play that follows is shown; wrong, what that action gets
instead is said, and the player may try again or ask for the solution.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from clubsuite.bots.personas import persona_names
from clubsuite.cards import ACE, Card, CardSet
from clubsuite.cli.common import handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.lineinput import UnreadableLineError, read_line
from clubsuite.cli.play import _console, _lang_option, _symbols, terminal_language
from clubsuite.engine import SomeGame, SomeMatch, find_game, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.i18n import Words
from clubsuite.i18n.render import english_notation
from clubsuite.naming import WORDS
from clubsuite.present import shown_of
from clubsuite.puzzles.choose import DIFFICULTY, matching, next_puzzle
from clubsuite.puzzles.criteria import ENDGAME_MEASURE
from clubsuite.puzzles.model import KINDS, Puzzle, match_point, read_set
from clubsuite.puzzles.sets import shipped
from clubsuite.puzzles.store import Store, default_path
from clubsuite.puzzles.themes import theme_names
from clubsuite.ratings import pool
from clubsuite.tui.table import Marked, SomeTable, screen_class

QUIT, SOLVED, MISSED = "quit", "solved", "missed"
ALL_SOLVED = Marked.tr("Every puzzle asked for is solved.")


def _percent(share: float) -> str:
    return f"{round(share * 100)}%"


def trn(one: str, many: str) -> tuple[str, str]:
    """Words with a plural, marked for the catalogs (their extractor reads every ``trn("...", "...")``) and worded
    later by a table in its language (:meth:`~clubsuite.tui.table.Table.trn`)."""
    return one, many


GOALS = {
    "tricks": trn(
        "Every hand is shown. Find the card that takes {n} trick in all this hand, however the others play.",
        "Every hand is shown. Find the card that takes {n} tricks in all this hand, however the others play.",
    ),
    "fewest": trn(
        "Every hand is shown. Find the card that holds you to {n} trick in all this hand, however the others play.",
        "Every hand is shown. Find the card that holds you to {n} tricks in all this hand, however the others play.",
    ),
    "points": trn(
        "Every hand is shown. Find the card that scores {n} point for your side this hand, however the others play.",
        "Every hand is shown. Find the card that scores {n} points for your side this hand, however the others play.",
    ),
    ENDGAME_MEASURE: trn(
        "Every hand is shown. Find the play that scores you {n} point this round, however the others play.",
        "Every hand is shown. Find the play that scores you {n} points this round, however the others play.",
    ),
}
"""An exact puzzle's goal by its measure (the solver's measures a trick game's puzzle counts, and an endgame's)."""

WRONG = {
    "tricks": trn(
        "{action} takes only {n} trick in all (the answer takes {goal}).",
        "{action} takes only {n} tricks in all (the answer takes {goal}).",
    ),
    "fewest": trn(
        "{action} lets them give you {n} trick in all (the answer holds you to {goal}).",
        "{action} lets them give you {n} tricks in all (the answer holds you to {goal}).",
    ),
    "points": trn(
        "{action} scores only {n} point for your side (the answer scores {goal}).",
        "{action} scores only {n} points for your side (the answer scores {goal}).",
    ),
    ENDGAME_MEASURE: trn(
        "{action} scores you only {n} point this round (the answer scores {goal}).",
        "{action} scores you only {n} points this round (the answer scores {goal}).",
    ),
}
"""What a wrong answer to an exact puzzle gets, by the puzzle's measure."""


def _goal(table: SomeTable, puzzle: Puzzle) -> str:
    """What the player is asked to find, in the game's terms."""
    if puzzle.kind == "single_dummy":
        return table.tr(
            "Only your own cards are shown. Find the play that wins clearly more often than any other, "
            "from what you can know."
        )
    one, many = GOALS.get(puzzle.measure, GOALS[ENDGAME_MEASURE])
    return table.trn(one, many, int(puzzle.goal or 0))


def _wrong(table: SomeTable, puzzle: Puzzle, action: str, shown_action: str) -> str:
    """What a wrong answer gets instead."""
    value = puzzle.values.get(action)
    if value is None:
        return table.tr("{action} is not the answer.", action=shown_action)
    if puzzle.kind == "single_dummy":
        return table.tr(
            "{action} wins {taken} of the time on the deals the answer was measured on; the answer wins {best}.",
            action=shown_action,
            taken=_percent(value),
            best=_percent(puzzle.values[puzzle.solution]),
        )
    one, many = WRONG.get(puzzle.measure, WRONG[ENDGAME_MEASURE])
    return table.trn(one, many, int(value), action=shown_action, goal=int(puzzle.goal or 0))


def _action_words(table: SomeTable, match: SomeMatch, notation: str) -> str:
    return table.action_words(match, match.parse_action(notation))


def _every_hand(table: SomeTable, match: SomeMatch, seat: int) -> None:
    """The other hands, each sorted as the game sorts a hand (by suit or by rank, the ace low where it plays low:
    what its part ``shown`` declares)."""
    info, _ = find_game(match.game)
    shown = shown_of(info, match.view(seat).to_dict(), match.options)
    by_rank = shown is not None and shown.sort == "rank"
    ace_low = shown is not None and shown.ace_low

    def order(card: Card) -> tuple[int, int]:
        suit = int(card.suit) if card.suit is not None else 9
        rank = 1 if ace_low and card.rank == ACE else card.rank
        return (rank, suit) if by_rank else (suit, rank)

    held = match.hands[-1].hands
    table.say(table.tr("Every hand:"))
    for s, mask in enumerate(held):
        if s == seat:
            continue
        cards = " ".join(table.card_words(c) for c in sorted(CardSet.from_mask(mask), key=order))
        table.say(f"  {table.names[s]}: {cards or '-'}")


def _themes(table: SomeTable, puzzle: Puzzle) -> str:
    names = theme_names(puzzle.game)
    words = Words(table.lang)
    shown = [words.get(names[t][0], WORDS) for t in puzzle.themes if t in names]
    return table.tr("Themes: {themes}", themes=", ".join(shown)) if shown else ""


def _show_line(table: SomeTable, puzzle: Puzzle) -> None:
    """The answer and the line it starts, told as the table tells play; for a single-dummy puzzle, what the deals
    the seat cannot tell apart said."""
    if puzzle.kind == "single_dummy":
        assert puzzle.worlds is not None
        match = match_point(puzzle)
        table.say(
            table.tr(
                "In {better} of the {n} deals you cannot tell apart that it was measured on, {answer} does better "
                "than every other play; in {worse} another play does better.",
                better=_percent(puzzle.worlds["better"]),
                n=int(puzzle.worlds["worlds"]),
                answer=_action_words(table, match, puzzle.solution),
                worse=_percent(puzzle.worlds["worse"]),
            )
        )
        return
    match = match_point(puzzle)
    table.say(table.tr("The line, the others playing against you:"))
    for text in puzzle.line:
        table.show_events(match, match.apply(match.parse_action(text)))


def play_one(table: SomeTable, puzzle: Puzzle, store: Store, pool_name: str) -> str:
    """Pose ``puzzle`` until it is answered right, the solution is asked for, or the player quits; the first answer
    is rated. Returns :data:`SOLVED`, :data:`MISSED` or :data:`QUIT`."""
    match = match_point(puzzle)
    seat = puzzle.seat
    info, _ = find_game(puzzle.game)
    mine, plus = store.rating(pool_name)
    table.say()
    table.say(
        table.tr(
            "Puzzle {id} · {title} · puzzle rating {rating} · your rating {mine} ± {plus}",
            id=puzzle.id,
            title=Words(table.lang).get(info.title, WORDS),
            rating=puzzle.rating,
            mine=mine,
            plus=plus,
        ),
        style="bold",
    )
    if puzzle.mistake is not None and puzzle.mistake.seat != seat:
        table.say(
            table.tr(
                "{name} has just played {action}, a mistake: find how to make it count.",
                name=table.names[puzzle.mistake.seat],
                action=_action_words(table, match, puzzle.mistake.action),
            )
        )
    table.show_state(match, seat)
    if puzzle.exact:
        _every_hand(table, match, seat)
    table.say(_goal(table, puzzle), style="bold")
    rated = False
    result = QUIT
    while True:
        try:
            table.prompt_open = True
            text = read_line(table.tr("Your answer (? legal, s solution, q quit): "), table.console)
            table.prompt_open = False
        except UnreadableLineError as exc:
            table.prompt_open = False
            table.say(str(exc), style="red")
            continue
        if text is None or text.lower() in ("q", "quit", "exit"):
            return result if rated else QUIT
        if not text:
            continue
        if text.lower() in ("?", "help", "legal"):
            table.show_legal(match)
            continue
        if text.lower() in ("s", "solution"):
            if not rated:
                before, after = store.record(pool_name, puzzle, False)
                store.save()
                table.say(table.tr("Your puzzle rating: {before} → {after}.", before=before, after=after))
                rated, result = True, MISSED
            table.say(
                table.tr("The answer: {answer}.", answer=_action_words(table, match, puzzle.solution)), style="bold"
            )
            _show_line(table, puzzle)
            _say_themes(table, puzzle)
            return result
        action = table.read_action(match, seat, english_notation(text, table.lang))
        if action is None:
            continue
        reason = match.explain(action, seat)
        if reason is not None:
            table.say(table.refusal(reason), style="red")
            continue
        notation = match.format_action(action)
        if notation == puzzle.solution:
            table.say(table.tr("Right: {answer}.", answer=table.action_words(match, action)), style="bold green")
            if not rated:
                before, after = store.record(pool_name, puzzle, True)
                store.save()
                table.say(table.tr("Your puzzle rating: {before} → {after}.", before=before, after=after))
                result = SOLVED
            _show_line(table, puzzle)
            _say_themes(table, puzzle)
            return result
        table.say(_wrong(table, puzzle, notation, table.action_words(match, action)), style="red")
        if not rated:
            before, after = store.record(pool_name, puzzle, False)
            store.save()
            table.say(table.tr("Your puzzle rating: {before} → {after}.", before=before, after=after))
            rated, result = True, MISSED
        table.say(table.tr("Try again, or s for the solution."))


def puzzle_screen(info: SomeGame) -> type[SomeTable]:
    """The game's terminal table for a puzzle: its input help left out after the legal moves, since it names keys a
    puzzle does not have (a hint, the scores) and the puzzle's prompt names its own."""
    game_screen = screen_class(info)
    if game_screen is None:
        raise InvalidOptionsError(f"{info.title} has no terminal table to pose puzzles on")

    class PuzzleScreen(game_screen):  # type: ignore[valid-type,misc]
        def after_legal(self, match: SomeMatch) -> None:
            """Nothing: see :func:`puzzle_screen`."""

    return PuzzleScreen


def _say_themes(table: SomeTable, puzzle: Puzzle) -> None:
    line = _themes(table, puzzle)
    if line:
        table.say(line)


@click.command("puzzle", cls=FillsHelp)
@click.argument("game", metavar="GAME")
@click.option("--theme", default=None, help="Only puzzles of this theme (clubs puzzles themes GAME lists them).")
@click.option("--kind", type=click.Choice(KINDS), default=None, help="Only puzzles of this kind.")
@click.option("--id", "wanted", default=None, metavar="ID", help="This puzzle, by its id.")
@click.option(
    "--difficulty",
    type=click.Choice(list(DIFFICULTY)),
    default="normal",
    show_default=True,
    help="How far from your rating the puzzles are chosen (300 points a step).",
)
@click.option("--count", type=click.IntRange(1, 10_000), default=None, help="Stop after this many (default: until q).")
@click.option(
    "--set",
    "set_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Play the puzzles of this set (JSON lines, .gz compressed or not) instead of the shipped ones.",
)
@click.option(
    "--store",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The file your puzzle ratings are kept in (default: CLUBS_PUZZLE_STORE, else "
    "~/.local/share/clubsuite/puzzles.json).",
)
@_lang_option(typing=True)
@handle_errors
def puzzle_command(
    game: str,
    theme: str | None,
    kind: str | None,
    wanted: str | None,
    difficulty: str,
    count: int | None,
    set_file: Path | None,
    store: Path | None,
    lang: str | None,
) -> None:
    """Play puzzles of GAME (a game, or a rules spec naming its options) in the terminal: a position from a
    real match where one play is clearly best. Your first answer to each is rated against the puzzle, and your
    rating is kept on this computer; the next puzzle is chosen near it. Type a card (or a play) as in clubs play.
    """
    info, _ = find_game(game.split("(")[0])
    if theme is not None and theme not in theme_names(info.name):
        known = ", ".join(theme_names(info.name)) or "none"
        raise InvalidOptionsError(f"--theme {theme}: {info.title}'s themes are: {known}")
    puzzles = read_set(set_file) if set_file is not None else shipped(game)
    if set_file is not None:
        puzzles = [p for p in puzzles if p.game == info.name]
    chosen = matching(puzzles, theme, kind)
    if wanted is not None:
        chosen = [p for p in chosen if p.id == wanted]
        if not chosen:
            raise InvalidOptionsError(f"--id {wanted}: no such puzzle among those asked for")
    if not chosen:
        raise InvalidOptionsError("no puzzle matches what was asked for")
    saved = Store.load(store or default_path())
    language = lang.lower() if lang else terminal_language()
    plain = not (sys.stdin.isatty() and sys.stdout.isatty())
    console = _console(plain)
    pools = {v: pool(info, resolve(v)[1]) for v in {p.variant for p in chosen}}  # one rating per seat count
    played = 0
    while count is None or played < count:
        ratings = {v: saved.rating(name)[0] for v, name in pools.items()}
        tried = {k: v for name in set(pools.values()) for k, v in saved.attempted(name).items()}
        # a puzzle asked for by its id is played whether or not it was solved before
        puzzle = chosen[0] if wanted is not None else next_puzzle(chosen, ratings, saved.ratings(), tried, difficulty)
        if puzzle is None:
            click.echo(Words(language).get(ALL_SOLVED))
            return
        screen = puzzle_screen(info)

        match = match_point(puzzle)
        others = [s for s in range(match.n_seats) if s != puzzle.seat]
        you = Words(language).get("You")
        names = persona_names(f"puzzle {puzzle.id}", others, [you])
        table = screen(
            console,
            [you if s == puzzle.seat else names[s] for s in range(match.n_seats)],
            puzzle.seat,
            symbols=_symbols(console, plain),
        )
        table.lang = language
        if play_one(table, puzzle, saved, pools[puzzle.variant]) == QUIT:
            return
        played += 1
