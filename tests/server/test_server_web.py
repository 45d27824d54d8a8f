"""The browser client's side of the server, over HTTP: the pages and their files, the security headers, request
bodies limited in size, the options the lobby offers, and the replay frames (checked against the records)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serverkit import ThreadServer, get, post, wait_until

import loopback
from clubsuite.cards import STANDARD_WITH_JOKERS

GOLDEN = Path(__file__).parent.parent / "golden"


@pytest.mark.parametrize("path", ["/", "/table/abc", "/replay"])
def test_every_page_is_served_with_a_policy_that_allows_only_the_servers_own_scripts(
    web: ThreadServer, path: str
) -> None:
    r = loopback.get(web.base + path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe" not in policy
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    assert "<script" in r.text and "http" not in r.text.replace("http-equiv", "")  # nothing from elsewhere
    for src in ("/static/css/clubs.css", "/static/js/table.js", "/static/js/cards.js"):
        if src.endswith(".css") or path == "/table/abc":
            asset = loopback.get(web.base + src)
            assert asset.status_code == 200 and asset.headers["content-security-policy"]


def test_no_page_or_module_loads_anything_from_another_site() -> None:
    static = Path(__file__).parents[2] / "src" / "clubsuite" / "server" / "http" / "static"
    files = [*static.rglob("*.js"), *static.rglob("*.html"), *static.rglob("*.css")]
    assert len(files) >= 10
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert "://" not in text.replace("http://www.w3.org/2000/svg", ""), f"{f.name} names another site"
        assert "innerHTML" not in text and "eval(" not in text, f"{f.name} builds markup from text"


def test_a_request_body_over_its_limit_is_refused_with_413_before_it_is_read(web: ThreadServer) -> None:
    body, record = web.limits.max_body_bytes, web.limits.max_record_bytes
    r = loopback.post(
        web.base + "/tables", content=b"{" + b" " * body + b"}", headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    r = loopback.post(web.base + "/replays", content=b" " * (record + 1))
    assert r.status_code == 413 and str(record) in r.json()["message"]


def test_the_lobby_is_offered_every_option_of_every_game_with_its_range_and_the_variants_settings(
    web: ThreadServer,
) -> None:
    games = {g["name"]: g for g in get(web.base, "/games")}
    assert games["northstar"]["options"]["players"]["minimum"] == 2
    assert games["northstar"]["options"]["teams"]["enum"] == ["none", "2x2", "3x2", "2x3"]
    assert games["northstar"]["variant_options"]["northstar-teams"] == {"players": "4", "teams": "2x2"}
    assert "NS-8" in games["northstar"]["options"]["double_or_nothing"]["description"]
    assert games["whist"]["options"]["target"]["default"] == 11


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.record.json")), ids=lambda p: p.name.split(".")[0])
def test_a_replay_has_one_frame_per_deal_and_action_with_every_hand_of_the_record(
    web: ThreadServer, path: Path
) -> None:
    record = json.loads(path.read_text())
    r = loopback.post(web.base + "/replays", content=path.read_bytes())
    assert r.status_code == 200, r.text
    replay = r.json()
    dealt = record["hands"]
    assert len(replay["frames"]) == len(dealt) + sum(len(h["actions"]) for h in dealt)
    first = replay["frames"][0]
    assert first["action"] is None and first["events"][0]["type"] == "HandStarted"
    cards_dealt = sum(len(h.split()) for h in first["hands"] if h) + sum(
        len(v.split()) for v in first["hidden"].values()
    )
    if replay["game"] in ("whist", "partnership"):
        assert cards_dealt == 52
    if replay["game"] == "free":
        assert cards_dealt == 54 and "treasure chest" in first["hidden"]
    actions = [a for h in dealt for a in h["actions"]]
    assert [f["action"] for f in replay["frames"] if f["action"] is not None] == actions
    assert replay["result"]["totals"] == replay["frames"][-1]["view"]["totals"]
    assert STANDARD_WITH_JOKERS  # the deck the Free Clubs count above is made of


def test_a_broken_record_is_refused_with_the_hand_the_action_and_the_rule(web: ThreadServer) -> None:
    record = json.loads((GOLDEN / "whist-1997-explicit.record.json").read_text())
    record["hands"][0]["actions"][5] = "ZZ"
    r = loopback.post(web.base + "/replays", content=json.dumps(record))
    assert r.status_code == 400 and r.json()["code"] == "bad_record"
    assert "hand 1, action 6" in r.json()["message"] and "ZZ" in r.json()["message"]
    assert (
        loopback.post(web.base + "/replays", content=b"not json")
        .json()["message"]
        .startswith("the record is not valid JSON")
    )
    assert loopback.post(web.base + "/replays", content=b"[1]").json()["code"] == "bad_record"


def test_a_tables_replay_is_served_only_once_its_match_is_over(web: ThreadServer) -> None:
    waiting = post(web.base, "/tables", {"game": "whist", "seats": [{"kind": "person"}] + [{"kind": "bot"}] * 2}, 201)
    r = loopback.get(f"{web.base}/tables/{waiting['id']}/replay")
    assert r.status_code == 409 and r.json()["code"] == "not_over"  # its record would show every hidden card
    seats = [{"kind": "bot", "bot": "random"}] * 3
    table = post(web.base, "/tables", {"game": "whist(target=1)", "seats": seats, "bot_delay": 0}, 201)
    wait_until(lambda: get(web.base, f"/tables/{table['id']}")["over"], 30, "the bots did not finish")
    replay = get(web.base, f"/tables/{table['id']}/replay?match=0")
    record = get(web.base, f"/tables/{table['id']}/record.json?match=0")
    assert len(replay["frames"]) == len(record["hands"]) + sum(len(h["actions"]) for h in record["hands"])
