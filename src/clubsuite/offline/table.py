"""One offline table: a person and bots, a match played in the page, told in the table protocol's messages.

It answers the messages a server's table answers (``hello``, ``act``, ``hint``, ``ping``) with the messages a
server's table sends (``welcome``, ``state``, ``update``, ``catchup``, ``presence``, ``hint``, ``pong``, ``error``),
each made by :mod:`clubsuite.tabletalk` as the server makes its own, so the table page cannot tell the two apart.
What differs is said in ``docs/app.md``: there is one person, no chat, no clock, no spectator, and the bots move
when the page asks (:meth:`OfflineTable.due` says when, :meth:`OfflineTable.bot_move` moves), so that the page paces
them as a server's timers would and a searching bot thinks in the worker, never in the page's own thread.

A table is kept by the page as :meth:`OfflineTable.saved` (its game, seats, seed and the actions of the match in
progress, and the rules that played them: :func:`rules`) and rebuilt from that by :meth:`OfflineTable.restore`,
replaying the actions: the page can be closed at any moment and the match goes on where it was. A table kept by
other rules is refused: a match is never played by two versions' rules.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clubsuite import __version__, lesson, tabletalk
from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.bots.personas import level_words, persona_names
from clubsuite.engine import Events, SomeMatch, resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.present import rulings, with_shown
from clubsuite.ratings import pool
from clubsuite.reasons import reason_of
from clubsuite.records.writer import record_from_match
from clubsuite.seeding import derive_seed
from clubsuite.tabletalk import error, message
from clubsuite.view_base import HasSpectator

LEVELS: Mapping[str, str] = {"easy": "easy", "normal": "heuristic", "hard": "hard"}
"""The bots an offline table seats, by level: the levels a server offers but ``expert`` (its search takes seconds a
move in the page's Python: ``docs/app.md``, "Speed")."""
BOT_DELAY = 0.6
"""Seconds a bot waits before it moves, so that the person can follow the play (after a trick or a hand, up to
:data:`clubsuite.tabletalk.AFTER_TRICK` more)."""
MAX_PACE = 10.0
"""The longest a bot may be asked to wait (as a server's table allows)."""
TUTORIAL_PACE = 1.5
"""Seconds a bot of the guided first hand waits, so that a newcomer follows every card (as on a server)."""
TUTORIAL_BOT = "easy"
"""The level of the bots a newcomer meets in the guided first hand (as on a server)."""
RECENT = 256
"""How many recent versions' events the table keeps for a page that comes back (older ones get a full state)."""


_rules = __version__


def rules() -> str:
    """Which rules this worker plays by: clubsuite's version, and where the page said so, the hash of the core it
    runs (:func:`set_rules`): a table kept by other rules is not continued, and a record names them."""
    return _rules


def set_rules(core_sha256: str) -> None:
    """Name the rules by the core the worker unpacked (its SHA-256, from the page): a build whose Python changed
    plays by other rules even where clubsuite's version number did not change."""
    global _rules  # one worker, one core: set once at its start
    _rules = f"{__version__}+{core_sha256[:16]}"


class TableError(ClubsError):
    """A request the offline table refuses: a bad game, seat, level or saved table; the message names it."""


@dataclass(frozen=True)
class Seat:
    """One seat: the person's (``bot`` None) or a bot's (``bot`` a level of :data:`LEVELS`)."""

    seat: int
    name: str
    bot: str | None = None

    def to_json(self) -> JsonObject:
        """The kept form."""
        return {"seat": self.seat, "name": self.name, "bot": self.bot}


class OfflineTable:
    """A table of one person and bots, in the page. Built by :meth:`new` or :meth:`restore`."""

    def __init__(
        self,
        table_id: str,
        spec: str,
        seats: Sequence[Seat],
        seed: int,
        coach: bool = False,
        hints: bool = True,
        pace: float | None = None,
    ) -> None:
        self.id = table_id
        self.spec = spec
        try:
            self.info, self.options = resolve(spec)
        except ClubsError as exc:
            raise TableError(f"game {spec!r}: {exc}") from None
        n = self.info.n_seats(self.options)
        if len(seats) != n or [s.seat for s in seats] != list(range(n)):
            raise TableError(f"{spec} is played by {n} seats, one of them the person's: got {len(seats)}")
        people = [s for s in seats if s.bot is None]
        if len(people) != 1:
            raise TableError(f"an offline table has one person's seat, got {len(people)}")
        for s in seats:
            if s.bot is not None and s.bot not in LEVELS:
                raise TableError(f"seat {s.seat}'s bot {s.bot!r}: expected one of {', '.join(LEVELS)}")
        self.seats = list(seats)
        self.person = people[0].seat
        self.coach = coach
        self.hints = hints
        if pace is not None and not (isinstance(pace, (int, float)) and 0 <= pace <= MAX_PACE):
            raise TableError(f"pace {pace!r}: the seconds a bot waits, from 0 to {MAX_PACE}")
        self.bot_delay = float(pace) if pace is not None else TUTORIAL_PACE if coach else BOT_DELAY
        self.match_no = 0
        self.seed = seed
        self.earlier = 0
        """Actions of the table's finished matches (they count in the version)."""
        self.actions: list[tuple[int, str]] = []
        """The actions of the match in progress, in order: what :meth:`saved` keeps."""
        self.match, events = tabletalk.start_match(self.info, self.options, 0, seed)
        self.version = 0
        self.recent: deque[tuple[int, list[JsonObject], bool]] = deque(maxlen=RECENT)
        self.recent.append((0, tabletalk.told(self.info, events, self.public_view()), False))
        self._bots: dict[int, SomeBot] = {}

    # -- building ------------------------------------------------------------------------------------------------
    @classmethod
    def new(
        cls, table_id: str, spec: str, name: str, seat: int, levels: Sequence[str], pace: float | None = None
    ) -> OfflineTable:
        """A new table of ``spec``: the person ``name`` in ``seat``, bots of ``levels`` (one a seat, the person's
        left out) in the others, a match seed drawn from the system's randomness (the browser's in the page)."""
        info, options = resolve(spec)
        n = info.n_seats(options)
        if not 0 <= seat < n:
            raise TableError(f"seat {seat}: {spec} has seats 0 to {n - 1}")
        if len(levels) != n - 1:
            raise TableError(f"{spec} has {n - 1} bots' seats: got {len(levels)} levels")
        bots = iter(levels)
        seats = [Seat(i, name) if i == seat else Seat(i, "", next(bots)) for i in range(n)]
        seed = random.SystemRandom().getrandbits(63)
        return cls(table_id, spec, cls._named(table_id, seats), seed, pace=pace)

    @classmethod
    def tutorial(cls, table_id: str, spec: str, name: str, pace: float | None = None) -> OfflineTable:
        """The guided first hand of ``spec``, as a server deals it: the person in seat 0, easy bots in the others,
        the coach on, dealt from the game's lesson's seed (the same hands every time, so the scripted steps fit)."""
        info, options = resolve(spec)
        n = info.n_seats(options)
        seats = [Seat(0, name), *(Seat(i, "", TUTORIAL_BOT) for i in range(1, n))]
        seed = lesson.tutorial_seed(info)
        return cls(table_id, spec, cls._named(table_id, seats), seed, coach=True, hints=False, pace=pace)

    @staticmethod
    def _named(table_id: str, seats: list[Seat]) -> list[Seat]:
        """The seats with each bot named as a server's table names them (never like the person)."""
        people = [s.name for s in seats if s.bot is None]
        names = persona_names(table_id, [s.seat for s in seats if s.bot is not None], people)
        return [s if s.bot is None else Seat(s.seat, names[s.seat], s.bot) for s in seats]

    def saved(self) -> JsonObject:
        """What the page keeps to rebuild the table: its game, seats, settings, the match's number and seed, and the
        actions played so far (every card follows from the seed and the actions)."""
        return {
            "rules": rules(),
            "id": self.id,
            "game": self.spec,
            "seats": [s.to_json() for s in self.seats],
            "coach": self.coach,
            "hints": self.hints,
            "pace": self.bot_delay,
            "match_no": self.match_no,
            "seed": self.seed,
            "earlier": self.earlier,
            "actions": [[seat, text] for seat, text in self.actions],
        }

    @classmethod
    def restore(cls, kept: JsonValue) -> OfflineTable:
        """The table :meth:`saved` kept, its match played again to where it was; :class:`TableError` naming what
        is wrong where the kept table is not one (an action the rules refuse, a field missing or of the wrong
        kind)."""
        if not isinstance(kept, dict):
            raise TableError("a kept table must be a JSON object")
        if kept.get("rules") != rules():  # a match is played by one version's rules from its deal to its end
            raise TableError(
                f"this match was begun with other rules (clubsuite {kept.get('rules')!s:.40}); the app now runs "
                f"{rules()}: it cannot be continued here (give it up and start a new one)"
            )
        try:
            seats = [
                Seat(int(s["seat"]), str(s["name"]), s["bot"]) for s in _list(kept, "seats") if isinstance(s, dict)
            ]
            pace = kept.get("pace")
            table = cls(
                str(kept["id"]),
                str(kept["game"]),
                seats,
                _int(kept, "seed"),
                bool(kept["coach"]),
                bool(kept["hints"]),
                float(pace) if isinstance(pace, (int, float)) and not isinstance(pace, bool) else None,
            )
            table.match_no, table.earlier = _int(kept, "match_no"), _int(kept, "earlier")
            start = table.earlier + table.match_no  # the version the match began at
            if table.match_no:
                table.match, events = tabletalk.start_match(table.info, table.options, table.match_no, table.seed)
                table.recent.clear()
                table.recent.append((start, tabletalk.told(table.info, events, table.public_view()), False))
            entries = _list(kept, "actions")
            for entry in entries:
                if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)):
                    raise TableError("a kept action must be [seat, action]")
                seat, text = entry[0], str(entry[1])
                if table.match.to_act != seat:
                    raise TableError(f"kept action {len(table.actions) + 1}: it was not seat {seat}'s turn")
                action = table.match.parse_action(text)
                reason = table.match.explain(action, seat)
                if reason is not None:
                    raise TableError(f"kept action {len(table.actions) + 1} ({text}) is refused: {reason}")
                events = table.match.apply(action, seat) + tabletalk.advance(table.match, table.info, table.seed)
                table.actions.append((seat, text))
                if len(entries) - len(table.actions) < RECENT:  # the events a page that comes back is told again
                    said = tabletalk.told(table.info, events, table.public_view())
                    table.recent.append((start + len(table.actions), said, tabletalk.settles(events)[0]))
        except ClubsError as exc:  # before ValueError: a refusal of the rules is one too
            raise TableError(f"the kept table's match cannot be played again: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError(f"the kept table is not one: {type(exc).__name__} {exc}") from None
        table.version = table.earlier + len(table.actions) + table.match_no
        return table

    # -- what the page is told -----------------------------------------------------------------------------------
    def public_view(self) -> JsonObject:
        """What the whole table sees now, with what it shows beside the cards (the events are worded from it)."""
        parts = self.info.parts
        assert isinstance(parts, HasSpectator)
        return with_shown(self.info, parts.spectator()(self.match), self.options)

    def seat_names(self) -> list[JsonObject]:
        """Every seat as a server's table shows it: the person is here, each bot plays its own seat."""
        out: list[JsonObject] = []
        for s in self.seats:
            row: JsonObject = {
                "seat": s.seat,
                "kind": "person" if s.bot is None else "bot",
                "name": s.name,
                "taken": True,
                "connected": s.bot is None,
                "bot_playing": s.bot is not None,
            }
            if s.bot is not None:
                row["bot"] = LEVELS[s.bot]
                row["level"] = level_words(LEVELS[s.bot])
            out.append(row)
        return out

    def summary(self) -> JsonObject:
        """The table as a server's lobby would list it (the page reads its name, seats and settings)."""
        host = self.seats[self.person].name
        return {
            "id": self.id,
            "game": self.spec,
            **tabletalk.named(self.info, self.options, host),
            "seats": self.seat_names(),
            "free_seats": [],
            "pool": pool(self.info, self.options),
            "abandoned": False,
            "spectators": 0,
            "settings": {
                "public": False,
                "spectators": False,
                "clock": None,
                "grace": 0.0,
                "bot_delay": self.bot_delay,
                "hints": self.hints,
                "coach": self.coach,
                "rated": False,
                "offline": True,
            },
            "match_no": self.match_no,
            "version": self.version,
            "over": self.match.is_over,
            "waiting": False,
        }

    def seat_part(self, seat: int) -> JsonObject:
        """What only ``seat`` receives (:func:`clubsuite.tabletalk.seat_part`), with the lesson's step at a coached
        table (a fault in the step costs the step, never the table)."""
        step: JsonObject | None = None
        if self.coach and seat == self.person and self.match.to_act == seat:
            try:
                step = tabletalk.lesson_step(self.info, self.match, seat, self.match_no, self._rng(seat))
            except Exception:
                step = None
        return tabletalk.seat_part(self.info, self.match, self.options, seat, step)

    def state(self, resync: bool = False) -> JsonObject:
        """Everything the person may see now."""
        return message(
            "state",
            version=self.version,
            seat=self.person,
            resync=resync,
            table=self.summary(),
            to_act=self.match.to_act,
            over=self.match.is_over,
            clock=None,
            hands=tabletalk.hands_played(self.info, self.match),
            result=tabletalk.result(self.match),
            chat=[],
            rulings=rulings(self.info),
            **self.seat_part(self.person),
        )

    def hello(self, last_version: int | None) -> list[JsonObject]:
        """The answer to the page's ``hello``: welcome, the events it missed where they are kept, the state."""
        out = [message("welcome", table=self.id, seat=self.person, role="seat")]
        caught = self.catchup(last_version) if last_version is not None else None
        if caught is not None:
            out.append(caught)
        out.append(self.state(resync=last_version is not None and caught is None))
        out.append(message("presence", version=self.version, seats=self.seat_names(), waiting=False))
        return out

    def catchup(self, since: int) -> JsonObject | None:
        """The public events after version ``since``, or None when they are no longer kept."""
        if since >= self.version:
            return message("catchup", since=since, updates=[])
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        kept: list[JsonValue] = [{"version": v, "events": list(events)} for v, events, _ in self.recent if v > since]
        return message("catchup", since=since, updates=kept)

    # -- changes -------------------------------------------------------------------------------------------------
    def act(self, text: object, version: object) -> list[JsonObject]:
        """The person's action ``text`` chosen on ``version``: the update, or an error (nothing changed)."""
        if not isinstance(text, str) or not isinstance(version, int) or isinstance(version, bool):
            return [
                error(
                    "bad_message",
                    "act needs an action (text) and the version it was chosen on (a number)",
                    self.version,
                )
            ]
        return self._apply(self.person, text, version, "seat")

    def _apply(self, seat: int, text: str, version: int, source: str) -> list[JsonObject]:
        """Judge and apply ``seat``'s action, as a server's table does; the update, or an error."""
        match = self.match
        if version != self.version:
            return [
                error(
                    "stale", f"the table has moved on to version {self.version} (you acted on {version})", self.version
                )
            ]
        if match.is_over:
            return [error("over", "the match is over: no more actions (a rematch starts a new one)", self.version)]
        if match.to_act != seat:
            return [error("not_your_turn", f"it is seat {match.to_act}'s turn, not seat {seat}'s", self.version)]
        try:
            action = match.parse_action(text)
        except ClubsError as exc:
            return [error("illegal", reason_of(exc) or str(exc), self.version)]
        reason = match.explain(action, seat)
        if reason is not None:
            return [error("illegal", reason, self.version)]
        try:
            events = match.apply(action, seat) + tabletalk.advance(match, self.info, self.seed)
        except ClubsError as exc:  # explain() and apply() agree: a refusal here is the engine's own word
            return [error("illegal", reason_of(exc) or str(exc), self.version)]
        self.actions.append((seat, match.format_action(action)))
        self.version += 1
        return [self._update(events, seat, source)]

    def _update(self, events: Events, seat: int, source: str) -> JsonObject:
        """The update of the version just made, as a server's table tells it to the person's page."""
        said = tabletalk.told(self.info, events, self.public_view())
        settled, scored = tabletalk.settles(events)
        self.recent.append((self.version, said, settled))
        extra: JsonObject = {}
        if scored:
            played = tabletalk.hands_played(self.info, self.match)
            if played:
                extra["scored"] = played[-1]
        return message(
            "update",
            version=self.version,
            by={"seat": seat, "source": source},
            to_act=self.match.to_act,
            over=self.match.is_over,
            clock=None,
            seats=self.seat_names(),
            waiting=False,
            result=tabletalk.result(self.match),
            **extra,
            events=list(said),
            **self.seat_part(self.person),
        )

    def due(self) -> JsonObject | None:
        """Which bot moves next and after how many seconds (the page waits, then asks :meth:`bot_move`), or None
        when the person is to act or the match is over."""
        seat = self.match.to_act
        if self.match.is_over or seat is None or seat == self.person:
            return None
        pause = self.bot_delay
        if self.recent and self.recent[-1][0] == self.version and self.recent[-1][2]:
            pause += min(tabletalk.AFTER_TRICK, 2 * pause)  # a trick or a hand just ended: the page shows who won
        return {"seat": seat, "version": self.version, "delay": pause}

    def bot_move(self, version: object) -> list[JsonObject]:
        """The bot to act on ``version`` moves (from its own seat's view): the update; nothing where the table
        moved on or a person is to act."""
        seat = self.match.to_act
        if version != self.version or seat is None or seat == self.person or self.match.is_over:
            return []
        spec = self.seats[seat].bot
        assert spec is not None
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = make_bot(LEVELS[spec], self.info.name)
        rng = random.Random(derive_seed(self.seed, self.match_no, self.version))
        try:
            action = tabletalk.choose(bot, self.match, seat, rng)
        except Exception:  # whatever went wrong, the table must go on: the game's instant bot plays (as a server's)
            instant = make_bot(tabletalk.instant_bot_name(self.info), self.info.name)
            action = tabletalk.choose(instant, self.match, seat, random.Random(derive_seed(self.seed, self.version)))
        return self._apply(seat, self.match.format_action(action), self.version, "bot")

    def hint(self, version: object) -> list[JsonObject]:
        """What the game's heuristic bot would play for the person on ``version``: a hint, or an error."""
        if not self.hints:
            return [error("no_hints", "this table gives no hints", self.version)]
        if version != self.version:
            return [
                error(
                    "stale", f"the table has moved on to version {self.version} (you asked on {version})", self.version
                )
            ]
        if self.match.is_over:
            return [error("over", "the match is over: there is nothing to hint", self.version)]
        if self.match.to_act != self.person:
            return [error("not_your_turn", f"it is seat {self.match.to_act}'s turn", self.version)]
        action = tabletalk.hint(self.info, self.match, self.person, "random", self._rng(self.person))
        return [message("hint", version=self.version, action=action)]

    def rematch(self) -> list[JsonObject]:
        """The next match with the same seats (after the end only): the new state, or an error."""
        if not self.match.is_over:
            return [error("over", "a rematch starts only when the match is over", self.version)]
        self.match_no += 1
        self.earlier += len(self.actions)
        self.actions = []
        self.seed = random.SystemRandom().getrandbits(63)
        self.match, events = tabletalk.start_match(self.info, self.options, self.match_no, self.seed)
        self.version += 1
        self.recent.append((self.version, tabletalk.told(self.info, events, self.public_view()), False))
        return [self.state()]

    def record(self, match: SomeMatch | None = None) -> JsonObject:
        """The record of the match in progress or just ended (seeded: its deals follow from the seed), its seats
        named as the table named them, as a server's table writes it."""
        seats: list[JsonObject] = [
            {"name": s.name, "kind": "human"}
            if s.bot is None
            else {"name": s.name, "kind": "bot", "bot": LEVELS[s.bot]}
            for s in self.seats
        ]
        record = record_from_match(match or self.match, seats, seed=self.seed, seeded_hands=True)
        record["x-played-by"] = f"clubsuite {rules()}, offline app"  # which rules played it (docs/app.md)
        return record

    def _rng(self, seat: int) -> random.Random:
        """The random source of a hint or a lesson's step on this version: the same every time."""
        return tabletalk.hint_rng(self.seed, self.match_no, self.version, seat)


def _list(kept: Mapping[str, JsonValue], name: str) -> list[JsonValue]:
    """``kept[name]``, a list."""
    value = kept[name]
    if not isinstance(value, list):
        raise TypeError(f"{name} must be a list")
    return value


def _int(kept: Mapping[str, JsonValue], name: str) -> int:
    """``kept[name]``, a whole number from 0 up."""
    value = kept[name]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a whole number from 0 up")
    return value
