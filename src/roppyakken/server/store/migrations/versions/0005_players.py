"""Players without sign-up, the seats they took, the quick-pairing pool and each room's chat.

Revision ID: 0005_players
Revises: 0004_clocks
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_players"
down_revision: str | None = "0004_clocks"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``players``, ``seat_players``, ``pairing`` and ``chat``."""
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "seat_players",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Index("ix_seat_players_player", "player_id"),
    )
    op.create_table(
        "pairing",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("pool", sa.String(96), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("ready", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Index("ix_pairing_pool_joined", "pool", "joined_at"),
    )
    op.create_table(
        "chat",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("author", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("chat")
    op.drop_table("pairing")
    op.drop_table("seat_players")
    op.drop_table("players")
