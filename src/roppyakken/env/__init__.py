"""Roppyakken for reinforcement-learning research (``docs/RESEARCH.md``).

:mod:`roppyakken.env.core` (standard library only) holds the fixed action ids, the
observation vectors and :class:`RoppyakkenEnv`; the optional extra ``[rl]`` adds
:mod:`roppyakken.env.pettingzoo` (an AEC environment), :mod:`roppyakken.env.gymnasium`
(a single-agent environment against bots, and its vectorised form) and
:mod:`roppyakken.env.learned` (the shipped learned baseline, numpy).
"""

from roppyakken.env.core import (
    DECLARE_BASE,
    NUM_ACTIONS,
    PLAY_BASE,
    REDEAL_BASE,
    TAKE_BASE,
    RoppyakkenEnv,
    action_id,
    decode,
    describe_action,
    legal_ids,
    observation_layout,
    observation_size,
    observe_view,
    render_game,
)

__all__ = [
    "DECLARE_BASE",
    "NUM_ACTIONS",
    "PLAY_BASE",
    "REDEAL_BASE",
    "TAKE_BASE",
    "RoppyakkenEnv",
    "action_id",
    "decode",
    "describe_action",
    "legal_ids",
    "observation_layout",
    "observation_size",
    "observe_view",
    "render_game",
]
