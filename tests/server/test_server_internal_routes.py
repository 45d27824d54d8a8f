"""Paths spelt oddly, in a cluster: a request about a table that another process owns is passed on only with a path
that means one thing (no control character, no dot segment, no encoded slash or backslash), and is otherwise refused
with a 4xx at whichever process it lands, never answered with a 500 nor turned into a request for another route;
the operators' figures (``/metrics``) are served on a listener of their own, never on the public one, however the
path is spelt, directly or through the shipped proxy configuration.

Real processes over a real PostgreSQL server (and Debian's HAProxy for the proxy's test), on loopback; every
request's target goes on the wire byte for byte (:func:`proxykit.raw_request`), as an attacker would send it.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from proxykit import Node, Proxy, node, owner_of, raw_request
from serverkit import ProcessServer, new_table, start_all

import loopback
from pgcluster import Cluster, free_port

ODD_TABLE_PATHS = [
    ("GET", "/tables/{id}/%00"),
    ("GET", "/tables/{id}/%7f"),
    ("GET", "/tables/{id}/%7F/record.json"),
    ("GET", "/tables/{id}/%1b[0m"),
    ("POST", "/tables/{id}/%00/join"),
    ("GET", "/tables/{id}/..%2f..%2fmetrics"),
    ("GET", "/tables/{id}/..%2F..%2Fhealth"),
    ("GET", "/tables/{id}/%2e%2e/%2e%2e/metrics"),
    ("GET", "/tables/{id}/%2E%2E/%2E%2E/metrics"),
    ("GET", "/tables/{id}/.%2e/%2e./metrics"),
    ("GET", "/tables/{id}/%2e/record.json"),
    ("GET", "/tables/{id}/..%5c..%5cmetrics"),
    ("GET", "/tables/{id}/../../metrics"),
    ("POST", "/tables/{id}/%2e%2e/%2e%2e/account/login"),
    ("POST", "/tables/{id}/..%2f..%2faccount%2flogin"),
]
"""Requests about a table whose path holds a control character, a dot segment or an encoded slash or backslash."""


@pytest.fixture(scope="module")
def pair(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Node, Node, str]]:
    """Two processes over one new database, and a public table made at the first (its owner): (owner, other, id).
    Started once for the module: its tests only send requests that are refused or answered without a change."""
    url = postgres.new_database()
    folder = tmp_path_factory.mktemp("pair")
    first, second = node(folder, url, "a"), node(folder, url, "b")
    try:
        start_all([first, second])
        table_id = new_table(first.base, "whist")["id"]
        assert owner_of(url, table_id) == "a"
        yield first, second, table_id
    finally:
        for process in (second, first):
            if process.proc is not None:
                process.kill(signal.SIGKILL)


@pytest.fixture(scope="module")
def proxy(pair: tuple[Node, Node, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """HAProxy with the shipped configuration in front of both processes, started once for the module."""
    owner, other, _ = pair
    running = Proxy([owner, other], tmp_path_factory.mktemp("proxy")).start()
    try:
        yield running
    finally:
        running.stop()


def _refused_as_a_bad_path(status: int, body: bytes, what: str) -> None:
    assert 400 <= status < 500, (what, status, body[:300])
    assert b"# HELP" not in body, what  # never the figures of /metrics
    assert json.loads(body)["code"] == "bad_path", (what, body[:300])


def test_an_odd_path_about_a_table_owned_elsewhere_is_refused_with_a_4xx_never_a_500_nor_passed_on(
    pair: tuple[Node, Node, str],
) -> None:
    """``%00``, ``%7f``, ``..%2f..%2fmetrics``, ``%2e%2e`` and the like, sent to the process that does not own the
    table: a 400 naming what is wrong, never the 500 of a URL the HTTP client cannot build, and never the owner's
    answer to the route the dot segments lead to (its figures, or a sign-in outside the first process's rate)."""
    _, other, table_id = pair
    for method, path in ODD_TABLE_PATHS:
        target = path.format(id=table_id)
        answer = raw_request(other.port, method, target.encode(), b"{}" if method == "POST" else b"")
        _refused_as_a_bad_path(answer.status, answer.body, f"{method} {target}")


def test_every_process_refuses_an_odd_table_path_alike_owner_or_not(
    pair: tuple[Node, Node, str],
) -> None:
    """The owner answers an odd path as the other process does: which process owns a table cannot be told apart."""
    owner, _, table_id = pair
    for method, path in ODD_TABLE_PATHS:
        target = path.format(id=table_id)
        answer = raw_request(owner.port, method, target.encode(), b"{}" if method == "POST" else b"")
        _refused_as_a_bad_path(answer.status, answer.body, f"{method} {target}")


def test_a_plain_path_about_a_table_owned_elsewhere_is_still_passed_on(
    pair: tuple[Node, Node, str],
) -> None:
    """The check refuses only what is odd: a request spelt plainly, or with a letter percent-encoded, reaches the
    owner, which answers it."""
    _, other, table_id = pair
    spelt = f"%{ord(table_id[0]):02X}" + table_id[1:]
    for target in (f"/tables/{table_id}", f"/tables/{spelt}"):
        answer = raw_request(other.port, "GET", target.encode())
        assert answer.status == 200, (target, answer)
        assert json.loads(answer.body)["id"] == table_id
    answer = raw_request(other.port, "GET", f"/tables/{table_id}/record.js%6Fn?match=0".encode())
    assert answer.status < 500 and json.loads(answer.body)["code"] != "bad_path", answer  # the owner's own refusal


METRICS_SPELLINGS = [
    "/metrics",
    "/%6detrics",
    "/%6Detrics",
    "/%6d%65%74%72%69%63%73",
    "/METRICS",
    "/metrics/",
    "//metrics",
    "/./metrics",
    "/%2e/metrics",
    "/x/../metrics",
    "/x/%2e%2e/metrics",
    "/tables/{id}/..%2f..%2fmetrics",
    "/tables/{id}/%2e%2e/%2e%2e/metrics",
    "/tables/{id}/../../metrics",
    "/metrics?format=text",
]
"""Ways to ask for the figures from outside."""


def test_metrics_never_come_back_through_the_proxy_however_the_path_is_spelt(
    pair: tuple[Node, Node, str], proxy: Proxy
) -> None:
    """Through HAProxy with the shipped configuration (``/%6detrics`` once passed its ``path_beg /metrics`` deny),
    each spelling is asked several times so that both processes answer: a 4xx every time, never the figures."""
    _, _, table_id = pair
    for path in METRICS_SPELLINGS:
        target = path.format(id=table_id)
        for _ in range(4):
            answer = raw_request(proxy.port, "GET", target.encode())
            assert 400 <= answer.status < 500, (target, answer.status, answer.body[:300])
            assert b"# HELP" not in answer.body, target


def test_the_proxy_refuses_encoded_slashes_and_control_characters_and_gives_every_other_path_one_spelling(
    pair: tuple[Node, Node, str], proxy: Proxy
) -> None:
    """The shipped configuration's rules: an encoded slash, backslash or control character is refused by the proxy
    itself (400); letters written as escapes, dot segments and doubled slashes are brought to one spelling before
    the rules read the path, so a plain route still answers and a spelling of ``/metrics`` is refused (403)."""
    _, _, table_id = pair
    expected = {
        f"/tables/{table_id}/..%2f..%2fmetrics": 400,
        f"/tables/{table_id}/..%5Cmetrics": 400,
        f"/tables/{table_id}/%00": 400,
        f"/tables/{table_id}/%7f": 400,
        f"/tables/{table_id}/%2e%2e/%2e%2e/metrics": 403,
        "/%6detrics": 403,
        f"/%74ables/{table_id}": 200,
        f"/x/../tables/{table_id}": 200,
        f"//tables//{table_id}": 200,
    }
    for target, status in expected.items():
        answer = raw_request(proxy.port, "GET", target.encode())
        assert answer.status == status, (target, answer.status, answer.body[:300])
        if status == 200:
            assert json.loads(answer.body)["id"] == table_id


def test_a_clients_own_forwarded_mark_is_dropped_by_the_proxy_so_every_process_still_finds_the_table(
    pair: tuple[Node, Node, str], proxy: Proxy
) -> None:
    """``X-Clubs-Forwarded`` is set only by one process passing a request to another (it names the processes the
    request has been through): a client that sets it itself, naming three, would be told to try again (503) by every
    process but the owner, and learn which process holds the table. The proxy drops it, so whichever process the
    proxy picks finds the table."""
    _, _, table_id = pair
    with loopback.client(base_url=proxy.base, timeout=30) as client:
        for _ in range(8):  # the proxy picks either process (least connections, one request at a time)
            mark = {"X-Clubs-Forwarded": "x, y, z", "Connection": "close"}  # a fourth pass: 503 if it came through
            answer = client.get(f"/tables/{table_id}", headers=mark)
            assert answer.status_code == 200, answer.text
            assert answer.json()["id"] == table_id


@pytest.mark.long
def test_the_metrics_listener_serves_the_figures_and_the_public_listener_never_does(tmp_path: Path) -> None:
    """``clubs serve --metrics-port``: the figures at that port (on loopback by default), and nothing else there;
    the public port has no ``/metrics`` at all, however it is spelt."""
    metrics_port = free_port()
    with ProcessServer(tmp_path, extra=("--metrics-port", str(metrics_port))) as server:
        inside = f"http://127.0.0.1:{metrics_port}"
        figures = loopback.get(inside + "/metrics", timeout=10)
        assert figures.status_code == 200
        assert "# HELP clubs_tables " in figures.text
        assert figures.headers["content-type"].startswith("text/plain")
        for other in ("/health", "/tables", "/", "/metrics/x"):
            assert loopback.get(inside + other, timeout=10).status_code == 404, other
        assert loopback.post(inside + "/metrics", timeout=10).status_code == 405
        for path in METRICS_SPELLINGS:
            answer = raw_request(server.port, "GET", path.format(id="x").encode())
            assert answer.status == 404 or 400 <= answer.status < 500, (path, answer)
            assert b"# HELP" not in answer.body, path


def test_clubs_serve_help_names_the_metrics_listener() -> None:
    from clubsuite.cli.serve import serve_command

    shown = CliRunner().invoke(serve_command, ["--help"], terminal_width=200).output
    assert "--metrics-port" in shown and "--metrics-host" in shown


@pytest.mark.long
def test_a_bots_moves_are_counted_in_the_action_figures(tmp_path: Path) -> None:
    """``clubs_actions_total{source="bot"}``: a bot's move is applied from its own timer, which the table's next
    timer replaced as the move ended; the move was once left uncounted."""
    metrics_port = free_port()
    with ProcessServer(tmp_path, extra=("--metrics-port", str(metrics_port))) as server:
        new_table(server.base, "whist", [{"kind": "bot", "bot": "random"}] * 3)
        inside = f"http://127.0.0.1:{metrics_port}/metrics"

        def bot_moves() -> float:
            for line in loopback.get(inside, timeout=10).text.splitlines():
                if line.startswith('clubs_actions_total{source="bot"} '):
                    return float(line.split()[-1])
            return 0.0

        deadline = time.monotonic() + 120
        while bot_moves() < 10:
            assert time.monotonic() < deadline, "no bot move was counted"
            time.sleep(0.2)
