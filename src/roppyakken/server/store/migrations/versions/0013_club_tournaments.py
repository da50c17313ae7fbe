"""A club's tournaments read by its club (issue 38).

Revision ID: 0013_club_tournaments
Revises: 0012_friends
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0013_club_tournaments"
down_revision: str | None = "0012_friends"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Index ``tournaments`` by club (a club's page lists its tournaments: server/store/tables.py)."""
    op.create_index("ix_tournaments_club", "tournaments", ["club_id", "status", "starts_at"])


def downgrade() -> None:
    """Drop the index."""
    op.drop_index("ix_tournaments_club", table_name="tournaments")
