"""The turn-based tables' routes: the signed-in player's tables (``GET /turns``: those waiting for them first, with
the time left), their count for every page's bar, and the players' own switches at a table (resume an adjourned
match, auto-play of forced moves). docs/server.md, "Turn-based tables"."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.jsonform import JsonObject
from clubsuite.server.http.lobby import refusal
from clubsuite.server.http.services import AccountsDep, HubDep, TurnsDep
from clubsuite.server.http.sessions import need, signed_in
from clubsuite.server.people.accounts import User
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.turns.listing import turn_count, turn_list

router = APIRouter()
TableId = Annotated[str, Path(max_length=40)]


class AutoplayIn(BaseModel):
    """Switching auto-play of forced moves."""

    model_config = ConfigDict(extra="forbid", strict=True)
    on: bool = Field(..., description="true: a move with one legal action is played for you at once")


@router.get("/turns")
async def my_turns(request: Request, accounts: AccountsDep, turns: TurnsDep) -> JsonObject:
    """The signed-in account's turn-based tables: ``waiting`` (how many wait for its move) and ``tables``, those
    waiting for it first (the soonest deadline first), then the others (the latest change first)."""
    _, user = await need(accounts, request, False)
    now = await turns.measure()
    return await turns.database.reading(lambda conn: turn_list(conn, user.id, now))


@router.get("/turns/count")
async def my_turn_count(request: Request, accounts: AccountsDep, turns: TurnsDep) -> JsonObject:
    """How many turn-based tables wait for the signed-in account's move (0 when signed out): every page's bar."""
    found = await signed_in(accounts, request, False)
    if found is None:
        return {"waiting": 0}
    user_id = found[1].id
    return {"waiting": await turns.database.reading(lambda conn: turn_count(conn, user_id))}


async def _my_seat(table_id: str, request: Request, accounts: AccountsDep, hub: Hub) -> tuple[LiveTable, int, User]:
    """The table (served here: a request about it woke it) and the seat the signed-in account holds at it."""
    _, user = await need(accounts, request, True)
    table = await hub.serving(table_id)
    seat = next((s.seat for s in table.seats if s.user_id == user.id), None) if table is not None else None
    if table is None or seat is None or not table.settings.turn_based:
        raise refusal(Refused("no_seat", "you hold no seat at a turn-based table of that id"))
    return table, seat, user


@router.post("/tables/{table_id}/turn/resume")
async def resume(
    table_id: TableId, request: Request, accounts: AccountsDep, hub: HubDep, turns: TurnsDep
) -> JsonObject:
    """Go on with an adjourned match (any player seated at it may): the clock of the player to act starts again,
    whole."""
    table, _, _ = await _my_seat(table_id, request, accounts, hub)
    if not table.adjourned:
        raise refusal(Refused("not_adjourned", "this match is not adjourned: its clock runs"))
    try:
        await turns.resume(table)
    except Refused as exc:
        raise refusal(exc) from None
    return {"table": table.id, "adjourned": table.adjourned}


@router.post("/tables/{table_id}/turn/autoplay")
async def autoplay(
    table_id: TableId, body: AutoplayIn, request: Request, accounts: AccountsDep, hub: HubDep, turns: TurnsDep
) -> JsonObject:
    """Switch auto-play of your forced moves at this table (a move with one legal action is played at once)."""
    table, seat, _ = await _my_seat(table_id, request, accounts, hub)
    try:
        await turns.autoplay(table, seat, body.on)
    except Refused as exc:
        raise refusal(exc) from None
    return {"table": table.id, "seat": seat, "autoplay": body.on}
