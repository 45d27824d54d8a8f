"""Alembic's environment: run the revisions on the connection :mod:`clubsuite.server.store.migrate` hands over (in its
transaction), never on one of its own."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, transaction_per_migration=False)
with context.begin_transaction():
    context.run_migrations()
