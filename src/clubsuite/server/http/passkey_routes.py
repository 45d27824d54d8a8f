"""The passkey routes of the lobby: adding, listing and removing an account's passkeys, and signing in with one.

Each ceremony is two calls: ``.../options`` gives the browser a ticket and the options for
``navigator.credentials.create()`` or ``.get()`` (WebAuthn's JSON form), and the second call sends the ticket back
with the browser's answer. Adding and removing need the signed-in session and its CSRF token, as every change does;
signing in makes a new session exactly as a password does (``account_routes.begin``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.jsonform import JsonObject
from clubsuite.server.http.account_routes import TOKENS_MAX, begin
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import AccountsDep, HubDep, PasskeysDep
from clubsuite.server.http.sessions import need
from clubsuite.server.people.accounts import AccountRefused
from clubsuite.server.people.passkeys import ID_MAX, Passkey


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    ticket: str = Field(..., max_length=40, description="the ticket the options came with")
    credential: JsonObject = Field(..., description="the browser's answer, in WebAuthn's JSON form")


class PasskeyPasswordIn(BaseModel):
    """The account's password, asked again before a passkey is added."""

    model_config = ConfigDict(extra="forbid", strict=True)

    password: str = Field(..., max_length=1024)


class AddIn(_Answer):
    """A new passkey: the ticket of its options and the browser's answer to ``navigator.credentials.create()``."""


class PasskeySignInIn(_Answer):
    """Signing in with a passkey: the ticket and the answer to ``navigator.credentials.get()``, and the seat tokens
    the browser holds (their seats become the account's)."""

    tokens: list[str] = Field(default_factory=list, max_length=TOKENS_MAX)


def passkey_json(p: Passkey) -> JsonObject:
    """A passkey as the account's page lists it (never its key)."""
    return {"id": p.id, "agent": p.label, "created_at": p.created_at, "used_at": p.used_at}


router = APIRouter()
"""The passkey routes (their refusals are :class:`AccountRefused`, answered by the account routes)."""


def host(request: Request) -> str:
    """The site's name as the browser reached it: a passkey is bound to it."""
    return request.headers.get("host", "")


@router.post("/account/passkeys/options")
async def add_options(
    body: PasskeyPasswordIn, request: Request, accounts: AccountsDep, keys: PasskeysDep
) -> JsonObject:
    """Options to make a passkey for the signed-in account (a ticket and ``publicKey`` options), its password
    asked again."""
    _, user = await need(accounts, request, True)
    return await keys.registration(user, host(request), body.password, client_address(request.scope))


@router.post("/account/passkeys", status_code=201)
async def add(body: AddIn, request: Request, accounts: AccountsDep, keys: PasskeysDep) -> JsonObject:
    """Keep the passkey the browser made with the ticket's options."""
    _, user = await need(accounts, request, True)
    made = await keys.register(user, host(request), body.ticket, body.credential, request.headers.get("user-agent", ""))
    return passkey_json(made)


@router.get("/account/passkeys")
async def listed(request: Request, accounts: AccountsDep, keys: PasskeysDep) -> list[JsonObject]:
    """The signed-in account's passkeys: the browser each was made in, when, when last used."""
    _, user = await need(accounts, request, False)
    return [passkey_json(p) for p in await keys.of(user)]


@router.post("/account/passkeys/{passkey_id}/delete")
async def remove(
    passkey_id: Annotated[str, Path(max_length=ID_MAX)], request: Request, accounts: AccountsDep, keys: PasskeysDep
) -> JsonObject:
    """Remove one of the account's passkeys (it no longer signs in)."""
    _, user = await need(accounts, request, True)
    if not await keys.remove(user, passkey_id):
        raise AccountRefused(404, "no_passkey", "this account has no such passkey")
    return {"removed": passkey_id}


@router.post("/account/passkey-login/options")
async def sign_in_options(request: Request, keys: PasskeysDep) -> JsonObject:
    """Options to sign in with a passkey (any this browser holds for this site)."""
    return keys.sign_in_options(host(request), client_address(request.scope))


@router.post("/account/passkey-login")
async def sign_in(
    body: PasskeySignInIn, request: Request, accounts: AccountsDep, keys: PasskeysDep, hub: HubDep
) -> JSONResponse:
    """Sign in with a passkey: a new session (the cookie), as a password's sign-in makes."""
    user = await keys.sign_in(host(request), body.ticket, body.credential)
    return await begin(accounts, hub, request, user, body.tokens, 200)
