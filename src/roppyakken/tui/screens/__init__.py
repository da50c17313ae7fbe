"""The terminal game's screens: new game, table, dialogs, scores and look-ups."""
