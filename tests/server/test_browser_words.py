"""How each game ranks the cards of a hand and words a table's rules, in a real Chromium: the page sorts a hand by
what the game declares (``shown``: the ace low or high, by suit or by rank, a wild 15 counted as what it stands for)
and words a game and its rules from the server's ``name_words``; a replay's frames, sent with only what changed
beside the cards, are made whole again. (The words of events, prompts and facts are the
games' own: ``tests/test_present_words.py``.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer

from clubsuite.engine import resolve
from clubsuite.naming import name_words
from clubsuite.present import Shown, shown, with_shown
from clubsuite.records.files import parse_record
from clubsuite.records.replay import Replay
from clubsuite.server.store.database import Store
from clubsuite.server.table.replaying import replay_frames
from clubsuite.view_base import HasSpectator

SPECS = [
    "whist(target=3)",
    "whist-1997(target=3)",
    "partnership(target=60)",
    "northstar-crazy(wild_fifteens=true,target=30)",
    "northstar(players=5,teams=none,leftover=reshuffle,double_or_nothing=true,target=30)",
    "free(misplays=true,no_spades_needs_a_trick=true)",
    "northstar(club_points=1/1/1/1/1/1/1/1/1/1/1/1/1/1/1)",
]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(Path(tmp_path_factory.mktemp("words")))) as running:
        yield running


@pytest.fixture(scope="module")
def words(web: ThreadServer, browser: Any) -> Iterator[Any]:
    """A page of the server with its board, cards and words modules loaded as ``window.b``, ``c`` and ``i``."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{web.base}/")
    page.evaluate(
        "async () => { window.b = await import('/static/js/board.js');"
        " window.c = await import('/static/js/cards.js'); window.i = await import('/static/js/i18n.js');"
        " await window.i.loadWords('en'); }"
    )
    yield page
    context.close()


def declared(spec: str) -> dict[str, Any]:
    """A view carrying what ``spec``'s game declares of its cards (the rest of ``shown`` empty)."""
    info, options = resolve(spec)
    view = {"hand_sizes": [0] * info.n_seats(options), "seat": 0, "totals": [0] * info.n_seats(options)}
    made = shown(info, {**view, "target": 1, "goal": 1, "dealer": None}, options)
    assert made is not None
    return {**view, "shown": made}


def test_free_clubs_ranks_the_ace_below_the_two_and_the_other_games_as_their_rules_say(words: Any) -> None:
    views = {g: declared(g) for g in ("free", "whist", "partnership", "northstar")}
    order = words.evaluate(
        """(views) => {
            const value = (game, text) => b.rankOf(views[game])(c.parseCard(text));
            const sorted = (game, text) => {
                const s = b.shownOf(views[game]);
                const cards = c.sortCards(c.parseCards(text), {by: s.sort, rank: b.rankOf(views[game])});
                return cards.map((x) => x.text).join(" ");
            };
            return {
                free: [value("free", "AD"), value("free", "2D"), value("free", "9D")],
                whist: [value("whist", "AD"), value("whist", "KD"), value("whist", "2D")],
                partnership: [value("partnership", "AS"), value("partnership", "KS")],
                northstar: [value("northstar", "1C"), value("northstar", "14C"), value("northstar", "15C"),
                            value("northstar", "15S=7")],
                freeHand: sorted("free", "6D AD 2D 5D"),
                whistHand: sorted("whist", "6D AD 2D 5D"),
                northstarHand: sorted("northstar", "15C 3H 1S 3C 10D"),
            };
        }""",
        views,
    )
    low, two, nine = order["free"]
    assert low < two < nine
    assert order["whist"][0] > order["whist"][1] > order["whist"][2]
    assert order["partnership"][0] > order["partnership"][1]
    assert order["northstar"][:3] == [1, 14, 15] and order["northstar"][3] == 7
    assert order["freeHand"] == "AD 2D 5D 6D"
    assert order["whistHand"] == "2D 5D 6D AD"
    assert order["northstarHand"] == "1S 3C 3H 10D 15C"
    assert Shown.__dataclass_fields__["ace_low"].default is False


def test_a_table_spec_reads_as_plain_words(words: Any) -> None:
    parts = [name_words(*resolve(spec), None) for spec in SPECS]
    shown = words.evaluate("(parts) => parts.map((w) => i.gameWords(w))", parts)
    for spec, line in zip(SPECS, shown, strict=True):
        assert line and "{" not in line and "undefined" not in line, (spec, line)
        assert "/" not in line and "=" not in line and "_" not in line, (spec, line)
    assert shown[1].startswith("Whist Clubs: ") and "exchange" in shown[1], shown[1]


def test_a_replay_sends_only_what_changed_beside_the_cards_and_the_page_makes_every_frame_whole(words: Any) -> None:
    golden = Path(__file__).parent.parent / "golden"
    for name in (
        "whist-1997-explicit.record.json",
        "northstar-teams-explicit.record.json",
        "free-explicit-joker.record.json",
    ):
        record = parse_record((golden / name).read_bytes(), name)
        sent = replay_frames(record)
        run = Replay(record)
        assert isinstance(run.info.parts, HasSpectator)
        public = run.info.parts.spectator()
        whole = [with_shown(run.info, public(run.match), run.match.options)["shown"] for _ in run.steps()]
        assert len(whole) == len(sent["frames"]) > 20
        later = [f["view"]["shown"] for f in sent["frames"][1:]]
        assert sum(len(json.dumps(s)) for s in later) < sum(len(json.dumps(s)) for s in whole[1:]) / 2, name
        made = words.evaluate("(replay) => b.wholeFrames(replay).frames.map((f) => f.view.shown)", sent)
        assert made == whole, name
