"""Commit–reveal deals: each room keeps the salt of its deal commitment.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.salt`` (null for rooms made before, and for solo rooms with a chosen seed)."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``rooms.salt``."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("salt")
