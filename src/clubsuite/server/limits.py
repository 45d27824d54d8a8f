"""What a public server allows one stranger, and in all: the numbers chosen for a small club, every one of them a
``clubs serve`` flag.

A stranger is known by their address (the peer's, or the one a trusted proxy names: ``--trusted-proxy``). The
limits are of four kinds: sizes (a request's headers and body, a WebSocket message, a record sent for replay),
times (a request must arrive whole within a time, a connection says hello within a time, a table nobody is at is
closed), counts (tables, sockets, spectators) and rates (requests a minute, messages a second). ``docs/server.md``
gives each with its reason. The rates are counted with the ``limits`` library (a moving window per address),
imported only where a rate is read or counted: ``clubs serve --help`` lists these flags on an install without the
server's packages, and ``clubs serve`` itself then says which ones to install.
"""

from __future__ import annotations

import ipaddress
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clubsuite.docblock import main, write_block
from clubsuite.errors import InvalidOptionsError

if TYPE_CHECKING:
    from limits import RateLimitItem

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send: an action is a few characters, a hello a token and two numbers."""
HASH_LANES = 4
"""Argon2id's parallelism for password hashes (RFC 9106's recommended 4 lanes)."""
HASH_MEMORY_LEAST = 8 * HASH_LANES
"""The least memory (KiB) Argon2id accepts with :data:`HASH_LANES` lanes."""


def _limit(default: Any, help_text: str) -> Any:
    """A limit's field: its default and its one-line description (the ``clubs serve`` flag's help)."""
    return field(default=default, metadata={"help": help_text})


@dataclass(frozen=True)
class ServerLimits:
    """The server's limits (defaults for a small club: a few dozen people, a few hundred tables); each field's
    ``help`` says what it bounds."""

    max_tables: int = _limit(
        500, "open tables in all; more are refused (503) until one closes; this also bounds how long a restart takes"
    )
    tables_per_address: int = _limit(20, "open tables made from one address")
    search_tables_per_address: int = _limit(
        2, "open tables made from one address with a searching bot (hard, expert, pimc, ismcts) in a seat"
    )
    table_idle: float = _limit(
        1800.0,
        "seconds a table may have nobody connected (no player, no spectator) before it is closed; its records stay "
        "in the database",
    )
    max_connections: int = _limit(
        2048,
        "open network connections in all (HTTP and WebSocket); more are closed as they come, before a byte is read",
    )
    connections_per_address: int = _limit(
        128, "open network connections from one address, said hello or not (an IPv6 address counts by its /64)"
    )
    sockets_per_token: int = _limit(4, "connections holding one seat at once (a few tabs or devices)")
    sockets_per_address: int = _limit(64, "connections from one address at once, to every table together")
    spectators_per_table: int = _limit(50, "spectators of one table at once")
    request_timeout: float = _limit(
        20.0, "seconds a request (its head and body) has to arrive whole, from its first byte or from the connection"
    )
    max_header_bytes: int = _limit(16 * 1024, "the largest request head: the request line and every header")
    max_headers: int = _limit(100, "the most header lines of a request")
    max_body_bytes: int = _limit(
        64 * 1024, "the largest request body of the lobby (a table's settings take a few hundred bytes)"
    )
    max_record_bytes: int = _limit(
        512 * 1024, "the largest record sent to the replay viewer (a match to 1000 points takes 125 KB)"
    )
    max_ws_bytes: int = _limit(
        MAX_MESSAGE_BYTES,
        "the largest WebSocket message a client may send; a larger one closes the connection as it arrives",
    )
    max_replay_bytes: int = _limit(
        32 * 1024 * 1024,
        "the largest replay the server works out, before compression (a six-player match to 1000 points: 13 MB)",
    )
    bot_workers: int = _limit(
        2,
        "processes in which searching bots (hard, expert, pimc, ismcts) think, one decision each at a time; more "
        "wait their turn (a busy server's bots answer later, never weaker)",
    )
    replay_workers: int = _limit(1, "processes that work out replays, off the event loop")
    replay_queue: int = _limit(4, "replays that may wait for a worker; more are refused (503, try again)")
    puzzle_queue: int = _limit(
        64,
        "puzzle positions that may wait for a worker (in the replay workers' number of processes of their own), one "
        "per address and account; more are refused (503, try again); each shipped puzzle is worked out once",
    )
    review_workers: int = _limit(
        1,
        "processes that work out reviews (a search at every decision of a seat: seconds to a minute each), apart "
        "from the replay workers so that a replay never waits behind a review",
    )
    review_queue: int = _limit(2, "reviews that may wait for a review worker; more are refused (503, try again)")
    review_store_bytes: int = _limit(
        64 * 1024 * 1024,
        "bytes of worked-out reviews the database keeps for every process to answer again (a review of a match "
        "takes some 20 KB; the oldest go first)",
    )
    create_rate: str = _limit("10/minute", "tables one address may make, as N/second, N/minute or N/hour")
    join_rate: str = _limit("30/minute", "seats one address may take and invite codes it may try")
    replay_rate: str = _limit("10/minute", "replays one address may ask for")
    review_rate: str = _limit(
        "10/hour", "reviews one address may have worked out (a review the server has kept is answered free)"
    )
    review_account_rate: str = _limit(
        "10/hour", "reviews one signed-in account may have worked out, from every address together"
    )
    puzzle_rate: str = _limit(
        "120/minute", "puzzles one address may be shown, answers it may give and solutions it may ask for"
    )
    request_rate: str = _limit("600/minute", "requests of any kind one address may make")
    account_rate: str = _limit("5/hour", "accounts one address may make")
    login_rate: str = _limit(
        "10/minute",
        "password checks one address may ask for (signing up or in, changing a password, deleting an account)",
    )
    login_account_rate: str = _limit(
        "10/hour",
        "wrong passwords one account may be sent from anywhere before signing in to it waits (guessing is slowed "
        "whoever guesses)",
    )
    hash_workers: int = _limit(
        2, "threads that work out password hashes (Argon2id, 64 MiB and tens of milliseconds each), off the event loop"
    )
    hash_memory: int = _limit(
        65536,
        "KiB of memory one password hash takes (Argon2id; 65536 with 3 passes is RFC 9106's second recommended "
        "setting; less suits a small machine but makes guessing a stolen hash cheaper; at least 32)",
    )
    hash_passes: int = _limit(3, "passes over that memory one password hash makes (Argon2id's time cost)")
    hash_queue: int = _limit(8, "password checks that may wait for a hash thread; more are refused (503, try again)")

    def __post_init__(self) -> None:
        from limits import parse

        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.endswith("_rate"):
                try:
                    if parse(value).amount < 1:
                        raise ValueError
                except ValueError:
                    raise InvalidOptionsError(
                        f"{flag(f.name)} {value!r}: expected a rate above 0 such as 10/minute "
                        "(per second, minute or hour)"
                    ) from None
            elif isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise InvalidOptionsError(f"{flag(f.name)} {value!r}: expected a number above 0")
        if self.hash_memory < HASH_MEMORY_LEAST:
            raise InvalidOptionsError(
                f"{flag('hash_memory')} {self.hash_memory!r}: Argon2id needs at least {HASH_MEMORY_LEAST} KiB "
                f"({HASH_LANES} lanes of 8)"
            )


def address_key(host: str) -> str:
    """The address a limit counts a client by: an IPv4 address as it is (an IPv4 address written as IPv6 too), an
    IPv6 address by its /64 network (one subscriber's usual share: counting each address would give a client
    billions of them)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def flag(name: str) -> str:
    """The ``clubs serve`` flag of a limit."""
    return "--" + name.replace("_", "-")


class RateLimits:
    """Per-address rate limits over one in-memory store (a moving window each): :meth:`allow` takes one request."""

    def __init__(self, limits: ServerLimits) -> None:
        from limits import parse
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[str, RateLimitItem] = {
            kind: parse(getattr(limits, f"{kind}_rate"))
            for kind in (
                "create",
                "join",
                "replay",
                "request",
                "account",
                "login",
                "login_account",
                "review",
                "review_account",
                "puzzle",
            )
        }

    def allow(self, kind: str, address: str) -> float | None:
        """Count one request of ``kind`` from ``address``: None when allowed, else the seconds until it would be."""
        item = self._items[kind]
        if self._limiter.hit(item, kind, address):
            return None
        reset = self._limiter.get_window_stats(item, kind, address).reset_time
        return max(1.0, reset - time.time())

    def allow_all(self, asks: list[tuple[str, str]]) -> float | None:
        """Count one request in each ``(kind, key)`` of ``asks`` if every one of them allows it, else in none (a
        request refused by one budget spends nothing of the others): None when allowed, else the seconds until
        every one would allow it."""
        waits = [
            max(1.0, self._limiter.get_window_stats(self._items[kind], kind, key).reset_time - time.time())
            for kind, key in asks
            if not self._limiter.test(self._items[kind], kind, key)
        ]
        if waits:
            return max(waits)
        for kind, key in asks:
            self._limiter.hit(self._items[kind], kind, key)
        return None

    def describe(self, kind: str) -> str:
        """The limit in words, for a refusal: ``10 a minute``."""
        item = self._items[kind]
        unit = item.GRANULARITY.name
        per = f"{item.multiples} {unit}s" if item.multiples > 1 else unit
        return f"{item.amount} a {per}" if item.multiples == 1 else f"{item.amount} per {per}"


BEGIN, END = "<!-- server-limits:begin -->", "<!-- server-limits:end -->"


def docs_block() -> str:
    """The limits as ``docs/server.md`` shows them: each flag, its default and what it bounds."""
    rows = [BEGIN, "", "| flag | default | what it bounds |", "|---|---|---|"]
    for f in fields(ServerLimits):
        value = f.default
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        rows.append(f"| `{flag(f.name)}` | {shown} | {f.metadata['help']} |")
    rows += ["", END]
    return "\n".join(rows)


def write_docs(path: Path) -> bool:
    """Put :func:`docs_block` into the page between the markers; whether the page changed."""
    return write_block(path, docs_block(), BEGIN, END)


if __name__ == "__main__":
    main(sys.argv[1:], "clubsuite.server.limits", "docs/server.md", write_docs)
