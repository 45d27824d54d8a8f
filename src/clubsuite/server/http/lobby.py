"""What the lobby's routes and the pages share (:class:`Lobby`): the hub's tables as a stranger may find them, who is
signed in, a finished match's stored record and results; and how a refusal of the table becomes an HTTP answer
(:data:`STATUS`).

A refusal of the table (:class:`~clubsuite.server.table.live.Refused`) is answered with its code and plain words,
under the status :data:`STATUS` gives it; one of the rules (:class:`~clubsuite.errors.ClubsError`) with 400."""

from __future__ import annotations

from fastapi import HTTPException, Request

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.ratings import Skill
from clubsuite.safetext import quoted
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import Accounts, User
from clubsuite.server.people.results import match_results, rating_json
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import LiveTable, Refused
from clubsuite.server.table.lobbycast import Lobbycast

STATUS = {
    "no_table": 404,
    "no_match": 404,
    "bad_token": 403,
    "not_over": 409,
    "too_many_tables": 429,
    "too_many_turn_tables": 429,
    "sign_in": 401,
    "server_full": 503,
    "moved": 503,
}
"""The HTTP status of each refusal of the lobby (409 for the others: the table's state does not allow it)."""


def refusal(exc: Refused | ClubsError) -> HTTPException:
    """A refusal of the table or of the rules as the HTTP error the lobby answers with (:data:`STATUS`)."""
    if isinstance(exc, Refused):
        return HTTPException(STATUS.get(exc.code, 409), {"code": exc.code, "message": str(exc)})
    return HTTPException(400, {"code": "bad_request", "message": str(exc)})


class Lobby:
    """What the lobby's routes and the pages share: the hub's tables as a stranger may find them, who is signed in,
    a finished match's stored record; ``listing`` the other processes' public tables, where several serve the
    database."""

    def __init__(self, hub: Hub, accounts: Accounts, database: Database, listing: Lobbycast | None = None) -> None:
        self.hub = hub
        self.accounts = accounts
        self.database = database
        """The finished matches' results."""
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
        """A finished match's stored record, of a table served here or closed (a private table's: with its invite
        code), refused as the lobby refuses."""
        try:
            if table_id not in self.hub.tables:  # closed: its finished matches' records are kept, and stay reachable
                return await self.hub.closed_record(table_id, match_no, invite)
            return await self.hub.record(self.find(table_id, invite), match_no)
        except Refused as exc:
            raise refusal(exc) from None

    async def results(
        self, table_id: str, match_no: int | None, invite: str | None, token: str | None = None
    ) -> JsonObject:
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
            raise refusal(exc) from None
        number, rated, seats = await self.database.reading(lambda c: match_results(c, table_id, match_no))
        if not seats:
            raise refusal(Refused("not_over", "this match has no result yet: it is still being played"))

        def rating(found: tuple[Skill, int] | None, person: bool) -> JsonObject | None:
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

    async def join(self, table: LiveTable, name: str | None, seat_no: int | None, user: User | None) -> JsonObject:
        """Seat ``user`` (or a guest under ``name``) at ``table``: the seat and its token."""
        try:
            seat, token = await self.hub.seating.join(table, display_name(name, user), seat_no, user)
        except (ClubsError, Refused) as exc:
            raise refusal(exc) from None
        return {"table": table.id, "seat": seat, "token": token}


def display_name(name: str | None, user: User | None) -> object:
    """The display name a guest gave (a signed-in player's seat takes the account's name instead)."""
    if user is None and name is None:
        raise HTTPException(422, {"code": "bad_request", "message": "'name': a display name is needed (or sign in)"})
    return name
