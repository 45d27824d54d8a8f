"""Turn-based tables: their clocks, the players' playing hours, vacations and reminders (``server.turns``).

``turn_tables`` (a turn-based table's pace, what a clock running out does, whether a process holds it, whose clock
runs and until when), ``turn_seats`` (what each account last saw there, auto-play), ``turn_chat`` (the players'
last lines, kept for their next visits), ``turn_prefs`` (an account's time zone, playing hours and reminders),
``vacations``, ``push_subscriptions`` (Web Push, one per browser), ``outbox`` (reminders waiting to be delivered,
retried with back-off), ``server_keys`` (the Web Push key pair every process signs with) and ``test_clock`` (an
offset of the turn clocks, read only by ``clubs serve --test-clock``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Make the tables."""
    op.create_table(
        "turn_tables",
        sa.Column("table_id", sa.Text, primary_key=True),
        sa.Column("host_id", sa.Text, nullable=False),
        sa.Column("pace", sa.Float, nullable=False),
        sa.Column("on_timeout", sa.Text, nullable=False),
        sa.Column("parked", sa.Boolean, nullable=False),
        sa.Column("adjourned", sa.Boolean, nullable=False),
        sa.Column("ended", sa.Text),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("user_id", sa.Text),
        sa.Column("since", sa.Float),
        sa.Column("deadline", sa.Float),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
    )
    op.create_index("turn_tables_by_deadline", "turn_tables", ["deadline"])
    op.create_index("turn_tables_by_user", "turn_tables", ["user_id"])
    op.create_table(
        "turn_seats",
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("seen", sa.Integer, nullable=False),
        sa.Column("autoplay", sa.Boolean, nullable=False),
        sa.Column("reminded", sa.Integer),
        sa.Column("told_end", sa.Integer),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("turn_seats_by_user", "turn_seats", ["user_id"])
    op.create_table(
        "turn_chat",
        sa.Column("table_id", sa.Text, nullable=False),
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("user_id", sa.Text),
        sa.Column("present", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "id"),
    )
    op.create_table(
        "turn_prefs",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("zone", sa.Text, nullable=False),
        sa.Column("day_start", sa.Integer, nullable=False),
        sa.Column("day_end", sa.Integer, nullable=False),
        sa.Column("page", sa.Boolean, nullable=False),
        sa.Column("push", sa.Boolean, nullable=False),
        sa.Column("push_per_day", sa.Integer, nullable=False),
        sa.Column("push_count", sa.Integer, nullable=False),
        sa.Column("push_window", sa.Float),
        sa.Column("mail", sa.Boolean, nullable=False),
        sa.Column("email", sa.Text),
        sa.Column("email_confirmed", sa.Boolean, nullable=False),
        sa.Column("mail_key", sa.Text),
        sa.Column("digest_at", sa.Float),
        sa.Column("confirms_sent", sa.Integer, nullable=False),
        sa.Column("confirms_window", sa.Float),
        sa.Column("lang", sa.Text, nullable=False),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("ends", sa.Float, nullable=False),
    )
    op.create_index("vacations_by_user", "vacations", ["user_id", "ends"])
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False, unique=True),
        sa.Column("p256dh", sa.Text, nullable=False),
        sa.Column("auth", sa.Text, nullable=False),
        sa.Column("label", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("push_subscriptions_by_user", "push_subscriptions", ["user_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("target", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("claimed_by", sa.Text),
        sa.Column("claimed_until", sa.Float),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("outbox_by_next", "outbox", ["next_at"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "test_clock",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("offset", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    for name in (
        "test_clock", "server_keys", "outbox", "push_subscriptions", "vacations", "turn_prefs", "turn_chat",
        "turn_seats", "turn_tables",
    ):  # fmt: skip
        op.drop_table(name)
