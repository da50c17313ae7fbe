"""The game state machine: deal, decisions, legal actions, apply, round end, game end.

A :class:`Game` is fully determined by its rules, its deck orders and the
decisions applied to it.  Card sets are 48-bit masks.  :meth:`Game.apply`
checks an action, raises :class:`IllegalActionError` (changing nothing) if it is
not legal, and otherwise returns the public events it caused.  The card play
itself (R-5, R-6, R-8.5) is the kernel's (:class:`roppyakken.kernel.Round`, which
``Game`` extends with the deal, declarations, records and the end of the game).

Clause ids (``R-…``) refer to RULES.md.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from roppyakken.actions import (
    DECLARE,
    OVER,
    PLAY,
    REDEAL,
    TAKE,
    Action,
    CallRedeal,
    Declare,
    Play,
    Take,
)
from roppyakken.cards import (
    BIT50,
    MONTH,
    MONTH_MASK,
    NUM_CARDS,
    SLUGS,
    full_months,
    iter_cards,
)
from roppyakken.compiled import i64, swap_in
from roppyakken.decknet import deck_by_network
from roppyakken.errors import IllegalActionError, Phrase, RoppyakkenError
from roppyakken.events import (
    DealerTookFour,
    Declared,
    Event,
    FirstDealerDrawn,
    GameEnded,
    LegWon,
    Redealt,
    RoundEnded,
    RoundStarted,
)
from roppyakken.game_end import add_finals, dealer_after, leg_winner, most_legs, next_dealer, outcome_with
from roppyakken.i18n import N_
from roppyakken.indexed import Picker, play_cards
from roppyakken.kernel import ROUND_STATE, Round, capture_targets, deal_cards, first_dealer_draws, stacks_of
from roppyakken.outcome import Outcome
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, ScoreParts, parts_of, score_parts
from roppyakken.yaku import FOUR_BRIGHTS, LuckyHand, lucky_hands_held, lucky_holders

DeckSource = Callable[[int, int], Sequence[int]]
"""``deck(round, attempt)``: the shuffled deck (card ids, first dealt first)."""

MAX_REDEALS: Final = 1000
"""A deck source that keeps dealing fours is refused after this many redeals."""
MAX_SEED: Final = 2**63 - 1
"""Seeds are whole numbers from 0 to this: a random game's seed is 63 random bits, and a signed
64-bit integer (the server's database, most JSON readers of records) holds every one."""


def check_seed(seed: int) -> int:
    """``seed`` if it is in range (0 to :data:`MAX_SEED`); else a one-line error naming the bound."""
    if not 0 <= seed <= MAX_SEED:
        raise RoppyakkenError(
            N_("the seed must be a whole number from 0 to {max}, not {seed}"), max=MAX_SEED, seed=seed
        )
    return seed


def seeded_deck(seed: int, round_index: int, attempt: int) -> list[int]:
    """The deck of a round: a pure function of the game seed, round and deal attempt (R-3.2).

    Deriving each deck from ``(seed, round, attempt)`` rather than from one running
    generator means a saved game resumes with the very decks it would have had.
    """
    return shuffled_by(f"roppyakken:{seed}:{round_index}:{attempt}")


def shuffled_by(label: str) -> list[int]:
    """A shuffled deck determined by ``label``: the cards sorted by 32-bit SHAKE-128 keys.

    One C-level hash call and one sort: far faster than a Python-level shuffle, the
    same on every platform and Python version, and uniform up to key ties (about
    one deck in four million has one, broken by card id).
    """
    digest = _digest(label)
    return deck_by_network(digest) if _NATIVE else deck_by_digest(digest)


def deck_by_digest(digest: bytes) -> list[int]:
    """The card ids sorted by their 32-bit big-endian keys in ``digest``, the lower id first
    among equal keys (FORMATS.md §3).

    Sorted as floats, without a key function and without a Python-level loop (the same
    code is fast interpreted and compiled): each card is an 8-byte big-endian double
    ``2**52 + key * 2**16 + id * 2**8`` (exact: sign 0, exponent 52, the key and id in
    the mantissa), so the doubles sort as ``(key, id)`` pairs (``list.sort``'s float fast
    path); packed back, byte 6 of each is the card id.  The records are a template with
    the ids in place, the key bytes copied in by four strided slices.
    """
    return list(_PACK_RECORDS(*sorted(_records(digest)))[6::8])


def _records(digest: bytes) -> tuple[float, ...]:
    records = bytearray(_RECORDS)
    records[2::8] = digest[0::4]
    records[3::8] = digest[1::4]
    records[4::8] = digest[2::4]
    records[5::8] = digest[3::4]
    return _UNPACK_RECORDS(records)


_RECORDS: Final = bytes(b for card in range(NUM_CARDS) for b in (0x43, 0x30, 0, 0, 0, 0, card, 0))
""":func:`deck_by_digest`'s records before the keys are copied in: ``2**52 + card * 2**8``."""

_UNPACK_RECORDS: Final = struct.Struct(f">{NUM_CARDS}d").unpack
_PACK_RECORDS: Final = struct.Struct(f">{NUM_CARDS}d").pack


def shuffled_top(label: str, count: int) -> list[int]:
    """``shuffled_by(label)[:count]``: the top cards only (the first-dealer draw, R-2.2)."""
    digest = _digest(label)
    return _top_native(digest, count) if _NATIVE else top_by_digest(digest, count)


def top_by_digest(digest: bytes, count: int) -> list[int]:
    """``deck_by_digest(digest)[:count]``: the same records sorted, only the top ``count`` read."""
    return [int(card) >> 8 & 63 for card in sorted(_records(digest))[:count]]


_NATIVE: Final = __name__.endswith("_c")
"""Whether this is the compiled copy of the module (``roppyakken._engine_c``): the seeded decks
are then ordered by :func:`roppyakken.decknet.deck_by_network` (a sorting network of native
locals) and the first-dealer draw by :func:`_top_native` (native loops), fast compiled and slow
interpreted; the pure module orders them by :func:`deck_by_digest` and :func:`top_by_digest`
(C calls, no Python-level loop).  Both give the same order, FORMATS.md §3
(``tests/core/test_seeded_deck_native.py`` checks each against the other on either build)."""


def _key(digest: bytes, card: i64) -> i64:
    """The 32-bit big-endian key of ``card`` in ``digest`` (compiled: four native byte reads)."""
    i = card * 4
    b0: i64 = digest[i]
    b1: i64 = digest[i + 1]
    b2: i64 = digest[i + 2]
    b3: i64 = digest[i + 3]
    return ((b0 * 256 + b1) * 256 + b2) * 256 + b3


_ABOVE: Final = 1 << 40
"""Above every ``key * 64 + id`` (:func:`_top_native`)."""


def _top_native(digest: bytes, count: i64) -> list[int]:
    """:func:`top_by_digest` by native code: passes over the keys, each picking the two least
    ``(key, id)`` (as ``key * 64 + id``) after the last one picked: no list but the result
    (the first-dealer draw takes a card a seat, two or three)."""
    top: list[int] = []
    last: i64 = -1
    while len(top) < count:
        best: i64 = _ABOVE
        second: i64 = _ABOVE
        card: i64 = 0
        while card < NUM_CARDS:
            packed = _key(digest, card) * 64 + card
            if last < packed < second:
                if packed < best:
                    second = best
                    best = packed
                else:
                    second = packed
            card += 1
        top.append(int(best & 63))
        if len(top) < count:
            top.append(int(second & 63))
        last = second
    return top


def _digest(label: str) -> bytes:
    """The SHAKE-128 digest of ``label`` that holds the 48 cards' 32-bit big-endian keys."""
    return _SHAKE_128(label.encode()).digest(4 * NUM_CARDS)


_SHAKE_128: Final = hashlib.shake_128
"""(Compiled, a ``Final`` is a C static: no module attribute looked up at each deck.)"""


def deal_sizes(rules: Rules, players: int) -> tuple[int, int]:
    """R-3.1: cards per hand and cards to the table."""
    if players == 2:
        return (10, 8) if rules.ten_card_deal else (8, 8)
    return 7, 6


def deal_pattern(rules: Rules, players: int) -> list[tuple[int, int]]:
    """R-3.2: the deal as ``(who, count)`` packets, ``who`` a seat offset from the dealer + 1
    (0 = the player after the dealer, ``players - 1`` = the dealer) or -1 for the table."""
    hand, table = deal_sizes(rules, players)
    key = (players, hand, table)  # (compiled: a tuple of three, not one built from a list)
    cached = _PATTERNS.get(key)
    if cached is not None:
        return list(cached)
    first = hand // 2 if hand % 2 == 0 else (hand + 1) // 2
    second = hand - first
    table_first = table // 2
    packets: list[tuple[int, int]] = []
    for size, tsize in ((first, table_first), (second, table - table_first)):
        packets.extend((i, size) for i in range(players))
        packets.append((-1, tsize))
    _PATTERNS[key] = tuple(packets)
    return packets


_PATTERNS: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
"""The deal patterns by ``(players, hand size, table size)``: a new game's costs ~1 µs less."""


def deck_from_deal(
    rules: Rules,
    players: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    table: Sequence[int],
    pile: Sequence[int],
) -> list[int]:
    """A deck that deals exactly these hands and table to these seats (R-3.2), then ``pile``.

    Used to replay a recorded deal and to set up positions in tests.
    """
    sources = {i: sorted(hands[(dealer + 1 + i) % players]) for i in range(players)}
    sources[-1] = sorted(table)
    deck: list[int] = []
    for who, count in deal_pattern(rules, players):
        deck.extend(sources[who][:count])
        sources[who] = sources[who][count:]
    return deck + list(pile)


_PLAYS: dict[int, Play] = {}
"""Interned :class:`Play` actions (immutable), so legal-action lists allocate little."""


@dataclass(slots=True)
class RoundLog:
    """What a round's record needs (FORMATS.md §3): the deal, declarations, plays, scores."""

    dealer: int
    hands: list[int]
    table: int
    pile: list[int]
    declared: list[list[str] | None]
    plays: list[tuple[int, str, int, int]] = field(default_factory=list)
    score: RoundScore | None = None
    totals: list[int] | None = None
    captures: list[int] | None = None


GAME_STATE: Final = (
    "seed",
    "_deck_source",
    "_pattern",
    "history",
    "totals",
    "legs",
    "round",
    "leg",
    "dealer",
    "_queue",
    "_attempt",
    "last_score",
    "winner",
    "outcome",
    "stop_at_round_end",
)
"""The attributes of a :class:`Game` besides those of its round (:data:`ROUND_STATE`): what
:meth:`Game._setup` sets, :meth:`Game.clone` copies and ``copy`` and ``pickle`` take by
name (``tests/core/test_game_copy.py`` checks it against ``_setup``)."""


class Game(Round):
    """A game (or match) of Roppyakken for 2 or 3 players under ``rules``.

    ``seed`` fixes the first-dealer draw and every deck; ``deck_source`` and
    ``first_dealer`` override them (replaying a record).  ``log`` keeps the
    round logs a record needs; searchers turn it off on their copies.  ``events=False``
    keeps the round logs but no events (``events`` stays empty and :meth:`apply` returns
    none): for batches that keep only records and results, such as ``simulate``.
    """

    last_parts: ScoreParts | None
    """The last round's score as plain fields, None before the first (:attr:`last_score` builds
    the public named tuples from it); a new object each time a round is scored, so a caller that
    keeps the one it saw knows a round ended when it is no longer the same.  Read only."""

    def __init__(
        self,
        rules: Rules,
        players: int = 2,
        seed: int | None = None,
        *,
        deck_source: DeckSource | None = None,
        first_dealer: int | None = None,
        log: bool = True,
        events: bool = True,
    ) -> None:
        rules.check_players(players)
        self._setup(rules, players, secrets.randbits(63) if seed is None else seed, deck_source, log)
        self.keep_events = events
        if first_dealer is None:
            first_dealer = self._draw_first_dealer()
        elif not 0 <= first_dealer < players:
            raise RoppyakkenError(f"first dealer {first_dealer} is not a seat")
        self.dealer = first_dealer
        self._start_round()

    def _setup(
        self, rules: Rules, players: int, seed: int, deck_source: DeckSource | None, log: bool
    ) -> None:
        """Every attribute of a game, at its value before the first deal (the one list of them)."""
        self.rules = rules
        self.players = players
        self.seed = seed
        self._deck_source: DeckSource | None = deck_source
        """The given deck source; None: the seeded decks (a plain value: compiled, a lambda
        here could not be copied)."""
        self._pattern = deal_pattern(rules, players)
        self.log = log
        self.keep_events = True
        """Whether a logged game keeps its events too (see the ``events`` argument)."""
        self.history: list[RoundLog] = []
        self.events: list[Event] = []
        self.plays = []
        self.totals = [0] * players
        self.legs = [0] * players
        self.round = -1
        self.leg = 0
        self.dealer = 0
        self.hands = [0] * players
        self.table = 0
        self.pile: list[int] = []
        self.pile_pos = 0
        self.captures = [0] * players
        self.orders: list[list[int]] = [[] for _ in range(players)]
        self.declared: list[list[str]] = [[] for _ in range(players)]
        self.revealed = [0] * players
        self.phase = OVER
        self.to_act = 0
        self.turned = -1
        self._queue: list[int] = []
        self._attempt = 0
        self.last_score = None
        self.winner: int | None = None
        self.outcome: Outcome | None = None
        """Who won the game and why (None until it is over)."""
        self.read_options()  # the card play's options as ints (kernel.Round)
        self.stop_at_round_end = False

    # ----------------------------------------------------------------- queries

    @property
    def last_score(self) -> RoundScore | None:
        """The score of the last round scored, None before the first (the public named tuples,
        built from the score's parts when first read: a playout nobody reads does not build
        them; the same object at each read until the next round is scored)."""
        parts = self.last_parts
        return None if parts is None else parts.public()

    @last_score.setter
    def last_score(self, score: RoundScore | None) -> None:
        self.last_parts = None if score is None else parts_of(score)

    @property
    def end_reason(self) -> str:
        """Why the game ended, as the events' JSON writes it (``""`` until it is over):
        :attr:`outcome`'s :attr:`~roppyakken.outcome.Outcome.reason`."""
        outcome = self.outcome
        return "" if outcome is None else outcome.reason

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    def held_lucky_hands(self, seat: int) -> list[LuckyHand]:
        """The lucky hands ``seat`` holds now (R-4), for the declaration decision."""
        return lucky_hands_held(self._scoring, self.hands[seat])  # (native attributes, as below)

    def targets(self, card: int, from_pile: bool = False) -> list[int]:
        """The legal targets of ``card`` on the current table (R-5.2, R-6)."""
        return capture_targets(self.rules, self.table, card, from_pile)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (empty only when the game is over)."""
        phase = self.phase
        if phase == PLAY:
            rules, table = self.rules, self.table
            out: list[Action] = []
            cache = _PLAYS
            hand = self.hands[self.to_act]
            while hand:
                low = hand & -hand
                hand ^= low
                card = low.bit_length() - 1
                targets = capture_targets(rules, table, card, False)
                for t in targets or (0,):
                    key = t | card << 48
                    play = cache.get(key)
                    if play is None:
                        play = cache[key] = Play(card, t)
                    out.append(play)
            return out
        if phase == TAKE:
            return [Take(t) for t in capture_targets(self.rules, self.table, self.turned, True)]
        if phase == DECLARE:
            slugs = [h.slug for h in self.held_lucky_hands(self.to_act)]
            subsets: list[Action] = []
            for bits in range(2 ** len(slugs)):
                subsets.append(Declare(tuple(s for i, s in enumerate(slugs) if bits >> i & 1)))
            return subsets
        if phase == REDEAL:
            return [CallRedeal(True), CallRedeal(False)]
        return []

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now."""
        phase = self.phase
        if phase == OVER:
            raise IllegalActionError(N_("the game is over"))
        seat = self.to_act
        if isinstance(action, Play):
            if phase != PLAY:
                raise IllegalActionError(
                    N_("not the time to play a card: {waiting}"), waiting=self._waiting()
                )
            card = action.card
            if not 0 <= card < NUM_CARDS or not self.hands[seat] >> card & 1:
                name = SLUGS[card] if 0 <= card < NUM_CARDS else str(card)
                raise IllegalActionError(N_("{card} is not in seat {seat}'s hand"), card=name, seat=seat + 1)
            self._check_target(card, action.target, False)
        elif isinstance(action, Take):
            if phase != TAKE:
                raise IllegalActionError(
                    N_("no turned-up card waits for a target: {waiting}"), waiting=self._waiting()
                )
            self._check_target(self.turned, action.target, True)
        elif isinstance(action, Declare):
            if phase != DECLARE:
                raise IllegalActionError(
                    N_("not the time to declare lucky hands: {waiting}"), waiting=self._waiting()
                )
            held = {h.slug for h in self.held_lucky_hands(seat)}
            for slug in action.hands:
                if slug not in held:
                    raise IllegalActionError(
                        N_("seat {seat} does not hold lucky hand {hand}"), seat=seat + 1, hand=repr(slug)
                    )
            if len(set(action.hands)) != len(action.hands):
                raise IllegalActionError(N_("a lucky hand is declared twice"))
        elif isinstance(action, CallRedeal):
            if phase != REDEAL:
                raise IllegalActionError(
                    N_("no redeal can be called now: {waiting}"), waiting=self._waiting()
                )
        else:  # pragma: no cover - typing makes this unreachable
            raise IllegalActionError(N_("unknown action {action}"), action=repr(action))

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (for user interfaces)."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def _check_target(self, card: int, target: int, from_pile: bool) -> None:
        targets = capture_targets(self.rules, self.table, card, from_pile)
        if target in targets or (not targets and target == 0):
            return
        if not targets:
            raise IllegalActionError(N_("{card} has nothing to take and goes to the table"), card=SLUGS[card])
        options: str | Phrase = ""
        for t in targets:
            choice = "+".join(SLUGS[c] for c in iter_cards(t))
            options = Phrase(N_("{first} or {second}"), first=options, second=choice) if options else choice
        if target == 0:
            raise IllegalActionError(
                N_("{card} must capture: it can take {options}"), card=SLUGS[card], options=options
            )
        taken = "+".join(SLUGS[c] for c in iter_cards(target))
        raise IllegalActionError(
            N_("{card} cannot take {taken}; it can take {options}"),
            card=SLUGS[card],
            taken=taken,
            options=options,
        )

    def _waiting(self) -> Phrase:
        template = {
            PLAY: N_("seat {seat} is to play a card"),
            TAKE: N_("seat {seat} is to choose the turned-up card's target"),
            DECLARE: N_("seat {seat} is to declare lucky hands"),
            REDEAL: N_("seat {seat} is to call a redeal or not"),
        }.get(self.phase, N_("the game is over"))
        return Phrase(template, seat=self.to_act + 1)  # seats as people number them, from 1

    # ----------------------------------------------------------------- apply

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for the seat to act (checked against ``seat`` if given).

        Raises :class:`IllegalActionError` and changes nothing if it is not legal.
        """
        if seat is not None and seat != self.to_act and self.phase != OVER:
            raise IllegalActionError(
                N_("it is seat {to_act}'s turn, not seat {seat}'s"), to_act=self.to_act + 1, seat=seat + 1
            )
        self.check(action)
        start = len(self.events)
        if isinstance(action, Play):
            self.play_card(action.card, action.target)
        elif isinstance(action, Take):
            self.take(action.target)
        elif isinstance(action, Declare):
            self._declare(action.hands)
        else:
            self._redeal_choice(action.call)
        return self.events[start:]

    def play_indexed(
        self, pickers: list[Picker | None], bits: list[Callable[[int], int] | None] | None = None
    ) -> None:
        """Play the decisions of the seats that choose by index, until the game is over or the
        seat to act has no picker (None).

        ``pickers[seat](count)`` returns an index among the ``count`` legal actions, and the
        game goes on exactly as ``apply(legal_actions()[index], seat)`` would take it (the
        same state, events and logs), without building the actions or checking them: they
        are legal by construction.  ``bits[seat]``, when given, is the ``getrandbits`` of a
        seat whose picker answers :func:`~roppyakken.indexed.choice_index` (the random bot),
        drawn from directly.  For drivers of bots that choose by index alone
        (:class:`roppyakken.ai.base.IndexBot`, the random bot).
        """
        draws: list[Callable[[int], int] | None] = [None] * len(pickers)
        if bits is not None:
            draws = bits
        while True:
            phase = self.phase
            if phase == OVER:
                return
            seat = self.to_act
            pick = pickers[seat]
            if pick is None:
                return
            if phase in (PLAY, TAKE):
                play_cards(self, pickers, draws)  # compiled with the kernel, when built
            else:
                self._decide_by_index(pick)

    def _decide_by_index(self, pick: Picker) -> None:
        """A lucky-hand (phase ``declare``) or redeal decision of the seat to act, made as
        ``apply(legal_actions()[pick(count)])`` would make it, unchecked (legal by construction):
        ``legal_actions()`` lists the subsets of the held lucky hands by bits, and for a redeal
        calling first, then not calling."""
        if self.phase == DECLARE:
            seat = self.to_act
            held = self.held_lucky_hands(seat)
            subset = pick(2 ** len(held))
            self._record_declaration(seat, [h for i, h in enumerate(held) if subset >> i & 1])
            self._advance_queue()
        else:
            self._redeal_choice(pick(2) == 0)

    def _emit(self, event: Event) -> None:
        """Keep ``event`` (a logged game that keeps events)."""
        if self.log and self.keep_events:
            self.events.append(event)

    # Events are kept only with ``log`` (Round._emit); ``if self.log`` before each one spares
    # building them in the copies of searchers and benchmarks.

    def _declare(self, slugs: tuple[str, ...]) -> None:
        seat = self.to_act
        chosen = [h for h in self.held_lucky_hands(seat) if h.slug in slugs]
        self._record_declaration(seat, chosen)
        self._advance_queue()

    def _record_declaration(self, seat: int, chosen: list[LuckyHand]) -> None:
        cards = 0
        for h in chosen:
            cards |= h.cards
        # Copy on write: copies share ``declared`` and its lists (:meth:`Round.copy_round_to`).
        declared = list(self.declared)
        declared[seat] = [h.slug for h in chosen]
        self.declared = declared
        self.revealed[seat] = cards
        if self.log:
            self.history[-1].declared[seat] = list(self.declared[seat])
        if self.log and self.keep_events:
            self._emit(Declared(seat, tuple((h.slug, h.points) for h in chosen), cards))

    def _redeal_choice(self, call: bool) -> None:
        seat = self.to_act
        if call:
            four = full_months(self.hands[seat])
            month = MONTH[(four & -four).bit_length() - 1]
            if self.log:
                self._emit(Redealt("hand-four", month, seat))
                self.history.pop()
            self._deal(self._attempt + 1)
            return
        self._advance_queue()

    # ----------------------------------------------------------------- rounds

    def _draw_first_dealer(self) -> int:
        """R-2.2: each player draws a card; the earliest month deals; ties draw again."""
        # The draws and the dealer, compiled with the kernel (kernel.first_dealer_draws).
        label = f"roppyakken:{self.seed}:first-dealer:"
        dealer, draws = first_dealer_draws(self.players, shuffled_top, label)
        if self.log and self.keep_events:
            self._emit(FirstDealerDrawn(tuple(tuple(d) for d in draws), dealer))
        return dealer

    def _start_round(self) -> None:
        self.round += 1
        self._deal(0)

    def _deal(self, attempt: int) -> None:
        """Deal (R-3.2), redealing as R-3.3 / R-3.4 say, then start the lucky-hand phase."""
        # (The deal's options read once from the rules: compiled, native attributes.)
        options, n, dealer, pattern = self._scoring, self.players, self.dealer, self._pattern
        while True:
            self._attempt = attempt
            source = self._deck_source
            if source is None:
                deck = seeded_deck(self.seed, self.round, attempt)
            else:
                deck = list(source(self.round, attempt))
                if sorted(deck) != list(range(NUM_CARDS)):
                    raise RoppyakkenError(f"round {self.round}: the deck is not the 48 cards")
            hands, table, pos = deal_cards(deck, pattern, dealer, n)  # compiled with the kernel
            redeal = self._redeal_reason(hands, table)
            if redeal is None:
                break
            if self.log:
                self._emit(redeal)
            attempt += 1
            if attempt > MAX_REDEALS:
                raise RoppyakkenError(f"round {self.round}: no playable deal after {MAX_REDEALS} redeals")
        self.start_cards(hands, table, deck[pos:])
        if self.log:
            self.history.append(RoundLog(self.dealer, list(hands), table, list(self.pile), [None] * n))
            self.plays = self.history[-1].plays  # the kernel appends the round's plays to it
            self._emit(RoundStarted(self.round, self.leg, self.dealer, attempt, table))
        if options.table_four == "dealer_takes" and full_months(table):  # R-3.3 (Changara)
            for m in range(1, 13):
                four = table & MONTH_MASK[m]
                if four == MONTH_MASK[m]:
                    self.table &= ~four
                    self.captures[self.dealer] |= four
                    self.orders[self.dealer].extend(iter_cards(four))
                    if self.log:
                        self._emit(DealerTookFour(self.dealer, four))
        self._queue = []
        if options.hand_four == "optional":
            seats = [(self.dealer + i) % n for i in range(n)]
            self._queue = [s for s in seats if full_months(self.hands[s])]
        if self._queue:
            self.to_act = self._queue[0]
            self._queue = self._queue[1:]  # copy on write: copies share the queue
            self.phase = REDEAL
            return
        self._begin_declarations()

    def _redeal_reason(self, hands: list[int], table: int) -> Redealt | None:
        options = self._scoring
        four = full_months(table)
        if options.table_four == "redeal" and four:
            return Redealt("table-four", MONTH[(four & -four).bit_length() - 1], None)
        if options.hand_four == "redeal":
            for i in range(self.players):
                seat = (self.dealer + i) % self.players
                four = full_months(hands[seat])
                if four:
                    return Redealt("hand-four", MONTH[(four & -four).bit_length() - 1], seat)
        return None

    def _advance_queue(self) -> None:
        if self._queue:
            self.to_act = self._queue[0]
            self._queue = self._queue[1:]  # copy on write: copies share the queue
            return
        if self.phase == REDEAL:
            self._begin_declarations()
            return
        self._begin_play()

    def _begin_declarations(self) -> None:
        """R-4.1: in play order from the dealer, each holder declares (or it is automatic)."""
        # (The options read once from the rules: compiled, native attributes, and a hash kept.)
        holders = lucky_holders(self._scoring, self.hands, self.dealer)  # compiled with the kernel
        if holders and self._scoring.declare_auto:
            for s in holders:
                self._record_declaration(s, self.held_lucky_hands(s))
            holders = []
        if self.log:
            declared = self.history[-1].declared
            for s in range(self.players):
                if declared[s] is None and s not in holders:
                    declared[s] = []
        if holders:
            self.phase = DECLARE
            self.to_act = holders[0]
            self._queue = holders[1:]
            return
        self._begin_play()

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.to_act = self.dealer

    def _end_round(self, instant: tuple[int, str] | None = None) -> None:
        """R-7.6: fuke, instant wins, round scoring, totals, then the end-of-game check (R-9)."""
        # The score's parts (the public RoundScore built only when read: last_score)
        score = score_parts(self._scoring, self.captures, self.orders, self.declared, instant)
        self.last_parts = score
        add_finals(self.totals, score)  # compiled with the kernel, as dealer_after below
        if self.log:
            log = self.history[-1]
            log.score = score.public()
            log.totals = list(self.totals)
            log.captures = list(self.captures)
            # (Any: to the type checker of the compiled copy, its RoundScore is another class
            # than the one events.py names; they are one class when it runs.)
            scored: Any = log.score
            self._emit(RoundEnded(self.round, scored, tuple(self.totals)))
        self.phase = OVER
        self.turned = -1
        options = self._scoring
        outcome = outcome_with(options, score, self.totals, self.legs, self.dealer, self.round)
        won = outcome.leg
        if self.stop_at_round_end and won is None:
            return
        if won is not None and options.match_kind != "single":
            self.legs = outcome.legs  # a new list (outcome_with): copies share ``legs``
            if self.log:
                self._emit(LegWon(won, tuple(self.legs)))
        if outcome.winner is not None:
            self._finish(outcome.winner)
            return
        self.dealer = dealer_after(options.rotate_dealer, score, self.dealer, self.players)
        if won is not None:
            self.leg += 1
            self.totals = [0] * self.players
        self._start_round()

    def _leg_winner(self, score: RoundScore) -> Outcome | None:
        """R-9.1 / R-9.2: who wins after this round, if anyone, and why."""
        return leg_winner(self.rules, score, self.totals, self.dealer)

    def _most_legs(self) -> Outcome | None:
        """R-9.3 ``rounds N``: most legs wins, ties broken by total (then ``top_tie``)."""
        return most_legs(self.rules, self.legs, self.totals, self.dealer)

    def _next_dealer(self, score: RoundScore) -> int:
        """R-2.3: top scorer of the round (before R-7 adjustments), or the next seat."""
        return next_dealer(self.rules, score, self.dealer, self.players)

    def _finish(self, outcome: Outcome) -> None:
        self.winner = outcome.winner
        self.outcome = outcome
        self.phase = OVER
        if self.log:
            self._emit(GameEnded(outcome))

    # ----------------------------------------------------------------- playouts

    def playout(self, rng: random.Random) -> None:
        """Play the current round to its end with random choices (for bots and benchmarks).

        Each play picks a uniformly random card from hand, then a uniformly random
        target among that card's legal ones (a random number is drawn only when
        there is a choice); the turned-up card's target likewise
        (:meth:`~roppyakken.kernel.Round.random_decision`); lucky-hand and redeal
        decisions are uniform over the legal actions, one draw each, as
        ``apply(legal_actions()[int(rand() * len(legal))])`` would choose.  Every choice
        is made unchecked (legal by construction), logged when the game keeps logs, so
        that a record stays complete.
        """
        start = self.round
        global _last_rand
        # ``rng.random`` bound once per generator, not per playout (searchers pass one rng to
        # thousands of playouts): the last one is kept, with its generator (never freed meanwhile).
        last = _last_rand
        if last[0] is rng:
            rand = last[1]
        else:
            rand = rng.random
            _last_rand = (rng, rand)
        while self.round == start:
            phase = self.phase
            if phase in (PLAY, TAKE):
                self.random_decision(rand)  # (compiled: a native call, no bound method)
            elif phase == OVER:
                return
            else:  # a lucky-hand or redeal decision: one draw, as apply(random legal action) would
                self._decide_by_index(_RandomIndex(rand))

    # ----------------------------------------------------------------- copies

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        hands: Sequence[int],
        table: int,
        pile: Sequence[int],
        captures: Sequence[int],
        orders: Sequence[Sequence[int]],
        declared: Sequence[Sequence[str]],
        phase: str,
        to_act: int,
        dealer: int,
        turned: int = -1,
        totals: Sequence[int] | None = None,
        legs: Sequence[int] | None = None,
        round_index: int = 0,
        leg: int = 0,
        seed: int = 0,
        pending: Sequence[int] = (),
    ) -> Game:
        """A game in a given mid-round position, without logs (for searchers).

        Searchers sample the cards their seat cannot see (other hands, pile order)
        and rebuild a position from their view with this.  ``pending`` lists the
        seats still to decide after ``to_act`` in a redeal or declaration phase.
        The 48 cards must each be in exactly one place.
        """
        players = len(hands)
        rules.check_players(players)
        g = _new_game(Game)
        g._setup(rules, players, seed, None, False)
        if totals is not None:
            g.totals = list(totals)
        if legs is not None:
            g.legs = list(legs)
        g.round = round_index
        g.leg = leg
        g.dealer = dealer
        g.hands = list(hands)
        g.table = table
        g.pile = list(pile)
        g.captures = list(captures)
        g.orders = [list(o) for o in orders]
        g.declared = [list(d) for d in declared]
        g.phase = phase
        g.to_act = to_act
        g.turned = turned
        g._queue = list(pending)
        g.card_count_check()
        return g

    def __getstate__(self) -> dict[str, object]:
        """Everything, for ``copy.copy`` and ``copy.deepcopy``, by name (a compiled game keeps
        its attributes outside ``__dict__``): :data:`ROUND_STATE` and :data:`GAME_STATE`."""
        state: dict[str, object] = {}
        for name in (*ROUND_STATE, *GAME_STATE):
            if hasattr(self, name):  # not every one is set before the first deal
                state[name] = getattr(self, name)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore what :meth:`__getstate__` gave."""
        for name, value in state.items():
            setattr(self, name, value)

    def clone(self, log: bool = False) -> Game:
        """A copy that can be played on independently (for search); no logs by default."""
        g = _new_game(Game)
        self.copy_round_to(g)
        # The game's own attributes (GAME_STATE; the mutable ones copied below).
        g.seed = self.seed
        g._deck_source = self._deck_source
        g._pattern = self._pattern
        g.round = self.round
        g.leg = self.leg
        g.dealer = self.dealer
        g._attempt = self._attempt
        g.last_parts = self.last_parts  # (shared: never changed once scored)
        g.winner = self.winner
        g.outcome = self.outcome  # (frozen: shared)
        g.stop_at_round_end = self.stop_at_round_end
        g.log = log
        if log:
            g.history = [
                RoundLog(
                    h.dealer,
                    h.hands,
                    h.table,
                    h.pile,
                    list(h.declared),
                    list(h.plays),
                    h.score,
                    h.totals,
                    h.captures,
                )
                for h in self.history
            ]
            g.events = list(self.events)
            g.plays = g.history[-1].plays if g.history else []
        else:
            g.history = []
            g.events = []
            g.plays = []
        g.totals = list(self.totals)
        # Shared, never changed in place (each writer puts a new list): ``legs``, ``_queue``
        # (and, in copy_round_to, ``declared``).
        g.legs = self.legs
        g._queue = self._queue
        return g

    def card_count_check(self) -> None:
        """Raise AssertionError unless each of the 48 cards is in exactly one place."""
        places = [*self.hands, self.table, *self.captures]
        seen = 0
        total = 0
        for mask in places:
            if seen & mask:
                raise AssertionError(f"a card is in two places: {seen & mask:#x}")
            seen |= mask
            total += mask.bit_count()
        rest = self.pile[self.pile_pos :]
        if self.turned >= 0:
            rest = [self.turned, *rest]
        for c in rest:
            if seen >> c & 1:
                raise AssertionError(f"{SLUGS[c]} is in the pile and elsewhere")
            seen |= BIT50 >> (50 - c)
        if seen != (1 << NUM_CARDS) - 1 or total + len(rest) != NUM_CARDS:
            raise AssertionError("cards are missing")


_last_rand: tuple[object, Callable[[], float]] = (None, random.random)
"""The last ``(rng, rng.random)`` :meth:`Game.playout` was given."""


class _RandomIndex:
    """``count -> int(rand() * count)``: :meth:`Game.playout`'s lucky-hand and redeal choices."""

    def __init__(self, rand: Callable[[], float]) -> None:
        self.rand = rand

    def __call__(self, count: int) -> int:
        return int(self.rand() * count)


_new_game: Final = Game.__new__
"""A :class:`Game` without ``__init__`` (:meth:`Game.clone`, :meth:`Game.from_position`), by name:
mypyc cannot compile ``cls.__new__(cls)``."""


__all__ = [
    "DECLARE",
    "FOUR_BRIGHTS",
    "GAME_STATE",
    "MAX_SEED",
    "OVER",
    "PLAY",
    "REDEAL",
    "TAKE",
    "Game",
    "RoundLog",
    "capture_targets",
    "check_seed",
    "deal_pattern",
    "deal_sizes",
    "deck_by_digest",
    "seeded_deck",
    "stacks_of",
    "top_by_digest",
]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
