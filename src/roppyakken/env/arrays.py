"""Observations and action masks written straight into numpy arrays (optional extra ``[rl]``).

:func:`roppyakken.env.core.observe_view` builds a seat's observation as a list of floats
from a :class:`~roppyakken.view.SeatView`; the environments need it as numpy arrays, a
step at a time or for hundreds of games at once.  :class:`ObservationWriter` writes the
very same values (``tests/env/test_env_fast.py`` compares them) from the bytes that
:class:`roppyakken.env.kernel.SeatEncoder` (compiled with the rules) builds from the
game's state, reading only what the seat may see: one :func:`numpy.frombuffer` a step,
or a batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from roppyakken.cards import NUM_CARDS
from roppyakken.engine import Game
from roppyakken.env.core import NUM_ACTIONS, _cached_rule_features, observation_size
from roppyakken.env.kernel import SeatEncoder, mask_of
from roppyakken.rules import Rules

FloatRows = np.ndarray[Any, np.dtype[np.float32]]
MaskRows = np.ndarray[Any, np.dtype[np.int8]]


class ObservationWriter:
    """Writes the observations of ``players``-player games under ``rules`` into float32 rows."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.players = players
        self.size = observation_size(players)
        self.encoder = SeatEncoder(players, rules.target, _cached_rule_features(rules, players))
        self.cards_end = self.encoder.card_sections * NUM_CARDS
        assert self.encoder.size == self.size

    def encode(self, game: Game, seat: int) -> bytes:
        """``seat``'s observation of ``game`` as the bytes of its float32 values (native order)."""
        return self.encoder.encode(game, seat)

    def write(self, game: Game, seat: int, out: FloatRows) -> None:
        """Write ``seat``'s observation of ``game`` into the row ``out``."""
        out[:] = np.frombuffer(self.encoder.encode(game, seat), np.float32)

    def write_rows(self, games: Sequence[Game], seat: int, out: FloatRows, rows: Sequence[int]) -> None:
        """Write ``seat``'s observation of ``games[j]`` into ``out[rows[j]]``, every row at once:
        the card sections from their 64-bit card sets (the first 48 bits of each), the rest from
        its float32 bytes."""
        if not rows:
            return
        count, end, sections = len(rows), self.cards_end, self.encoder.card_sections
        sets, tails = self.encoder.encode_rows(list(games[:count]), seat)
        words = np.frombuffer(sets, np.uint64).astype("<u8", copy=False)  # (bit c at bit c)
        bits = np.unpackbits(words.view(np.uint8), bitorder="little").reshape(count, sections, 64)
        cards = bits[:, :, :NUM_CARDS].reshape(count, end)
        rest = np.frombuffer(tails, np.float32).reshape(count, self.size - end)
        if isinstance(rows, range) and rows == range(len(out)):
            out[:, :end] = cards
            out[:, end:] = rest
        else:
            index = np.asarray(rows)
            out[index, :end] = cards
            out[index, end:] = rest

    def observation(self, game: Game, seat: int) -> FloatRows:
        """A new (writable) float32 observation vector of ``seat``."""
        return np.frombuffer(bytearray(self.encoder.encode(game, seat)), np.float32)


def action_mask(ids: Iterable[int]) -> MaskRows:
    """A new int8 mask of :data:`~roppyakken.env.core.NUM_ACTIONS` entries, 1 at each of ``ids``."""
    return np.frombuffer(mask_of(list(ids), NUM_ACTIONS), np.int8)
