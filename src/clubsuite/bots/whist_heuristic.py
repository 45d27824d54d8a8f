"""Placeholder module replaced by the heuristic whist bot."""
