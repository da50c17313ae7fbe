"""Alembic migrations of the server's database, run programmatically at start-up (see ``db.migrate``)."""
