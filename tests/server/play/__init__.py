"""Playing a room: clocks, hints, chat, bots, durability, restarts, fairness, hidden information."""
