"""Roppyakken (六百間, "Six Hundred"): the hanafuda game for 2 or 3 players, and its variants.

The core engine (this package without ``tui``, ``server`` and other front ends)
needs nothing outside the standard library::

    >>> from roppyakken import Game, preset, view_of
    >>> game = Game(preset("classic"), players=2, seed=7)
    >>> view = view_of(game, game.to_act)
    >>> len(view.legal) > 0
    True

The names below are loaded on first use, so that ``import roppyakken.cli`` (and a
command that needs little, such as ``roppyakken --help``) does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roppyakken.actions import Action, CallRedeal, Declare, Play, Take, action_from_json
    from roppyakken.engine import Game, capture_targets
    from roppyakken.errors import IllegalActionError, RecordError, RoppyakkenError, RulesError
    from roppyakken.rules import PRESETS, Rules, load_rules_file, preset, resolve
    from roppyakken.scoring import RoundScore, score_round
    from roppyakken.view import SeatView, view_of

__version__ = "0.1.0"

_HOMES: dict[str, str] = {
    "Action": "actions",
    "CallRedeal": "actions",
    "Declare": "actions",
    "Play": "actions",
    "Take": "actions",
    "action_from_json": "actions",
    "Game": "engine",
    "capture_targets": "engine",
    "IllegalActionError": "errors",
    "RecordError": "errors",
    "RoppyakkenError": "errors",
    "RulesError": "errors",
    "PRESETS": "rules",
    "Rules": "rules",
    "load_rules_file": "rules",
    "preset": "rules",
    "resolve": "rules",
    "RoundScore": "scoring",
    "score_round": "scoring",
    "SeatView": "view",
    "view_of": "view",
}
"""Each public name and the module (under ``roppyakken``) it comes from."""


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'roppyakken' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"roppyakken.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PRESETS",
    "Action",
    "CallRedeal",
    "Declare",
    "Game",
    "IllegalActionError",
    "Play",
    "RecordError",
    "RoppyakkenError",
    "RoundScore",
    "Rules",
    "RulesError",
    "SeatView",
    "Take",
    "action_from_json",
    "capture_targets",
    "load_rules_file",
    "preset",
    "resolve",
    "score_round",
    "view_of",
]
