"""The puzzle routes (``/puzzles...``, ``/daily-puzzle``): the pools that have puzzles, the next puzzle near a
player's rating, a puzzle by its id, today's puzzle, an answer judged and rated, the solution, an account's history.

The page is shown a puzzle's position only (:mod:`clubsuite.server.puzzles.positions`): the seat's own view, its
legal actions, and every hand for an exact puzzle. An answer is judged here, against the solution the server keeps;
a wrong one is told what it gets (its value, and for a single-dummy puzzle the answer's share of wins beside it,
never which action it is), a right one (or the solution, once asked for) is given the line. How an answer counts is
fixed when the puzzle is shown (:mod:`clubsuite.server.puzzles.progress`: rated, streak, practice or own), never by
the page when it answers.
A guest plays unrated and nothing of it is kept; a signed-in account's attempts are rated and kept
(:mod:`clubsuite.server.puzzles.progress`), a change carrying the session's CSRF token. After a finished match, its
player may have the decisions they missed made into puzzles of their own (``POST /tables/{id}/puzzles``,
:mod:`clubsuite.server.puzzles.own`), played on the same pages, unrated, private unless shared. Every route is
Showing a puzzle, answering and asking for a solution count in the address's puzzle rate (``--puzzle-rate``) besides
its request rate; a position is worked out in a worker process.
"""

from __future__ import annotations

import datetime
import json
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.puzzles.choose import matching, next_puzzle
from clubsuite.puzzles.model import Puzzle
from clubsuite.puzzles.shelves import pool_entry, pool_summary
from clubsuite.puzzles.standing import NEWCOMER
from clubsuite.puzzles.themes import theme_names
from clubsuite.safetext import quoted
from clubsuite.server.http.guard import client_address
from clubsuite.server.http.services import (
    AccountsDep,
    LibraryDep,
    LobbyDep,
    OwnPuzzlesDep,
    ProgressDep,
    ReplayerDep,
)
from clubsuite.server.http.sessions import signed_in
from clubsuite.server.people.accounts import AccountRefused, Accounts, User
from clubsuite.server.puzzles.library import Library, PuzzleRefused
from clubsuite.server.puzzles.own import OwnPuzzles, own_puzzles_answer, pool_of
from clubsuite.server.puzzles.progress import Progress, PuzzleMode
from clubsuite.server.table.replaying import ReplayRefused

PoolName = Annotated[str, Path(max_length=40, pattern=r"^[a-z0-9-]+$")]
PuzzleId = Annotated[str, Path(max_length=40, pattern=r"^[0-9a-f]+$")]
SEEN_MAX = 100
"""The most puzzle ids a guest's page may name as seen (it keeps them itself: nothing of a guest is kept here)."""
HISTORY_MAX = 100
STREAK_START, STREAK_STEP = 1000, 50
"""A streak's first puzzle is sought near this rating, each next one this much higher."""
STREAK_MAX = 1000


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class AttemptIn(_Strict):
    """An answer to a puzzle (how it counts is the server's to say: the mode the puzzle was shown in)."""

    action: str = Field(..., max_length=200, description="the action, in the game's notation (one of the legal)")


class MakeIn(_Strict):
    """Asking for puzzles of one's own missed decisions in a finished match."""

    seat: int = Field(..., ge=0, le=11, description="the seat the account played")
    match: int = Field(..., ge=0, le=1_000_000, description="the match's number at its table")
    invite: str | None = Field(None, max_length=64, description="a private table's invite code")


class ShareIn(_Strict):
    """Sharing an own puzzle (anyone with its link may play it), or making it private again."""

    shared: bool


router = APIRouter()
"""The puzzle routes (see the module docstring); each names the puzzle services it needs as dependencies."""


async def who(accounts: Accounts, request: Request, changes: bool) -> User | None:
    """The signed-in account asking (a change: with its CSRF token), or None for a guest."""
    found = await signed_in(accounts, request, changes)
    return found[1] if found is not None else None


async def find(library: Library, own: OwnPuzzles, pool: str, puzzle_id: str, user: User | None) -> tuple[Puzzle, bool]:
    """A puzzle of ``pool`` the asker may play: a shipped one, or an own one (theirs, or shared): (it, own)."""
    try:
        return await library.puzzle(pool, puzzle_id), False
    except PuzzleRefused:
        mine = await own.puzzle(puzzle_id, user.id if user is not None else None)
        if mine is None or pool_of(mine) != pool:
            raise
        return mine, True


async def shown_puzzle(
    library: Library, progress: Progress, puzzle: Puzzle, user: User | None, mode: str, request: Request
) -> JsonObject:
    """The puzzle's position for the asker, with its rating now, the mode it is played in and whether the asker
    answered it before (an account's: noted as shown in ``mode``, :meth:`Progress.shown`)."""
    parts = await _parts(library, puzzle, request, user)
    skill = await progress.skill(puzzle)
    tried = False
    if user is not None:
        mode, tried = await progress.shown(user.id, puzzle, pool_of(puzzle), mode)
    return {
        **parts["position"],
        "pool": pool_of(puzzle),
        "rating": skill.shown()[0],
        "mode": mode,
        "tried": tried,
        "own": mode == PuzzleMode.OWN,
    }


@router.get("/puzzles")
async def pools(request: Request, accounts: AccountsDep, library: LibraryDep, progress: ProgressDep) -> JsonObject:
    """The pools that have puzzles (a game, or a game at one seat count), how many each holds, and the signed-in
    account's puzzle rating in each."""
    user = await who(accounts, request, False)
    standings = await progress.standings(user.id) if user is not None else {}
    out: list[JsonValue] = [
        pool_entry(shelf, standings.get(shelf.pool, NEWCOMER) if user is not None else None)
        for shelf in library.shelves.values()
    ]
    return {"signed_in": user is not None, "pools": out}


@router.get("/daily-puzzle")
async def daily(library: LibraryDep) -> JsonObject:
    """Today's puzzle (UTC), the same for everyone: its pool and id (``GET /puzzles/{pool}/{id}`` shows it)."""
    today = datetime.datetime.now(datetime.UTC).date()
    try:
        puzzle = await library.daily(today)
    except PuzzleRefused as exc:
        raise _http(exc) from None
    return {"date": today.isoformat(), "pool": pool_of(puzzle), "id": puzzle.id, "game": puzzle.game}


@router.get("/puzzles/history")
async def history(
    request: Request,
    accounts: AccountsDep,
    progress: ProgressDep,
    before: Annotated[float | None, Query(ge=0, le=1e11)] = None,
    limit: Annotated[int, Query(ge=1, le=HISTORY_MAX)] = 30,
) -> list[JsonObject]:
    """The signed-in account's attempts, newest first (``before``: older than that time, for the next page)."""
    user = await who(accounts, request, False)
    if user is None:
        raise AccountRefused(401, "signed_out", "sign in to keep a history of your puzzles")
    return await progress.history(user.id, before, limit)


@router.get("/puzzles/mine")
async def my_puzzles(request: Request, accounts: AccountsDep, own: OwnPuzzlesDep) -> list[JsonObject]:
    """The signed-in account's own puzzles (made from its missed decisions), newest first."""
    user = await who(accounts, request, False)
    if user is None:
        raise AccountRefused(401, "signed_out", "sign in to have puzzles of your own")
    return await own.mine(user.id)


@router.post("/puzzles/mine/{puzzle_id}/share")
async def share(
    puzzle_id: PuzzleId, body: ShareIn, request: Request, accounts: AccountsDep, own: OwnPuzzlesDep
) -> JsonObject:
    """Share one of the account's own puzzles (anyone with its link may play it; the match it comes from stays
    private), or make it private again."""
    user = await who(accounts, request, True)
    if user is None:
        raise AccountRefused(401, "signed_out", "sign in to have puzzles of your own")
    if not await own.share(user.id, puzzle_id, body.shared):
        raise HTTPException(404, {"code": "no_puzzle", "message": "you have no puzzle of that id"})
    return {"id": puzzle_id, "shared": body.shared}


@router.post("/tables/{table_id}/puzzles")
async def make_mine(
    table_id: Annotated[str, Path(max_length=64)],
    body: MakeIn,
    request: Request,
    accounts: AccountsDep,
    own: OwnPuzzlesDep,
    lobby: LobbyDep,
    replayer: ReplayerDep,
) -> JsonObject:
    """Make puzzles of the decisions the signed-in account missed at its seat of a finished match (the seat it
    played; a private table's needs its invite code): looked at once in a review worker, counted in the review
    budgets of the address and the account, and kept; asked again, the puzzles already made (``made``: false).
    They are the account's own, unrated, private unless shared."""
    user = await who(accounts, request, True)
    if user is None:
        raise AccountRefused(401, "signed_out", "sign in to make puzzles of your games")
    if await own.player_of(table_id, body.match, body.seat) != user.id:
        raise HTTPException(
            403,
            {"code": "not_yours", "message": "puzzles are made only of the seat you played in a finished match"},
        )
    kept = await own.made(user.id, table_id, body.match, body.seat)
    if kept is not None:
        return {"made": False, "puzzles": kept}
    raw = await lobby.stored_record(table_id, body.match, body.invite)
    try:
        status, answer, _ = await replayer.budgeted(
            own_puzzles_answer, client_address(request.scope), user.id, raw, body.seat
        )
    except ReplayRefused as exc:
        wait = {"retry-after": str(exc.retry_after)} if exc.retry_after is not None else None
        raise HTTPException(exc.status, {"code": exc.code, "message": str(exc)}, wait) from None
    if status != 200:
        raise HTTPException(status, json.loads(answer))
    await own.keep(user.id, table_id, body.match, body.seat, answer)
    return {"made": True, "puzzles": await own.made(user.id, table_id, body.match, body.seat) or []}


@router.get("/puzzles/{pool}")
async def pool_page(
    pool: PoolName, request: Request, accounts: AccountsDep, library: LibraryDep, progress: ProgressDep
) -> JsonObject:
    """One pool's puzzles: how many of each kind and of each theme (with the theme's name and meaning, in
    English: a page words them from its catalog), the difficulties to choose from, and the signed-in account's
    standing (rating, attempts, streak)."""
    try:
        puzzles = list((await library.puzzles(pool)).values())
    except PuzzleRefused as exc:
        raise _http(exc) from None
    user = await who(accounts, request, False)
    standing = await progress.standing(user.id, pool) if user is not None else None
    return pool_summary(pool, library.shelf(pool).game, puzzles, standing)


@router.get("/puzzles/{pool}/next")
async def next_one(
    pool: PoolName,
    request: Request,
    accounts: AccountsDep,
    library: LibraryDep,
    progress: ProgressDep,
    theme: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z0-9_]+$")] = None,
    kind: Annotated[Literal["double_dummy", "endgame", "single_dummy"] | None, Query()] = None,
    difficulty: Annotated[Literal["easiest", "easier", "normal", "harder", "hardest"], Query()] = "normal",
    streak: Annotated[int | None, Query(ge=0, le=STREAK_MAX)] = None,
    seen: Annotated[str, Query(max_length=SEEN_MAX * 13, pattern=r"^[0-9a-f,]*$")] = "",
) -> JsonObject:
    """The next puzzle for the asker: one not tried yet, of ``theme`` and ``kind`` if named, as near the asker's
    puzzle rating as there is (moved by ``difficulty``); in a streak (``streak``: puzzles solved in it so far),
    near a rating that rises with each solved. An account's puzzle shown rated and not answered yet is the next
    rated one again, whatever ``difficulty`` or ``kind`` asks (it cannot be skipped once seen). A guest's page
    names the puzzles it has ``seen`` (ids, comma-separated); an account's are known here. Once every such puzzle
    was solved, 404 ``all_solved``."""
    try:
        puzzles = list((await library.puzzles(pool)).values())
    except PuzzleRefused as exc:
        raise _http(exc) from None
    game = library.shelf(pool).game
    if theme is not None and theme not in theme_names(game):
        raise HTTPException(
            400, {"code": "bad_request", "message": f"theme {quoted(theme, 40)} is not one of this game's"}
        )
    user = await who(accounts, request, False)
    if user is not None:
        standing = await progress.standing(user.id, pool)
        tried = await progress.tried(user.id, pool)
    else:
        standing = NEWCOMER
        tried = dict.fromkeys((s for s in seen.split(",")[:SEEN_MAX] if s), True)
    rating = standing.glicko.shown()[0]
    if streak is not None:
        at = standing.streak if user is not None else streak
        rating, difficulty = STREAK_START + STREAK_STEP * at, "normal"
    candidates = [p for p in matching(puzzles, theme, kind) if p.id not in library.broken]
    if not candidates:
        raise HTTPException(404, {"code": "no_match", "message": "this pool has no puzzle of that theme and kind"})
    mode = PuzzleMode.STREAK if streak is not None else PuzzleMode.PRACTICE if theme is not None else PuzzleMode.RATED
    if user is not None:
        # a puzzle shown rated and not answered stays rated (Progress.shown): the unrated modes pass it by, and
        # the rated mode offers it again first, whatever difficulty or kind is asked (no skipping one once seen)
        pending = await progress.pending_rated(user.id, pool)
        if mode == PuzzleMode.RATED:
            waiting = sorted(p.id for p in puzzles if p.id in pending and p.id not in library.broken)
            if waiting:
                first = next(p for p in puzzles if p.id == waiting[0])
                return await shown_or_busy(library, progress, first, user, mode, request)
        candidates = [p for p in candidates if p.id not in pending] or candidates
    chosen = next_puzzle(candidates, rating, await progress.ratings(pool), tried, difficulty)
    if chosen is None:
        raise HTTPException(404, {"code": "all_solved", "message": "every puzzle asked for is solved"})
    return await shown_or_busy(library, progress, chosen, user, mode, request)


async def shown_or_busy(
    library: Library, progress: Progress, puzzle: Puzzle, user: User | None, mode: str, request: Request
) -> JsonObject:
    """:func:`shown_puzzle`, a refusal (a busy worker pool) as its HTTP error."""
    try:
        return await shown_puzzle(library, progress, puzzle, user, mode, request)
    except PuzzleRefused as exc:
        raise _http(exc) from None


@router.get("/puzzles/{pool}/{puzzle_id}")
async def one(
    pool: PoolName,
    puzzle_id: PuzzleId,
    request: Request,
    accounts: AccountsDep,
    library: LibraryDep,
    own: OwnPuzzlesDep,
    progress: ProgressDep,
) -> JsonObject:
    """The puzzle ``puzzle_id`` of ``pool`` (a link to it, today's puzzle, one from the history, an own one)."""
    user = await who(accounts, request, False)
    try:
        puzzle, mine = await find(library, own, pool, puzzle_id, user)
    except PuzzleRefused as exc:
        raise _http(exc) from None
    return await shown_or_busy(library, progress, puzzle, user, PuzzleMode.OWN if mine else PuzzleMode.RATED, request)


@router.post("/puzzles/{pool}/{puzzle_id}/attempt")
async def attempt(
    pool: PoolName,
    puzzle_id: PuzzleId,
    body: AttemptIn,
    request: Request,
    accounts: AccountsDep,
    library: LibraryDep,
    own: OwnPuzzlesDep,
    progress: ProgressDep,
) -> JsonObject:
    """Answer the puzzle: right or wrong (a wrong answer is told what it gets; a right one is given the line).
    How a signed-in account's answer counts is the mode the puzzle was shown to it in (``attempt``: the ratings
    before and after, the streak): its first answer to a puzzle of the next near its rating is rated, one in a
    streak moves the streak, one in practice (a theme chosen) or at an own puzzle counts for nothing, and a
    puzzle answered before is played again (``again``); a guest's answer is judged only. An action that is not
    legal at the puzzle's point is refused (400 ``illegal``) and counts as nothing."""
    user = await who(accounts, request, True)
    try:
        puzzle, mine = await find(library, own, pool, puzzle_id, user)
        parts = await _parts(library, puzzle, request, user)
    except PuzzleRefused as exc:
        raise _http(exc) from None
    if body.action not in parts["position"]["legal"]:
        raise HTTPException(
            400,
            {"code": "illegal", "message": f"{quoted(body.action, 40)} is not one of the legal actions here"},
        )
    right = body.action == puzzle.solution
    done = (
        await progress.record(user.id, puzzle, pool, right, PuzzleMode.OWN if mine else PuzzleMode.RATED)
        if user
        else None
    )
    out: JsonObject = {
        "right": right,
        "action": body.action,
        "kind": puzzle.kind,
        "measure": puzzle.measure,
        "goal": puzzle.goal,
        "attempt": done.to_json() if done is not None else None,
    }
    if right:
        out["line"] = parts["line"]
    else:
        out["value"] = puzzle.values[body.action]
        if not puzzle.exact:
            out["best"] = puzzle.values[puzzle.solution]
    return out


@router.post("/puzzles/{pool}/{puzzle_id}/solution")
async def solution(
    pool: PoolName,
    puzzle_id: PuzzleId,
    request: Request,
    accounts: AccountsDep,
    library: LibraryDep,
    own: OwnPuzzlesDep,
    progress: ProgressDep,
) -> JsonObject:
    """The puzzle's solution and its line. For a signed-in account that has not answered the puzzle, asking is
    its first answer, a miss (rated as a wrong one, or the end of a streak, as the puzzle's mode says)."""
    user = await who(accounts, request, True)
    try:
        puzzle, mine = await find(library, own, pool, puzzle_id, user)
        parts = await _parts(library, puzzle, request, user)
    except PuzzleRefused as exc:
        raise _http(exc) from None
    done = None
    if user is not None and not await progress.answered(user.id, puzzle):
        done = await progress.record(user.id, puzzle, pool, False, PuzzleMode.OWN if mine else PuzzleMode.RATED)
    return {"line": parts["line"], "attempt": done.to_json() if done is not None else None}


async def _parts(library: Library, puzzle: Puzzle, request: Request, user: User | None) -> JsonObject:
    """The puzzle's parts for the asker (its address, and its account if signed in: one puzzle not yet worked out
    at a time each), a busy worker pool a 503 with a wait."""
    askers = (client_address(request.scope), *((f"account {user.id}",) if user is not None else ()))
    try:
        return await library.parts(puzzle, askers)
    except ReplayRefused as exc:
        raise PuzzleRefused(exc.status, exc.code, str(exc), retry_after=2) from None


def _http(exc: PuzzleRefused) -> HTTPException:
    wait = {"retry-after": str(exc.retry_after)} if exc.retry_after is not None else None
    return HTTPException(exc.status, {"code": exc.code, "message": str(exc)}, wait)
