"""Clocks and privacy: each room's clock and next deadline, and whether its game is listed publicly.

Revision ID: 0004_clocks
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_clocks"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.public`` (false: rooms made before are private), ``rooms.clock`` and its deadline."""
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("clock", sa.Text(), nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.Float(), nullable=True))
        batch.create_index("ix_rooms_clock_deadline", ["clock_deadline"])


def downgrade() -> None:
    """Drop the clock and privacy columns."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_clock_deadline")
        batch.drop_column("clock_deadline")
        batch.drop_column("clock")
        batch.drop_column("public")
