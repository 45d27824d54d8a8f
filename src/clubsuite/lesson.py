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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from clubsuite.bots.base import bot_names, make_bot
from clubsuite.engine import SomeGame, SomeMatch, load_part
from clubsuite.reasons import Reason, reason_of, template

MAX_STEPS = 8
"""How many of the newcomer's decisions a lesson points at (the first ones of the first hand); the rest of the hand
is theirs alone."""

SayFn = Callable[[Any, int, Sequence[str], str], tuple[str, Reason]]
"""A game's words for a step: ``(match, seat, legal actions as text, the action pointed at) -> (idea, reason)``;
the idea is one of the game's :attr:`Lesson.ideas` or ``"choose"``."""


@dataclass(frozen=True)
class Lesson:
    """One game's scripted first hand."""

    seed: int
    """The match seed of every guided first hand of the game: its first deal shows the key ideas early."""
    ideas: tuple[str, ...]
    """The ideas the first hand shows within :data:`MAX_STEPS` steps when the newcomer plays what is pointed at."""
    say: SayFn
    """What a step says (see :data:`SayFn`)."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: its number (from 1), the idea it shows, the action pointed at and its cards, and the
    one line that says why."""

    number: int
    idea: str
    action: str
    cards: tuple[str, ...]
    say: Reason

    def to_json(self) -> dict[str, Any]:
        """The form the protocol sends (the page words ``say`` from its catalog and marks ``action``'s cards or
        button)."""
        return {
            "step": self.number,
            "idea": self.idea,
            "action": self.action,
            "cards": list(self.cards),
            "say": self.say.to_json(),
            "steps": MAX_STEPS,
        }


CHOOSE = template("lesson.choose", "The marked choice is a good one here.")
CHOOSE_CARDS = template("lesson.choose_cards", "A good choice here: {cards}.")
LEAD = template(
    "lesson.lead", "You lead this trick, so you choose its suit: the others must play a {suit:one} if they can. "
    "Lead the {card}."
)  # fmt: skip
FOLLOW_ONE = template(
    "lesson.follow_one", "You hold one {led_suit:one}, the {card}: you must follow the suit led, so you play it."
)
FOLLOW = template("lesson.follow", "You hold {led_suit} and they were led: you must play one of them. Play the {card}.")
TRUMP = template(
    "lesson.trump", "You have no {led_suit}, so you may play any card; a club, the trump, beats every card of the "
    "other suits. Play the {card}."
)  # fmt: skip
"""No card of the suit led, every card of the hand allowed, a club pointed at."""
TRUMP_MUST = template(
    "lesson.trump_must", "You have no {led_suit}, and here the rules make you play a club; a club, the trump, beats "
    "every card of the other suits. Play the {card}."
)  # fmt: skip
"""No card of the suit led, only clubs allowed (the rules' refusal of another card follows)."""
TRUMP_PLAIN = template(
    "lesson.trump_plain", "You have no {led_suit}; a club, the trump, beats every card of the other suits. Play the "
    "{card}."
)  # fmt: skip
"""No card of the suit led, some cards refused but not only clubs allowed (the refusal follows)."""
DISCARD = template(
    "lesson.discard", "You have no {led_suit}, and the {card} cannot win this trick: only a club could. Give it up, "
    "a card you can spare."
)  # fmt: skip
CHOOSE_AFTER = template("lesson.choose_after", "{reason} The marked choice is a good one here.")
"""A phase before the play (an exchange, an auction, a pass) said by the game, then the choice marked."""
WHY_NOT_CARDS = template("lesson.choose_cards_after", "{reason} A good choice here: {cards}.")
"""The same, where the choice is of cards (the cards named)."""
WHY_NOT = template("lesson.why_not", "{reason} Why not the {card}? {other_reason}")
"""A step's line followed by the rules' own refusal of another card of the seat's (a rule beyond following suit)."""
LESSON_IDEAS = ("choose", "lead", "follow", "trump", "discard")
"""The ideas :func:`trick_say` tells apart."""


def lesson_of(info: SomeGame) -> Lesson | None:
    """The game's lesson, or None where it declares none."""
    part = load_part(info, "lesson")
    return cast(Lesson, part) if part is not None else None


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
    pointed = choose()
    legal = [match.format_action(a) for a in match.legal_actions()]
    idea, say = lesson.say(match, seat, legal, pointed)
    return Step(number, idea, pointed, cards_of(pointed), say)


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


def phase_step(phase: Reason, pointed: str) -> tuple[str, Reason]:
    """A step before the play of the cards: what the phase is (the game's words, ``phase``) and the choice marked
    (its cards named)."""
    cards = cards_of(pointed)
    if cards:
        return "choose", Reason(WHY_NOT_CARDS, reason=phase, cards=cards)
    return "choose", Reason(CHOOSE_AFTER, reason=phase)


def trick_say(match: SomeMatch, seat: int, legal: Sequence[str], pointed: str) -> tuple[str, Reason]:
    """A step of a tricks game (:data:`SayFn`): outside the play of cards to tricks (an exchange, an auction, a
    pass), the marked choice; in play, whether the seat leads, follows, trumps or gives up a card, and where the
    rules forbid more than not following suit, their refusal of one of the seat's other cards."""
    view = match.view(seat).to_dict()
    hand = str(view.get("hand", "")).split()
    if view.get("phase") != "play" or pointed not in hand:
        cards = cards_of(pointed)
        return "choose", Reason(CHOOSE_CARDS, cards=cards) if cards else Reason(CHOOSE)
    trick = [str(p["card"]) for p in cast(list[dict[str, Any]], view.get("trick") or [])]
    suit = suit_of(pointed)
    led = suit_of(trick[0]) if trick else None
    if suit is None or (trick and led is None):
        return "choose", Reason(CHOOSE_CARDS, cards=cards_of(pointed))
    barred = [c for c in hand if c not in legal]
    mine = [c for c in hand if suit_of(c) == led] if trick else []
    if led is None:
        idea, say = "lead", Reason(LEAD, suit=suit, card=pointed)
    elif len(mine) == 1:  # following with the one card of the suit: nothing more to say
        return "follow", Reason(FOLLOW_ONE, led_suit=led, card=pointed)
    elif mine:
        idea, say = "follow", Reason(FOLLOW, led_suit=led, card=pointed)
        barred = [c for c in barred if c in mine]  # a rule beyond following suit: shown on a card of the suit
    elif suit == "clubs":
        kind = TRUMP if not barred else TRUMP_MUST if all(suit_of(c) == "clubs" for c in legal) else TRUMP_PLAIN
        idea, say = "trump", Reason(kind, led_suit=led, card=pointed)
    else:
        idea, say = "discard", Reason(DISCARD, led_suit=led, card=pointed)
    beyond = why_not(match, seat, barred)
    if beyond is not None:
        card, reason = beyond
        say = Reason(WHY_NOT, reason=say, card=card, other_reason=reason)
    return idea, say
