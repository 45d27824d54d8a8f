"""Several server processes over one database: the processes serving it (``nodes``, each with its heartbeat) and
which of them owns each table (``leases``: one owner at a time, good while its node beats, with an epoch that grows
at every change of owner so that a stale owner's writes can be refused)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nodes and the table leases."""
    op.create_table(
        "nodes",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column("table_id", sa.Text, primary_key=True),
        sa.Column("node", sa.Text, nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
    )
    op.create_index("leases_by_node", "leases", ["node"])


def downgrade() -> None:
    """Remove the leases and the nodes (one process serves every table again)."""
    op.drop_index("leases_by_node", "leases")
    op.drop_table("leases")
    op.drop_table("nodes")
