"""Seeded games of a bot against itself, as records: compared within a process and across processes."""

from __future__ import annotations

from roppyakken.ai.base import (
    make_bot,
)
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.record import dumps, record_of
from roppyakken.rules import preset


def bot_record(level: str, seed: int) -> str:
    """A classic game of ``level`` (seeded with ``seed``) against a greedy bot whose seed is fixed."""
    bots = [make_bot(level, seed), make_bot("greedy", 100)]
    return dumps(record_of(play_out(Game(preset("classic"), 2, seed=2), bots)))
