"""Clubs (whist group) in the guided first hand (:mod:`clubsuite.lesson`): the tricks game's steps, on a deal chosen
for them."""

from __future__ import annotations

from clubsuite.lesson import Lesson, trick_say

LESSON = Lesson(seed=2028, ideas=("choose", "lead", "follow", "trump"), say=trick_say)
"""The first hand of "Learn to play" Clubs (whist group)."""
