"""The server's database schema as the code reads and writes it (SQLAlchemy Core), one place for every module that
queries it.

The schema is built by the migrations (``server/store/migrations``, Alembic), never by ``create_all``: these definitions
must stay what the newest migration makes, which ``tests/server/test_server_migrations.py`` checks on SQLite and
PostgreSQL by comparing them with a migrated database.

* ``tables``, ``seats``, ``matches``, ``actions``: the tables in play and their action logs (the first release).
* ``users``, ``sessions``: accounts and their signed-in sessions; a seat taken by an account names it.
* ``ratings``, ``rating_history``, ``match_players``, ``leavers``: each player's rating per pool, how it moved, every
  finished match of every seat (the history a profile lists), and who left a rated match before its end.
* ``tournaments``, ``tournament_entrants``, ``tournament_tables``: arenas, Swiss tournaments and club nights (duplicate
  tournaments, ``community.clubnight``), who entered them and the tables they were seated at, with each table's places
  once it ended (``community.tournaments``; a club night's tables keep none: it compares points per deal).
* ``passkeys``: an account's WebAuthn credentials.
* ``follows``, ``blocks``, ``mutes``, ``privacy``, ``presence``, ``notices``, ``invitations_sent``: people together
  (``people.relations``, ``people.notices``); ``reports``, ``sanctions``, ``moderators``: keeping them safe
  (``people.moderation``).
* ``nodes``, ``leases``: the server processes sharing the database, and which one owns each table.
* ``reviews``: worked-out reviews of a seat of a match (``replaying``), kept so that no process works one out twice.
* ``puzzle_ratings``, ``puzzle_skills``, ``puzzle_attempts``: each account's puzzle rating per pool and streak, each
  puzzle's rating as attempts move it, and one row per puzzle an account was shown: its mode and answers
  (``server/puzzles``).
* ``own_puzzles``, ``own_puzzle_sources``: the puzzles made from an account's own missed decisions, and the matches
  looked at for them.
* ``turn_tables``, ``turn_seats``, ``turn_chat``, ``turn_prefs``, ``vacations``, ``push_subscriptions``, ``outbox``,
  ``server_keys``, ``test_clock``: turn-based tables' clocks, seats and players' chat, an account's playing hours,
  reminders and vacations, the reminders waiting to be delivered, the Web Push key pair (``server.turns``).
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
)


class TournamentStatus(StrEnum):
    """A tournament's (or club night's) ``status`` column: ``open`` until its first round is seated, ``running``
    then, ``over`` once it has ended. Equal to its text, as the column keeps it."""

    OPEN = "open"
    RUNNING = "running"
    OVER = "over"


class TournamentFormat(StrEnum):
    """A tournament's ``format`` column: an ``arena`` (a fixed time, whoever is free seated again), a ``swiss``
    tournament (rounds), or a ``clubnight`` (duplicate deals, kept in the same table). Equal to its text."""

    ARENA = "arena"
    SWISS = "swiss"
    CLUBNIGHT = "clubnight"


class ReportStatus(StrEnum):
    """A report's ``status`` column: ``open`` until a moderator (or the automatic mute's end) closes it."""

    OPEN = "open"
    CLOSED = "closed"


class SeatKind(StrEnum):
    """A seat's ``kind`` column: a ``person``'s (taken later by someone joining) or a ``bot``'s. Equal to its text,
    as the column keeps it."""

    PERSON = "person"
    BOT = "bot"


metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", Text, primary_key=True),
    Column("game", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("invite", Text, nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("closed", Boolean, nullable=False),
)
seats = Table(
    "seats",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", Text, nullable=False),
    Column("bot", Text),
    Column("name", Text),
    Column("token_hash", Text),
    Column("user_id", Text),
    PrimaryKeyConstraint("table_id", "seat"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
    Index("seats_by_token", "token_hash"),
    Index("seats_by_user", "user_id"),
)
matches = Table(
    "matches",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("record", Text),
    PrimaryKeyConstraint("table_id", "match_no"),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
)
actions = Table(
    "actions",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "match_no", "seq"),
    ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
)

users = Table(
    "users",
    metadata,
    Column("id", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("name_key", Text, unique=True),  # the name folded for comparison; NULL once deleted (the name is free)
    Column("password_hash", Text),  # Argon2id, NULL once deleted
    Column("created_at", Float, nullable=False),
    Column("deleted_at", Float),
)
sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", Text, primary_key=True),  # SHA-256 of the cookie's secret: the database never holds it
    Column("public_id", Text, nullable=False, unique=True),  # how the account's page names it, to revoke it
    Column("user_id", Text, nullable=False),
    Column("csrf", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("agent", Text, nullable=False),
    ForeignKeyConstraint(["user_id"], ["users.id"]),
    Index("sessions_by_user", "user_id"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("pool", Text, nullable=False),  # a game, or a game at one seat count (ratings.pool)
    Column("subject", Text, nullable=False),  # "user:<id>" or "bot:<level>"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("pool", "subject"),
)
rating_history = Table(
    "rating_history",
    metadata,
    Column("pool", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    # the rating this match moved from and the rated matches it rested on (NULL in rows older than revision 0009)
    Column("mu_before", Float),
    Column("sigma_before", Float),
    Column("matches_before", Integer),
    PrimaryKeyConstraint("pool", "subject", "table_id", "match_no"),
)
match_players = Table(
    "match_players",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("game", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("user_id", Text),  # NULL: a guest or a bot
    Column("name", Text, nullable=False),
    Column("bot", Text),  # the bot that played the seat at the end, if it was a bot's
    Column("place", Integer, nullable=False),  # 1 = first
    Column("points", Float, nullable=False),
    Column("hand_points", Text, nullable=False),  # JSON: the seat's points in each hand, for duplicate comparison
    Column("won", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("left", Boolean, nullable=False),  # the person left the match (a rated match counts them last)
    Column("finished_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "match_no", "seat"),
    ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
    Index("match_players_by_user", "user_id", "finished_at"),
    Index("match_players_by_pool", "pool", "finished_at"),
)
leavers = Table(
    "leavers",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", Text, nullable=False),  # the account that left the rated match (it finishes last)
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "match_no", "seat"),
    ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
)
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Text, primary_key=True),
    Column("format", Text, nullable=False),  # arena, swiss, clubnight
    Column("host_id", Text),  # the account that made it; NULL: the operator's, scheduled
    Column("name", Text, nullable=False),
    Column("spec", Text, nullable=False),
    Column("settings", Text, nullable=False),  # JSON: the format's settings (community.tournaments)
    Column("state", Text, nullable=False),  # JSON: the format's running state (the round, ...)
    Column("status", Text, nullable=False),  # TournamentStatus
    Column("starts_at", Float),  # NULL: its host starts it
    Column("ends_at", Float),  # an arena's end, once running
    Column("created_at", Float, nullable=False),
    Column("version", Integer, nullable=False),  # grows at every change its watchers see
    Column("director", Text),  # the server process that pairs it, while its claim lasts
    Column("director_until", Float),  # on the database's clock
    Index("tournaments_by_status", "status", "starts_at"),
)
tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", Text, nullable=False),
    Column("entrant", Text, nullable=False),
    Column("user_id", Text),
    Column("name", Text, nullable=False),
    Column("token_hash", Text),  # a guest entrant's token, hashed
    Column("bot", Text),  # a bot entrant's level
    Column("rating", Integer, nullable=False),  # the shown rating when they entered (pairing orders by it)
    Column("joined_at", Float, nullable=False),
    Column("active", Boolean, nullable=False),  # false: withdrawn (an arena's: paused), not seated again
    Column("byes", Integer, nullable=False),
    PrimaryKeyConstraint("tournament_id", "entrant"),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
    Index("tournament_entrants_by_user", "user_id"),
)
tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", Text, nullable=False),
    Column("table_id", Text, nullable=False),
    Column("round", Integer, nullable=False),  # a Swiss round; 0 in an arena
    Column("seats", Text, nullable=False),  # JSON: the entrant at each seat, null for a bot's
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("places", Text),  # JSON: each seat's place once the table's match ended
    Column("counted", Boolean, nullable=False),  # false: ended after the arena did, or not yet ended
    PrimaryKeyConstraint("tournament_id", "table_id"),
    ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
    Index("tournament_tables_by_table", "table_id"),
)
passkeys = Table(
    "passkeys",
    metadata,
    Column("id", Text, primary_key=True),  # the credential's id, base64url
    Column("user_id", Text, nullable=False),
    Column("public_key", Text, nullable=False),  # the credential's COSE public key, base64url
    Column("sign_count", BigInteger, nullable=False),  # the authenticator's counter, last seen (0: it keeps none)
    Column("label", Text, nullable=False),  # how the account's page names it (the browser it was made in)
    Column("created_at", Float, nullable=False),
    Column("used_at", Float),
    ForeignKeyConstraint(["user_id"], ["users.id"]),
    Index("passkeys_by_user", "user_id"),
)
nodes = Table(
    "nodes",
    metadata,
    Column("name", Text, primary_key=True),
    Column("address", Text, nullable=False),  # where the other processes reach it (http://host:port)
    Column("started_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),  # the database's clock at its heartbeat: its leases are good while fresh
    Column("state", Text, nullable=False),  # serving, stopping or stopped
)
leases = Table(
    "leases",
    metadata,
    Column("table_id", Text, primary_key=True),
    Column("node", Text, nullable=False),  # the process that owns the table
    Column("epoch", BigInteger, nullable=False),  # grows at every change of owner: a stale owner's writes are refused
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
    Index("leases_by_node", "node"),
)
reviews = Table(
    "reviews",
    metadata,
    Column("digest", Text, nullable=False),  # SHA-256 of the record's canonical JSON: the match, however written
    Column("seat", Integer, nullable=False),
    Column("settings", Text, nullable=False),  # the review's settings and the code's version: a change starts anew
    Column("status", Integer, nullable=False),  # the HTTP status of the answer
    Column("answer", Text, nullable=False),  # the answer's JSON
    Column("size", Integer, nullable=False),  # the answer's bytes: the table is kept under a bound (the oldest go)
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("digest", "seat", "settings"),
    Index("reviews_by_age", "created_at"),
)
puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("user_id", Text, nullable=False),
    Column("pool", Text, nullable=False),  # the rating pool of the puzzles' game and seat count (ratings.pool)
    Column("rating", Float, nullable=False),  # Glicko-2, as lichess rates puzzles (puzzles.glicko)
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),  # rated attempts
    Column("streak", Integer, nullable=False),  # puzzles solved in a row in streak mode, now
    Column("best_streak", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("user_id", "pool"),
)
puzzle_skills = Table(
    "puzzle_skills",
    metadata,
    Column("puzzle", Text, primary_key=True),  # the puzzle's id; absent: its first rating, not yet moved
    Column("pool", Text, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),  # rated attempts at it
    Column("solved", Integer, nullable=False),  # of which solved
    Index("puzzle_skills_by_pool", "pool"),
)
puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("user_id", Text, nullable=False),
    Column("puzzle", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("mode", Text, nullable=False),  # rated, streak, practice or own: fixed when first shown (never to rated)
    Column("served_at", Float, nullable=False),  # when it was last shown
    Column("at", Float),  # the last answer (NULL: shown, not answered yet)
    Column("tries", Integer, nullable=False),  # answers given (asking for the solution first counts as one)
    Column("first_solved", Boolean),  # the first answer was right
    Column("solved", Boolean),  # the last answer was right
    Column("rated", Boolean, nullable=False),  # the first answer was rated
    Column("rating_before", Integer),  # the account's puzzle rating as shown, where the first answer was rated
    Column("rating_after", Integer),
    Column("provisional_before", Boolean),  # whether those ratings were provisional (shown with "?"), where rated
    Column("provisional_after", Boolean),
    PrimaryKeyConstraint("user_id", "puzzle"),
    Index("puzzle_attempts_by_user", "user_id", "at"),
)
own_puzzles = Table(
    "own_puzzles",
    metadata,
    Column("id", Text, nullable=False),  # the puzzle's id
    Column("user_id", Text, nullable=False),  # whose mistakes it was made of: theirs alone unless shared
    Column("pool", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("body", Text, nullable=False),  # the puzzle's JSON line (its record holds every hand: never sent out)
    Column("shared", Boolean, nullable=False),  # anyone with its link may play it
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("user_id", "id"),
    Index("own_puzzles_by_id", "id"),
)
own_puzzle_sources = Table(
    "own_puzzle_sources",
    metadata,
    Column("user_id", Text, nullable=False),
    Column("table_id", Text, nullable=False),
    Column("match_no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("made_at", Float, nullable=False),
    Column("count", Integer, nullable=False),  # the puzzles it gave (none is an answer too)
    PrimaryKeyConstraint("user_id", "table_id", "match_no", "seat"),
)


def _pairs(name: str, by_time: bool = False) -> Table:
    """One account's relation to another (``user_id`` follows, blocks or mutes ``other_id``); ``by_time``: indexed
    by when it was made too (blocks and mutes, read by time at every process: ``community.hiding``)."""
    return Table(
        name,
        metadata,
        Column("user_id", Text, nullable=False),
        Column("other_id", Text, nullable=False),
        Column("created_at", Float, nullable=False),
        PrimaryKeyConstraint("user_id", "other_id"),
        Index(f"{name}_by_other", "other_id"),
        *([Index(f"{name}_by_time", "created_at")] if by_time else []),
    )


follows = _pairs("follows")
blocks = _pairs("blocks", by_time=True)
mutes = _pairs("mutes", by_time=True)
privacy = Table(
    "privacy",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("invites", Text, nullable=False),  # who may invite the account: everyone, following, nobody
    Column("presence", Text, nullable=False),  # who sees it online: everyone, following, nobody
)
presence = Table(
    "presence",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("seen_at", Float, nullable=False),  # the last time a process saw a page of the account open
)
notices = Table(
    "notices",
    metadata,
    Column("id", Text, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("kind", Text, nullable=False),  # invite, declined, warn, mute, chat_ban
    Column("body", Text, nullable=False),  # JSON
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float),
    Index("notices_by_user", "user_id", "created_at"),
)
reports = Table(
    "reports",
    metadata,
    Column("id", Text, primary_key=True),
    Column("reporter_id", Text, nullable=False),
    Column("subject_id", Text, nullable=False),
    Column("kind", Text, nullable=False),  # message, name, player
    Column("reason", Text, nullable=False),
    Column("context", Text, nullable=False),  # JSON: the message reported and the lines around it, where it was
    Column("created_at", Float, nullable=False),
    Column("status", Text, nullable=False),  # ReportStatus
    Column("handled_by", Text),
    Column("handled_at", Float),
    Column("outcome", Text),
    Column("counts", Boolean),  # counts toward the automatic mute (at the table then, with standing); NULL: no
    Index("reports_by_status", "status", "created_at"),
    Index("reports_by_subject", "subject_id", "created_at"),
)
sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Text, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("kind", Text, nullable=False),  # warn, mute, chat_ban, close
    Column("reason", Text, nullable=False),
    Column("until", Float),  # a mute's end; NULL: for good (or a warning)
    Column("by_id", Text),  # the moderator; NULL: the server (reports from several accounts)
    Column("report_id", Text),
    Column("created_at", Float, nullable=False),
    Index("sanctions_by_user", "user_id", "created_at"),
)
invitations_sent = Table(
    "invitations_sent",
    metadata,
    Column("id", Text, primary_key=True),
    Column("sender_id", Text, nullable=False),
    Column("sent_at", Float, nullable=False),  # the rows of the last minute: the invitations' rate, at every process
    Index("invitations_sent_by_sender", "sender_id", "sent_at"),
    Index("invitations_sent_by_time", "sent_at"),
)
moderators = Table(
    "moderators",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("added_at", Float, nullable=False),
)

# -- turn-based tables (``server.turns``) ------------------------------------------------------------------------
turn_tables = Table(
    "turn_tables",
    metadata,
    Column("table_id", Text, primary_key=True),
    Column("host_id", Text, nullable=False),  # the account that made it
    Column("pace", Float, nullable=False),  # seconds of a player's clock for one move
    Column("on_timeout", Text, nullable=False),  # bot, adjourn or lose (turns.clock.OnTimeout)
    Column("parked", Boolean, nullable=False),  # held in no process's memory: woken by a request or its clock
    Column("adjourned", Boolean, nullable=False),  # a clock ran out at an ``adjourn`` table: no clock runs
    Column("ended", Text),  # how its match ended other than by the rules: ``lost:<seat>`` (a clock ran out)
    Column("version", Integer, nullable=False),  # the table's version the clock below was set at
    Column("seat", Integer),  # the seat whose clock runs (NULL: none: a bot's turn, the end, adjourned)
    Column("user_id", Text),  # that seat's account
    Column("since", Float),  # when that turn began, on the database's clock
    Column("deadline", Float),  # when its clock runs out (playing hours and vacations counted), or NULL
    Column("created_at", Float, nullable=False),
    ForeignKeyConstraint(["table_id"], ["tables.id"]),
    Index("turn_tables_by_deadline", "deadline"),
    Index("turn_tables_by_user", "user_id"),
)
turn_seats = Table(
    "turn_seats",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", Text, nullable=False),
    Column("seen", Integer, nullable=False),  # the table's version the account last saw (``while you were away``)
    Column("autoplay", Boolean, nullable=False),  # a move with one legal action is played for it at once
    Column("reminded", Integer),  # the version a reminder was last sent for (one per turn)
    Column("told_end", Integer),  # the match whose end the account was last told of (one per match)
    PrimaryKeyConstraint("table_id", "seat"),
    Index("turn_seats_by_user", "user_id"),
)
turn_chat = Table(
    "turn_chat",
    metadata,
    Column("table_id", Text, nullable=False),
    Column("id", Integer, nullable=False),  # the line's id at its table
    Column("seat", Integer, nullable=False),  # said by a seated player (the players' channel only is kept)
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("user_id", Text),  # the speaker's account: never sent, read to hide a blocked account's lines
    Column("present", Text, nullable=False),  # JSON: the accounts at the table then (whose reports of it count)
    PrimaryKeyConstraint("table_id", "id"),
)
turn_prefs = Table(
    "turn_prefs",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("zone", Text, nullable=False),  # an IANA time zone (``Europe/Paris``)
    Column("day_start", Integer, nullable=False),  # playing hours: minutes after midnight, the zone's wall clock
    Column("day_end", Integer, nullable=False),
    Column("page", Boolean, nullable=False),  # "your turn" notices on the site's pages
    Column("push", Boolean, nullable=False),  # Web Push to the account's devices
    Column("push_per_day", Integer, nullable=False),  # at most this many pushes in 24 hours
    Column("push_count", Integer, nullable=False),  # pushes sent since ``push_window`` began
    Column("push_window", Float),  # the start of the 24 hours ``push_count`` counts
    Column("mail", Boolean, nullable=False),  # the daily e-mail digest
    Column("email", Text),  # the digest's address, once given
    Column("email_confirmed", Boolean, nullable=False),  # the address's owner followed the confirming link
    Column("mail_key", Text),  # SHA-256 of the secrets of the confirming and unsubscribing links (turns.mail)
    Column("digest_at", Float),  # when the last digest was sent
    Column("confirms_sent", Integer, nullable=False),  # confirming mails sent since ``confirms_window`` began
    Column("confirms_window", Float),  # the start of the 24 hours ``confirms_sent`` counts
    Column("lang", Text, nullable=False),  # the language of its e-mails (en, de, fr, nl)
)
vacations = Table(
    "vacations",
    metadata,
    Column("id", Text, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("starts", Float, nullable=False),  # on the database's clock
    Column("ends", Float, nullable=False),
    Index("vacations_by_user", "user_id", "ends"),
)
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", Text, primary_key=True),
    Column("user_id", Text, nullable=False),
    Column("endpoint", Text, nullable=False, unique=True),  # the push service's URL for one browser
    Column("p256dh", Text, nullable=False),  # the browser's public key (base64url)
    Column("auth", Text, nullable=False),  # its authentication secret (base64url)
    Column("label", Text, nullable=False),  # how the account's page names it (the browser)
    Column("created_at", Float, nullable=False),
    Index("push_subscriptions_by_user", "user_id"),
)
outbox = Table(
    "outbox",
    metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),  # push or mail
    Column("user_id", Text, nullable=False),
    Column("target", Text, nullable=False),  # the push subscription's id, or the e-mail address
    Column("body", Text, nullable=False),  # JSON: what is sent
    Column("attempts", Integer, nullable=False),
    Column("next_at", Float, nullable=False),  # not before (back-off), on the database's clock
    Column("claimed_by", Text),  # the process delivering it, until ``claimed_until``
    Column("claimed_until", Float),
    Column("created_at", Float, nullable=False),
    Index("outbox_by_next", "next_at"),
)
server_keys = Table(
    "server_keys",
    metadata,
    Column("name", Text, primary_key=True),  # vapid: the Web Push key pair every process signs with
    Column("value", Text, nullable=False),
)
test_clock = Table(
    "test_clock",
    metadata,
    Column("id", Integer, primary_key=True),  # one row
    Column("offset", Float, nullable=False),  # seconds added to the database's clock (``clubs serve --test-clock``)
)
