"""The club: pairing, ratings, profiles, history, the lobby."""
