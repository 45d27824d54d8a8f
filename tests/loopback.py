"""The tests' HTTP clients, every one of them on one TLS context made once.

httpx builds a new TLS context for every client it makes, and every ``httpx.get`` or ``httpx.post`` makes a client:
loading the system's certificate authorities into it costs some 40 ms of CPU each time. The tests' own requests
(and their polls while a server starts) made hundreds of them: 451 in four server test files, 18 of their 82 s of
CPU. The tests speak plain HTTP to loopback, where the context is never used; here it is made once, with httpx's
default verification (nothing is turned off), and handed to each client.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()
"""The one TLS context of the tests' clients: the system's authorities, certificates verified (httpx's default)."""


def get(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.get`` on the shared context."""
    return httpx.get(url, verify=TLS, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.post`` on the shared context."""
    return httpx.post(url, verify=TLS, **kwargs)


def put(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.put`` on the shared context."""
    return httpx.put(url, verify=TLS, **kwargs)


def delete(url: str, **kwargs: Any) -> httpx.Response:
    """``httpx.delete`` on the shared context."""
    return httpx.delete(url, verify=TLS, **kwargs)


def client(**kwargs: Any) -> httpx.Client:
    """An ``httpx.Client`` on the shared context."""
    return httpx.Client(verify=TLS, **kwargs)


def async_client(**kwargs: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` on the shared context."""
    return httpx.AsyncClient(verify=TLS, **kwargs)


def transport(**kwargs: Any) -> httpx.HTTPTransport:
    """An ``httpx.HTTPTransport`` on the shared context."""
    return httpx.HTTPTransport(verify=TLS, **kwargs)
