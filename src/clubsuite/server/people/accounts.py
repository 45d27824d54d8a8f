"""Accounts: a name and a password (Argon2id), signed-in sessions, and what an account may do with them.

Accounts are optional: a guest plays as before, with a display name and a seat token. An account keeps a player's
name (no other account may take one that is the same name by :func:`~clubsuite.server.tokens.name_key`, the key
tables and club nights judge names by too), and the seats they take, so that their matches, history and ratings
are theirs.

* **Passwords** are hashed with Argon2id (``argon2-cffi``; by default RFC 9106's second recommended setting: 64 MiB,
  3 passes, 4 lanes; ``--hash-memory`` and ``--hash-passes`` change it, and a hash made with other settings is made
  again at the account's next sign-in), in a small pool of threads off the event loop, bounded in queue (a full
  queue is refused with ``busy``). A password has 8 to 256 characters, is read as NFKC (the same password typed on
  two keyboards is the same) and is not the account's name. Signing in to a name that does not exist costs the same
  hash, so the answer does not tell whether it exists.
* **Sessions** are a 256-bit secret in an HttpOnly, SameSite=Lax cookie (Secure when the request came over TLS); the
  database keeps only its SHA-256. Each session has a CSRF token the page sends back in the ``X-CSRF-Token`` header
  of every request that changes something. Signing in always makes a new session (a session id planted in a
  browser beforehand is never taken over); sessions end after 30 days unused, can be listed and revoked, and all
  end when the password changes.
* **Guessing** is bounded twice: password checks per address (the guard's ``login`` rate) and wrong passwords per
  account from anywhere (:attr:`ServerLimits.login_account_rate`).
* **Deleting** an account ends its sessions, removes its passkeys, frees its name, removes its ratings, and leaves
  its finished matches as records, the player named "deleted player".
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar, TypeVarTuple

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from clubsuite.errors import InvalidOptionsError
from clubsuite.server.decency import unwelcome
from clubsuite.server.limits import HASH_LANES, ServerLimits
from clubsuite.server.store.database import StaleWriteError, StoredRow
from clubsuite.server.store.dbschema import (
    invitations_sent,
    match_players,
    matches,
    own_puzzle_sources,
    own_puzzles,
    passkeys,
    puzzle_attempts,
    puzzle_ratings,
    rating_history,
    ratings,
    seats,
    sessions,
    users,
)
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import check_name, name_key, new_id

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""A password's length in characters (a longer one only costs the server more to hash, and adds nothing)."""
SESSION_DAYS = 30
"""A session unused this many days has ended."""
SEEN_EVERY = 300.0
"""Seconds between two writes of a session's last use (a page polls; the database need not hear of every call)."""
AGENT_MAX = 120
"""The characters of a browser's User-Agent kept to name a session in the list."""
DELETED_NAME = "deleted player"
"""How a deleted account's seats read in its matches' records and history."""


class AccountRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """An account request refused: the HTTP status, a stable code and the words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass(frozen=True)
class User:
    """An account."""

    id: str
    name: str
    created_at: float
    deleted: bool
    checked: str | None = field(default=None, compare=False, repr=False)
    """The password hash a sign-in checked (None otherwise): the session it opens is written only while the account
    still has that password, so a sign-in with the old password that was being checked while the password changed
    opens no session that outlives the change."""


@dataclass(frozen=True)
class Session:
    """A signed-in session of an account (its secret is only in the browser's cookie)."""

    public_id: str
    user_id: str
    csrf: str
    created_at: float
    seen_at: float
    agent: str


def secret_hash(secret: str) -> str:
    """The stored form of a session's secret."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def check_password(password: object, name: str) -> str:
    """The password as it is hashed (NFKC), or :class:`AccountRefused` naming the rule it breaks."""
    if not isinstance(password, str):
        raise AccountRefused(422, "bad_password", "a password must be text")
    tidy = unicodedata.normalize("NFKC", password)
    if not PASSWORD_MIN <= len(tidy) <= PASSWORD_MAX:
        raise AccountRefused(
            422, "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters (this one {len(tidy)})"
        )
    if tidy.casefold() == name.casefold():
        raise AccountRefused(422, "bad_password", "a password may not be the account's name")
    return tidy


class Accounts:
    """The accounts of one server: their rows in the store (through the server's database handle) and the
    password hashing pool."""

    def __init__(self, database: Database, limits: ServerLimits) -> None:
        self.database, self.limits = database, limits
        self.hasher = PasswordHasher(
            time_cost=limits.hash_passes, memory_cost=limits.hash_memory, parallelism=HASH_LANES
        )
        self._pool = ThreadPoolExecutor(max_workers=limits.hash_workers, thread_name_prefix="clubs-hash")
        self._waiting = 0
        self._fails = MovingWindowRateLimiter(MemoryStorage())
        self._fail_rate = parse(limits.login_account_rate)
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))  # what an unknown name is checked against

    def close(self) -> None:
        """Stop the hashing threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- hashing, off the event loop --------------------------------------------------------------------------
    async def off_loop(self, call: Callable[[*Ts], T], *args: *Ts) -> T:
        """``call(*args)`` in the pool of checking threads (a password's hash, a passkey's signature), never on the
        event loop; refused with ``busy`` when the pool and its queue are full."""
        if self._waiting >= self.limits.hash_workers + self.limits.hash_queue:
            raise AccountRefused(503, "busy", "the server is checking many sign-ins just now: try again in a moment")
        self._waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, call, *args)
        finally:
            self._waiting -= 1

    async def hash_password(self, password: str) -> str:
        """The Argon2id hash of a (checked) password."""
        return await self.off_loop(self.hasher.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(stored or self._dummy, password) and stored is not None
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        return await self.off_loop(check)

    # -- signing up and in ------------------------------------------------------------------------------------
    async def sign_up(self, name: object, password: object) -> User:
        """A new account, or :class:`AccountRefused` (the name's rule, a name taken or too like one, the password's
        rule)."""
        try:
            tidy = check_name(name)
        except InvalidOptionsError as exc:
            code = "unwelcome_name" if isinstance(name, str) and unwelcome(name) else "bad_name"
            raise AccountRefused(422, code, str(exc).replace("a display name", "an account's name")) from None
        digest = await self.hash_password(check_password(password, tidy))
        user = User(new_id(12), tidy, time.time(), False)

        def work(conn: Connection) -> None:
            conn.execute(
                insert(users).values(
                    id=user.id, name=tidy, name_key=name_key(tidy), password_hash=digest, created_at=user.created_at
                )
            )

        try:
            await self.database.write(work)
        except StaleWriteError:
            raise AccountRefused(
                409, "name_taken", "an account with that name, or one that looks the same, exists: choose another"
            ) from None
        return user

    async def sign_in(self, name: object, password: object) -> User:
        """The account ``name`` once its password is checked, or ``bad_login`` (the same words whether the name or
        the password was wrong), or ``login_wait`` after too many wrong passwords for that account."""
        key = name_key(name) if isinstance(name, str) and len(name) <= 100 else ""
        if not isinstance(password, str) or len(password) > 4 * PASSWORD_MAX:
            raise AccountRefused(401, "bad_login", "that name and password do not match an account")
        if key and not self._fails.test(self._fail_rate, "fail", key):
            raise AccountRefused(
                429,
                "login_wait",
                "too many wrong passwords for this account lately: wait a while, or ask the server's operator",
            )
        row = await self._by_name(name) if key else None
        stored = row.password_hash if row is not None else None
        if not await self._verify(stored, unicodedata.normalize("NFKC", password)) or row is None:
            if key:
                self._fails.hit(self._fail_rate, "fail", key)
            raise AccountRefused(401, "bad_login", "that name and password do not match an account")
        checked: str = row.password_hash
        if self.hasher.check_needs_rehash(checked):
            checked = await self._rehash(row.id, checked, unicodedata.normalize("NFKC", password))
        return User(row.id, row.name, row.created_at, False, checked)

    async def _rehash(self, user_id: str, old: str, password: str) -> str:
        """The password hashed again with today's settings, stored only where the account's hash is still ``old``
        (a password changed meanwhile is kept): the hash the account has now. Its sessions stay: the password is
        the same."""
        digest = await self.hash_password(password)

        def work(conn: Connection) -> str:
            done = conn.execute(
                update(users).where(users.c.id == user_id, users.c.password_hash == old).values(password_hash=digest)
            )
            return digest if done.rowcount else old

        written: str = await self.database.write(work)
        return written

    async def check(self, user: User, password: object) -> None:
        """Whether ``password`` is the account's (asked again before changing the password or deleting it)."""
        rows = await self.database.read(select(users.c.password_hash).where(users.c.id == user.id))
        if not isinstance(password, str) or len(password) > 4 * PASSWORD_MAX:
            raise AccountRefused(403, "bad_password", "that is not this account's password")
        if not rows or not await self._verify(rows[0].password_hash, unicodedata.normalize("NFKC", password)):
            raise AccountRefused(403, "bad_password", "that is not this account's password")

    async def set_password(self, user_id: str, password: str, keep: str | None) -> None:
        """Store a new password's hash and end every session of the account but ``keep`` (a public id)."""
        digest = await self.hash_password(password)

        def work(conn: Connection) -> None:
            conn.execute(update(users).where(users.c.id == user_id).values(password_hash=digest))
            ended = delete(sessions).where(sessions.c.user_id == user_id)
            if keep is not None:
                ended = ended.where(sessions.c.public_id != keep)
            conn.execute(ended)

        await self.database.write(work)

    # -- sessions ---------------------------------------------------------------------------------------------
    async def new_session(self, user: User, agent: str) -> tuple[str, Session]:
        """A new session: (the cookie's secret, the session)."""
        secret = secrets.token_urlsafe(32)
        now = time.time()
        made = Session(new_id(), user.id, secrets.token_urlsafe(24), now, now, agent[:AGENT_MAX])

        def work(conn: Connection) -> None:
            if user.checked is not None:
                # The account's row locked (PostgreSQL; SQLite writes one at a time): a password change waits for
                # this session, or this session sees the change and is refused.
                now_hash = conn.execute(
                    select(users.c.password_hash).where(users.c.id == user.id).with_for_update()
                ).scalar_one_or_none()
                if now_hash != user.checked:
                    raise AccountRefused(401, "bad_login", "that name and password do not match an account")
            conn.execute(
                insert(sessions).values(
                    id_hash=secret_hash(secret),
                    public_id=made.public_id,
                    user_id=user.id,
                    csrf=made.csrf,
                    created_at=now,
                    seen_at=now,
                    agent=made.agent,
                )
            )

        await self.database.write(work)
        return secret, made

    async def session(self, secret: str) -> tuple[Session, User] | None:
        """The live session a cookie's secret opens, with its account, or None (unknown, ended, or too old)."""
        if not 20 <= len(secret) <= 100:
            return None
        query = (
            select(sessions, users.c.name, users.c.created_at.label("user_created"))
            .join(users, users.c.id == sessions.c.user_id)
            .where(sessions.c.id_hash == secret_hash(secret), users.c.deleted_at.is_(None))
        )
        rows = await self.database.read(query)
        if not rows:
            return None
        r = rows[0]
        now = time.time()
        if now - r.seen_at > SESSION_DAYS * 86400:
            await self.end_session(r.user_id, r.public_id)
            return None
        if now - r.seen_at > SEEN_EVERY:
            await self.database.write(
                lambda conn: conn.execute(
                    update(sessions).where(sessions.c.public_id == r.public_id).values(seen_at=now)
                ),
            )
        found = Session(r.public_id, r.user_id, r.csrf, r.created_at, max(r.seen_at, now), r.agent)
        return found, User(r.user_id, r.name, r.user_created, False)

    async def sessions_of(self, user: User) -> list[Session]:
        """The account's sessions, the most recently used first."""
        rows = await self.database.read(
            select(sessions).where(sessions.c.user_id == user.id).order_by(sessions.c.seen_at.desc()),
        )
        return [Session(r.public_id, r.user_id, r.csrf, r.created_at, r.seen_at, r.agent) for r in rows]

    async def end_session(self, user_id: str, public_id: str) -> bool:
        """End one session of the account (another account's session is not found); whether one ended."""

        def work(conn: Connection) -> int:
            done = conn.execute(
                delete(sessions).where(sessions.c.user_id == user_id, sessions.c.public_id == public_id)
            )
            return int(done.rowcount)

        return bool(await self.database.write(work))

    # -- the seats an account holds, and deleting it -------------------------------------------------------------
    async def delete(self, user: User) -> None:
        """Delete the account: its sessions end, its passkeys go, its name is freed, its ratings (puzzle ratings,
        attempts and its own puzzles too) and the invitations counted toward its rate go, and its finished matches
        stay, their records and history naming the player "deleted player"."""

        def work(conn: Connection) -> None:
            conn.execute(delete(sessions).where(sessions.c.user_id == user.id))
            conn.execute(delete(puzzle_ratings).where(puzzle_ratings.c.user_id == user.id))
            conn.execute(delete(puzzle_attempts).where(puzzle_attempts.c.user_id == user.id))
            conn.execute(delete(own_puzzles).where(own_puzzles.c.user_id == user.id))
            conn.execute(delete(own_puzzle_sources).where(own_puzzle_sources.c.user_id == user.id))
            conn.execute(delete(passkeys).where(passkeys.c.user_id == user.id))
            conn.execute(delete(invitations_sent).where(invitations_sent.c.sender_id == user.id))
            subject = f"user:{user.id}"
            conn.execute(delete(ratings).where(ratings.c.subject == subject))
            conn.execute(delete(rating_history).where(rating_history.c.subject == subject))
            played = conn.execute(
                select(match_players.c.table_id, match_players.c.match_no, match_players.c.seat).where(
                    match_players.c.user_id == user.id
                )
            ).all()
            for table_id, match_no, seat in played:
                where = (matches.c.table_id == table_id, matches.c.match_no == match_no)
                record = conn.execute(select(matches.c.record).where(*where)).scalar()
                if record is not None:
                    conn.execute(update(matches).where(*where).values(record=renamed(record, seat)))
            conn.execute(update(match_players).where(match_players.c.user_id == user.id).values(name=DELETED_NAME))
            conn.execute(update(seats).where(seats.c.user_id == user.id).values(name=DELETED_NAME))
            conn.execute(
                update(users)
                .where(users.c.id == user.id)
                .values(name=DELETED_NAME, name_key=None, password_hash=None, deleted_at=time.time())
            )

        await self.database.write(work)

    async def user_by_name(self, name: str) -> User | None:
        """The (not deleted) account a name opens, or None."""
        if len(name) > 100:
            return None
        row = await self._by_name(name)
        return User(row.id, row.name, row.created_at, False) if row is not None else None

    async def _by_name(self, name: object) -> StoredRow | None:
        """The live account row a name reaches, or None: the account of exactly that name (its tidy form) if there
        is one, else the account whose name is the same name (:func:`name_key`). Two live accounts share a key
        only where they were made before the key was what it is now (migration 0007 kept the older one's key and
        set the later ones apart): each still signs in under its own exact name."""
        if not isinstance(name, str) or len(name) > 100:
            return None
        key = name_key(name)
        try:
            exact = check_name(name)
        except InvalidOptionsError:
            exact = None
        found = users.c.name_key == key
        if exact is not None:
            found = or_(found, and_(users.c.name == exact, users.c.deleted_at.is_(None)))
        rows = await self.database.read(select(users).where(found))
        named = [r for r in rows if r.name == exact]
        return named[0] if named else next((r for r in rows if r.name_key == key), None)


def renamed(record: str, seat: int) -> str:
    """A stored record with one seat's player named :data:`DELETED_NAME` (the record's ``seats`` and its result's
    per-seat names)."""
    data = json.loads(record)
    seat_list = data.get("seats")
    if isinstance(seat_list, list) and 0 <= seat < len(seat_list) and isinstance(seat_list[seat], dict):
        seat_list[seat]["name"] = DELETED_NAME
    result = data.get("result")
    if isinstance(result, dict):
        for value in result.values():
            fits = isinstance(value, list) and len(value) == len(seat_list or []) and isinstance(value[seat], dict)
            if fits and "name" in value[seat]:
                value[seat]["name"] = DELETED_NAME
    return json.dumps(data)


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two tokens."""
    return hmac.compare_digest(a.encode(), b.encode())
