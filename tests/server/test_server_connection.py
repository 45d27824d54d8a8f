"""A client's outgoing queue (``server/table/connection.py``): what it sends, how it closes, and that closing leaves
nothing
behind for a stopping server to wait on."""

from __future__ import annotations

from serverkit import in_own_loop

from clubsuite.server.table.connection import QUEUE, Connection


def test_a_socket_closed_twice_queues_its_close_once_and_leaves_an_empty_queue_after_its_writer_ends() -> None:
    """The server says farewell (a ``bye`` and the close), the socket's writer sends both and ends; then the reader's
    own ending closes the connection again. Nothing may be left queued: a stopping server waits for every queue to
    empty, and a close nobody will ever take made every stop wait out its whole bound."""

    async def main() -> list[object]:
        conn = Connection(0)
        conn.send({"type": "bye"})
        conn.send_close()
        taken = [await conn.queue.get(), await conn.queue.get()]  # the writer: the bye, then the close, and it ends
        conn.send_close()  # the reader's ending
        assert conn.queue.empty()
        return taken

    assert in_own_loop(main) == [{"type": "bye"}, None]


def test_a_client_too_slow_for_its_queue_is_dropped_and_its_queue_ends_with_the_close() -> None:
    async def main() -> None:
        conn = Connection(None)
        for i in range(QUEUE + 5):
            conn.send({"n": i})
        assert conn.dropped
        items = [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]
        assert items[-1] is None and items.count(None) == 1
        conn.send({"late": True})  # nothing more is queued once dropped
        assert conn.queue.empty()

    in_own_loop(main)


def test_a_close_queued_after_messages_comes_after_them() -> None:
    async def main() -> list[object]:
        conn = Connection(1)
        conn.send({"a": 1})
        conn.send("encoded")
        conn.send_close()
        return [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]

    assert in_own_loop(main) == [{"a": 1}, "encoded", None]
