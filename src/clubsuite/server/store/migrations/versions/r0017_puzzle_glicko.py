"""Puzzle ratings in Glicko-2, as lichess keeps them (``puzzles.glicko``): each account's puzzle rating and each
puzzle's is a rating, its deviation and a volatility, in place of OpenSkill's mean and uncertainty.

A rating kept before moves over as it read: the rating is the one shown (``1500 + 60 * (mu - 25)``), the deviation
one standard deviation on that scale (``60 * sigma``: a newcomer's 25/3 is 500, lichess's newcomer deviation),
within lichess's bounds (45 to 500), and the volatility lichess's default (0.09). Going back does the reverse."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

TABLES = ("puzzle_ratings", "puzzle_skills")
SHOWN_CENTRE, SHOWN_SCALE, MU = 1500.0, 60.0, 25.0
DEFAULT_VOLATILITY = 0.09


def upgrade() -> None:
    """Add the Glicko-2 numbers, fill them from the old ones, and drop those."""
    for name in TABLES:
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("rating", sa.Float, nullable=True))
            batch.add_column(sa.Column("deviation", sa.Float, nullable=True))
            batch.add_column(sa.Column("volatility", sa.Float, nullable=True))
        op.execute(
            f"UPDATE {name} SET rating = {SHOWN_CENTRE} + {SHOWN_SCALE} * (mu - {MU}), "
            f"deviation = CASE WHEN {SHOWN_SCALE} * sigma > 500 THEN 500 "
            f"WHEN {SHOWN_SCALE} * sigma < 45 THEN 45 ELSE {SHOWN_SCALE} * sigma END, "
            f"volatility = {DEFAULT_VOLATILITY}"
        )
        with op.batch_alter_table(name) as batch:
            batch.alter_column("rating", existing_type=sa.Float, nullable=False)
            batch.alter_column("deviation", existing_type=sa.Float, nullable=False)
            batch.alter_column("volatility", existing_type=sa.Float, nullable=False)
            batch.drop_column("mu")
            batch.drop_column("sigma")


def downgrade() -> None:
    """Back to a mean and an uncertainty (the volatility is dropped)."""
    for name in TABLES:
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("mu", sa.Float, nullable=True))
            batch.add_column(sa.Column("sigma", sa.Float, nullable=True))
        op.execute(
            f"UPDATE {name} SET mu = {MU} + (rating - {SHOWN_CENTRE}) / {SHOWN_SCALE}, "
            f"sigma = deviation / {SHOWN_SCALE}"
        )
        with op.batch_alter_table(name) as batch:
            batch.alter_column("mu", existing_type=sa.Float, nullable=False)
            batch.alter_column("sigma", existing_type=sa.Float, nullable=False)
            batch.drop_column("volatility")
            batch.drop_column("deviation")
            batch.drop_column("rating")
