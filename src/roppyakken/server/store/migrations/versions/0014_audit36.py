"""Where a rated tournament's entrants joined from.

Revision ID: 0014_audit36
Revises: 0013_club_tournaments
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_audit36"
down_revision: str | None = "0013_club_tournaments"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``tournament_entry_origins`` (server/store/tables.py)."""
    op.create_table(
        "tournament_entry_origins",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("browser_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player_id"],
            ["tournament_entries.tournament_id", "tournament_entries.player_id"],
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("tournament_entry_origins")
