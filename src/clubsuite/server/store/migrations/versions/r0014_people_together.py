"""People together, and kept safe from one another: who follows whom (``follows``), who blocked or muted whom
(``blocks``, ``mutes``), each account's privacy (``privacy``), who has a page open now (``presence``), the notices
an account is shown on any page (``notices``: invitations, a moderator's word), reports (``reports``), what the
moderators did about them (``sanctions``) and who the moderators are (``moderators``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

PAIRS = ("follows", "blocks", "mutes")


def upgrade() -> None:
    """Add the tables."""
    for name in PAIRS:
        op.create_table(
            name,
            sa.Column("user_id", sa.Text, nullable=False),
            sa.Column("other_id", sa.Text, nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.PrimaryKeyConstraint("user_id", "other_id"),
        )
        op.create_index(f"{name}_by_other", name, ["other_id"])
    op.create_table(
        "privacy",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("invites", sa.Text, nullable=False),
        sa.Column("presence", sa.Text, nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "notices",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float),
    )
    op.create_index("notices_by_user", "notices", ["user_id", "created_at"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("reporter_id", sa.Text, nullable=False),
        sa.Column("subject_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("context", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("handled_by", sa.Text),
        sa.Column("handled_at", sa.Float),
        sa.Column("outcome", sa.Text),
    )
    op.create_index("reports_by_status", "reports", ["status", "created_at"])
    op.create_index("reports_by_subject", "reports", ["subject_id", "created_at"])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("until", sa.Float),
        sa.Column("by_id", sa.Text),
        sa.Column("report_id", sa.Text),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("sanctions_by_user", "sanctions", ["user_id", "created_at"])
    op.create_table(
        "moderators",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("added_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Remove them."""
    op.drop_table("moderators")
    op.drop_index("sanctions_by_user", "sanctions")
    op.drop_table("sanctions")
    op.drop_index("reports_by_subject", "reports")
    op.drop_index("reports_by_status", "reports")
    op.drop_table("reports")
    op.drop_index("notices_by_user", "notices")
    op.drop_table("notices")
    op.drop_table("presence")
    op.drop_table("privacy")
    for name in reversed(PAIRS):
        op.drop_index(f"{name}_by_other", name)
        op.drop_table(name)
