"""Bots behind one small interface: each sees only its seat's view and answers one legal action."""

from __future__ import annotations

from roppyakken.ai.base import BOT_LEVELS, BOT_OPTIONS, Bot, bot_description, make_bot, parse_level

__all__ = ["BOT_LEVELS", "BOT_OPTIONS", "Bot", "bot_description", "make_bot", "parse_level"]
