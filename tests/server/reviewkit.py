"""A stand-in for the server's review work that a test controls: it counts the reviews the worker processes are given
and can hold each one until the test lets it go.

The review runs in a worker process (forked by the fork server, so nothing of the test's objects reaches it but by
name): the test puts :func:`counted_review` in place of ``replaying.review_answer`` (the pool sends a function by
its module and name, and the worker imports this module from the test's own ``sys.path``) and names its
:class:`Gate` in the environment, which a worker takes from the server as its pool starts. Each review the worker
starts connects to the gate (a Unix socket in Linux's abstract namespace: no file to clean up) and waits for one
byte; the gate counts the connections and answers each at once while open, or holds it until :meth:`Gate.open` while
closed. No sleeps: the worker blocks on its socket and the test waits on the gate's count.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import socket
import threading

GATE_VARIABLE = "CLUBS_TEST_REVIEW_GATE"
"""The environment variable that names the gate's socket to the worker processes."""


def counted_review(raw: bytes | str, gzipped: bool, max_bytes: int, seat: int) -> tuple[int, bytes, bool]:
    """``replaying.review_answer``'s stand-in, run in a worker process: pass the gate named by
    :data:`GATE_VARIABLE`, then answer a small review of ``seat`` (the real search takes seconds to a minute)."""
    name = os.environ.get(GATE_VARIABLE)
    if name:
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect("\0" + name)
            s.recv(1)  # one byte: go on (or the gate closing: go on too)
    return 200, json.dumps({"seat": seat, "decisions": [], "hands": [], "stand_in": True}).encode(), False


class Gate:
    """Where the stand-in reviews pass: :attr:`calls` counts the reviews started in the workers; once closed
    (:meth:`hold`), each is held until :meth:`open`."""

    def __init__(self) -> None:
        self.name = f"clubs-review-gate-{os.getpid()}-{secrets.token_hex(6)}"
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind("\0" + self.name)
        self._listener.listen(64)
        self._lock = threading.Lock()
        self._held: list[socket.socket] = []
        self._closed = False
        self._calls = 0
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def calls(self) -> int:
        """Reviews the workers have started."""
        with self._lock:
            return self._calls

    @property
    def held(self) -> int:
        """Reviews waiting at the closed gate now."""
        with self._lock:
            return len(self._held)

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return  # the listener was closed: the test is over
            with self._lock:
                self._calls += 1
                if self._closed:
                    self._held.append(conn)
                    continue
            _let_go(conn)

    def hold(self) -> None:
        """Hold every review started from now on, until :meth:`open`."""
        with self._lock:
            self._closed = True

    def open(self) -> None:
        """Let every held review go on, and every later one pass at once."""
        with self._lock:
            self._closed = False
            held, self._held = self._held, []
        for conn in held:
            _let_go(conn)

    def close(self) -> None:
        """Stop listening and let every held review go (a worker that connects later finds no gate and goes on)."""
        self.open()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
        self._listener.close()
        self._thread.join(10)


def _let_go(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.sendall(b"x")
    conn.close()
