"""Blocks and mutes by the time they were made (``blocks_by_time``, ``mutes_by_time``): every process of a site
served by several reads those of the last half-minute every two seconds (``community.hiding``), which without an
index is a scan of every block and mute."""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

HIDINGS = ("blocks", "mutes")


def upgrade() -> None:
    for name in HIDINGS:
        op.create_index(f"{name}_by_time", name, ["created_at"])


def downgrade() -> None:
    for name in HIDINGS:
        op.drop_index(f"{name}_by_time", table_name=name)
