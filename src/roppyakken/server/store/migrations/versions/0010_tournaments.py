"""Tournaments: their entries, tables and byes.

Revision ID: 0010_tournaments
Revises: 0009_offline_games
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_tournaments"
down_revision: str | None = "0009_offline_games"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the tables ``tournaments``, ``tournament_entries``, ``tournament_tables`` and
    ``tournament_byes`` (server/store/tables.py)."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("club_id", sa.String(32), nullable=True),
        sa.Column("creator", sa.String(32), nullable=True),
        sa.Column("schedule", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("duration", sa.Float, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("director", sa.String(64), nullable=True),
        sa.Column("director_epoch", sa.Integer, nullable=False, server_default="0"),
        sa.Column("director_until", sa.Float, nullable=False, server_default="0"),
    )
    op.create_index("ix_tournaments_status_start", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_creator", "tournaments", ["creator", "created_at"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("free_since", sa.Float, nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("abandonments", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("paired_at", sa.Float, nullable=False),
        sa.Column("room_id", sa.String(32), nullable=True),
        sa.Column("finished_at", sa.Float, nullable=True),
        sa.Column("places", sa.Text, nullable=True),
        sa.Column("abandoned", sa.Text, nullable=True),
    )
    op.create_index("ux_tournament_tables_room", "tournament_tables", ["room_id"], unique=True)
    op.create_table(
        "tournament_byes",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("tournament_byes")
    op.drop_index("ux_tournament_tables_room", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_creator", table_name="tournaments")
    op.drop_index("ix_tournaments_status_start", table_name="tournaments")
    op.drop_table("tournaments")
