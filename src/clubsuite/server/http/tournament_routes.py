"""The tournaments' routes (``/tournaments/...``): the list, making one, entering and withdrawing, starting, an
entrant's seat, the standings and their downloads (:mod:`clubsuite.server.community.tournaments` keeps them,
:mod:`clubsuite.server.community.directing` pairs them)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.server.community.tournaments import TournamentSettings
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import AccountsDep, TournamentsDep
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.table.live import Refused

Id = Annotated[str, Path(max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class TournamentIn(_Strict):
    """A new tournament."""

    format: str = Field(..., max_length=20, description="arena (a fixed time) or swiss (rounds)")
    game: str = Field(..., max_length=200, description="a game's name, a variant or a rules spec (GET /games)")
    name: str | None = Field(None, max_length=200, description="what it is called (else the game and the format)")
    minutes: int | None = Field(None, description="an arena's length, 5 to 240 minutes (30 when not given)")
    rounds: int | None = Field(None, description="a Swiss tournament's rounds, 1 to 15 (5 when not given)")
    rated: bool = Field(False, description="whether its tables count for ratings")
    bots: bool = Field(True, description="whether bots fill a table that would be short (their seats score nothing)")
    bot: str = Field("normal", max_length=100, description="the level of those bots")
    bot_delay: float = Field(0.5, description="seconds a bot waits before acting, 0 to 10")
    starts_at: float | None = Field(None, description="when it starts (seconds since 1970); null: its host starts it")
    unit: str | None = Field(
        None,
        max_length=20,
        description="what each table plays: hand (one hand), short (a short match) or match (a whole match); "
        "default: an arena one hand, a Swiss tournament a short match",
    )


router = APIRouter()
"""The tournaments' routes; the tournaments (``keeper``) and accounts come as dependencies."""


def refused(exc: Refused | ClubsError) -> HTTPException:
    """A tournament's refusal as an HTTP error: 404 none, 403 not its host, 409 otherwise; 400 bad rules."""
    if isinstance(exc, Refused):
        status = {"no_tournament": 404, "not_host": 403}.get(exc.code, 409)
        return HTTPException(status, {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


async def account(accounts: Accounts, request: Request, changes: bool, why: str) -> User:
    """The signed-in account (``signed_out``, saying ``why``, for a guest)."""
    found = await signed_in(accounts, request, changes)
    if found is None:
        raise AccountRefused(401, "signed_out", why)
    return found[1]


@router.get("/tournaments")
async def listing(keeper: TournamentsDep) -> JsonObject:
    """The tournaments not over (running first, then by start) and the latest finished ones."""
    return {"tournaments": await keeper.listing()}


@router.post("/tournaments", status_code=201)
async def create(body: TournamentIn, request: Request, accounts: AccountsDep, keeper: TournamentsDep) -> JsonObject:
    """Make a tournament (signed in; an account has at most three that are not over, and makes at most six a
    day)."""
    user = await account(accounts, request, True, "sign in to make a tournament")
    try:
        settings = TournamentSettings.read(
            body.format,
            body.game,
            body.name,
            body.minutes,
            body.rounds,
            body.rated,
            body.bots,
            body.bot,
            body.bot_delay,
            body.starts_at,
            unit=body.unit,
        )
        made = await keeper.create(user, settings, client_address(request.scope))
        return await keeper.view(made, user)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None


@router.get("/tournaments/{tournament_id}")
async def view(
    tournament_id: Id,
    request: Request,
    accounts: AccountsDep,
    keeper: TournamentsDep,
    page: Annotated[int, Query(ge=0, le=100)] = 0,
) -> JsonObject:
    """A tournament: settings, status, times, a page of the standings (and, signed in, your own line)."""
    found = await signed_in(accounts, request, False)
    try:
        return await keeper.view(tournament_id, found[1] if found else None, page)
    except Refused as exc:
        raise refused(exc) from None


@router.post("/tournaments/{tournament_id}/join")
async def join(tournament_id: Id, request: Request, accounts: AccountsDep, keeper: TournamentsDep) -> JsonObject:
    """Enter a tournament (or come back to it after withdrawing)."""
    user = await account(accounts, request, True, "sign in to play in a tournament")
    try:
        await keeper.join(tournament_id, user)
        return await keeper.view(tournament_id, user)
    except (Refused, ClubsError) as exc:
        raise refused(exc) from None


@router.post("/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: Id, request: Request, accounts: AccountsDep, keeper: TournamentsDep) -> JsonObject:
    """Withdraw (an arena's entrant is paused: points kept, join again to come back)."""
    user = await account(accounts, request, True, "sign in first")
    try:
        await keeper.withdraw(tournament_id, user)
        return await keeper.view(tournament_id, user)
    except Refused as exc:
        raise refused(exc) from None


@router.post("/tournaments/{tournament_id}/start")
async def start(tournament_id: Id, request: Request, accounts: AccountsDep, keeper: TournamentsDep) -> JsonObject:
    """Start it now (its host)."""
    user = await account(accounts, request, True, "sign in first")
    try:
        await keeper.start(tournament_id, user)
        return await keeper.view(tournament_id, user)
    except Refused as exc:
        raise refused(exc) from None


@router.get("/tournaments/{tournament_id}/seat")
async def seat(
    tournament_id: Id, request: Request, response: Response, accounts: AccountsDep, keeper: TournamentsDep
) -> JsonObject:
    """The signed-in entrant's table now: its id and seat number (``{"table": null}`` between tables), whichever
    process answers; the seat's token comes from the table (``POST /tables/{id}/seat``). Never kept by a cache
    (it changes as the tournament goes on)."""
    response.headers["cache-control"] = "no-store"
    user = await account(accounts, request, False, "sign in first")
    return await keeper.seat_of(tournament_id, user.id)


@router.get("/tournament-tables/{table_id}")
async def of_table(table_id: Id, keeper: TournamentsDep) -> JsonObject:
    """The tournament (or club night) a table plays for: ``{"table", "tournament": {"id", "format"}}``, or
    ``"tournament": null`` for any other id, whichever process answers (read from the store, never passed on to
    the table's owner), so that a tournament table's page opened cold still shows its tournament."""
    return await keeper.of_table(table_id)


@router.get("/tournaments/{tournament_id}/standings.json")
async def standings_json(tournament_id: Id, keeper: TournamentsDep) -> JsonObject:
    """The whole standings, as JSON."""
    try:
        return await keeper.standings_json(tournament_id)
    except Refused as exc:
        raise refused(exc) from None


@router.get("/tournaments/{tournament_id}/standings.csv")
async def standings_csv(tournament_id: Id, keeper: TournamentsDep) -> Response:
    """The whole standings, as CSV (a spreadsheet opens it)."""
    try:
        text = await keeper.csv(tournament_id)
    except Refused as exc:
        raise refused(exc) from None
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="tournament-{tournament_id}.csv"'},
    )
