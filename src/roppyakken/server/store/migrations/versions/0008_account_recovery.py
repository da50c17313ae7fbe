"""Sign-in names' skeletons; recovery codes, reset links and trusted devices of accounts.

Revision ID: 0008_account_recovery
Revises: 0007_pairing_origin
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from roppyakken.server.people import logins

revision = "0008_account_recovery"
down_revision: str | None = "0007_pairing_origin"
branch_labels: str | None = None
depends_on: str | None = None


def _account_id() -> sa.Column[str]:
    return sa.Column(
        "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    """Add ``accounts.login_skeleton``, unique (filled for the stored logins, which stay as they are;
    of logins that already look alike only the oldest gets it), and the tables ``recovery_codes``,
    ``password_resets`` and ``trusted_devices``."""
    # A plain ADD COLUMN (a batch would copy the table and drop the old one: see 0006).
    op.add_column("accounts", sa.Column("login_skeleton", sa.String(256), nullable=True))
    conn = op.get_bind()
    table = sa.table(
        "accounts",
        sa.column("id", sa.String),
        sa.column("login", sa.String),
        sa.column("created_at", sa.DateTime),
    )
    query = sa.select(table.c.id, table.c.login).where(table.c.login.is_not(None))
    taken: set[str] = set()
    for account_id, login in conn.execute(query.order_by(table.c.created_at, table.c.id)).all():
        skeleton = logins.skeleton(logins.normalize(str(login)))
        if skeleton in taken:  # a lookalike the old rules let in: the oldest keeps the skeleton
            continue
        taken.add(skeleton)
        conn.execute(
            sa.text("UPDATE accounts SET login_skeleton = :skeleton WHERE id = :id"),
            {"skeleton": skeleton, "id": account_id},
        )
    op.create_index("ix_accounts_login_skeleton", "accounts", ["login_skeleton"], unique=True)
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _account_id(),
        sa.Column("lookup", sa.String(8), nullable=False),
        sa.Column("code_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Index("ix_recovery_codes_account", "account_id", "lookup"),
    )
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _account_id(),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=False),
        sa.Index("ix_password_resets_account", "account_id"),
    )
    op.create_table(
        "trusted_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        _account_id(),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Index("ix_trusted_devices_account", "account_id"),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("trusted_devices")
    op.drop_table("password_resets")
    op.drop_table("recovery_codes")
    op.drop_index("ix_accounts_login_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("login_skeleton")
