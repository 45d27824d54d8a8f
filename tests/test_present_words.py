"""Plain words at the table, as each game declares them (:mod:`clubsuite.present`): every event of every game told
for the reader's own seat ("You") and for named seats, every prompt a seat meets and every action's label, the facts,
badges and counts beside the cards, each hand's account, the rule behind a prompt (a "why?"): in English checked for
grammar, in every language with no placeholder or ruling id left. (That the page words a reason exactly as these
tests do is ``test_browser_refusal_words``.)

The events and views are real: seeded matches of every game and variant played by random bots, taken as the server
sends them (``event_json``; ``view(seat).to_dict()`` without its legal list, the legal actions beside it). Free
Clubs' table mode is played with misplays made and called on purpose, so that its calls and penalties are told too.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from clubsuite.bots import make_bot
from clubsuite.engine import SomeMatch, games, resolve
from clubsuite.events import Event
from clubsuite.games.free import events as free_events
from clubsuite.games.northstar import events as northstar_events
from clubsuite.games.partnership import events as partnership_events
from clubsuite.games.whist import events as whist_events
from clubsuite.i18n import LANGUAGES
from clubsuite.i18n.render import reason_words
from clubsuite.present import account, asked, labels, rulings, said, shown
from clubsuite.reasons import Reason
from clubsuite.runner import deal_next
from clubsuite.server.table.protocol import event_json
from clubsuite.view_base import HasSpectator

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
            parts = resolve(spec)[0].parts
            assert isinstance(parts, HasSpectator)
            public = parts.spectator()
            self.views.append({"spec": spec, "game": game, "view": view, "legal": legal, "public": public(match)})

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


# -- words, as a reader sees them --------------------------------------------------------------------------------------
def naming(you: int) -> Any:
    """Seats named as the page names them inside a sentence: "you" for the reader's own, else a name."""
    return lambda s: "you" if s == you else NAMES[s]


def worded(reasons: Any, you: int, lang: str = "en", joined: str = " ") -> str:
    """Reasons (protocol form) in ``lang``, seats named for reader ``you`` (-1: a spectator)."""
    return joined.join(reason_words(Reason.from_json(r), lang, naming(you)) for r in reasons)


def told(said_json: dict[str, Any] | None, you: int, lang: str = "en", joined: str = " ") -> str:
    """An event's or a hand's words (its ``said``) as reader ``you`` reads them."""
    assert said_json is not None
    words = said_json["mine"].get(str(you)) or said_json["words"]
    return worded(words, you, lang, joined)


def assert_every_language(reasons: Any, what: str) -> None:
    """Worded in every language: words, no placeholder left, no ruling id."""
    for lang in LANGUAGES:
        for you in (-1, 0):
            line = worded(reasons, you, lang)
            assert line.strip() and "{" not in line and not RULE_ID.search(line), (lang, what, line)


def options_of(spec: str) -> object:
    return resolve(spec)[1]


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


def test_every_event_of_every_game_is_told_grammatically_for_you_and_for_named_seats(played: Played) -> None:
    for e in played.events:
        info, _ = resolve(e["spec"])
        ev, n = e["event"], e["n"]
        what = f"{e['spec']} {ev}"
        out = said(info, ev, {"players": n, "hand_sizes": [0] * n, **e["hint"]})
        assert out is not None, what
        assert_every_language(out["words"], what)
        for you in range(-1, n):
            line = told(out, you)
            assert_plain(line, what)
            assert_grammar(line, you >= 0, what)
            # the sentences of the issue, for the reader's own seat and for another
            if ev["type"] == "PlayStarted":
                assert line == ("You lead." if ev["leader"] == you else f"{NAMES[ev['leader']]} leads.")
            if ev["type"] == "HandicapResolved":
                assert line.startswith("Your " if ev["seat"] == you else f"{NAMES[ev['seat']]}'s "), line
            if ev["type"] == "TrickTaken" and ev["seat"] == you:
                assert line == f"You take trick {ev['number']}."
            if ev["type"] == "HandStarted" and ev["dealer"] == you:
                assert "dealt by you" in line
            if ev["type"] == "Played" and ev["seat"] != you:
                assert line.startswith(f"{NAMES[ev['seat']]} plays ")


def test_what_an_event_does_to_the_table_is_said_in_the_words_every_game_shares(played: Played) -> None:
    for e in played.events:
        info, _ = resolve(e["spec"])
        ev = e["event"]
        out = said(info, ev, {"players": e["n"], "hand_sizes": [0] * e["n"], **e["hint"]})
        assert out is not None
        kind = {
            "HandStarted": "deal",
            "CardPlayed": "put",
            "Played": "put",
            "BidMade": "put",
            "TrickTaken": "trick",
            "TrickWon": "trick",
            "HandScored": "scored",
        }.get(ev["type"], "")
        assert out["kind"] == kind, ev
        if kind in ("put", "trick"):
            assert out["seat"] == ev["seat"], ev
        if kind == "put":
            assert out["cards"] == str(ev.get("card") or ev.get("play")), ev


def test_every_prompt_a_seat_meets_is_plain_words_with_its_rule_only_behind_why(played: Played) -> None:
    met = [v for v in played.views if v["legal"] is not None]
    assert met
    for v in met:
        info, options = resolve(v["spec"])
        view, legal = v["view"], v["legal"]
        phase = view.get("stage") or view["phase"]
        what = f"{v['spec']} {phase}: {view.get('trick')}"
        a = asked(info, view, options, legal)
        assert a is not None, what
        line = worded(a["words"], view["seat"])
        assert_plain(line, what)
        assert_grammar(line, True, what)
        assert_every_language(a["words"], what)
        for label in labels(info, view, legal).values():
            assert_plain(worded([label], view["seat"]), what)
            assert_every_language([label], what)
        game_rulings = rulings(info)
        if a["rule"] is not None:
            assert a["rule"] in game_rulings, what
        else:
            assert a["why"] is not None and a["why"]["title"] and a["why"]["text"], what
    free = [v for v in met if v["game"] == "free"]
    prompts = {
        id(v): worded(asked(*resolve(v["spec"])[:1], v["view"], options_of(v["spec"]), v["legal"])["words"], 0)
        for v in free
    }
    assert any("Ten handicap" in prompts[id(v)] for v in free if v["view"]["stage"] == "handicap")
    assert all("pass to the player on your right" in prompts[id(v)] for v in free if v["view"]["stage"] == "pass")


def test_whist_says_how_to_lead_or_follow_from_the_legal_cards_it_is_given(played: Played) -> None:
    """CW-1, CW-2: the prompt reads the engine's legal cards, so it agrees with them at every play met, and the same
    table with other legal cards is asked otherwise."""
    info, options = resolve("whist")
    met = [v for v in played.views if v["game"] == "whist" and v["legal"] and v["view"]["phase"] == "play"]
    assert met
    codes = set()
    for v in met:
        view, legal = v["view"], v["legal"]
        hand = view["hand"].split()
        trick = [p["card"] for p in view.get("trick") or []]
        code = asked(info, view, options, legal)["words"][0]["code"]
        codes.add(code)
        whole = sorted(legal) == sorted(hand)
        if code in ("whist.ask_lead_any", "whist.ask_void_nothing", "whist.ask_void_cannot"):
            assert whole, (code, view, legal)
        if code == "whist.ask_lead_no_club":
            assert not whole and not any(a.endswith("C") for a in legal), (view, legal)
        if code in ("whist.ask_must_beat", "whist.ask_cannot_beat", "whist.ask_trumped"):
            assert all(a[-1] == trick[0][-1] for a in legal), (code, view, legal)
        if code in ("whist.ask_void_trump", "whist.ask_void_overtrump", "whist.ask_clubs_led_beat"):
            assert all(a.endswith("C") for a in legal), (code, view, legal)
    assert {"whist.ask_must_beat", "whist.ask_lead_no_club"} <= codes
    lead = next(v for v in met if not v["view"].get("trick") and "C" in {c[-1] for c in v["view"]["hand"].split()})
    hand = lead["view"]["hand"].split()
    others = [c for c in hand if not c.endswith("C")]
    if others:  # the same lead, with the clubs legal or not: the words follow the legal cards
        assert asked(info, lead["view"], options, hand)["words"][0]["code"] == "whist.ask_lead_any"
        assert asked(info, lead["view"], options, others)["words"][0]["code"] == "whist.ask_lead_no_club"


@pytest.mark.long
def test_facts_badges_counts_and_hand_accounts_read_well_for_you_and_for_others(played: Played) -> None:
    for v in played.views:
        info, options = resolve(v["spec"])
        for view in (v["view"], v["public"]):  # a seat's own, and a spectator's
            you = -1 if view["seat"] is None else view["seat"]
            out = shown(info, view, options)
            assert out is not None
            reasons = [r for f in out["facts"] for r in (f["label"], *f["words"])]
            reasons += [b["words"] for seat in out["badges"] for b in seat] + [r for seat in out["stats"] for r in seat]
            reasons += [k["title"] for k in out["known"]] + [p["note"] for p in out["front"] if p["note"]]
            for r in reasons:
                line = worded([r], you)
                what = f"{v['spec']} (seat {you} is you)"
                assert_plain(line, what) if r.get("code") != "shown.seat" else None
                assert not YOU_AGREEMENT.search(line), (what, line)
                if you < 0:
                    assert not re.search(r"\b[Yy]ou(?:r)?\b", line), (what, line)
            assert_every_language(reasons, v["spec"])
    for h in played.hands:
        info, _ = resolve(h["spec"])
        out = account(info, h["hand"])
        assert out is not None
        for you in range(-1, h["n"]):
            line = told(out, you, joined="; ")
            what = f"{h['spec']} (seat {you} is you)"
            assert line and not YOU_AGREEMENT.search(line), (what, line)
            assert not RULE_ID.search(line) and not RAW.search(line.replace("\u2011", "-")), (what, line)
            if you < 0:
                assert not re.search(r"\b[Yy]ou(?:r)?\b", line), (what, line)
    whist = next(v["view"] for v in played.views if v["game"] == "whist" and v["view"]["seat"] == v["view"]["dealer"])
    facts = shown(resolve("whist")[0], whist, options_of("whist"))
    assert facts is not None
    dealer = facts["facts"][0]
    assert worded([dealer["label"]], 0) == "Dealer" and worded(dealer["words"], whist["dealer"]) == "you"


def test_why_explains_the_keep_or_exchange_rule_behind_the_whist_exchange_prompt(played: Played) -> None:
    v = next(v for v in played.views if v["game"] == "whist" and v["view"]["phase"] == "exchange" and v["legal"])
    info, options = resolve(v["spec"])
    a = asked(info, v["view"], options, v["legal"])
    assert a is not None
    assert worded(a["words"], 0).startswith("Keep your hand, or exchange it for the 13-card bid hand?")
    assert a["rule"] == "CW-4"
    text = worded([rulings(info)["CW-4"]["text"]], 0)
    assert "bid hand" in text and worded([rulings(info)["CW-4"]["title"]], 0)


def test_every_ruling_the_games_rest_on_is_explained_in_words_without_ids() -> None:
    """Every ruling a player meets; CW-6 (a variant no source describes, not offered) is the docs' alone."""
    ids = {
        "whist": [f"CW-{i}" for i in range(1, 6)],
        "free": [f"FC-{i}" for i in range(1, 11)],
        "northstar": [f"NS-{i}" for i in range(1, 12)],
        "partnership": [f"CP-{i}" for i in range(1, 5)],
    }
    for info in games():
        given = rulings(info)
        assert sorted(given) == sorted(ids[info.name]), info.name
        for rule, words in given.items():
            for lang in LANGUAGES:
                title, text = worded([words["title"]], 0, lang), worded([words["text"]], 0, lang)
                assert title and text and len(text) > 40, (rule, lang)
                assert not RULE_ID.search(text) and not RAW.search(text), (rule, lang)


def test_the_rule_behind_every_prompt_and_refusal_is_one_the_game_explains() -> None:
    """Every ruling a prompt names (its ``rule``) and every refusal's ruling is one of the game's rulings in words."""
    from clubsuite.reasons import templates

    for info in games():
        given = rulings(info)
        for code, kind in templates().items():
            if code.startswith(info.name + ".") and kind.rule is not None:
                assert kind.rule in given, (code, kind.rule)
