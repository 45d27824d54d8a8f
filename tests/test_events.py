"""Events: one base for every game; equality and hashing include the class; the events every trick game shares are
defined once; events are immutable, cheap tuples that pickle and copy."""

from __future__ import annotations

import copy
import pickle

import pytest

from clubsuite import events
from clubsuite.cards import card
from clubsuite.games.free import events as free_events
from clubsuite.games.northstar import events as northstar_events
from clubsuite.games.partnership import events as partnership_events
from clubsuite.games.whist import events as whist_events


def test_events_of_different_classes_with_the_same_values_are_not_equal() -> None:
    passed, started = northstar_events.Passed(1), whist_events.PlayStarted(1)
    assert tuple(passed) == tuple(started) == (1,)
    assert passed != started and not passed == started  # noqa: SIM201 (both operators are checked)
    assert hash(passed) != hash(started)
    assert len({passed, started}) == 2


def test_events_of_the_same_class_and_values_are_equal_and_hash_alike() -> None:
    a, b = whist_events.Decided(2, True), whist_events.Decided(2, True)
    assert a == b and not a != b and hash(a) == hash(b) and len({a, b}) == 1  # noqa: SIM202 (both operators)
    assert whist_events.Decided(2, False) != a


def test_a_game_event_extending_a_shared_one_is_that_event_but_not_equal_to_it() -> None:
    extended = partnership_events.HandStarted(0, 3, "left")
    assert isinstance(extended, events.HandStarted)
    assert (extended.hand_number, extended.dealer, extended.direction) == (0, 3, "left")
    assert extended != events.HandStarted(0, 3)
    taken = free_events.TrickTaken(1, 2, (card("9H"), card("AH")), (1, 2))
    assert isinstance(taken, events.TrickTaken) and taken.players == (1, 2)


@pytest.mark.parametrize("module", [whist_events, free_events, partnership_events])
def test_the_events_every_trick_game_shares_are_defined_once(module: object) -> None:
    for name in ("HandStarted", "PlayStarted", "CardPlayed", "TrickTaken", "MatchEnded"):
        event = getattr(module, name)
        assert issubclass(event, getattr(events, name)), f"{name} of {module} is not the shared event"
    for name in ("PlayStarted", "CardPlayed", "MatchEnded"):
        assert getattr(module, name) is getattr(events, name)


def test_an_event_is_immutable_and_has_no_attributes_of_its_own() -> None:
    played = events.CardPlayed(1, card("QH"))
    with pytest.raises(AttributeError):
        played.seat = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        played.note = "x"  # type: ignore[attr-defined]
    assert not hasattr(played, "__dict__")


def test_an_event_reads_like_a_named_tuple() -> None:
    played = events.CardPlayed(seat=1, card=card("QH"))
    seat, which = played
    assert (seat, which, played[0], played.card) == (1, card("QH"), 1, card("QH"))
    assert repr(played) == "CardPlayed(seat=1, card=card('QH'))"
    assert played._asdict() == {"seat": 1, "card": card("QH")}
    match played:
        case events.CardPlayed(seat=s, card=c):
            assert (s, c) == (1, card("QH"))
    with pytest.raises(TypeError):
        events.CardPlayed(1)  # type: ignore[call-arg]


def test_an_event_pickles_and_copies_to_an_equal_event_of_the_same_class() -> None:
    ended = events.MatchEnded((0, 2), False, (31, 5, 31, 5))
    for again in (pickle.loads(pickle.dumps(ended)), copy.copy(ended), copy.deepcopy(ended)):
        assert again == ended and type(again) is events.MatchEnded


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def test_every_event_class_declares_its_own_name_on_the_wire_and_no_two_of_a_game_share_one() -> None:
    from clubsuite.engine import games

    games()  # every game registered, and with it its events
    classes = [c for c in _subclasses(events.Event) if c.__module__.startswith("clubsuite.")]
    assert len(classes) >= 30
    by_module: dict[str, set[str]] = {}
    for cls in classes:
        assert "wire" in vars(cls) and isinstance(vars(cls)["wire"], str), cls  # declared, not inherited
        names = by_module.setdefault(cls.__module__, set())
        assert cls.wire not in names, cls
        names.add(cls.wire)
