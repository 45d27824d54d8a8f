"""An account's turn-based settings and what reaches it while it is away (:mod:`clubsuite.server.turns.reminders`):
its time zone and playing hours, its reminders' switches, its vacations, its browsers' push subscriptions; and the
pages the links of its e-mails open (confirming an address, unsubscribing).

The settings are signed in, each change carrying the CSRF token; the mail links carry their own secret instead and
need no session. ``POST /mail/unsubscribe`` is RFC 8058's one-click unsubscribe, which a mail client (or its
provider's servers) sends with a form-encoded body and no Origin, and a browser's form from this site with
``Origin: null`` (the pages' ``Referrer-Policy: no-referrer``): the guard lets exactly that path through without its
origin and JSON checks (:mod:`~clubsuite.server.http.guard`); the link's secret is what it needs.
"""

from __future__ import annotations

import email
import email.policy
import html
import urllib.parse
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.i18n import best_match
from clubsuite.jsonform import JsonObject
from clubsuite.server.http.services import AccountsDep, RemindersDep
from clubsuite.server.http.sessions import need
from clubsuite.server.turns.mail import tr
from clubsuite.server.turns.players import PlayerRefused
from clubsuite.server.turns.push import ENDPOINT_MAX, LABEL_MAX

Id = Annotated[str, Path(max_length=40)]
Key = Annotated[str, Query(max_length=200)]
ONE_CLICK_BODY = b"List-Unsubscribe=One-Click"
"""RFC 8058's body of a one-click unsubscribe."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class TurnSettingsIn(_Strict):
    """Some of the account's turn-based settings (those left out stay as they are)."""

    zone: str | None = Field(None, max_length=64, description="an IANA time zone, such as Europe/Paris")
    day_start: int | None = Field(None, description="playing hours: minutes after local midnight they begin")
    day_end: int | None = Field(None, description="playing hours: minutes after local midnight they end")
    page: bool | None = Field(None, description="a 'your turn' notice on the site's pages")
    push: bool | None = Field(None, description="Web Push to this account's browsers")
    push_per_day: int | None = Field(None, description="at most this many pushes in 24 hours (1 to 50)")
    mail: bool | None = Field(None, description="the daily e-mail digest")
    email: str | None = Field(None, max_length=1000, description="the digest's address (null or empty: none)")
    lang: str | None = Field(None, max_length=8, description="the e-mails' language: en, de, fr or nl")


class VacationIn(_Strict):
    """A vacation: how many days (hours counted: 1.5 is 36 hours) from when (now when left out)."""

    days: float = Field(..., description="1 to the allowance (30 days in any 365 by default)")
    starts: float | None = Field(None, description="when it begins, seconds since the epoch (now when left out)")


class PushKeys(_Strict):
    """The browser's keys of its subscription (``PushSubscription.toJSON().keys``)."""

    p256dh: str = Field(..., max_length=100)
    auth: str = Field(..., max_length=40)


class SubscriptionIn(_Strict):
    """A browser's push subscription (``PushSubscription.toJSON()``) and how the account's page names it."""

    endpoint: str = Field(..., max_length=ENDPOINT_MAX)
    keys: PushKeys
    label: str = Field("", max_length=LABEL_MAX, description="the browser, as the account's page shows it")
    expirationTime: float | None = Field(None, description="ignored (what toJSON() gives)")  # noqa: N815


class EndpointIn(_Strict):
    """A subscription to forget, by its endpoint."""

    endpoint: str = Field(..., max_length=ENDPOINT_MAX)


router = APIRouter()
"""The routes of an account's turn-based settings and of its e-mails' links."""


async def refused(_: Any, exc: Exception) -> JSONResponse:
    """A refusal of an account's turn-based settings (:class:`PlayerRefused`) as its status, code and plain words;
    the application installs it, as it does the accounts' (a router has no exception handlers of its own)."""
    assert isinstance(exc, PlayerRefused)
    return JSONResponse({"code": exc.code, "message": str(exc)}, status_code=exc.status)


def _lang(request: Request) -> str:
    return best_match(request.headers.get("accept-language"))


@router.get("/account/turns")
async def turn_settings(request: Request, accounts: AccountsDep, reminders: RemindersDep) -> JsonObject:
    """The account's turn-based settings, its vacations, and what this server offers (push, e-mail)."""
    _, user = await need(accounts, request, False)
    return await reminders.settings(user.id)


@router.put("/account/turns")
async def change_turn_settings(
    body: TurnSettingsIn, request: Request, accounts: AccountsDep, reminders: RemindersDep
) -> JsonObject:
    """Change some of the settings; a new address is sent a confirming mail (at most 3 a day)."""
    _, user = await need(accounts, request, True)
    return await reminders.update_settings(user.id, body.model_dump(exclude_unset=True), _lang(request))


@router.post("/account/vacations", status_code=201)
async def take_vacation(
    body: VacationIn, request: Request, accounts: AccountsDep, reminders: RemindersDep
) -> JsonObject:
    """Take a vacation: every turn-based clock of the account stops for its length."""
    _, user = await need(accounts, request, True)
    return await reminders.take_vacation(user.id, body.days, body.starts)


@router.post("/account/vacations/{vacation_id}/end")
async def end_vacation(vacation_id: Id, request: Request, accounts: AccountsDep, reminders: RemindersDep) -> JsonObject:
    """End a vacation now (one not begun is cancelled): its unused days are given back."""
    _, user = await need(accounts, request, True)
    return await reminders.end_vacation(user.id, vacation_id)


@router.post("/push/subscriptions", status_code=201)
async def subscribe(
    body: SubscriptionIn, request: Request, accounts: AccountsDep, reminders: RemindersDep
) -> JsonObject:
    """Keep this browser's push subscription (at most 10 per account: the oldest go)."""
    _, user = await need(accounts, request, True)
    await reminders.subscribe(user.id, body.endpoint, body.keys.p256dh, body.keys.auth, body.label)
    return {"subscribed": True}


@router.post("/push/subscriptions/delete")
async def unsubscribe(body: EndpointIn, request: Request, accounts: AccountsDep, reminders: RemindersDep) -> JsonObject:
    """Forget this browser's push subscription."""
    _, user = await need(accounts, request, True)
    return {"deleted": await reminders.unsubscribe(user.id, body.endpoint)}


def _page(lang: str, title: str, main: str, status: int = 200) -> HTMLResponse:
    """A small page of the site (its style sheet, no script); ``main`` is HTML already escaped."""
    page = f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="/static/css/clubs.css">
<link rel="icon" href="data:,">
</head>
<body>
<main id="main">
<h1>{html.escape(title)}</h1>
{main}
<p><a href="/">clubsuite</a></p>
</main>
</body>
</html>
"""
    headers = {"cache-control": "no-store", "content-language": lang, "vary": "accept-language"}
    return HTMLResponse(page, status_code=status, headers=headers)


def _one_button(lang: str, action: str, field: tuple[str, str], title: str, button: str) -> HTMLResponse:
    """A mail link's page: its question and one button that POSTs the link back with ``field`` (a GET changes
    nothing: mail providers' scanners follow links)."""
    name, value = (html.escape(part) for part in field)
    form = (
        f'<form method="post" action="{html.escape(action)}"><input type="hidden" name="{name}" value="{value}">'
        f'<button type="submit">{html.escape(tr(lang, button))}</button></form>'
    )
    return _page(lang, tr(lang, title), form)


def _not_valid(lang: str) -> HTMLResponse:
    return _page(lang, tr(lang, "This link is not valid (any more)."), "", 404)


@router.get("/mail/confirm", response_class=HTMLResponse)
async def confirm_page(k: Key, request: Request, reminders: RemindersDep) -> HTMLResponse:
    """The confirming link of an e-mail: a page with one button (a GET changes nothing: a mail provider's scanner
    that follows links must not confirm an address its owner never asked to get mail at)."""
    lang = _lang(request)
    if not await reminders.link_key(k, "c"):
        return _not_valid(lang)
    return _one_button(
        lang, f"/mail/confirm?k={k}", ("confirm", "yes"), "Get the daily e-mail at this address?", "Confirm my address"
    )


@router.post("/mail/confirm", response_class=HTMLResponse)
async def confirm_mail(k: Key, request: Request, reminders: RemindersDep) -> HTMLResponse:
    """The confirming page's button: the address is confirmed (digests go only to confirmed addresses)."""
    lang = _lang(request)
    if not await reminders.confirm_mail(k):
        return _not_valid(lang)
    return _page(lang, tr(lang, "Your e-mail address is confirmed."), "")


@router.get("/mail/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(k: Key, request: Request, reminders: RemindersDep) -> HTMLResponse:
    """The unsubscribing link of a digest: a page with one button (a GET changes nothing: mail scanners follow
    links)."""
    lang = _lang(request)
    if not await reminders.link_key(k, "u"):
        return _not_valid(lang)
    return _one_button(
        lang, f"/mail/unsubscribe?k={k}", ("List-Unsubscribe", "One-Click"), "Stop the daily e-mails?", "Stop them"
    )


@router.post("/mail/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_now(k: Key, request: Request, reminders: RemindersDep) -> HTMLResponse:
    """RFC 8058's one-click unsubscribe (the body ``List-Unsubscribe=One-Click``, form-encoded; no session): the
    account's digests stop."""
    lang = _lang(request)
    if not one_click(request.headers.get("content-type", ""), await request.body()):
        raise HTTPException(
            400, {"code": "bad_request", "message": "the body: expected List-Unsubscribe=One-Click (RFC 8058)"}
        )
    if not await reminders.unsubscribe_mail(k):
        return _not_valid(lang)
    return _page(lang, tr(lang, "You will get no more of these e-mails."), "")


def one_click(content_type: str, body: bytes) -> bool:
    """Whether a POST's body is RFC 8058's one click: the field ``List-Unsubscribe`` with the value ``One-Click``,
    sent as ``multipart/form-data`` (what the RFC asks of mail clients) or form-encoded (what most send, and the
    page's own form), or bare. The body is bounded by the guard before it is read."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind == "multipart/form-data":
        head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
        parsed = email.message_from_bytes(head + body, policy=email.policy.HTTP)
        if not parsed.is_multipart():
            return False
        for part in parsed.iter_parts():
            if part.get_param("name", header="content-disposition") == "List-Unsubscribe":
                value = part.get_payload(decode=True)
                return isinstance(value, bytes) and value.strip() == b"One-Click"
        return False
    if kind in ("application/x-www-form-urlencoded", ""):
        fields = urllib.parse.parse_qs(body.decode("latin-1"), keep_blank_values=True)
        return fields.get("List-Unsubscribe") == ["One-Click"]
    return body.strip() == ONE_CLICK_BODY
