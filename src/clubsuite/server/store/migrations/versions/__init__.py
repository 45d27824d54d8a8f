"""The revisions, each a module with Alembic's ``revision``, ``down_revision``, ``upgrade`` and ``downgrade``."""
