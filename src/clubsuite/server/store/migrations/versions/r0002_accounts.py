"""Accounts: users (a name, an Argon2id password hash), their signed-in sessions, and the account a seat is taken
by (``seats.user_id``, empty for a guest or a bot)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the users and sessions, and the seat's account."""
    op.create_table(
        "users",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, unique=True),
        sa.Column("password_hash", sa.Text),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.Text, primary_key=True),
        sa.Column("public_id", sa.Text, nullable=False, unique=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("csrf", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("agent", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
    )
    op.create_index("sessions_by_user", "sessions", ["user_id"])
    op.add_column("seats", sa.Column("user_id", sa.Text))
    op.create_index("seats_by_user", "seats", ["user_id"])


def downgrade() -> None:
    """Remove the accounts (the seats keep their guests' names)."""
    op.drop_index("seats_by_user", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("user_id")
    op.drop_table("sessions")
    op.drop_table("users")
