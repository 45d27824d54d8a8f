"""Passkeys (WebAuthn): an account may add passkeys and then sign in with one instead of its password.

The checking is the well-kept ``webauthn`` package's (py_webauthn): it reads the browser's answer, checks the
challenge, the site (the relying party) and the page's origin, the authenticator's signature and its counter. What
this module adds is the server's part around it:

* **Tickets.** Every ceremony starts with options that carry a fresh random challenge; the server keeps the
  challenge under a one-use *ticket* for :data:`TICKET_SECONDS` (in memory, as tables are: a restart only means
  asking again), bounded in number (:data:`TICKETS_MAX`, then ``busy``). Adding a passkey's ticket belongs to the
  account that asked for it; a signed-in account holds one at a time, an address a few sign-in tickets. A ticket
  is spent by the first answer, right or wrong, so a captured answer cannot be sent again.
* **The site.** The relying party is the name the page was reached by (the ``Host``, which the guard lets through
  only for ``localhost``, an IP address or a name given with ``--allow-host``). Browsers refuse passkeys for an IP
  address, so a server reached by one says so (``no_passkeys``); ``localhost`` works over plain HTTP, any other name
  needs HTTPS (a browser's rule). The answer's origin must be that name's ``https://`` origin (or
  ``http://localhost``).
* **The person.** Passkeys are made and used with user verification (a PIN, a fingerprint, a face): a passkey stands
  in for a password, not for a second factor. They are discoverable (kept on the authenticator with the account's
  id), so signing in needs no name typed; the id the authenticator returns must be the passkey's account's.
* **Copies.** An authenticator that counts its uses must show a larger count each time; one that goes back means a
  copied key, and the sign-in is refused (also when two sign-ins race: the counter is written only forwards).
* **The password.** Adding a passkey asks the account's password again, as deleting the account does: a session
  left open, or stolen, cannot add a way in of its own that would outlast a change of the password.
* **Bounds.** At most :data:`PASSKEYS_MAX` passkeys an account; the checks run in the accounts' pool of threads,
  off the event loop; the routes' rates are the guard's (``login`` for signing in).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    decode_credential_public_key,
    decoded_public_key_to_cryptography,
)
from webauthn.helpers.parse_authentication_credential_json import parse_authentication_credential_json
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from clubsuite.jsonform import JsonObject
from clubsuite.server.people.accounts import AGENT_MAX, AccountRefused, Accounts, User
from clubsuite.server.store.database import StaleWriteError
from clubsuite.server.store.dbschema import passkeys, users

TICKET_SECONDS = 180.0
"""How long the options of a ceremony stay good: the browser's prompt, and a person finding their key."""
TICKETS_MAX = 2000
"""Ceremonies open at once, for the whole server (each a few dozen bytes; the guard bounds each address's rate)."""
TICKETS_PER_ADDRESS = 5
"""Sign-in ceremonies one address may hold open (a sixth drops its oldest), so that a few addresses cannot hold them
all."""
PASSKEYS_MAX = 10
"""Passkeys one account may hold."""
ID_MAX = 256
"""The longest credential id kept, in base64url characters (192 bytes; authenticators make 16 to 64)."""
SITE_NAME = "Clubs"
"""The relying party's name, as an authenticator may show it."""


@dataclass(frozen=True)
class Passkey:
    """One of an account's passkeys, as its page lists it (the key itself is never shown)."""

    id: str
    label: str
    created_at: float
    used_at: float | None


@dataclass(frozen=True)
class _Ticket:
    challenge: bytes
    site: str
    user_id: str | None  # the account adding a passkey; None for signing in
    address: str  # the address that asked
    expires: float


def site_of(host: str) -> tuple[str, list[str]]:
    """The relying party's id and the origins an answer may come from, for a request sent to ``host`` (its
    ``Host`` header); ``no_passkeys`` for an IP address, which browsers do not accept for passkeys."""
    name = host.strip().lower()
    bare = name[1:].split("]", 1)[0] if name.startswith("[") else name.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(bare)
    except ValueError:
        if bare:  # plain HTTP is a secure context at localhost only: any other name answers over HTTPS
            return bare, [f"http://{name}", f"https://{name}"] if bare == "localhost" else [f"https://{name}"]
    raise AccountRefused(
        400,
        "no_passkeys",
        "passkeys need this server reached by a name (localhost, or its name over HTTPS), not by an IP address",
    )


def _answer_refused(exc: Exception) -> AccountRefused:
    return AccountRefused(400, "bad_passkey", f"the passkey's answer was refused: {str(exc)[:200]}")


def _checked(check: Callable[[], Any]) -> Callable[[], Any]:
    """``check`` made to return, rather than raise, whatever it raises: everything that goes wrong in reading and
    checking an answer is the answer's fault (the library raises its own errors, and also ``IndexError`` and the
    like for a key of a strange shape), and is told as a refusal, never a server error."""

    def run() -> Any:
        try:
            return check()
        except Exception as exc:
            return _Failed(exc)

    return run


@dataclass(frozen=True)
class _Failed:
    exc: Exception


class Passkeys:
    """The passkeys of one server's accounts, and the ceremonies under way."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._tickets: dict[str, _Ticket] = {}

    # -- tickets --------------------------------------------------------------------------------------------------
    def _issue(self, challenge: bytes, site: str, user_id: str | None, address: str) -> str:
        now = time.monotonic()
        if len(self._tickets) >= TICKETS_MAX:
            for key in [k for k, t in self._tickets.items() if t.expires < now]:
                del self._tickets[key]
        if user_id is not None:  # one ceremony at a time for an account adding a passkey
            for key in [k for k, t in self._tickets.items() if t.user_id == user_id]:
                del self._tickets[key]
        else:  # a few sign-ins at a time for an address, its oldest dropped (the dict keeps the order of issue)
            mine = [k for k, t in self._tickets.items() if t.user_id is None and t.address == address]
            for key in mine[: max(0, len(mine) - TICKETS_PER_ADDRESS + 1)]:
                del self._tickets[key]
        if len(self._tickets) >= TICKETS_MAX:
            raise AccountRefused(503, "busy", "many people are signing in just now: try again in a moment")
        ticket = secrets.token_urlsafe(18)
        self._tickets[ticket] = _Ticket(challenge, site, user_id, address, now + TICKET_SECONDS)
        return ticket

    def _spend(self, ticket: str, site: str, user_id: str | None) -> _Ticket:
        """The ticket's ceremony, spent (it cannot be used again), or ``bad_ticket``."""
        found = self._tickets.pop(ticket, None)
        if found is None or found.expires < time.monotonic() or found.site != site or found.user_id != user_id:
            raise AccountRefused(400, "bad_ticket", "this passkey request has expired or was already used: start again")
        return found

    def open_tickets(self) -> int:
        """How many ceremonies are open (for the tests and the operator)."""
        return len(self._tickets)

    # -- adding a passkey -----------------------------------------------------------------------------------------
    async def registration(self, user: User, host: str, password: object, address: str) -> JsonObject:
        """The options for the browser to make a passkey for ``user`` (``{"ticket", "options"}``), once the account's
        ``password`` is given again: a session left open, or stolen, cannot add its own way in that would outlast a
        change of the password."""
        site, _ = site_of(host)
        await self.accounts.check(user, password)
        held = await self.of(user)
        if len(held) >= PASSKEYS_MAX:
            raise AccountRefused(
                409, "too_many_passkeys", f"an account holds at most {PASSKEYS_MAX} passkeys: remove one first"
            )
        options = generate_registration_options(
            rp_id=site,
            rp_name=SITE_NAME,
            user_id=user.id.encode("utf-8"),
            user_name=user.name,
            user_display_name=user.name,
            timeout=int(TICKET_SECONDS * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                require_resident_key=True,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id)) for p in held],
        )
        ticket = self._issue(options.challenge, site, user.id, address)
        return {"ticket": ticket, "options": json.loads(options_to_json(options))}

    async def register(self, user: User, host: str, ticket: str, credential: JsonObject, agent: str) -> Passkey:
        """Check the browser's new passkey against the ticket's challenge and keep it for ``user``."""
        site, origins = site_of(host)
        spent = self._spend(ticket, site, user.id)

        def check() -> Any:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=spent.challenge,
                expected_rp_id=site,
                expected_origin=origins,
                require_user_verification=True,
            )
            # the key must be one a signature can be checked with, or the passkey would never sign in
            decoded_public_key_to_cryptography(decode_credential_public_key(verified.credential_public_key))
            return verified

        verified = await self.accounts.off_loop(_checked(check))
        if isinstance(verified, _Failed):
            raise _answer_refused(verified.exc)
        made = Passkey(bytes_to_base64url(verified.credential_id), agent[:AGENT_MAX], time.time(), None)
        if len(made.id) > ID_MAX:
            raise AccountRefused(400, "bad_passkey", f"a passkey's id has at most {ID_MAX} characters here")

        def work(conn: Connection) -> None:
            # The account's row is held first (PostgreSQL; SQLite writes one at a time), so that two passkeys added at
            # once are counted one after the other and the bound holds.
            conn.execute(select(users.c.id).where(users.c.id == user.id).with_for_update())
            count = conn.execute(select(passkeys.c.id).where(passkeys.c.user_id == user.id)).all()
            if len(count) >= PASSKEYS_MAX:
                raise AccountRefused(
                    409, "too_many_passkeys", f"an account holds at most {PASSKEYS_MAX} passkeys: remove one first"
                )
            conn.execute(
                insert(passkeys).values(
                    id=made.id,
                    user_id=user.id,
                    public_key=bytes_to_base64url(verified.credential_public_key),
                    sign_count=int(verified.sign_count),
                    label=made.label,
                    created_at=made.created_at,
                )
            )

        try:
            await self.accounts.database.write(work)
        except StaleWriteError:  # kept by an account already: said as any other refusal, telling nothing of whose
            raise AccountRefused(400, "bad_passkey", "the passkey's answer was refused: it cannot be added") from None
        return made

    # -- the account's passkeys -----------------------------------------------------------------------------------
    async def of(self, user: User) -> list[Passkey]:
        """The account's passkeys, the newest first."""
        rows = await self.accounts.database.read(
            select(passkeys).where(passkeys.c.user_id == user.id).order_by(passkeys.c.created_at.desc()),
        )
        return [Passkey(r.id, r.label, r.created_at, r.used_at) for r in rows]

    async def remove(self, user: User, passkey_id: str) -> bool:
        """Remove one of the account's passkeys (another account's is not found); whether one went."""

        def work(conn: Connection) -> int:
            done = conn.execute(delete(passkeys).where(passkeys.c.user_id == user.id, passkeys.c.id == passkey_id))
            return int(done.rowcount)

        return bool(await self.accounts.database.write(work))

    # -- signing in -----------------------------------------------------------------------------------------------
    def sign_in_options(self, host: str, address: str) -> JsonObject:
        """The options for the browser to sign in with any passkey it holds for this site (``address``, the one
        asking, holds at most :data:`TICKETS_PER_ADDRESS` of them open)."""
        site, _ = site_of(host)
        options = generate_authentication_options(
            rp_id=site,
            timeout=int(TICKET_SECONDS * 1000),
            user_verification=UserVerificationRequirement.REQUIRED,
        )
        ticket = self._issue(options.challenge, site, None, address)
        return {"ticket": ticket, "options": json.loads(options_to_json(options))}

    async def sign_in(self, host: str, ticket: str, credential: JsonObject) -> User:
        """The account whose passkey answered the ticket's challenge; ``bad_passkey`` (one set of words whatever
        was wrong with it) otherwise."""
        site, origins = site_of(host)
        spent = self._spend(ticket, site, None)
        refused = AccountRefused(401, "bad_passkey", "that passkey does not open an account here")
        parsed = _checked(lambda: parse_authentication_credential_json(credential))()
        if isinstance(parsed, _Failed):
            raise _answer_refused(parsed.exc)
        key_id = bytes_to_base64url(parsed.raw_id)
        query = (
            select(passkeys, users.c.name, users.c.created_at.label("user_created"))
            .join(users, users.c.id == passkeys.c.user_id)
            .where(passkeys.c.id == key_id, users.c.deleted_at.is_(None))
        )
        rows = await self.accounts.database.read(query)
        if not rows:
            raise refused
        row = rows[0]
        handle = parsed.response.user_handle  # required: nobody was named before this ceremony (WebAuthn, 7.2 step 6)
        if handle is None or not hmac.compare_digest(handle, row.user_id.encode("utf-8")):
            raise refused

        def check() -> Any:
            return verify_authentication_response(
                credential=parsed,
                expected_challenge=spent.challenge,
                expected_rp_id=site,
                expected_origin=origins,
                credential_public_key=base64url_to_bytes(row.public_key),
                credential_current_sign_count=int(row.sign_count),
                require_user_verification=True,
            )

        verified = await self.accounts.off_loop(_checked(check))
        if isinstance(verified, _Failed):
            raise refused
        now, count = time.time(), int(verified.new_sign_count)
        # Written only if the passkey is still there (not removed, its account not deleted, meanwhile) and its counter
        # has not moved past this one (two sign-ins at once with one counting key: the later counter wins, the
        # other is refused).
        moved_on = passkeys.c.sign_count < count if count else passkeys.c.sign_count == 0

        def work(conn: Connection) -> int:
            done = conn.execute(
                update(passkeys)
                .where(passkeys.c.id == key_id, passkeys.c.user_id == row.user_id, moved_on)
                .values(sign_count=count, used_at=now)
            )
            return int(done.rowcount)

        if await self.accounts.database.write(work) != 1:
            raise refused
        return User(row.user_id, row.name, row.user_created, False)
