"""Passkeys: an account's WebAuthn credentials (the credential's id, its public key, the authenticator's counter),
with which it signs in without its password."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the passkeys."""
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("label", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
    )
    op.create_index("passkeys_by_user", "passkeys", ["user_id"])


def downgrade() -> None:
    """Remove the passkeys (their accounts keep their passwords)."""
    op.drop_index("passkeys_by_user", "passkeys")
    op.drop_table("passkeys")
