"""Worked-out reviews kept (``reviews``): a review of one seat of a finished match costs a worker seconds to a minute
of search, so each is worked out once, keyed by the match (a digest of its record's canonical JSON), the seat and
the review's settings, and shared by every process of the server and kept over a restart."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the kept reviews."""
    op.create_table(
        "reviews",
        sa.Column("digest", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("digest", "seat", "settings"),
    )
    op.create_index("reviews_by_age", "reviews", ["created_at"])


def downgrade() -> None:
    """Remove the kept reviews (each is worked out again when asked for)."""
    op.drop_index("reviews_by_age", "reviews")
    op.drop_table("reviews")
