"""Clubs: their members, open requests and invitations, and chat.

Revision ID: 0011_clubs
Revises: 0010_tournaments
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_clubs"
down_revision: str | None = "0010_tournaments"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the clubs' tables: ``clubs``, ``club_members``, ``club_pending``, ``club_chat``."""
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(256), nullable=False, unique=True),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("admission", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_members_player", "club_members", ["player_id"])
    op.create_table(
        "club_pending",
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("by_player", sa.String(32), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_club_pending_player", "club_pending", ["player_id"])
    op.create_table(
        "club_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("hidden_by", sa.String(32), nullable=True),
    )
    op.create_index("ix_club_chat_club", "club_chat", ["club_id", "id"])
    op.create_index("ix_club_chat_player_at", "club_chat", ["player_id", "at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_club_chat_player_at", table_name="club_chat")
    op.drop_index("ix_club_chat_club", table_name="club_chat")
    op.drop_table("club_chat")
    op.drop_index("ix_club_pending_player", table_name="club_pending")
    op.drop_table("club_pending")
    op.drop_index("ix_club_members_player", table_name="club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
