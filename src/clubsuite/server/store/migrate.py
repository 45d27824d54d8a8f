"""Bring a database's schema up to date with Alembic, when a store opens it.

The revisions live in the package (``clubsuite.server.store:migrations``), so an installed server carries them. Every
revision runs in one transaction with the store's own connection; on PostgreSQL a transaction-scoped advisory lock
is taken first, so several servers starting on one database at once upgrade it once (the others wait, then find it
current). A database made before the schema was versioned has the first revision's tables already: that revision
makes only what is missing, and the later ones add to it.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

SCRIPTS = "clubsuite.server.store:migrations"
"""Where the revisions are, as a package resource."""
_LOCK = 0x636C756273  # any fixed number: the advisory lock all clubsuite servers agree on ("clubs")


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, with no file: the revisions' place, and the connection to run them on."""
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPTS)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None  # the package holds revisions
    return found


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: never versioned)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, target: str = "head") -> None:
    """Run every revision the database lacks, up to ``target``, in one transaction."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        command.upgrade(config(connection), target)
