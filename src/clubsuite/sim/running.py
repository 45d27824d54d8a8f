"""Running a simulation: many whole matches between bots, seatings cycled, the same result for any number of
processes.

Match ``k`` of a simulation with seed ``S`` is played by :func:`clubsuite.runner.play_match` from the match seed
``derive_seed(S, k)``: the runner deals every hand from that seed and derives the bots' RNG from it, so any single
match can be played again from its match seed alone. The seats come from :func:`clubsuite.sim.seating.seating`, a
fixed cycle of seatings that changes who plays after whom as well as who sits where. With several worker processes
the matches are cut into chunks, and the per-match outcomes are put back in match order before anything is counted,
so the result never depends on scheduling.

Teams come from the game's registry entry (:meth:`clubsuite.engine.GameInfo.teams_of`), in one of two ways. Where
the teams are fixed by the game (``fixed_teams``) the seatings keep partners together, one bot may be given per
team, and the result is also counted per team. Where the options make teams, every seating is used, a bot wins a
match when its team wins, and the result adds the win rate of each team of seats and of each line-up of bot kinds.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence

from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.engine import LegalActions, SomeGame, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import spec_of
from clubsuite.pools import Workers
from clubsuite.runner import play_match
from clubsuite.safetext import quoted
from clubsuite.seeding import derive_seed
from clubsuite.sim.bulk import compiled_matches
from clubsuite.sim.report import hand_facts_of
from clubsuite.sim.seating import Teams, seating, seating_cycle
from clubsuite.sim.stats import BotStats, MatchOutcome, SimResult, Thinking, entry_labels

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` as matches finish (after each match, or each chunk with several workers)."""

MAX_MATCHES = 1_000_000
"""The most matches one simulation plays: a million outcomes are kept for the tally and the reports (a few hundred
MB), and a million matches already give win rates to within a tenth of a percentage point."""
MAX_WORKERS = 1024
"""The most worker processes asked for (the pool never starts more than there are cores anyway)."""

_MAX_CHUNK = 16
"""The most matches one worker task plays; small enough to keep the progress bar moving."""


def team_lineup(info: SomeGame, bots: Sequence[str]) -> tuple[str, ...]:
    """The bot of every seat: as given, or, for a game of teams given one bot per team, each repeated for every
    seat of its team (``heuristic,random`` -> heuristic at seats 0 and 2, random at 1 and 3)."""
    teams = info.teams
    if teams and len(bots) == len(teams) and len(bots) not in info.seats:
        lineup = [""] * sum(len(t) for t in teams)
        for name, team in zip(bots, teams, strict=True):
            for seat in team:
                lineup[seat] = name
        return tuple(lineup)
    return tuple(bots)


def _check(
    spec: str, bots: Sequence[str], matches: int, seed: int, workers: int
) -> tuple[SomeGame, object, tuple[str, ...]]:
    """Validate every input of :func:`simulate`, naming the bad one; returns the resolved game and options, and
    the bot of every seat (:func:`team_lineup`)."""
    for name, value in (("matches", matches), ("workers", workers), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionsError(f"{name}={value!r} is not a whole number")
    if matches < 1:
        raise InvalidOptionsError(f"matches={matches}: a simulation needs at least 1 match")
    if matches > MAX_MATCHES:
        raise InvalidOptionsError(
            f"matches={matches:,}: a simulation plays at most {MAX_MATCHES:,} matches in one run (its outcomes are "
            "kept in memory); run several seeds and add up the counts for more"
        )
    if workers < 1:
        raise InvalidOptionsError(f"workers={workers}: at least 1 worker process is needed")
    if workers > MAX_WORKERS:
        raise InvalidOptionsError(f"workers={workers:,}: at most {MAX_WORKERS} worker processes")
    if not 0 <= seed < 2**64:
        raise InvalidOptionsError(f"seed={seed}: a simulation seed is a whole number from 0 to 2**64 - 1")
    info, options = resolve(spec)
    bots = team_lineup(info, bots)
    allowed = " or ".join(str(n) for n in info.seats)
    if len(bots) not in info.seats:
        per_team = f", or one per partnership ({len(info.teams)})" if info.teams else ""
        raise InvalidOptionsError(
            f"{len(bots)} bots given ({', '.join(bots) or 'none'}): {info.name} is played by {allowed} players, "
            f"one bot per seat{per_team}"
        )
    for name in bots:
        make_bot(name, info.name)  # raises InvalidOptionsError naming the unknown bot and the known ones
    n_seats = info.new_match(options, 0).n_seats
    if n_seats != len(bots):
        raise InvalidOptionsError(
            f"{len(bots)} bots given but {quoted(spec)} seats {n_seats} players, one bot per seat"
        )
    return info, options, tuple(bots)


class _Timed:
    """A bot whose every decision is timed (wall clock and the thread's CPU time), for ``--timing``; it decides
    exactly as the bot it wraps."""

    def __init__(self, bot: SomeBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.thinking = Thinking()

    def choose(self, view: object, legal: LegalActions[object], rng: random.Random) -> object:
        """The wrapped bot's choice, its time added to :attr:`thinking`."""
        start, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.choose(view, legal, rng)
        took = time.perf_counter() - start
        self.thinking = self.thinking + Thinking(1, took, took, time.thread_time() - cpu, 1)
        return action


def play_one(
    info: SomeGame,
    options: object,
    bots: Sequence[str],
    seed: int,
    index: int,
    facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
) -> MatchOutcome:
    """Play match ``index`` of a simulation with seed ``seed``: fresh bots, seated by :func:`seating`, dealt from
    its match seed. With ``facts`` the outcome carries every hand's report facts (:func:`hand_facts_of`). With
    ``duplicate`` every match of one cycle of seatings is dealt from the same match seed: each bot plays the same
    deals from every seat, so the luck of the cards cancels out of a comparison between bots. With ``timing``
    every decision is timed, per seat."""
    n = len(bots)
    seats = seating(index, n, info.teams)
    match_seed = derive_seed(seed, index // seating_cycle(n, info.teams) if duplicate else index)
    # The inverse of the seating: which entry each seat holds.
    entry_at = [0] * n
    for entry, seat in enumerate(seats):
        entry_at[seat] = entry
    if not facts and not timing:
        # The compiled core plays the same match, draw for draw, where it has a kernel for this lineup.
        lineup = [bots[entry_at[seat]] for seat in range(n)]
        compiled = compiled_matches(info, options, lineup, [match_seed])
        if compiled is not None:
            hands, totals, winners, draw = compiled[0]
            return MatchOutcome(index, match_seed, seats, winners, draw, hands, totals)
    # Fresh bots every match, so no bot carries memory from one match into the next.
    by_seat: list[SomeBot] = [make_bot(bots[entry_at[seat]], info.name) for seat in range(n)]
    timed = [_Timed(bot) for bot in by_seat] if timing else []
    match = info.new_match(options, 0)
    # bot_rng left to the runner: it derives the bots' RNG from the match seed, so the match seed alone replays it.
    play_match(match, timed or by_seat, match_seed)
    sums = [0] * n
    for scores in match.hand_scores:
        for seat, score in enumerate(scores):
            sums[seat] += score
    return MatchOutcome(
        index=index,
        match_seed=match_seed,
        seats=seats,
        winner_seats=tuple(match.winners),
        draw=bool(match.draw),
        hands=len(match.hand_scores),
        seat_scores=tuple(sums),
        hand_facts=tuple(hand_facts_of(info.name)(h) for h in match.hands) if facts else (),
        thinking=tuple(t.thinking for t in timed),
    )


def _play_chunk(
    task: tuple[int, str, tuple[str, ...], int, int, int, bool, bool, bool],
) -> tuple[int, list[MatchOutcome]]:
    """Worker task ``(chunk, spec, bots, seed, start, stop, facts, duplicate, timing)``: play matches ``start``
    to ``stop - 1``.

    Returns the chunk number with the outcomes, so the parent can put chunks back in order. Top level so that
    worker processes can find it by name.
    """
    chunk, spec, bots, seed, start, stop, facts, duplicate, timing = task
    info, options = resolve(spec)
    return chunk, [play_one(info, options, bots, seed, k, facts, duplicate, timing) for k in range(start, stop)]


def _chunk_size(matches: int, workers: int) -> int:
    """How many matches one worker task plays: a few tasks per worker so that the load evens out."""
    return max(1, min(_MAX_CHUNK, math.ceil(matches / (workers * 8))))


def _chunks(first: int, end: int, workers: int) -> Iterator[tuple[int, int]]:
    """Cut ``range(first, end)`` into consecutive chunks, made one at a time as the workers take them (the pool
    reads tasks only as fast as its pipe to the workers drains), so nothing is built up front for a long run."""
    size = _chunk_size(end - first, workers)
    return ((start, min(start + size, end)) for start in range(first, end, size))


def _run_parallel(
    spec: str,
    bots: tuple[str, ...],
    matches: range,
    seed: int,
    workers: int,
    progress: ProgressCallback | None,
    facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
) -> list[MatchOutcome]:
    """Play the matches in worker processes and return the outcomes in match order, whatever order chunks finish."""
    total = len(matches)
    n_chunks = math.ceil(total / _chunk_size(total, workers))
    tasks = (
        (i, spec, bots, seed, start, stop, facts, duplicate, timing)
        for i, (start, stop) in enumerate(_chunks(matches.start, matches.stop, workers))
    )
    results: dict[int, list[MatchOutcome]] = {}
    done = 0
    # More processes than cores or chunks would only add start-up cost; the result is the same for any count.
    processes = min(workers, n_chunks, os.cpu_count() or 1)
    # The platform's default start method: "fork" on Linux, where workers inherit bots registered at run time;
    # where workers are spawned instead, bots are looked up by name in each worker, from modules it imports, and
    # a calling script needs the usual ``if __name__ == "__main__":`` guard. Leaving the block ends the workers, so
    # an interrupt or an error stops everything at once (:mod:`clubsuite.pools`).
    with Workers(processes, start=None) as pool:
        for chunk, outcomes in pool.map(_play_chunk, tasks, ordered=False):
            results[chunk] = outcomes
            done += len(outcomes)
            if progress is not None:
                progress(done, total)
    return [outcome for i in range(n_chunks) for outcome in results[i]]


def play_matches(
    spec: str,
    bots: Sequence[str],
    matches: int,
    seed: int,
    played: range | None = None,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    hand_facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
) -> tuple[tuple[str, ...], list[MatchOutcome]]:
    """Check the inputs as :func:`simulate` does and play the matches ``played`` (all ``matches`` by default) of
    that simulation, in match order: the bot of every seat (:func:`team_lineup`) and the outcomes. Each match
    depends on the arguments and its own number only, so the matches of a simulation can be played in parts, in
    any order, on any machines (:mod:`clubsuite.sim.parts`)."""
    info, options, names = _check(spec, tuple(bots), matches, seed, workers)
    if hand_facts:
        hand_facts_of(info.name)  # refuses a game without a report before anything is played
    played = range(matches) if played is None else played
    if workers == 1:
        outcomes = []
        for done, k in enumerate(played, start=1):
            outcomes.append(play_one(info, options, names, seed, k, hand_facts, duplicate, timing))
            if progress is not None:
                progress(done, len(played))
        return names, outcomes
    return names, _run_parallel(spec, names, played, seed, workers, progress, hand_facts, duplicate, timing)


def result_of(
    spec: str, bots: tuple[str, ...], seed: int, outcomes: Sequence[MatchOutcome], duplicate: bool
) -> SimResult:
    """Count the outcomes of every match of a simulation, in match order, into its result."""
    info, options = resolve(spec)
    seat_teams = () if info.fixed_teams else info.teams_of(options)
    result = _tally(spec, spec_of(info.name, options), seed, bots, outcomes, info.name, info.teams, seat_teams)
    return dataclasses.replace(result, duplicate=duplicate)


def simulate(
    spec: str,
    bots: Sequence[str],
    matches: int,
    seed: int,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    hand_facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
) -> SimResult:
    """Play ``matches`` whole matches of ``spec`` between ``bots`` (one per seat) and count the results.

    Entry ``i`` sits at seat ``seating(k, n)[i]`` in match ``k`` (a fixed cycle of :func:`seating_cycle` seatings
    that varies both the seats and the order around the table) and match ``k`` is played from the seed
    ``derive_seed(seed, k)``, so the result is a function of the arguments alone: the same for any ``workers``.
    Win rates come with a 95% Wilson score interval. In a game of fixed partnerships (``GameInfo.teams``) the
    seatings keep partners together, one bot per partnership may be given for all its seats, and the result also
    counts per team (:attr:`SimResult.team_stats`). Raises :class:`InvalidOptionsError` naming the bad input for
    a bad spec, an unknown bot, a bot count that does not match the game's seats, or ``matches``/``workers`` < 1.
    With ``hand_facts`` every outcome also carries its hands' balance-report facts (games in :data:`REPORT_GAMES`
    only; any other game raises :class:`InvalidOptionsError`). With ``duplicate`` the matches of one cycle of
    seatings share their deals (see :func:`play_one`). With ``timing`` each entry also gets its thinking time
    (:class:`Thinking`: wall clock, so it is the one figure that differs between two runs, and never compared).
    """
    names, outcomes = play_matches(
        spec,
        bots,
        matches,
        seed,
        workers=workers,
        progress=progress,
        hand_facts=hand_facts,
        duplicate=duplicate,
        timing=timing,
    )
    return result_of(spec, names, seed, outcomes, duplicate)


def _tally(
    spec: str,
    canonical: str,
    seed: int,
    bots: tuple[str, ...],
    outcomes: Sequence[MatchOutcome],
    game: str = "",
    teams: Teams = (),
    seat_teams: tuple[tuple[int, ...], ...] = (),
) -> SimResult:
    """Count the per-entry figures from the outcomes, taken in match order."""
    n = len(bots)
    wins = [0] * n
    scores = [0] * n
    thinking = [Thinking()] * n
    hands = 0
    for position, outcome in enumerate(outcomes):
        if outcome.index != position:
            raise RuntimeError(f"simulation outcomes out of order: match {outcome.index} at position {position}")
        hands += outcome.hands
        for entry in range(n):
            wins[entry] += outcome.won(entry)
            scores[entry] += outcome.score(entry)
            thinking[entry] = thinking[entry] + outcome.thinking_of(entry)
    timed = any(o.thinking for o in outcomes)
    entries = tuple(
        BotStats(
            label=label,
            bot=bot,
            matches=len(outcomes),
            wins=wins[i],
            hands=hands,
            total_score=scores[i],
            thinking=thinking[i] if timed else None,
        )
        for i, (label, bot) in enumerate(zip(entry_labels(bots), bots, strict=True))
    )
    return SimResult(
        spec=spec,
        canonical_spec=canonical,
        seed=seed,
        bots=bots,
        entries=entries,
        outcomes=tuple(outcomes),
        game=game,
        teams=teams,
        seat_teams=seat_teams,
    )
