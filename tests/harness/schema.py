"""The database schema a migrated database must have."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from roppyakken.server.store.database import (
    Database,
    table_names,
)
from roppyakken.server.store.tables import metadata


def check_schema(url: str) -> None:
    """Migrating twice works, and the migrated schema is exactly what the models describe."""
    db = Database(url)
    db.open()
    db.open()  # already at the newest revision: nothing to do
    assert {"rooms", "seats", "actions", "alembic_version"} <= table_names(db.engine)
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == []
        assert (
            conn.execute(text("select version_num from alembic_version")).scalar() == "0008_account_recovery"
        )
    db.engine.dispose()
