"""What players share: quick pairing, the lobby's open tables, ratings, profiles."""
