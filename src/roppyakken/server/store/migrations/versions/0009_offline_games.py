"""Games played offline in the browser and uploaded to a profile.

Revision ID: 0009_offline_games
Revises: 0008_account_recovery
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_offline_games"
down_revision: str | None = "0008_account_recovery"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the table ``offline_games`` (server/store/tables.py)."""
    op.create_table(
        "offline_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("opponents", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_index("ix_offline_games_player", "offline_games", ["player_id", "uploaded_at"])
    op.create_index("ux_offline_games_digest", "offline_games", ["player_id", "digest"], unique=True)


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ux_offline_games_digest", table_name="offline_games")
    op.drop_index("ix_offline_games_player", table_name="offline_games")
    op.drop_table("offline_games")
