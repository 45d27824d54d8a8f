"""Puzzles from real games: positions where one action is clearly best, found in matches by an exact judge or a
search, kept as data with their source record, and rated.

:mod:`~clubsuite.puzzles.criteria` says what a puzzle is, :mod:`~clubsuite.puzzles.model` how it is written and read,
:mod:`~clubsuite.puzzles.make` finds them, :mod:`~clubsuite.puzzles.themes` names what they are about (each game's
part ``themes``), :mod:`~clubsuite.puzzles.rating` gives a first rating.
"""
