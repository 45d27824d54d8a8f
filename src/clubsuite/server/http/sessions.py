"""How every route finds who is signed in: the session cookie, and the CSRF token a change carries.

A session is carried by the ``clubs_session`` cookie (HttpOnly, SameSite=Lax, Secure over TLS); a request that
changes something and carries it must also carry the session's CSRF token in the ``X-CSRF-Token`` header (the page
reads it from ``GET /account``), or it is refused with 403 ``bad_csrf`` and nothing changes. Kept apart from the
account routes so that the lobby's helpers and every route module read it without reaching one another.
"""

from __future__ import annotations

from starlette.requests import Request

from clubsuite.server.people.accounts import AccountRefused, Accounts, Session, User, same

COOKIE = "clubs_session"
"""The session cookie's name."""
CSRF_HEADER = "x-csrf-token"
"""The header that carries the session's CSRF token on a request that changes something."""


async def signed_in(accounts: Accounts, request: Request, changes: bool) -> tuple[Session, User] | None:
    """The session and account of a request (None: a guest, or a cookie that opens no session). A request that
    ``changes`` something must carry the session's CSRF token, or it is refused (``bad_csrf``)."""
    secret = request.cookies.get(COOKIE)
    if not secret:
        return None
    found = await accounts.session(secret)
    if found is None:
        return None
    if changes and not same(request.headers.get(CSRF_HEADER, ""), found[0].csrf):
        raise AccountRefused(
            403, "bad_csrf", "this request lacks the page's X-CSRF-Token: reload the page and try again"
        )
    return found


async def need(accounts: Accounts, request: Request, changes: bool) -> tuple[Session, User]:
    """The session and account of a request that needs one (``signed_out`` for a guest); a request that
    ``changes`` something must carry the session's CSRF token."""
    found = await signed_in(accounts, request, changes)
    if found is None:
        raise AccountRefused(401, "signed_out", "sign in first")
    return found
