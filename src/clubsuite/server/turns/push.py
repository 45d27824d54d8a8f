"""Web Push (RFC 8030, its payload encrypted per RFC 8291 with aes128gcm, the sender known by VAPID, RFC 8292),
through ``pywebpush`` and ``py_vapid``.

The server's VAPID key pair is made once and kept in the database (``server_keys``, name ``vapid``), so that every
process of a site signs with the same key and a browser's subscription, made against its public key, stays good
across restarts: the first process inserts a pair where none is, and every process then reads the one kept.

A subscription is a URL a stranger hands the server, which will later POST to it: only ``https`` endpoints of the
browsers' push services (:data:`KNOWN_SERVICES`) or of an origin the operator allows (``--push-host``, exactly
scheme://host:port) are taken, redirects are never followed, and the keys are checked (a P-256 public key and a
16-byte secret). An account keeps at most :data:`PER_ACCOUNT` subscriptions (the oldest go).

Nothing here logs a subscription's keys or the server's private key.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush
from sqlalchemy import delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clubsuite.jsonform import JsonObject
from clubsuite.server.store.dbschema import push_subscriptions, server_keys
from clubsuite.server.tokens import new_id
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.players import PlayerRefused

KEY_NAME = "vapid"
"""The ``server_keys`` row of the VAPID key pair."""
PER_ACCOUNT = 10
"""Subscriptions an account keeps (one per browser); a newer one pushes the oldest out."""
ENDPOINT_MAX = 1024
LABEL_MAX = 100
TTL = 86400
"""Seconds a push service keeps a push for a browser that is offline (a day: a reminder older is noise)."""
TIMEOUT = 10.0
"""Seconds a push service has to answer."""
KNOWN_SERVICES = (
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.services.mozilla.com",
    "*.notify.windows.com",
    "web.push.apple.com",
    "*.push.apple.com",
)
"""The push services of the browsers (Chrome and Edge's FCM, Firefox's autopush, Windows' WNS, Safari's)."""

Sent = Literal["sent", "gone", "retry", "drop"]
"""What became of a push: delivered, the subscription gone (404, 410), to try again later (a network error, 429,
5xx), or refused for good (any other answer)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def server_key(conn: Connection) -> Vapid02:
    """The site's VAPID key pair: made and kept if there is none (two processes starting at once keep one: the
    insert does nothing where a row is), then read."""
    insert_new = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    found = conn.execute(select(server_keys.c.value).where(server_keys.c.name == KEY_NAME)).scalar()
    if found is None:
        made = ec.generate_private_key(ec.SECP256R1())
        raw = _b64(made.private_numbers().private_value.to_bytes(32, "big"))
        conn.execute(
            insert_new(server_keys)
            .values(name=KEY_NAME, value=raw)
            .on_conflict_do_nothing(index_elements=[server_keys.c.name])
        )
        found = conn.execute(select(server_keys.c.value).where(server_keys.c.name == KEY_NAME)).scalar_one()
    key: Vapid02 = Vapid02.from_raw(str(found).encode("ascii"))
    return key


def application_server_key(key: Vapid02) -> str:
    """The public key as ``pushManager.subscribe`` takes it: the uncompressed P-256 point, base64url."""
    public: ec.EllipticCurvePublicKey = key.public_key
    return _b64(public.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an absolute http(s) URL, or None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


_HOST_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+")
"""A host name as the known push services have them (lower case; no IP literal, bracket, zone id or percent)."""


def allowed_endpoint(endpoint: str, config: TurnConfig) -> bool:
    """Whether the server may POST to ``endpoint``: https at a known push service on the usual port, or at an
    origin of ``config.push_hosts`` (scheme, host and port alike)."""
    where = _origin(endpoint)
    if where is None:
        return False
    for host in config.push_hosts:
        if _origin(host) == where:
            return True
    scheme, name, port = where
    if scheme != "https" or port != 443 or not _HOST_NAME.fullmatch(name):
        return False  # a name of letters, digits, dots and dashes only: no IP literal, zone id or bracket
    return any(name == known or (known.startswith("*.") and name.endswith(known[1:])) for known in KNOWN_SERVICES)


def check_subscription(endpoint: object, p256dh: object, auth: object, config: TurnConfig) -> tuple[str, str, str]:
    """A browser's subscription checked: (endpoint, p256dh, auth), or :class:`PlayerRefused` naming the input."""
    if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= ENDPOINT_MAX or not endpoint.isascii():
        raise PlayerRefused(400, "bad_endpoint", f"endpoint: expected a URL of at most {ENDPOINT_MAX} characters")
    if any(c.isspace() or ord(c) < 32 for c in endpoint) or not allowed_endpoint(endpoint, config):
        raise PlayerRefused(
            400,
            "bad_endpoint",
            "endpoint: not a browser's push service (https at fcm.googleapis.com, *.push.services.mozilla.com, "
            "*.notify.windows.com or *.push.apple.com, or a host the operator allows)",
        )
    try:
        point = _unb64(str(p256dh)) if isinstance(p256dh, str) and len(p256dh) <= 100 else b""
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65 or point[0] != 4:
            raise ValueError
    except (ValueError, binascii.Error):
        raise PlayerRefused(
            400, "bad_keys", "keys.p256dh: expected a P-256 public key, 65 bytes uncompressed, base64url"
        ) from None
    try:
        secret = _unb64(str(auth)) if isinstance(auth, str) and len(auth) <= 40 else b""
    except (ValueError, binascii.Error):
        secret = b""
    if len(secret) != 16:
        raise PlayerRefused(400, "bad_keys", "keys.auth: expected a 16-byte secret, base64url")
    return endpoint, _b64(point), _b64(secret)


def subscribe(conn: Connection, user_id: str, endpoint: str, p256dh: str, auth: str, label: str, now: float) -> str:
    """Keep a checked subscription for ``user_id`` (one the endpoint had, for this account or another, replaced: a
    browser is one account's at a time); the account's oldest beyond :data:`PER_ACCOUNT` go. Its id."""
    conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint))
    made = new_id()
    conn.execute(
        insert(push_subscriptions).values(
            id=made,
            user_id=user_id,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            label=label[:LABEL_MAX],
            created_at=now,
        )
    )
    kept = conn.execute(
        select(push_subscriptions.c.id)
        .where(push_subscriptions.c.user_id == user_id)
        .order_by(push_subscriptions.c.created_at.desc(), push_subscriptions.c.id)
    ).all()
    old = [r.id for r in kept[PER_ACCOUNT:]]
    if old:
        conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(old)))
    return made


def unsubscribe(conn: Connection, user_id: str, endpoint: str) -> bool:
    """Forget the account's subscription of ``endpoint``; whether there was one."""
    gone = conn.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.user_id == user_id, push_subscriptions.c.endpoint == endpoint
        )
    )
    return bool(gone.rowcount)


@dataclass(frozen=True)
class Subscription:
    """What one push needs of a subscription."""

    endpoint: str
    p256dh: str
    auth: str


def send(subscription: Subscription, payload: JsonObject, key: Vapid02, contact: str, config: TurnConfig) -> Sent:
    """POST one push (blocking: run it in a worker thread, never on the event loop). The endpoint is checked
    again (the operator's allowed hosts may have changed) and no redirect is followed."""
    if not allowed_endpoint(subscription.endpoint, config):
        return "drop"
    session = requests.Session()
    session.max_redirects = 0
    try:
        webpush(
            {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}},
            json.dumps(payload, separators=(",", ":")),
            vapid_private_key=key,
            vapid_claims={"sub": contact},
            ttl=TTL,
            timeout=TIMEOUT,
            headers={"Urgency": "normal"},
            requests_session=session,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            return "gone"
        if status is None or status == 429 or status >= 500:
            return "retry"
        return "drop"
    except requests.TooManyRedirects:
        return "drop"  # a push service does not redirect: whatever does is not one
    except requests.RequestException:
        return "retry"
    finally:
        session.close()
    return "sent"
