"""Alembic environment: run the migrations on the connection
:func:`roppyakken.server.store.database.migrate` passes.

Developers can also point Alembic at a database by URL (``sqlalchemy.url`` in
the config) to write a new revision; the server itself needs no alembic.ini.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from roppyakken.server.store.tables import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations() -> None:
    """Upgrade on the given connection, or on ``sqlalchemy.url``."""
    connection = context.config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url to migrate")
    engine = create_engine(url)
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


run_migrations()
