"""Each rated match's rating history row keeps the rating it moved from (``mu_before``, ``sigma_before``) and how many
rated matches that rating rested on (``matches_before``), written with the new one: the end-of-match dialog shows
every seat's change from one row, and two matches of the same bot level or person finishing at once, whose
timestamps need not follow the order they were rated in, each show the change they made. Rows written before this
revision keep them empty (their change is not shown)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the rating each history row moved from."""
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("mu_before", sa.Float, nullable=True))
        batch.add_column(sa.Column("sigma_before", sa.Float, nullable=True))
        batch.add_column(sa.Column("matches_before", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop them (the dialog then shows no change)."""
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("matches_before")
        batch.drop_column("sigma_before")
        batch.drop_column("mu_before")
