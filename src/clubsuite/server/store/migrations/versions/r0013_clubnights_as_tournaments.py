"""Club nights become tournaments of the format ``clubnight``: each night's ``clubnights`` row (one JSON state: the
host's settings, the entrants, the rounds and their tables) is moved into ``tournaments`` (the settings and the
rounds seated), ``tournament_entrants`` (the entrants, in the order they entered) and ``tournament_tables`` (each
round's tables, in their order), and ``clubnights`` is dropped.

A night with no round seated comes over open; one whose rounds are all seated and whose last round has ended at every
table (each table's first match has its players' rows), over, its end when the last of those tables ended; any other,
running. Its tables keep no places: a club night reads each seat's points per deal from ``match_players``, as before.

Going back moves every club night into ``clubnights`` again, in the JSON shape revision 0012's code reads, and
removes them from the tournaments. The shapes are frozen here, whatever the code becomes.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

FORMAT = "clubnight"
TITLE = "Club night"
STEP = 1e-6
"""Seconds between the times written for entrants (or a round's tables) one after the other: their order kept."""

_clubnights = sa.table(
    "clubnights",
    sa.column("id", sa.Text),
    sa.column("host_id", sa.Text),
    sa.column("spec", sa.Text),
    sa.column("state", sa.Text),
    sa.column("created_at", sa.Float),
)
_tournaments = sa.table(
    "tournaments",
    sa.column("id", sa.Text),
    sa.column("format", sa.Text),
    sa.column("host_id", sa.Text),
    sa.column("name", sa.Text),
    sa.column("spec", sa.Text),
    sa.column("settings", sa.Text),
    sa.column("state", sa.Text),
    sa.column("status", sa.Text),
    sa.column("starts_at", sa.Float),
    sa.column("ends_at", sa.Float),
    sa.column("created_at", sa.Float),
    sa.column("version", sa.Integer),
    sa.column("director", sa.Text),
    sa.column("director_until", sa.Float),
)
_entrants = sa.table(
    "tournament_entrants",
    sa.column("tournament_id", sa.Text),
    sa.column("entrant", sa.Text),
    sa.column("user_id", sa.Text),
    sa.column("name", sa.Text),
    sa.column("token_hash", sa.Text),
    sa.column("bot", sa.Text),
    sa.column("rating", sa.Integer),
    sa.column("joined_at", sa.Float),
    sa.column("active", sa.Boolean),
    sa.column("byes", sa.Integer),
)
_tables = sa.table(
    "tournament_tables",
    sa.column("tournament_id", sa.Text),
    sa.column("table_id", sa.Text),
    sa.column("round", sa.Integer),
    sa.column("seats", sa.Text),
    sa.column("started_at", sa.Float),
    sa.column("finished_at", sa.Float),
    sa.column("places", sa.Text),
    sa.column("counted", sa.Boolean),
)
_game_tables = sa.table("tables", sa.column("id", sa.Text), sa.column("created_at", sa.Float))
_match_players = sa.table(
    "match_players",
    sa.column("table_id", sa.Text),
    sa.column("match_no", sa.Integer),
    sa.column("finished_at", sa.Float),
)


def upgrade() -> None:
    """Move every club night into the tournaments, then drop ``clubnights``."""
    conn = op.get_bind()
    nights = conn.execute(sa.select(_clubnights).order_by(_clubnights.c.created_at, _clubnights.c.id)).all()
    for night in nights:
        _move_up(conn, night)
    op.drop_table("clubnights")


def downgrade() -> None:
    """Make ``clubnights`` again and move every club night back into it, out of the tournaments."""
    op.create_table(
        "clubnights",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("host_id", sa.Text, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    conn = op.get_bind()
    nights = conn.execute(
        sa.select(_tournaments)
        .where(_tournaments.c.format == FORMAT)
        .order_by(_tournaments.c.created_at, _tournaments.c.id)
    ).all()
    for night in nights:
        _move_down(conn, night)
    ids = [night.id for night in nights]
    if ids:
        conn.execute(sa.delete(_tables).where(_tables.c.tournament_id.in_(ids)))
        conn.execute(sa.delete(_entrants).where(_entrants.c.tournament_id.in_(ids)))
        conn.execute(sa.delete(_tournaments).where(_tournaments.c.id.in_(ids)))


def _move_up(conn: sa.Connection, night: Any) -> None:
    """One club night's rows among the tournaments, from its JSON state."""
    state = json.loads(night.state)
    played: list[dict[str, Any]] = state.get("played", [])
    made = _made_at(conn, [t["table"] for r in played for t in r["tables"]])
    rows: list[dict[str, Any]] = []
    for r in played:
        at = None
        for t in r["tables"]:
            found = made.get(t["table"], night.created_at)
            at = found if at is None else max(found, at + STEP)  # the round's tables in their order
            rows.append(
                {
                    "tournament_id": night.id,
                    "table_id": t["table"],
                    "round": r["number"],
                    "seats": json.dumps(t["seats"]),
                    "started_at": at,
                    "finished_at": None,
                    "places": None,
                    "counted": False,
                }
            )
    status, starts_at, ends_at = "open", None, None
    if played:
        status, starts_at = "running", rows[0]["started_at"] if rows else night.created_at
        ended = _ended_at(conn, [t["table"] for t in played[-1]["tables"]])
        if len(played) >= state["rounds"] and ended is not None:
            status, ends_at = "over", ended
    settings = {
        "host": state["host"],
        "tables": state["tables"],
        "rounds": state["rounds"],
        "pairing": state["pairing"],
        "bot": state["bot"],
        "bot_delay": state.get("bot_delay", 0.5),
    }
    conn.execute(
        sa.insert(_tournaments).values(
            id=night.id,
            format=FORMAT,
            host_id=night.host_id,
            name=TITLE,
            spec=night.spec,
            settings=json.dumps(settings),
            state=json.dumps({"round": len(played)}),
            status=status,
            starts_at=starts_at,
            ends_at=ends_at,
            created_at=night.created_at,
            version=1,
            director=None,
            director_until=None,
        )
    )
    entrants = [
        {
            "tournament_id": night.id,
            "entrant": e["id"],
            "user_id": e.get("user_id"),
            "name": e["name"],
            "token_hash": e.get("token_hash"),
            "bot": e.get("bot"),
            "rating": 0,
            "joined_at": night.created_at + k * STEP,  # the order they entered
            "active": True,
            "byes": 0,
        }
        for k, e in enumerate(state.get("entrants", []))
    ]
    if entrants:
        conn.execute(sa.insert(_entrants), entrants)
    if rows:
        conn.execute(sa.insert(_tables), rows)


def _move_down(conn: sa.Connection, night: Any) -> None:
    """One club night's ``clubnights`` row, its JSON state made from its tournament rows."""
    settings = json.loads(night.settings)
    entrants = []
    for e in conn.execute(
        sa.select(_entrants)
        .where(_entrants.c.tournament_id == night.id)
        .order_by(_entrants.c.joined_at, _entrants.c.entrant)
    ):
        entrant: dict[str, Any] = {"id": e.entrant, "name": e.name, "user_id": e.user_id, "token_hash": e.token_hash}
        if e.bot is not None:
            entrant["bot"] = e.bot
        entrants.append(entrant)
    played: list[dict[str, Any]] = []
    for t in conn.execute(
        sa.select(_tables)
        .where(_tables.c.tournament_id == night.id)
        .order_by(_tables.c.round, _tables.c.started_at, _tables.c.table_id)
    ):
        if not played or played[-1]["number"] != t.round:
            played.append({"number": t.round, "tables": []})
        played[-1]["tables"].append({"table": t.table_id, "seats": json.loads(t.seats)})
    state = {
        "host": settings["host"],
        "spec": night.spec,
        "tables": settings["tables"],
        "rounds": settings["rounds"],
        "pairing": settings["pairing"],
        "bot": settings["bot"],
        "bot_delay": settings.get("bot_delay", 0.5),
        "entrants": entrants,
        "played": played,
    }
    conn.execute(
        sa.insert(_clubnights).values(
            id=night.id,
            host_id=night.host_id,
            spec=night.spec,
            state=json.dumps(state),
            created_at=night.created_at,
        )
    )


def _made_at(conn: sa.Connection, table_ids: list[str]) -> dict[str, float]:
    """When each of these tables was made (those still stored)."""
    if not table_ids:
        return {}
    rows = conn.execute(sa.select(_game_tables.c.id, _game_tables.c.created_at).where(_game_tables.c.id.in_(table_ids)))
    return {r.id: r.created_at for r in rows}


def _ended_at(conn: sa.Connection, table_ids: list[str]) -> float | None:
    """When the last of these tables' first matches ended, once every one has (None: one has not, or none)."""
    if not table_ids:
        return None
    rows = conn.execute(
        sa.select(_match_players.c.table_id, sa.func.max(_match_players.c.finished_at).label("at"))
        .where(_match_players.c.table_id.in_(table_ids), _match_players.c.match_no == 0)
        .group_by(_match_players.c.table_id)
    ).all()
    if {r.table_id for r in rows} != set(table_ids):
        return None
    return max(float(r.at) for r in rows)
