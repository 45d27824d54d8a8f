"""The conformance suite: every registered game, with every named variant, held to the shared match contract.

The cases come from the registry (:func:`clubsuite.engine.games`), so a game registered later is checked without an
edit here. See :mod:`conformance.harness` for the cases and the random play they run, and :mod:`conformance.perft`
for the perft harness every game's perft test uses.
"""
