"""Club nights: a host's duplicate tournament (its settings, entrants, rounds and their tables, kept as one JSON
state per night)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the club nights."""
    op.create_table(
        "clubnights",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("host_id", sa.Text, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Remove the club nights."""
    op.drop_table("clubnights")
