"""A table's chat: the last lines said at the table, who may read them, and how often one may speak.

Two channels: a seated person speaks to the ``players`` channel, which everyone at the table reads (the players and
the spectators); a spectator speaks to the ``spectators`` channel, which only spectators read, so that kibitzing
never reaches a player's seat (a player who also opens the table as a spectator, in another tab, can read it, as
anyone watching can). Bots do not chat.

The chat belongs to the table while the server runs and to nothing else: the last :data:`HISTORY` lines are kept in
memory, for whoever connects later, and are lost when the table closes or the server stops. They are never written
into a record (a record is the match, and what players typed is theirs, not the game's). A turn-based table, whose
players come and go over days and which leaves the server's memory between their visits, keeps its players'
channel in the database too (``server.turns``: :meth:`ChatRoom.restore` reads it back); its spectators' lines stay in
memory only.

The text comes already normalised and checked (:func:`clubsuite.server.table.protocol.chat_text`: bounded, no control or
invisible characters); a chat line is only ever shown as text. It tells nothing hidden: it holds what a person typed,
their seat and their display name (public already), or a spectator's label.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from clubsuite.jsonform import JsonObject
from clubsuite.server.table.protocol import ProtocolError, RateLimit

if TYPE_CHECKING:
    from clubsuite.server.table.connection import Connection

HISTORY = 100
"""How many lines a table keeps for those who connect later (both channels together)."""
CHAT_RATE = 1.0
"""Chat lines a second one speaker may send on average ..."""
CHAT_BURST = 5.0
"""... and at once: a greeting and a few quick phrases, not a flood (the socket's own message rate applies too)."""

SPEAKERS = 1000
"""How many spectators' addresses a table remembers (the oldest is forgotten first): a bound on its memory."""

Channel = Literal["players", "spectators"]


class ChatRoom:
    """The chat of one table: its kept lines, each speaker's rate, and the spectators' labels.

    A seat's connections share one rate (a player with two tabs open speaks no faster); a spectator's rate and label
    go by its address (:attr:`Connection.address`; a connection without one, by itself), so that opening more
    sockets or reconnecting neither speeds a spectator up nor gives a new label to escape a mute. Spectators have
    no names, so each watching address that speaks is given a label of its own, "Spectator 1", "Spectator 2", ...
    in the order they first spoke at this table; the last :data:`SPEAKERS` are remembered."""

    def __init__(
        self,
        history: int = HISTORY,
        rate: float = CHAT_RATE,
        burst: float = CHAT_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        """The clock the rates are counted by (a test's may be stepped by hand)."""
        self.kept: deque[JsonObject] = deque(maxlen=history)
        self.speakers: dict[int, str] = {}
        """The account that said each kept line that an account said (by line id): never sent to a client, read to
        hide a blocked or muted account's lines and to report a line."""
        self.present: dict[int, frozenset[str]] = {}
        """The accounts at the table (seated, or watching signed in) when each kept line was said (by line id):
        never sent to a client, read when a line is reported (only their reports count toward the automatic mute,
        ``people.moderation``). Lines said while nobody came or went share one set."""
        self.last_id = 0
        """The id of the last line said (ids grow by one per line, at this table, from 1)."""
        self.rate, self.burst = rate, burst
        self._seat_rates: dict[int, RateLimit] = {}
        self._spectators: OrderedDict[object, tuple[str, RateLimit]] = OrderedDict()
        self._labels_given = 0

    def _speaker(self, conn: Connection, now: float) -> tuple[str | None, RateLimit]:
        """A spectator's label (None for a seat) and the rate the connection speaks under."""
        if conn.seat is not None:
            rate = self._seat_rates.setdefault(conn.seat, RateLimit(now, self.rate, self.burst))
            return None, rate
        key: object = conn.address if conn.address is not None else id(conn)
        found = self._spectators.get(key)
        if found is None:
            self._labels_given += 1
            found = self._spectators[key] = (f"Spectator {self._labels_given}", RateLimit(now, self.rate, self.burst))
            if len(self._spectators) > SPEAKERS:
                self._spectators.popitem(last=False)
        return found

    def say(
        self, conn: Connection, seat_name: str | None, text: str, present: frozenset[str] = frozenset()
    ) -> JsonObject:
        """Keep the line ``text`` said by ``conn`` (its seat's display name in ``seat_name``; ``present``: the
        accounts at the table now) and return it as the chat message's fields; :class:`ProtocolError`
        ``rate_limited`` (nothing kept) when the speaker is over the chat rate."""
        now = self.clock()
        label, rate = self._speaker(conn, now)
        if not rate.allow(now):
            raise ProtocolError(
                "rate_limited",
                f"too many chat messages: at most {self.burst:g} at once and one a second after that; wait a moment",
            )
        self.last_id += 1
        channel: Channel = "spectators" if conn.seat is None else "players"
        name = label if conn.seat is None else seat_name or f"Seat {conn.seat + 1}"
        line: JsonObject = {
            "id": self.last_id,
            "channel": channel,
            "seat": conn.seat,
            "name": name,
            "text": text,
            "at": round(time.time(), 3),
        }
        self.kept.append(line)
        if conn.user_id is not None:
            self.speakers[self.last_id] = conn.user_id
        before = self.present.get(self.last_id - 1)
        self.present[self.last_id] = before if before == present else present
        first = self.kept[0]["id"]
        for kept in (self.speakers, self.present):
            for old in [k for k in kept if isinstance(first, int) and k < first]:
                del kept[old]
        return line

    def restore(self, lines: list[tuple[JsonObject, str | None, frozenset[str]]]) -> None:
        """Take back lines kept apart (a turn-based table's, read from the database), oldest first, each with the
        account that said it and those at the table then: they are kept as if said here (a report of one counts as
        it would have), and the next line's id follows the last."""
        for line, user_id, present in lines:
            self.kept.append(line)
            line_id = _id(line)
            if user_id is not None:
                self.speakers[line_id] = user_id
            self.present[line_id] = present
            self.last_id = max(self.last_id, line_id)

    def witnessed(self, line_id: int, user_id: str) -> bool:
        """Whether the account ``user_id`` was at the table (seated, or watching signed in) when the kept line
        ``line_id`` was said."""
        return user_id in self.present.get(line_id, frozenset())

    def history(self, seat: int | None, hidden: frozenset[str] = frozenset()) -> list[JsonObject]:
        """The kept lines the receiver may read, oldest first: a seat's, the players' channel; a spectator's, both;
        none said by an account in ``hidden`` (those the receiver blocked or muted)."""
        return [
            dict(line)
            for line in self.kept
            if (seat is None or line["channel"] == "players") and self.speakers.get(_id(line)) not in hidden
        ]

    def around(self, line_id: int, seat: int | None, lines: int = 5) -> tuple[JsonObject, list[JsonObject]] | None:
        """The kept line ``line_id`` as a receiver at ``seat`` may read it, with up to ``lines`` lines before and after
        it that the same receiver may read (what a report keeps), or None when it is not kept or not theirs to read."""
        readable = self.history(seat)
        at = next((i for i, line in enumerate(readable) if line["id"] == line_id), None)
        if at is None:
            return None
        return readable[at], readable[max(0, at - lines) : at + lines + 1]

    @staticmethod
    def reaches(line: JsonObject, conn: Connection) -> bool:
        """Whether ``conn`` may read ``line``: the players' channel reaches everyone, the spectators' only
        spectators."""
        return line["channel"] == "players" or conn.seat is None

    def hides(self, line: JsonObject, conn: Connection) -> bool:
        """Whether ``line`` is kept from ``conn`` because its account blocked or muted the line's."""
        return self.speakers.get(_id(line)) in conn.hidden


def _id(line: JsonObject) -> int:
    found = line["id"]
    return found if isinstance(found, int) else -1
