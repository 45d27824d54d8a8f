"""The offline app's puzzles, judged in the page's Web Worker: what a server's puzzle routes answer
(``clubsuite.server.http.puzzle_routes``), in the same JSON shapes, from the shipped sets
(:mod:`clubsuite.puzzles.sets`), so that the server's puzzle page plays them unchanged with no network.

The routes answered (:func:`answer`, given the request's path, its body and the player's progress):

``GET /puzzles``                         the pools that have puzzles, each with the player's standing in it
``GET /puzzles/{pool}``                  one pool: its kinds, themes and difficulties, the player's standing
``GET /puzzles/{pool}/next``             the next puzzle (``theme``, ``kind``, ``difficulty``, ``streak``, ``seen``
                                         checked as a server checks them)
``GET /puzzles/{pool}/{id}``             one puzzle (a link to it, today's puzzle, a reload)
``POST /puzzles/{pool}/{id}/attempt``    ``{"action"}``: judged (a wrong answer told what it gets, a right one
                                         given the line)
``POST /puzzles/{pool}/{id}/solution``   the solution and its line
``GET /daily-puzzle``                    today's puzzle (UTC, by the browser's clock), chosen as a server chooses it

A position holds what a server's does and no more (:mod:`clubsuite.puzzles.positions`): never the record, the
solution nor any value; the line comes only with a right answer or the solution asked for. (As with any game
against a program on one's own device, the shipped sets are in the browser's files: the page is not shown the
answers, a reader of the app's files may find them.)

**The player's progress** (:class:`Progress`) is the browser's: the page keeps it (IndexedDB) and sends it with every
request; :func:`answer` hands back the new one where the request changed it. It is what a server keeps of a
signed-in account's puzzles (``clubsuite.server.puzzles.progress``), kept in the page instead: each pool's rating,
rated attempts and streaks, and each puzzle shown, in which mode, and whether and how it was answered. The answers
count as a server counts an account's: only the first answer to a puzzle counts, in the mode it was first shown in
(``rated``: the next near the player's rating, or one asked for by its id; ``streak``; ``practice``: a theme
chosen), a puzzle shown rated stays rated until answered, and asking for the solution first is a miss. The rating
is Glicko-2 with lichess's parameters by the pure-Python arithmetic of :mod:`clubsuite.puzzles.glicko` (the page
has no OpenSkill, and needs none: a server rates an account's puzzles with the same module). What differs from a
server: a puzzle's own rating is its shipped first rating, which no answer here moves (one browser is one player;
the attempt says the puzzle's rating before and after alike), nothing is sent anywhere, and a server's ratings are
never touched. What a server and the app both show (the pools, a pool's page, a standing, an answer's rating, today's
puzzle) is made by the same code (:mod:`clubsuite.puzzles.shelves`, :mod:`clubsuite.puzzles.standing`). Standard
library only: the page's core runs this.
"""

from __future__ import annotations

import datetime
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import parse_qsl, unquote

from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.puzzles.choose import DIFFICULTY, matching, next_puzzle
from clubsuite.puzzles.glicko import Glicko, attempt, new_puzzle
from clubsuite.puzzles.model import KINDS, Puzzle, read_set
from clubsuite.puzzles.positions import position_and_line
from clubsuite.puzzles.shelves import Shelf, daily_pick, daily_pool, pool_entry, pool_of, pool_summary
from clubsuite.puzzles.shelves import shelves as shipped_shelves
from clubsuite.puzzles.standing import NEWCOMER, Attempted, Standing
from clubsuite.puzzles.themes import theme_names
from clubsuite.safetext import quoted

RATED, STREAK, PRACTICE, AGAIN = "rated", "streak", "practice", "again"
"""The modes a puzzle is shown in offline (a server's ``own`` mode has no puzzles here), and what an answer to a
puzzle answered before is."""
MODES = (RATED, STREAK, PRACTICE)
MAX_PATH = 4096
"""The longest request path read, query included (a guest's ``seen`` is at most 1300 characters)."""
MAX_ACTION = 200
"""The longest action an answer may name (a server's bound)."""
SEEN_MAX = 100
"""The most puzzle ids a page may name as seen (a server's bound)."""
STREAK_START, STREAK_STEP, STREAK_MAX = 1000, 50, 1000
"""A streak's first puzzle is sought near this rating, each next one this much higher (a server's); the most a page
may say its streak is."""
MAX_POOLS = 64
"""The most pools a kept progress may name."""
MAX_KEPT = 5000
"""The most puzzles a kept progress remembers (the shipped sets hold some 2400): past it the oldest are forgotten."""
MAX_COUNT = 10_000_000
"""The largest count (attempts, streak, tries) a kept progress may hold."""
KEPT_PARTS = 16
"""Puzzles whose worked-out parts the worker keeps ready (a puzzle is shown, then answered, then its line asked)."""
KEPT_POOLS = 2
"""Pools whose puzzles the worker keeps read (a pool's are some 13 MB in memory, all six some 80 MB: too much for a
phone's page to hold for a player who plays one pool at a time; a pool read again takes a fraction of a second)."""

_POOL = re.compile(r"[a-z0-9-]{1,40}")
_PUZZLE_ID = re.compile(r"[0-9a-f]{1,40}")
_THEME = re.compile(r"[a-z0-9_]{1,40}")
_SEEN = re.compile(r"[0-9a-f,]*")


class PuzzleRefused(ClubsError):  # noqa: N818 - a refusal, as a server's (clubsuite.server.puzzles.library)
    """A puzzle request that cannot be answered: the HTTP status a server would answer, its code and the words."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _bad(message: str) -> PuzzleRefused:
    """A request a server's validation would refuse (422)."""
    return PuzzleRefused(422, "bad_request", message)


# -- the player's progress ---------------------------------------------------------------------------------------
def _kept_standing(standing: Standing) -> JsonObject:
    """A pool's standing (:class:`~clubsuite.puzzles.standing.Standing`, shown as a server shows an account's) as
    the browser keeps it: the rating's three numbers whole, not as shown."""
    g = standing.glicko
    return {
        "rating": g.rating,
        "deviation": g.deviation,
        "volatility": g.volatility,
        "attempts": standing.attempts,
        "streak": standing.streak,
        "best_streak": standing.best_streak,
    }


@dataclass
class Shown:
    """One puzzle shown to the player: its pool, the mode its first answer counts in, how many answers it was given
    (0: not answered yet) and whether the last one solved it."""

    pool: str
    mode: str
    tries: int = 0
    solved: bool = False


@dataclass
class Progress:
    """The player's puzzles, kept in the browser (see the module docstring): each pool's standing, each puzzle
    shown (oldest first)."""

    pools: dict[str, Standing] = field(default_factory=dict)
    puzzles: dict[str, Shown] = field(default_factory=dict)

    @classmethod
    def from_json(cls, value: JsonValue) -> Progress:
        """The progress a page kept (None: a new player's); one that is not is refused (400 ``bad_rating``), naming
        what is wrong."""
        if value is None:
            return cls()
        if not isinstance(value, dict) or set(value) != {"pools", "puzzles"}:
            raise _kept('a JSON object with "pools" and "puzzles"')
        pools, puzzles = value["pools"], value["puzzles"]
        if not isinstance(pools, dict) or len(pools) > MAX_POOLS:
            raise _kept(f"pools: an object of at most {MAX_POOLS} pools")
        if not isinstance(puzzles, dict) or len(puzzles) > MAX_KEPT:
            raise _kept(f"puzzles: an object of at most {MAX_KEPT} puzzles")
        out = cls()
        for name, s in pools.items():
            if not _POOL.fullmatch(name) or not isinstance(s, dict):
                raise _kept(f"pool {quoted(name, 40)}: a pool's name and its standing")
            g = Glicko(_real(s, "rating", name), _real(s, "deviation", name), _real(s, "volatility", name))
            if not g.sane():
                raise _kept(f"pool {name}: a rating, deviation and volatility a rating can have")
            counts = [_count(s, k, name) for k in ("attempts", "streak", "best_streak")]
            out.pools[name] = Standing(g, *counts)
        for puzzle_id, p in puzzles.items():
            if not _PUZZLE_ID.fullmatch(puzzle_id) or not isinstance(p, dict):
                raise _kept(f"puzzle {quoted(puzzle_id, 40)}: a puzzle's id and what was shown of it")
            pool, mode, solved = p.get("pool"), p.get("mode"), p.get("solved")
            if not isinstance(pool, str) or not _POOL.fullmatch(pool) or mode not in MODES:
                raise _kept(f"puzzle {puzzle_id}: its pool and its mode (one of {', '.join(MODES)})")
            if not isinstance(solved, bool):
                raise _kept(f"puzzle {puzzle_id}: solved, true or false")
            out.puzzles[puzzle_id] = Shown(pool, str(mode), _count(p, "tries", puzzle_id), solved)
        return out

    def to_json(self) -> JsonObject:
        """As the browser keeps it (what :meth:`from_json` reads)."""
        return {
            "pools": {name: _kept_standing(s) for name, s in self.pools.items()},
            "puzzles": {
                i: {"pool": p.pool, "mode": p.mode, "tries": p.tries, "solved": p.solved}
                for i, p in self.puzzles.items()
            },
        }

    def standing(self, pool: str) -> Standing:
        """The standing in ``pool`` (a newcomer's where the player has none yet)."""
        return self.pools.get(pool, NEWCOMER)

    def tried(self, pool: str) -> dict[str, bool]:
        """Each puzzle of ``pool`` answered: whether its last answer solved it."""
        return {i: p.solved for i, p in self.puzzles.items() if p.pool == pool and p.tries > 0}

    def pending_rated(self, pool: str) -> set[str]:
        """The puzzles of ``pool`` shown rated and not answered yet (they stay rated until answered)."""
        return {i for i, p in self.puzzles.items() if p.pool == pool and p.tries == 0 and p.mode == RATED}

    def answered(self, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` was answered before (or its solution seen)."""
        shown = self.puzzles.get(puzzle.id)
        return shown is not None and shown.tries > 0

    def shown(self, puzzle: Puzzle, pool: str, mode: str) -> tuple[str, bool]:
        """Note that ``puzzle`` is shown in ``mode``: the mode it is played in now (a puzzle shown rated stays so
        until answered; between the unrated modes it may change) and whether it was answered before."""
        kept = self.puzzles.get(puzzle.id)
        if kept is None:
            self._note(puzzle.id, Shown(pool, mode))
            return mode, False
        if kept.tries == 0 and kept.mode not in (mode, RATED) and mode != RATED:
            kept.mode = mode
        return kept.mode, kept.tries > 0

    def record(self, puzzle: Puzzle, pool: str, solved: bool) -> JsonObject:
        """Count one answer as the module docstring says; what it did, as a server's attempt reads (the mode, the
        ratings before and after, the streak)."""
        standing = self.standing(pool)
        g, streak, best = standing.glicko, standing.streak, standing.best_streak
        puzzle_now = new_puzzle(puzzle.rating)  # never moved here (see the module docstring)
        kept = self.puzzles.get(puzzle.id)
        if kept is not None and kept.tries > 0:  # answered before: noted, and nothing else moves
            kept.tries, kept.solved = min(MAX_COUNT, kept.tries + 1), solved
            return Attempted(AGAIN, False, g, g, puzzle_now, puzzle_now, streak, best).to_json()
        mode = kept.mode if kept is not None else RATED
        player, attempts = g, standing.attempts
        if mode == RATED:
            player, _ = attempt(g, puzzle_now, solved)
            attempts = min(MAX_COUNT, attempts + 1)
        if mode == STREAK:
            streak = min(MAX_COUNT, streak + 1) if solved else 0
            best = max(best, streak)
        self.pools[pool] = Standing(player, attempts, streak, best)
        self._note(puzzle.id, Shown(pool, mode, 1, solved))
        return Attempted(mode, mode == RATED, g, player, puzzle_now, puzzle_now, streak, best).to_json()

    def _note(self, puzzle_id: str, shown: Shown) -> None:
        """Keep ``shown`` as the newest, forgetting the oldest past :data:`MAX_KEPT`."""
        self.puzzles.pop(puzzle_id, None)
        self.puzzles[puzzle_id] = shown
        while len(self.puzzles) > MAX_KEPT:
            del self.puzzles[next(iter(self.puzzles))]


def _kept(what: str) -> PuzzleRefused:
    return PuzzleRefused(400, "bad_rating", f"the puzzle rating kept in this browser cannot be read: {what}")


def _real(obj: JsonObject, name: str, where: str) -> float:
    value = obj.get(name)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise _kept(f"pool {where}: {name}, a number")
    return float(value)


def _count(obj: JsonObject, name: str, where: str) -> int:
    value = obj.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
        raise _kept(f"{where}: {name}, a whole number from 0 to {MAX_COUNT}")
    return value


# -- the shipped puzzles -----------------------------------------------------------------------------------------
@cache
def shelves() -> dict[str, Shelf]:
    """Every pool that has shipped puzzles, by name, in the order the index lists them (a server's pools:
    :func:`clubsuite.puzzles.shelves.shelves`), read once."""
    return shipped_shelves()


def shelf(pool: str) -> Shelf:
    """The shelf of ``pool``; 404 naming the pools there are."""
    found = shelves().get(pool)
    if found is None:
        raise PuzzleRefused(404, "no_puzzles", f"there are no puzzles of that pool; there are: {', '.join(shelves())}")
    return found


_loaded: OrderedDict[str, dict[str, Puzzle]] = OrderedDict()


def puzzles_of(pool: str) -> dict[str, Puzzle]:
    """The puzzles of ``pool`` by id (the last :data:`KEPT_POOLS` pools asked for kept read)."""
    found = _loaded.get(pool)
    if found is None:
        found = _loaded[pool] = {p.id: p for s in shelf(pool).sets for p in read_set(s.file)}
        while len(_loaded) > KEPT_POOLS:
            _loaded.popitem(last=False)
    _loaded.move_to_end(pool)
    return found


def puzzle_in(pool: str, puzzle_id: str) -> Puzzle:
    """The puzzle ``puzzle_id`` of ``pool``; 404 where it has none of that id."""
    found = puzzles_of(pool).get(puzzle_id)
    if found is None:
        raise PuzzleRefused(404, "no_puzzle", "there is no puzzle of that id in this pool")
    return found


_parts: OrderedDict[str, JsonObject] = OrderedDict()
broken: set[str] = set()
"""The puzzles whose position could not be worked out here (never chosen as the next puzzle again)."""


def parts(puzzle: Puzzle) -> JsonObject:
    """The puzzle's position and line (:func:`~clubsuite.puzzles.positions.position_and_line`), the last
    :data:`KEPT_PARTS` kept; one that cannot be worked out is a 503, and set aside in :data:`broken`."""
    kept = _parts.get(puzzle.id)
    if kept is not None:
        _parts.move_to_end(puzzle.id)
        return kept
    try:
        made = position_and_line(puzzle)
    except Exception:  # a fault of the shipped set or of a game's presentation: this puzzle only, never the worker
        broken.add(puzzle.id)
        raise PuzzleRefused(503, "busy", "this puzzle cannot be shown just now: try another") from None
    _parts[puzzle.id] = made
    while len(_parts) > KEPT_PARTS:
        _parts.popitem(last=False)
    return made


def daily(day: datetime.date) -> Puzzle:
    """The puzzle of ``day``, chosen as a server chooses it (the same puzzle:
    :func:`~clubsuite.puzzles.shelves.daily_pool`, :func:`~clubsuite.puzzles.shelves.daily_pick`)."""
    pool = daily_pool(shelves(), day)
    if pool is None:
        raise PuzzleRefused(404, "no_puzzles", "this app has no puzzles")
    return daily_pick(puzzles_of(pool).values(), day)


# -- the routes --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Request:
    """One request as the page makes it of a server: its path's parts (decoded), its query and its body (None: a
    ``GET``), with the player's progress."""

    parts: tuple[str, ...]
    query: Mapping[str, str]
    body: JsonValue
    progress: Progress
    today: datetime.date
    """The day it is (UTC): today's puzzle is this day's."""

    @property
    def posted(self) -> bool:
        """Whether it is a ``POST`` (it has a body)."""
        return self.body is not None


def answer(
    path: JsonValue, body: JsonValue, kept: JsonValue, today: datetime.date | None = None
) -> tuple[JsonObject, JsonObject | None]:
    """The answer to the request ``path`` (with its query) with ``body`` (None: a ``GET``) for the player whose
    progress the page kept as ``kept`` (None: a new player's), and the progress to keep now (None: unchanged).
    ``today``: the day it is (UTC) where not today. A request that cannot be answered raises
    :class:`PuzzleRefused` with a server's status, code and words; nothing changes then."""
    if not isinstance(path, str) or not path.startswith("/") or len(path) > MAX_PATH:
        raise PuzzleRefused(
            400, "bad_request", f"path: a request's path, starting with /, of at most {MAX_PATH} characters"
        )
    if body is not None and not isinstance(body, dict):
        raise _bad("the body of a request is a JSON object")
    progress = Progress.from_json(kept)
    before = progress.to_json()
    route, _, query = path.partition("?")
    parts = tuple(unquote(p) for p in route.split("/") if p)
    day = today if today is not None else datetime.datetime.now(datetime.UTC).date()
    request = Request(parts, dict(parse_qsl(query, keep_blank_values=True)), body, progress, day)
    handler, posted = _route(parts)
    if posted != request.posted:
        raise PuzzleRefused(405, "bad_method", "method not allowed")
    out = handler(request)
    after = progress.to_json()
    return out, (after if after != before else None)


def _route(parts: tuple[str, ...]) -> tuple[Callable[[Request], JsonObject], bool]:
    """The handler of a path's parts and whether it is posted to; 404 for a path there is no route of."""
    if parts == ("puzzles",):
        return _pools, False
    if parts == ("daily-puzzle",):
        return _daily, False
    if len(parts) >= 2 and parts[0] == "puzzles" and parts[1] not in ("history", "mine"):
        if len(parts) == 2:
            return _pool_page, False
        if len(parts) == 3:
            return (_next, False) if parts[2] == "next" else (_one, False)
        if len(parts) == 4 and parts[3] in ("attempt", "solution"):
            return (_attempt, True) if parts[3] == "attempt" else (_solution, True)
    raise PuzzleRefused(
        404,
        "no_path",
        "not available offline: the app answers the puzzles and today's puzzle (a server keeps "
        "a signed-in account's history and own puzzles)",
    )


def _pool_named(request: Request) -> str:
    """The pool the path names (checked as a server checks it)."""
    pool = request.parts[1]
    if not _POOL.fullmatch(pool):
        raise _bad("pool: a pool's name, 1 to 40 of a-z, 0-9 and -")
    return pool


def _puzzle_named(request: Request) -> tuple[str, Puzzle]:
    """The pool and the puzzle the path names."""
    pool, puzzle_id = _pool_named(request), request.parts[2]
    if not _PUZZLE_ID.fullmatch(puzzle_id):
        raise _bad("puzzle_id: a puzzle's id, 1 to 40 of 0-9 and a-f")
    return pool, puzzle_in(pool, puzzle_id)


def _pools(request: Request) -> JsonObject:
    out: list[JsonValue] = [pool_entry(s, request.progress.standing(s.pool)) for s in shelves().values()]
    return {"signed_in": False, "pools": out}


def _daily(request: Request) -> JsonObject:
    puzzle = daily(request.today)
    return {"date": request.today.isoformat(), "pool": pool_of(puzzle), "id": puzzle.id, "game": puzzle.game}


def _pool_page(request: Request) -> JsonObject:
    pool = _pool_named(request)
    return pool_summary(pool, shelf(pool).game, puzzles_of(pool).values(), request.progress.standing(pool))


def _next(request: Request) -> JsonObject:
    pool = _pool_named(request)
    q = request.query
    theme, kind, difficulty = q.get("theme"), q.get("kind"), q.get("difficulty", "normal")
    streak_text, seen = q.get("streak"), q.get("seen", "")
    if theme is not None and not _THEME.fullmatch(theme):
        raise _bad("theme: a theme's id, 1 to 40 of a-z, 0-9 and _")
    if kind is not None and kind not in KINDS:
        raise _bad(f"kind: one of {', '.join(KINDS)}")
    if difficulty not in DIFFICULTY:
        raise _bad(f"difficulty: one of {', '.join(DIFFICULTY)}")
    if streak_text is not None and not (streak_text.isdigit() and int(streak_text) <= STREAK_MAX):
        raise _bad(f"streak: a whole number from 0 to {STREAK_MAX}")
    if len(seen) > SEEN_MAX * 13 or not _SEEN.fullmatch(seen):
        raise _bad(f"seen: at most {SEEN_MAX} puzzle ids, comma-separated")  # read as a server reads it; the progress
        # says which puzzles were answered here, as a server knows an account's
    puzzles = list(puzzles_of(pool).values())
    game = shelf(pool).game
    if theme is not None and theme not in theme_names(game):
        raise PuzzleRefused(400, "bad_request", f"theme {quoted(theme, 40)} is not one of this game's")
    progress = request.progress
    standing = progress.standing(pool)
    rating = standing.glicko.shown()[0]
    if streak_text is not None:
        rating, difficulty = STREAK_START + STREAK_STEP * standing.streak, "normal"
    candidates = [p for p in matching(puzzles, theme, kind) if p.id not in broken]
    if not candidates:
        raise PuzzleRefused(404, "no_match", "this pool has no puzzle of that theme and kind")
    mode = STREAK if streak_text is not None else PRACTICE if theme is not None else RATED
    pending = progress.pending_rated(pool)
    if mode == RATED:  # a puzzle shown rated and not answered is offered again first (no skipping one once seen)
        waiting = sorted(p.id for p in puzzles if p.id in pending and p.id not in broken)
        if waiting:
            return _shown(request, pool, puzzles_of(pool)[waiting[0]], mode)
    candidates = [p for p in candidates if p.id not in pending] or candidates
    chosen = next_puzzle(candidates, rating, {}, progress.tried(pool), difficulty)
    if chosen is None:
        raise PuzzleRefused(404, "all_solved", "every puzzle asked for is solved")
    return _shown(request, pool, chosen, mode)


def _one(request: Request) -> JsonObject:
    pool, puzzle = _puzzle_named(request)
    return _shown(request, pool, puzzle, RATED)


def _shown(request: Request, pool: str, puzzle: Puzzle, mode: str) -> JsonObject:
    """The puzzle's position, with its rating, the mode it is played in and whether it was answered before (noted
    as shown in the progress)."""
    position = parts(puzzle)["position"]
    played, tried = request.progress.shown(puzzle, pool, mode)
    return {
        **position,
        "pool": pool,
        "rating": new_puzzle(puzzle.rating).shown()[0],
        "mode": played,
        "tried": tried,
        "own": False,
    }


def _attempt(request: Request) -> JsonObject:
    pool, puzzle = _puzzle_named(request)
    body = request.body
    assert isinstance(body, dict)  # a posted request's (checked by answer)
    extra = sorted(set(body) - {"action"})
    if extra:
        raise _bad(f"{quoted(extra[0], 40)}: extra inputs are not permitted")
    action = body.get("action")
    if not isinstance(action, str) or len(action) > MAX_ACTION:
        raise _bad(f"action: the action, in the game's notation (text of at most {MAX_ACTION} characters)")
    worked = parts(puzzle)
    if action not in worked["position"]["legal"]:
        raise PuzzleRefused(400, "illegal", f"{quoted(action, 40)} is not one of the legal actions here")
    right = action == puzzle.solution
    out: JsonObject = {
        "right": right,
        "action": action,
        "kind": puzzle.kind,
        "measure": puzzle.measure,
        "goal": puzzle.goal,
        "attempt": request.progress.record(puzzle, pool, right),
    }
    if right:
        out["line"] = worked["line"]
    else:
        out["value"] = puzzle.values[action]
        if not puzzle.exact:
            out["best"] = puzzle.values[puzzle.solution]
    return out


def _solution(request: Request) -> JsonObject:
    pool, puzzle = _puzzle_named(request)
    worked = parts(puzzle)
    progress = request.progress
    done = progress.record(puzzle, pool, False) if not progress.answered(puzzle) else None
    return {"line": worked["line"], "attempt": done}
