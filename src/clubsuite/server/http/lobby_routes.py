"""The lobby's routes: the games, the tables (making, listing, joining, quick play, the guided hand, leaving, a
rematch, a finished match's record) and each table's WebSocket at ``/tables/{id}/ws`` (``docs/protocol.md``).

Their bodies are pydantic models read strictly; a refusal of the table (:class:`~clubsuite.server.table.live.Refused`)
is answered with its code and plain words, under the status :data:`STATUS` gives it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, WebSocket
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from clubsuite import naming
from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import lobby_order
from clubsuite.engine import games, resolve
from clubsuite.errors import ClubsError
from clubsuite.ratings import Skill
from clubsuite.safetext import quoted
from clubsuite.schema.build import game_schemas
from clubsuite.schema.parts import options_schema
from clubsuite.server.http.account_routes import COOKIE, need, signed_in
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.player_routes import rating_json
from clubsuite.server.people.accounts import Accounts, User
from clubsuite.server.people.results import match_results
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.table.lobbycast import Lobbycast
from clubsuite.server.table.seating import SeatRequest
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.table.socket import serve_socket


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


STATUS = {
    "no_table": 404,
    "no_match": 404,
    "bad_token": 403,
    "not_over": 409,
    "too_many_tables": 429,
    "server_full": 503,
}
"""The HTTP status of each refusal of the lobby (409 for the others: the table's state does not allow it)."""
LOBBY_LIST = 100
"""The most tables ``GET /tables`` lists (those waiting for players first, then the newest)."""


Invite = Annotated[str | None, Query(max_length=64, description="a private table's invite code")]
"""The invite code a private table's id needs beside it."""


def _refusal(exc: Refused | ClubsError) -> HTTPException:
    if isinstance(exc, Refused):
        return HTTPException(STATUS.get(exc.code, 409), {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


class Lobby:
    """What the lobby's routes and the pages share: the hub's tables as a stranger may find them, who is signed in,
    a finished match's stored record; ``listing`` the other processes' public tables, where several serve the
    database."""

    def __init__(self, hub: Hub, accounts: Accounts, listing: Lobbycast | None = None) -> None:
        self.hub = hub
        self.accounts = accounts
        self.listing = listing

    async def who(self, request: Request) -> User | None:
        """The signed-in account of a request that changes something (its CSRF token checked), or None."""
        found = await signed_in(self.accounts, request, True)
        return found[1] if found is not None else None

    async def account_of(self, request: Request) -> str | None:
        """The signed-in account of a request that only reads (no CSRF token asked), for its review budget."""
        found = await signed_in(self.accounts, request, False)
        return found[1].id if found is not None else None

    def find(self, table_id: str, invite: str | None = None, token: str | None = None) -> LiveTable:
        """The table ``table_id``, where the asker may know of it: a private table answers as if it did not exist
        unless its invite code or one of its seat tokens comes with the id."""
        table = self.hub.tables.get(table_id)
        if table is None or not self.hub.may_see(table, invite, token):
            raise HTTPException(404, {"code": "no_table", "message": f"there is no table {quoted(table_id, 40)}"})
        return table

    async def stored_record(self, table_id: str, match_no: int | None, invite: str | None) -> str:
        try:
            if table_id not in self.hub.tables:  # closed: its finished matches' records are kept, and stay reachable
                return await self.hub.closed_record(table_id, match_no, invite)
            return await self.hub.record(self.find(table_id, invite), match_no)
        except Refused as exc:
            raise _refusal(exc) from None

    async def results(
        self, table_id: str, match_no: int | None, invite: str | None, token: str | None = None
    ) -> dict[str, Any]:
        """A finished match's results as its end-of-match box shows them: every seat's place and points and, at a
        rated table, its rating before and after (who is rated for a seat: see ``people.results``). A private
        table's: with its invite code, or a seat token of it (a guided hand's or a club night's player has no
        invite)."""
        try:
            if table_id in self.hub.tables:
                self.find(table_id, invite, token)
            else:
                await self.hub.closed_access(table_id, invite)
        except Refused as exc:
            raise _refusal(exc) from None
        number, rated, seats = await self.hub.db(self.hub.store.reading, lambda c: match_results(c, table_id, match_no))
        if not seats:
            raise _refusal(Refused("not_over", "this match has no result yet: it is still being played"))

        def rating(found: tuple[Skill, int] | None, person: bool) -> dict[str, Any] | None:
            return None if found is None else rating_json(found[0].mu, found[0].sigma, found[1], person)

        return {
            "match": number,
            "rated": rated,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "place": s.place,
                    "points": s.points,
                    "won": s.won,
                    "left": s.left,
                    "before": rating(s.before, s.person),
                    "after": rating(s.after, s.person),
                }
                for s in seats
            ],
        }

    async def join(self, table: LiveTable, body: JoinIn, user: User | None) -> dict[str, Any]:
        try:
            seat, token = await self.hub.seating.join(table, _name(body.name, user), body.seat, user)
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}


def router(lobby: Lobby) -> APIRouter:
    """The lobby's routes over ``lobby``."""
    routes = APIRouter()
    hub, who, find, join_table, listing = lobby.hub, lobby.who, lobby.find, lobby.join, lobby.listing

    @routes.get("/games")
    async def list_games() -> list[dict[str, Any]]:
        """The games, their seat counts, named variants (with the options each sets), options (a JSON Schema each:
        type, range or choices, default, description with its ruling) and bots; beside them the words a person
        reads (``naming``): the game's ``label`` and ``summary``, each option's ``label``, ``help``, ``rule`` (the
        ruling id, for a "why?"), ``default_label`` and a choice's ``choices``, each variant's words
        (``variant_choices``) and each bot's (``bot_choices``); ``showcase``, a few cards that picture the game on
        its tile in the lobby; ``units``, what a tournament's table may play (``match``, ``hand``, ``short``) and about
        how many minutes each takes people."""
        schemas = {info.name: part for info, part in game_schemas()}
        out: list[dict[str, Any]] = []
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

    @routes.post("/tables", status_code=201)
    async def create(body: TableIn, request: Request) -> dict[str, Any]:
        """Make a table; the answer holds its id and invite code (take a seat with ``/tables/{id}/join``, or, at a
        private table, ``/invites/{code}/join``)."""
        try:
            settings = TableSettings(
                public=body.public,
                spectators=body.spectators,
                clock=body.clock,
                grace=body.grace,
                bot_delay=body.bot_delay,
                hints=body.hints,
                rated=body.rated,
            )
            info, options = resolve(body.game)
            n = info.n_seats(options)
            given = body.seats
            seats = [SeatRequest(s.kind, s.bot) for s in given] if given is not None else [SeatRequest("person")] * n
            await who(request)  # a signed-in maker's request carries its CSRF token
            table = await hub.create_table(body.game, seats, settings, creator=client_address(request.scope))
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {**table.summary(), "invite": table.invite}

    @routes.get("/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """The public tables (at most 100: those waiting for players first, then the newest), this process's and,
        where several processes share the database, the others' as they published them."""
        listed = [(t.created_at, t.summary()) for t in hub.tables.values() if t.settings.public]
        if listing is not None:
            listed += listing.entries()
        listed.sort(key=lambda entry: (not entry[1].get("waiting"), -entry[0]))
        return [summary for _, summary in listed[:LOBBY_LIST]]

    @routes.get("/presence")
    async def presence() -> dict[str, int]:
        """How many people are seated at a table whose match is not over, and at how many tables, over the whole
        site (every process's count, as each published it): what the lobby shows as "playing now"."""
        people, tables = hub.presence()
        if listing is not None:
            more_people, more_tables = listing.presence()
            people, tables = people + more_people, tables + more_tables
        return {"people": people, "tables": tables}

    @routes.get("/tables/{table_id}")
    async def table_info(table_id: str, invite: Invite = None) -> dict[str, Any]:
        """One table, as anyone may see it (a private table: with its invite code)."""
        return find(table_id, invite).summary()

    @routes.get("/invites/{code}")
    async def invite_info(code: Annotated[str, Path(max_length=64)]) -> dict[str, Any]:
        """The table an invite code opens, as anyone may see it."""
        try:
            return hub.by_invite(code).summary()
        except Refused as exc:
            raise _refusal(exc) from None

    @routes.post("/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        """Take a seat at a public table: the answer holds the seat token (keep it: it is the only way back to the
        seat). A private table is joined by its invite only. Signed in, the seat is the account's, under its name
        (a rated table seats accounts only)."""
        return await join_table(
            find(table_id), body, await who(request)
        )  # a private table is not found by its id alone

    @routes.post("/tables/{table_id}/seat")
    async def account_seat(
        table_id: Annotated[str, Path(max_length=64)], request: Request, body: HeldSeatIn | None = None
    ) -> dict[str, Any]:
        """The seat the signed-in account holds at this table, with a fresh seat token (the seat's old token opens
        it no more): how a seat taken for an account (a tournament's table) is reached from any page, and how a
        player who lost the token comes back. ``{"seat": null, "token": null}`` where the account holds none, or
        there is no such table (the two are answered alike; a page asks it of every table it opens without a token,
        so that "none" is an answer, not an error)."""
        _, user = await need(lobby.accounts, request, True)
        table = hub.tables.get(table_id)
        try:
            if table is None:
                raise Refused("no_seat", "no seat")
            seat, token = await hub.seating.token_for(table, user.id, body.seat if body is not None else None)
        except Refused as exc:
            if exc.code != "no_seat":
                raise _refusal(exc) from None
            return {"table": table_id, "seat": None, "token": None}
        return {"table": table.id, "seat": seat, "token": token}

    @routes.post("/invites/{code}/join")
    async def join_by_invite(
        code: Annotated[str, Path(max_length=64)], body: JoinIn, request: Request
    ) -> dict[str, Any]:
        """Take a seat at the table an invite code opens."""
        user = await who(request)
        try:
            table = hub.by_invite(code)
        except Refused as exc:
            raise _refusal(exc) from None
        return await join_table(table, body, user)

    @routes.post("/quickplay")
    async def quickplay(body: QuickIn, request: Request) -> dict[str, Any]:
        """Take a seat at once at a table of a game: a public table of it waiting for players, or else a new public
        table with you in seat 0 and normal bots in the others (its match starts at once). The answer is a join's
        (keep the token). Counted as a table made and as a seat taken by the rate limits."""
        try:
            user = await who(request)
            table, seat, token = await hub.seating.quickplay(
                body.game, _name(body.name, user), creator=client_address(request.scope), user=user
            )
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    @routes.post("/tutorial")
    async def tutorial(body: QuickIn, request: Request) -> dict[str, Any]:
        """The guided first hand of a game: a new private table with the coach on (every step explained), you in
        seat 0 and easy bots in the others, dealt the game's tutorial deal; the answer is a join's (keep the token).
        Counted as a table made and a seat taken by the rate limits."""
        try:
            user = await who(request)
            table, seat, token = await hub.seating.tutorial(
                body.game, _name(body.name, user), creator=client_address(request.scope), user=user
            )
        except (ClubsError, Refused) as exc:
            raise _refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}

    @routes.post("/tables/{table_id}/leave")
    async def leave(table_id: str, body: TokenIn, request: Request) -> dict[str, Any]:
        """Give up a seat (its bot plays it until someone else takes it). At a rated table, leaving a match before
        its end counts as finishing it last."""
        await who(request)
        try:
            seat = await hub.seating.leave(find(table_id, token=body.token), body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return {"table": table_id, "seat": seat}

    @routes.post("/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: TokenIn, request: Request) -> dict[str, Any]:
        """Start the next match with the same seats, once the match is over."""
        await who(request)
        table = find(table_id, token=body.token)
        try:
            await hub.seating.rematch(table, body.token)
        except Refused as exc:
            raise _refusal(exc) from None
        return table.summary()

    @routes.get("/tables/{table_id}/record.json")
    async def record(
        table_id: str, match: Annotated[int | None, Query(ge=0)] = None, invite: Invite = None
    ) -> Response:
        """The record of a finished match (the last one by default), in the format ``clubs replay`` reads (a
        private table's: with its invite code)."""
        return Response(await lobby.stored_record(table_id, match, invite), media_type="application/json")

    @routes.get("/tables/{table_id}/results")
    async def results(
        table_id: str,
        match: Annotated[int | None, Query(ge=0)] = None,
        invite: Invite = None,
        x_seat_token: Annotated[str | None, Header(max_length=200)] = None,
    ) -> dict[str, Any]:
        """A finished match's results (the last one by default): each seat's name, place, points, whether it won or
        left, and at a rated table its rating before and after the match (a private table's: with its invite
        code, or one of its seat tokens in the header ``X-Seat-Token``); 409 ``not_over`` while the match is being
        played."""
        return await lobby.results(table_id, match, invite, x_seat_token)

    @routes.websocket("/tables/{table_id}/ws")
    async def socket(ws: WebSocket, table_id: str) -> None:
        secret = ws.cookies.get(COOKIE)
        found = await lobby.accounts.session(secret) if secret else None
        viewer = found[1].id if found is not None else None
        await serve_socket(hub, ws, table_id, client_address(ws.scope), viewer)

    return routes


def _name(name: str | None, user: User | None) -> object:
    """The display name a guest gave (a signed-in player's seat takes the account's name instead)."""
    if user is None and name is None:
        raise HTTPException(422, {"code": "bad_request", "message": "'name': a display name is needed (or sign in)"})
    return name
