"""The club nights' routes (``/clubnights/...``): hosting, entering, seating the next round, an entrant's seat and
the standings (:mod:`clubsuite.server.community.clubnight` keeps the nights)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.server.community.clubnight import NightSettings
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import AccountsDep, NightsDep
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.table.live import Refused

Id = Annotated[str, Path(max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class NightIn(_Strict):
    """A new club night."""

    game: str = Field(..., max_length=200, description="a game's name, a variant or a rules spec (GET /games)")
    tables: int = Field(2, description="tables playing the same deals each round, 2 to 20")
    rounds: int = Field(1, description="rounds, 1 to 10")
    pairing: str = Field("swiss", max_length=20, description="swiss (by the standings from round 2) or random")
    bot: str = Field("normal", max_length=100, description="the bot level of the seats no entrant fills")
    bot_delay: float = Field(0.5, description="seconds a bot waits before acting, 0 to 10")


class EnterIn(_Strict):
    """Entering a club night (a guest gives a display name; an account plays under its own)."""

    name: str | None = Field(None, max_length=100)


class EntrantIn(_Strict):
    """An entrant's token (the answer of entering)."""

    token: str = Field(..., min_length=1, max_length=200)


router = APIRouter()
"""The club nights' routes."""


def refused(exc: Refused | ClubsError) -> HTTPException:
    """A night's refusal as an HTTP error: 404 no such night, 403 not its host, 409 otherwise; 400 bad rules."""
    if isinstance(exc, Refused):
        return HTTPException(
            404 if exc.code == "no_clubnight" else 403 if exc.code == "not_host" else 409,
            {"code": exc.code, "message": str(exc)},
        )
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


async def host(accounts: Accounts, request: Request) -> User:
    """The signed-in account, which hosts or changes a night (``signed_out`` for a guest)."""
    found = await signed_in(accounts, request, True)
    if found is None:
        raise AccountRefused(401, "signed_out", "sign in to host a club night")
    return found[1]


@router.post("/clubnights", status_code=201)
async def create_night(body: NightIn, request: Request, accounts: AccountsDep, nights: NightsDep) -> JsonObject:
    """Host a club night (signed in): a duplicate tournament whose tables play the same deals each round."""
    user = await host(accounts, request)
    try:
        night = await nights.create(
            user, NightSettings.read(body.game, body.tables, body.rounds, body.pairing, body.bot, body.bot_delay)
        )
        return await nights.view(night)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None


@router.get("/clubnights/{night_id}")
async def night_view(night_id: Id, nights: NightsDep) -> JsonObject:
    """A club night: its settings, entrants, rounds (who sits where) and standings."""
    try:
        return await nights.view(night_id)
    except Refused as exc:
        raise refused(exc) from None


@router.post("/clubnights/{night_id}/enter")
async def enter_night(
    night_id: Id, body: EnterIn, request: Request, accounts: AccountsDep, nights: NightsDep
) -> JsonObject:
    """Enter a club night before its first round: the answer's token finds your seat each round (keep it)."""
    found = await signed_in(accounts, request, True)
    user = found[1] if found is not None else None
    if user is None and body.name is None:
        raise HTTPException(422, {"code": "bad_request", "message": "'name': a display name is needed (or sign in)"})
    try:
        entrant, token = await nights.enter(night_id, body.name, user)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None
    return {"entrant": entrant, "token": token}


@router.post("/clubnights/{night_id}/bots")
async def add_bot(night_id: Id, request: Request, accounts: AccountsDep, nights: NightsDep) -> JsonObject:
    """Fill a seat with a bot entrant (the host, before the first round): it plays like an entrant and is placed
    in the standings."""
    user = await host(accounts, request)
    try:
        await nights.add_bot(night_id, user)
        return await nights.view(night_id)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None


@router.post("/clubnights/{night_id}/rounds")
async def next_round(night_id: Id, request: Request, accounts: AccountsDep, nights: NightsDep) -> JsonObject:
    """Seat the next round (the host, once every table has finished the last one)."""
    user = await host(accounts, request)
    try:
        await nights.start_round(night_id, user, client_address(request.scope))
        return await nights.view(night_id)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None


@router.post("/clubnights/{night_id}/seat")
async def my_seat(night_id: Id, body: EntrantIn, nights: NightsDep) -> JsonObject:
    """An entrant's seat in the round in play (its table, seat number and seat token), by the entrant's token."""
    try:
        seat = await nights.seat_of(night_id, body.token)
    except Refused as exc:
        raise refused(exc) from None
    if seat is None:
        raise HTTPException(403, {"code": "bad_token", "message": "that token is no entrant's of this club night"})
    return seat


@router.get("/clubnights/{night_id}/standings.json")
async def standings_json(night_id: Id, nights: NightsDep) -> JsonObject:
    """The standings, as JSON."""
    view = await night_view(night_id, nights)
    return {k: view[k] for k in ("id", "host", "game", "tables", "rounds", "pairing", "over", "standings")}


@router.get("/clubnights/{night_id}/standings.csv")
async def standings_csv(night_id: Id, nights: NightsDep) -> Response:
    """The standings, as CSV (a spreadsheet opens it)."""
    try:
        text = await nights.csv(night_id)
    except Refused as exc:
        raise refused(exc) from None
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="clubnight-{night_id}.csv"'},
    )
