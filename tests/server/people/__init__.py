"""People: accounts, sessions, guests, passkeys, players, playbans, moderation, recovery."""
