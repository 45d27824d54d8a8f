"""The lobby's routes: the games, the tables (making, listing, joining, quick play, the guided hand, leaving, a
rematch, a finished match's record) and each table's WebSocket at ``/tables/{id}/ws`` (``docs/protocol.md``).

Their bodies are pydantic models read strictly; a refusal of the table (:class:`~clubsuite.server.table.live.Refused`)
is answered with its code and plain words, under the status :data:`~clubsuite.server.http.lobby.STATUS` gives it.
The routes are those of one module-level router; the services each needs come as FastAPI dependencies
(:mod:`~clubsuite.server.http.services`)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Header, Path, Query, Request, WebSocket
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from clubsuite import naming
from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import lobby_order
from clubsuite.engine import games, resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.schema.build import game_schemas
from clubsuite.schema.parts import options_schema
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.lobby import display_name, refusal
from clubsuite.server.http.services import AccountsDep, HubDep, LobbyDep, TurnsDep
from clubsuite.server.http.sessions import COOKIE, need
from clubsuite.server.people.accounts import User
from clubsuite.server.store.dbschema import SeatKind
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.table.socket import serve_socket
from clubsuite.server.turns.keeper import Keeper


class _Strict(BaseModel):
    """A request body read strictly: a field of the wrong type or one that does not belong is refused (422), never
    coerced or ignored; numbers are finite."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class SeatIn(_Strict):
    """One seat of a new table."""

    kind: Literal["person", "bot"] = Field("person", description="person (taken later by someone joining) or bot")
    bot: str | None = Field(
        None, max_length=100, description="the bot that plays the seat (a bot seat, or a person's while away)"
    )


class TableIn(_Strict):
    """A new table: the game with its options, its seats and its house rules."""

    game: str = Field(
        ...,
        max_length=200,
        description="a rules spec: a game or variant name, options in brackets (GET /games lists them)",
    )
    seats: list[SeatIn] | None = Field(None, max_length=12, description="one per seat; default: every seat a person's")
    public: bool = Field(True, description="listed in the lobby; a private table is joined and watched by invite only")
    spectators: bool = True
    clock: float | None = Field(None, description="seconds per decision, or null for no clock")
    grace: float = Field(30.0, description="seconds before a bot plays an absent player's seat")
    bot_delay: float = Field(0.5, description="seconds a bot waits before acting")
    hints: bool = Field(False, description="a seat may ask for a hint: the heuristic bot's choice from its own view")
    rated: bool = Field(
        False, description="the matches count for ratings: accounts only, no hints, leaving a match counts as last"
    )
    pace: float | None = Field(
        None,
        description="a turn-based table: seconds of a player's clock for one move (43200, 86400, 172800, 259200, "
        "432000, 604800 or 1209600); null: a live table. Made and joined by signed-in accounts only",
    )
    on_timeout: Literal["bot", "adjourn", "lose"] = Field(
        "bot",
        description="at a turn-based table, what a clock running out does: the seat's bot plays that move, the match "
        "is adjourned, or the late player loses the match",
    )


class JoinIn(_Strict):
    """Taking a seat."""

    name: str | None = Field(
        None,
        max_length=100,
        description="a display name: 1 to 24 letters, digits, spaces and - _ . ' (not needed when signed in: the "
        "account's name is used)",
    )
    seat: int | None = Field(None, ge=0, le=99, description="the seat wanted (default: the lowest free one)")


class QuickIn(_Strict):
    """Quick play: a seat at a table of a game, now."""

    game: str = Field(
        ...,
        max_length=200,
        description="a game's name (a table of that game with any rules), or a variant or rules spec (exactly those "
        "rules); GET /games lists them",
    )
    name: str | None = Field(
        None, max_length=100, description="a display name (not needed when signed in: the account's name is used)"
    )


class TokenIn(_Strict):
    """A request made with a seat token."""

    token: str = Field(..., min_length=1, max_length=200)


class HeldSeatIn(_Strict):
    """Which of the seats the account holds at a table (it may hold several at a table that is not rated)."""

    seat: int | None = Field(None, ge=0, le=9, description="the seat wanted; null: the account's lowest")


LOBBY_LIST = 100
"""The most tables ``GET /tables`` lists (those waiting for players first, then the newest)."""


Invite = Annotated[str | None, Query(max_length=64, description="a private table's invite code")]
"""The invite code a private table's id needs beside it."""


router = APIRouter()
"""The lobby's routes; each gets the application's :class:`~clubsuite.server.http.lobby.Lobby` (and hub) as a
dependency."""


@router.get("/games")
async def list_games() -> list[JsonObject]:
    """The games, their seat counts, named variants, options and bots, with the words a person reads beside them
    (:func:`games_listing`)."""
    return games_listing()


def games_listing() -> list[JsonObject]:
    """The games, their seat counts, named variants (with the options each sets), options (a JSON Schema each:
    type, range or choices, default, description with its ruling) and bots; beside them the words a person
    reads (``naming``): the game's ``label`` and ``summary``, each option's ``label``, ``help``, ``rule`` (the
    ruling id, for a "why?"), ``default_label`` and a choice's ``choices``, each variant's words
    (``variant_choices``) and each bot's (``bot_choices``); ``showcase``, a few cards that picture the game on
    its tile in the lobby; ``units``, what a tournament's table may play (``match``, ``hand``, ``short``) and about
    how many minutes each takes people."""
    schemas = {info.name: part for info, part in game_schemas()}
    out: list[JsonObject] = []
    for g in games():
        part = schemas.get(g.name)
        options = options_schema(g.options_class, part.option_ranges)["properties"] if part is not None else {}
        bots = lobby_order(bot_names(g.name))
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "label": naming.game_words(g).title,
                "summary": g.summary,
                "seats": list(g.seats),
                "variants": sorted(g.variants),
                "variant_options": {name: dict(opts) for name, opts in sorted(g.variants.items())},
                "variant_choices": naming.variants_with_words(g),
                "options": naming.options_with_words(g, options),
                "examples": list(g.examples),
                "showcase": list(g.showcase),
                "bots": bots,
                "bot_choices": naming.bots_with_words(bots),
                # what a tournament's table may play, with about how many minutes each takes people
                "units": {"match": g.match_minutes, **{name: u.minutes for name, u in g.units.items()}},
            }
        )
    return out


@router.post("/tables", status_code=201)
async def create(body: TableIn, request: Request, lobby: LobbyDep, turns: TurnsDep) -> JsonObject:
    """Make a table; the answer holds its id and invite code (take a seat with ``/tables/{id}/join``, or, at a
    private table, ``/invites/{code}/join``). A turn-based table (``pace``) is made by a signed-in account, within
    its share of turn-based tables."""
    try:
        settings = TableSettings(
            public=body.public,
            spectators=body.spectators,
            clock=body.clock,
            grace=body.grace,
            bot_delay=body.bot_delay,
            hints=body.hints,
            rated=body.rated,
            pace=body.pace,
            on_timeout=body.on_timeout,
        )
        info, options = resolve(body.game)
        n = info.n_seats(options)
        given = body.seats
        seats = (
            [SeatRequest(SeatKind(s.kind), s.bot) for s in given]
            if given is not None
            else [SeatRequest(SeatKind.PERSON)] * n
        )
        maker = await lobby.who(request)  # a signed-in maker's request carries its CSRF token
        if settings.turn_based:
            if maker is None:
                raise Refused("sign_in", "a turn-based table is made by a signed-in account: sign in first")
            await turns.room_for(maker.id)
        table = await lobby.hub.create_table(body.game, seats, settings, creator=client_address(request.scope))
        if maker is not None and settings.turn_based:
            await turns.made(table, maker.id)
    except (ClubsError, Refused) as exc:
        raise refusal(exc) from None
    return {**table.summary(), "invite": table.invite}


@router.get("/tables")
async def list_tables(lobby: LobbyDep) -> list[JsonObject]:
    """The public tables (at most 100: those waiting for players first, then the newest), this process's and,
    where several processes share the database, the others' as they published them."""
    listed = [(t.created_at, t.summary()) for t in lobby.hub.tables.values() if t.settings.public]
    if lobby.listing is not None:
        listed += lobby.listing.entries()
    listed.sort(key=lambda entry: (not entry[1].get("waiting"), -entry[0]))
    return [summary for _, summary in listed[:LOBBY_LIST]]


@router.get("/presence")
async def presence(lobby: LobbyDep) -> dict[str, int]:
    """How many people are seated at a table whose match is not over, and at how many tables, over the whole
    site (every process's count, as each published it): what the lobby shows as "playing now"."""
    people, tables = lobby.hub.presence()
    if lobby.listing is not None:
        more_people, more_tables = lobby.listing.presence()
        people, tables = people + more_people, tables + more_tables
    return {"people": people, "tables": tables}


@router.get("/tables/{table_id}")
async def table_info(table_id: str, lobby: LobbyDep, invite: Invite = None) -> JsonObject:
    """One table, as anyone may see it (a private table: with its invite code)."""
    return lobby.find(table_id, invite).summary()


@router.get("/invites/{code}")
async def invite_info(code: Annotated[str, Path(max_length=64)], hub: HubDep) -> JsonObject:
    """The table an invite code opens, as anyone may see it."""
    try:
        return hub.by_invite(code).summary()
    except Refused as exc:
        raise refusal(exc) from None


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinIn, request: Request, lobby: LobbyDep, turns: TurnsDep) -> JsonObject:
    """Take a seat at a public table: the answer holds the seat token (keep it: it is the only way back to the
    seat). A private table is joined by its invite only. Signed in, the seat is the account's, under its name
    (a rated table, and a turn-based one, seat accounts only)."""
    table = lobby.find(table_id)  # a private table is not found by its id alone
    user = await lobby.who(request)
    await _turn_room(table, user, turns)
    return await lobby.join(table, body.name, body.seat, user)


async def _turn_room(table: LiveTable, user: User | None, turns: Keeper) -> None:
    """Refuse a seat at a turn-based table to an account that holds as many as it may (a guest is refused by the
    table itself, with its words)."""
    if table.settings.turn_based and user is not None:
        try:
            await turns.room_for(user.id, table.id)
        except Refused as exc:
            raise refusal(exc) from None


@router.post("/tables/{table_id}/seat")
async def account_seat(
    table_id: Annotated[str, Path(max_length=64)],
    request: Request,
    accounts: AccountsDep,
    hub: HubDep,
    body: HeldSeatIn | None = None,
) -> JsonObject:
    """The seat the signed-in account holds at this table, with a fresh seat token (the seat's old token opens
    it no more): how a seat taken for an account (a tournament's table) is reached from any page, and how a
    player who lost the token comes back. ``{"seat": null, "token": null}`` where the account holds none, or
    there is no such table (the two are answered alike; a page asks it of every table it opens without a token,
    so that "none" is an answer, not an error)."""
    _, user = await need(accounts, request, True)
    table = hub.tables.get(table_id)
    try:
        if table is None:
            raise Refused("no_seat", "no seat")
        seat, token = await hub.seating.token_for(table, user.id, body.seat if body is not None else None)
    except Refused as exc:
        if exc.code != "no_seat":
            raise refusal(exc) from None
        return {"table": table_id, "seat": None, "token": None}
    return {"table": table.id, "seat": seat, "token": token}


@router.post("/invites/{code}/join")
async def join_by_invite(
    code: Annotated[str, Path(max_length=64)], body: JoinIn, request: Request, lobby: LobbyDep, turns: TurnsDep
) -> JsonObject:
    """Take a seat at the table an invite code opens."""
    user = await lobby.who(request)
    try:
        table = lobby.hub.by_invite(code)
    except Refused as exc:
        raise refusal(exc) from None
    await _turn_room(table, user, turns)
    return await lobby.join(table, body.name, body.seat, user)


@router.post("/quickplay")
async def quickplay(body: QuickIn, request: Request, lobby: LobbyDep) -> JsonObject:
    """Take a seat at once at a table of a game: a public table of it waiting for players, or else a new public
    table with you in seat 0 and normal bots in the others (its match starts at once). The answer is a join's
    (keep the token). Counted as a table made and as a seat taken by the rate limits."""
    try:
        user = await lobby.who(request)
        table, seat, token = await lobby.hub.seating.quickplay(
            body.game, display_name(body.name, user), creator=client_address(request.scope), user=user
        )
    except (ClubsError, Refused) as exc:
        raise refusal(exc) from None
    return {"table": table.id, "seat": seat, "token": token}


@router.post("/tutorial")
async def tutorial(body: QuickIn, request: Request, lobby: LobbyDep) -> JsonObject:
    """The guided first hand of a game: a new private table with the coach on (every step explained), you in
    seat 0 and easy bots in the others, dealt the game's tutorial deal; the answer is a join's (keep the token).
    Counted as a table made and a seat taken by the rate limits."""
    try:
        user = await lobby.who(request)
        table, seat, token = await lobby.hub.seating.tutorial(
            body.game, display_name(body.name, user), creator=client_address(request.scope), user=user
        )
    except (ClubsError, Refused) as exc:
        raise refusal(exc) from None
    return {"table": table.id, "seat": seat, "token": token}


@router.post("/tables/{table_id}/leave")
async def leave(table_id: str, body: TokenIn, request: Request, lobby: LobbyDep) -> JsonObject:
    """Give up a seat (its bot plays it until someone else takes it). At a rated table, leaving a match before
    its end counts as finishing it last."""
    await lobby.who(request)
    try:
        seat = await lobby.hub.seating.leave(lobby.find(table_id, token=body.token), body.token)
    except Refused as exc:
        raise refusal(exc) from None
    return {"table": table_id, "seat": seat}


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, body: TokenIn, request: Request, lobby: LobbyDep) -> JsonObject:
    """Start the next match with the same seats, once the match is over."""
    await lobby.who(request)
    table = lobby.find(table_id, token=body.token)
    try:
        await lobby.hub.seating.rematch(table, body.token)
    except Refused as exc:
        raise refusal(exc) from None
    return table.summary()


@router.get("/tables/{table_id}/record.json")
async def record(
    table_id: str, lobby: LobbyDep, match: Annotated[int | None, Query(ge=0)] = None, invite: Invite = None
) -> Response:
    """The record of a finished match (the last one by default), in the format ``clubs replay`` reads (a
    private table's: with its invite code)."""
    return Response(await lobby.stored_record(table_id, match, invite), media_type="application/json")


@router.get("/tables/{table_id}/results")
async def results(
    table_id: str,
    lobby: LobbyDep,
    match: Annotated[int | None, Query(ge=0)] = None,
    invite: Invite = None,
    x_seat_token: Annotated[str | None, Header(max_length=200)] = None,
) -> JsonObject:
    """A finished match's results (the last one by default): each seat's name, place, points, whether it won or
    left, and at a rated table its rating before and after the match (a private table's: with its invite
    code, or one of its seat tokens in the header ``X-Seat-Token``); 409 ``not_over`` while the match is being
    played."""
    return await lobby.results(table_id, match, invite, x_seat_token)


@router.websocket("/tables/{table_id}/ws")
async def socket(ws: WebSocket, table_id: str, lobby: LobbyDep) -> None:
    """A table's socket (docs/protocol.md): a signed-in viewer is known by the session cookie."""
    secret = ws.cookies.get(COOKIE)
    found = await lobby.accounts.session(secret) if secret else None
    viewer = found[1].id if found is not None else None
    await serve_socket(lobby.hub, ws, table_id, client_address(ws.scope), viewer)
