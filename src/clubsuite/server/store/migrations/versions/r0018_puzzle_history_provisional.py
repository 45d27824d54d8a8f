"""Whether a rated puzzle answer's ratings were provisional, so that the history reads "1500? → 1428?" as the
page did when the answer was given.

``puzzle_attempts.provisional_before`` and ``provisional_after``: whether the account's puzzle rating was
provisional (lichess's "?": a deviation of 110 or more) before and after a rated first answer. Answers kept before
this revision, and unrated ones, have NULL (shown without the "?")."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns."""
    with op.batch_alter_table("puzzle_attempts") as batch:
        batch.add_column(sa.Column("provisional_before", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("provisional_after", sa.Boolean, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("puzzle_attempts") as batch:
        batch.drop_column("provisional_after")
        batch.drop_column("provisional_before")
