"""The puzzle generator (``clubs puzzles make``): seeded bot matches, every decision looked at as it comes, the
positions that pass a judge (:mod:`clubsuite.puzzles.criteria`) kept with their source record, line, themes and a
first rating.

In the spirit of lichess's generator: a position is looked at only where it can be a good puzzle (for the exact
kinds, late enough that every card can be counted: at most ``tricks`` cards in the seat's hand, at most ``cards``
cards held at a climbing game's table), at most ``per_hand`` puzzles come from one hand (so a set is not one hand
seen from every angle), and where the position arose from the other side's mistake (its last action lost something
by the same judge) that action is kept, since the puzzle starts after it.

Match ``i`` of a run is played from the seed ``derive_seed(seed, i)`` by the bots named, so a run is the same on any
machine and with any number of workers (the matches are read back in order), and a run stopped part way goes on
where it stopped (``resume``): its progress is kept beside the output file.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from clubsuite.analysis.review import aimed_measure
from clubsuite.bots.base import make_bot
from clubsuite.engine import Phase, SomeMatch, find_game, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.pools import Workers
from clubsuite.puzzles.criteria import (
    Confirmation,
    ExactAnswer,
    HasEndgame,
    SingleDummyAnswer,
    endgame,
    endgame_part,
    endgame_values,
    exact,
    single_dummy,
)
from clubsuite.puzzles.line import exact_line
from clubsuite.puzzles.model import Mistake, Puzzle, dumps_line, puzzle_id
from clubsuite.puzzles.rating import HABIT, finds, first_rating
from clubsuite.puzzles.retheme import next_best
from clubsuite.puzzles.themes import Scene, themes_of
from clubsuite.records import record_from_match
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from clubsuite.solver import NodeLimitError, NotSolvableError, card_values, solving_for
from clubsuite.solver.game import HasSolver, measure_named


@dataclass(frozen=True)
class MakeSettings:
    """What a run of the generator looks for, and in which matches."""

    variant: str
    """The game and its options, as a rules spec (a game's name, with options in brackets)."""
    seed: int = 0
    kinds: tuple[str, ...] = ("double_dummy", "endgame", "single_dummy")
    """The kinds looked for (those the game cannot have are skipped)."""
    bots: tuple[str, ...] = ("heuristic",)
    """The bots that play the matches, seat by seat (the list repeated round the table)."""
    per_hand: int = 1
    tricks: int = 8
    """Double dummy: the most cards in the seat's hand."""
    cards: int = 10
    """Endgame: the most cards held at the table in all."""
    single_every: int = 8
    """Single dummy: one decision in this many (drawn from the seed) is looked at; the search is costly."""
    single_legal: int = 16
    """Single dummy: the most legal actions a decision may have to be looked at."""
    min_legal: int = 3
    """Double dummy: the fewest legal cards (with two, a puzzle is a coin toss)."""
    nodes: int = 2_000_000
    """The most positions one exact judgement may search (past it, the position is passed over)."""
    common_every: int = 1
    """A common puzzle (one the ``heuristic`` bot solves, or one of two actions: sets hold both to a share,
    :data:`SHARES`) is kept one time in this many (drawn from the seed; the hand is looked at further where it is
    not), so that a run spends its matches on the puzzles a set is short of. 1 keeps every one."""


def check_kinds(kinds: Sequence[str]) -> None:
    """Refuse a kind of puzzle that is none, or none at all."""
    if not kinds:
        raise InvalidOptionsError("--kinds: name at least one kind of puzzle (double_dummy, endgame, single_dummy)")
    for kind in kinds:
        if kind not in ("double_dummy", "endgame", "single_dummy"):
            raise InvalidOptionsError(
                f"--kinds: {kind!r} is not a kind of puzzle (double_dummy, endgame, single_dummy)"
            )


def check_settings(settings: MakeSettings) -> None:
    """Refuse settings that cannot make puzzles, naming the setting."""
    resolve(settings.variant)  # an unknown game or option is refused with its own message
    check_kinds(settings.kinds)
    info, _ = find_game(settings.variant.split("(")[0])
    usable = [k for k in settings.kinds if can_have(info.name, k)]
    if not usable:
        raise InvalidOptionsError(f"--kinds: {info.title} can have none of {', '.join(settings.kinds)}")
    for spec in settings.bots:
        make_bot(spec, info.name)  # an unknown bot or setting is refused with its own message


def can_have(game: str, kind: str) -> bool:
    """Whether ``game`` can have puzzles of ``kind`` (no game has a kind that is none)."""
    info, _ = find_game(game)
    if kind == "double_dummy":
        return isinstance(info.parts, HasSolver)
    if kind == "endgame":
        return isinstance(info.parts, HasEndgame)
    return kind == "single_dummy"


@dataclass
class Found:
    """A puzzle found at one decision, before it is written out: its kind, point, seat, the judge's answer and the
    other side's mistake it starts after."""

    kind: str
    hand: int
    actions: int
    seat: int
    answer: ExactAnswer | SingleDummyAnswer
    mistake: Mistake | None = None


class Scanner:
    """Looks at the decisions of one match as it is played (see the module docstring)."""

    def __init__(self, settings: MakeSettings, match: SomeMatch, match_seed: int) -> None:
        self.s = settings
        self.match_seed = match_seed
        info, _ = find_game(match.game)
        self.kinds = [k for k in settings.kinds if can_have(info.name, k)]
        # the game's solver and endgame search, looked up once for the match rather than at every decision
        self.solving = solving_for(info.name) if "double_dummy" in self.kinds else None
        self.endgame = endgame_part(info.name) if "endgame" in self.kinds else None

    def look(self, match: SomeMatch, hand: int, index: int) -> Found | None:
        """A puzzle at this decision, or None."""
        seat = match.to_act
        assert seat is not None
        legal = match.legal_actions()
        for kind in self.kinds:
            try:
                if kind == "double_dummy" and self._dd_candidate(match, seat, len(legal)):
                    got: ExactAnswer | SingleDummyAnswer | None = exact(
                        match, kind, self._aimed(match, seat), node_limit=self.s.nodes
                    )
                elif kind == "endgame" and self._endgame_candidate(match, len(legal)):
                    got = endgame(match, node_limit=self.s.nodes)
                elif kind == "single_dummy" and self._single_candidate(hand, index, len(legal)):
                    got = single_dummy(match, derive_seed(self.match_seed, hand, index))
                else:
                    continue
            except (NodeLimitError, NotSolvableError):
                continue
            if got is not None:
                return Found(kind, hand, index, seat, got)
        return None

    def _dd_candidate(self, match: SomeMatch, seat: int, legal: int) -> bool:
        solving = self.solving
        if solving is None or match.phase != Phase.PLAY or legal < self.s.min_legal:
            return False
        return solving.solvable(match, solving.measures[0].name) is not None and (
            _cards_held(match, seat) <= self.s.tricks
        )

    def _aimed(self, match: SomeMatch, seat: int) -> str:
        """The measure the seat should aim for: of the measures the game's objective reads, the one whose best count
        it values most (as the review judges a card, :func:`clubsuite.analysis.review.exact_counts`); the game's
        first measure where the objective reads one or none."""
        return aimed_measure(match, seat, self.s.nodes)

    def _endgame_candidate(self, match: SomeMatch, legal: int) -> bool:
        part = self.endgame
        if part is None or legal < 2 or part.searchable(match) is None:
            return False
        return sum(h.bit_count() for h in match.hands[-1].hands) <= self.s.cards

    def _single_candidate(self, hand: int, index: int, legal: int) -> bool:
        if not 2 <= legal <= self.s.single_legal:
            return False
        return random.Random(derive_seed(self.match_seed, hand, index, 7)).randrange(self.s.single_every) == 0


def _cards_held(match: SomeMatch, seat: int) -> int:
    return match.hands[-1].hands[seat].bit_count()


def mistake_before(found: Found, before: SomeMatch | None, action: object, nodes: int) -> Mistake | None:
    """The last action before the puzzle, where another side took it and it lost something by the same judge."""
    if before is None or before.to_act is None:
        return None
    actor = before.to_act
    if actor == found.seat:
        return None
    try:
        if found.kind == "double_dummy":
            solving = solving_for(before.game)
            assert isinstance(found.answer, ExactAnswer)
            ours = solving.solvable(before, found.answer.measure)
            if ours is None:
                return None
            # a partner's card is no mistake of the other side (the side of the seat then to act, read from it)
            if ours.position.side[found.seat]:
                return None
            # judged in the measure the actor should have aimed for, as the review judges a card
            aimed = measure_named(solving, aimed_measure(before, actor, nodes))
            counts = card_values(before, aimed.name, node_limit=nodes)
            top = max(counts.values()) if aimed.maximize else min(counts.values())
            loss = float(abs(top - counts[action]))
        elif found.kind == "endgame":
            values = endgame_values(before, nodes)
            loss = float(max(values.values()) - values[before.format_action(action)])
        else:
            return None
    except (NodeLimitError, NotSolvableError, KeyError):
        return None
    return Mistake(actor, before.format_action(action), loss) if loss >= 1 else None


def puzzle_of(found: Found, before: SomeMatch, record: JsonObject, s: MakeSettings, source: str, key: str) -> Puzzle:
    """The puzzle ``found`` at ``before`` (the match at its point) with its source ``record``: for an exact puzzle
    its line and the next best action's (the themes read both), for a single-dummy one how its worlds were drawn;
    its id from ``key`` (what tells its source apart: a match seed and the bots, a record's digest) and its point."""
    answer = found.answer
    solution = before.parse_action(answer.solution)
    goal: int | None = None
    worlds: dict[str, float | int] | None = None
    after_mistake = found.mistake is not None
    if isinstance(answer, ExactAnswer):
        played, line_end = exact_line(before, found.kind, answer.measure, solution)
        line = tuple(played)
        other = before.parse_action(next_best(dict(answer.values), answer.solution, answer.maximize))
        _, other_end = exact_line(before, found.kind, answer.measure, other)
        scene = Scene(
            found.kind, answer.measure, found.seat, before, solution, line_end, other, other_end, after_mistake
        )
        goal = answer.value
    else:
        line = (answer.solution,)
        scene = Scene(found.kind, answer.measure, found.seat, before, solution, None, None, None, after_mistake)
        check = answer.check
        worlds = {
            "seed": check.seed,
            "worlds": check.worlds,
            "margin": check.margin,
            "z": min(check.z, 1000.0),
            "better": check.better,
            "worse": check.worse,
            **confirmation_fields(check.confirmed),
        }
    variant = str(record["variant"])
    return Puzzle(
        id=puzzle_id(variant, key, found.hand, found.actions, found.kind),
        game=before.game,
        variant=variant,
        kind=found.kind,
        record=record,
        hand=found.hand,
        actions=found.actions,
        seat=found.seat,
        measure=answer.measure,
        solution=answer.solution,
        values=dict(answer.values),
        goal=goal,
        line=line,
        themes=tuple(themes_of(scene)),
        rating=first_rating(before, solution, found.kind, derive_seed(s.seed, found.hand, found.actions)),
        mistake=found.mistake,
        worlds=worlds,
        source=source,
    )


def confirmation_fields(confirmed: Confirmation) -> dict[str, float | int]:
    """A confirmed margin as a puzzle's ``worlds`` keeps it (see :data:`clubsuite.puzzles.model.CONFIRM_FIELDS`)."""
    return {
        "confirm_worlds": confirmed.worlds,
        "confirmed": round(confirmed.margin, 6),
        "low": round(confirmed.low, 6),
        "high": round(confirmed.high, 6),
    }


def match_puzzles(settings: MakeSettings, index: int) -> list[Puzzle]:
    """The puzzles of match ``index`` of a run (see the module docstring), in the order of play."""
    info, options = resolve(settings.variant)
    match_seed = derive_seed(settings.seed, index)
    match = info.new_match(options, 0)
    specs = [settings.bots[s % len(settings.bots)] for s in range(match.n_seats)]
    bots = [make_bot(spec, info.name) for spec in specs]
    seats: list[JsonObject] = [{"name": f"{spec} {s + 1}", "kind": "bot", "bot": spec} for s, spec in enumerate(specs)]
    source = f"bots ({', '.join(dict.fromkeys(specs))}), match seed {match_seed}"
    rng = random.Random(derive_seed(match_seed, 0x5EED))
    scanner = Scanner(settings, match, match_seed)
    out: list[Puzzle] = []
    while not match.is_over:
        deal_next(match, info, match_seed)
        hand = len(match.hands) - 1
        found: list[tuple[Found, SomeMatch]] = []
        # the hand as dealt and its actions so far: the position before the last action is replayed from them where
        # a puzzle is found (one hand in many), not copied before every action
        dealt = match.clone()
        taken: list[object] = []
        while match.to_act is not None:
            seat = match.to_act
            legal = match.legal_actions()
            if len(found) < settings.per_hand and len(legal) > 1:
                got = scanner.look(match, hand, len(taken))
                if got is not None and _passed_over(settings, match, got, match_seed):
                    got = None
                if got is not None:
                    before_last = _replayed(dealt, taken[:-1]) if taken else None
                    got.mistake = mistake_before(got, before_last, taken[-1] if taken else None, settings.nodes)
                    found.append((got, match.clone()))
            action = bots[seat].choose(match.view(seat), legal, rng)
            match.apply(action)
            taken.append(action)
        if not found:
            continue
        record = record_from_match(match, seats=seats, seed=match_seed, seeded_hands=True)
        key = f"{match_seed}|{','.join(specs)}"
        out.extend(puzzle_of(got, before, record, settings, source, key) for got, before in found)
    return out


def _replayed(dealt: SomeMatch, actions: Sequence[object]) -> SomeMatch:
    """A copy of ``dealt`` (a match at the start of a hand) with ``actions`` applied: the position after them, as
    the match stood then (the rules draw nothing within a hand, so the same actions give the same position)."""
    match = dealt.clone()
    for action in actions:
        match.apply(action)
    return match


def _passed_over(settings: MakeSettings, match: SomeMatch, got: Found, match_seed: int) -> bool:
    """Whether the puzzle ``got`` at ``match`` is a common one left out by ``settings.common_every``: two actions
    to choose from, or an answer the ``heuristic`` bot finds (asked as :func:`first_rating` asks it)."""
    if settings.common_every <= 1:
        return False
    draw = random.Random(derive_seed(match_seed, got.hand, got.actions, 11)).randrange(settings.common_every)
    if draw == 0:
        return False
    if len(got.answer.values) == 2:
        return True
    solution = match.parse_action(got.answer.solution)
    return finds(HABIT, match, solution, derive_seed(settings.seed, got.hand, got.actions))


# -- a run -------------------------------------------------------------------------------------------------------------


def _progress_path(out: Path) -> Path:
    return out.with_name(out.name + ".progress")


def _settings_json(settings: MakeSettings) -> dict[str, object]:
    """The settings as they read back from JSON (tuples as lists), to compare with a progress file's."""
    written: JsonObject = json.loads(json.dumps(asdict(settings)))  # an object: asdict's dict, written and read
    return written


def run(
    settings: MakeSettings,
    count: int,
    out: Path,
    workers: int = 1,
    max_matches: int | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Play matches and write their puzzles to ``out`` (JSON lines) until ``count`` are written or ``max_matches``
    have been played; returns how many the file holds. ``resume`` goes on from a run with the same settings stopped
    part way (its progress file beside ``out``); without it an existing ``out`` is refused, never overwritten.
    ``progress(matches, puzzles)`` is called after each match."""
    check_settings(settings)
    try:
        return _run(settings, count, out, workers, max_matches, resume, progress)
    except OSError as exc:
        raise InvalidOptionsError(f"--out: cannot write {out} or its progress: {exc.strerror or exc}") from None


def _saved(state: Path) -> tuple[object, int, int]:
    """The settings, matches and puzzles a progress file kept; refused clearly where it is not one."""
    try:
        saved = json.loads(state.read_text(encoding="utf-8")[:100_000])
        settings, matches, written = saved["settings"], saved["matches"], saved["puzzles"]
        if not (isinstance(matches, int) and isinstance(written, int) and matches >= 0 and written >= 0):
            raise ValueError("counts that are not counts")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise InvalidOptionsError(f"--resume: the progress file {state} cannot be read ({exc})") from None
    return settings, matches, written


def _run(
    settings: MakeSettings,
    count: int,
    out: Path,
    workers: int,
    max_matches: int | None,
    resume: bool,
    progress: Callable[[int, int], None] | None,
) -> int:
    state = _progress_path(out)
    wanted = _settings_json(settings)
    matches, written = 0, 0
    if resume and state.exists():
        kept, matches, written = _saved(state)
        if kept != wanted:
            raise InvalidOptionsError(
                f"--resume: {out} was made with other settings ({json.dumps(kept)}); give the same ones, or another "
                "--out"
            )
        _keep_lines(out, written)
    elif resume and out.exists():
        raise InvalidOptionsError(
            f"--resume: {out} has no progress file beside it ({state.name}): nothing to go on with"
        )
    elif out.exists():
        raise InvalidOptionsError(f"--out: {out} exists; pass --resume to go on with it, or choose another file")
    else:
        out.write_text("", encoding="utf-8")
    limit = max_matches if max_matches is not None else max(50, count * 20)
    with out.open("a", encoding="utf-8") as f:
        for index, puzzles in _matches(settings, matches, limit, workers):
            room = max(0, count - written)
            for p in puzzles[:room]:
                f.write(dumps_line(p) + "\n")
            f.flush()
            os.fsync(f.fileno())
            if len(puzzles) <= room:
                # the match is done with: a resumed run starts after it
                written += len(puzzles)
                matches = index + 1
                kept = (matches, written)
            else:
                # only part of the match's puzzles were wanted: a resumed run that wants more plays it again
                kept = (index, written)
                written += room
            tmp = state.with_name(state.name + ".tmp")
            tmp.write_text(json.dumps({"settings": wanted, "matches": kept[0], "puzzles": kept[1]}), encoding="utf-8")
            tmp.replace(state)
            matches = index + 1
            if progress is not None:
                progress(matches, written)
            if written >= count:
                break
    return written


def _keep_lines(out: Path, n: int) -> None:
    """Cut ``out`` back to its first ``n`` lines (what the progress file counted: a line written after it is
    written again)."""
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True) if out.exists() else []
    out.write_text("".join(lines[:n]), encoding="utf-8")


def _matches(settings: MakeSettings, start: int, stop: int, workers: int) -> Iterator[tuple[int, list[Puzzle]]]:
    """Each match's puzzles from ``start`` below ``stop``, in order, made by ``workers`` processes."""
    with Workers(workers) as pool:  # one worker: made here, no process started
        made = pool.map(functools.partial(match_puzzles, settings), range(start, stop))
        yield from zip(range(start, stop), made, strict=True)


SHARES: Mapping[str, float] = {"two actions": 0.15, "one answer": 0.10, "easy": 0.40}
"""The most of a set one-note or easy puzzles may fill: those with two actions to choose from (a coin toss with a
hint), those sharing one answer (a set where "pass" answers every auction teaches one word), and those rated under
1400, which the heuristic bot solves (:mod:`clubsuite.puzzles.rating`)."""


def _band(p: Puzzle) -> int:
    return 0 if p.rating < 1400 else 2 if p.rating >= 1800 else 1


def _capped(p: Puzzle) -> list[tuple[str, str]]:
    """The capped tags of ``p``: each with the share of :data:`SHARES` it counts against."""
    out = [("one answer", f"answer:{p.solution}")]
    if len(p.values) == 2:
        out.append(("two actions", "two actions"))
    if _band(p) == 0:
        out.append(("easy", "easy"))
    return out


def balanced(puzzles: Sequence[Puzzle], count: int, seed: int, shares: Mapping[str, float] = SHARES) -> list[Puzzle]:
    """``count`` of ``puzzles`` spread over kinds, themes and ratings: repeatedly the puzzle whose rarest theme (and
    rating band) is least represented so far, the harder band first among those, ties drawn from ``seed``; a puzzle
    that would take one-note or easy puzzles past their share of the set (:data:`SHARES`) is left out. Used to
    choose a shipped set from a larger run. Where the pool has too few others for ``count``, the set is smaller,
    and chosen again at that size until the shares hold of the set as it is."""
    target = count
    while True:
        chosen = _balanced(puzzles, target, seed, shares)
        if len(chosen) >= target or not chosen:
            return chosen
        target = len(chosen)


def _balanced(puzzles: Sequence[Puzzle], count: int, seed: int, shares: Mapping[str, float]) -> list[Puzzle]:
    rng = random.Random(seed)
    pool = list(puzzles)
    rng.shuffle(pool)
    chosen: list[Puzzle] = []
    seen: dict[str, int] = {}
    room = {name: int(share * count) for name, share in shares.items()}

    def tags(p: Puzzle) -> list[str]:
        band = "band:" + ("easy", "medium", "hard")[_band(p)]
        return [f"kind:{p.kind}", band, *(f"theme:{t}" for t in p.themes)]

    def fits(p: Puzzle) -> bool:
        return all(seen.get(tag, 0) < room[name] for name, tag in _capped(p) if name in room)

    while len(chosen) < count:
        pool = [p for p in pool if fits(p)]
        if not pool:
            break
        best = min(range(len(pool)), key=lambda i: (min(seen.get(t, 0) for t in tags(pool[i])), -_band(pool[i]), i))
        p = pool.pop(best)
        chosen.append(p)
        for t in tags(p) + [tag for _, tag in _capped(p)]:
            seen[t] = seen.get(t, 0) + 1
    return chosen
