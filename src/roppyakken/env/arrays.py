"""Observations and action masks written straight into numpy arrays (optional extra ``[rl]``).

:func:`roppyakken.env.core.observe_view` builds a seat's observation as a list of floats
from a :class:`~roppyakken.view.SeatView`; the environments need it as numpy arrays, a
step at a time or for hundreds of games at once.  :class:`ObservationWriter` writes the
very same values (``tests/test_env_fast.py`` compares them) from the game's state,
reading only what the seat may see — its hand, the table, the captures, the revealed
cards and the public counters, as :func:`~roppyakken.view.view_of` does — without the
view or the list: the card sections as the bits of one integer, the other sections as
float32 bytes (packed, or looked up in small caches), both unpacked by numpy, for
hundreds of rows at once.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from typing import Any, Final

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
        self.card_bytes = self.cards_end // 8
        assert offsets["hand_sizes"][0] == self.cards_end
        self.rules_at = offsets["rules"][0]
        self.rule_features = np.asarray(_cached_rule_features(rules, players), np.float32)
        self.target = float(rules.target)
        self.orders = [[(seat + i) % players for i in range(players)] for seat in range(players)]
        self.rules_bytes = _floats(self.rule_features.tolist())
        self.hand_rows: dict[tuple[str, ...], bytes] = {}
        self.no_phase = _floats([0.0] * len(PHASES))
        # Keyed by the kernel's phase string (game.phase), which is each Phase's value.
        self.phase_rows: dict[str, bytes] = {
            p.value: _floats([1.0 if q == p else 0.0 for q in PHASES]) for p in PHASES
        }
        self.no_seat = _floats([0.0] * players)
        self.seat_rows = [
            {s: _floats([1.0 if s == t else 0.0 for t in order]) for s in range(players)}
            for order in self.orders
        ]
        self.no_hands = _floats([0.0] * len(LUCKY_HAND_SLUGS))
        self.turn_rows = [
            {(p.value, s): self.phase_rows[p.value] + rows[s] for p in PHASES for s in range(players)}
            for rows in self.seat_rows
        ]
        self.counts_struct = struct.Struct(f"={players + 1}f")
        self.numbers_struct = struct.Struct(f"={2 * players + 1}f")

    def encode(self, game: Game, seat: int) -> bytes:
        """``seat``'s observation of ``game`` as the bytes of its float32 values (native order):
        the card sections a byte of cards at a time from a table of eight floats."""
        cards, tail = self.card_bytes_and_tail(game, seat)
        return b"".join(map(_BYTE_FLOATS.__getitem__, cards)) + tail

    def card_bytes_and_tail(self, game: Game, seat: int) -> tuple[bytes, bytes]:
        """The seat's card sections as 6 little-endian bytes each, and the float32 bytes of
        the rest of its observation: the lucky-hand rows and one-hots looked up in small
        caches, the counters packed with one :mod:`struct` each."""
        order = self.orders[seat]
        hands = game.hands
        hand = hands[seat]
        table = game.table
        captures = game.captures
        revealed_all = game.revealed
        turned = game.turned
        turned_mask = 1 << turned if turned >= 0 else 0
        seen = hand | table | turned_mask
        # Every card section in one integer, 48 bits a section, the first lowest.
        packed = hand | table << 48
        shift = 96
        for s in order:
            mask = captures[s]
            seen |= mask
            packed |= mask << shift
            shift += 48
        for s in order:
            mask = revealed_all[s] & hands[s]
            seen |= mask
            packed |= mask << shift
            shift += 48
        packed |= (ALL_CARDS & ~seen) << shift | turned_mask << shift + 48
        counts = [hands[s].bit_count() / 16.0 for s in order]
        counts.append((len(game.pile) - game.pile_pos) / 48.0)
        parts = [self.counts_struct.pack(*counts)]
        declared = game.declared
        hands_row, no_hands = self._hands_row, self.no_hands
        for s in order:
            slugs = declared[s]
            parts.append(hands_row(tuple(slugs)) if slugs else no_hands)
        held = game.held_lucky_hands(seat)
        parts.append(hands_row(tuple([h.slug for h in held])) if held else no_hands)
        seat_rows = self.seat_rows[seat]
        turn = (game.phase, game.to_act)
        phase_and_turn = self.turn_rows[seat].get(turn)
        if phase_and_turn is None:
            phase_and_turn = self.phase_rows.get(turn[0], self.no_phase) + seat_rows.get(
                turn[1], self.no_seat
            )
        parts.append(phase_and_turn)
        parts.append(seat_rows.get(game.dealer, self.no_seat))
        totals, legs, target = game.totals, game.legs, self.target
        numbers = [totals[s] / target for s in order]
        numbers += [float(legs[s]) for s in order]
        numbers.append(game.round / 10.0)
        parts.append(self.numbers_struct.pack(*numbers))
        parts.append(self.rules_bytes)
        return packed.to_bytes(self.card_bytes, "little"), b"".join(parts)

    def _hands_row(self, slugs: tuple[str, ...]) -> bytes:
        """The lucky-hand row (one float a lucky hand, 1 for each of ``slugs``) as bytes."""
        found = self.hand_rows.get(slugs)
        if found is None:
            row = [0.0] * len(LUCKY_HAND_SLUGS)
            for slug in slugs:
                row[_LUCKY_INDEX[slug]] = 1.0
            found = self.hand_rows[slugs] = _floats(row)
        return found

    def write(self, game: Game, seat: int, out: FloatRows) -> None:
        """Write ``seat``'s observation of ``game`` into the row ``out``."""
        out[:] = np.frombuffer(self.encode(game, seat), np.float32)

    def write_rows(self, games: Sequence[Game], seat: int, out: FloatRows, rows: Sequence[int]) -> None:
        """Write ``seat``'s observation of ``games[j]`` into ``out[rows[j]]``, every row at once."""
        if not rows:
            return
        split = self.card_bytes_and_tail
        parts = [split(games[j], seat) for j in range(len(rows))]
        bits = np.unpackbits(np.frombuffer(b"".join([p[0] for p in parts]), np.uint8), bitorder="little")
        tails = np.frombuffer(b"".join([p[1] for p in parts]), np.float32)
        count, end = len(rows), self.cards_end
        if isinstance(rows, range) and rows == range(len(out)):
            out[:, :end] = bits.reshape(count, end)
            out[:, end:] = tails.reshape(count, self.size - end)
        else:
            index = np.asarray(rows)
            out[index, :end] = bits.reshape(count, end)
            out[index, end:] = tails.reshape(count, self.size - end)

    def observation(self, game: Game, seat: int) -> FloatRows:
        """A new float32 observation vector of ``seat``."""
        cards, tail = self.card_bytes_and_tail(game, seat)
        out = np.empty(self.size, np.float32)
        end = self.cards_end
        out[:end] = np.unpackbits(np.frombuffer(cards, np.uint8), bitorder="little")
        out[end:] = np.frombuffer(tail, np.float32)
        return out


def _floats(values: Sequence[float]) -> bytes:
    """``values`` as the bytes of float32 values (native order)."""
    return struct.pack(f"={len(values)}f", *values)


_BYTE_FLOATS: Final = tuple(_floats([float(b >> i & 1) for i in range(8)]) for b in range(256))
"""The eight 0/1 floats of the cards of a byte of a card mask, lowest card first, as bytes."""


def action_mask(ids: Iterable[int]) -> MaskRows:
    """A new int8 mask of :data:`~roppyakken.env.core.NUM_ACTIONS` entries, 1 at each of ``ids``."""
    mask = bytearray(NUM_ACTIONS)
    for aid in ids:
        mask[aid] = 1
    return np.frombuffer(mask, np.int8)
