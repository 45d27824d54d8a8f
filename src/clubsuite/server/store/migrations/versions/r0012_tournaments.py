"""Tournaments: arenas and Swiss tournaments (``tournaments``: each one's format, game, settings, times and state),
their entrants (``tournament_entrants``) and the tables they were seated at, with each table's places once it ended
(``tournament_tables``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the tournaments, their entrants and their tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("host_id", sa.Text),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("starts_at", sa.Float),
        sa.Column("ends_at", sa.Float),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("director", sa.Text),
        sa.Column("director_until", sa.Float),
    )
    op.create_index("tournaments_by_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Text, nullable=False),
        sa.Column("entrant", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.Text),
        sa.Column("bot", sa.Text),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("byes", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "entrant"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
    )
    op.create_index("tournament_entrants_by_user", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.Text, nullable=False),
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
        sa.Column("places", sa.Text),
        sa.Column("counted", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "table_id"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"]),
    )
    op.create_index("tournament_tables_by_table", "tournament_tables", ["table_id"])


def downgrade() -> None:
    """Remove the tournaments."""
    op.drop_index("tournament_tables_by_table", "tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("tournament_entrants_by_user", "tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("tournaments_by_status", "tournaments")
    op.drop_table("tournaments")
