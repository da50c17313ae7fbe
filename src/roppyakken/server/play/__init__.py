"""Rooms and their game: the room, the registry of rooms, clocks, bots, hints, chat, seat views."""
