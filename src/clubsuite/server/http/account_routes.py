"""The account routes of the lobby (``/account/...``); how every route finds who is signed in is
:mod:`~clubsuite.server.http.sessions`'.

A session is carried by the ``clubs_session`` cookie (HttpOnly, SameSite=Lax, Secure over TLS); a request that
changes something and carries it must also carry the session's CSRF token in the ``X-CSRF-Token`` header (the page
reads it from ``GET /account``), or it is refused with 403 ``bad_csrf`` and nothing changes. (The guard already
refuses a POST from another site's page by its ``Origin``: the token is the second lock, for browsers or proxies
that drop the header.) Signing up or in always starts a new session and ends the one the browser sent, if any.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.jsonform import JsonObject
from clubsuite.server.http.services import AccountsDep, HubDep
from clubsuite.server.http.sessions import COOKIE, need, signed_in
from clubsuite.server.people.accounts import SESSION_DAYS, AccountRefused, Accounts, Session, User, check_password
from clubsuite.server.table.hub import Hub

TOKENS_MAX = 20
"""Seat tokens a browser may hand over at once, to bring its tables to the account."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class SignUpIn(_Strict):
    """A new account: its name and password, and the seat tokens the browser holds (those seats become the
    account's: a guest's table carries over)."""

    name: str = Field(..., max_length=100, description="1 to 24 letters, digits, spaces and - _ . '")
    password: str = Field(..., max_length=1024, description="8 to 256 characters, not the name")
    tokens: list[str] = Field(default_factory=list, max_length=TOKENS_MAX, description="seat tokens to bring along")


class SignInIn(SignUpIn):
    """Signing in (the seat tokens as for signing up)."""


class PasswordIn(_Strict):
    """Changing the password: the present one, and the new one."""

    password: str = Field(..., max_length=1024)
    new_password: str = Field(..., max_length=1024, description="8 to 256 characters, not the name")


class ConfirmIn(_Strict):
    """A request confirmed with the account's password (deleting it)."""

    password: str = Field(..., max_length=1024)


class ClaimIn(_Strict):
    """Seat tokens whose seats become the signed-in account's."""

    tokens: list[str] = Field(..., max_length=TOKENS_MAX)


def _secure(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: Request, secret: str) -> None:
    """Give the browser its session cookie."""
    response.set_cookie(
        COOKIE,
        secret,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=_secure(request),
    )


def clear_cookie(response: Response, request: Request) -> None:
    """Take the session cookie back."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request))


def account_json(user: User, session: Session) -> JsonObject:
    """What the page learns of the signed-in account."""
    return {"signed_in": True, "id": user.id, "name": user.name, "created_at": user.created_at, "csrf": session.csrf}


async def begin(
    accounts: Accounts, hub: Hub, request: Request, user: User, tokens: list[str], status: int
) -> JSONResponse:
    """Sign ``user`` in: a new session and its cookie (the session the browser sent, if any, ends: a planted or
    stale cookie is never carried over), and the seats of ``tokens`` made the account's."""
    old = request.cookies.get(COOKIE)
    if old:
        prior = await accounts.session(old)
        if prior is not None:
            await accounts.end_session(prior[1].id, prior[0].public_id)
    secret, session = await accounts.new_session(user, request.headers.get("user-agent", ""))
    claimed = await hub.seating.claim(tokens, user.id)
    response = JSONResponse({**account_json(user, session), "seats": claimed}, status_code=status)
    set_cookie(response, request, secret)
    return response


router = APIRouter()
"""The account routes; their refusals (:class:`AccountRefused`) are answered by :func:`refused`."""


@router.post("/account/signup", status_code=201)
async def sign_up(body: SignUpIn, request: Request, accounts: AccountsDep, hub: HubDep) -> JSONResponse:
    """Make an account and sign in to it; the seats of the tokens given become the account's."""
    user = await accounts.sign_up(body.name, body.password)
    return await begin(accounts, hub, request, user, body.tokens, 201)


@router.post("/account/login")
async def sign_in(body: SignInIn, request: Request, accounts: AccountsDep, hub: HubDep) -> JSONResponse:
    """Sign in: a new session (the cookie); the seats of the tokens given become the account's."""
    user = await accounts.sign_in(body.name, body.password)
    return await begin(accounts, hub, request, user, body.tokens, 200)


@router.post("/account/logout")
async def sign_out(request: Request, accounts: AccountsDep) -> JSONResponse:
    """End this session."""
    session, user = await need(accounts, request, True)
    await accounts.end_session(user.id, session.public_id)
    response = JSONResponse({"signed_in": False})
    clear_cookie(response, request)
    return response


@router.get("/account")
async def me(request: Request, accounts: AccountsDep) -> JsonObject:
    """The signed-in account, with the CSRF token the page sends with every change; ``{"signed_in": false}``
    for a guest (an answer, not a refusal: every page asks it)."""
    found = await signed_in(accounts, request, False)
    if found is None:
        return {"signed_in": False}
    return account_json(found[1], found[0])


@router.get("/account/sessions")
async def session_list(request: Request, accounts: AccountsDep) -> list[JsonObject]:
    """The account's sessions (the browser each was started in, when, last used), this one marked."""
    session, user = await need(accounts, request, False)
    return [
        {
            "id": s.public_id,
            "agent": s.agent,
            "created_at": s.created_at,
            "seen_at": s.seen_at,
            "current": s.public_id == session.public_id,
        }
        for s in await accounts.sessions_of(user)
    ]


@router.post("/account/sessions/{public_id}/end")
async def end(public_id: Annotated[str, Path(max_length=40)], request: Request, accounts: AccountsDep) -> JsonObject:
    """End one of the account's sessions (signs that browser out)."""
    _, user = await need(accounts, request, True)
    if not await accounts.end_session(user.id, public_id):
        raise AccountRefused(404, "no_session", "this account has no such session")
    return {"ended": public_id}


@router.post("/account/password")
async def change_password(body: PasswordIn, request: Request, accounts: AccountsDep) -> JsonObject:
    """Change the password (the present one asked again); every other session ends."""
    session, user = await need(accounts, request, True)
    await accounts.check(user, body.password)
    await accounts.set_password(user.id, check_password(body.new_password, user.name), keep=session.public_id)
    return {"changed": True}


@router.post("/account/claim")
async def claim(body: ClaimIn, request: Request, accounts: AccountsDep, hub: HubDep) -> JsonObject:
    """Make the seats of these tokens the signed-in account's (a guest's table carries over)."""
    _, user = await need(accounts, request, True)
    return {"seats": await hub.seating.claim(body.tokens, user.id)}


@router.post("/account/delete")
async def delete_account(body: ConfirmIn, request: Request, accounts: AccountsDep, hub: HubDep) -> JSONResponse:
    """Delete the account (its password asked again): its seats at open tables are given up, its sessions end,
    its name is freed, its ratings go; its finished matches stay as records under "deleted player"."""
    _, user = await need(accounts, request, True)
    await accounts.check(user, body.password)
    await hub.seating.give_up_seats_of(user.id)
    await accounts.delete(user)
    response = JSONResponse({"deleted": True})
    clear_cookie(response, request)
    return response


async def refused(_: Any, exc: Exception) -> JSONResponse:
    """An account's refusal (:class:`AccountRefused`) as its status, code and plain words; the application installs
    it (a router has no exception handlers of its own)."""
    assert isinstance(exc, AccountRefused)
    return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)
