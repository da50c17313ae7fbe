"""Where each waiting row of the pairing pool, and each seat a player took, came from (its address and
browser, hashed).

Revision ID: 0007_pairing_origin
Revises: 0006_accounts
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_pairing_origin"
down_revision: str | None = "0006_accounts"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``address_hash`` and ``browser_hash`` to ``pairing`` and ``seat_players`` (plain ADD COLUMNs,
    nullable: on SQLite a batch would copy ``seat_players`` and drop it)."""
    for table in ("pairing", "seat_players"):
        op.add_column(table, sa.Column("address_hash", sa.String(64), nullable=True))
        op.add_column(table, sa.Column("browser_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop them again."""
    for table in ("seat_players", "pairing"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("browser_hash")
            batch.drop_column("address_hash")
