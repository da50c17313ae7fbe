"""The research environments' hot path, compiled with the rules (:data:`roppyakken.compiled.GROUP`).

What every environment step does besides the engine's own work, as typed code that
mypyc compiles well:

* :class:`SeatEncoder`: a seat's observation (the layout of
  :func:`roppyakken.env.core.observation_layout`, the values of
  :func:`~roppyakken.env.core.observe_view`) as the bytes of its float32 values, read
  from the game's state -- only what the seat may see, as
  :func:`~roppyakken.view.view_of` reads it -- from small tables of ready-made bytes;
* :func:`card_play_ids`: the legal action ids of a card-play decision, from the engine's
  own moves, in their order;
* :func:`play_id`: a card-play decision played by its id (checked against the moves);
* :func:`play_random`: the opponents' random card plays up to the agent's turn, each the
  very choice of their generator (:func:`~roppyakken.indexed.choice_index` over the moves).

Standard library only.  The pure module is the reference; the compiled one must give the
same bytes, ids and games (``tests/env/test_env_kernel.py``).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Sequence
from typing import Final

from roppyakken.actions import DECLARE, PLAY, REDEAL, TAKE
from roppyakken.cards import (
    ALL_CARDS,
    BIT50,
    NUM_CARDS,
    SCORING_MASK,
    card_count,
    full_months,
    triple_months,
)
from roppyakken.compiled import swap_in
from roppyakken.engine import Game
from roppyakken.indexed import choice_index
from roppyakken.kernel import WHOLE, targets_of
from roppyakken.yaku import LUCKY_HAND_SLUGS

PLAY_STRIDE: Final = NUM_CARDS + 1
"""Play ids are ``PLAY_STRIDE * card + low`` (:data:`roppyakken.env.core.PLAY_BASE` is 0)."""
NO_TARGET: Final = NUM_CARDS
"""The ``low`` of a play that takes nothing."""
TAKE_BASE: Final = NUM_CARDS * (NUM_CARDS + 1)
"""First take id (:data:`roppyakken.env.core.TAKE_BASE`)."""
PHASE_ORDER: Final = (REDEAL, DECLARE, PLAY, TAKE)
"""The phases of the observation's one-hot (:data:`roppyakken.env.core.PHASES`)."""


def float_bytes(values: Sequence[float]) -> bytes:
    """``values`` as the bytes of float32 values (native order)."""
    return struct.pack(f"={len(values)}f", *values)


def _byte_floats() -> list[bytes]:
    out: list[bytes] = []
    for b in range(256):
        out.append(float_bytes([float(b >> i & 1) for i in range(8)]))
    return out


BYTE_FLOATS: Final = _byte_floats()
"""The eight 0/1 float32 values of the cards of a byte of a card set, lowest card first."""


def _one_hot(size: int, at: int) -> bytes:
    return float_bytes([1.0 if i == at else 0.0 for i in range(size)])


class SeatEncoder:
    """Encodes the observations of ``players``-player games into float32 bytes.

    ``rule_features`` and ``target`` are those of the rule set
    (:func:`roppyakken.env.core._rule_features`, ``rules.target``): fixed for a game.
    """

    players: int
    size: int
    card_sections: int
    """The card sections of an observation (48 floats each, first): ``4 + 2 * players``."""
    target: float
    orders: list[list[int]]
    rules_bytes: bytes
    hand_rows: dict[tuple[str, ...], bytes]
    count_rows: dict[int, bytes]
    """The hand sizes and the pile count, by the pile count and each seat's hand size (six
    bits each, from the observer on)."""
    no_hands: bytes
    turn_rows: list[list[bytes]]
    """``turn_rows[seat][phase * (players + 1) + to_act]``: the phase and turn one-hots
    together (phase ``len(PHASE_ORDER)``, seat ``players``: none)."""
    dealer_rows: list[list[bytes]]
    """``dealer_rows[seat][dealer]`` (dealer ``players``: none)."""
    counts: struct.Struct
    numbers: struct.Struct

    def __init__(self, players: int, target: int, rule_features: list[float]) -> None:
        self.players = players
        self.target = float(target)
        k = len(LUCKY_HAND_SLUGS)
        self.card_sections = 4 + 2 * players
        self.size = self.card_sections * NUM_CARDS + (players + 1) + (players + 1) * k
        self.size += len(PHASE_ORDER) + 4 * players + 1 + len(rule_features)
        self.orders = [[(seat + i) % players for i in range(players)] for seat in range(players)]
        self.rules_bytes = float_bytes(rule_features)
        self.hand_rows = {}
        self.count_rows = {}
        self.no_hands = float_bytes([0.0] * k)
        phases = len(PHASE_ORDER)
        self.turn_rows = []
        self.dealer_rows = []
        for seat in range(players):
            order = self.orders[seat]
            seat_rows = [float_bytes([1.0 if s == t else 0.0 for t in order]) for s in range(players + 1)]
            self.dealer_rows.append(seat_rows)
            self.turn_rows.append(
                [_one_hot(phases, p) + seat_rows[s] for p in range(phases + 1) for s in range(players + 1)]
            )
        self.counts = struct.Struct(f"={players + 1}f")
        self.numbers = struct.Struct(f"={2 * players + 1}f")

    def encode(self, game: Game, seat: int) -> bytes:
        """``seat``'s observation of ``game``: the bytes of its float32 values (native order)."""
        sets: list[int] = []
        self.card_sets(game, seat, sets)
        parts: list[bytes] = []
        for cards in sets:
            _put_cards(parts, cards)
        self.put_tail(game, seat, parts)
        return b"".join(parts)

    def encode_rows(self, games: list[Game], seat: int) -> tuple[array[int], bytes]:
        """``seat``'s observation of each of ``games``: the card sections as 64-bit unsigned
        ints (native order; :attr:`card_sections` a game, the card ``c`` of a section at bit
        ``c``), and the float32 bytes of the rest, one game after another."""
        sets: list[int] = []
        parts: list[bytes] = []
        for game in games:
            self.card_sets(game, seat, sets)
            self.put_tail(game, seat, parts)
        return array("Q", sets), b"".join(parts)

    def card_sets(self, game: Game, seat: int, out: list[int]) -> None:
        """Append the card sections of ``seat``'s observation of ``game`` to ``out``, as card
        sets: hand, table, captures and revealed cards (from ``seat`` on), unseen, turned up."""
        order = self.orders[seat]
        hands = game.hands
        hand = hands[seat]
        table = game.table
        captures = game.captures
        revealed = game.revealed
        turned = game.turned
        turned_set = BIT50 >> (50 - turned) if turned >= 0 else 0
        seen = hand | table | turned_set
        out.append(hand)
        out.append(table)
        for s in order:
            cards = captures[s]
            seen |= cards
            out.append(cards)
        for s in order:
            cards = revealed[s] & hands[s]
            seen |= cards
            out.append(cards)
        out.append(ALL_CARDS & ~seen)
        out.append(turned_set)

    def put_tail(self, game: Game, seat: int, parts: list[bytes]) -> None:
        """Append the float32 bytes of the sections after the cards to ``parts``: hand sizes,
        pile count, declared and held lucky hands, phase, turn, dealer, totals, legs, round, rules."""
        order = self.orders[seat]
        hands = game.hands
        key = len(game.pile) - game.pile_pos
        for s in order:
            key = key * 64 + card_count(hands[s])
        found = self.count_rows.get(key)
        if found is None:
            counts = [card_count(hands[s]) / 16.0 for s in order]
            counts.append((len(game.pile) - game.pile_pos) / 48.0)
            found = self.count_rows[key] = self.counts.pack(*counts)
        parts.append(found)
        declared = game.declared
        for s in order:
            slugs = declared[s]
            parts.append(self.hands_row(tuple(slugs)) if slugs else self.no_hands)
        parts.append(self.held_row(game, seat))
        players = self.players
        phase = _phase_index(game.phase)
        parts.append(self.turn_rows[seat][phase * (players + 1) + _seat_index(game.to_act, players)])
        parts.append(self.dealer_rows[seat][_seat_index(game.dealer, players)])
        totals = game.totals
        legs = game.legs
        target = self.target
        numbers = [totals[s] / target for s in order]
        for s in order:
            numbers.append(float(legs[s]))
        numbers.append(game.round / 10.0)
        parts.append(self.numbers.pack(*numbers))
        parts.append(self.rules_bytes)

    def held_row(self, game: Game, seat: int) -> bytes:
        """The lucky-hand row of the hands ``seat`` holds (``game.held_lucky_hands(seat)``)."""
        hand = game.hands[seat]
        # Every lucky hand needs three or four cards of a month, or no scoring card (all-chaff,
        # as :func:`roppyakken.yaku.lucky_holders` reads it): most hands hold none.
        if not ((hand and not hand & SCORING_MASK) or triple_months(hand) or full_months(hand)):
            return self.no_hands
        held = game.held_lucky_hands(seat)
        return self.hands_row(tuple([h.slug for h in held])) if held else self.no_hands

    def hands_row(self, slugs: tuple[str, ...]) -> bytes:
        """The lucky-hand row (one float a lucky hand, 1 for each of ``slugs``)."""
        found = self.hand_rows.get(slugs)
        if found is None:
            row = [0.0] * len(LUCKY_HAND_SLUGS)
            for slug in slugs:
                row[LUCKY_HAND_SLUGS.index(slug)] = 1.0
            found = float_bytes(row)
            self.hand_rows[slugs] = found
        return found


def _put_cards(parts: list[bytes], cards: int) -> None:
    """The 48 float32 0/1 values of a card set, eight at a time."""
    t = BYTE_FLOATS
    parts.append(t[cards & 255])
    parts.append(t[cards >> 8 & 255])
    parts.append(t[cards >> 16 & 255])
    parts.append(t[cards >> 24 & 255])
    parts.append(t[cards >> 32 & 255])
    parts.append(t[cards >> 40 & 255])


def _phase_index(phase: str) -> int:
    """The index of ``phase`` in :data:`PHASE_ORDER` (its length for none of them)."""
    if phase == PLAY:
        return 2
    if phase == TAKE:
        return 3
    if phase == DECLARE:
        return 1
    if phase == REDEAL:
        return 0
    return len(PHASE_ORDER)


def _seat_index(seat: int, players: int) -> int:
    return seat if 0 <= seat < players else players


def _low(target: int) -> int:
    """The lowest card of a non-empty card set."""
    return (target & -target).bit_length() - 1


def card_play_ids(game: Game) -> list[int]:
    """The legal action ids of a card-play decision (phases ``play`` and ``take``), in the
    order of the engine's moves (that of its legal actions); empty in any other phase."""
    out: list[int] = []
    put_card_play_ids(game, 0, out)
    return out


def put_card_play_ids(game: Game, base: int, out: list[int]) -> None:
    """Append ``base +`` each of :func:`card_play_ids` to ``out``: the ids of
    :meth:`~roppyakken.kernel.Round.moves`, read from the same targets, without the moves."""
    phase = game.phase
    table = game.table
    joker, wild, higher = game.card_play_options()
    if phase == TAKE:
        targets = targets_of(table, game.turned, True, joker, wild, higher)
        if targets & WHOLE:
            out.append(base + TAKE_BASE + _low(targets ^ WHOLE))
            return
        while targets:
            choice = targets & -targets
            targets ^= choice
            out.append(base + TAKE_BASE + _low(choice))
        return
    if phase != PLAY:
        return
    hand = game.hands[game.to_act]
    while hand:
        card = _low(hand)
        hand &= hand - 1
        targets = targets_of(table, card, False, joker, wild, higher)
        start = base + PLAY_STRIDE * card
        if targets & WHOLE:
            out.append(start + _low(targets ^ WHOLE))
        elif not targets:
            out.append(start + NO_TARGET)
        elif not targets & (targets - 1):
            out.append(start + _low(targets))
        else:  # a choice: one id per card to choose, in card-id order
            while targets:
                out.append(start + _low(targets))
                targets &= targets - 1


def play_id(game: Game, aid: int) -> bool:
    """Play the card-play decision of id ``aid`` if it is one of the legal moves now, as
    ``Game.apply`` plays it once checked; return whether it was (the game is unchanged
    if not, and in phases other than ``play`` and ``take``).  The id is decoded (card, and
    the lowest card of the target) and held to the card's targets, without listing the moves."""
    phase = game.phase
    if phase == TAKE:
        low = aid - TAKE_BASE
        if not 0 <= low < NUM_CARDS:
            return False
        targets = game.target_set(game.turned, True)
        target = _target_with(targets, low)
        if target <= 0:  # (the turned-up card always takes a target)
            return False
        game.take(target)
        return True
    if phase != PLAY or not 0 <= aid < TAKE_BASE:
        return False
    card = aid // PLAY_STRIDE
    if not game.hands[game.to_act] >> card & 1:
        return False
    targets = game.target_set(card, False)
    target = _target_with(targets, aid - card * PLAY_STRIDE)
    if target < 0:
        return False
    game.play_card(card, target)
    return True


def _target_with(targets: int, low: int) -> int:
    """The choice of a targets int (:func:`roppyakken.kernel.targets_of`) whose lowest card is
    ``low`` (:data:`NO_TARGET`: the card goes to the table, target 0), or -1 if there is none:
    the reverse of the ids of :meth:`~roppyakken.kernel.Round.moves`."""
    if targets & WHOLE:
        whole = targets ^ WHOLE
        return whole if _low(whole) == low else -1
    if not targets & (targets - 1):  # one card, or none: one decision
        if not targets:
            return 0 if low == NO_TARGET else -1
        return targets if _low(targets) == low else -1
    if low < NO_TARGET and targets >> low & 1:  # a choice among single cards
        return BIT50 >> (50 - low)
    return -1


def play_random(game: Game, me: int, draws: list[Callable[[int], int] | None]) -> int:
    """Play the random seats' card-play decisions until seat ``me`` is to act, a round ends,
    or a decision that is not a card play or a seat without a draw (``draws[seat]``, a
    random bot's ``getrandbits``) is reached; return how many were played.

    Each decision is ``moves[choice_index(draws[seat], len(moves))]`` of the engine's
    moves: what the random bot chooses among the legal actions (same order)."""
    played = 0
    while True:
        phase = game.phase
        if phase != PLAY and phase != TAKE:
            return played
        seat = game.to_act
        if seat == me:
            return played
        bits = draws[seat]
        if bits is None:
            return played
        moves = game.moves()
        card, target = moves[choice_index(bits, len(moves))]
        played += 1
        ended = game.take(target) if phase == TAKE else game.play_card(card, target)
        if ended:
            return played


PLAYED: Final = 0
""":func:`step_cards`: played, no round ended, and the agent is to play a card again."""
ENDED: Final = 1
"""Played up to the end of a round (the rest of the step, if any, is the caller's)."""
OTHER: Final = 2
"""Played, no round ended, and another decision than the agent's card play is next."""
NOT_CARD_PLAY: Final = 3
"""The agent's decision is not a card play: nothing was done."""
ILLEGAL: Final = 4
"""The id is not a legal card play now: nothing was done."""


def step_cards(game: Game, aid: int, me: int, draws: list[Callable[[int], int] | None]) -> int:
    """Seat ``me``'s card play of id ``aid`` (:func:`play_id`), then the random seats' card plays
    (:func:`play_random`), stopping at a round's end; the outcome: :data:`PLAYED`,
    :data:`ENDED`, :data:`OTHER`, :data:`NOT_CARD_PLAY` or :data:`ILLEGAL`."""
    phase = game.phase
    if phase != PLAY and phase != TAKE:
        return NOT_CARD_PLAY
    before = game.last_parts
    if not play_id(game, aid):
        return ILLEGAL
    if game.last_parts is not before:
        return ENDED
    play_random(game, me, draws)
    if game.last_parts is not before:
        return ENDED
    phase = game.phase
    if game.to_act != me or (phase != PLAY and phase != TAKE):
        return OTHER
    return PLAYED


def step_games(
    games: list[Game],
    actions: list[int],
    skip: list[bool],
    me: int,
    draws: list[list[Callable[[int], int] | None]],
    outcomes: list[int],
) -> list[int]:
    """:func:`step_cards` for each game ``i`` not ``skip[i]`` with ``actions[i]`` and
    ``draws[i]``; its outcome in ``outcomes[i]`` (left as it is for a skipped game), and the
    ``i`` whose outcome is not :data:`PLAYED` returned (the caller finishes their steps)."""
    rest: list[int] = []
    for i in range(len(games)):
        if skip[i]:
            continue
        outcome = step_cards(games[i], actions[i], me, draws[i])
        outcomes[i] = outcome
        if outcome != PLAYED:
            rest.append(i)
    return rest


def mask_of(ids: list[int], size: int) -> bytearray:
    """``size`` bytes, 1 at each of ``ids`` and 0 elsewhere."""
    mask = bytearray(size)
    for aid in ids:
        mask[aid] = 1
    return mask


def flat_ids(games: list[Game], done: list[bool], me: int, stride: int, others: list[int]) -> array[int]:
    """The legal card-play ids of each game ``i`` not ``done`` where seat ``me`` is to act, as
    ``i * stride + id`` (the entries of a ``(len(games), stride)`` mask; 64-bit signed ints,
    native order, for numpy to index by without a conversion); the ``i`` of such a
    game at another decision (declaration, redeal) are appended to ``others`` instead."""
    out: list[int] = []
    for i in range(len(games)):
        game = games[i]
        if done[i] or game.to_act != me:
            continue
        phase = game.phase
        if phase != PLAY and phase != TAKE:
            others.append(i)
            continue
        put_card_play_ids(game, i * stride, out)
    return array("q", out)


__all__ = [
    "BYTE_FLOATS",
    "ENDED",
    "ILLEGAL",
    "NOT_CARD_PLAY",
    "NO_TARGET",
    "OTHER",
    "PHASE_ORDER",
    "PLAYED",
    "PLAY_STRIDE",
    "TAKE_BASE",
    "SeatEncoder",
    "card_play_ids",
    "flat_ids",
    "float_bytes",
    "mask_of",
    "play_id",
    "play_random",
    "put_card_play_ids",
    "step_cards",
    "step_games",
]


# --- end of the compiled part: what follows swaps in the compiled modules when they are there.

swap_in(globals())
