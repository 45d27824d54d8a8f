"""The worker's one entry: a request in JSON, its answer in JSON.

The page's Web Worker hands every request to :func:`handle` as text and posts back the text it returns. A request
is an object with an ``op`` and its fields; an answer is ``{"ok": true, ...}`` or ``{"ok": false, "error": words}``
(a request that is not one never raises: it is answered so, and nothing changes).

Operations:

``table``    ``{"op": "table", "id", "game", "name", "seat", "levels"}`` (or ``"level"``: one for every bot;
             ``"pace"``: the seconds a bot waits, 0 to 10): a new table; its kept form (``saved``),
             which the page stores and opens. With ``"coach": true``: the guided first hand (seat 0, easy bots, the
             lesson's deal; ``seat`` and ``levels`` are not read).
``open``     ``{"op": "open", "saved"}``: the table a page kept, played again to where it was (the worker started
             again since).
``send``     ``{"op": "send", "table", "message"}``: one client message of the table protocol (``hello``, ``act``,
             ``hint``, ``ping``, ``chat``), answered with the messages a server's table would send (``messages``),
             what the page keeps now (``saved``) and which bot moves next (``due``).
``bot``      ``{"op": "bot", "table", "version"}``: the bot that is due moves (the page waited ``due.delay``).
``rematch``  ``{"op": "rematch", "table"}``: the next match with the same seats.
``record``   ``{"op": "record", "table"}``: the record of the match in progress or just ended.
``puzzles``  ``{"op": "puzzles", "path", "body", "rating"}``: a request the puzzle page makes of a server's puzzle
             routes (``path`` with its query; ``body`` null for a ``GET``), for the player whose puzzle rating the
             page keeps (``rating``: null for a new player), answered as a server would
             (:mod:`clubsuite.offline.puzzles`): ``{"ok": true, "answer", "rating"}``, ``rating`` the one to keep
             now (null: unchanged), or ``{"ok": false, "status", "code", "error"}`` with a server's status and code.
``replay``   ``{"op": "replay", "record"}`` (or ``"text"``: a record file's text): every step of a record, as a
             server's replay viewer is sent it (:func:`clubsuite.analysis.frames.replay_frames`):
             ``{"ok": true, "replay"}``.
``review``   ``{"op": "review", "record", "seat"}``: the review of one seat's decisions, as a server's review page
             is sent it (the same search and budget: :data:`clubsuite.analysis.review.PAGE_SAMPLES` deals a
             decision): ``{"ok": true, "review"}``. It takes seconds to a minute of the worker.

Every answer about a table carries ``messages``, ``saved`` and ``due``, so the page always keeps the latest form.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from clubsuite.engine import resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject
from clubsuite.offline import puzzles
from clubsuite.offline.table import OfflineTable, TableError
from clubsuite.records.files import parse_record
from clubsuite.tabletalk import PROTOCOL, error

MAX_REQUEST = 1 << 20
"""The longest request read, in characters (a kept table of the longest match is a few tens of kilobytes)."""
TABLES = 8
"""Tables the worker keeps at once (a page plays one; an older one is played again from its kept form if asked)."""

_tables: dict[str, OfflineTable] = {}


def handle(text: str) -> str:
    """The answer to one request (both JSON text)."""
    try:
        if len(text) > MAX_REQUEST:
            raise TableError(f"a request of {len(text)} characters is longer than {MAX_REQUEST}")
        request = json.loads(text)
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            raise TableError('a request is a JSON object with an "op"')
        op = OPS.get(request["op"])
        if op is None:
            raise TableError(f"unknown op {request['op']!r}: expected one of {', '.join(OPS)}")
        answer = op(request)
    except (ClubsError, ValueError) as exc:
        answer = {"ok": False, "error": str(exc)}
    except Exception as exc:  # a fault of clubsuite's, never the page's: said by its kind (a message may name cards)
        answer = {"ok": False, "error": f"the rules could not answer ({type(exc).__name__}): nothing changed"}
    return json.dumps({"ok": True, **answer} if "ok" not in answer else answer, separators=(",", ":"))


def _table_of(request: JsonObject) -> OfflineTable:
    """The table a request names."""
    table = _tables.get(str(request.get("table")))
    if table is None:
        raise TableError("no such table here: open it from its kept form first")
    return table


def _keep(table: OfflineTable) -> None:
    """Keep ``table``, forgetting the oldest past :data:`TABLES`."""
    _tables.pop(table.id, None)
    _tables[table.id] = table
    while len(_tables) > TABLES:
        del _tables[next(iter(_tables))]


def _told(table: OfflineTable, messages: list[JsonObject]) -> JsonObject:
    """An answer about ``table``: its messages, what the page keeps and which bot is due."""
    return {"messages": list(messages), "saved": table.saved(), "due": table.due()}


def _new(request: JsonObject) -> JsonObject:
    levels, level = request.get("levels"), request.get("level")
    seat, name, game = request.get("seat", 0), request.get("name"), request.get("game")
    if not isinstance(seat, int) or not isinstance(name, str) or not isinstance(game, str):
        raise TableError("a table needs a game (text), a name (text) and the person's seat (a number)")
    if isinstance(level, str) and levels is None:  # one level for every bot, however many seats the rules have
        info, options = resolve(game)
        levels = [level] * (info.n_seats(options) - 1)
    if not isinstance(levels, list) or not all(isinstance(x, str) for x in levels):
        raise TableError("levels: a list of bot levels, one for each seat but the person's (or level: one for all)")
    table_id = request.get("id")
    if not isinstance(table_id, str) or not table_id or len(table_id) > 64:
        raise TableError("id: the table's id, 1 to 64 characters")
    who = name.strip()[:40] or "you"
    pace = request.get("pace")
    if pace is not None and (not isinstance(pace, (int, float)) or isinstance(pace, bool)):
        raise TableError("pace: the seconds a bot waits before it moves (a number)")
    if request.get("coach") is True:  # the guided first hand: its seat, bots and deal are the lesson's
        table = OfflineTable.tutorial(table_id, game, who, pace)
    else:
        table = OfflineTable.new(table_id, game, who, seat, [str(x) for x in levels], pace)
    _keep(table)
    return {"saved": table.saved()}


def _open(request: JsonObject) -> JsonObject:
    table = OfflineTable.restore(request.get("saved"))
    _keep(table)
    return _told(table, [])


def _send(request: JsonObject) -> JsonObject:
    table = _table_of(request)
    msg = request.get("message")
    if not isinstance(msg, dict):
        return _told(table, [error("bad_json", "a message must be a JSON object")])
    kind = msg.get("type")
    if msg.get("protocol", PROTOCOL) != PROTOCOL:
        out = [error("protocol", f"this table speaks protocol {PROTOCOL}, not {msg.get('protocol')!r}")]
    elif kind == "hello":
        last = msg.get("last_version")
        out = table.hello(last if isinstance(last, int) and not isinstance(last, bool) else None)
    elif kind == "act":
        out = table.act(msg.get("action"), msg.get("version"))
    elif kind == "hint":
        out = table.hint(msg.get("version"))
    elif kind == "ping":
        out = [{"type": "pong", "protocol": PROTOCOL, "version": table.version}]
    elif kind == "chat":
        out = [error("bad_chat", "an offline table has nobody to chat with")]
    else:
        out = [error("unknown_type", f"unknown message type {kind!r}")]
    return _told(table, out)


def _bot(request: JsonObject) -> JsonObject:
    table = _table_of(request)
    return _told(table, table.bot_move(request.get("version")))


def _rematch(request: JsonObject) -> JsonObject:
    table = _table_of(request)
    return _told(table, table.rematch())


def _record(request: JsonObject) -> JsonObject:
    return {"record": _table_of(request).record()}


def _puzzles(request: JsonObject) -> JsonObject:
    try:
        answer, rating = puzzles.answer(request.get("path"), request.get("body"), request.get("rating"))
    except puzzles.PuzzleRefused as exc:
        return {"ok": False, "status": exc.status, "code": exc.code, "error": str(exc)}
    return {"answer": answer, "rating": rating}


def _replay(request: JsonObject) -> JsonObject:
    from clubsuite.analysis.frames import replay_frames  # here: a table's worker starts without the replay's code

    text = request.get("text")  # a record file the player opened, as its text: read as every record is read
    record = parse_record(text, "the record") if isinstance(text, str) else request.get("record")
    return {"replay": replay_frames(record)}


def _review(request: JsonObject) -> JsonObject:
    from clubsuite.analysis.review import PAGE_SAMPLES, ReviewSettings, check_reviewable, review  # here, as above

    record, seat = request.get("record"), request.get("seat")
    if not isinstance(record, dict):
        raise TableError("record: a match record (a JSON object)")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise TableError("seat: the seat reviewed (a number)")
    check_reviewable(record, seat)
    return {"review": review(record, seat, ReviewSettings(samples=PAGE_SAMPLES)).to_json()}


OPS: dict[str, Callable[[JsonObject], JsonObject]] = {
    "table": _new,
    "open": _open,
    "send": _send,
    "bot": _bot,
    "rematch": _rematch,
    "record": _record,
    "puzzles": _puzzles,
    "replay": _replay,
    "review": _review,
}
"""Each operation's handler (the module's docstring says what each takes and gives)."""


def reset() -> None:
    """Forget every table (for tests: a worker starts with none)."""
    _tables.clear()
