"""The scripted first hand of "Learn to play": a chosen deal and, at each of the newcomer's first decisions, a step
that points at a good choice and says in one line why the situation is what it is.

Each game declares its lesson as a registry part (``lesson``, see :attr:`clubsuite.engine.GameInfo.parts`): the
match seed whose first hand shows the game's key ideas early (:attr:`Lesson.seed`), the ideas that hand must show
within its steps when the newcomer follows them (:attr:`Lesson.ideas`, checked by the tests), and what to say at a
decision (:attr:`Lesson.say`). The choice pointed at is the game's instant heuristic bot's (as a hint would be),
chosen by the caller from the seat's own view; the words are a :class:`~clubsuite.reasons.Reason`, worded in the
reader's language from the same catalog as a refusal. Nothing here reads a card the seat may not see: a step is made
of the seat's view, its legal actions and the rules' own refusals of its own cards.

A tricks game whose rules fit it declares :func:`trick_say`: who leads chooses the suit, the others follow it if
they can, a club (the trump) beats the other suits, and a card of neither cannot win. Where its rules forbid more
than not following suit (a card that must beat the highest so far, a suit that may not be led yet), the step adds
the rules' own refusal of one of the seat's cards (``why_not``): the words are the engine's, so they are exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from clubsuite.bots.base import bot_names, make_bot
from clubsuite.engine import SomeGame, SomeMatch
from clubsuite.jsonform import JsonObject, JsonValue, objects_in
from clubsuite.reasons import Reason, Template, reason_of, template

MAX_STEPS = 8
"""How many of the newcomer's decisions a lesson points at (the first ones of the first hand); the rest of the hand
is theirs alone."""

SayFn = Callable[[Any, int, Sequence[str], str, frozenset[str]], "Explained"]
"""A game's words for a step: ``(match, seat, legal actions as text, the action pointed at, what the lesson has
already told the seat in this hand) -> what the step says``."""


@dataclass(frozen=True)
class Explained:
    """What one step says: why the choice marked is a good one (always), and before it the rule behind the moment
    where the hand shows it for the first time (``rule``; ``told`` names what it tells, so that no later step of the
    hand says it again)."""

    idea: str
    """What the moment shows: one of the game's :attr:`Lesson.ideas` or a tricks game's (lead, follow, ...)."""
    why: Reason
    """Why this card, this bid, this pass: a line registered with :func:`why_template`."""
    rule: Reason | None = None
    told: tuple[str, ...] = ()
    """The ideas whose rule this step says (none where every one was said before in the hand)."""

    def say(self) -> Reason:
        """The step's line: the rule where there is one, then why."""
        return self.why if self.rule is None else Reason(BOTH, reason=self.rule, why_reason=self.why)


def explained(idea: str, why: Reason, seen: frozenset[str], rules: Sequence[tuple[str, Reason]] = ()) -> Explained:
    """A step of ``idea`` saying ``why``, after the rules of ``rules`` (idea, its rule) not yet in ``seen``, joined
    in the order given (at most two, so that a step stays short)."""
    new = [(key, rule) for key, rule in rules if key not in seen][:2]
    if not new:
        return Explained(idea, why)
    rule = new[0][1] if len(new) == 1 else Reason(BOTH, reason=new[0][1], why_reason=new[1][1])
    return Explained(idea, why, rule, tuple(key for key, _ in new))


@dataclass(frozen=True)
class Lesson:
    """One game's scripted first hand."""

    seed: int
    """The match seed of every guided first hand of the game: its first deal shows the key ideas early."""
    ideas: tuple[str, ...]
    """The ideas the first hand tells within :data:`MAX_STEPS` steps when the newcomer plays what is pointed at
    (the game's own among them)."""
    say: SayFn
    """What a step says (see :data:`SayFn`)."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: its number (from 1), the idea it shows, the action pointed at and its cards, why it is
    a good choice, the rule told with it (the first time only) and the ideas that rule tells."""

    number: int
    idea: str
    action: str
    cards: tuple[str, ...]
    why: Reason
    rule: Reason | None
    told: tuple[str, ...]

    @property
    def say(self) -> Reason:
        """The step's one line: the rule where there is one, then why."""
        return Explained(self.idea, self.why, self.rule, self.told).say()

    def to_json(self) -> JsonObject:
        """The form the protocol sends (the page words ``say`` from its catalog and marks ``action``'s cards or
        button)."""
        return {
            "step": self.number,
            "idea": self.idea,
            "told": [t for t in self.told if ":" not in t],  # the ideas (not the refusals and reasons said)
            "action": self.action,
            "cards": list(self.cards),
            "say": self.say.to_json(),
            "steps": MAX_STEPS,
        }


WHY: set[str] = set()
"""The codes of the lines that say why a step's choice is a good one (every step has one: :attr:`Explained.why`)."""


def why_template(code: str, text: str, rule: str | None = None) -> Template:
    """Register a line that says why a choice is good (its code kept in :data:`WHY`)."""
    made = template(code, text, rule=rule)
    WHY.add(code)
    return made


BOTH = template("lesson.both", "{reason} {why_reason}")
"""A rule said for the first time in the hand, then why the choice marked is good."""
LEAD = template(
    "lesson.lead_rule", "Whoever leads a trick chooses its suit, and the others must play that suit if they can."
)
FOLLOW = template("lesson.follow_rule", "You must play the suit that was led whenever you hold one.")
TRUMP = template(
    "lesson.trump_rule", "With none of the suit led you may play any card; a club, the trump, beats every card of "
    "the other suits."
)  # fmt: skip
"""No card of the suit led, every card of the hand allowed."""
TRUMP_MUST = template(
    "lesson.trump_must_rule", "With none of the suit led, the rules here make you play a club if it would win; a "
    "club, the trump, beats every card of the other suits."
)  # fmt: skip
"""No card of the suit led, only clubs allowed (the rules' refusal of another card follows)."""
TRUMP_PLAIN = template("lesson.trump_plain_rule", "A club, the trump, beats every card of the other suits.")
"""No card of the suit led, some cards refused but not only clubs allowed."""
DISCARD = template(
    "lesson.discard_rule", "A card of neither the suit led nor clubs can never win a trick, so it is a way to get rid "
    "of a card you do not need."
)  # fmt: skip
WHY_NOT = template("lesson.why_not", "{reason} Why not the {card}? {other_reason}")
"""A step's line followed by the rules' own refusal of another card of the seat's (a rule beyond following suit)."""

LEAD_ONLY = why_template(
    "lesson.why_lead_only", "The {card} is your only {suit:one}: once it is gone, you can play a club when {suit} are "
    "led, and take the trick."
)  # fmt: skip
LEAD_HIGH = why_template(
    "lesson.why_lead_high", "The {card} is your highest {suit:one}: led early, while the others still hold {suit} "
    "and must follow, it has its best chance to win."
)  # fmt: skip
LEAD_LOW = why_template(
    "lesson.why_lead_low", "The {card} is your lowest {suit:one}: it costs you little, and your better {suit} stay "
    "in your hand for later tricks."
)  # fmt: skip
LEAD_MIDDLE = why_template(
    "lesson.why_lead_middle", "The {card} keeps both your highest and your lowest {suit:one} back for later tricks."
)
WIN = why_template(
    "lesson.why_win", "The {card} beats the {top_card}, the best card in the trick so far, and is the lowest of your "
    "cards that does: your higher ones stay for later."
)  # fmt: skip
WIN_HIGH = why_template(
    "lesson.why_win_high", "The {card} beats the {top_card}, the best card in the trick so far: play it to take the "
    "trick."
)  # fmt: skip
PARTNER = why_template(
    "lesson.why_partner", "Your partner's {top_card} is winning this trick, so you need not: the {card} costs you "
    "least."
)  # fmt: skip
LOSE_LOW = why_template(
    "lesson.why_lose_low", "The {card} cannot beat the {top_card}, which is winning the trick, so give your lowest "
    "{suit:one} and keep the better ones."
)  # fmt: skip
LOSE = why_template(
    "lesson.why_lose", "The {card} cannot beat the {top_card}, which is winning the trick: it is the card you will "
    "miss least."
)  # fmt: skip
LOSE_LOW_AGAIN = why_template(
    "lesson.why_lose_low_again", "The {top_card} takes this trick whatever you do, so the {card}, your cheapest "
    "{suit:one}, goes."
)  # fmt: skip
"""The same moment a second time in the hand (:data:`LOSE_LOW`), said another way."""
LEAD_LOW_AGAIN = why_template(
    "lesson.why_lead_low_again", "Another cheap lead: the {card}, your lowest {suit:one}, risks nothing you need."
)
"""The same moment a second time in the hand (:data:`LEAD_LOW`), said another way."""
WIN_AGAIN = why_template(
    "lesson.why_win_again", "The {card} is just enough to take the trick from the {top_card}."
)  # fmt: skip
"""The same moment a second time in the hand (:data:`WIN`), said another way."""
AGAIN = {LOSE_LOW.code: LOSE_LOW_AGAIN, LEAD_LOW.code: LEAD_LOW_AGAIN, WIN.code: WIN_AGAIN}
"""The reasons a hand often gives twice, each with its second wording (said from the second time on)."""
DROP_ONLY = why_template(
    "lesson.why_drop_only", "The {card} is your only {suit:one}: with it gone you can play a club when {suit} are "
    "led."
)  # fmt: skip
LESSON_IDEAS = ("lead", "follow", "trump", "discard")
"""The ideas :func:`trick_say` tells apart."""


@runtime_checkable
class HasLesson(Protocol):
    """A game's parts that have a guided first hand."""

    def lesson(self) -> Lesson:
        """The lesson."""
        ...


def lesson_of(info: SomeGame) -> Lesson | None:
    """The game's lesson, or None where it declares none."""
    return info.parts.lesson() if isinstance(info.parts, HasLesson) else None


TUTORIAL_SEED = 2027
"""The first match seed of the guided first hand of a game that declares no lesson (a game's lesson names its own,
:attr:`Lesson.seed`): its deals are the same every time (and known: a guided table has one person, no spectators,
and nothing to win)."""


def tutorial_seed(info: SomeGame) -> int:
    """The match seed of ``info``'s guided first hand, on a server's table and in the offline app alike."""
    scripted = lesson_of(info)
    return scripted.seed if scripted is not None else TUTORIAL_SEED


def decision_number(match: SomeMatch, seat: int) -> int:
    """Which of ``seat``'s decisions of the hand in progress is to come now, counted from 1 (its actions so far in
    this hand, plus one)."""
    return 1 + sum(before.to_act == seat for before, _ in match.hand_so_far())


def step(info: SomeGame, match: SomeMatch, seat: int, choose: Callable[[], str]) -> Step | None:
    """The lesson's step for ``seat``, to act now, pointing at what ``choose()`` gives (an action in notation, asked
    only where there is a step), or None past the first hand, past :data:`MAX_STEPS` decisions, or for a game
    without a lesson."""
    lesson = lesson_of(info)
    if lesson is None or len(match.hands) != 1 or match.to_act != seat:
        return None
    number = decision_number(match, seat)
    if number > MAX_STEPS:
        return None
    seen = told_before(lesson, match, seat)
    pointed = choose()
    legal = [match.format_action(a) for a in match.legal_actions()]
    said = lesson.say(match, seat, legal, pointed, seen)
    return Step(number, said.idea, pointed, cards_of(pointed), said.why, said.rule, said.told)


def told_before(lesson: Lesson, match: SomeMatch, seat: int) -> frozenset[str]:
    """What the steps of ``seat``'s earlier decisions in this hand told (the rules said), worked out again from the
    hand as it was before each of them and what the seat chose there: made only of what the seat saw."""
    seen: set[str] = set()
    for before, action in match.hand_so_far():
        if before.to_act != seat:
            continue
        legal = [before.format_action(a) for a in before.legal_actions()]
        seen.update(lesson.say(before, seat, legal, before.format_action(action), frozenset(seen)).told)
    return frozenset(seen)


def pointer(info: SomeGame, match: SomeMatch, seat: int, rng: random.Random) -> str:
    """The choice a step points at: what the game's instant heuristic bot (its random one where it has none)
    plays for ``seat`` from the seat's own view, in notation; the same every time for the same ``rng``."""
    name = "heuristic" if "heuristic" in bot_names(info.name) else "random"
    bot = make_bot(name, info.name)
    return match.format_action(bot.choose(match.view(seat), match.legal_actions(), rng))


def cards_of(action: str) -> tuple[str, ...]:
    """The cards an action names (``7H 15S=7`` names 7H and 15S; ``pass``, ``keep`` name none)."""
    out = []
    for token in action.split():
        card = token.split("=")[0].upper()
        if card in ("JK1", "JK2") or (
            len(card) >= 2 and card[-1] in "CDHS" and (card[:-1].isdigit() or card[:-1] in ("J", "Q", "K", "A"))
        ):
            out.append(card)
    return tuple(out)


SUIT_KEYS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def suit_of(card: str) -> str | None:
    """A card's suit key (None for a card without a suit, a joker)."""
    return SUIT_KEYS.get(card[-1:].upper()) if cards_of(card) else None


def why_not(match: SomeMatch, seat: int, cards: Sequence[str]) -> tuple[str, Reason] | None:
    """The first of ``cards`` the rules refuse (the card and the refusal), or None."""
    for card in cards:
        reason = reason_of(match.explain(match.parse_action(card), seat))
        if reason is not None:
            return card, reason
    return None


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""The order of a suit's cards, lowest first, in most tricks games (a game with its own order passes it)."""


def rank_of(card: str, ranks: Sequence[str]) -> int:
    """A card's place in its suit (higher wins), by ``ranks``."""
    rank = card[:-1].upper()
    return ranks.index("10" if rank == "T" else rank)


def winning(trick: Sequence[str], ranks: Sequence[str]) -> str:
    """The card winning ``trick`` so far: its highest club, else its highest card of the suit led."""
    clubs = [c for c in trick if suit_of(c) == "clubs"]
    led = suit_of(trick[0])
    pool = clubs or [c for c in trick if suit_of(c) == led]
    return max(pool, key=lambda c: rank_of(c, ranks))


def beats(card: str, top: str, ranks: Sequence[str]) -> bool:
    """Whether ``card`` played now would win over ``top``, the card winning the trick so far."""
    if suit_of(card) == suit_of(top):
        return rank_of(card, ranks) > rank_of(top, ranks)
    return suit_of(card) == "clubs"


def trick_why(view: Mapping[str, JsonValue], pointed: str, ranks: Sequence[str]) -> Reason:
    """Why ``pointed`` is a good card to play now, from what the seat sees: the trick so far, its partner (where it
    has one) and its own cards."""
    hand = str(view.get("hand", "")).split()
    plays = objects_in(view.get("trick"))
    trick = [str(p["card"]) for p in plays]
    suit = suit_of(pointed) or "clubs"
    mine = sorted((c for c in hand if suit_of(c) == suit), key=lambda c: rank_of(c, ranks))
    if not trick:
        if len(mine) == 1 and suit != "clubs" and any(suit_of(c) == "clubs" for c in hand):
            return Reason(LEAD_ONLY, card=pointed, suit=suit)
        if pointed == mine[-1]:
            return Reason(LEAD_HIGH, card=pointed, suit=suit)
        if pointed == mine[0]:
            return Reason(LEAD_LOW, card=pointed, suit=suit)
        return Reason(LEAD_MIDDLE, card=pointed, suit=suit)
    top = winning(trick, ranks)
    partner = view.get("partner")
    ours = partner is not None and any(p["seat"] == partner and p["card"] == top for p in plays)
    if ours and not beats(pointed, top, ranks):
        return Reason(PARTNER, top_card=top, card=pointed)
    if beats(pointed, top, ranks):
        cheaper = [
            c for c in mine if beats(c, top, ranks) and rank_of(c, ranks) < rank_of(pointed, ranks)
        ]  # fmt: skip
        return Reason(WIN_HIGH if cheaper else WIN, card=pointed, top_card=top)
    led = suit_of(trick[0])
    if suit not in (led, "clubs") and len(mine) == 1 and any(suit_of(c) == "clubs" for c in hand):
        return Reason(DROP_ONLY, card=pointed, suit=suit)
    if pointed == mine[0]:
        return Reason(LOSE_LOW, card=pointed, top_card=top, suit=suit)
    return Reason(LOSE, card=pointed, top_card=top)


def trick_say(
    match: SomeMatch, seat: int, legal: Sequence[str], pointed: str, seen: frozenset[str], ranks: Sequence[str] = RANKS
) -> Explained:
    """A step of a tricks game in the play of the cards (:data:`SayFn`): why the card (:func:`trick_why`), after
    the rule of the moment the first time it comes (the seat leads, follows, trumps or gives up a card) and, where
    the rules forbid more than not following suit, the first time, their refusal of one of the seat's other
    cards."""
    view = match.view(seat).to_dict()
    hand = str(view.get("hand", "")).split()
    trick = [str(p["card"]) for p in objects_in(view.get("trick"))]
    suit = suit_of(pointed)
    led = suit_of(trick[0]) if trick else None
    why = trick_why(view, pointed, ranks)
    again = AGAIN.get(why.code)
    said_why = f"why:{why.code}"
    if again is not None and said_why in seen:  # the same reason a second time: said another way
        why = Reason(again, **why.params)
    barred = [c for c in hand if c not in legal]
    mine = [c for c in hand if suit_of(c) == led] if trick else []
    if led is None:
        idea, rule = "lead", Reason(LEAD)
    elif mine:
        idea, rule = "follow", Reason(FOLLOW)
        barred = [c for c in barred if c in mine]  # a rule beyond following suit: shown on a card of the suit
    elif suit == "clubs":
        must = barred and all(suit_of(c) == "clubs" for c in legal)
        idea, rule = "trump", Reason(TRUMP_MUST if must else TRUMP_PLAIN if barred else TRUMP)
    else:
        idea, rule = "discard", Reason(DISCARD)
    said = explained(idea, why, seen, [(idea, rule)])
    beyond = why_not(match, seat, barred)
    if beyond is not None and f"rule:{beyond[1].code}" not in seen:
        card, reason = beyond
        # the rules' own refusal says enough for one step: the moment's rule waits for the next step that shows it
        told = (f"rule:{reason.code}", said_why)
        return Explained(idea, Reason(WHY_NOT, reason=why, card=card, other_reason=reason), None, told)
    return Explained(said.idea, said.why, said.rule, (*said.told, said_why))
