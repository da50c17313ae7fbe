"""Fencing: each room keeps its holder epoch, raised by every server that takes the room.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.epoch`` (0 for rooms made before: the next server to load one raises it)."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``rooms.epoch``."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("epoch")
