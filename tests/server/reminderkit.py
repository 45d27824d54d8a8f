"""Helpers of the reminders' tests: a push service and a mail server started by the test on loopback, a browser's
push subscription keys, a link read from a mail."""

from __future__ import annotations

import base64
import email
import email.policy
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from turnkit import Player

import loopback
from pgcluster import free_port

SITE = "http://clubs.example"
"""The site's address the servers of these tests are given (``--site-url``): the links of mails and pushes."""


# -- a push service ---------------------------------------------------------------------------------------------------
@dataclass
class PushService:
    """A push endpoint on loopback: keeps every POST (path, headers, body) and answers with the statuses queued,
    201 once none is."""

    port: int = 0
    got: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def to(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        with self.lock:
            return [(h, b) for p, h, b in self.got if p == path]


@pytest.fixture
def pushes() -> Iterator[PushService]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            with service.lock:
                service.got.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                status = service.answers.pop(0) if service.answers else 201
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        httpd.shutdown()
        httpd.server_close()


# -- a mail server ----------------------------------------------------------------------------------------------------
class Mailbox:
    """An SMTP server's handler: keeps every message; refuses the recipients in ``gone`` with 550."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.gone: set[str] = set()
        self.refused: list[str] = []

    async def handle_RCPT(  # noqa: N802 - aiosmtpd's name
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address in self.gone:
            self.refused.append(address)
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        content = envelope.original_content or b""
        message = email.message_from_bytes(content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def mails() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


def browser_keys() -> tuple[ec.EllipticCurvePrivateKey, bytes, dict[str, str]]:
    """A browser's subscription keys: its P-256 key pair and auth secret (and them as the browser sends them)."""
    private = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    point = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return private, auth, {"p256dh": b64(point), "auth": b64(auth)}


def subscribe(player: Player, endpoint: str, keys: dict[str, str], status: int = 201) -> Any:
    return player.post("/push/subscriptions", {"endpoint": endpoint, "keys": keys, "label": "Firefox"}, status)


def link_in(message: EmailMessage, path: str) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    found = re.search(re.escape(SITE + path) + r"\?k=([A-Za-z0-9_.-]+)", body.get_content())
    assert found, body.get_content()
    return f"{path}?k={found.group(1)}"


def confirmed(base: str, link: str) -> Any:
    """Follow a confirming mail's link as its reader does: the page (which changes nothing), then its button (a
    form's POST under ``Referrer-Policy: no-referrer``: ``Origin: null``)."""
    page = loopback.get(base + link)
    assert page.status_code == 200 and "<form" in page.text, page.text
    return loopback.post(
        base + link,
        content=b"confirm=yes",
        headers={"content-type": "application/x-www-form-urlencoded", "origin": "null"},
    )
