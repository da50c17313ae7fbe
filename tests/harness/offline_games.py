"""Games played offline, through the offline bridge (roppyakken.ai.offline), for the tests of uploads."""

from __future__ import annotations

from typing import Any

from roppyakken.ai.offline import OfflineTable
from roppyakken.rules import preset
from roppyakken.view import view_of


def finished_record(seed: int = 4, level: str = "random") -> dict[str, Any]:
    """A finished offline game's record, played through the bridge (first legal moves)."""
    table = OfflineTable(preset("classic"), 2, 0, [None, level], seed, "Ann", review=False)
    table.opening()
    while not table.game.over:
        table.act(view_of(table.game, 0).legal[0].to_json())
    return table.record()
