"""People together and kept safe, over HTTP: following, blocking and muting a player, the account's lists and
privacy, friends online, notices and invitations, reports, and the moderators' queue
(:mod:`clubsuite.server.people.relations`, ``notices``, ``moderation``). Everything here is signed in; a change
carries the CSRF token."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.jsonform import JsonObject
from clubsuite.server.http.services import (
    AccountsDep,
    HubDep,
    ModerationDep,
    NoticesDep,
    RelationsDep,
    Services,
    ServicesDep,
)
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.people.moderation import Moderation, ModerationAction, ReportKind
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.relations import KINDS, Audience, Privacy, RelationKind, RelationRefused, Relations
from clubsuite.server.store.dbschema import ReportStatus, SeatKind
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused

Name = Annotated[str, Path(max_length=100)]
Id = Annotated[str, Path(max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class PrivacyIn(_Strict):
    """Who may invite the account, and who sees it online."""

    invites: Audience = Field(..., description="who may invite you")
    presence: Audience = Field(..., description="who sees you online")


class InviteIn(_Strict):
    """An invitation to a table (where you hold a seat) or to a tournament."""

    to: str = Field(..., min_length=1, max_length=100, description="the invited player's name")
    table: str | None = Field(None, max_length=40, description="a table you hold a seat at")
    tournament: str | None = Field(None, max_length=40, description="a tournament")


class ReportIn(_Strict):
    """A report: of a message said at a table (its table and line id), of a player's name, or of a player."""

    kind: ReportKind
    player: str | None = Field(None, max_length=100, description="the player reported (a name or a player)")
    table: str | None = Field(None, max_length=40, description="the table the message was said at")
    message: int | None = Field(None, ge=1, description="the message's id at that table")
    reason: str = Field("", max_length=500, description="what happened, in a few words (at most 500 characters)")
    block: bool = Field(True, description="also block the player (their chat and invitations no longer reach you)")


class TableInviteIn(_Strict):
    """An invitation to the table of the address (where you hold a seat)."""

    to: str = Field(..., min_length=1, max_length=100, description="the invited player's name")


class MessageReportIn(_Strict):
    """A report of a message said at the table of the address (its line id)."""

    message: int = Field(..., ge=1, description="the message's id at that table")
    reason: str = Field("", max_length=500, description="what happened, in a few words (at most 500 characters)")
    block: bool = Field(True, description="also block the player (their chat and invitations no longer reach you)")


class ActionIn(_Strict):
    """A moderator's action on a report."""

    action: ModerationAction
    reason: str = Field("", max_length=500, description="why, as the player is told (at most 500 characters)")
    hours: float | None = Field(None, description="a mute's length in hours")


router = APIRouter()
"""The routes of people together and kept safe (all signed in)."""


async def need(accounts: Accounts, request: Request, changes: bool) -> User:
    """The signed-in account (``signed_out`` for a guest): everything here is an account's."""
    found = await signed_in(accounts, request, changes)
    if found is None:
        raise AccountRefused(401, "signed_out", "sign in first")
    return found[1]


def refused(exc: RelationRefused | Refused) -> HTTPException:
    """A refusal of people or of a table as an HTTP error: 404 for what is not there, 429, 403, else 409."""
    status = {
        "no_player": 404,
        "no_report": 404,
        "no_table": 404,
        "no_tournament": 404,
        "rate_limited": 429,
        "operator_only": 403,
    }
    return HTTPException(status.get(exc.code, 409), {"code": exc.code, "message": str(exc)})


async def other(relations: Relations, name: str) -> tuple[str, str]:
    """The live account a name reaches: (id, name), or 404 ``no_player``."""
    try:
        return await relations.account(name)
    except RelationRefused as exc:
        raise refused(exc) from None


def _relation_routes(kind: RelationKind) -> None:
    """``POST /players/{name}/<kind>`` and ``/un<kind>``: follow, block or mute a player, and stop; a block or a mute
    hides the player's chat from the account's open table sockets at once."""

    async def change(
        name: str, request: Request, accounts: Accounts, relations: Relations, hub: Hub, on: bool
    ) -> dict[str, list[str]]:
        user = await need(accounts, request, True)
        found, _ = await other(relations, name)
        try:
            await relations.change(kind, user.id, found, on)
        except RelationRefused as exc:
            raise refused(exc) from None
        if kind != "follow":
            hub.hide_for(user.id, await relations.hidden(user.id))
        return await relations.lists(user.id)

    async def on(
        name: Name, request: Request, accounts: AccountsDep, relations: RelationsDep, hub: HubDep
    ) -> JsonObject:
        return await change(name, request, accounts, relations, hub, True)

    async def off(
        name: Name, request: Request, accounts: AccountsDep, relations: RelationsDep, hub: HubDep
    ) -> JsonObject:
        return await change(name, request, accounts, relations, hub, False)

    on.__doc__ = f"{kind.title()} the player (see docs/server.md, 'People together')."
    off.__doc__ = f"Stop: un{kind} the player."
    router.add_api_route(f"/players/{{name}}/{kind}", on, methods=["POST"], name=f"{kind}_player")
    router.add_api_route(f"/players/{{name}}/un{kind}", off, methods=["POST"], name=f"un{kind}_player")


for _kind in KINDS:
    _relation_routes(_kind)


@router.get("/account/people")
async def people(request: Request, accounts: AccountsDep, relations: RelationsDep) -> JsonObject:
    """Whom the account follows, blocked and muted (only it sees this), and its privacy."""
    user = await need(accounts, request, False)
    chosen = await relations.privacy(user.id)
    return {
        **await relations.lists(user.id),
        "privacy": {"invites": chosen.invites, "presence": chosen.presence},
    }


@router.post("/account/privacy")
async def set_privacy(body: PrivacyIn, request: Request, accounts: AccountsDep, relations: RelationsDep) -> JsonObject:
    """Choose who may invite the account and who sees it online."""
    user = await need(accounts, request, True)
    await relations.set_privacy(user.id, Privacy(body.invites, body.presence))
    return {"invites": body.invites, "presence": body.presence}


@router.get("/friends")
async def friends(request: Request, accounts: AccountsDep, relations: RelationsDep) -> JsonObject:
    """The players the account follows: online or not, and at which table, where each one's privacy lets it
    be seen."""
    user = await need(accounts, request, False)
    return {"friends": await relations.friends(user.id)}


@router.get("/notices")
async def notices_of(request: Request, response: Response, accounts: AccountsDep, notices: NoticesDep) -> JsonObject:
    """The account's notices: invitations, invitations declined, a moderator's word. Never kept by a cache (an
    invitation holds a private table's invite code)."""
    response.headers["cache-control"] = "no-store"
    user = await need(accounts, request, False)
    return {"notices": await notices.of(user.id)}


@router.post("/notices/{notice_id}/dismiss")
async def dismiss(notice_id: Id, request: Request, accounts: AccountsDep, notices: NoticesDep) -> JsonObject:
    """Put a notice away (an invitation accepted, a word read)."""
    user = await need(accounts, request, True)
    return {"dismissed": await notices.take(user.id, notice_id) is not None}


@router.post("/notices/{notice_id}/decline")
async def decline(notice_id: Id, request: Request, accounts: AccountsDep, notices: NoticesDep) -> JsonObject:
    """Decline an invitation (its sender is told)."""
    user = await need(accounts, request, True)
    return {"declined": await notices.decline(user.id, user.name, notice_id)}


def table_target(hub: Hub, user: User, table_id: str) -> JsonObject:
    """What an invitation to a table names: a table of this process's where ``user`` holds a seat and one is
    free (the table's routes run at its owner: ``/tables/{id}/invitations`` is passed on there)."""
    table = hub.tables.get(table_id)
    if table is None or not any(s.user_id == user.id for s in table.seats):
        raise HTTPException(404, {"code": "no_table", "message": "you hold no seat at such a table (here and now)"})
    if not any(s.kind == SeatKind.PERSON and s.token_hash is None for s in table.seats):
        # a table with no free seat (a tournament's, a club night's, a rated one's): nothing to invite to, and its
        # invite code stays its own
        raise HTTPException(409, {"code": "table_full", "message": "this table has no free seat to invite to"})
    return {"kind": "table", "table": table.id, "invite": table.invite, "name": table.info.name}


async def send(notices: Notices, user: User, to: tuple[str, str], target: JsonObject) -> JsonObject:
    """Invite the account ``to`` to ``target`` as ``user``: the answer names it, let through or not."""
    to_id, to_name = to
    try:
        await notices.invite((user.id, user.name), to_id, target)
    except RelationRefused as exc:
        raise refused(exc) from None
    return {"invited": to_name}


@router.post("/invitations")
async def invite(body: InviteIn, request: Request, services: ServicesDep) -> JsonObject:
    """Invite a player to a tournament, or to a table you hold a seat at (``POST /tables/{id}/invitations`` is
    the same, and reaches a table whichever process serves it). The answer is the same whether or not the
    player lets your invitation through (their blocks and privacy are theirs)."""
    user = await need(services.accounts, request, True)
    if (body.table is None) == (body.tournament is None):
        raise HTTPException(422, {"code": "bad_request", "message": "'table' or 'tournament': give one of them"})
    to = await other(services.relations, body.to)
    if body.table is not None:
        return await send(services.notices, user, to, table_target(services.hub, user, body.table))
    try:
        shown = await services.tournaments.load(body.tournament or "")
    except Refused as exc:
        raise refused(exc) from None
    target = {"kind": "tournament", "tournament": shown.id, "name": shown.settings.name}
    return await send(services.notices, user, to, target)


@router.post("/tables/{table_id}/invitations")
async def invite_to_table(table_id: Id, body: TableInviteIn, request: Request, services: ServicesDep) -> JsonObject:
    """Invite a player to this table, where you hold a seat and one is free (answered by the table's own
    process). The answer is the same whether or not the player lets your invitation through."""
    user = await need(services.accounts, request, True)
    to = await other(services.relations, body.to)
    return await send(services.notices, user, to, table_target(services.hub, user, table_id))


async def report_message(hub: Hub, user: User, table_id: str, message: int) -> tuple[str, JsonObject, bool]:
    """The account that said a message at a table of this process's, the message with the lines around it as
    the reporter could see them, and whether the reporter was at the table when it was said (seated or
    watching: only then may the report count toward an automatic mute)."""
    table = hub.tables.get(table_id)
    mine = next((s.seat for s in table.seats if s.user_id == user.id), None) if table is not None else None
    visible = table is not None and (mine is not None or table.settings.public)
    found = table.chat.around(message, mine) if table is not None and visible else None
    speaker = table.chat.speakers.get(message) if table is not None and found is not None else None
    if table is None or found is None or speaker is None:
        raise HTTPException(
            404,
            {
                "code": "no_message",
                "message": "that message is not kept here, or it was said by a guest (no account to report)",
            },
        )
    line, lines = found
    context = {"table": table.id, "game": table.info.name, "line": line, "lines": lines}
    return speaker, context, table.chat.witnessed(message, user.id)


async def keep_report(
    services: Services,
    user: User,
    subject: str,
    kind: ReportKind,
    reason: str,
    context: JsonObject,
    block: bool,
    witness: bool = False,
) -> JsonObject:
    """Keep a report for the moderators; with ``block``, the subject is blocked for the reporter too (its chat
    hidden from the reporter's open table sockets at once)."""
    try:
        made = await services.moderation.report(user.id, subject, kind, reason, context, block, witness)
    except RelationRefused as exc:
        raise refused(exc) from None
    if block:
        services.hub.hide_for(user.id, await services.relations.hidden(user.id))
    return {"report": made}


@router.post("/reports", status_code=201)
async def report(body: ReportIn, request: Request, services: ServicesDep) -> JsonObject:
    """Report a message said at a table (kept as the server saw it, with the lines around it; ``POST
    /tables/{id}/reports`` is the same, and reaches a table whichever process serves it), a player's name or
    a player; by default the player is blocked for you as well. Moderators read it."""
    user = await need(services.accounts, request, True)
    if body.kind == "message":
        if body.table is None or body.message is None:
            raise HTTPException(
                422, {"code": "bad_request", "message": "'table' and 'message': a message is found by both"}
            )
        subject, context, witness = await report_message(services.hub, user, body.table, body.message)
    else:
        witness = False
        if body.player is None:
            raise HTTPException(422, {"code": "bad_request", "message": "'player': whom you report"})
        subject, name = await other(services.relations, body.player)
        context = {"name": name}  # only what the server knows: a table named by the reporter is not kept
    return await keep_report(services, user, subject, body.kind, body.reason, context, body.block, witness)


@router.post("/tables/{table_id}/reports", status_code=201)
async def report_at_table(table_id: Id, body: MessageReportIn, request: Request, services: ServicesDep) -> JsonObject:
    """Report a message said at this table (answered by the table's own process, where its chat is kept); by
    default its writer is blocked for you as well."""
    user = await need(services.accounts, request, True)
    subject, context, witness = await report_message(services.hub, user, table_id, body.message)
    return await keep_report(services, user, subject, "message", body.reason, context, body.block, witness)


# -- the moderators -----------------------------------------------------------------------------------------
async def moderator(accounts: Accounts, moderation: Moderation, request: Request, changes: bool) -> User:
    """The signed-in account, which must be one of the site's moderators (403 ``not_moderator``)."""
    user = await need(accounts, request, changes)
    if not await moderation.is_moderator(user.id):
        raise HTTPException(403, {"code": "not_moderator", "message": "only the site's moderators see this"})
    return user


@router.get("/moderation/reports")
async def reports_queue(
    request: Request,
    accounts: AccountsDep,
    moderation: ModerationDep,
    status: Annotated[Literal["open", "closed"], Query()] = "open",
) -> JsonObject:
    """The reports (moderators only): open ones oldest first, or closed ones newest first; never one about a
    moderator (the operator's: ``clubs admin reports``)."""
    await moderator(accounts, moderation, request, False)
    return {"reports": await moderation.queue(ReportStatus(status), moderators_view=True)}


@router.post("/moderation/reports/{report_id}")
async def act(
    report_id: Id, body: ActionIn, request: Request, accounts: AccountsDep, moderation: ModerationDep
) -> JsonObject:
    """Act on a report (moderators only): warn, mute for some hours, ban from chat, close the account, or
    dismiss; every open report of the same player is closed with it, and the player is told what and why. A
    report about a moderator, oneself included, is refused (403 ``operator_only``: ``clubs admin act``)."""
    user = await moderator(accounts, moderation, request, True)
    try:
        return await moderation.act(report_id, body.action, user.id, body.reason, body.hours)
    except RelationRefused as exc:
        raise refused(exc) from None
