"""Observations and action masks written straight into numpy arrays (optional extra ``[rl]``).

:func:`roppyakken.env.core.observe_view` builds a seat's observation as a list of floats
from a :class:`~roppyakken.view.SeatView`; the environments need it as numpy arrays, a
step at a time or for hundreds of games at once.  :class:`ObservationWriter` writes the
very same values (``tests/test_env_fast.py`` compares them) from the game's state,
reading only what the seat may see — its hand, the table, the captures, the revealed
cards and the public counters, as :func:`~roppyakken.view.view_of` does — without the
view or the list: the 48-card sections of every row at once with ``numpy.unpackbits``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from roppyakken.cards import ALL_CARDS, NUM_CARDS
from roppyakken.engine import Game
from roppyakken.env.core import (
    _LUCKY_INDEX,
    NUM_ACTIONS,
    PHASES,
    _cached_rule_features,
    observation_layout,
    observation_size,
)
from roppyakken.rules import Rules
from roppyakken.yaku import LUCKY_HAND_SLUGS

FloatRows = np.ndarray[Any, np.dtype[np.float32]]
MaskRows = np.ndarray[Any, np.dtype[np.int8]]


class ObservationWriter:
    """Writes the observations of ``players``-player games under ``rules`` into float32 rows."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.players = players
        self.size = observation_size(players)
        offsets = {name: (offset, size) for name, offset, size in observation_layout(players)}
        self.card_sections = 4 + 2 * players  # hand, table, captures, revealed, unseen, turned
        self.cards_end = self.card_sections * NUM_CARDS
        assert offsets["hand_sizes"][0] == self.cards_end
        self.rules_at = offsets["rules"][0]
        self.rule_features = np.asarray(_cached_rule_features(rules, players), np.float32)
        self.target = float(rules.target)
        self.orders = [[(seat + i) % players for i in range(players)] for seat in range(players)]
        self.no_hands = [0.0] * len(LUCKY_HAND_SLUGS)
        self.no_phase = [0.0] * len(PHASES)
        self.phase_rows = {p.value: [1.0 if q == p else 0.0 for q in PHASES] for p in PHASES}

    def _masks_and_tail(self, game: Game, seat: int) -> tuple[bytes, list[float]]:
        """The seat's card sections as 6 little-endian bytes each, and its other features."""
        order = self.orders[seat]
        hands = game.hands
        hand = hands[seat]
        table = game.table
        captures = game.captures
        revealed_all = game.revealed
        turned = game.turned
        turned_mask = 1 << turned if turned >= 0 else 0
        seen = hand | table | turned_mask
        raw = [hand.to_bytes(6, "little"), table.to_bytes(6, "little")]
        for s in order:
            mask = captures[s]
            seen |= mask
            raw.append(mask.to_bytes(6, "little"))
        for s in order:
            mask = revealed_all[s] & hands[s]
            seen |= mask
            raw.append(mask.to_bytes(6, "little"))
        raw.append((ALL_CARDS & ~seen).to_bytes(6, "little"))
        raw.append(turned_mask.to_bytes(6, "little"))
        tail = [hands[s].bit_count() / 16.0 for s in order]
        tail.append((len(game.pile) - game.pile_pos) / 48.0)
        declared = game.declared
        empty = self.no_hands
        for s in order:
            if declared[s]:
                row = list(empty)
                for slug in declared[s]:
                    row[_LUCKY_INDEX[slug]] = 1.0
                tail += row
            else:
                tail += empty
        held = game.held_lucky_hands(seat)
        if held:
            row = list(empty)
            for h in held:
                row[_LUCKY_INDEX[h.slug]] = 1.0
            tail += row
        else:
            tail += empty
        tail += self.phase_rows.get(game.phase, self.no_phase)
        to_act, dealer = game.to_act, game.dealer
        tail += [1.0 if to_act == s else 0.0 for s in order]
        tail += [1.0 if dealer == s else 0.0 for s in order]
        totals, legs, target = game.totals, game.legs, self.target
        tail += [totals[s] / target for s in order]
        tail += [float(legs[s]) for s in order]
        tail.append(game.round / 10.0)
        return b"".join(raw), tail

    def write(self, game: Game, seat: int, out: FloatRows) -> None:
        """Write ``seat``'s observation of ``game`` into the row ``out``."""
        raw, tail = self._masks_and_tail(game, seat)
        out[: self.cards_end] = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
        out[self.cards_end : self.rules_at] = tail
        out[self.rules_at :] = self.rule_features

    def write_rows(self, games: Sequence[Game], seat: int, out: FloatRows, rows: Sequence[int]) -> None:
        """Write ``seat``'s observation of ``games[j]`` into ``out[rows[j]]``, every row at once."""
        if not rows:
            return
        parts = [self._masks_and_tail(games[j], seat) for j in range(len(rows))]
        bits = np.unpackbits(np.frombuffer(b"".join([p[0] for p in parts]), np.uint8), bitorder="little")
        index = np.asarray(rows)
        out[index, : self.cards_end] = bits.reshape(len(rows), self.cards_end)
        out[index, self.cards_end : self.rules_at] = [p[1] for p in parts]
        out[index, self.rules_at :] = self.rule_features

    def observation(self, game: Game, seat: int) -> FloatRows:
        """A new float32 observation vector of ``seat``."""
        out = np.empty(self.size, np.float32)
        self.write(game, seat, out)
        return out


def action_mask(ids: Iterable[int]) -> MaskRows:
    """A new int8 mask of :data:`~roppyakken.env.core.NUM_ACTIONS` entries, 1 at each of ``ids``."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[list(ids)] = 1
    return mask
