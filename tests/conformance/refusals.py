"""Refusals sampled from bounded random play of every game and variant: what the engine answers to an action it
refuses, at every decision of a few seeded matches.

At each decision the sampler offers a fixed list of candidate actions (every card of the deck, the words of every
game, malformed notation, and for a game of several-card plays, some sets from the hand), as the seat to act and
as the wrong seat, and keeps each refusal: the reason given by ``parse_action``, ``explain`` and ``apply``. The
samples are the same on every run, so the conformance tests can check every reason code a game raises and compare
the English sentences with the golden ones.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from clubsuite.cards import FULL_STANDARD, CardSet
from clubsuite.errors import ClubsError
from conformance.harness import CASES, Case, random_play

SEEDS = (0, 1)
"""The seeded matches played per case."""
WORDS = ("pass", "double", "keep", "exchange", "x", "k", "2C 7H QS", "pass 2C 7H QS", "pass 2C", "call 7H", "")
"""Words and shapes that some game reads as an action."""
MALFORMED = ("ZZ", "7H 7H", "11H", "JK JK JK JK JK", "call", "pass ZZ", "AC AD AH AS 2C")
"""Notation no game reads, or reads only to refuse."""
DECK = (*(str(c) for c in CardSet(FULL_STANDARD)), "JK", "15")


def _candidates(match: Any, rng: random.Random) -> list[str]:
    out = [*DECK, *WORDS, *MALFORMED]
    view = match.view(match.to_act)
    hand = getattr(view, "hand", None)
    if hand is not None:
        cards = [str(c) for c in hand]
        for size in (2, 3, 4):
            if len(cards) >= size:
                out += [" ".join(rng.sample(cards, size)) for _ in range(3)]
    return out


Key = tuple[str, int, int, str, str]
"""Where a refusal was met: ``(spec, seed, decision, candidate, call)``, ``call`` one of ``parse`` (reading the
notation), ``explain``, ``apply`` (by the seat to act) and ``wrong_seat`` (applied by the next seat)."""


def refusals(case: Case, seed: int, only: set[tuple[int, str]] | None = None) -> Iterator[tuple[Key, ClubsError | str]]:
    """``(key, refusal)`` at every decision of seeded match ``seed`` of ``case``: the error ``parse_action`` or
    ``apply`` raised, or the string ``explain`` returned, for each candidate refused. With ``only``, just the
    ``(decision, candidate)`` pairs named (the match is still played through the same decisions)."""
    rng = random.Random(seed * 7919 + 1)
    decision = -1
    for match in random_play(case, seed):
        if match.to_act is None:
            continue
        decision += 1
        seat = match.to_act
        for text in _candidates(match, rng):
            if only is not None and (decision, text) not in only:
                continue
            key = (case.spec, seed, decision, text)
            try:
                action = match.parse_action(text)
            except ClubsError as exc:
                yield (*key, "parse"), exc
                continue
            why = match.explain(action, seat)
            if why is not None:
                yield (*key, "explain"), why
                trial = match.clone()
                try:
                    trial.apply(action, seat)
                except ClubsError as exc:
                    yield (*key, "apply"), exc
            other = (seat + 1) % match.n_seats
            trial = match.clone()
            try:
                trial.apply(action, other)
            except ClubsError as exc:
                yield (*key, "wrong_seat"), exc


def all_refusals() -> Iterator[tuple[Key, ClubsError | str]]:
    """``(key, refusal)`` over every case and seed."""
    for case in CASES:
        for seed in SEEDS:
            yield from refusals(case, seed)


_CARDS = r"(?:(?:1[0-5]|[1-9TJQKA])[CDHS](?:=[0-9]+)?|JK[0-9]?|[0-9]{1,3})"


def shape(sentence: str) -> str:
    """A sentence with its cards, numbers and quoted input masked: refusals of one shape differ only in those."""
    masked = re.sub(r"'[^']*'", "'#'", sentence)
    return re.sub(rf"\b{_CARDS}(?:[ ,]+{_CARDS})*\b", "#", masked)


def sample() -> dict[str, str]:
    """The golden sample: for every shape of refusal met, its first four sentences, keyed by where they were met
    (the key's parts joined by ``|``)."""
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for key, refusal in all_refusals():
        text = str(refusal)
        form = shape(text)
        if seen.get(form, 0) >= 4:
            continue
        seen[form] = seen.get(form, 0) + 1
        out["|".join(str(k) for k in key)] = text
    return out


if __name__ == "__main__":  # writes the golden sample: python tests/conformance/refusals.py > FILE
    print(json.dumps(sample(), indent=1, ensure_ascii=False))
