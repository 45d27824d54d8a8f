"""The offline app's puzzles (``clubsuite.offline.puzzles``), through the worker's entry as the page asks: every
shipped pool shows a puzzle as a server's routes show it and never its answer, an answer is judged as a server judges
it (a wrong one told its value, a right one given the line), the player's rating kept by the page rises with a right
first answer and falls with a wrong one or a solution asked for first, later answers and the unrated modes leave it,
today's puzzle is the one a server chooses (one choice, pinned), and every bad request is answered in words,
changing nothing."""

from __future__ import annotations

import datetime
import json
from dataclasses import replace
from typing import Any

import pytest

from clubsuite.offline import puzzles, session
from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.positions import position_and_line
from clubsuite.puzzles.sets import shipped
from clubsuite.puzzles.shelves import DAILY_BAND, daily_pick, daily_pool, pool_of
from puzzle_helpers import keys, wrong_action

WHIST = shipped("whist")
EXACT = next(p for p in WHIST if p.kind == "double_dummy")
SINGLE = next(p for p in WHIST if p.kind == "single_dummy")
HIDDEN = {"solution", "values", "line", "record", "worlds", "steps"}
"""What a position never holds, at any depth (nor, at its top, an answer's ``value`` or ``best``): the server's
test's rule (``tests/server/test_server_puzzles.py``)."""
SHOWN_WITH = {"pool", "rating", "mode", "tried", "own"}
"""What a route adds to a puzzle's position (its pool, its rating, how it is played)."""


def ask(path: str, body: Any = None, rating: Any = None) -> tuple[Any, Any]:
    """One request of the puzzle page through the worker's entry: its answer, and the rating the page keeps after
    it (the one the worker gave, or ``rating`` where it gave none)."""
    got = json.loads(session.handle(json.dumps({"op": "puzzles", "path": path, "body": body, "rating": rating})))
    assert got["ok"] is True, got
    return got["answer"], got["rating"] if got["rating"] is not None else rating


def refused(path: Any, body: Any = None, rating: Any = None) -> tuple[int, str, str]:
    """A request the worker refuses: the status and code a server would answer, and the words; it changes nothing
    (no rating to keep comes back)."""
    got = json.loads(session.handle(json.dumps({"op": "puzzles", "path": path, "body": body, "rating": rating})))
    assert got["ok"] is False and set(got) == {"ok", "status", "code", "error"}, got
    assert isinstance(got["error"], str) and got["error"], got
    return got["status"], got["code"], got["error"]


def whist_rating(rating: Any) -> int:
    """The player's whist rating as the pool's page shows it."""
    page, _ = ask("/puzzles/whist", rating=rating)
    return int(page["standing"]["rating"])


def test_every_shipped_pool_shows_a_puzzle_as_a_server_does_and_never_its_answer() -> None:
    listed, rating = ask("/puzzles")
    assert rating is None  # nothing to keep: the list changes nothing
    assert listed["signed_in"] is False and len(listed["pools"]) == 6
    by_id = {p.id: p for game in ("whist", "free", "partnership", "northstar") for p in shipped(game)}
    for entry in listed["pools"]:
        assert entry["standing"]["rating"] == 1500 and entry["standing"]["provisional"] is True
        shown, rating = ask(f"/puzzles/{entry['pool']}/next?difficulty=normal")
        p = by_id[shown["id"]]
        assert not keys(shown) & HIDDEN and not {"value", "best"} & set(shown), sorted(keys(shown) & HIDDEN)
        assert sorted(shown["legal"]) == sorted(p.values)  # every legal action, and no value of any
        position = json.loads(json.dumps(position_and_line(p)["position"]))
        assert {k: v for k, v in shown.items() if k not in SHOWN_WITH} == position  # what a server's page is shown
        assert shown["pool"] == entry["pool"] and shown["rating"] == p.rating and shown["mode"] == "rated"
        assert (shown["hands"] is None) == (not p.exact)  # nothing of another hand in a single-dummy puzzle
        assert rating["puzzles"] == {p.id: {"pool": entry["pool"], "mode": "rated", "tries": 0, "solved": False}}


def test_a_right_first_answer_is_given_the_line_and_raises_the_rating_and_a_later_one_is_not_rated() -> None:
    shown, rating = ask(f"/puzzles/whist/{EXACT.id}")
    assert shown["tried"] is False
    right, rating = ask(f"/puzzles/whist/{EXACT.id}/attempt", {"action": EXACT.solution}, rating)
    assert right["right"] is True and right["line"]["solution"] == EXACT.solution
    assert len(right["line"]["steps"]) == len(EXACT.line) and "value" not in right
    moved = right["attempt"]
    assert moved["rated"] is True and moved["mode"] == "rated"
    assert moved["rating"]["before"] == 1500 and moved["rating"]["after"] > 1500
    assert whist_rating(rating) == moved["rating"]["after"] and rating["pools"]["whist"]["attempts"] == 1
    again, kept = ask(f"/puzzles/whist/{EXACT.id}/attempt", {"action": EXACT.solution}, rating)
    assert again["attempt"]["mode"] == "again" and again["attempt"]["rated"] is False
    assert whist_rating(kept) == whist_rating(rating) and kept["puzzles"][EXACT.id]["tries"] == 2
    shown, _ = ask(f"/puzzles/whist/{EXACT.id}", rating=kept)
    assert shown["tried"] is True


@pytest.mark.parametrize("p", [EXACT, SINGLE], ids=["exact", "single dummy"])
def test_a_wrong_first_answer_is_told_its_value_as_a_server_tells_it_and_lowers_the_rating(p: Puzzle) -> None:
    wrong = wrong_action(p)
    answered, rating = ask(f"/puzzles/whist/{p.id}/attempt", {"action": wrong})
    fields = {"right", "action", "kind", "measure", "goal", "attempt", "value", *(() if p.exact else ("best",))}
    assert set(answered) == fields  # a server's fields: no line, no solution
    assert answered["right"] is False and answered["action"] == wrong and answered["value"] == p.values[wrong]
    assert answered["goal"] == p.goal and answered["measure"] == p.measure and answered["kind"] == p.kind
    if not p.exact:
        assert answered["best"] == p.values[p.solution] and answered["value"] < answered["best"]
    moved = answered["attempt"]
    assert moved["rated"] is True and moved["rating"]["after"] < moved["rating"]["before"] == 1500
    assert whist_rating(rating) == moved["rating"]["after"] < 1500
    right, kept = ask(f"/puzzles/whist/{p.id}/attempt", {"action": p.solution}, rating)
    assert right["right"] is True and right["attempt"]["rated"] is False  # judged; only the first answer counts
    assert whist_rating(kept) == whist_rating(rating)


def test_the_solution_is_given_on_request_and_asking_before_any_answer_is_a_rated_miss() -> None:
    given, rating = ask(f"/puzzles/whist/{SINGLE.id}/solution", {})
    assert given["line"]["solution"] == SINGLE.solution and given["line"]["worlds"]
    assert given["attempt"]["rated"] is True and given["attempt"]["rating"]["after"] < 1500
    again, kept = ask(f"/puzzles/whist/{SINGLE.id}/solution", {}, rating)
    assert again == {"line": given["line"], "attempt": None} and kept["pools"] == rating["pools"]


def test_a_streak_counts_first_answers_right_in_a_row_unrated_and_a_miss_ends_it() -> None:
    by_id = {p.id: p for p in WHIST}
    rating = None
    for n in (1, 2):
        shown, rating = ask("/puzzles/whist/next?streak=0", rating=rating)
        assert shown["mode"] == "streak"
        done, rating = ask(f"/puzzles/whist/{shown['id']}/attempt", {"action": by_id[shown["id"]].solution}, rating)
        assert done["attempt"]["streak"] == n and done["attempt"]["rated"] is False
    shown, rating = ask("/puzzles/whist/next?streak=2", rating=rating)
    missed, rating = ask(f"/puzzles/whist/{shown['id']}/attempt", {"action": wrong_action(by_id[shown["id"]])}, rating)
    assert missed["attempt"]["streak"] == 0 and missed["attempt"]["best_streak"] == 2
    page, _ = ask("/puzzles/whist", rating=rating)
    assert page["standing"]["rating"] == 1500 and page["standing"]["attempts"] == 0  # a streak is not rated
    assert page["standing"]["best_streak"] == 2


def test_a_puzzle_of_a_chosen_theme_is_practice_and_a_puzzle_shown_rated_stays_rated_until_answered() -> None:
    by_id = {p.id: p for p in WHIST}
    page, _ = ask("/puzzles/whist")
    theme = page["themes"][0]["id"]
    shown, rating = ask(f"/puzzles/whist/next?theme={theme}")
    assert shown["mode"] == "practice" and theme in by_id[shown["id"]].themes
    done, rating = ask(f"/puzzles/whist/{shown['id']}/attempt", {"action": by_id[shown["id"]].solution}, rating)
    assert done["attempt"]["mode"] == "practice" and done["attempt"]["rated"] is False
    assert whist_rating(rating) == 1500
    first, rating = ask("/puzzles/whist/next?difficulty=hardest", rating=rating)
    assert first["mode"] == "rated" and first["kind"] == "double_dummy"
    for asked in ("next?difficulty=easiest", "next?kind=single_dummy", f"next?theme={theme}", "next?streak=0"):
        again, rating = ask(f"/puzzles/whist/{asked}", rating=rating)
        if "theme" in asked or "streak" in asked:  # the unrated modes pass it by
            assert again["id"] != first["id"] and again["mode"] != "rated"
        else:  # shown again first, whatever difficulty or kind is asked: no skipping a rated puzzle once seen
            assert again["id"] == first["id"] and again["mode"] == "rated"
    by_link, rating = ask(f"/puzzles/whist/{first['id']}", rating=rating)
    assert by_link["mode"] == "rated"
    done, rating = ask(f"/puzzles/whist/{first['id']}/attempt", {"action": by_id[first["id"]].solution}, rating)
    assert done["attempt"]["rated"] is True and whist_rating(rating) > 1500


def test_the_next_puzzle_is_one_not_answered_yet_near_the_rating() -> None:
    rating = None
    answered: set[str] = set()
    by_id = {p.id: p for p in WHIST}
    for _ in range(3):
        shown, rating = ask("/puzzles/whist/next", rating=rating)
        near = min(abs(p.rating - whist_rating(rating)) for p in WHIST if p.id not in answered)
        assert shown["id"] not in answered and abs(shown["rating"] - whist_rating(rating)) == near
        _, rating = ask(f"/puzzles/whist/{shown['id']}/attempt", {"action": by_id[shown["id"]].solution}, rating)
        answered.add(shown["id"])
    assert len(answered) == 3 and all(rating["puzzles"][i]["solved"] for i in answered)


def test_todays_puzzle_takes_the_pools_in_turn_and_draws_one_of_the_band_by_a_digest_of_the_date() -> None:
    # the choice a server (Library.daily) and the app (puzzles.daily) both make: pinned, so that neither day's
    # puzzle moves (a player who saw today's puzzle on a server sees the same one in the app)
    day = datetime.date(2026, 12, 1)
    days = [day + datetime.timedelta(days=k) for k in range(8)]
    assert [daily_pool(["a", "b", "c"], d) for d in days[:4]] == ["b", "c", "a", "b"] and daily_pool([], day) is None
    many = [replace(EXACT, id=f"{n:02x}", rating=1000 + 100 * n) for n in range(16)]  # 03 to 09 in the band
    assert [daily_pick(many, d).id for d in days] == ["04", "07", "07", "07", "09", "04", "08", "07"]
    assert all(daily_pick(many[::-1], d) == daily_pick(many, d) for d in days)  # whatever order they come in
    low = many[:3]  # none in the band: any of them
    assert [daily_pick(low, d).id for d in days] == ["02", "00", "00", "02", "02", "01", "01", "02"]
    pools = list(puzzles.shelves())
    for d in days[: len(pools) + 1]:
        ours = puzzles.daily(d)
        assert pool_of(ours) == daily_pool(pools, d) and DAILY_BAND[0] <= ours.rating <= DAILY_BAND[1]


def test_todays_puzzle_can_be_shown() -> None:
    today, _ = ask("/daily-puzzle")
    assert today["date"] in {
        (datetime.datetime.now(datetime.UTC).date() - datetime.timedelta(days=k)).isoformat() for k in (0, 1)
    }
    shown, _ = ask(f"/puzzles/{today['pool']}/{today['id']}")
    assert shown["id"] == today["id"] and shown["game"] == today["game"]


def test_a_kept_rating_is_read_back_as_it_was_written() -> None:
    _, rating = ask(f"/puzzles/whist/{EXACT.id}/attempt", {"action": wrong_action(EXACT)})
    _, rating = ask("/puzzles/free/next", rating=rating)
    assert puzzles.Progress.from_json(json.loads(json.dumps(rating))).to_json() == rating
    assert set(rating["pools"]) == {"whist"} and len(rating["puzzles"]) == 2


def test_every_bad_request_is_answered_in_words_and_changes_nothing() -> None:
    _, rating = ask(f"/puzzles/whist/{EXACT.id}/attempt", {"action": wrong_action(EXACT)})
    attempt = f"/puzzles/whist/{EXACT.id}/attempt"
    cases: list[tuple[Any, Any, Any, int, str]] = [
        (None, None, rating, 400, "bad_request"),
        ("puzzles", None, rating, 400, "bad_request"),
        ("/" + "a" * puzzles.MAX_PATH, None, rating, 400, "bad_request"),
        ("/tables", None, rating, 404, "no_path"),
        ("/puzzles/history", None, rating, 404, "no_path"),
        ("/puzzles/mine", None, rating, 404, "no_path"),
        ("/puzzles", {}, rating, 405, "bad_method"),
        (attempt, None, rating, 405, "bad_method"),
        ("/puzzles/Whist", None, rating, 422, "bad_request"),
        ("/puzzles/chess", None, rating, 404, "no_puzzles"),
        ("/puzzles/whist/XYZ", None, rating, 422, "bad_request"),
        ("/puzzles/whist/abc123", None, rating, 404, "no_puzzle"),
        (f"/puzzles/free/{EXACT.id}", None, rating, 404, "no_puzzle"),
        ("/puzzles/whist/next?kind=poker", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?difficulty=brutal", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?streak=-1", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?streak=1001", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?seen=" + "a" * 1400, None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?seen=<b>", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?theme=Bad-Theme", None, rating, 422, "bad_request"),
        ("/puzzles/whist/next?theme=no_such_theme", None, rating, 400, "bad_request"),
        (attempt, [], rating, 422, "bad_request"),
        (attempt, {"action": EXACT.solution, "rated": True}, rating, 422, "bad_request"),
        (attempt, {"action": 3}, rating, 422, "bad_request"),
        (attempt, {"action": "x" * 201}, rating, 422, "bad_request"),
        (attempt, {"action": "ZZ"}, rating, 400, "illegal"),
        (attempt, {"action": EXACT.solution}, [], 400, "bad_rating"),
        (attempt, {"action": EXACT.solution}, {"pools": {}}, 400, "bad_rating"),
        (attempt, {"action": EXACT.solution}, {**rating, "pools": {"whist": {"rating": 1e9}}}, 400, "bad_rating"),
        (attempt, {"action": EXACT.solution}, {**rating, "pools": {"Whist!": {}}}, 400, "bad_rating"),
        (
            attempt,
            {"action": EXACT.solution},
            {**rating, "pools": {"whist": {**rating["pools"]["whist"], "deviation": -1}}},
            400,
            "bad_rating",
        ),
        (
            attempt,
            {"action": EXACT.solution},
            {**rating, "pools": {"whist": {**rating["pools"]["whist"], "attempts": True}}},
            400,
            "bad_rating",
        ),
        (
            attempt,
            {"action": EXACT.solution},
            {**rating, "puzzles": {EXACT.id: {"pool": "whist", "mode": "own", "tries": 1, "solved": True}}},
            400,
            "bad_rating",
        ),
        (
            attempt,
            {"action": EXACT.solution},
            {
                **rating,
                "puzzles": {
                    f"{n:x}": {"pool": "whist", "mode": "rated", "tries": 0, "solved": False}
                    for n in range(puzzles.MAX_KEPT + 1)
                },
            },
            400,
            "bad_rating",
        ),
    ]
    for path, body, kept, status, code in cases:
        got = refused(path, body, kept)
        assert got[:2] == (status, code), (path, body, got)
    # a request that is not JSON, or has no op, is answered by the entry as ever
    assert json.loads(session.handle("{"))["ok"] is False
    assert json.loads(session.handle(json.dumps({"op": "puzzles", "path": "/puzzles", "rating": "x"})))["ok"] is False
    # nothing changed: the rating kept answers as before
    assert whist_rating(rating) < 1500 and rating["puzzles"][EXACT.id]["tries"] == 1
