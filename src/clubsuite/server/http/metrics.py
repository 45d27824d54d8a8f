"""The server's figures in the Prometheus text format (``GET /metrics``), with the ``prometheus_client`` library:
what a process serves, how fast it acts, and how its tables change hands.

Each application keeps its own registry (several applications may live in one test process). The figures are the
process's own: a site of several processes is the sum of their scrapes, each process scraped at its own metrics
listener.

They are for the site's operators only, and are served by :class:`InternalApp` alone, on a listener of its own
(``clubs serve --metrics-port``, on loopback unless told otherwise), never by the public application: no spelling of
a path (``/%6detrics``, ``/tables/x/%2e%2e/%2e%2e/metrics``, whatever a proxy or a forwarding process makes of it)
can reach a route the public listener does not have, where a rule of the proxy's or a check of the path could be
got round. The proxy's own refusal of ``/metrics`` stays, as a second wall.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, GCCollector, Histogram, generate_latest

from clubsuite.server.table.hub import Hub
from clubsuite.server.table.replaying import Replayer

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text format's media type."""
LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
"""Upper bounds, in seconds, of the action latency histogram."""


class Metrics:
    """The figures of one process (see the module docstring)."""

    def __init__(self, hub: Hub) -> None:
        self.registry = CollectorRegistry()
        tables = Gauge("clubs_tables", "tables this process serves", registry=self.registry)
        tables.set_function(lambda: len(hub.tables))
        connections = Gauge("clubs_connections", "open table sockets (players and spectators)", registry=self.registry)
        connections.set_function(lambda: sum(len(t.connections) for t in list(hub.tables.values())))
        self.actions = Counter(
            "clubs_actions", "actions accepted, by who made them", ["source"], registry=self.registry
        )
        self.latency = Histogram(
            "clubs_action_seconds",
            "from an action's arrival to every client of its table told (judged, committed, sent to the queues)",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.leases = Counter(
            "clubs_lease_changes",
            "tables changing hands: taken at start-up or made here, adopted from a dead or stopped process, lost, "
            "handed over at a stop",
            ["change"],
            registry=self.registry,
        )
        self.forwarded = Counter(
            "clubs_forwarded", "requests passed on to the table's owner, by kind", ["kind"], registry=self.registry
        )
        # The cycle collector: its collections by generation (a full one holds every table), and how many objects
        # the serving process set aside once up (``collector``: 0 where the application runs in another program).
        GCCollector(registry=self.registry)
        frozen = Gauge(
            "clubs_gc_frozen_objects",
            "objects set aside at start-up, which no collection walks (the cycle collector's policy of clubs serve)",
            registry=self.registry,
        )
        frozen.set_function(gc.get_freeze_count)
        groups = Gauge(
            "clubs_commit_groups", "transactions the actions were written in (group commit)", registry=self.registry
        )
        groups.set_function(lambda: hub.commits.groups)
        grouped = Gauge(
            "clubs_commit_group_actions",
            "actions written in those transactions (divided by clubs_commit_groups: the mean group)",
            registry=self.registry,
        )
        grouped.set_function(lambda: hub.commits.actions)
        hub.on_action = self.action
        hub.on_lease = self.lease
        hub.on_forward = lambda kind: self.forwarded.labels(kind).inc()

    def watch_reviews(self, replayer: Replayer) -> None:
        """The reviews' figures: worked out here, answered from the database's kept ones, shared with an identical
        request under way, and under way now (a stranger asking reviews in a loop shows in the first)."""
        reviews = Gauge("clubs_reviews", "reviews answered since the start, by how", ["how"], registry=self.registry)
        reviews.labels("worked").set_function(lambda: replayer.reviews_worked)
        reviews.labels("kept").set_function(lambda: replayer.reviews_from_store)
        reviews.labels("shared").set_function(lambda: replayer.reviews_shared)
        under_way = Gauge("clubs_reviews_under_way", "reviews being worked out now", registry=self.registry)
        under_way.set_function(lambda: replayer.reviews_in_flight)

    def action(self, source: str, seconds: float) -> None:
        """Count one accepted action and its latency."""
        self.actions.labels(source).inc()
        self.latency.observe(seconds)

    def lease(self, change: str, count: int = 1) -> None:
        """Count tables changing hands."""
        self.leases.labels(change).inc(count)

    def render(self) -> bytes:
        """Every figure, in the text format."""
        return generate_latest(self.registry)


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class InternalApp:
    """The ASGI application of the operators' listener: ``GET /metrics`` (and ``HEAD``), this process's figures;
    anything else is answered 404 (405 for another method), as JSON like every refusal of the server. It has no
    other route, no WebSocket, and nothing of the public application's (sessions, tables, forwarding)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 4404, "reason": "no_path"})
            return
        method = str(scope.get("method", "GET"))
        if scope.get("path") != "/metrics":
            await _send(send, 404, {"code": "no_path", "message": "this listener serves GET /metrics only"})
        elif method not in ("GET", "HEAD"):
            refusal = {"code": "bad_method", "message": "method not allowed"}
            await _send(send, 405, refusal, [(b"allow", b"GET, HEAD")])
        else:
            body = self.metrics.render()
            headers = [(b"content-type", CONTENT_TYPE.encode()), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body if method == "GET" else b""})


async def _send(
    send: Send, status: int, refusal: dict[str, str], more: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A JSON refusal."""
    body = json.dumps(refusal).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *(more or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to start or stop: each step acknowledged (the public application's lifespan runs the server)."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
