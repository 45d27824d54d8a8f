"""Puzzles on the server: each account's puzzle rating per pool (with its streak), each puzzle's rating as the
attempts move it, and one row per puzzle an account was shown: the mode it is played in (fixed when it was first
shown), and its answers (an account's history, and which puzzles it has tried)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the puzzle ratings and attempts."""
    op.create_table(
        "puzzle_ratings",
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "pool"),
    )
    op.create_table(
        "puzzle_skills",
        sa.Column("puzzle", sa.Text, primary_key=True),
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_index("puzzle_skills_by_pool", "puzzle_skills", ["pool"])
    op.create_table(
        "puzzle_attempts",
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.Column("pool", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("served_at", sa.Float, nullable=False),
        sa.Column("at", sa.Float),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("first_solved", sa.Boolean),
        sa.Column("solved", sa.Boolean),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating_before", sa.Integer),
        sa.Column("rating_after", sa.Integer),
        sa.PrimaryKeyConstraint("user_id", "puzzle"),
    )
    op.create_index("puzzle_attempts_by_user", "puzzle_attempts", ["user_id", "at"])


def downgrade() -> None:
    """Remove the puzzle ratings and attempts."""
    op.drop_index("puzzle_attempts_by_user", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_index("puzzle_skills_by_pool", "puzzle_skills")
    op.drop_table("puzzle_skills")
    op.drop_table("puzzle_ratings")
