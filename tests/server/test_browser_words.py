"""Plain words at the table, in a real Chromium: every event of every game told for the page's own seat ("You") and
for named seats, every prompt a seat meets, the facts and score lines beside the cards, the rule behind a prompt (a
"why?"), and how each game ranks the cards of a hand.

The events and views are real: seeded matches of every game and variant played by random bots, taken as the server
sends them (``event_json``; ``view(seat).to_dict()`` without its legal list, the legal actions beside it). Free
Clubs' table mode is played with misplays made and called on purpose, so that its calls and penalties are told too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer

from clubsuite.bots import make_bot
from clubsuite.engine import SomeMatch, resolve
from clubsuite.events import Event
from clubsuite.games.free import events as free_events
from clubsuite.games.northstar import events as northstar_events
from clubsuite.games.partnership import events as partnership_events
from clubsuite.games.whist import events as whist_events
from clubsuite.runner import deal_next
from clubsuite.server.store.database import Store
from clubsuite.server.table.protocol import event_json

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]

SPECS = [
    "whist(target=3)",
    "whist-1997(target=3)",
    "partnership(target=60)",
    "northstar(target=30)",
    "northstar-double(target=30)",
    "northstar-wild(target=30)",
    "northstar-crazy(wild_fifteens=true,target=30)",
    "northstar-duel(target=30)",
    "northstar-teams(target=40)",
    "northstar(players=6,teams=3x2,target=40)",
    "northstar(players=5,teams=none,leftover=reshuffle,double_or_nothing=true,target=30)",
]
"""Every game and variant, each played once to its end (short targets keep the matches short)."""

EVENT_MODULES = {
    "whist": whist_events,
    "free": free_events,
    "partnership": partnership_events,
    "northstar": northstar_events,
}

RULE_ID = re.compile(r"\b[A-Z]{2}-\d+\b")
NOTATION = re.compile(r"\b(?:\d{1,2}[CDHS]|[JQKA][CDHS]|JK\d)\b|=")
"""A card written in the server's notation (``7H``, ``QS``, ``JK1``, ``15S=7``): the pages write cards with suit
symbols."""
RAW = re.compile(r"\b\w+_\w+\b|\bundefined\b|\bnull\b|\bNaN\b|\[object|[{}\[\]]")
THIRD_PERSON = "leads|plays|takes|passes|bids|wins|has|is|was|keeps|exchanges|calls|goes|needs|scores|holds|deals"
"""The verbs of the lines in their -s form: never after "you"."""
YOU_AGREEMENT = re.compile(rf"\b[Yy]ou (?:{THIRD_PERSON}|chooses|gets|receives|discards)\b|\b[Yy]ou's\b|\byour's\b")
YOU_INSIDE = re.compile(r"[^.:!?\s]\s+You\b")
"""A capital "You" inside a sentence ("dealt by You"): "you" there."""
NAME_AGREEMENT = re.compile(
    r"(?<!and )\b(?:"
    + "|".join(NAMES)
    + r") (?:lead|play|take|pass|bid|win|have|keep|exchange|call|go|need|score|hold)\b"
)
"""A named seat alone with the plain verb ("Ann lead"): the verb in -s there ("Ann leads"; "Bob and Cy win")."""


# -- real events and views -----------------------------------------------------------------------------------------
@dataclass
class Played:
    """What seeded matches gave: events as the server sends them, the views seats met, the complete hands."""

    events: list[dict[str, Any]] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    seen_types: dict[str, set[str]] = field(default_factory=dict)
    seen_phases: dict[str, set[str]] = field(default_factory=dict)
    kept: dict[tuple[Any, ...], int] = field(default_factory=dict)

    def keep(self, key: tuple[Any, ...], most: int) -> bool:
        """Whether another example of ``key`` is wanted (at most ``most`` of each)."""
        count = self.kept.get(key, 0)
        self.kept[key] = count + 1
        return count < most

    def add(self, spec: str, game: str, hint: dict[str, Any], events: tuple[Event, ...]) -> None:
        """Keep a few examples of each kind of event, with ``hint``: what a view tells of the table (the player
        count, the teams)."""
        for ev in events:
            shown = event_json(ev)
            self.seen_types.setdefault(game, set()).add(shown["type"])
            if self.keep((game, shape_of(shown)), 4):
                self.events.append({"spec": spec, "game": game, "n": hint["players"], "hint": hint, "event": shown})

    def see(self, spec: str, game: str, match: SomeMatch, seat: int) -> None:
        """The view of ``seat`` as the server sends it, with the legal actions when it is to act."""
        view = match.view(seat).to_dict()
        view.pop("legal", None)
        phase = str(view.get("stage") or view["phase"])
        self.seen_phases.setdefault(game, set()).add(phase)
        legal = [match.format_action(a) for a in match.legal_actions()] if match.to_act == seat else None
        trick = view.get("trick") or []
        key = (spec, phase, len(trick), view.get("last_turn") == seat, bool(legal and "double" in legal))
        if self.keep(key, 3):
            if game != "northstar" and legal is not None:
                legal = legal[:40]  # only North Star's words read the legal plays
            self.views.append({"spec": spec, "game": game, "view": view, "legal": legal})

    def finish(self, spec: str, game: str, match: SomeMatch) -> None:
        self.see(spec, game, match, 0)
        hands = match.summary()["hands"]
        assert isinstance(hands, list)
        for hand in hands:
            if isinstance(hand, dict) and hand.get("complete") and self.keep((game, "hand"), 12):
                self.hands.append({"spec": spec, "game": game, "n": match.n_seats, "hand": hand})


def shape_of(shown: dict[str, Any]) -> tuple[Any, ...]:
    """What tells events of one type apart for the words: the values that choose a sentence (a partner or none, a
    misplay's stage, a wild 15 in a play, how many scores), not the seats and cards."""
    shape: list[Any] = []
    for k, v in shown.items():
        if v is None or isinstance(v, bool) or k in ("type", "stage", "direction"):
            shape.append((k, v))
        elif isinstance(v, list):
            shape.append((k, len(v)))
        else:
            shape.append((k, type(v).__name__, "=" in str(v)))
    return tuple(shape)


def play(out: Played, spec: str, seed: int, misplays: bool = False) -> None:
    """One match of ``spec`` with random bots, its match seed ``seed``; with ``misplays``, Free Clubs' table mode:
    now and then a card that does not follow suit, and calls of such cards at random moments."""
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    n = match.n_seats
    bots = [make_bot("random", info.name) for _ in range(n)]
    rng = random.Random(seed)
    while not match.is_over:
        dealt = deal_next(match, info, seed)
        shown = match.view(0).to_dict()
        hint = {"players": n, "team_totals": shown.get("team_totals"), "game": info.name}
        out.add(spec, info.name, hint, dealt)
        while match.to_act is not None:
            seat = match.to_act
            out.see(spec, info.name, match, seat)
            action: object = bots[seat].choose(match.view(seat), match.legal_actions(), rng)
            if misplays:
                action = misplay(match, seat, rng) or action
            out.add(spec, info.name, hint, match.apply(action, seat))
            if misplays and rng.random() < 0.2:
                out.add(spec, info.name, hint, call(match, rng))
        if misplays and rng.random() < 0.5:
            out.add(spec, info.name, hint, call(match, rng))  # after the hand is scored, before the next deal
    out.finish(spec, info.name, match)


def misplay(match: SomeMatch, seat: int, rng: random.Random) -> str | None:
    """Sometimes a card of another suit while the seat holds the suit led (FC-10 table mode accepts it)."""
    view = match.view(seat).to_dict()
    if view["stage"] != "play" or not view["trick"] or rng.random() > 0.3:
        return None
    led = view["trick"][0]["card"][-1]
    hand = view["hand"].split()
    others = [c for c in hand if c[-1] != led]
    if others and len(others) < len(hand):
        return rng.choice(others)
    return None


def call(match: SomeMatch, rng: random.Random) -> tuple[Event, ...]:
    """A call of a card that did not follow suit in the hand on the table, by another seat, if one may be made."""
    view = match.view(0).to_dict()
    tricks = [t["cards"] for t in view["tricks"]] + [view["trick"]]
    candidates = [
        (p["card"], p["seat"]) for cards in tricks for p in cards[1:] if p["card"][-1] != cards[0]["card"][-1]
    ]
    rng.shuffle(candidates)
    for card, player in candidates:
        caller = rng.choice([s for s in range(3) if s != player])
        if match.explain(f"call {card}", caller) is None:
            return match.apply(f"call {card}", seat=caller)
    return ()


def event_classes(game: str) -> set[str]:
    """The names of every event class a game's events module declares."""
    module = EVENT_MODULES[game]
    return {name for name in module.__all__ if isinstance(getattr(module, name), type)}


def wanted_free(out: Played) -> set[str]:
    """What Free Clubs' matches must have shown before they are enough: a Ten's discard to choose, a Joker team, a
    Queen's card passed, every stage of a misplay call, a lawful card called, a hand
    scored again."""
    missing = set()
    if "handicap" not in out.seen_phases.get("free", set()):
        missing.add("ten")
    free = [e["event"] for e in out.events if e["game"] == "free"]
    if not any(e["type"] == "AuctionWon" and e["partner"] is not None for e in free):
        missing.add("joker")
    if not any(e["type"] == "HandicapResolved" and e["to"] is not None for e in free):
        missing.add("queen")
    for stage in (1, 2, 3):
        if not any(e["type"] == "MisplayCalled" and e["stage"] == stage for e in free):
            missing.add(f"stage {stage}")
    for kind in ("NoMisplay", "HandRescored"):
        if not any(e["type"] == kind for e in free):
            missing.add(kind)
    return missing


@pytest.fixture(scope="module")
def played() -> Played:
    out = Played()
    for i, spec in enumerate(SPECS):
        play(out, spec, seed=100 + i)
    for seed in range(60):  # seeded, so the same matches every run: the loop ends at the same seed each time
        if not wanted_free(out):
            break
        play(out, "free(target=60)", seed=200 + seed)
        play(out, "free(misplays=true,target=60)", seed=300 + seed, misplays=True)
    return out


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(Path(tmp_path_factory.mktemp("words")))) as running:
        yield running


@pytest.fixture(scope="module")
def words(web: ThreadServer, browser: Any) -> Iterator[Any]:
    """A page of the server with games.js loaded as ``window.g``."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{web.base}/")
    page.evaluate(
        "async () => { window.g = await import('/static/js/games.js');"
        " window.c = await import('/static/js/cards.js'); }"
    )
    yield page
    context.close()


def assert_plain(line: Any, what: str) -> None:
    """A line shown to players: words, no rule id, no notation, no raw value."""
    assert isinstance(line, str) and line.strip(), f"{what}: no words ({line!r})"
    assert not RULE_ID.search(line), f"{what}: a rule id in {line!r}"
    assert not RAW.search(line), f"{what}: a raw value in {line!r}"
    assert not NOTATION.search(line), f"{what}: a card in notation in {line!r}"


def assert_grammar(line: str, you: bool, what: str) -> None:
    """The page's own seat, "You", agrees with its verbs; with no seat of its own, no "you" at all."""
    assert not YOU_AGREEMENT.search(line), f"{what}: {line!r}"
    assert not YOU_INSIDE.search(line), f"{what}: {line!r}"
    assert not NAME_AGREEMENT.search(line), f"{what}: {line!r}"
    if not you:
        assert not re.search(r"\b[Yy]ou(?:r)?\b", line), f"{what}: 'you' with no seat of the page's own: {line!r}"


# -- the tests ---------------------------------------------------------------------------------------------------------
def test_the_seeded_matches_show_every_event_class_and_every_phase_of_every_game(played: Played) -> None:
    for game in EVENT_MODULES:
        assert event_classes(game) <= played.seen_types[game], (game, event_classes(game) - played.seen_types[game])
    assert wanted_free(played) == set()
    assert {"exchange", "play", "over"} <= played.seen_phases["whist"]
    assert {"auction", "handicap", "pass", "play", "over"} <= played.seen_phases["free"]
    assert {"pass", "play", "over"} <= played.seen_phases["partnership"]
    assert {"play", "over"} <= played.seen_phases["northstar"]
    northstar = [e["event"] for e in played.events if e["game"] == "northstar"]
    assert any(e["type"] == "RoundEnded" and e["team"] is not None for e in northstar)
    assert any(e["type"] == "TrickWon" and e["at_once"] for e in northstar)
    assert any(e["type"] == "Played" and "=" in e["play"] for e in northstar)


def test_every_event_of_every_game_is_told_grammatically_for_you_and_for_named_seats(
    played: Played, words: Any
) -> None:
    told = words.evaluate(
        """([events, names]) => events.flatMap(({spec, game, n, hint, event}) => {
            const out = [];
            for (let you = -1; you < n; you += 1) {
                const name = (s) => (s === null || s === undefined ? "nobody" : s === you ? "You" : names[s]);
                out.push({type: event.type, game, you, event, line: g.narrate(game, event, name)});
                out.push({type: event.type, game, you, event, line: g.narrate(spec, event, name, hint)});
            }
            return out;
        })""",
        [played.events, NAMES],
    )
    assert {(t["game"], t["type"]) for t in told} == {(e["game"], e["event"]["type"]) for e in played.events}
    for t in told:
        what = f"{t['game']} {t['event']}"
        assert_plain(t["line"], what)
        assert_grammar(t["line"], t["you"] >= 0, what)
    # the sentences of the issue, for the page's own seat and for another
    for t in told:
        ev, you, line = t["event"], t["you"], t["line"]
        if ev["type"] == "PlayStarted":
            assert line == ("You lead." if ev["leader"] == you else f"{NAMES[ev['leader']]} leads.")
        if ev["type"] == "HandicapResolved":
            assert line.startswith("Your " if ev["seat"] == you else f"{NAMES[ev['seat']]}'s ")
        if ev["type"] == "TrickTaken" and ev["seat"] == you:
            assert line == f"You take trick {ev['number']}."
        if ev["type"] == "HandStarted" and ev["dealer"] == you:
            assert "dealt by you" in line
        if ev["type"] == "Played" and ev["seat"] != you:
            assert line.startswith(f"{NAMES[ev['seat']]} plays ")


def test_every_prompt_a_seat_meets_is_plain_words_with_its_rule_only_behind_why(played: Played, words: Any) -> None:
    asked = words.evaluate(
        """(views) => views.map(({spec, game, view, legal}) => ({
            spec, view,
            plain: g.prompt(game, view),
            exact: g.prompt(spec, view, legal),
            why: g.why(spec, view, legal),
            labels: (legal || []).slice(0, 40).map((a) => g.actionLabel(spec, a, view)),
        }))""",
        played.views,
    )
    assert len(asked) == len(played.views)
    for a in asked:
        phase = a["view"].get("stage") or a["view"]["phase"]
        what = f"{a['spec']} {phase}: {a['view'].get('trick')}"
        for line in (a["plain"], a["exact"], *a["labels"]):
            assert_plain(line, what)
            assert_grammar(line, True, what)
        if phase not in ("over", "deal"):
            assert a["why"] is not None, what
            assert a["why"]["title"] and a["why"]["text"], what
            assert a["why"]["rule"] is None or RULE_ID.fullmatch(a["why"]["rule"]), what
            assert not RULE_ID.search(a["why"]["text"]), what
    free = [a for a in asked if a["view"]["game"] == "free"]
    assert any("Ten handicap" in a["plain"] for a in free if a["view"]["stage"] == "handicap")
    assert all("pass to the player on your right" in a["plain"] for a in free if a["view"]["stage"] == "pass")


def test_facts_score_lines_and_team_names_read_well_for_you_and_for_others(played: Played, words: Any) -> None:
    shown = words.evaluate(
        """([views, hands, names]) => {
            const out = [];
            for (const {spec, game, view} of views) {
                const n = view.hand_sizes.length;
                for (let you = -1; you < n; you += 1) {
                    const name = (s) => (s === null || s === undefined ? "nobody" : s === you ? "You" : names[s]);
                    const lines = g.facts(game, view, name).map(([k, v]) => `${k}: ${v}`);
                    if (view.team_totals) view.team_totals.forEach((_, t) => lines.push(g.teamName(view, t, name)));
                    out.push({spec, you, lines});
                }
            }
            for (const {spec, game, n, hand} of hands) {
                for (let you = -1; you < n; you += 1) {
                    const name = (s) => (s === null || s === undefined ? "nobody" : s === you ? "You" : names[s]);
                    out.push({spec, you, lines: [g.handWords(game, hand, name)].filter(Boolean)});
                }
            }
            return out;
        }""",
        [played.views, played.hands, NAMES],
    )
    assert shown
    for s in shown:
        for line in s["lines"]:
            what = f"{s['spec']} (seat {s['you']} is you)"
            assert_plain(line, what)
            assert not YOU_AGREEMENT.search(line), f"{what}: {line!r}"
            if s["you"] < 0:
                assert not re.search(r"\b[Yy]ou(?:r)?\b", line), f"{what}: {line!r}"
    whist = next(v["view"] for v in played.views if v["game"] == "whist")
    dealer = words.evaluate("(view) => g.facts('whist', view, (s) => (s === view.dealer ? 'You' : 'Ann'))[0]", whist)
    assert dealer == ["Dealer", "you"]


def test_why_explains_the_keep_or_exchange_rule_behind_the_whist_exchange_prompt(played: Played, words: Any) -> None:
    view = next(v["view"] for v in played.views if v["game"] == "whist" and v["view"]["phase"] == "exchange")
    answer = words.evaluate(
        "(view) => ({prompt: g.prompt('whist', view), why: g.why('whist', view), text: g.ruleText('CW-4')})", view
    )
    assert answer["prompt"].startswith("Keep your hand, or exchange it for the 13-card bid hand?")
    assert answer["why"]["rule"] == "CW-4"
    assert answer["why"]["text"] == answer["text"]
    assert "bid hand" in answer["text"] and answer["why"]["title"]


def test_every_ruling_the_games_rest_on_is_explained_in_words_without_ids(words: Any) -> None:
    """Every ruling a player meets; CW-6 (a variant no source describes, not offered) is the docs' alone."""
    ids = [f"CW-{i}" for i in range(1, 6)] + [f"FC-{i}" for i in range(1, 11)]
    ids += [f"NS-{i}" for i in range(1, 12)] + [f"CP-{i}" for i in range(1, 5)]
    texts = words.evaluate("(ids) => ids.map((id) => [g.ruleTitle(id), g.ruleText(id)])", ids)
    for rule, (title, text) in zip(ids, texts, strict=True):
        assert title and text and len(text) > 40, rule
        assert not RULE_ID.search(text) and not RAW.search(text), rule
    assert (
        words.evaluate("() => [g.ruleText('XX-1'), g.ruleText('CW-6'), g.why('whist', {phase: 'over'})]") == [None] * 3
    )


def test_free_clubs_ranks_the_ace_below_the_two_and_the_other_games_as_their_rules_say(words: Any) -> None:
    order = words.evaluate(
        """() => {
            const value = (game, text) => g.rankOrder(game, null)(c.parseCard(text));
            const sorted = (game, text) => g.sortHand(game, null, c.parseCards(text)).map((x) => x.text).join(" ");
            return {
                free: [value("free", "AD"), value("free", "2D"), value("free", "9D")],
                whist: [value("whist", "AD"), value("whist", "KD"), value("whist", "2D")],
                partnership: [value("partnership", "AS"), value("partnership", "KS")],
                northstar: [value("northstar", "1C"), value("northstar", "14C"), value("northstar", "15C"),
                            value("northstar", "15S=7")],
                freeHand: sorted("free", "6D AD 2D 5D"),
                freeSpec: sorted("free(target=300)", "9C AC"),
                whistHand: sorted("whist", "6D AD 2D 5D"),
                northstarHand: sorted("northstar", "15C 3H 1S 3C 10D"),
            };
        }"""
    )
    low, two, nine = order["free"]
    assert low < two < nine
    assert order["whist"][0] > order["whist"][1] > order["whist"][2]
    assert order["partnership"][0] > order["partnership"][1]
    assert order["northstar"][:3] == [1, 14, 15] and order["northstar"][3] == 7
    assert order["freeHand"] == "AD 2D 5D 6D"
    assert order["freeSpec"] == "AC 9C"
    assert order["whistHand"] == "2D 5D 6D AD"
    assert order["northstarHand"] == "1S 3C 3H 10D 15C"


def test_a_table_spec_reads_as_plain_words(words: Any) -> None:
    specs = [
        *SPECS,
        "free(misplays=true,no_spades_needs_a_trick=true)",
        "northstar(club_points=1/1/1/1/1/1/1/1/1/1/1/1/1/1/1)",
    ]
    shown = words.evaluate("(specs) => specs.map((s) => g.specWords(s))", specs)
    for spec, line in zip(specs, shown, strict=True):
        assert_plain(line, spec)
        assert "/" not in line and "=" not in line, (spec, line)
    assert (
        shown[1] == "Clubs (whist group): the 1997 rules (the player after the last exchanger leads), play to +3 or -3"
    )
