"""Three ``clubs serve`` processes over one PostgreSQL database behind HAProxy with the shipped configuration
(``deploy/haproxy.cfg``): clients only ever talk to the proxy. Play goes through it; the owner of a table killed
with SIGKILL in the middle of play, stopped with SIGTERM, or paused long enough to lose its table (split brain)
changes nothing a player can lose: every accepted action is in the log once, and play goes on at another process.

Everything runs on loopback, is started and stopped by the tests, and every wait is on a condition with a generous
bound (the take-over time itself is measured by ``bench/failover.py``, not asserted here).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from proxykit import Node, Proxy, figures, node, owner_of, play, reconnect, stored_log, turn_of
from serverkit import Client, ProcessServer, get, new_table, post, start_all, wait_until

import loopback
from pgcluster import Cluster


@dataclass
class Site:
    """The processes, the proxy in front of them, and their database."""

    nodes: list[ProcessServer]
    proxy: Proxy
    url: str

    def node(self, name: str) -> ProcessServer:
        """The process of that node name."""
        return self.nodes[int(name[-1]) - 1]


@pytest.fixture(scope="module")
def running_site(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The module's site: three processes over one new database and the proxy in front of them, started once.
    Each test kills, stops or pauses at most one process of it, and :func:`site` starts again whatever a test
    before it ended."""
    url = postgres.new_database()
    folder = tmp_path_factory.mktemp("site")
    nodes = [node(folder, url, f"node{i}") for i in (1, 2, 3)]
    proxy = Proxy(nodes, folder)
    try:
        start_all(nodes)
        proxy.start()
        yield Site(nodes, proxy, url)
    finally:
        proxy.stop()
        for n in nodes:
            if n.proc is not None:
                if n.proc.poll() is None and n.proc.returncode is None:
                    n.proc.send_signal(signal.SIGCONT)  # a paused process must be able to die
                n.kill(signal.SIGKILL)


@pytest.fixture
def site(running_site: Site) -> Site:
    """The module's site with its three processes serving: one a test before this one killed or stopped is started
    again, with its name, its ports and its database (as a supervisor restarts a process that died), and answers
    before the test begins. Each test makes tables of its own."""
    ended = [n for n in running_site.nodes if n.proc is not None and n.proc.poll() is not None]
    for n in ended:
        n.launch()
    for n in ended:
        n.wait_up()
    return running_site


def _whist(site: Site) -> tuple[str, str]:
    """A whist table made through the proxy, a person's seat taken through it: (table id, token)."""
    seats = [{"kind": "person"}, *[{"kind": "bot", "bot": "random"}] * 2]
    table_id = new_table(site.proxy.base, "whist", seats)["id"]
    token = post(site.proxy.base, f"/tables/{table_id}/join", {"name": "Zoë"})["token"]
    return table_id, token


def _single_history(url: str, table_id: str) -> list[tuple[int, int, str]]:
    """The table's log, checked to hold each place once, in order (one history)."""
    log = stored_log(url, table_id)
    assert [seq for seq, _, _ in log] == list(range(len(log)))
    return log


def test_tables_are_made_joined_watched_and_played_through_the_proxy(site: Site) -> None:
    base = site.proxy.base
    table_id, token = _whist(site)
    assert get(base, "/ready")["status"] == "ready"
    player = Client(base, table_id, token)
    watcher = Client(base, table_id)
    try:
        play(player, 4)
        version = player.last_state()["version"]
        watcher.until(lambda m: m["type"] in ("state", "update") and m["version"] >= version)
    finally:
        player.close()
        watcher.close()
    assert len(_single_history(site.url, table_id)) >= 4
    assert loopback.get(base + "/metrics").status_code == 403  # the figures are read at each process's own listener
    seat_actions = sum(_figure(n, 'clubs_actions_total{source="seat"}') for n in site.nodes)
    assert seat_actions >= 4
    assert sum(_figure(n, 'clubs_lease_changes_total{change="taken"}') for n in site.nodes) >= 1


def _figure(process: ProcessServer, name: str) -> float:
    """One figure of a process's ``/metrics``, read at its operators' listener (0 where it has none yet)."""
    assert isinstance(process, Node)
    text = figures(process.metrics)
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_a_killed_owner_s_tables_go_on_at_another_process_through_the_proxy(site: Site) -> None:
    """SIGKILL of the process that owns the table, in the middle of play: the client's socket drops, it reconnects
    through the proxy with the last version it saw and resyncs, and play goes on at another process; nothing
    accepted is lost and nothing is applied twice."""
    base = site.proxy.base
    table_id, token = _whist(site)
    player = Client(base, table_id, token)
    try:
        play(player, 3)
        seen = player.last_state()["version"]
    finally:
        player.close()
    before = _single_history(site.url, table_id)
    owner = owner_of(site.url, table_id)
    assert owner is not None
    site.node(owner).kill(signal.SIGKILL)
    again = reconnect(base, table_id, token, seen)
    try:
        assert again.last_state()["version"] >= seen
        play(again, 3)
    finally:
        again.close()
    new_owner = owner_of(site.url, table_id)
    assert new_owner not in (None, owner)
    assert _figure(site.node(str(new_owner)), 'clubs_lease_changes_total{change="adopted"}') >= 1
    after = _single_history(site.url, table_id)
    assert after[: len(before)] == before
    assert len(after) >= len(before) + 3


def test_a_stopping_owner_hands_its_tables_over_and_play_goes_on_through_the_proxy(site: Site) -> None:
    """SIGTERM of the owner: its clients are told to reconnect, the proxy stops sending it new ones (its readiness
    fails), another process takes the table at once, and play goes on."""
    base = site.proxy.base
    table_id, token = _whist(site)
    player = Client(base, table_id, token)
    try:
        play(player, 2)
        seen = player.last_state()["version"]
        owner = owner_of(site.url, table_id)
        assert owner is not None
        assert site.node(owner).kill(signal.SIGTERM) in (0, 128 + signal.SIGTERM)
        player.until(lambda m: m["type"] == "bye")
    finally:
        player.close()
    again = reconnect(base, table_id, token, seen)
    try:
        play(again, 2)
    finally:
        again.close()
    assert owner_of(site.url, table_id) != owner
    assert len(_single_history(site.url, table_id)) >= 4


def test_a_paused_owner_waking_after_its_table_was_taken_over_writes_nothing(site: Site) -> None:
    """Split brain: the owner is paused (SIGSTOP) past its lease, another process takes the table over from the log
    and play goes on there; when the old owner wakes, a client still connected to it acts on its old socket, and the
    old owner, which still holds the table in memory, cannot write it (the lease fences the write): the log keeps
    one history, and the old owner stops serving the table."""
    base = site.proxy.base
    table_id, token = _whist(site)
    owner = owner_of(site.url, table_id)
    assert owner is not None
    old = site.node(owner)
    stale = Client(old.base, table_id, token)  # straight to the owner, not through the proxy
    play(stale, 1)
    seen = stale.last_state()["version"]
    assert old.proc is not None
    old.proc.send_signal(signal.SIGSTOP)
    fresh: Client | None = None
    try:
        wait_until(lambda: owner_of(site.url, table_id) not in (None, owner), 60, "nobody took the table over")
        fresh = reconnect(base, table_id, token, seen)
        play(fresh, 2)
        # Wait until the new owner waits for the person (its bots have played): from here on only seat 0 may act,
        # and its player stays connected at the new owner, so nothing else writes the log.
        turn_of(fresh)
        history = _single_history(site.url, table_id)
    finally:
        old.proc.send_signal(signal.SIGCONT)
    try:
        state = stale.last_state()
        if state["to_act"] == 0 and not state["over"]:
            stale.send({"type": "act", "action": state["legal"][0], "version": state["version"]}, paced=False)
        # The old owner refuses the action (its write fenced) or has already let the table go; either way it ends the
        # socket with a word or an error. Every update it ever sent is of the one history: an action it committed
        # before the take-over (a write under way when the pause landed is committed by the database, and told once
        # the process wakes), never one of its own after.
        stale.until(lambda m: m["type"] in ("error", "bye"), timeout=60)
        for m in stale.messages:
            if m["type"] == "update":
                assert m["version"] <= len(history) and history[m["version"] - 1][1] == m["by"]["seat"], m
        wait_until(
            lambda: get(old.base, "/health")["tables"] == 0, 60, "the woken owner still serves the table it lost"
        )
        assert _single_history(site.url, table_id) == history  # the old owner wrote nothing
    finally:
        stale.close()
        if fresh is not None:
            fresh.close()
