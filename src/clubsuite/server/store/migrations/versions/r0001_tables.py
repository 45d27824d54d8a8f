"""The first release's schema: tables, their seats, matches and each match's action log.

A database made before the schema was versioned already holds these tables (made by SQLAlchemy's ``create_all``,
the same definitions): each is made here only when missing, so such a database is taken over as it is.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make whichever of the four tables is missing."""
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "tables" not in have:
        op.create_table(
            "tables",
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("game", sa.Text, nullable=False),
            sa.Column("settings", sa.Text, nullable=False),
            sa.Column("invite", sa.Text, nullable=False, unique=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("match_no", sa.Integer, nullable=False),
            sa.Column("closed", sa.Boolean, nullable=False),
        )
    if "seats" not in have:
        op.create_table(
            "seats",
            sa.Column("table_id", sa.Text, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("kind", sa.Text, nullable=False),
            sa.Column("bot", sa.Text),
            sa.Column("name", sa.Text),
            sa.Column("token_hash", sa.Text),
            sa.PrimaryKeyConstraint("table_id", "seat"),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        )
        op.create_index("seats_by_token", "seats", ["token_hash"])
    if "matches" not in have:
        op.create_table(
            "matches",
            sa.Column("table_id", sa.Text, nullable=False),
            sa.Column("match_no", sa.Integer, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("started_at", sa.Float, nullable=False),
            sa.Column("finished_at", sa.Float),
            sa.Column("record", sa.Text),
            sa.PrimaryKeyConstraint("table_id", "match_no"),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        )
    if "actions" not in have:
        op.create_table(
            "actions",
            sa.Column("table_id", sa.Text, nullable=False),
            sa.Column("match_no", sa.Integer, nullable=False),
            sa.Column("seq", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("source", sa.Text, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.PrimaryKeyConstraint("table_id", "match_no", "seq"),
            sa.ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
        )


def downgrade() -> None:
    """Drop everything (an empty database)."""
    for name in ("actions", "matches", "seats", "tables"):
        op.drop_table(name)
