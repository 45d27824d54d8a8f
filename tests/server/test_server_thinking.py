"""The searching bots' worker processes (:mod:`clubsuite.server.thinking`): a decision made there is the one the bot
makes in the server's own process for the same view and seed, it is made in another process, a worker that dies is
replaced, and a server's searching bots play their tables through them."""

from __future__ import annotations

import os
import random
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from serverkit import ROOMY, ThreadServer, get, in_own_loop, new_table, wait_until

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.server.store import Store
from clubsuite.server.thinking import Thinkers


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
def test_a_searching_bot_decides_in_a_worker_process_as_it_would_in_the_servers_own(spec: str) -> None:
    """The worker is sent the seat's view, the legal actions, the spec and the seed; its answer is the action the same
    bot chooses here from the same view with ``random.Random(seed)``, and it was worked out in another process."""
    match = _position(spec, 4, 7)
    seat, legal = match.to_act, match.legal_actions()
    expected = make_bot("hard", match.game).choose(match.view(seat), legal, random.Random(77))
    thinkers = Thinkers(1)

    async def main() -> tuple[object, int]:
        action = await thinkers.choose("hard", match.game, match.view(seat), legal, 77)
        worker = thinkers.pool().submit(os.getpid).result(120)
        return action, worker

    try:
        action, worker = in_own_loop(main)
    finally:
        thinkers.close()
    assert action == expected
    assert worker != os.getpid()
    assert thinkers.waiting == 0


def test_a_bot_worker_that_dies_is_replaced_and_the_decision_is_still_made() -> None:
    """A worker killed (as the system does to a process that takes too much memory) breaks the pool; the next
    decision renews it and is answered."""
    match = _position("whist", 6, 4)
    seat, legal = match.to_act, match.legal_actions()
    expected = make_bot("hard", match.game).choose(match.view(seat), legal, random.Random(5))
    thinkers = Thinkers(1)

    async def main() -> object:
        worker = thinkers.pool().submit(os.getpid).result(120)
        os.kill(worker, signal.SIGKILL)
        return await thinkers.choose("hard", match.game, match.view(seat), legal, 5)

    try:
        assert in_own_loop(main) == expected
    finally:
        thinkers.close()


def test_a_table_of_searching_bots_plays_on_through_one_worker_process(tmp_path: Path) -> None:
    """Three ``hard`` bots and one worker process: the table's versions go on rising (every decision is asked of the
    one worker in turn)."""
    limits = replace(ROOMY, bot_workers=1, search_tables_per_address=2)
    with ThreadServer(Store.in_directory(tmp_path), limits) as server:
        seats = [{"kind": "bot", "bot": "hard"}] * 3
        table = new_table(server.base, "whist", seats)["id"]
        wait_until(lambda: get(server.base, f"/tables/{table}")["version"] >= 12, 240, "the hard bots did not play")
        hub = server.server.config.app.state.hub  # type: ignore[union-attr]
        assert hub.thinkers.workers == 1
