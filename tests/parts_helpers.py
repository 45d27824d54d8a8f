"""A game's parts with one left out: how a test meets a game that lacks a part (a third-party game, say) without
changing a registered game."""

from __future__ import annotations

from clubsuite.engine import GameParts


def parts_without(parts: GameParts, role: str) -> GameParts:
    """``parts`` with every method but ``role``'s, each calling the original (a part missing is a method missing)."""
    kept = {
        name: staticmethod(getattr(parts, name))
        for name in dir(type(parts))
        if not name.startswith("_") and name != role and callable(getattr(parts, name))
    }
    assert role not in kept and hasattr(parts, role), f"{type(parts).__name__} has no part {role!r} to leave out"
    without: type[GameParts] = type(f"{type(parts).__name__}Without{role.title()}", (GameParts,), kept)
    return without()
