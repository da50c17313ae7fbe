"""Players, guests, accounts, sessions, passwords, passkeys, moderation, playbans, erasure."""
