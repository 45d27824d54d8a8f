"""No message of the server names a card its receiver may not know, in any game.

Whole matches are played through real WebSocket clients, one per seat (each choosing random legal actions, and now
and then trying something illegal, so that refusals are checked too) plus a spectator. Afterwards the match is
replayed from its stored record, and every message each client received is held against what that client may know
at that message's version (``knowable.knowable_cards``, computed from the full state, not from the views): its own
cards, what was shown to the table, and what the rules showed that seat alone. Each game plays one such match a run,
its players' choices drawn from the run's seed (``fresh_seed``, printed with the test's output and named in a
failure's report; ``CLUBS_SEED`` plays them again) and its deal by the server: every run plays other matches than the
last.

And the other way round: two deals that differ only in cards a seat cannot see (the second drawn by
``determinize``) give that seat, and a spectator, the same messages for the same actions.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from collections.abc import Iterable
from typing import Any

import httpx
import pytest
from serverkit import Client, Message, ThreadServer, arrivals, get, post

import loopback
from clubsuite import tabletalk
from clubsuite.engine import SomeMatch, find_game, resolve
from clubsuite.runner import deal_next
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings
from knowable import cards_named, knowable_cards

GAMES = [
    "whist(target=3)",
    "free(target=30)",
    "partnership(target=30)",
    "northstar(players=3, target=10)",
    "northstar(players=4, teams=2x2, double_or_nothing=true, target=20)",
    "northstar(players=5, wild_fifteens=true, target=10)",
]

# The tests that take ``shared`` (one server of the module's: tests/server/conftest.py) make tables of their own (and
# sign up accounts, or take guests' names, no other test takes) and read only their messages and records.


def hub_of(server: ThreadServer) -> Hub:
    """The hub of a server running in this process."""
    hub = server.server.config.app.state.hub
    assert isinstance(hub, Hub)
    return hub


def play_everyone(
    clients: dict[int, Client],
    rng: random.Random,
    stop: Any,
    misplays: float = 0.05,
    held: Iterable[tuple[int, Any]] = (),
) -> tuple[int, Any]:
    """Each seat's client acts whenever it is to act (now and then trying a card it may not play) until ``stop``
    holds for some message (``held``: messages already read, handled first); that message, not acted on, and its
    client's seat."""
    for seat, msg in itertools.chain(held, arrivals(clients, 300)):
        if stop(msg):
            return seat, msg
        if msg["type"] in ("state", "update") and msg["to_act"] == seat and not msg["over"]:
            client = clients[seat]
            if rng.random() < misplays:
                wrong = rng.choice(["2C", "QH", "7S", "15D", "pass"])
                client.send({"type": "act", "action": wrong, "version": msg["version"]})
            client.send({"type": "act", "action": rng.choice(msg["legal"]), "version": msg["version"]})
    raise AssertionError("the clients' messages ended before the one awaited")


def left(msg: Any, seat: int) -> bool:
    """Whether ``msg`` tells that nobody holds ``seat`` any more (its player's connection closed, as the server saw)."""
    return bool(msg["type"] == "presence" and not msg["seats"][seat]["connected"])


def states_by_version(record: dict[str, Any]) -> list[SomeMatch]:
    """The match after each version of a first match (version 0: as dealt), rebuilt from its record."""
    info, options = resolve(record["variant"])
    match = info.new_match(options, record["first_dealer"])
    seed = record["seed"]
    while match.to_act is None and not match.is_over:
        deal_next(match, info, seed)
    states = [match.clone()]
    for hand in record["hands"]:
        for text in hand["actions"]:
            match.apply(match.parse_action(text))
            while match.to_act is None and not match.is_over:
                deal_next(match, info, seed)
            states.append(match.clone())
    return states


@pytest.mark.parametrize("game", GAMES)
def test_no_message_names_a_card_its_receiver_may_not_know(shared: ThreadServer, game: str, fresh_seed: int) -> None:
    server = shared
    info, options = resolve(game)
    n = info.n_seats(options)
    table = post(server.base, "/tables", {"game": game, "bot_delay": 0}, 201)
    tokens = [post(server.base, f"/tables/{table['id']}/join", {"name": f"p{i}"})["token"] for i in range(n)]
    clients = {i: Client(server.base, table["id"], tokens[i]) for i in range(n)}
    watcher = Client(server.base, table["id"])
    try:
        play_everyone(clients, random.Random(f"{game} {fresh_seed}"), lambda m: m.get("over") is True)
        watcher.until(lambda m: m.get("over") is True)
    finally:
        for c in (*clients.values(), watcher):
            c.close()
    assert check_every_message(server, table["id"], game, [*clients.items(), (None, watcher)]) > 50


def check_every_message(
    server: ThreadServer, table_id: str, game: str, receivers: list[tuple[int | None, Client]], invite: str = ""
) -> int:
    """Every message each receiver (a seat, or None: a spectator) got names only cards it may know at the version it
    was sent (the oracle of tests/knowable.py over the match rebuilt from its record); how many were checked."""
    query = f"?invite={invite}" if invite else ""
    states = states_by_version(get(server.base, f"/tables/{table_id}/record.json{query}"))
    name = find_game(game.split("(")[0])[0].name
    checked = 0
    for seat, client in receivers:
        version = 0
        for msg in client.messages:
            version = msg.get("version", version)
            if msg["type"] == "catchup":
                continue
            allowed = knowable_cards(states[version], seat)
            if msg["type"] == "error":  # a refusal may repeat what the client itself wrote
                allowed |= cards_named([m.get("action") for m in client.sent], name)
            named = cards_named(without_examples(without_ids([msg])[0]), name)  # a random id may read like 8S
            assert named <= allowed, f"seat {seat} was sent {sorted(named - allowed)} at version {version}: {msg}"
            checked += 1
    return checked


def signed_up(server: ThreadServer, name: str) -> tuple[httpx.Client, dict[str, str]]:
    b = loopback.client(base_url=server.base, timeout=30)
    r = b.post("/account/signup", json={"name": name, "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    return b, {"X-CSRF-Token": r.json()["csrf"]}


def test_no_message_names_a_card_its_receiver_may_not_know_at_a_rated_table(shared: ThreadServer) -> None:
    server = shared
    game = "whist(target=3)"
    table = post(server.base, "/tables", {"game": game, "bot_delay": 0, "rated": True}, 201)
    people = [signed_up(server, name) for name in ("Ann", "Bob", "Cleo")]
    tokens = [b.post(f"/tables/{table['id']}/join", json={}, headers=h).json()["token"] for b, h in people]
    clients = {i: Client(server.base, table["id"], tokens[i]) for i in range(3)}
    watcher = Client(server.base, table["id"])
    try:
        play_everyone(clients, random.Random("rated"), lambda m: m.get("over") is True)
        watcher.until(lambda m: m.get("over") is True)
    finally:
        for c in (*clients.values(), watcher):
            c.close()
    assert check_every_message(server, table["id"], game, [*clients.items(), (None, watcher)]) > 50


def test_no_message_names_a_card_its_receiver_may_not_know_at_a_turn_based_table(shared: ThreadServer) -> None:
    """A turn-based table's own parts too: its clock (``turn``), and what a player who went away and came back is
    told of the moves they missed (``away``), with a chat line kept for them."""
    server = shared
    game = "whist(target=3)"
    people = [signed_up(server, name) for name in ("Tess", "Ugo", "Vic")]
    table = people[0][0].post("/tables", json={"game": game, "pace": 86400, "public": False}, headers=people[0][1])
    assert table.status_code == 201, table.text
    made = table.json()
    joined = [b.post(f"/invites/{made['invite']}/join", json={}, headers=h).json() for b, h in people]
    tokens = {j["seat"]: j["token"] for j in joined}
    clients = {seat: Client(server.base, made["id"], token) for seat, token in tokens.items()}
    receivers: list[tuple[int | None, Client]] = []
    try:
        rng = random.Random("turn-based")
        stopped = play_everyone(clients, rng, lambda m: m.get("version", 0) >= 12 and m.get("to_act") not in (0, None))
        gone = clients.pop(0)
        receivers.append((0, gone))
        gone.close()  # seat 0 goes away; the others play on once the server has seen her go, and one says a word
        held: list[tuple[int, Message]] = [stopped] if stopped[0] != 0 else []  # its client acts on it yet
        for seat, msg in arrivals(clients, 60):
            if left(msg, 0):
                break
            held.append((seat, msg))
        seen = msg["version"]  # the version the server saw her leave at
        clients[1].send({"type": "chat", "text": "back soon?"})
        play_everyone(  # until her turn comes again: a version after the last she saw
            clients,
            rng,
            lambda m: m.get("over") is True or (m.get("to_act") == 0 and m["version"] > seen),
            held=held,
        )
        back = clients[0] = Client(server.base, made["id"], tokens[0])
        state = back.until(lambda m: m["type"] == "state")
        assert state["turn"]["pace"] == 86400 and (state["over"] or state["away"]["updates"])
        if not state["over"]:  # her move, told in the state she was just sent
            back.send({"type": "act", "action": rng.choice(state["legal"]), "version": state["version"]})
            play_everyone(clients, rng, lambda m: m.get("over") is True)
    finally:
        for c in clients.values():
            c.close()
    receivers += clients.items()
    assert check_every_message(server, made["id"], game, receivers, made["invite"]) > 50


def test_no_message_names_a_card_its_receiver_may_not_know_at_a_club_nights_tables(shared: ThreadServer) -> None:
    server = shared
    game = "whist(target=3)"
    host, host_h = signed_up(server, "Hana")
    night = host.post("/clubnights", json={"game": game, "tables": 2, "bot_delay": 0}, headers=host_h).json()
    entrants = [host.post(f"/clubnights/{night['id']}/enter", json={}, headers=host_h).json()]
    for name in ("Ivo", "Jan", "Kai"):
        entrants.append(loopback.post(f"{server.base}/clubnights/{night['id']}/enter", json={"name": name}).json())
    assert host.post(f"/clubnights/{night['id']}/rounds", headers=host_h).status_code == 200
    seats = [
        loopback.post(f"{server.base}/clubnights/{night['id']}/seat", json={"token": e["token"]}).json()
        for e in entrants
    ]
    by_table: dict[str, dict[int, Client]] = {}
    for s in seats:
        by_table.setdefault(s["table"], {})[s["seat"]] = Client(server.base, s["table"], s["token"])
    try:
        for table_id, clients in by_table.items():
            play_everyone(clients, random.Random(table_id), lambda m: m.get("over") is True)
    finally:
        for clients in by_table.values():
            for c in clients.values():
                c.close()
    hub = hub_of(server)
    for table_id, clients in by_table.items():
        invite = hub.tables[table_id].invite
        assert check_every_message(server, table_id, game, list(clients.items()), invite) > 20


EXAMPLES = re.compile(r"\b(such as|e\.g\.)\s[^;()]*")
"""The examples of notation in a refusal ("a card such as 10H or QC"): words about the notation, not cards."""


def without_examples(msg: Message) -> Message:
    """A refusal with its examples of notation taken out (every other message as it is)."""
    if msg["type"] != "error":
        return msg
    return {**msg, "message": EXAMPLES.sub("", msg["message"])}


def without_ids(messages: list[Message]) -> list[Message]:
    """Messages with what differs between two tables by nature (the id, the invite) taken out."""
    out = []
    for msg in messages:
        msg = dict(msg)
        if isinstance(msg.get("table"), dict):
            msg["table"] = {k: v for k, v in msg["table"].items() if k != "id"}
        if msg["type"] == "welcome":
            msg.pop("table")
        out.append(msg)
    return out


@pytest.mark.parametrize("game", GAMES[:5])
def test_deals_that_differ_only_in_unseen_cards_give_a_seat_and_a_spectator_the_same_messages(
    shared: ThreadServer, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = shared
    info, options = resolve(game)
    n = info.n_seats(options)
    rng = random.Random(f"deals {game}")
    # A first hand played some way in, then the same actions on a deal drawn again for what seat 0 cannot see.
    original = info.new_match(options, 0)
    deal_next(original, info, 7)
    for _ in range(rng.randrange(3, 12)):
        if original.to_act is None:
            break
        legal = list(original.legal_actions())
        original.apply(legal[rng.randrange(len(legal))])
    other = original.determinize(0, random.Random(3))
    deals = {101: original.hands[0].deal, 202: other.hands[0].deal}
    assert deals[101] != deals[202]
    # Each deal's own actions: they are the same where seat 0 can see them (a card passed between two other seats is
    # hidden from it, and determinize draws it again like the other hidden cards).
    logs = {101: original.hands[0].action_log(), 202: other.hands[0].action_log()}

    def dealt(match: SomeMatch, _info: Any, seed: int) -> Any:
        return match.deal(deal=deals[seed]) if not match.hands else deal_next(match, _info, seed)

    monkeypatch.setattr(tabletalk, "deal_next", dealt)  # where a server's table (and the offline one) deals
    hub = hub_of(server)
    seen: dict[int, list[list[Message]]] = {}
    for seed in deals:
        requests = [SeatRequest("person")] * n
        future = asyncio.run_coroutine_threadsafe(
            hub.create_table(game, requests, TableSettings(bot_delay=0), seed=seed), server_loop(server)
        )
        table = future.result(10)
        tokens = [post(server.base, f"/tables/{table.id}/join", {"name": f"p{i}"})["token"] for i in range(n)]
        clients: dict[int, Client] = {}
        for i in range(n):  # one after the other, each in before the next: the same presence messages every time
            clients[i] = Client(server.base, table.id, tokens[i])
            clients[i].until(lambda m: m["type"] == "state")
        watcher = Client(server.base, table.id)
        watcher.until(lambda m: m["type"] == "state")
        for version, action in enumerate(logs[seed]):  # the same actions, by whoever is to act
            actor = table.match.to_act
            assert actor is not None
            text = table.match.format_action(action)
            clients[actor].send({"type": "act", "action": text, "version": version})
            clients[actor].until(lambda m, v=version: m["type"] == "update" and m["version"] == v + 1)
        last = len(logs[seed])
        for c in (*clients.values(), watcher):  # every client has been told the last action, whatever the load
            if not any(m["type"] == "update" and m["version"] == last for m in c.messages):
                c.until(lambda m, v=last: m["type"] == "update" and m["version"] == v)
            c.close()
        seen[seed] = [without_ids(clients[0].messages), without_ids(watcher.messages)]
    assert seen[101] == seen[202]


def server_loop(server: ThreadServer) -> asyncio.AbstractEventLoop:
    """The event loop the server runs in."""
    loop = hub_of(server).loop
    assert loop is not None
    return loop
