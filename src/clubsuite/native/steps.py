"""The steps the games' differential checks share (``games/<game>/differential.py``): what the engine's events after
an action must say, given what the kernel's step reported (:data:`clubsuite.native.EV_NONE` and the other codes).

Kept apart from :mod:`clubsuite.native` so that the package itself imports nothing of the engine (``clubsuite.cards``
asks it whether the card sets' compiled part may be used).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from clubsuite.events import CardPlayed, PlayStarted, TrickTaken
from clubsuite.native import EV_NONE, EV_PLAY_STARTED, EV_SCORED, EV_TRICK, expect

ScoredT = TypeVar("ScoredT")


def expect_card_events(
    events: Sequence[object],
    code: int,
    seed: int,
    leader: int,
    scored_type: type[ScoredT],
    score_agrees: Callable[[ScoredT], bool],
) -> None:
    """A differential check's step after a card, the same in every trick game: the engine's ``events`` say a card
    was played; a trick taken or the hand scored exactly when the kernel's event ``code`` says so; the trick's winner
    is the kernel's next ``leader``; and the score event (of the game's ``scored_type``) agrees with the kernel's
    (``score_agrees``). :class:`KernelMismatchError` naming ``seed`` otherwise."""
    expect(isinstance(events[0], CardPlayed), seed, lambda: f"a card played: {events}")
    taken = [e for e in events if isinstance(e, TrickTaken)]
    scored = [e for e in events if isinstance(e, scored_type)]
    if scored:
        expect(code == EV_SCORED and score_agrees(scored[0]), seed, "the hand's score")
    else:
        expect(code == (EV_TRICK if taken else EV_NONE), seed, lambda: f"a trick taken: {events} against {code}")
    expect(not taken or taken[0].seat == leader, seed, "the trick's winner")


def expect_play_started(events: Sequence[object], code: int, seed: int, leader: int) -> None:
    """A differential check's step after a decision made before play (an exchange, a pass): play starts exactly
    when the kernel's event ``code`` says so, led by the kernel's ``leader``."""
    started = [e for e in events if isinstance(e, PlayStarted)]
    expect(code == (EV_PLAY_STARTED if started else EV_NONE), seed, lambda: f"play started: {events} against {code}")
    expect(not started or started[0].leader == leader, seed, "the first leader")
