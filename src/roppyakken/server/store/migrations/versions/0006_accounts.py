"""Accounts, sessions and passkeys; ratings; fair play and moderation.

Revision ID: 0006_accounts
Revises: 0005_players
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_accounts"
down_revision: str | None = "0005_players"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables of accounts, ratings and fair play; mark rated rooms."""
    # --- rooms ---------------------------------------------------------------------------------
    # A plain ADD COLUMN, not a batch: on SQLite a batch copies the table and drops the old one,
    # and the drop deletes every room's seats, actions and chat (ON DELETE CASCADE).
    op.add_column("rooms", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))

    # --- accounts and sessions -----------------------------------------------------------------
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("login", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("agent", sa.String(200), nullable=True),
        sa.Index("ix_sessions_account", "account_id"),
    )

    # --- passkeys ------------------------------------------------------------------------------
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("user_handle", sa.String(64), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_used_at", sa.Float(), nullable=True),
        sa.Index("ix_passkeys_account", "account_id"),
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column(
            "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("scoped", sa.Boolean(), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Index("ix_webauthn_challenges_expires", "expires_at"),
    )

    # --- ratings -------------------------------------------------------------------------------
    op.create_table(
        "rating_games",
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), nullable=False, unique=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_ratings_pool", "pool"),
    )
    op.create_table(
        "rating_history",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
    )

    # --- fair play and moderation --------------------------------------------------------------
    op.create_table(
        "abandonments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("cause", sa.String(16), nullable=False),
        sa.Column("forgiven", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Index("ix_abandonments_player_at", "player_id", "at"),
        sa.Index("ux_abandonments_room_seat", "room_id", "seat", unique=True),
    )
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=True),
        sa.Column("cleared_at", sa.Float(), nullable=True),
        sa.Column("cleared_by", sa.String(64), nullable=True),
        sa.Index("ix_sanctions_active", "cleared_at", "expires_at"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("reporter_id", sa.String(32), nullable=False),
        sa.Column("reporter_address", sa.String(64), nullable=True),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("channel", sa.String(16), nullable=True),
        sa.Column("chat_idx", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("closed_by", sa.String(64), nullable=True),
        sa.Index("ix_reports_status_at", "status", "at"),
        sa.Index("ix_reports_reporter_at", "reporter_id", "at"),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
    )

    # --- guests --------------------------------------------------------------------------------
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("seen_at", sa.Float(), nullable=True))
        batch.create_index("ix_players_seen_at", ["seen_at"])
    op.create_table(
        "heartbeats",
        sa.Column("server", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("host_seen_at", sa.Float(), nullable=True))

    # --- profiles ------------------------------------------------------------------------------
    op.create_table(
        "game_seats",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("points_sq", sa.Float(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("yaku", sa.Text(), nullable=False),
        sa.Column("lucky", sa.Text(), nullable=False),
    )
    op.create_index(
        "ix_ratings_board",
        "ratings",
        [
            "pool",
            sa.text("(mu - 3.0 * sigma) DESC"),
            "player_id",
            "last_played",
            "games",
            "sigma",
            "mu",
        ],
    )
    op.create_index(
        "ix_game_seats_player",
        "game_seats",
        [
            "player_id",
            "finished_at",
            "public",
            "place",
            "rounds",
            "points",
            "points_sq",
            "abandoned",
            "yaku",
            "lucky",
        ],
    )
    op.create_index("ix_players_account", "players", ["account_id"])
    from roppyakken.server.club.profiles import backfill

    backfill(op.get_bind())  # the games finished before this table existed


def downgrade() -> None:
    """Drop them again."""
    # --- profiles ------------------------------------------------------------------------------
    op.drop_index("ix_players_account", table_name="players")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_index("ix_game_seats_player", table_name="game_seats")
    op.drop_table("game_seats")

    # --- fair play and moderation --------------------------------------------------------------
    op.drop_table("moderation_log")
    op.drop_table("reports")
    op.drop_table("sanctions")
    op.drop_table("abandonments")

    # --- ratings -------------------------------------------------------------------------------
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_table("rating_games")

    # --- passkeys ------------------------------------------------------------------------------
    op.drop_table("webauthn_challenges")
    op.drop_table("passkeys")

    # --- accounts and sessions -----------------------------------------------------------------
    op.drop_table("sessions")
    op.drop_table("accounts")

    # --- rooms ---------------------------------------------------------------------------------
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")

    # --- guests --------------------------------------------------------------------------------
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_seen_at")
    op.drop_table("heartbeats")
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_seen_at")
        batch.drop_column("seen_at")
