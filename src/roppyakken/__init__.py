"""Roppyakken (六百間, "Six Hundred"): the hanafuda game for 2 or 3 players, and its variants.

The core engine (this package without ``tui``, ``server`` and other front ends)
needs nothing outside the standard library::

    >>> from roppyakken import Game, preset, view_of
    >>> game = Game(preset("classic"), players=2, seed=7)
    >>> view = view_of(game, game.to_act)
    >>> len(view.legal) > 0
    True
"""

from __future__ import annotations

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take, action_from_json
from roppyakken.engine import Game, capture_targets
from roppyakken.errors import IllegalActionError, RecordError, RoppyakkenError, RulesError
from roppyakken.rules import PRESETS, Rules, load_rules_file, preset, resolve
from roppyakken.scoring import RoundScore, score_round
from roppyakken.view import SeatView, view_of

__version__ = "0.1.0"

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
