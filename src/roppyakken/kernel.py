"""The one kernel of a round's card play: capture targets, placing a card, the turned-up card.

Everything that plays cards goes through this module: :class:`roppyakken.engine.Game`
(real games, records, :meth:`~roppyakken.engine.Game.playout`) and
:class:`roppyakken.ai.playout.Playout` (the searchers' lean round copies) are both
:class:`Round` objects and differ only in what happens around the card play (logs and
events, and what the end of the round does).  A rule change of R-5, R-6 or R-8.5
``immediate`` is made here, once.

Card sets are 48-bit masks (:data:`CardSet`); a card is its id (:data:`Card`).  The round
is ints: a card's capture targets are one int (:func:`targets_of`: a mask taken whole, or
single-card choices by bit), the card play's options are ints read once
(:meth:`Round.read_options`), and :func:`capture_targets` gives the list form to the API.
Clause ids (``R-…``) refer to RULES.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from roppyakken.actions import PLAY, TAKE
from roppyakken.cards import (
    MONTH,
    MONTH_MASK,
    NUM_CARDS,
    POINTS,
    SCORING_MASK,
    WILLOW,
    Card,
    CardSet,
    card_count,
    triple_months,
)
from roppyakken.compiled import i64, swap_in
from roppyakken.events import Event, Played, Turned
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, ScoringOptions, score_with, scoring_options

WILLOW_MONTH_MASK: Final = MONTH_MASK[WILLOW]
_new_tuple: Final = tuple.__new__
"""``tuple.__new__``: builds a :class:`~roppyakken.events.Played` as its own ``__new__`` does."""
_MONTH_OF_CARD: Final = tuple(MONTH_MASK[MONTH[c]] for c in range(NUM_CARDS))
_B50: Final = 1 << 50
"""``_B50 >> (50 - c)`` is ``1 << c`` (``c`` <= 50), written so where ``c`` is an ``i64``: mypyc
compiles ``1 << c`` there as a 32-bit C shift (see :mod:`roppyakken.compiled`)."""
_MONTHS44: Final = 15 << 44
"""``_MONTHS44 >> (44 - (c & ~3))`` is the mask of card ``c``'s month (``15 << (c & ~3)``: a
month is four consecutive ids), with no tuple read (boxed ints) in compiled code."""


WHOLE: Final = 1 << 48
"""The flag of a targets int (:func:`targets_of`) whose mask is one choice taken whole."""

WILD_MODES: Final = {"off": 0, "turned-up": 1, "any": 2}
"""R-6.4 ``joker_wild_on_table`` as the int :func:`targets_of` takes."""
WILD_TURNED_UP: Final = 1
WILD_ANY: Final = 2


def targets_of(table: i64, card: i64, from_pile: bool, joker: i64, wild: i64, higher: bool) -> i64:
    """Every legal target of ``card`` on ``table`` (R-5.2 to R-5.4, R-6) as one int: the kernel's form.

    0: no target, the card is added to the table.  With the :data:`WHOLE` flag (bit 48) set,
    one choice: the mask below the flag, taken whole (a stack, R-6.3's three Willow cards).
    Otherwise a set of single cards to choose among (one of a pair, the joker's wild
    targets...): one choice per bit, the choices in card-id order (FORMATS.md §2);
    :func:`target_count` and :func:`nth_target` read it.  The options are ints read once
    from the rules: ``joker`` is ``rules.joker_card`` (-1: none), ``wild``
    ``WILD_MODES[rules.joker_wild_on_table]``, ``higher`` ``rules.auto_capture_higher``.
    """
    month_cards = table & (_MONTHS44 >> (44 - (card & ~3)))
    if joker < 0 or not (card == joker or table >> joker & 1):
        # No joker involved: the common case, kept short for playouts (no bit counts).
        rest = month_cards & (month_cards - 1)
        if not rest:
            return month_cards  # none, or one card
        rest &= rest - 1
        if rest and not rest & (rest - 1):
            return month_cards | WHOLE  # three cards: a stack
        return _pair_choices(month_cards, higher)
    if card == joker:
        willows = table & WILLOW_MONTH_MASK
        if card_count(willows) == 3:
            return willows | WHOLE  # the other three Willow cards, and nothing else
        # any Willow card, or any single card worth points outside a stack.  The
        # joker is a card of its own month, so two Willow cards are a pair for
        # the other cards worth points are wild targets beside it.
        wild_cards = table & SCORING_MASK & ~triple_months(table) & ~WILLOW_MONTH_MASK
        return _month_choices(willows, higher) | wild_cards
    if card_count(month_cards) == 3:
        return month_cards | WHOLE  # the stack, no wild target instead
    wild_bit: i64 = 0
    if (
        POINTS[card] > 0
        and not month_cards >> joker & 1
        and card_count(table & WILLOW_MONTH_MASK) < 3
        and (wild == WILD_ANY or (wild == WILD_TURNED_UP and from_pile))
    ):
        wild_bit = _B50 >> (50 - joker)
    # reading: a wild joker is not a card of the month; it stays a choice beside
    # whatever the month's cards leave to choose.
    return _month_choices(month_cards, higher) | wild_bit


def target_count(targets: i64) -> i64:
    """How many choices a targets int (:func:`targets_of`) holds (0: the card goes to the table)."""
    return 1 if targets & WHOLE else card_count(targets)


def nth_target(targets: i64, k: i64) -> i64:
    """The ``k``-th choice (from 0, in card-id order) of a targets int (:func:`targets_of`)."""
    if targets & WHOLE:
        return targets ^ WHOLE
    while k > 0:
        targets &= targets - 1
        k -= 1
    return targets & -targets


def target_list(targets: int) -> list[CardSet]:
    """The choices of a targets int (:func:`targets_of`) as a list of masks."""
    if targets & WHOLE:
        return [targets ^ WHOLE]
    out: list[CardSet] = []
    while targets:
        low = targets & -targets
        out.append(low)
        targets ^= low
    return out


def capture_targets(rules: Rules, table: CardSet, card: Card, from_pile: bool = False) -> list[CardSet]:
    """Every legal target of ``card`` on ``table`` (R-5.2 to R-5.4, R-6), as masks.

    An empty list means the card is added to the table.  Choices are ordered by
    their lowest card id (FORMATS.md §2).  The list form of :func:`targets_of`.
    """
    joker = rules.joker_card
    if joker < 0 or not (card == joker or table >> joker & 1):
        # targets_of's first case, answered here without the call (the API lists targets
        # card by card; tests/core/test_kernel_ints.py checks the two against each other).
        month_cards = table & _MONTH_OF_CARD[card]
        if not month_cards & (month_cards - 1):
            return [month_cards] if month_cards else []
        wild = 0
    else:
        wild = WILD_MODES[rules.joker_wild_on_table]
    return target_list(targets_of(table, card, from_pile, joker, wild, rules.auto_capture_higher))


def _pair_choices(pair: i64, higher: bool) -> i64:
    """R-5.3: the cards of a pair to choose among, as a mask; ``higher``: ``auto_capture_higher``."""
    if higher:
        low: int = pair & -pair
        high: int = pair ^ low
        lp, hp = POINTS[low.bit_length() - 1], POINTS[high.bit_length() - 1]
        if lp != hp:
            return low if lp > hp else high
    return pair


def _month_choices(month_cards: i64, higher: bool) -> i64:
    """The cards of one month on the table a card may still choose among (R-5.3), as a mask."""
    if card_count(month_cards) == 2:
        return _pair_choices(month_cards, higher)
    return month_cards


def stacks_of(table: CardSet) -> list[CardSet]:
    """The stacks on ``table`` as masks (R-3.5)."""
    stacked = triple_months(table) & table
    return [stacked & MONTH_MASK[m] for m in range(1, 13) if stacked & MONTH_MASK[m]]


def deal_cards(
    deck: list[Card], pattern: list[tuple[int, int]], dealer: int, players: int
) -> tuple[list[CardSet], CardSet, int]:
    """R-3.2: the hands and the table ``deck`` deals in ``pattern``'s packets
    (``engine.deal_pattern``: ``(who, count)``, ``who`` a seat offset from the dealer + 1, or
    -1 for the table), and where the pile starts in ``deck``."""
    # (i64: compiled, the masks are native ints, not ``|=`` on objects; the hands in locals,
    # each boxed once at the end, not at each packet)
    first: i64 = 0  # the hands of the seats after the dealer, in play order (two, or three)
    second: i64 = 0
    third: i64 = 0
    table: i64 = 0
    pos: i64 = 0
    for who, count in pattern:
        mask: i64 = 0
        end = pos + count
        while pos < end:
            card: i64 = deck[pos]
            mask |= _B50 >> (50 - card)  # 1 << card
            pos += 1
        if who < 0:
            table |= mask
        elif who == 0:
            first |= mask
        elif who == 1:
            second |= mask
        else:
            third |= mask
    hands: list[i64] = [0] * players
    seat = dealer + 1 if dealer + 1 < players else 0
    hands[seat] = first
    seat = seat + 1 if seat + 1 < players else 0
    hands[seat] = second
    if players == 3:
        hands[seat + 1 if seat + 1 < players else 0] = third
    return hands, table, pos


def first_dealer_draws(
    players: int, shuffled_top: Callable[[str, int], list[Card]], label: str
) -> tuple[int, list[list[Card]]]:
    """R-2.2: each player draws a card, the earliest month deals, the tied draw again: the
    dealer and every seat's draws.  Draw ``k`` takes the top cards of the deck shuffled by
    ``label + str(k)`` in seat order among the seats still in: ``shuffled_top(label, count)``
    gives the top ``count`` cards of that deck (``engine.shuffled_top``)."""
    contenders = [seat for seat in range(players)]  # (compiled: a native loop, no range object)
    draws: list[list[Card]] = [[] for _ in range(players)]
    attempt = 0
    while True:
        deck = shuffled_top(label + str(attempt), len(contenders))
        earliest = 13
        for i in range(len(contenders)):
            card = deck[i]
            draws[contenders[i]].append(card)
            if MONTH[card] < earliest:
                earliest = MONTH[card]
        contenders = [seat for seat in contenders if MONTH[draws[seat][-1]] == earliest]
        if len(contenders) == 1:
            return contenders[0], draws
        attempt += 1


def round_score(
    rules: Rules,
    captures: list[CardSet],
    orders: list[list[Card]],
    declared: list[list[str]],
    instant: tuple[int, str] | None,
) -> RoundScore:
    """R-7.6: the score of an ended round, with the instant win that ended it, if any (R-8.5)."""
    return score_with(scoring_options(rules), captures, orders, declared, instant)


ROUND_STATE: Final = (
    "rules",
    "players",
    "hands",
    "table",
    "pile",
    "pile_pos",
    "captures",
    "orders",
    "declared",
    "revealed",
    "to_act",
    "phase",
    "turned",
    "_immediate",
    "_joker",
    "_wild",
    "_higher",
    "_scoring",
    "events",
    "plays",
    "keep_events",
    "log",
)
"""The attributes of a :class:`Round`, as the class declares them: the one list of them (a
compiled Round keeps them outside ``__dict__``, so ``Game`` copies and pickles them by name).
``tests/core/test_game_copy.py`` checks it against the class."""


class Round:
    """The card-play state of a round and its moves: the kernel ``Game`` and ``Playout`` share.

    A subclass sets the attributes below and says what the end of the round does
    (:meth:`_end_round`); with ``log`` set it also keeps events (:meth:`_emit`) and the
    plays of a record (``plays``, appended to by :meth:`_play` itself).  ``phase`` is
    ``"play"`` (``to_act`` plays a card from hand) or ``"take"`` (``to_act`` chooses the
    target of ``turned``) while cards are played.  Its moves are unchecked: a front end plays through
    :meth:`Game.apply`, which checks them first.
    """

    rules: Rules
    players: int
    hands: list[CardSet]
    table: CardSet
    pile: list[Card]
    """The pile, never changed: ``pile_pos`` moves instead (copies share it)."""
    pile_pos: int
    captures: list[CardSet]
    orders: list[list[Card]]
    """Each seat's captured cards in the order taken (R-5.6)."""
    declared: list[list[str]]
    revealed: list[CardSet]
    to_act: int
    phase: str
    turned: Card
    _immediate: bool
    """Whether an instant-win yaku ends the round at once (R-8.5 ``immediate``)."""
    _joker: Card
    """``rules.joker_card``, read once (:meth:`read_options`): -1 without a joker."""
    _wild: int
    """R-6.4 ``joker_wild_on_table`` as :data:`WILD_MODES` gives it (0 without a joker)."""
    _higher: bool
    """R-5.3 ``auto_capture_higher``."""
    _scoring: ScoringOptions
    """The score's options (:func:`roppyakken.scoring.scoring_options`), read once."""
    events: list[Event]
    plays: list[tuple[int, str, int, int]]
    """With ``log``: the record's plays of the round, ``(seat, source, card, captured)``, which
    :meth:`_play` appends to (``Game`` points it at the round log's list)."""
    keep_events: bool = True
    """With ``log``: whether each play is an event too (a :class:`~roppyakken.events.Played`,
    the very object appended to ``plays`` and to ``events``)."""
    log: bool = False

    def copy_round_to(self, other: Round) -> None:
        """Copy the card-play state into ``other``, lists copied (the pile and the declarations are
        shared: the pile never changes, and a declaration puts new lists: copy on write).  The
        one list of a round's attributes, for :meth:`Game.clone` and :meth:`Playout.copy`."""
        other.rules = self.rules
        other.players = self.players
        other.hands = list(self.hands)
        other.table = self.table
        other.pile = self.pile
        other.pile_pos = self.pile_pos
        other.captures = list(self.captures)
        other.orders = [list(o) for o in self.orders]
        other.declared = self.declared  # shared: its writers put a new list (copy on write)
        other.revealed = list(self.revealed)
        other.to_act = self.to_act
        other.phase = self.phase
        other.turned = self.turned
        other._immediate = self._immediate
        other._joker = self._joker
        other._wild = self._wild
        other._higher = self._higher
        other._scoring = self._scoring
        other.keep_events = self.keep_events

    def start_cards(self, hands: list[CardSet], table: CardSet, pile: list[Card]) -> None:
        """A dealt round's cards (:func:`deal_cards`): ``hands`` (kept), ``table``, ``pile``;
        nothing captured, declared or turned up yet."""
        n = self.players
        self.hands = hands
        self.table = table
        self.pile = pile
        self.pile_pos = 0
        self.captures = [0] * n
        self.orders = [[] for _ in range(n)]
        self.declared = [[] for _ in range(n)]
        self.revealed = [0] * n
        self.turned = -1

    def read_options(self) -> None:
        """Read the card play's options from ``rules`` once, as ints (what :func:`targets_of`
        takes): a subclass calls it when it sets ``rules``.  They are read from the rules'
        :class:`~roppyakken.scoring.ScoringOptions` (compiled, native attributes, where the
        rules' are an interpreted dataclass's)."""
        options = self._scoring = scoring_options(self.rules)
        self._immediate = options.immediate_win
        self._joker = options.joker_card
        self._wild = WILD_MODES[options.joker_wild_on_table] if options.joker_card >= 0 else 0
        self._higher = options.auto_capture_higher

    # ----------------------------------------------------------------- moves

    def target_set(self, card: Card, turned: bool) -> CardSet:
        """The cards ``card`` may capture from the table now (R-5.3, the joker's R-6.4), as
        :func:`targets_of` gives them: 0 when it goes to the table, the bit :data:`WHOLE` added
        when it takes them all; ``turned`` for the turned-up card (it must take one if it can)."""
        return targets_of(self.table, card, turned, self._joker, self._wild, self._higher)

    def card_play_options(self) -> tuple[Card, int, bool]:
        """The options :func:`targets_of` takes after the table, the card and ``turned``: the joker
        (-1 without one), R-6.4's wild mode (:data:`WILD_MODES`) and R-5.3 ``auto_capture_higher``
        (for a caller that asks for the targets of many cards of one table)."""
        return self._joker, self._wild, self._higher

    def moves(self) -> list[tuple[Card, CardSet]]:
        """Every legal card-play decision as ``(card, target)`` (target 0: to the table).

        In the play phase, each card of the hand with each of its targets, in card
        order; in the take phase, the turned-up card with each of its targets.
        """
        table, joker, wild, higher = self.table, self._joker, self._wild, self._higher
        if self.phase == TAKE:
            card = self.turned
            return [(card, t) for t in target_list(targets_of(table, card, True, joker, wild, higher))]
        out: list[tuple[Card, CardSet]] = []
        hand = self.hands[self.to_act]
        while hand:
            low = hand & -hand
            hand ^= low
            card = low.bit_length() - 1
            targets = targets_of(table, card, False, joker, wild, higher)
            if targets & WHOLE:
                out.append((card, targets ^ WHOLE))
            elif not targets & (targets - 1):  # one card, or none (0: to the table)
                out.append((card, targets))
            else:  # a choice: one move per card to choose, in card-id order
                while targets:
                    choice = targets & -targets
                    out.append((card, choice))
                    targets ^= choice
        return out

    def step(self, card: Card, target: CardSet) -> bool:
        """Apply a decision from :meth:`moves` (not checked: callers pass legal ones).

        Returns whether it ended the round.
        """
        if self.phase == TAKE:
            return self.take(target)
        return self.play_card(card, target)

    def play_card(self, card: Card, target: CardSet) -> bool:
        """R-5.1: ``to_act`` plays ``card`` from hand onto ``target``, then turns up the pile's top.

        Returns whether this ended the round.
        """
        return _play(self, card, target, False, None)

    def take(self, target: CardSet) -> bool:
        """R-5.5: ``to_act`` captures ``target`` with the turned-up card.

        Returns whether this ended the round.
        """
        card = self.turned
        self.turned = -1
        self.phase = PLAY
        return _play(self, card, target, True, None)

    def random_decision(self, rand: Callable[[], float]) -> bool:
        """Uniformly random card-play decisions to the end of the round.

        Each play picks a uniformly random card from hand (one draw), then one of its
        targets; the turned-up card's target likewise.  A draw is made only when there
        is a choice, so seeded playouts stay the same however they are driven.
        Returns whether the round ended (always, unless an error stopped it).
        """
        if self.phase == TAKE:
            targets = capture_targets(self.rules, self.table, self.turned, True)
            target = targets[int(rand() * len(targets))] if len(targets) > 1 else targets[0]
            card = self.turned
            self.turned = -1
            self.phase = PLAY
            return _play(self, card, target, True, rand)
        return _play(self, -1, 0, False, rand)

    # ----------------------------------------------------------------- internals

    def _score(self, instant: tuple[int, str] | None) -> RoundScore:
        """The score of the round now ended (R-7.6)."""
        return score_with(self._scoring, self.captures, self.orders, self.declared, instant)

    def _emit(self, event: Event) -> None:
        if self.log:
            self.events.append(event)

    def _end_round(self, instant: tuple[int, str] | None) -> None:
        """The round has ended (``instant``: the instant win that ended it, R-8.5)."""
        raise NotImplementedError


def _play(r: Round, card: i64, target: i64, from_pile: bool, rand: Callable[[], float] | None) -> bool:
    """The card play of the rules, the one place where cards are placed (round ``r``).

    R-5.1: a card from hand (``from_pile`` false) leaves the hand; R-5.2: it captures
    ``target``, or goes to the table when ``target`` is 0; after a card from hand the
    pile's top is turned up and placed the same way, unless its target is the
    player's choice (R-5.5: phase ``take``); then the next seat plays, or the round
    ends when every hand is empty.  An immediate instant win ends the round at once
    (R-8.5).  With ``rand``, the following decisions are made at random
    (:meth:`Round.random_decision`) until the round ends, and ``card`` -1 asks for a random
    first play too.  Returns whether the round ended.

    A function, not a method: compiled, a method of ``Round`` (which the interpreted
    ``Game`` subclasses) is called through a Python attribute lookup.
    """
    rules = r.rules
    hands, captures, orders, pile, revealed = r.hands, r.captures, r.orders, r.pile, r.revealed
    table: i64 = r.table
    pos, seat, n, log = r.pile_pos, r.to_act, r.players, r.log
    # The card sets live in locals (``i64``: unboxed when compiled) and go back to the
    # lists on the way out: the seat to play (``hand``, ``taken``, ``shown``: its revealed
    # cards) and, with ``rand`` (the round played out here), the next seat (``hand1``...) and
    # with three players the one after (``hand2``...), which a new turn rotates.
    seat1 = seat + 1 if seat + 1 < n else 0
    seat2 = 0
    hand: i64 = hands[seat]
    taken: i64 = captures[seat]
    shown: i64 = revealed[seat]
    hand1: i64
    taken1: i64
    shown1: i64
    hand2: i64
    taken2: i64
    shown2: i64
    hand1 = taken1 = shown1 = hand2 = taken2 = shown2 = 0
    # With ``rand``: how many cards each hand holds, for the random card (kept, not counted).
    count = count1 = count2 = 0
    if rand is not None:
        hand1, taken1, shown1 = hands[seat1], captures[seat1], revealed[seat1]
        if n == 3:
            seat2 = seat1 + 1 if seat1 + 1 < n else 0
            hand2, taken2, shown2 = hands[seat2], captures[seat2], revealed[seat2]
        count, count1, count2 = card_count(hand), card_count(hand1), card_count(hand2)
    instant = rules.table.instant_yaku if r._immediate else None
    joker: i64 = r._joker  # the options, as ints
    wild: i64 = r._wild
    higher = r._higher
    bit: i64 = 0
    targets: i64 = 0
    captured: i64 = 0
    while True:  # decisions: one, or with ``rand`` to the end of the round
        if card < 0 and rand is not None:  # a random card, then a random target of it
            pick = hand
            skip: i64 = int(rand() * count)
            while skip > 0:
                pick &= pick - 1
                skip -= 1
            low: int = pick & -pick
            card = low.bit_length() - 1
            targets = targets_of(table, card, False, joker, wild, higher)
            if targets & WHOLE:
                target = targets ^ WHOLE
            elif targets & (targets - 1):  # a choice
                target = nth_target(targets, int(rand() * card_count(targets)))
            else:
                target = targets
        if not from_pile:
            bit = _B50 >> (50 - card)
            hand &= ~bit
            count -= 1
            shown &= ~bit
        while True:  # the card from hand, then the turned-up card
            if target:
                table &= ~target
                taken |= (_B50 >> (50 - card)) | target
                captured = taken
                # R-5.6 (reading): the played card first, then what it took, in id order.
                order = orders[seat]
                order.append(card)
                if target & (target - 1):
                    rest = target
                    while rest:
                        low = rest & -rest
                        order.append(low.bit_length() - 1)
                        rest ^= low
                else:
                    low = target
                    order.append(low.bit_length() - 1)
            else:
                table |= _B50 >> (50 - card)
                captured = 0
            if log:  # the record's play (and the event, one object), appended here
                play = (seat, "pile" if from_pile else "hand", card, target)
                if r.keep_events:
                    played = _new_tuple(Played, play)
                    r.plays.append(played)
                    r.events.append(played)
                else:
                    r.plays.append(play)
            if captured and instant is not None:
                slug = instant(captured)
                if slug is not None:
                    hands[seat], captures[seat], revealed[seat] = hand, taken, shown
                    if rand is not None:
                        _put_others(r, seat1, seat2, hand1, taken1, shown1, hand2, taken2, shown2)
                    r.table, r.pile_pos, r.to_act = table, pos, seat
                    r._end_round((seat, slug))
                    return True
            if from_pile:
                break
            card = pile[pos]
            pos += 1
            from_pile = True
            targets = targets_of(table, card, True, joker, wild, higher)
            if targets & WHOLE:
                target = targets ^ WHOLE
            elif targets & (targets - 1):  # the player who turned it chooses
                if log:
                    r._emit(Turned(seat, card))
                if rand is None:
                    hands[seat], captures[seat], revealed[seat] = hand, taken, shown
                    r.table, r.pile_pos, r.to_act = table, pos, seat
                    r.turned = card
                    r.phase = TAKE
                    return False
                target = nth_target(targets, int(rand() * card_count(targets)))
            else:
                target = targets
        if rand is None:  # one decision: this seat's sets back, then the next seat's turn
            hands[seat], captures[seat], revealed[seat] = hand, taken, shown
            r.table, r.pile_pos = table, pos
            if not hand and not any(h for h in hands):  # every hand empty (a loop, compiled)
                r.to_act = seat
                r._end_round(None)
                return True
            r.to_act = seat1
            r.phase = PLAY
            return False
        if not (hand | hand1 | hand2):  # every hand is empty: the round is over
            hands[seat], captures[seat], revealed[seat] = hand, taken, shown
            _put_others(r, seat1, seat2, hand1, taken1, shown1, hand2, taken2, shown2)
            r.table, r.pile_pos, r.to_act = table, pos, seat
            r._end_round(None)
            return True
        # The next seat's turn: the locals rotate (the seat just played goes last).
        if n == 3:
            seat, seat1, seat2 = seat1, seat2, seat
            hand, hand1, hand2 = hand1, hand2, hand
            taken, taken1, taken2 = taken1, taken2, taken
            shown, shown1, shown2 = shown1, shown2, shown
            count, count1, count2 = count1, count2, count
        else:
            seat, seat1 = seat1, seat
            hand, hand1 = hand1, hand
            taken, taken1 = taken1, taken
            shown, shown1 = shown1, shown
            count, count1 = count1, count
        card = -1
        from_pile = False


def _put_others(
    r: Round,
    seat1: int,
    seat2: int,
    hand1: i64,
    taken1: i64,
    shown1: i64,
    hand2: i64,
    taken2: i64,
    shown2: i64,
) -> None:
    """Store :func:`_play`'s locals of the other seats back into ``r``'s lists: ``seat1``'s, and
    with three players ``seat2``'s."""
    r.hands[seat1], r.captures[seat1], r.revealed[seat1] = hand1, taken1, shown1
    if r.players == 3:
        r.hands[seat2], r.captures[seat2], r.revealed[seat2] = hand2, taken2, shown2


__all__ = [
    "COMPILED",
    "ROUND_STATE",
    "WHOLE",
    "WILD_MODES",
    "Card",
    "CardSet",
    "Round",
    "capture_targets",
    "deal_cards",
    "first_dealer_draws",
    "nth_target",
    "round_score",
    "stacks_of",
    "target_count",
    "target_list",
    "targets_of",
]


# --- end of the compiled part: what follows swaps in the compiled modules when they are there.

COMPILED: Final = swap_in(globals())
"""Whether the compiled modules are in use (``roppyakken.kernel.Round`` is then compiled)."""
