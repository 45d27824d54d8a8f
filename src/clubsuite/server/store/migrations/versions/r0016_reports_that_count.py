"""Who may bring on the automatic mute, and invitations counted at every process.

``reports.counts``: whether a report counts toward the automatic mute (``people.moderation``): a report of a
message made by an account that was at the table when the message was said, and has some standing on the site.
Every other report is kept for the moderators alike and counts for nothing; reports kept before this revision
count for nothing (NULL).

``invitations_sent``: one row per invitation an account sent in the last minute, written by whichever process
took it (``people.notices``), so that the rate of invitations holds for a site served by several processes; rows
older than a minute are removed as new ones come."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column and the table."""
    with op.batch_alter_table("reports") as batch:
        batch.add_column(sa.Column("counts", sa.Boolean, nullable=True))
    op.create_table(
        "invitations_sent",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("sender_id", sa.Text, nullable=False),
        sa.Column("sent_at", sa.Float, nullable=False),
    )
    op.create_index("invitations_sent_by_sender", "invitations_sent", ["sender_id", "sent_at"])
    op.create_index("invitations_sent_by_time", "invitations_sent", ["sent_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_table("invitations_sent")
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("counts")
