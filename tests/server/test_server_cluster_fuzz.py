"""Requests of any shape against a site of two ``clubs serve`` processes over one PostgreSQL database behind HAProxy
with the shipped configuration: no answer is ever a server error (5xx), and the operators' figures (``/metrics``)
never come back on the public side, whatever the path, method or body.

The requests are drawn by Hypothesis (derandomised, so a run is repeatable) from the pieces that have mattered:
real table ids and invite codes (a table at each process, so that half the requests are passed on to the other),
the routes' words, dot segments plain and percent-encoded, encoded slashes, backslashes and control characters,
letters written as escapes, malformed escapes, bytes beyond ASCII, and free text; methods of every kind; bodies
empty, JSON and not. Each goes on the wire byte for byte (:func:`proxykit.raw_request`) to the proxy or straight to
either process's public port. Bounded: a fixed number of requests (each with a 30 s time limit), all on loopback;
the processes' own limits (rates included) stay the defaults a public site runs with, so a 429 is a fine answer.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proxykit import Node, Proxy, figures, node, raw_request
from serverkit import new_table, start_all

from pgcluster import Cluster

EXAMPLES = 200
"""Requests drawn (the bound on the run, with each request's own time limit)."""
WORDS = [
    "tables",
    "invites",
    "join",
    "leave",
    "rematch",
    "ws",
    "record.json",
    "replay",
    "review",
    "metrics",
    "health",
    "ready",
    "account",
    "login",
    "players",
    "quickplay",
    "openapi.json",
    "static",
]
"""Words of the site's routes (and of the operators' one)."""
ODD = [
    ".",
    "..",
    "%2e",
    "%2E%2e",
    ".%2e",
    "%2e.",
    "..%2f",
    "%2F",
    "%5c",
    "\\",
    "..%5c..%5c",
    "%00",
    "%0a",
    "%0d%0a",
    "%1b",
    "%7f",
    "%7F",
    "%C2%85",
    "%ff",
    "%",
    "%zz",
    "%6detrics",
    "%6D%65%74%72%69%63%73",
    "%74ables",
    "~",
    "%7e",
    "",
    "%20",
    "é",
    "{x}",
]
"""Spellings that once meant something else to a proxy, a forwarding process or an HTTP client."""
FREE = st.text(st.sampled_from("abcXYZ019-_.~%!$&'()*+,;=:@"), max_size=10)
METHODS = ["GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"]
BODIES = st.one_of(
    st.just(b""),
    st.just(b"{}"),
    st.sampled_from([b'{"name": "Zo\xc3\xab"}', b'{"game": "whist"}', b'{"token": "x"}', b"[]", b"null", b"{"]),
    st.dictionaries(st.sampled_from(["name", "game", "seat", "token", "password"]), st.integers() | st.text()).map(
        lambda d: json.dumps(d).encode()
    ),
    st.binary(max_size=64),
)


@dataclass
class Site:
    """The processes, the proxy in front of them, and what was made there."""

    nodes: list[Node]
    proxy: Proxy
    tables: list[str]
    invites: list[str]


@pytest.fixture(scope="module")
def site(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Two processes and the proxy; a public table made at each process and a private one at the first."""
    folder = tmp_path_factory.mktemp("fuzzed-site")
    url = postgres.new_database()
    nodes = [node(folder, url, "a"), node(folder, url, "b")]
    proxy = Proxy(list(nodes), folder)
    try:
        start_all(list(nodes))
        proxy.start()
        made = [new_table(nodes[0].base, "whist"), new_table(nodes[1].base, "whist")]
        made.append(new_table(nodes[0].base, "whist", public=False))
        yield Site(nodes, proxy, [t["id"] for t in made], [t["invite"] for t in made])
    finally:
        proxy.stop()
        for n in nodes:
            if n.proc is not None:
                n.kill(signal.SIGKILL)


@st.composite
def requests(draw: st.DrawFn, site: Site) -> tuple[int, str, bytes, bytes]:
    """(port, method, target, body): a request of any shape to the proxy or to either process's public port, most
    of them about a table or an invite (where a request may be passed on), each segment of the path one to three
    pieces run together (so that ``..%2f..%2fmetrics`` and its kind come up), odd pieces oftenest."""
    odd = st.sampled_from(ODD)
    piece = st.one_of(odd, odd, st.sampled_from(WORDS), st.sampled_from([*site.tables, *site.invites]), FREE)
    segment = st.lists(piece, min_size=1, max_size=3).map("".join)
    about = [["tables", site.tables[0]], ["tables", site.tables[1]], ["invites", site.invites[2]], []]
    start = draw(st.sampled_from(about))
    parts = [*start, *draw(st.lists(segment, min_size=1, max_size=4))]
    query = draw(st.sampled_from(["", "?match=0", f"?invite={site.invites[2]}", "?a=%00", "?x=..%2f", "?%", "?q=é"]))
    target = ("/" + "/".join(parts) + query).encode("utf-8")
    port = draw(st.sampled_from([site.proxy.port, site.nodes[0].port, site.nodes[1].port]))
    return port, draw(st.sampled_from(METHODS)), target, draw(BODIES)


def test_no_request_of_any_shape_gets_a_server_error_or_the_figures_on_the_public_side(site: Site) -> None:
    seen: dict[int, int] = {}

    @given(st.data())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def call(data: st.DataObject) -> None:
        port, method, target, body = data.draw(requests(site))
        answer = raw_request(port, method, target, body)
        seen[answer.status] = seen.get(answer.status, 0) + 1
        where = "proxy" if port == site.proxy.port else "process"
        assert answer.status < 500, (where, method, target, body[:80], answer.status, answer.body[:300])
        assert b"# HELP" not in answer.body and b"# TYPE" not in answer.body, (where, method, target)
        assert b"Traceback" not in answer.body, (where, method, target)

    call()
    assert sum(seen.values()) >= EXAMPLES // 2  # requests were answered (not all refused before the wire)
    assert any(200 <= status < 300 for status in seen), seen  # some reached a route and were served
    for n in site.nodes:  # and both processes lived through it, their figures still read where they belong
        assert n.proc is not None and n.proc.poll() is None
        assert "# HELP clubs_tables " in figures(n.metrics)
