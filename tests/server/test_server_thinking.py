"""The searching bots' worker processes (:mod:`clubsuite.server.table.thinking`): a worker is sent a match the seat
cannot
tell from the real one, never the real one, and decides there as the bot decides on the real match; one decision is
worked out once however often a table asks; a worker that dies is replaced; a closed pool takes nothing more; and
a table goes on when its searching bot cannot decide."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import signal
from dataclasses import replace
from typing import Any

import pytest
from serverkit import ROOMY, ThreadServer, get, in_own_loop, new_table, wait_until

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.server.table.thinking import Thinkers, imagined

SPEC = "pimc(samples=4)"
"""A search with no time limit: its decision depends on the seed only, however busy the machine."""


def _position(spec: str, seed: int, steps: int) -> Any:
    """A match a few heuristic decisions into its first hand."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    bot, rng = make_bot("heuristic", match.game), random.Random(seed)
    for _ in range(steps):
        match.apply(bot.choose(match.view(match.to_act), match.legal_actions(), rng))
    return match


@pytest.mark.parametrize("spec", ["whist", "partnership", "free", "northstar(players=3)"])
def test_a_worker_is_sent_an_imagined_match_and_decides_as_the_bot_does_on_the_real_one(spec: str) -> None:
    """What crosses to the worker (pickled) holds none of the others' real hidden hands, and the decision made there
    is the one the same bot makes on the real match with the same seed."""
    match = _position(spec, 4, 3)
    seat = match.to_act
    view, legal = imagined(match, seat, 77)
    sent = pickle.loads(pickle.dumps((view, legal)))
    world = sent[0]._match  # what the worker could read, whatever the view shows
    hidden = [s for s in range(match.n_seats) if s != seat]
    real_hands = [sorted(map(str, match.view(s).hand)) for s in hidden]
    sent_hands = [sorted(map(str, world.view(s).hand)) for s in hidden]
    assert real_hands != sent_hands  # a fresh draw of every hidden hand (early in a hand: never all alike)
    assert sorted(map(str, world.view(seat).hand)) == sorted(map(str, match.view(seat).hand))
    expected = make_bot(SPEC, match.game).choose(match.view(seat), match.legal_actions(), random.Random(77))
    thinkers = Thinkers(1)

    async def main() -> object:
        return await thinkers.choose("k", SPEC, match.game, view, legal, 77)

    try:
        assert in_own_loop(main) == expected
        assert thinkers.pool.submit(os.getpid)[0].result(120) != os.getpid()  # the workers are other processes
    finally:
        thinkers.close()
    assert thinkers.under_way == 0


def test_one_decision_asked_for_twice_is_worked_out_once() -> None:
    """A table's timer rescheduled (people coming and going) asks again for the decision under way: the second
    ask waits for the first one's work, and a first asker that stops waiting does not cancel it."""
    match = _position("whist", 6, 4)
    seat = match.to_act
    view, legal = imagined(match, seat, 5)
    thinkers = Thinkers(1)
    given = []

    async def main() -> tuple[object, object]:
        first = asyncio.ensure_future(thinkers.choose("same", SPEC, match.game, view, legal, 5))
        deadline = asyncio.get_running_loop().time() + 60
        while thinkers.pool._given == 0 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)  # until the first ask has handed its work to the pool
        given.append(thinkers.pool._given)
        first.cancel()  # the first asker gives up
        again = await thinkers.choose("same", SPEC, match.game, view, legal, 5)
        given.append(thinkers.pool._given)
        return again, await thinkers.choose("other", SPEC, match.game, view, legal, 5)

    try:
        again, other = in_own_loop(main)
    finally:
        thinkers.close()
    assert given == [1, 1]  # the second ask started no second task
    assert again == other


def test_a_bot_worker_that_dies_is_replaced_and_the_decision_is_still_made() -> None:
    """A worker killed (as the system does to a process that takes too much memory) breaks the pool; the next
    decision renews it and is answered."""
    match = _position("whist", 6, 4)
    seat = match.to_act
    view, legal = imagined(match, seat, 5)
    expected = make_bot(SPEC, match.game).choose(view, legal, random.Random(5))
    thinkers = Thinkers(1)

    async def main() -> object:
        worker = thinkers.pool.submit(os.getpid)[0].result(120)
        os.kill(worker, signal.SIGKILL)
        return await thinkers.choose("k", SPEC, match.game, view, legal, 5)

    try:
        assert in_own_loop(main) == expected
    finally:
        thinkers.close()


def test_a_closed_pool_takes_no_more_decisions() -> None:
    thinkers = Thinkers(1)
    thinkers.close()
    match = _position("whist", 6, 4)
    view, legal = imagined(match, match.to_act, 5)

    async def main() -> object:
        return await thinkers.choose("k", SPEC, match.game, view, legal, 5)

    with pytest.raises(RuntimeError, match="closed"):
        in_own_loop(main)


@pytest.mark.server(limits=replace(ROOMY, bot_workers=1, search_tables_per_address=2))
def test_a_table_of_searching_bots_plays_on_through_one_worker_process(server: ThreadServer) -> None:
    """Three ``hard`` bots and one worker process: the table's versions go on rising (every decision is asked of the
    one worker in turn)."""
    table = new_table(server.base, "whist", [{"kind": "bot", "bot": "hard"}] * 3)["id"]
    wait_until(lambda: get(server.base, f"/tables/{table}")["version"] >= 12, 240, "the hard bots did not play")
    assert server.server.config.app.state.hub.thinkers.workers == 1  # type: ignore[union-attr]


def test_a_table_goes_on_with_the_instant_bot_when_its_searching_bot_cannot_decide(server: ThreadServer) -> None:
    """Every decision of the worker pool fails (as when a worker dies twice): the table does not stall, the game's
    instant bot plays the seat's turns."""
    thinkers = server.server.config.app.state.hub.thinkers  # type: ignore[union-attr]

    async def failing(*_: object) -> object:
        raise RuntimeError("the workers are gone")

    thinkers.choose = failing
    table = new_table(server.base, "whist", [{"kind": "bot", "bot": "expert"}] * 3)["id"]
    wait_until(lambda: get(server.base, f"/tables/{table}")["version"] >= 6, 120, "the table stalled")
