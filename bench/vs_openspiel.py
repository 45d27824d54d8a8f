"""This project's search bot against OpenSpiel's IS-MCTS, at equal time per move, in every game.

Run as ``python bench/vs_openspiel.py [--ms 100] [--matches 12] [--games whist,free] [--ours SPEC] [--json]``.

Both play whole matches through the OpenSpiel registration of the games (:mod:`clubsuite.rl.spiel`): OpenSpiel's
Python ``ISMCTSBot`` (UCT constant 2, one random rollout per simulation, its worlds drawn by the game's exact
sampler) searches until ``--ms`` milliseconds have passed; this project's bot (by default
``pimc(samples=10000,ms=MS)``) gets the same budget and sees only its seat's view. Seatings cycle so that each
side holds every seat: in a three-player game one of ours against two of theirs and one of theirs against two of
ours, each turned through the three seats; in a game of partnerships one partnership each, both ways round; in a
game for N players, one of ours against N - 1 of theirs and the reverse, turned through every seat. The result is
each side's win rate over all its seats (a seat wins when it is among the match's winners) with its 95% Wilson
interval, per line-up too. Wall-clock budgets make the result depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import clubsuite.rl.spiel  # noqa: F401  # registers the games with OpenSpiel
from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.options import spec_of
from clubsuite.sim import wilson_interval

GAMES = ("whist", "free", "partnership", "northstar(players=3)")


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS bot, searching until a deadline rather than for a number of simulations."""

    def __init__(self, *args: Any, seconds: float, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.simulations: list[int] = []

    def run_search(self, state: Any) -> Any:
        """The library's search loop with a time limit (at least two simulations: the library's first one only
        reads the root's priors)."""
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        while done < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations.append(done)
        return self.get_final_policy(state, self._root_node)


def openspiel_name(spec: str, max_hands: int | None) -> str:
    """``clubs_<game>(options)``: the OpenSpiel name of a rules spec (a named variant written out)."""
    info, options = resolve(spec)
    canonical = spec_of(info.name, options)
    extra = [] if max_hands is None else [f"max_hands={max_hands}"]
    if "(" in canonical:
        head, _, inner = canonical.partition("(")
        return f"clubs_{head}({','.join([inner[:-1], *extra])})"
    return f"clubs_{canonical}" + (f"({extra[0]})" if extra else "")


def lineups(seats: int, teams: tuple[tuple[int, ...], ...]) -> list[tuple[str, ...]]:
    """Who holds each seat in each match of a cycle: ``ours`` or ``theirs``."""
    if teams:
        return [tuple("ours" if s in team else "theirs" for s in range(seats)) for team in teams]
    out = []
    for alone in ("ours", "theirs"):
        other = "theirs" if alone == "ours" else "ours"
        out += [tuple(alone if s == seat else other for s in range(seats)) for seat in range(seats)]
    return out


def play(game: Any, lineup: tuple[str, ...], ours_spec: str, ms: int, seed: int, stats: dict[str, list[int]]) -> Any:
    """One whole match; returns the final OpenSpiel state."""
    rng = np.random.RandomState(seed)
    bot_rng = random.Random(seed)
    state = game.new_initial_state()
    info_name = state.table.match.game
    ours = {s: make_bot(ours_spec, info_name) for s, side in enumerate(lineup) if side == "ours"}
    theirs: dict[int, TimedISMCTS] = {}
    for s, side in enumerate(lineup):
        if side == "theirs":
            bot = TimedISMCTS(
                game=game,
                evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 10 + s)),
                uct_c=2.0,
                max_simulations=10**9,
                random_state=np.random.RandomState(seed + 20 + s),
                seconds=ms / 1000,
            )
            resampler = np.random.RandomState(seed + 30 + s)
            bot.set_resampler(lambda st, player, r=resampler: st.resample_from_infostate(player, r.uniform))
            theirs[s] = bot
    queued: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        if seat in theirs:
            state.apply_action(int(theirs[seat].step(state)))
            continue
        if not queued:
            match = state.table.match
            started = time.perf_counter()
            action = ours[seat].choose(match.view(seat), match.legal_actions(), bot_rng)
            stats["ours_ms"].append(round(1000 * (time.perf_counter() - started)))
            queued = list(state.table.coding.tokens(action))
        state.apply_action(queued.pop(0))
    for bot in theirs.values():
        stats["theirs_simulations"] += bot.simulations
    return state


def run_game(spec: str, ms: int, matches: int, ours_spec: str, seed: int, max_hands: int | None) -> dict[str, Any]:
    """Every match of one game, counted per side and per line-up."""
    info, options = resolve(spec)
    game = pyspiel.load_game(openspiel_name(spec, max_hands))
    seats = game.num_players()
    cycle = lineups(seats, info.teams_of(options) if info.fixed_teams else ())
    wins = {"ours": 0, "theirs": 0}
    seat_matches = {"ours": 0, "theirs": 0}
    per_lineup: dict[str, list[int]] = {}
    stats: dict[str, list[int]] = {"ours_ms": [], "theirs_simulations": []}
    started = time.perf_counter()
    for k in range(matches):
        lineup = cycle[k % len(cycle)]
        final = play(game, lineup, ours_spec, ms, seed * 1000 + k, stats)
        match = final.table.match
        key = " ".join(lineup)
        tally = per_lineup.setdefault(key, [0, 0, 0])
        tally[2] += 1
        for s, side in enumerate(lineup):
            seat_matches[side] += 1
            if s in match.winners:
                wins[side] += 1
                tally[0 if side == "ours" else 1] += 1
    result: dict[str, Any] = {"game": spec, "matches": matches, "ms": ms, "ours_bot": ours_spec}
    for side in ("ours", "theirs"):
        low, high = wilson_interval(wins[side], seat_matches[side])
        result[side] = {
            "seat_wins": wins[side],
            "seat_matches": seat_matches[side],
            "win_rate": wins[side] / seat_matches[side],
            "ci95": [low, high],
        }
    result["lineups"] = {k: {"ours_wins": v[0], "theirs_wins": v[1], "matches": v[2]} for k, v in per_lineup.items()}
    sims = stats["theirs_simulations"]
    result["theirs_simulations_per_move"] = sum(sims) / len(sims) if sims else 0.0
    result["ours_ms_per_move"] = sum(stats["ours_ms"]) / len(stats["ours_ms"]) if stats["ours_ms"] else 0.0
    result["seconds"] = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ms", type=int, default=100, help="milliseconds per move for both sides (default 100)")
    parser.add_argument("--matches", type=int, default=12, help="matches per game (default 12: two cycles)")
    parser.add_argument("--games", default=",".join(GAMES), help="game specs, separated by commas")
    parser.add_argument("--ours", default=None, help="this project's bot (default pimc(samples=10000,ms=MS))")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-hands", type=int, default=None, help="cut matches after this many hands (smoke runs)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if args.ms < 1 or args.matches < 1:
        parser.error("--ms and --matches must be at least 1")
    ours = args.ours or f"pimc(samples=10000,ms={args.ms})"
    specs = _split(args.games)
    results = []
    for spec in specs:
        results.append(run_game(spec, args.ms, args.matches, ours, args.seed, args.max_hands))
        if not args.json:
            _print(results[-1])
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


def _split(text: str) -> list[str]:
    """Split game specs at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*out, cur.strip()] if cur.strip() else out


def _print(r: dict[str, Any]) -> None:
    def side(name: str) -> str:
        s = r[name]
        return (
            f"{100 * s['win_rate']:.1f}% ({100 * s['ci95'][0]:.1f} .. {100 * s['ci95'][1]:.1f}) "
            f"of {s['seat_matches']} seat-matches"
        )

    print(f"{r['game']}: {r['matches']} matches at {r['ms']} ms a move, {r['seconds']:.0f} s")
    print(f"  ours   {r['ours_bot']:<40} {side('ours')}, {r['ours_ms_per_move']:.0f} ms a move")
    sims = r["theirs_simulations_per_move"]
    print(f"  theirs {'OpenSpiel IS-MCTS':<40} {side('theirs')}, {sims:.1f} simulations a move")
    for lineup, v in r["lineups"].items():
        print(f"    {lineup}: {v['matches']} matches, seats won: ours {v['ours_wins']}, theirs {v['theirs_wins']}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
