"""Bulk simulation for game designers: many whole matches between bots, counted and reported.

The package is layered: :mod:`~clubsuite.sim.seating` (who sits where in match ``k``), :mod:`~clubsuite.sim.stats`
(the figures and their intervals), :mod:`~clubsuite.sim.report` (what a game's balance report provides) and
:mod:`~clubsuite.sim.running` (playing the matches, in one process or many).
"""

from clubsuite.sim.report import (
    Report,
    ReportPart,
    build_report,
    hand_facts_of,
    report_games,
    report_part,
    report_titles,
)
from clubsuite.sim.running import MAX_MATCHES, MAX_WORKERS, ProgressCallback, play_one, simulate, team_lineup
from clubsuite.sim.seating import Teams, rotation_summary, seating, seating_cycle
from clubsuite.sim.stats import (
    CONFIDENCE,
    BotStats,
    MatchOutcome,
    SimResult,
    TeamStats,
    WinCount,
    entry_labels,
    wilson_interval,
)

__all__ = [
    "CONFIDENCE",
    "MAX_MATCHES",
    "MAX_WORKERS",
    "BotStats",
    "MatchOutcome",
    "ProgressCallback",
    "Report",
    "ReportPart",
    "SimResult",
    "TeamStats",
    "Teams",
    "WinCount",
    "build_report",
    "entry_labels",
    "hand_facts_of",
    "play_one",
    "report_games",
    "report_part",
    "report_titles",
    "rotation_summary",
    "seating",
    "seating_cycle",
    "simulate",
    "team_lineup",
    "wilson_interval",
]
