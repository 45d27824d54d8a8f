"""Puzzles on a real server: a position is shown without its answer (a single-dummy one with nothing but what its seat
can know), an answer is judged on the server (a wrong one told what it gets, a right one given the line), a signed-in
account's first attempt is rated against the puzzle and both ratings move, a later one and one in a streak are not,
asking for the solution first is a miss, a guest is judged but nothing of it is kept, the next puzzle is near the
player's rating, of the theme asked and not tried before, today's puzzle is the same all day, and every bad request
is refused naming what is wrong, changing nothing."""

from __future__ import annotations

import asyncio
import datetime
import itertools
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from serverkit import ROOMY, ThreadServer, in_own_loop
from sqlalchemy import func, select

import loopback
from clubsuite.puzzles import glicko
from clubsuite.puzzles.model import Puzzle, match_point
from clubsuite.puzzles.sets import shipped
from clubsuite.server.puzzles.library import KEPT_PARTS, Library, PuzzleRefused
from clubsuite.server.puzzles.own import pool_of
from clubsuite.server.puzzles.positions import position_and_line
from clubsuite.server.store.database import Store
from clubsuite.server.store.dbschema import puzzle_attempts, puzzle_ratings, puzzle_skills
from puzzle_helpers import keys, wrong_action

PASSWORD = "correct horse battery"
WHIST = shipped("whist")
EXACT = next(p for p in WHIST if p.kind == "double_dummy")
SINGLE = next(p for p in WHIST if p.kind == "single_dummy")
HIDDEN = {"solution", "values", "line", "record", "worlds", "steps"}
"""What a position never holds, at any depth (nor, at its top, an answer's ``value`` or ``best``)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadServer, Store]]:
    """One server for the module (its puzzle worker started once); each test signs up accounts of its own."""
    store = Store.in_directory(tmp_path_factory.mktemp("puzzles"))
    with ThreadServer(store) as running:
        yield running, store


@pytest.fixture(scope="module")
def first_ratings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """One server for the tests that read every puzzle at its first rating (the next puzzle is chosen by rating):
    none of them makes a rated attempt (a streak's answers and a guest's are unrated, and move no puzzle's rating),
    and each signs up accounts of its own, so that none changes what another reads."""
    store = Store.in_directory(tmp_path_factory.mktemp("first-ratings"))
    try:
        with ThreadServer(store) as running:
            yield running
    finally:
        store.close()


def browser(server: ThreadServer) -> httpx.Client:
    """A client that keeps cookies, as a browser does."""
    return loopback.client(base_url=server.base, timeout=120)


def signed_up(server: ThreadServer, name: str) -> httpx.Client:
    """A browser signed in to a new account, sending its CSRF token with every request."""
    b = browser(server)
    r = b.post("/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    b.headers["X-CSRF-Token"] = b.get("/account").json()["csrf"]
    return b


def from_address(server: ThreadServer, address: str) -> httpx.Client:
    """A client whose requests come from ``address`` (a loopback address: each counted as a stranger of its own)."""
    return loopback.client(base_url=server.base, transport=loopback.transport(local_address=address), timeout=120)


def ok(r: httpx.Response) -> Any:
    assert r.status_code == 200, (r.status_code, r.text)
    return r.json()


def refused(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["code"] == code, r.json()
    return str(r.json()["message"])


def attempts(store: Store) -> int:
    return int(store.read(select(func.count()).select_from(puzzle_attempts))[0][0])


def test_a_puzzle_is_shown_without_its_answer_and_a_single_dummy_one_only_as_its_seat_sees_it(
    site: tuple[ThreadServer, Store],
) -> None:
    server, _ = site
    b = browser(server)
    for p in (EXACT, SINGLE):
        shown = ok(b.get(f"/puzzles/whist/{p.id}"))
        assert not keys(shown) & HIDDEN and not {"value", "best"} & set(shown), sorted(keys(shown) & HIDDEN)
        assert sorted(shown["legal"]) == sorted(p.values)  # every legal action, and no value of any
        match = match_point(p)
        engine_view = match.view(p.seat).to_dict()
        engine_view.pop("legal", None)
        assert {k: v for k, v in shown["view"].items() if k != "shown"} == engine_view  # the seat's own view
        assert shown["seat"] == p.seat and shown["kind"] == p.kind and shown["goal"] == p.goal
        if p.exact:
            assert shown["hands"] == [match.view(s).to_dict()["hand"] for s in range(match.n_seats)]
        else:
            assert shown["hands"] is None  # the leak rule: nothing of another hand until it is solved
            others = {c for s in range(match.n_seats) if s != p.seat for c in match.view(s).to_dict()["hand"].split()}
            seen = set(str(shown).replace("'", " ").replace(",", " ").split())
            assert not others & seen - set(str(engine_view).replace("'", " ").replace(",", " ").split())


def test_a_wrong_answer_is_told_what_it_gets_a_right_one_is_given_the_line_and_a_guest_keeps_nothing(
    site: tuple[ThreadServer, Store],
) -> None:
    server, store = site
    before = attempts(store)
    b = browser(server)
    wrong = wrong_action(EXACT)
    answered = ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": wrong}))
    assert answered["right"] is False and answered["value"] == EXACT.values[wrong] and answered["goal"] == EXACT.goal
    assert "line" not in answered and answered["attempt"] is None  # a guest: judged, not rated
    right = ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": EXACT.solution}))
    assert right["right"] is True and right["line"]["solution"] == EXACT.solution
    assert [s["action"] for s in right["line"]["steps"]] == list(EXACT.line)
    missed = ok(b.post(f"/puzzles/whist/{SINGLE.id}/attempt", json={"action": wrong_action(SINGLE)}))
    assert missed["best"] == SINGLE.values[SINGLE.solution] and missed["value"] < missed["best"]
    assert attempts(store) == before


def test_an_accounts_first_attempt_is_rated_and_moves_both_ratings_and_a_later_one_is_not(
    site: tuple[ThreadServer, Store],
) -> None:
    server, store = site
    b = signed_up(server, "Rated Ann")
    first = ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": wrong_action(EXACT)}))
    rated = first["attempt"]
    assert rated["rated"] is True and rated["mode"] == "rated"
    assert rated["rating"]["after"] < rated["rating"]["before"] == 1500  # a miss costs the player
    # a newcomer's answer says little of the puzzle (lichess: a player whose deviation is 230 or more is "clueless")
    assert rated["puzzle_rating"]["after"] == rated["puzzle_rating"]["before"] == EXACT.rating
    again = ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": EXACT.solution}))
    assert again["right"] is True and again["attempt"]["rated"] is False and again["attempt"]["mode"] == "again"
    assert again["attempt"]["rating"]["before"] == again["attempt"]["rating"]["after"] == rated["rating"]["after"]
    standing = ok(b.get("/puzzles/whist"))["standing"]
    assert standing["rating"] == rated["rating"]["after"] and standing["attempts"] == 1
    shown = ok(b.get(f"/puzzles/whist/{EXACT.id}"))
    assert shown["tried"] is True and shown["rating"] == rated["puzzle_rating"]["after"]
    history = ok(b.get("/puzzles/history"))
    assert [(h["puzzle"], h["solved"], h["solved_last"], h["tries"], h["rated"]) for h in history] == [
        (EXACT.id, False, True, 2, True)  # one row a puzzle: its first answer, its last, how many
    ]
    skill = store.read(select(puzzle_skills).where(puzzle_skills.c.puzzle == EXACT.id))[0]
    assert (skill.attempts, skill.solved) == (1, 0)
    solved = ok(b.post(f"/puzzles/whist/{SINGLE.id}/attempt", json={"action": SINGLE.solution}))["attempt"]
    assert (
        solved["rated"] is True and solved["rating"]["after"] > solved["rating"]["before"] == rated["rating"]["after"]
    )


def test_asking_for_the_solution_before_any_answer_is_a_rated_miss_and_asking_again_costs_nothing(
    site: tuple[ThreadServer, Store],
) -> None:
    server, _ = site
    b = signed_up(server, "Curious Bo")
    p = WHIST[5]
    given = ok(b.post(f"/puzzles/whist/{p.id}/solution", json={}))
    assert given["line"]["solution"] == p.solution
    assert given["attempt"]["rated"] is True and given["attempt"]["rating"]["after"] < 1500
    again = ok(b.post(f"/puzzles/whist/{p.id}/solution", json={}))
    assert again["attempt"] is None
    assert ok(b.get("/puzzles/whist"))["standing"]["attempts"] == 1


def test_a_streak_counts_first_answers_right_in_a_row_unrated_and_a_miss_ends_it(first_ratings: ThreadServer) -> None:
    server = first_ratings
    b = signed_up(server, "Streaky Cy")  # no rated attempt has moved a puzzle's first rating there
    solved: list[str] = []
    for target in (1000, 1050):
        shown = ok(b.get("/puzzles/whist/next?streak=0"))  # an account's streak is the server's, whatever is sent
        assert shown["mode"] == "streak"
        nearest = min(abs(p.rating - target) for p in WHIST if p.id not in solved)
        p = next(x for x in WHIST if x.id == shown["id"])
        assert abs(p.rating - target) == nearest, (target, p.rating)  # sought higher as the streak grows
        done = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution}))["attempt"]
        assert (done["mode"], done["rated"], done["streak"]) == ("streak", False, len(solved) + 1)
        solved.append(p.id)
    first = next(x for x in WHIST if x.id == solved[0])
    again = ok(b.post(f"/puzzles/whist/{first.id}/attempt", json={"action": first.solution}))["attempt"]
    assert (again["mode"], again["streak"]) == ("again", 2)  # an answer given again counts for nothing
    shown = ok(b.get("/puzzles/whist/next?streak=0"))
    p = next(x for x in WHIST if x.id == shown["id"])
    missed = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": wrong_action(p)}))["attempt"]
    assert (missed["streak"], missed["best_streak"]) == (0, 2)
    retried = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution}))["attempt"]
    assert (retried["mode"], retried["streak"], retried["best_streak"]) == ("again", 0, 2)  # a retry mends nothing
    standing = ok(b.get("/puzzles/whist"))["standing"]
    assert (standing["attempts"], standing["rating"], standing["best_streak"]) == (0, 1500, 2)


def test_a_puzzle_shown_for_a_theme_is_practice_unrated_and_stays_so(site: tuple[ThreadServer, Store]) -> None:
    server, _ = site
    b = signed_up(server, "Practising Fay")
    shown = ok(b.get("/puzzles/whist/next?theme=exchange"))  # the theme says the answer: practice
    p = next(x for x in WHIST if x.id == shown["id"])
    assert shown["mode"] == "practice" and p.solution == "exchange"
    assert ok(b.get(f"/puzzles/whist/{p.id}"))["mode"] == "practice"  # asked again by its id: still practice
    done = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution}))["attempt"]
    assert (done["mode"], done["rated"], done["rating"]["after"]) == ("practice", False, 1500)
    refused(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution, "mode": "rated"}), 422, "bad_request")
    refused(b.get("/puzzles/whist/next?kind=endgame"), 404, "no_match")


def test_the_next_puzzle_is_near_the_rating_asked_of_the_theme_and_kind_asked_and_not_one_seen(
    first_ratings: ThreadServer,
) -> None:
    b = browser(first_ratings)  # no rated attempt has moved a puzzle's first rating there
    for difficulty, target in (("normal", 1500), ("hardest", 2100), ("easiest", 900)):
        shown = ok(b.get(f"/puzzles/whist/next?difficulty={difficulty}"))
        nearest = min(abs(p.rating - target) for p in WHIST)
        assert abs(shown["rating"] - target) == nearest, (difficulty, shown["rating"])
    seen: list[str] = []
    for _ in range(3):
        shown = ok(
            b.get("/puzzles/whist/next", params={"seen": ",".join(seen), "theme": "ruff", "kind": "double_dummy"})
        )
        p = next(x for x in WHIST if x.id == shown["id"])
        assert p.id not in seen and "ruff" in p.themes and p.kind == "double_dummy"
        seen.append(p.id)


def test_bad_puzzle_requests_are_refused_naming_what_is_wrong_and_change_nothing(
    site: tuple[ThreadServer, Store],
) -> None:
    server, store = site
    b = signed_up(server, "Careless Di")
    before = attempts(store)
    assert "whist" in refused(b.get("/puzzles/bridge/next"), 404, "no_puzzles")
    refused(b.get("/puzzles/whist/abcdef123456"), 404, "no_puzzle")
    refused(b.get("/puzzles/whist/NOT-AN-ID"), 422, "bad_request")
    assert "theme" in refused(b.get("/puzzles/whist/next?theme=squeeze"), 400, "bad_request")
    refused(b.get("/puzzles/whist/next?difficulty=impossible"), 422, "bad_request")
    refused(b.get("/puzzles/whist/next?seen=" + "a," * 2000), 422, "bad_request")
    attempt = f"/puzzles/whist/{EXACT.id}/attempt"
    assert "'ZZ'" in refused(b.post(attempt, json={"action": "ZZ"}), 400, "illegal")
    refused(b.post(attempt, json={"action": "x" * 201}), 422, "bad_request")
    refused(b.post(attempt, json={"action": EXACT.solution, "rated": True}), 422, "bad_request")
    refused(b.post(attempt, json={"action": EXACT.solution, "mode": "practice"}), 422, "bad_request")
    refused(b.post(attempt, content=b"[1, 2"), 400, "bad_json")
    no_token = browser(server)
    no_token.cookies = b.cookies
    refused(no_token.post(attempt, json={"action": EXACT.solution}), 403, "bad_csrf")
    refused(browser(server).get("/puzzles/history"), 401, "signed_out")
    assert attempts(store) == before


def test_todays_puzzle_is_the_same_all_day_and_the_pools_take_turns_day_by_day(
    site: tuple[ThreadServer, Store],
) -> None:
    def library() -> Library:
        return Library(lambda work, text, key: asyncio.sleep(0, (200, b"{}", False)))  # no position worked out

    async def dailies() -> list[Puzzle]:
        one = library()
        days = [datetime.date(2026, 12, 1) + datetime.timedelta(days=k) for k in range(len(one.shelves))]
        return [await one.daily(day) for day in days] + [await library().daily(days[0])]

    chosen = in_own_loop(dailies)  # a loop of its own, whatever runs in this thread
    assert chosen[0] is not chosen[-1] and chosen[0].id == chosen[-1].id  # read afresh, the same puzzle
    assert len({p.variant for p in chosen}) == 6 and len({p.game for p in chosen}) == 4  # every pool in turn
    assert all(1300 <= p.rating <= 1900 for p in chosen)
    server, _ = site
    before = datetime.datetime.now(datetime.UTC).date().isoformat()
    today = ok(browser(server).get("/daily-puzzle"))
    assert today["date"] in (before, datetime.datetime.now(datetime.UTC).date().isoformat())  # midnight may pass
    ok(browser(server).get(f"/puzzles/{today['pool']}/{today['id']}"))


def test_every_puzzles_legal_actions_are_those_its_values_judge() -> None:
    for game in ("whist", "free", "partnership", "northstar"):
        for p in (WHIST if game == "whist" else shipped(game))[::100]:  # whist's read once, for the module
            parts = position_and_line(p)
            assert sorted(parts["position"]["legal"]) == sorted(p.values), p.id
            assert parts["line"]["solution"] == p.solution and len(parts["line"]["steps"]) == (
                len(p.line) if p.exact else 0
            )


def test_puzzles_are_bounded_by_a_rate_per_address(tmp_path: Path) -> None:
    with ThreadServer(Store.in_directory(tmp_path), replace(ROOMY, puzzle_rate="3/minute")) as server:
        b = browser(server)
        for _ in range(3):
            refused(b.get("/puzzles/whist/abcdef123456"), 404, "no_puzzle")
        r = b.get("/puzzles/whist/abcdef123456")
        assert "puzzles" in refused(r, 429, "rate_limited") and int(r.headers["retry-after"]) >= 1
        ok(b.get("/puzzles"))  # the list of pools is not a puzzle shown


def test_deleting_an_account_deletes_its_puzzle_ratings_and_attempts(site: tuple[ThreadServer, Store]) -> None:
    server, store = site
    b = signed_up(server, "Leaving Ed")
    ok(b.post(f"/puzzles/whist/{SINGLE.id}/attempt", json={"action": SINGLE.solution}))
    user = b.get("/account").json()["id"]
    assert store.read(select(puzzle_ratings).where(puzzle_ratings.c.user_id == user))
    assert b.post("/account/delete", json={"password": PASSWORD}).status_code == 200
    assert not store.read(select(puzzle_ratings).where(puzzle_ratings.c.user_id == user))
    assert not store.read(select(puzzle_attempts).where(puzzle_attempts.c.user_id == user))


@pytest.mark.backends("postgresql")
def test_answers_at_once_are_rated_one_after_the_other(server: ThreadServer, store: Store) -> None:
    b = signed_up(server, "Two Tabs")
    ok(b.post(f"/puzzles/whist/{WHIST[0].id}/attempt", json={"action": WHIST[0].solution}))  # the rating row exists
    pairs = [WHIST[k : k + 2] for k in range(1, 9, 2)]
    for pair in pairs:
        for p in pair:  # worked out first, so that the two answers meet at the database
            ok(b.get(f"/puzzles/whist/{p.id}"))
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda p: ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution})), pair))
    assert ok(b.get("/puzzles/whist"))["standing"]["attempts"] == 9  # no answer's rating lost to another's
    rows = sorted(ok(b.get("/puzzles/history?limit=100")), key=lambda h: h["rating_before"])
    assert [r["rating_before"] for r in rows[1:]] == [r["rating_after"] for r in rows[:-1]]  # each from the last


def test_a_newcomers_first_miss_costs_what_lichess_glicko2_gives_and_the_rating_reads_provisional(
    site: tuple[ThreadServer, Store],
) -> None:
    server, _ = site
    b = signed_up(server, "First Miss Gil")
    assert ok(b.get("/puzzles/whist"))["standing"]["provisional"] is True  # a newcomer's 1500 reads "1500?"
    missed = ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": wrong_action(EXACT)}))["attempt"]
    player, _ = glicko.attempt(glicko.NEWCOMER, glicko.new_puzzle(EXACT.rating), False)
    assert missed["rating"]["before"] == 1500 and missed["rating"]["after"] == round(player.rating)
    # lichess: Glicko-2 (tau 0.75) from 1500 deviation 500, a miss at a puzzle still provisional weighted 0.3
    assert 1500 - missed["rating"]["after"] < 100, missed
    assert missed["rating"]["provisional_before"] is True and missed["rating"]["provisional_after"] is True
    standing = ok(b.get("/puzzles/whist"))["standing"]
    assert standing["rating"] == missed["rating"]["after"] and standing["provisional"] is True
    assert ok(b.get("/puzzles"))["pools"][0]["standing"]["provisional"] is True


def test_the_history_says_whether_a_rated_answers_ratings_were_provisional(site: tuple[ThreadServer, Store]) -> None:
    server, _ = site
    b = signed_up(server, "Looking Back Jo")
    ok(b.post(f"/puzzles/whist/{EXACT.id}/attempt", json={"action": wrong_action(EXACT)}))  # a newcomer's: "1500?"
    rows = {r["puzzle"]: r for r in ok(b.get("/puzzles/history?limit=10"))}
    assert (rows[EXACT.id]["provisional_before"], rows[EXACT.id]["provisional_after"]) == (True, True)
    assert rows[EXACT.id]["rating_before"] == 1500 and rows[EXACT.id]["rating_after"] < 1500


def test_a_puzzle_shown_rated_stays_rated_until_answered_whatever_theme_or_streak_asks_again(
    site: tuple[ThreadServer, Store],
) -> None:
    server, _ = site
    theme = "ruff"
    chosen = ok(browser(server).get(f"/puzzles/whist/next?theme={theme}"))["id"]  # the first a newcomer is offered
    b = signed_up(server, "Choosy Hal")
    assert ok(b.get(f"/puzzles/whist/{chosen}"))["mode"] == "rated"  # shown rated, not answered
    themed = ok(b.get(f"/puzzles/whist/next?theme={theme}"))
    assert themed["id"] != chosen and themed["mode"] == "practice"  # the themes pass the rated one by
    assert ok(b.get("/puzzles/whist/next?streak=0"))["id"] != chosen
    assert ok(b.get(f"/puzzles/whist/{chosen}"))["mode"] == "rated"  # still rated, however it is asked for
    p = next(x for x in WHIST if x.id == chosen)
    done = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution}))["attempt"]
    assert (done["mode"], done["rated"]) == ("rated", True) and done["rating"]["after"] > 1500


def test_a_puzzle_shown_rated_is_served_again_by_next_whatever_difficulty_or_kind_until_answered(
    site: tuple[ThreadServer, Store],
) -> None:
    server, _ = site
    b = signed_up(server, "Picky Ida")
    first = ok(b.get("/puzzles/whist/next"))
    assert first["mode"] == "rated"
    other_kind = "single_dummy" if first["kind"] == "double_dummy" else "double_dummy"
    for asked in ("?difficulty=hardest", "?difficulty=easiest", f"?kind={other_kind}"):
        again = ok(b.get(f"/puzzles/whist/next{asked}"))  # no skipping a rated puzzle once seen
        assert (again["id"], again["mode"]) == (first["id"], "rated"), asked
    p = next(x for x in WHIST if x.id == first["id"])
    done = ok(b.post(f"/puzzles/whist/{p.id}/attempt", json={"action": p.solution}))["attempt"]
    assert (done["mode"], done["rated"]) == ("rated", True)
    assert ok(b.get("/puzzles/whist/next?difficulty=hardest"))["id"] != p.id  # answered: the next one is new


@pytest.mark.long
def test_a_bystander_is_served_puzzles_while_twelve_addresses_ask_for_new_ones_as_fast_as_they_may(
    tmp_path: Path,
) -> None:
    """Twelve addresses each asking for puzzles not worked out yet, several at once (six requests in flight per
    address, each for another puzzle), fill neither the puzzle workers' queue nor a bystander's wait: each address
    has one new puzzle worked out at a time, the others refused (429), and every one of the bystander's puzzles, new
    ones too, is answered."""
    theirs = [("whist", p.id) for p in WHIST[:-17]]  # whist's are the quickest to work out
    mine = [("whist", p.id) for p in WHIST[-17:]]
    at_once = 6  # per address: twelve times six is more than the puzzle queue (64) holds
    done = threading.Event()
    until = time.monotonic() + 300  # the attack stops itself, whatever happens to the bystander
    answers: list[tuple[int, str]] = []

    with ThreadServer(Store.in_directory(tmp_path)) as server:

        def attack(k: int) -> None:
            with from_address(server, f"127.0.0.{k + 2}") as c:

                def ask(pid: str) -> None:
                    if not done.is_set() and time.monotonic() < until:
                        r = c.get(f"/puzzles/whist/{pid}")
                        answers.append((r.status_code, r.json().get("message", "") if r.status_code != 200 else ""))

                with ThreadPoolExecutor(at_once) as pool:  # each puzzle asked once, six of them in flight at a time
                    list(pool.map(ask, [pid for _, pid in theirs[k::12]]))

        attackers = [threading.Thread(target=attack, args=(k,)) for k in range(12)]
        for t in attackers:
            t.start()
        try:
            with from_address(server, "127.0.0.30") as bystander:
                served = [bystander.get(f"/puzzles/{pool}/{pid}").status_code for pool, pid in mine]
        finally:
            done.set()
            for t in attackers:
                t.join(timeout=300)
    assert served == [200] * len(mine), served
    statuses = {status for status, _ in answers}
    assert statuses <= {200, 429}, answers  # never a full queue (503)
    assert 429 in statuses, statuses  # the second new puzzle at once from an address waits for the first
    assert all("one new puzzle at a time" in message for status, message in answers if status == 429), answers


def test_each_shipped_puzzle_is_worked_out_once_and_each_asker_has_one_new_puzzle_worked_out_at_a_time() -> None:
    # the shipped puzzles in order, more than are kept ready to send: whist's (read once, above), then the others', each
    # game's set read only if reached
    every = itertools.chain(WHIST, (p for game in ("free", "partnership") for p in shipped(game)))
    many = list(itertools.islice(every, KEPT_PARTS + 60))
    assert len(many) > KEPT_PARTS
    worked: list[str] = []
    gate: dict[str, asyncio.Event] = {}

    async def work(fn: Any, text: str, key: str) -> tuple[int, bytes, bool]:
        worked.append(key)
        if key in gate:
            await gate[key].wait()
        return 200, json.dumps({"position": {"id": key}, "line": {"steps": []}}).encode(), False

    async def main() -> None:
        library = Library(work)
        shelves = {p.id: (await library.puzzles(pool_of(p))).get(p.id) for p in many}
        ps = [shelves[p.id] for p in many]
        assert all(p is not None for p in ps)
        first, second, third = ps[0], ps[1], ps[2]
        assert first is not None and second is not None and third is not None
        gate[first.id], gate[second.id] = asyncio.Event(), asyncio.Event()
        slow = asyncio.ensure_future(library.parts(first, ["10.0.0.1", "account a"]))
        await asyncio.sleep(0)
        with pytest.raises(PuzzleRefused) as refusal:  # the same address, another new puzzle: wait for the first
            await library.parts(third, ["10.0.0.1"])
        assert refusal.value.status == 429 and refusal.value.retry_after == 1
        with pytest.raises(PuzzleRefused):  # the same account from another address too
            await library.parts(third, ["10.0.0.9", "account a"])
        other = asyncio.ensure_future(library.parts(second, ["10.0.0.2"]))  # another address is not held up
        shared = asyncio.ensure_future(library.parts(first, ["10.0.0.3"]))  # one being worked out: waited for, free
        await asyncio.sleep(0)
        gate[first.id].set()
        gate[second.id].set()
        assert (await slow)["position"] == (await shared)["position"] == {"id": first.id}
        await other
        for p in ps:
            assert p is not None
            await library.parts(p, ["10.0.0.1"])  # one after the other: each one's asker is free again
        before = len(worked)
        for p in ps:
            assert p is not None
            await library.parts(p, ["10.0.0.4"])
        assert len(worked) == before == len(ps)  # every shipped puzzle worked out once, none again

    in_own_loop(main)
