"""The database schema a migrated database must have."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import metadata


def table_names(engine: Engine) -> set[str]:
    """The tables that exist."""
    return set(inspect(engine).get_table_names())


def check_schema(url: str) -> None:
    """Migrating twice works, and the migrated schema is exactly what the models describe."""
    db = Database(url)
    db.open()
    db.open()  # already at the newest revision: nothing to do
    assert {"rooms", "seats", "actions", "alembic_version"} <= table_names(db.engine)
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == []
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0014_audit36"
    db.engine.dispose()
