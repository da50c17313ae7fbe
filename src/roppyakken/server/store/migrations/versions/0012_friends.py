"""Follows, blocks, direct challenges and presence (issue 38).

Revision ID: 0012_friends
Revises: 0011_clubs
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_friends"
down_revision: str | None = "0011_clubs"
branch_labels: str | None = None
depends_on: str | None = None


def _pair(name: str, left: str, right: str) -> None:
    op.create_table(
        name,
        sa.Column(left, sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(right, sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("since", sa.Float, nullable=False),
    )
    op.create_index(f"ix_{name}_{right}", name, [right, left])


def upgrade() -> None:
    """Add the tables ``follows``, ``blocks``, ``challenges`` and ``presence`` (server/store/tables.py)."""
    _pair("follows", "follower", "followed")
    _pair("blocks", "blocker", "blocked")
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("from_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("answered", sa.Float, nullable=True),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("browser_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_challenges_to_status", "challenges", ["to_id", "status"])
    op.create_index("ix_challenges_from_status", "challenges", ["from_id", "status"])
    op.create_table(
        "presence",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_presence_seen", "presence", ["seen_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_presence_seen", table_name="presence")
    op.drop_table("presence")
    op.drop_index("ix_challenges_from_status", table_name="challenges")
    op.drop_index("ix_challenges_to_status", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_follows_followed", table_name="follows")
    op.drop_table("follows")
