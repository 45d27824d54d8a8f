"""Ratings and history: each subject's (a user's or a bot level's) rating per pool, how it moved match by match,
every finished match's seats with their place and points, and the accounts that left a rated match before its end
(they count as finishing it last)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ratings, their history and the finished matches' seats."""
    op.create_table(
        "ratings",
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("pool", "subject"),
    )
    op.create_table(
        "rating_history",
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("pool", "subject", "table_id", "match_no"),
    )
    op.create_table(
        "match_players",
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("bot", sa.Text),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("hand_points", sa.Text, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "match_no", "seat"),
        sa.ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
    )
    op.create_index("match_players_by_user", "match_players", ["user_id", "finished_at"])
    op.create_index("match_players_by_pool", "match_players", ["pool", "finished_at"])
    op.create_table(
        "leavers",
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "match_no", "seat"),
        sa.ForeignKeyConstraint(["table_id", "match_no"], ["matches.table_id", "matches.match_no"]),
    )


def downgrade() -> None:
    """Remove the ratings and the history."""
    op.drop_table("leavers")
    op.drop_table("match_players")
    op.drop_table("rating_history")
    op.drop_table("ratings")
