"""E-mail: the daily digest of the tables waiting for a player, the mail that confirms an address, and the links in
them, sent through ``smtplib`` (STARTTLS and a login where the operator configures them).

Every link carries ``<account id>.<secret>``: the secret is random (:func:`~clubsuite.server.tokens.new_token`) and
only its SHA-256 is kept, in ``turn_prefs.mail_key`` (the last :data:`KEYS_KEPT` of them, each marked ``c:`` for a
confirming link or ``u:`` for an unsubscribing one), so that the links of the last few mails keep working and a
new address makes every old link void. A digest carries a one-click unsubscribe (RFC 8058): the link in its text and
the ``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers.

The words are the catalogs' (context ``mail``), in the account's language.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from html import escape
from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from clubsuite.i18n import LANGUAGES, Words
from clubsuite.server.store.dbschema import turn_prefs
from clubsuite.server.tokens import hash_token, new_token, same_hash
from clubsuite.server.turns.config import TurnConfig

KEYS_KEPT = 8
"""Link secrets kept per account (their hashes): the links of the last mails stay good."""
TIMEOUT = 20.0
"""Seconds the SMTP server has for each step."""
LINES_MAX = 50
"""Tables one digest lists (the rest counted)."""
CONTEXT = "mail"
"""The catalogs' context of these words."""
GONE_CODES = frozenset({550, 551, 553})
"""An SMTP server's answers to a recipient that say the address is gone for good."""

KeyKind = Literal["c", "u"]
Sent = Literal["sent", "gone", "retry", "drop"]

MESSAGES: tuple[tuple[str, str | None, str], ...] = (
    ("Your turn at {n} table", "Your turn at {n} tables", "the digest's subject; n: the tables waiting"),
    ("It is your turn at these tables:", None, "the digest's first line"),
    ("{title}: {left} left", None, "a table waiting, and the time its clock has left"),
    ("{n} day", "{n} days", "time left on a clock"),
    ("{n} hour", "{n} hours", "time left on a clock"),
    ("{n} minute", "{n} minutes", "time left on a clock"),
    ("and {n} more", None, "the digest lists 50 tables; n: those not listed"),
    ("All your tables: {url}", None, "a link to the player's tables"),
    ("Open your tables", None, "the link to the player's tables (HTML)"),
    ("No more of these e-mails: {url}", None, "the one-click unsubscribe link"),
    ("Unsubscribe", None, "the unsubscribe link (HTML)"),
    ("Confirm your e-mail address", None, "the confirming mail's subject"),
    (
        "Follow this link to get a daily e-mail when it is your turn at a table: {url}",
        None,
        "the confirming mail's text",
    ),
    ("If you did not ask for this, ignore this e-mail: nothing will be sent.", None, "the confirming mail's text"),
    ("Get the daily e-mail at this address?", None, "the page of the confirming link"),
    ("Confirm my address", None, "the button of the confirming link's page"),
    ("Your e-mail address is confirmed.", None, "a page after the confirming link"),
    ("This link is not valid (any more).", None, "a page after a link of an e-mail"),
    ("Stop the daily e-mails?", None, "the unsubscribe page"),
    ("Stop them", None, "the unsubscribe page's button"),
    ("You will get no more of these e-mails.", None, "the unsubscribe page, done"),
)
"""Every word of the mails and of their links' pages: (English, English plural or None, a note for the
translator); ``clubsuite.i18n.sources`` hands them to the catalogs."""


def words(lang: str) -> Words:
    """The words of ``lang`` (English where it is not shipped)."""
    return Words(lang if lang in LANGUAGES else "en")


def tr(lang: str, text: str, **values: object) -> str:
    """``text`` in ``lang``, its ``{names}`` filled."""
    return words(lang).get(text, CONTEXT).format(**values)


def trn(lang: str, one: str, many: str, n: int, **values: object) -> str:
    """The plural form of ``one``/``many`` for ``n`` in ``lang``, its ``{names}`` (and ``{n}``) filled."""
    return words(lang).plural(one, many, n, CONTEXT).format(n=n, **values)


def time_left(lang: str, seconds: float) -> str:
    """A clock's time left in words: days and hours, hours and minutes, or minutes."""
    minutes = max(0, int(seconds // 60))
    days, hours, mins = minutes // 1440, minutes % 1440 // 60, minutes % 60
    parts: list[str] = []
    if days:
        parts.append(trn(lang, "{n} day", "{n} days", days))
    if hours and len(parts) < 2:
        parts.append(trn(lang, "{n} hour", "{n} hours", hours))
    if not days and (mins or not parts):
        parts.append(trn(lang, "{n} minute", "{n} minutes", mins))
    return " ".join(parts)


# -- the links' secrets ---------------------------------------------------------------------------------------------
def new_key(conn: Connection, user_id: str, kind: KeyKind) -> str:
    """A new link secret of ``kind`` for the account (its hash kept with the last ones, in the caller's
    transaction); the link's ``k``: ``<account id>.<secret>``."""
    secret = new_token()
    stored = conn.execute(select(turn_prefs.c.mail_key).where(turn_prefs.c.user_id == user_id)).scalar()
    keys = (str(stored).split() if stored else [])[-(KEYS_KEPT - 1) :]
    keys.append(f"{kind}:{hash_token(secret)}")
    conn.execute(update(turn_prefs).where(turn_prefs.c.user_id == user_id).values(mail_key=" ".join(keys)))
    return f"{user_id}.{secret}"


def key_owner(conn: Connection, k: str, kind: KeyKind) -> str | None:
    """The account a link's ``k`` of ``kind`` belongs to (its hash among those kept), or None."""
    user_id, dot, secret = k.partition(".")
    if not dot or not user_id or not secret or len(k) > 200:
        return None
    stored = conn.execute(select(turn_prefs.c.mail_key).where(turn_prefs.c.user_id == user_id)).scalar()
    digest = hash_token(secret)
    found = False
    for key in str(stored or "").split():
        mark, _, kept = key.partition(":")
        found |= mark == kind and same_hash(kept, digest)
    return user_id if found else None


# -- the mails ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Waiting:
    """A table waiting for the player: its name in words and the seconds its clock has left."""

    title: str
    left: float


def _message(config: TurnConfig, to: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = config.mail_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=_domain(config.mail_from))
    message["Auto-Submitted"] = "auto-generated"
    return message


def _domain(sender: str) -> str:
    tail = sender.rpartition("@")[2].rstrip(">").strip()
    return tail or "localhost"


def digest(config: TurnConfig, to: str, lang: str, tables: list[Waiting], k: str) -> EmailMessage:
    """The daily digest: one line per table waiting (its name and the time left), a link to the player's tables and
    the one-click unsubscribe (the link and RFC 8058's headers)."""
    site = config.site_url.rstrip("/")
    tables_url = f"{site}/turns"
    off = f"{site}/mail/unsubscribe?k={k}"
    message = _message(config, to, trn(lang, "Your turn at {n} table", "Your turn at {n} tables", len(tables)))
    message["List-Unsubscribe"] = f"<{off}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    shown = tables[:LINES_MAX]
    lines = [tr(lang, "{title}: {left} left", title=t.title, left=time_left(lang, t.left)) for t in shown]
    if len(tables) > len(shown):
        lines.append(tr(lang, "and {n} more", n=len(tables) - len(shown)))
    text = [tr(lang, "It is your turn at these tables:"), "", *(f"- {line}" for line in lines), ""]
    text += [
        tr(lang, "All your tables: {url}", url=tables_url),
        "",
        "-- ",
        tr(lang, "No more of these e-mails: {url}", url=off),
    ]
    message.set_content("\n".join(text) + "\n")
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    html = (
        f'<!doctype html><html lang="{escape(lang)}"><body><p>{escape(tr(lang, "It is your turn at these tables:"))}'
        f'</p><ul>{items}</ul><p><a href="{escape(tables_url)}">{escape(tr(lang, "Open your tables"))}</a></p>'
        f'<p style="font-size:small"><a href="{escape(off)}">{escape(tr(lang, "Unsubscribe"))}</a></p></body></html>'
    )
    message.add_alternative(html, subtype="html")
    return message


def confirming(config: TurnConfig, to: str, lang: str, k: str) -> EmailMessage:
    """The mail that confirms an address: its one link."""
    url = f"{config.site_url.rstrip('/')}/mail/confirm?k={k}"
    message = _message(config, to, tr(lang, "Confirm your e-mail address"))
    body = [
        tr(lang, "Follow this link to get a daily e-mail when it is your turn at a table: {url}", url=url),
        "",
        tr(lang, "If you did not ask for this, ignore this e-mail: nothing will be sent."),
    ]
    message.set_content("\n".join(body) + "\n")
    return message


def send(config: TurnConfig, message: EmailMessage) -> Sent:
    """Send one mail (blocking: run it in a worker thread, never on the event loop). ``gone``: the server refused
    the recipient for good (550, 551, 553); ``retry``: a temporary failure (4xx, the connection); ``drop``: any other
    refusal."""
    assert config.smtp_host is not None
    try:
        with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=TIMEOUT) as smtp:
            if config.smtp_starttls:
                smtp.starttls()
            if config.smtp_user:
                smtp.login(config.smtp_user, config.smtp_password or "")
            smtp.send_message(message)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        if any(code in GONE_CODES for code in codes):
            return "gone"
        return "retry" if all(400 <= code < 500 for code in codes) else "drop"
    except smtplib.SMTPAuthenticationError:
        return "retry"  # the operator's login: once it is put right, the mail goes
    except smtplib.SMTPResponseException as exc:
        return "retry" if exc.smtp_code < 500 else "drop"
    except (TimeoutError, smtplib.SMTPException, OSError):
        return "retry"
    return "sent"
