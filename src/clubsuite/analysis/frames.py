"""The replay of a record, step by step, as the replay viewer and a review's board draw it: for the deal of each hand
and each action, what was done and told, the public table (the game's spectator view) and every seat's hand (the
record holds every deal: nothing is hidden), with the cards of the game's own piles that are in no hand.

Worked out by a server's replay workers (:mod:`clubsuite.server.table.replaying`) and by the offline app's worker
(:mod:`clubsuite.offline.session`) alike, with the standard library alone.
"""

from __future__ import annotations

from clubsuite.bots.personas import level_words
from clubsuite.engine import SomeGame
from clubsuite.errors import ClubsError, InvalidRecordError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.naming import name_words
from clubsuite.present import all_hands, wire_form, with_account, with_said, with_shown
from clubsuite.records.replay import Replay
from clubsuite.view_base import HasHiddenPiles, HasSpectator

MAX_FRAMES = 20_000
"""The most steps a replay is shown with (a record with more is refused, named)."""


def replay_frames(record: object) -> JsonObject:
    """Every step of a record, for the replay viewer: for the deal of each hand and each action, what was done, the
    public table (the game's spectator view) and every seat's hand, with the cards of the game's own piles that are
    in no hand (the game's part ``hidden``).

    Raises :class:`~clubsuite.errors.ClubsError` naming the problem when the record is not one the engine accepts
    (the server answers it as a 400, the offline app in words)."""
    if not isinstance(record, dict):
        raise InvalidRecordError("a record is a JSON object")
    hands = record.get("hands")
    if isinstance(hands, list):  # counted before any is replayed: a record too long to show costs nothing
        steps = len(hands) + sum(
            len(h["actions"]) for h in hands if isinstance(h, dict) and isinstance(h.get("actions"), list)
        )
        if steps > MAX_FRAMES:
            raise InvalidRecordError(f"the record has {steps} steps, more than {MAX_FRAMES}: too long to show")
    run = Replay(record)
    parts = run.info.parts
    if not isinstance(parts, HasSpectator):
        raise ClubsError(f"{run.info.name} has no spectator view")
    public = parts.spectator()
    hidden = parts.hidden() if isinstance(parts, HasHiddenPiles) else None  # piles in no hand, where it has any
    frames: list[JsonValue] = []
    before: JsonObject = {}  # the last frame's whole shown
    for step in run.steps():
        if len(frames) >= MAX_FRAMES:
            raise ClubsError(f"the record has more than {MAX_FRAMES} steps: too long to show")
        view = with_shown(run.info, public(run.match), run.match.options)
        told = with_said(run.info, [wire_form(e) for e in step.events], view, mine=False)
        whole = view["shown"] if isinstance(view["shown"], dict) else {}
        view["shown"] = changed(before, whole)
        before = whole
        frames.append(
            {
                "hand": step.hand,
                "action": step.action,
                "seat": step.seat,
                "events": told,
                "view": view,
                "hands": all_hands(run.match),
                "hidden": hidden(run.match) if hidden is not None else {},
            }
        )
    run.check_result()
    seats: list[JsonValue] = [s.get("name") if isinstance(s, dict) else None for s in run.seats]
    # a bot's seat as the table showed it: its name ("Cleo"), and its level in words beside it ("normal bot")
    levels: list[JsonValue] = [
        level_words(s["bot"]) if isinstance(s, dict) and isinstance(s.get("bot"), str) else None for s in run.seats
    ]
    return {
        "game": run.info.name,
        "title": run.info.title,
        "variant": run.variant,
        "name_words": name_words(run.info, run.match.options, None),
        "seats": seats,
        "levels": levels,
        "frames": frames,
        "result": accounted(run.info, run.match.summary()),
    }


def changed(before: JsonObject, now: JsonObject) -> JsonObject:
    """What a frame shows beside the cards (``now``) as a replay sends it: only what changed since the frame before
    (``before``), most of it staying the same from one step to the next; in a list as long as before, an item that
    did not change is null (no list of ``shown`` holds a null of its own). A page fills in the rest."""
    out: JsonObject = {}
    for key, value in now.items():
        if key in before and before[key] == value:
            continue
        old = before.get(key)
        if isinstance(value, list) and isinstance(old, list) and len(old) == len(value):
            out[key] = [None if a == b else b for a, b in zip(old, value, strict=True)]
        else:
            out[key] = value
    return out


def accounted(info: SomeGame, summary: JsonObject) -> JsonObject:
    """A match's summary with each complete hand's account in words (:func:`clubsuite.present.account`)."""
    hands = summary.get("hands")
    if isinstance(hands, list):
        for hand in hands:
            if isinstance(hand, dict) and hand.get("complete") is True:
                with_account(info, hand)
    return summary
