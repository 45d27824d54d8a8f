"""What a tournament's tables play and who may make tournaments: the unit chosen with the tournament (one hand, a
short match, a whole match), wins counted as the table named them, the searching bots' share of an address and of a
tournament, a day's tournaments per account, and a list in which the site's own are always shown."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from serverkit import in_own_loop
from sqlalchemy import select, update
from test_server_tournaments import DUEL, end_table, users

from cli_helpers import assert_safe_output, clubs_in_process
from clubsuite.errors import InvalidOptionsError
from clubsuite.server.community import tournaments as tournaments_module
from clubsuite.server.community.directing import Director
from clubsuite.server.community.standings import Played
from clubsuite.server.community.tournaments import MADE_PER_DAY, Tournaments, TournamentSettings, new_tournament
from clubsuite.server.limits import ServerLimits
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import tournament_tables, tournaments
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings

pytestmark = pytest.mark.backends("sqlite", "postgresql")


async def with_keeper(store: Store, body: Any, limits: ServerLimits | None = None) -> Any:
    hub = Hub(Database(store), limits)
    await hub.start()
    try:
        keeper = Tournaments(hub.database, hub)
        return await body(keeper, Director(keeper, "here", bots_after=0.0, round_pause=0.0))
    finally:
        await hub.stop()


def test_an_arena_table_plays_one_hand_and_a_swiss_table_a_short_match_unless_the_maker_chose_otherwise() -> None:
    arena = TournamentSettings.read("arena", "whist", minutes=10)
    swiss = TournamentSettings.read("swiss", "whist", rounds=3)
    whole = TournamentSettings.read("arena", "whist(target=9)", minutes=10, unit="match")
    short = TournamentSettings.read("arena", "whist(target=9)", minutes=10, unit="short")
    assert (arena.unit, swiss.unit, whole.unit) == ("hand", "short", "match")
    assert arena.table_spec() == "whist(target=1)"  # CW-5: whoever leaves zero wins, so one hand decides it
    assert swiss.table_spec() == "whist(target=5)"
    assert whole.table_spec() == "whist(target=9)" and short.table_spec() == "whist(target=5)"
    assert 0 < arena.unit_minutes() < swiss.unit_minutes() < whole.unit_minutes()
    own = TournamentSettings.read("arena", "whist(target=3)", minutes=10)  # the spec says how long: as written
    assert own.unit == "match" and own.table_spec() == "whist(target=3)"
    kept = TournamentSettings.from_json('{"format": "arena", "spec": "whist", "name": "x", "minutes": 30}')
    assert kept.unit == "match" and kept.table_spec() == "whist"  # one made before the choice: whole matches
    with pytest.raises(InvalidOptionsError, match="unit='blitz'"):
        TournamentSettings.read("arena", "whist", minutes=10, unit="blitz")


def test_a_rated_tournaments_tables_play_whole_matches_and_only_whole_matches_are_rated() -> None:
    rated = TournamentSettings.read("arena", "whist", minutes=10, rated=True)
    assert rated.unit == "match" and rated.table_spec() == "whist" and rated.table_settings().rated
    with pytest.raises(InvalidOptionsError, match=r"unit='short'.*rated=false"):
        TournamentSettings.read("swiss", "whist", rounds=3, rated=True, unit="short")
    kept = TournamentSettings.from_json(
        '{"format": "arena", "spec": "whist", "name": "x", "minutes": 30, "rated": true, "unit": "hand"}'
    )
    assert not kept.table_settings().rated  # one hand is not rated as a whole match would be
    assert TournamentSettings.read("arena", "whist", minutes=10).unit == "hand"  # unrated: the kind's default


def test_an_arena_seats_its_entrant_at_a_table_of_its_unit(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann = users()[0]
        tid = await keeper.create(ann, TournamentSettings.read("arena", "whist", None, minutes=5, bot_delay=10.0))
        await keeper.join(tid, ann)
        await keeper.start(tid, ann)
        await director.tick(time.time())
        (table,) = await keeper.tables(tid)
        assert keeper.hub.tables[table.table_id].spec == "whist(target=1)"
        view = await keeper.view(tid, ann)
        assert view["unit"] == "hand" and view["unit_minutes"] > 0

    in_own_loop(lambda: with_keeper(store, body))


def test_a_first_place_the_table_shared_counts_a_win_for_each_of_its_winners(store: Store) -> None:
    shared = Played(("a", "b", None), (1, 1, 3), (), 0, (0, 1))
    assert shared.won(0) and shared.won(1) and not shared.won(2)
    draw = Played(("a", "b", None), (1, 2, 3), (), 0, ())  # a draw names no winner, whatever the places
    assert not draw.won(0)

    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:2]
        tid = await keeper.create(people[0], TournamentSettings.read("swiss", DUEL, None, rounds=1, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        await director.tick(time.time())
        (table,) = await keeper.tables(tid)
        end_table(store, table.table_id, [1, 1], time.time())  # both named winners ("You and Pia win")
        await director.tick(time.time())
        rows = (await keeper.view(tid))["standings"]
        assert [(r["place"], r["points"], r["wins"]) for r in rows] == [(1, 1, 1), (1, 1, 1)]

    in_own_loop(lambda: with_keeper(store, body))


def test_a_table_kept_without_its_winners_counts_a_first_place_alone_as_the_win(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()[:2]
        tid = await keeper.create(people[0], TournamentSettings.read("swiss", DUEL, None, rounds=1, bots=False))
        for u in people:
            await keeper.join(tid, u)
        await keeper.start(tid, people[0])
        await director.tick(time.time())
        (table,) = await keeper.tables(tid)

        def ended_before_winners_were_read(conn: Any) -> None:  # its places kept, no player rows
            conn.execute(
                update(tournament_tables)
                .where(tournament_tables.c.table_id == table.table_id)
                .values(finished_at=time.time(), places="[1, 2]", counted=True)
            )

        store.write(ended_before_winners_were_read)
        (kept,) = await keeper.tables(tid)
        assert kept.won is None
        rows = (await keeper.view(tid))["standings"]
        assert [(r["place"], r["wins"]) for r in rows] == [(1, 1), (2, 0)]  # was no win for either

    in_own_loop(lambda: with_keeper(store, body))


def test_tournaments_with_searching_bots_count_against_their_hosts_address_with_its_tables(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()
        expert = TournamentSettings.read("arena", DUEL, None, minutes=5, bot="expert", bot_delay=0.0)
        await keeper.create(people[0], expert, "198.51.100.7")
        await keeper.create(people[1], expert, "198.51.100.7")
        with pytest.raises(Refused) as refused:  # a third account of the same address
            await keeper.create(people[2], expert, "198.51.100.7")
        assert refused.value.code == "too_many_tables"
        await keeper.create(people[2], TournamentSettings.read("arena", DUEL, None, minutes=5), "198.51.100.7")
        await keeper.create(people[2], expert, "203.0.113.9")  # another address has its own share
        table = await keeper.hub.create_table(
            DUEL, [SeatRequest("person"), SeatRequest("bot", "hard")], TableSettings(bot_delay=10.0), None, "192.0.2.1"
        )
        await keeper.create(people[3], expert, "192.0.2.1")
        with pytest.raises(Refused):  # a plain table with a searching bot and a tournament fill the share
            await keeper.create(people[4], expert, "192.0.2.1")
        await keeper.hub.close_table(table)

    in_own_loop(lambda: with_keeper(store, body))


def test_a_tournament_fills_no_more_tables_with_searching_bots_at_once_than_an_address_may_open(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann, bob = users()[:2]
        settings = TournamentSettings.read("arena", DUEL, None, minutes=5, bot="hard", bot_delay=10.0)
        tid = await keeper.create(ann, settings)
        await keeper.start(tid, ann)
        bots = []
        for u in (ann, bob):  # one after the other: each sits alone with a bot
            await keeper.join(tid, u)
            await director.tick(time.time())
            table = (await keeper.tables(tid))[-1]
            bots.append(next(s.bot for s in keeper.hub.tables[table.table_id].seats if s.kind == "bot"))
        assert bots == ["hard", "normal"]  # the share is one here; past it, the strongest instant bot

    in_own_loop(lambda: with_keeper(store, body, ServerLimits(search_tables_per_address=1)))


def test_a_tournaments_tables_with_searching_bots_share_their_hosts_address_count_with_its_own_tables(
    store: Store,
) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann, bob = users()[:2]
        plain = await keeper.hub.create_table(
            DUEL, [SeatRequest("person"), SeatRequest("bot", "hard")], TableSettings(bot_delay=10.0), None, "192.0.2.1"
        )
        settings = TournamentSettings.read("arena", DUEL, None, minutes=5, bot="hard", bot_delay=10.0)
        tid = await keeper.create(ann, settings, "192.0.2.1")
        await keeper.start(tid, ann)
        bots = []
        for u in (ann, bob):
            await keeper.join(tid, u)
            await director.tick(time.time())
            table = (await keeper.tables(tid))[-1]
            bots.append(next(s.bot for s in keeper.hub.tables[table.table_id].seats if s.kind == "bot"))
        assert bots == ["hard", "normal"]  # the address's own table and the tournament's first fill its share of 2
        assert keeper.hub.searching_tables("192.0.2.1") == 2
        await keeper.hub.close_table(plain)

    in_own_loop(lambda: with_keeper(store, body, ServerLimits(search_tables_per_address=2)))


def test_tournaments_with_searching_bots_asked_for_at_once_from_one_address_are_counted_one_after_another(
    store: Store,
) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        people = users()
        expert = TournamentSettings.read("arena", DUEL, None, minutes=5, bot="expert", bot_delay=0.0)
        made = await asyncio.gather(
            *(keeper.create(u, expert, "198.51.100.7") for u in people[:3]), return_exceptions=True
        )
        refused = [m for m in made if isinstance(m, Refused)]
        assert len(refused) == 2 and all(r.code == "too_many_tables" for r in refused), made

    in_own_loop(lambda: with_keeper(store, body, ServerLimits(search_tables_per_address=1)))


def test_an_account_makes_only_so_many_tournaments_a_day(store: Store) -> None:
    async def body(keeper: Tournaments, director: Director) -> None:
        ann = users()[0]
        settings = TournamentSettings.read("arena", DUEL, None, minutes=5)
        day_ago = time.time() - 23 * 3600.0
        for _ in range(MADE_PER_DAY):  # made within the day, and over since (the cap on those not over holds apart)
            store.write(lambda conn: _over(conn, new_tournament(conn, ann.id, settings, day_ago)))
        with pytest.raises(Refused) as refused:
            await keeper.create(ann, settings)
        assert refused.value.code == "too_many_today"
        await keeper.create(users()[1], settings)  # another account may

    in_own_loop(lambda: with_keeper(store, body))


def test_the_sites_own_tournaments_are_always_listed_and_those_without_a_start_time_come_last(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournaments_module, "LISTED_LIVE", 6)
    now = time.time()

    def fill(conn: Any) -> None:
        for i in range(8):  # strangers' tournaments, no start time: enough to fill the list
            new_tournament(conn, f"stranger-{i}", TournamentSettings.read("arena", DUEL, f"Stranger {i}", 5), now)
        dated = TournamentSettings.read("arena", DUEL, "Dated", 5, starts_at=now + 7200, now=now)
        new_tournament(conn, "stranger-0", dated, now)
        site = TournamentSettings.read(
            "swiss", DUEL, "The club's Sunday Swiss", rounds=3, starts_at=now + 86400, now=now
        )
        new_tournament(conn, None, site, now)

    store.write(fill)

    async def body(keeper: Tournaments, director: Director) -> None:
        listed = await keeper.listing()
        names = [x["name"] for x in listed]
        assert len(names) == 6
        assert names[0] == "The club's Sunday Swiss" and listed[0]["scheduled"]
        assert names[1] == "Dated"  # a start time first; those waiting for their hosts after it
        assert all(x["starts_at"] is None for x in listed[2:])

    in_own_loop(lambda: with_keeper(store, body))


def _over(conn: Any, tournament_id: str) -> None:
    conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(status="over"))


def test_the_operator_chooses_what_each_table_of_the_sites_tournament_plays(tmp_path: Path) -> None:
    Store.in_directory(tmp_path).close()  # the server's database, made as a server would
    data = ["--data-dir", str(tmp_path)]
    made = clubs_in_process(["admin", "tournament", "arena", "whist", "--starts", "+60", "--unit", "short", *data])
    assert made.status == 0, made.stderr
    bad = clubs_in_process(["admin", "tournament", "arena", "whist", "--starts", "+60", "--unit", "blitz", *data])
    assert bad.status == 2 and "--unit" in bad.stderr
    assert_safe_output(bad)
    store = Store.in_directory(tmp_path)
    try:
        (row,) = store.read(select(tournaments.c.settings))
        assert TournamentSettings.from_json(row.settings).table_spec() == "whist(target=5)"
    finally:
        store.close()
