"""A player's own puzzles: those made from the decisions they missed in one of their finished matches, kept private
to them unless they share one (``own_puzzles``), and which of their matches have been looked at already
(``own_puzzle_sources``: a match is looked at once, whether or not it gave puzzles)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the own puzzles and the matches they were made from."""
    op.create_table(
        "own_puzzles",
        sa.Column("id", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("shared", sa.Boolean, nullable=False),
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "id"),
    )
    op.create_index("own_puzzles_by_id", "own_puzzles", ["id"])
    op.create_table(
        "own_puzzle_sources",
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "table_id", "match_no", "seat"),
    )


def downgrade() -> None:
    """Remove the own puzzles."""
    op.drop_table("own_puzzle_sources")
    op.drop_index("own_puzzles_by_id", "own_puzzles")
    op.drop_table("own_puzzles")
