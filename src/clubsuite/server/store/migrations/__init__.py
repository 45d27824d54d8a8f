"""The database's migrations (Alembic): ``versions/`` holds one revision per change of the schema, oldest first;
:mod:`clubsuite.server.store.migrate` runs them when a store is opened."""
