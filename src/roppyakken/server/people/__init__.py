"""Players, guests, accounts, sessions, passwords, passkeys, history, moderation, playbans, erasure."""
