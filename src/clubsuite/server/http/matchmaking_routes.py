"""The rated queue's routes (``/rated/queue``), signed in only; a change carries the CSRF token
(:mod:`clubsuite.server.community.matchmaking` keeps the queue)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import AccountsDep, MatchmakerDep
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.table.live import Refused


class QueueIn(BaseModel):
    """Joining the rated queue."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str = Field(..., max_length=200, description="a game's name, a variant or a rules spec (GET /games)")


router = APIRouter()
"""The rated queue's routes (signed in only; a change carries the CSRF token)."""


async def need(accounts: Accounts, request: Request, changes: bool) -> User:
    """The signed-in account (``signed_out`` for a guest: the queue is rated)."""
    found = await signed_in(accounts, request, changes)
    if found is None:
        raise AccountRefused(401, "signed_out", "sign in to play rated")
    return found[1]


def refused(exc: Refused | ClubsError) -> HTTPException:
    """The queue's refusal as an HTTP error: 409 (503 while the server is busy), 400 for bad rules."""
    if isinstance(exc, Refused):
        return HTTPException(409 if exc.code != "busy" else 503, {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


@router.post("/rated/queue")
async def queue(body: QueueIn, request: Request, accounts: AccountsDep, matchmaker: MatchmakerDep) -> JsonObject:
    """Wait for a rated table of a game: people of close rating are seated together; after a while, bots of
    the nearest rating fill the rest. Ask ``GET /rated/queue`` for the seat."""
    user = await need(accounts, request, True)
    try:
        await matchmaker.join(user, body.game, client_address(request.scope))
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None
    return matchmaker.status(user)


@router.get("/rated/queue")
async def queue_status(request: Request, accounts: AccountsDep, matchmaker: MatchmakerDep) -> JsonObject:
    """Where the signed-in account stands in the rated queue; once seated, the table, seat and token (given
    once)."""
    return matchmaker.status(await need(accounts, request, False))


@router.post("/rated/queue/leave")
async def queue_leave(request: Request, accounts: AccountsDep, matchmaker: MatchmakerDep) -> JsonObject:
    """Stop waiting for a rated table."""
    return {"left": matchmaker.leave(await need(accounts, request, True))}
