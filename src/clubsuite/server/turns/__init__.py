"""Turn-based tables: matches played over days, each move within the table's pace, clocks that stop at night in the
player's own time zone and on vacation, kept in the database (docs/server.md, "Turn-based tables").

``clock`` the arithmetic of playing hours and vacations (pure); ``config`` what the operator chooses; ``dbclock`` the
database's time the clocks run by; ``keeper`` the clocks of every process: timeouts, parking; ``reminders``,
``outbox``, ``push``, ``mail`` what reaches players who are away.
"""
