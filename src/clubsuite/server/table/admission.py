"""How many sockets strangers hold: per address, per seat, a table's spectators; whether one more is allowed.

The counts are the process's (each process bounds its own sockets); a connection is counted under its table's lock
when it is added, and counted out when it goes."""

from __future__ import annotations

from collections import Counter

from clubsuite.server.limits import ServerLimits
from clubsuite.server.table.connection import Connection
from clubsuite.server.table.live import LiveTable


class Admission:
    """The open sockets of this process, counted against ``limits``."""

    def __init__(self, limits: ServerLimits) -> None:
        self.limits = limits
        self.by_address: Counter[str] = Counter()
        """Open connections by address."""

    def refused(self, table: LiveTable, seat: int | None, address: str) -> str | None:
        """Why one more connection from ``address`` to ``table`` (for ``seat``; None: watching) is too many, or
        None when it is allowed. Asked under the table's lock."""
        limits = self.limits
        if self.by_address[address] >= limits.sockets_per_address:
            return f"your address has {limits.sockets_per_address} connections open, the most it may have"
        if seat is not None and table.seats[seat].connections >= limits.sockets_per_token:
            return f"this seat has {limits.sockets_per_token} connections open, the most it may have: close one"
        if seat is None and sum(1 for c in table.connections if c.seat is None) >= limits.spectators_per_table:
            return f"this table has {limits.spectators_per_table} spectators, the most it may have"
        return None

    def connected(self, table: LiveTable, conn: Connection, address: str) -> None:
        """Count a new connection of ``table`` (under its lock)."""
        self.by_address[address] += 1
        table.add_connection(conn)

    def disconnected(self, table: LiveTable, conn: Connection, address: str) -> None:
        """Count a connection gone."""
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        table.remove_connection(conn)
