"""Level ``expert``: plays as a strong human does, by counting cards and weighing yaku.

For each legal play the expert estimates, in points, what the play is worth to it
against its opponents (:class:`Appraisal`):

* what it captures now: card points, plus the progress the cards make towards its own
  yaku, plus what they take away from the opponents' yaku (blocking);
* what it can still take later: a table card of a month it holds is worth its value
  times the chance that no opponent takes it first (none, when the other cards of the
  month are all seen: a stack whose fourth card it holds is as good as captured);
* what it leaves to the opponents: each table card an opponent could take, with the
  chance that they hold (or turn up) a card of that month, counting the unseen cards;
  the best of these is what they will take (expected maximum);
* what the card it plays was worth in hand (:meth:`Appraisal.hold_value`): a card whose
  month still has cards to come may take them later, a dead card (its month all seen)
  is the first to throw away, and the joker is kept for a target worth it (R-6).

The value of a yaku is its points times an estimated chance of completing it (the
product of the chances of getting each missing card: a card in one's hand, on the
table with a matching card in hand, or unseen).  A yaku with a card in someone else's
captures is dead.  The rules are read, not assumed: the yaku table and values, Seven
Ribbons options, the joker and where it is wild (R-6), stacks (R-5.4), rain-off
(Willow captures void the viewing yaku, R-8.3), instant wins (worth a game, R-8.5).

Game score (R-9): trailing far behind, it reaches for yaku; leading, it blocks more;
an opponent near the target makes blocking their yaku more urgent.  Fuke (R-7.3): late
in a round it has lost badly it keeps its own score at or under the threshold so that
the round is void, and when winning a round it stops denying points to an opponent
still at or under it (:func:`fuke_plan`).

The weights (:class:`Weights`) were tuned by coordinate search on duplicate games
against ``greedy`` (``bench/RESULTS-bots.md``).

Lucky hands (R-4) are declared when their points outweigh what revealing the cards
tells the opponents (:func:`declare_choice`); four of a month in hand
(``hand_four = optional``) is redealt when the month is worth little (:func:`call_redeal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.ai.playout import ENDED, Playout, greedy_index
from roppyakken.ai.position import Position
from roppyakken.ai.weights import DEFAULT_WEIGHTS, Weights
from roppyakken.cards import BIT50, MONTH, MONTH_MASK, PINE_CRANE, POINTS, WILLOW, card_count, iter_cards
from roppyakken.compiled import swap_in
from roppyakken.rules import Rules
from roppyakken.scoring import score_round
from roppyakken.view import SeatView
from roppyakken.yaku import VIEWING_GROUP

WILLOW_MASK: Final = MONTH_MASK[WILLOW]
CRANE_BIT: Final = 1 << PINE_CRANE
MONTH_CARDS: Final = tuple(tuple(iter_cards(MONTH_MASK[m])) if m else () for m in range(13))
_POINTS_F: Final[tuple[float, ...]] = tuple(float(p) for p in POINTS)
"""The card points as floats (``p + x`` is the same float for an int ``p`` and for ``float(p)``)."""

# The appraisal's fixed judgements (the tuned ones are the :class:`Weights`).
MIN_CHANCE: Final = 0.02
"""The least chance a card is given of ending up with me (or an opponent): none is written off."""
CONTESTED: Final = 0.5
"""A table card of a month I hold is lost ``CONTESTED`` times as often as an opponent can take
its month first: ``a_table_mine * (1 - CONTESTED * q)``."""
MIN_TABLE_TAKE: Final = 0.3
"""The least chance an opponent takes a table card (they may pair it with a turned-up card)."""
SHOWN_MINE: Final = 0.15
"""My chance of getting a card an opponent has shown in hand (a declared lucky hand)."""
SHOWN_THEIRS: Final = 0.8
"""An opponent's chance of capturing a card they have shown in hand."""
SWING: Final = 0.3
"""A lead (a deficit) above this share of the target: the expert blocks more (reaches for yaku)."""
DANGER: Final = 0.35
"""An opponent within this share of the target: blocking their yaku is urgent."""
RAIN_THEIRS: Final = 0.5
"""The share of the opponents' viewing-yaku chances a first Willow capture costs them (R-8.3)."""
VOID_PENALTY: Final = 10.0
"""What capturing a scoring card costs beyond its points when a void round (fuke) is my best hope."""
FUKE_EXPOSURE: Final = 0.3
"""The share of the exposure weight kept once fuke's plan decides the round (R-7.3)."""


class _RulesInfo:
    """What the expert needs from a :class:`Rules`, compiled once."""

    __slots__ = (
        "entry_instant",
        "entry_masks",
        "entry_values",
        "entry_viewing",
        "fuke",
        "instant_value",
        "joker",
        "rain_off",
        "seven",
        "seven_instant",
        "seven_mask",
        "target",
        "wild",
    )

    entry_masks: list[int]
    entry_values: list[float]
    entry_viewing: list[bool]
    entry_instant: list[bool]
    instant_value: float
    rain_off: str
    seven: float
    seven_instant: bool
    seven_mask: int
    joker: int
    wild: str
    target: int
    fuke: bool

    def __init__(self, rules: Rules) -> None:
        table = rules.table
        instant = {slug for slug, _ in table.instant_masks}
        self.instant_value = float(max(rules.target, 600)) if rules.instant_win != "off" else 0.0
        self.rain_off = rules.rain_off
        self.entry_masks = []
        self.entry_values = []
        self.entry_viewing = []
        self.entry_instant = []
        for slug, mask, value in table.set_yaku:
            self.entry_masks.append(mask)
            self.entry_values.append(float(value))
            self.entry_viewing.append(slug in VIEWING_GROUP and rules.rain_off != "off")
            self.entry_instant.append(slug in instant)
        self.seven = float(table.seven_ribbons)
        self.seven_instant = "seven-ribbons" in instant
        self.seven_mask = table.seven_ribbons_mask
        self.joker = rules.joker_card
        self.wild = rules.joker_wild_on_table
        self.target = rules.target
        self.fuke = rules.fuke != "off"


CACHE_KEPT: Final = 256
"""At most this many rule sets (and weights) are kept read by the expert at once."""

_INFO: Final[dict[Rules, _RulesInfo]] = {}
"""The :class:`_RulesInfo` of each rule set met, by its value (:func:`_info`)."""


class _WeightsInfo:
    """A :class:`Weights` read once into typed attributes (the appraisal reads them often)."""

    __slots__ = (
        "a_hand",
        "a_op_hand",
        "a_table",
        "a_table_mine",
        "danger_deny",
        "deny",
        "draw",
        "exposure",
        "fuke_cards",
        "future",
        "hold",
        "instant",
        "joker_keep",
        "keep_table",
        "keep_unseen",
        "lead_deny",
        "mates",
        "share2",
        "share3",
        "trail_yaku",
        "yaku",
    )

    yaku: float
    deny: float
    future: float
    exposure: float
    joker_keep: float
    a_hand: float
    a_table_mine: float
    a_table: float
    share2: float
    share3: float
    a_op_hand: float
    trail_yaku: float
    lead_deny: float
    danger_deny: float
    instant: float
    hold: float
    keep_table: float
    keep_unseen: float
    mates: float
    fuke_cards: int
    draw: float

    def __init__(self, w: Weights) -> None:
        self.yaku = w.yaku
        self.deny = w.deny
        self.future = float(w.future)
        self.exposure = w.exposure
        self.joker_keep = float(w.joker_keep)
        self.a_hand = w.a_hand
        self.a_table_mine = w.a_table_mine
        self.a_table = w.a_table
        self.share2 = w.share2
        self.share3 = w.share3
        self.a_op_hand = w.a_op_hand
        self.trail_yaku = float(w.trail_yaku)
        self.lead_deny = float(w.lead_deny)
        self.danger_deny = float(w.danger_deny)
        self.instant = float(w.instant)
        self.hold = float(w.hold)
        self.keep_table = float(w.keep_table)
        self.keep_unseen = float(w.keep_unseen)
        self.mates = float(w.mates)
        self.fuke_cards = int(w.fuke_cards)
        self.draw = float(w.draw)


_WEIGHTS: Final[dict[Weights, _WeightsInfo]] = {}


def _weights(w: Weights) -> _WeightsInfo:
    """``w`` read into a :class:`_WeightsInfo`, cached by its value (weights are frozen and
    keep their hash) and bounded like :data:`_INFO`."""
    got = _WEIGHTS.get(w)
    if got is None:
        if len(_WEIGHTS) >= CACHE_KEPT:
            _WEIGHTS.clear()
        got = _WEIGHTS[w] = _WeightsInfo(w)
    return got


def _info(rules: Rules) -> _RulesInfo:
    """What the expert reads of ``rules`` (:class:`_RulesInfo`), cached by the rules' value
    and bounded to :data:`CACHE_KEPT` rule sets (a server meets house rules without end)."""
    info = _INFO.get(rules)
    if info is None:
        if len(_INFO) >= CACHE_KEPT:
            _INFO.clear()
        info = _INFO[rules] = _RulesInfo(rules)
    return info


def _none_held(unseen: int, hidden: int, k: int) -> float:
    """Chance that none of ``k`` given unseen cards is among ``hidden`` of ``unseen`` cards."""
    if k <= 0 or hidden <= 0:
        return 1.0
    p = 1.0
    for i in range(k):
        if unseen - i <= 0:
            return 0.0
        p *= max(0.0, (unseen - hidden - i) / (unseen - i))
    return p


def _rained_off_ordered(order: Sequence[int]) -> bool:
    """R-8.3 ``ordered``: a Willow card was captured before (or without) the crane."""
    for card in order:
        if card == PINE_CRANE:
            return False
        if WILLOW_MASK >> card & 1:
            return True
    return False


class Appraisal:
    """Everything the expert works out once per decision (see the module docstring)."""

    __slots__ = (
        "base_f",
        "base_months",
        "base_q",
        "base_sm",
        "base_so",
        "base_v",
        "exposure_w",
        "gain",
        "hand",
        "info",
        "joker",
        "joker_q",
        "month_q",
        "oval",
        "table",
        "unseen",
        "w",
        "w_draw",
        "w_future",
        "w_hold",
        "w_joker_keep",
        "w_keep_table",
        "w_keep_unseen",
        "w_mates",
    )

    w: Weights
    info: _RulesInfo
    hand: int
    table: int
    unseen: int
    joker: int
    month_q: list[float]
    joker_q: float
    gain: list[float]
    oval: list[float]
    exposure_w: float
    base_months: int
    """Bit ``m`` set for each month with cards on the table (``base_*[m]`` is its row)."""
    base_f: list[float]
    base_q: list[float]
    base_v: list[float]
    base_so: list[float]
    base_sm: list[float]
    w_draw: float
    w_future: float
    w_hold: float
    w_joker_keep: float
    w_keep_table: float
    w_keep_unseen: float
    w_mates: float

    def __init__(self, pos: Position, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        w = _weights(weights)
        self.w_draw = w.draw
        self.w_future = w.future
        self.w_hold = w.hold
        self.w_joker_keep = w.joker_keep
        self.w_keep_table = w.keep_table
        self.w_keep_unseen = w.keep_unseen
        self.w_mates = w.mates
        self.info = info = _info(pos.rules)
        me = pos.seat
        n = pos.n
        hand: int = pos.hand
        table: int = pos.table
        unseen: int = pos.unseen
        self.hand = hand
        self.table = table
        self.unseen = unseen
        n_unseen = card_count(unseen)
        joker = info.joker
        self.joker = joker
        opps, others, revealed_opp, hidden = _opponents(pos)
        a_unseen = _unseen_chance(pos, w, hidden, n_unseen)
        # Per month: chance an opponent can take a card of that month before my next turn
        # (with one of their hidden cards, or with one of their n-1 draws).
        q_of = _take_first(n_unseen, hidden, n)
        month_q, hand_months = _month_chances(hand, unseen, revealed_opp, q_of)
        self.month_q = month_q
        self.joker_q = q_of[1]
        joker_in_hand = joker >= 0 and hand >> joker & 1 != 0
        a_me, a_op = _end_chances(w, hand, table, revealed_opp, month_q, hand_months, joker_in_hand, a_unseen)
        wy, wd = _game_weights(w, info.target, pos.totals, me, opps)
        marg_me, marg_op, deny, mydeny = _yaku_margins(info, w, pos, opps, others, a_me, a_op)
        self._card_values(pos, w, wy, wd, marg_me, marg_op, deny, mydeny)
        self._table_rows(table, hand)

    def _card_values(
        self,
        pos: Position,
        w: _WeightsInfo,
        wy: float,
        wd: float,
        marg_me: list[float],
        marg_op: list[float],
        deny: list[float],
        mydeny: list[float],
    ) -> None:
        """Each card's worth to me when I capture it (``gain``) and to an opponent (``oval``),
        and the weight of what a play exposes, fuke's plan (R-7.3) applied."""
        # A card no yaku counts on is worth its points: p + wy * 0.0 + wd * 0.0 is p, exactly
        # (for finite weights), so only the others are computed (and allocated).
        gain = list(_POINTS_F)
        oval = list(_POINTS_F)
        for x in range(48):
            a = marg_me[x]
            b = deny[x]
            if a != 0.0 or b != 0.0:
                gain[x] = _POINTS_F[x] + wy * a + wd * b
            a = marg_op[x]
            b = mydeny[x]
            if a != 0.0 or b != 0.0:
                oval[x] = _POINTS_F[x] + a + b
        self.exposure_w = w.exposure
        if self.info.fuke and card_count(self.hand) <= w.fuke_cards:
            plan = fuke_plan(pos)
            if plan > 0:  # a void round is my best hope: stay at or under the threshold
                for x in range(48):
                    if POINTS[x] > 0:
                        gain[x] = -_POINTS_F[x] - VOID_PENALTY
                self.exposure_w *= FUKE_EXPOSURE
            elif plan < 0:  # a void round would wipe out my lead: let them score
                self.exposure_w *= FUKE_EXPOSURE
        self.gain = gain
        self.oval = oval

    def _table_rows(self, table: int, hand: int) -> None:
        """The table as it is, month by month (each move changes one or two months)."""
        self.base_f = [0.0] * 13
        self.base_q = [0.0] * 13
        self.base_v = [0.0] * 13
        self.base_so = [0.0] * 13
        self.base_sm = [0.0] * 13
        base_months = 0
        for m in range(1, 13):
            present = table & MONTH_MASK[m]
            if present:
                base_months |= BIT50 >> (50 - m)
                f, q, v, so, sm = self._month(present, m, hand & MONTH_MASK[m] != 0)
                self.base_f[m] = f
                self.base_q[m] = q
                self.base_v[m] = v
                self.base_so[m] = so
                self.base_sm[m] = sm
        self.base_months = base_months

    # ------------------------------------------------------------------ moves

    def value(self, card: int, target: int, from_hand: bool) -> float:
        """What playing ``card`` onto ``target`` (0: to the table) is worth, in points."""
        gain = self.gain
        hand = self.hand
        changed = BIT50 >> (50 - MONTH[card])
        if target:
            v = gain[card]
            t = target
            while t:
                low = t & -t
                t ^= low
                x = low.bit_length() - 1
                v += gain[x]
                changed |= BIT50 >> (50 - MONTH[x])
            t1 = self.table & ~target
        else:
            v = 0.0
            t1 = self.table | BIT50 >> (50 - card)
        if from_hand:
            v -= self.hold_value(card)
            if self.w_draw:
                v += self.w_draw * self.draw_value(t1, changed)
            hand &= ~(BIT50 >> (50 - card))
            if card == self.joker and not target & WILLOW_MASK:
                v -= self.w_joker_keep * min(1.0, card_count(hand) / 4.0)
        return v + self._table_value(t1, hand, changed)

    def draw_value(self, t1: int, changed: int) -> float:
        """What the card turned up right after a play takes from the months the play
        changed (bit ``m`` of ``changed``), on the table ``t1`` it leaves, less what it
        would take there from the table as it is: each unseen card is the top of the pile
        with the same chance.  The other months are the same for every play."""
        n_unseen = card_count(self.unseen)
        if not n_unseen:
            return 0.0
        gain = self.gain
        total = 0.0
        while changed:
            low = changed & -changed
            changed ^= low
            mm: int = MONTH_MASK[low.bit_length() - 1]
            um = self.unseen & mm
            if not um:
                continue
            after = _take_value(t1 & mm, gain)
            before = _take_value(self.table & mm, gain)
            if after == before:
                continue
            while um:
                x = um & -um
                um ^= x
                g = gain[x.bit_length() - 1]
                total += (after + g if after >= 0.0 else 0.0) - (before + g if before >= 0.0 else 0.0)
        return total / n_unseen

    def hold_value(self, card: int) -> float:
        """What keeping ``card`` in hand is worth: the chance of capturing it in the end
        anyway, and of taking with it the unseen cards of its month when they turn up.

        A card whose month has no other card left unseen or on the table is dead: it can
        take nothing and no one can take it, so it is the first to throw away.
        """
        gain = self.gain
        if card == self.joker:
            return self.w_hold * 0.95 * gain[card]
        mm: int = MONTH_MASK[MONTH[card]]
        um = self.unseen & mm
        k_unseen = card_count(um)
        mine = card_count(self.hand & mm)
        if self.table & mm:
            p = self.w_keep_table
        elif k_unseen:
            p = min(0.8, self.w_keep_unseen * k_unseen)
        elif mine > 1:
            p = self.w_keep_table
        else:
            p = 0.0
        mates = 0.0
        while um:
            low = um & -um
            um ^= low
            mates += gain[low.bit_length() - 1]
        return self.w_hold * (p * gain[card] + self.w_mates * mates / mine)

    def _month(self, cards: int, m: int, held: bool) -> tuple[float, float, float, float, float]:
        """For the table cards ``cards`` of month ``m``, with a card of the month in hand or not:
        (what I can take later, the opponents' chance to take first, what they would take,
        the best single card for the opponents, and for me — the joker's targets, R-6.2)."""
        gain = self.gain
        oval = self.oval
        q = self.month_q[m]
        first = 4 * m - 4  # the month's cards are first .. first + 3
        if card_count(cards) == 3:  # a stack: only the fourth card takes it
            v_me = 0.0
            v_op = 0.0
            for x in range(first, first + 4):
                if cards >> x & 1:
                    v_me += gain[x]
                    v_op += oval[x]
            if held:
                return v_me, 0.0, 0.0, 0.0, 0.0
            return 0.0, q, v_op, 0.0, 0.0
        joker = self.joker
        b_me = 0.0
        b_op = 0.0
        s_op = 0.0
        s_me = 0.0
        for x in range(first, first + 4):
            if not cards >> x & 1:
                continue
            g = gain[x]
            o = oval[x]
            if g > b_me:
                b_me = g
            if o > b_op:
                b_op = o
            if POINTS[x] > 0 and x != joker:
                if o > s_op:
                    s_op = o
                if g > s_me:
                    s_me = g
        return (b_me * (1.0 - q) if held else 0.0), q, b_op, s_op, s_me

    def _table_value(self, t1: int, hand: int, changed: int) -> float:
        """What the table ``t1`` is worth to me (cards I can take later) less what the
        opponents are expected to take from it first (the best of their chances).

        ``changed`` has bit ``m`` set for each month the move changed."""
        future = 0.0
        threat_v: list[float] = []
        threat_q: list[float] = []
        single_op = 0.0
        single_me = 0.0
        base_f = self.base_f
        base_q = self.base_q
        base_v = self.base_v
        base_so = self.base_so
        base_sm = self.base_sm
        rest = self.base_months & ~changed
        while rest:  # the months the move left as they are, in month order
            low = rest & -rest
            rest ^= low
            m = low.bit_length() - 1
            future += base_f[m]
            q = base_q[m]
            v = base_v[m]
            if q > 0.0 and v > 0.0:
                _add_threat(threat_v, threat_q, v, q)
            so = base_so[m]
            if so > single_op:
                single_op = so
            sm = base_sm[m]
            if sm > single_me:
                single_me = sm
        while changed:
            low = changed & -changed
            changed ^= low
            m = low.bit_length() - 1
            mm: int = MONTH_MASK[m]
            cards = t1 & mm
            if not cards:
                continue
            f, q, v, so, sm = self._month(cards, m, hand & mm != 0)
            future += f
            if q > 0.0 and v > 0.0:
                _add_threat(threat_v, threat_q, v, q)
            if so > single_op:
                single_op = so
            if sm > single_me:
                single_me = sm
        joker = self.joker
        if joker >= 0:
            if t1 >> joker & 1:  # a joker on the table is a target for cards worth points
                mode = self.info.wild
                q = 0.9 if mode == "any" else 0.5 if mode == "turned-up" else self.month_q[WILLOW]
                _add_threat(threat_v, threat_q, self.oval[joker], q)
            elif self.unseen >> joker & 1 and single_op > 0.0:
                _add_threat(threat_v, threat_q, single_op, self.joker_q)
            elif hand >> joker & 1:
                future += 0.5 * single_me
        exposure = 0.0
        miss = 1.0
        for i in range(len(threat_v)):
            q = threat_q[i]
            exposure += miss * q * threat_v[i]
            miss *= 1.0 - q
        return self.w_future * future - self.exposure_w * exposure


def _add_threat(threat_v: list[float], threat_q: list[float], v: float, q: float) -> None:
    """Insert the threat ``(v, q)`` into the lists kept in decreasing ``(v, q)`` order (the
    order of ``sorted(threats, reverse=True)``: by what it takes, then by its chance)."""
    i = len(threat_v)
    threat_v.append(v)
    threat_q.append(q)
    while i > 0 and (threat_v[i - 1] < v or (threat_v[i - 1] == v and threat_q[i - 1] < q)):
        threat_v[i] = threat_v[i - 1]
        threat_q[i] = threat_q[i - 1]
        i -= 1
    threat_v[i] = v
    threat_q[i] = q


def _take_value(cards: int, gain: list[float]) -> float:
    """What a card of their month takes from the table cards ``cards`` of one month: the
    better of one or two, all of a stack (R-5.4); -1 when there is nothing to take."""
    if not cards:
        return -1.0
    best = 0.0
    total = 0.0
    rest = cards
    while rest:
        low = rest & -rest
        rest ^= low
        g = gain[low.bit_length() - 1]
        total += g
        if g > best:
            best = g
    return total if card_count(cards) == 3 else best


def _opponents(pos: Position) -> tuple[list[int], int, int, int]:
    """The opponents' seats, all their captures, the cards they have shown in hand, and how
    many of their cards are hidden."""
    me = pos.seat
    caps = pos.captures
    opps: list[int] = []
    for s in range(pos.n):
        if s != me:
            opps.append(s)
    others = 0
    revealed_opp = 0
    hidden = 0
    for s in opps:
        others |= caps[s]
        r: int = pos.revealed[s]
        revealed_opp |= r
        hidden += pos.hand_sizes[s] - card_count(r)
    return opps, others, revealed_opp, hidden


def _unseen_chance(pos: Position, w: _WeightsInfo, hidden: int, n_unseen: int) -> float:
    """My chance of getting an unseen card in the end: the share of them still in play (in
    hidden hands or to be drawn), times the weights' share for the number of players."""
    sizes = 0
    for size in pos.hand_sizes:
        sizes += size
    draws_left = min(pos.pile_count, sizes)
    in_play = min(1.0, (hidden + draws_left) / n_unseen) if n_unseen else 0.0
    return max(MIN_CHANCE, in_play * (w.share2 if pos.n == 2 else w.share3))


def _month_chances(
    hand: int, unseen: int, revealed_opp: int, q_of: tuple[float, float, float, float, float]
) -> tuple[list[float], int]:
    """For each month, the chance an opponent takes one of its cards before my next turn
    (certain when they have shown one), and the mask of the months in my hand."""
    month_q = [0.0] * 13
    hand_months = 0
    for m in range(1, 13):
        mm: int = MONTH_MASK[m]
        if hand & mm:
            hand_months |= mm
        if revealed_opp & mm:
            month_q[m] = 1.0
            continue
        k = card_count(unseen & mm)
        if k:
            month_q[m] = q_of[k]
    return month_q, hand_months


def _end_chances(
    w: _WeightsInfo,
    hand: int,
    table: int,
    revealed_opp: int,
    month_q: list[float],
    hand_months: int,
    joker_in_hand: bool,
    a_unseen: float,
) -> tuple[list[float], list[float]]:
    """Each card's chance of ending up mine (``a_me``) and an opponent's (``a_op``): in my
    hand, on the table (mine if I hold its month or the joker, unless they take the month
    first), shown in an opponent's hand, or unseen."""
    a_me = [a_unseen] * 48
    a_op = [a_unseen] * 48
    a_hand = max(MIN_CHANCE, w.a_hand)
    a_op_hand = max(MIN_CHANCE, w.a_op_hand)
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        x = low.bit_length() - 1
        a_me[x] = a_hand
        a_op[x] = a_op_hand
    a_table_mine = w.a_table_mine
    a_table = max(MIN_CHANCE, w.a_table)
    rest = table
    while rest:
        low = rest & -rest
        rest ^= low
        x = low.bit_length() - 1
        q = month_q[MONTH[x]]
        if hand_months & low or (joker_in_hand and POINTS[x] > 0):
            a_me[x] = max(MIN_CHANCE, a_table_mine * (1.0 - CONTESTED * q))
        else:
            a_me[x] = a_table
        a_op[x] = q if q > MIN_TABLE_TAKE else MIN_TABLE_TAKE
    rest = revealed_opp
    while rest:
        low = rest & -rest
        rest ^= low
        x = low.bit_length() - 1
        a_me[x] = SHOWN_MINE
        a_op[x] = SHOWN_THEIRS
    return a_me, a_op


def _game_weights(
    w: _WeightsInfo, target: int, totals: Sequence[int], me: int, opps: list[int]
) -> tuple[float, float]:
    """The weights of my yaku chances and of blocking theirs by the game score (R-9):
    trailing far behind it reaches for yaku, leading it blocks more, and an opponent near
    the target makes blocking urgent."""
    best_opp: int = totals[opps[0]]
    for s in opps:
        if totals[s] > best_opp:
            best_opp = totals[s]
    lead = totals[me] - best_opp
    wy = w.yaku
    wd = w.deny
    if lead < -SWING * target:
        wy *= w.trail_yaku
    elif lead > SWING * target:
        wd *= w.lead_deny
    if target - best_opp <= DANGER * target:
        wd *= w.danger_deny
    return wy, wd


def _yaku_margins(
    info: _RulesInfo,
    w: _WeightsInfo,
    pos: Position,
    opps: list[int],
    others: int,
    a_me: list[float],
    a_op: list[float],
) -> tuple[list[float], list[float], list[float], list[float]]:
    """What each card adds to the yaku chances: mine (``marg_me``), the opponents'
    (``marg_op``), what my capture of it takes from theirs (``deny``) and theirs from mine
    (``mydeny``); Seven Ribbons and rain-off (R-8.3) included."""
    me = pos.seat
    caps = pos.captures
    mine: int = caps[me]
    marg_me = [0.0] * 48
    marg_op = [0.0] * 48
    deny = [0.0] * 48  # my capture of x destroys the opponents' yaku chances
    mydeny = [0.0] * 48  # an opponent's capture of x destroys mine
    rain = info.rain_off
    willow_me = mine & WILLOW_MASK != 0
    me_rained = willow_me and rain == "ordered" and _rained_off_ordered(pos.orders[me])
    view_pot_me = 0.0
    view_pot_op = 0.0
    instant_value = info.instant_value * w.instant
    masks = info.entry_masks
    values = info.entry_values
    viewings = info.entry_viewing
    instants = info.entry_instant
    for e in range(len(masks)):
        mask = masks[e]
        value = values[e]
        viewing = viewings[e]
        if instants[e] and value < instant_value:
            value = instant_value
        if not mask & others:
            need = mask
            if viewing and willow_me:
                if me_rained:
                    need = 0
                elif not mine & CRANE_BIT:
                    need = mask | CRANE_BIT  # end-of-round: the crane saves them
            missing = need & ~mine
            if missing:
                vp = _yaku_chance(missing, value, a_me, marg_me, mydeny)
                if viewing:
                    view_pot_me += vp
        for s in opps:
            theirs: int = caps[s]
            if mask & (mine | (others & ~theirs)):
                continue
            missing = mask & ~theirs
            if not missing:
                continue
            vp = _yaku_chance(missing, value, a_op, marg_op, deny)
            if viewing:
                view_pot_op += vp
    if info.seven:
        seven = max(info.seven, instant_value) if info.seven_instant else info.seven
        _seven_ribbons(info.seven_mask, seven, me, caps, a_me, a_op, marg_me, marg_op, deny, mydeny)
    # Rain-off: a first Willow capture costs the viewing yaku chances.
    if rain != "off" and not willow_me and not mine & CRANE_BIT:
        loss = view_pot_me * (1.0 - a_me[PINE_CRANE]) if rain == "end-of-round" else view_pot_me
        for x in MONTH_CARDS[WILLOW]:
            marg_me[x] -= loss
            marg_op[x] -= RAIN_THEIRS * view_pot_op
    return marg_me, marg_op, deny, mydeny


def _yaku_chance(missing: int, value: float, a: list[float], marg: list[float], loss: list[float]) -> float:
    """A yaku worth ``value`` that lacks the cards ``missing``, with ``a[x]`` the chance of
    getting card ``x``: return its expected value (``value`` times the chance of getting
    every missing card), and add to ``marg[x]`` what getting ``x`` would add to it and to
    ``loss[x]`` what losing ``x`` to someone else would take away."""
    p = 1.0
    rest = missing
    while rest:
        low = rest & -rest
        rest ^= low
        p *= a[low.bit_length() - 1]
    vp = value * p
    rest = missing
    while rest:
        low = rest & -rest
        rest ^= low
        x = low.bit_length() - 1
        ax = a[x]
        marg[x] += vp * (1.0 - ax) / ax
        loss[x] += vp
    return vp


_TAKE_FIRST: Final[dict[tuple[int, int, int], tuple[float, float, float, float, float]]] = {}


def _take_first(n_unseen: int, hidden: int, n: int) -> tuple[float, float, float, float, float]:
    """For k = 0..4 unseen cards of a month: the chance that an opponent can take a card of
    that month before the seat's next turn, with one of their ``hidden`` cards or one of
    their ``n - 1`` draws, ``n_unseen`` cards being unseen (cached: a few hundred keys)."""
    key = (n_unseen, hidden, n)
    got = _TAKE_FIRST.get(key)
    if got is None:
        draw_frac = 1.0 / n_unseen if n_unseen else 0.0
        q = [0.0] * 5
        for k in range(1, 5):
            q[k] = 1.0 - _none_held(n_unseen, hidden, k) * (1.0 - k * draw_frac) ** (n - 1)
        got = (q[0], q[1], q[2], q[3], q[4])
        _TAKE_FIRST[key] = got
    return got


def fuke_plan(pos: Position) -> int:
    """Fuke (R-7.3) late in a round: 1 if a void round would suit this seat, -1 if it would
    cost it a round it is winning, 0 otherwise.

    Judged on the scores as captured so far: far behind (100 points or more) with a
    counted score still at or under the threshold, a void round is welcome; far ahead
    while an opponent is at or under it, the void would wipe out the lead.  A completed
    exempt yaku (R-7.5) means no void.
    """
    rules = pos.rules
    score = score_round(rules, pos.captures, pos.orders, pos.declared)
    exempt = set(rules.fuke_exempt)
    for player in score.players:
        for slug, _ in player.yaku:
            if slug in exempt:
                return 0
    me = pos.seat
    counted = [p.counted for p in score.players]
    mine = counted[me]
    others = [c for s, c in enumerate(counted) if s != me]
    threshold = rules.fuke_threshold
    if mine <= threshold and max(others) - mine >= 100:
        return 1
    if mine - max(others) >= 100 and min(others) <= threshold:
        return -1
    return 0


def _seven_ribbons(
    ribbons: int,
    value: float,
    me: int,
    caps: Sequence[int],
    a_me: list[float],
    a_op: list[float],
    marg_me: list[float],
    marg_op: list[float],
    deny: list[float],
    mydeny: list[float],
) -> None:
    """Seven Ribbons progress: the chance of getting enough of the ribbons still free."""
    n = len(caps)
    everyone = 0
    for c in caps:
        everyone |= c
    for s in range(n):
        theirs: int = caps[s]
        free = ribbons & ~(everyone & ~theirs)
        have = card_count(theirs & ribbons)
        need = 7 - have
        if need <= 0 or card_count(free) < 7 or have < 2:
            continue
        a = a_me if s == me else a_op
        missing: list[int] = []
        rest = free & ~theirs
        while rest:
            low = rest & -rest
            rest ^= low
            missing.append(low.bit_length() - 1)
        probs = sorted([a[x] for x in missing], reverse=True)
        p = 1.0
        for q in probs[:need]:
            p *= q
        if p <= 1e-4:
            continue
        vp = value * p
        critical = need / len(missing)  # how much one missing ribbon matters
        for x in missing:
            ax = a[x]
            inc = vp * (1.0 - ax) / ax if ax > 0 else 0.0
            if s == me:
                marg_me[x] += inc
                mydeny[x] += vp * critical
            else:
                marg_op[x] += inc
                deny[x] += vp * critical


# ---------------------------------------------------------------- decisions


def move_values(
    pos: Position, moves: Sequence[tuple[int, int]], from_hand: bool, weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """The expert's value (in points) of each of ``moves`` (``(card, target)``)."""
    ap = Appraisal(pos, weights)
    return [ap.value(card, target, from_hand) for card, target in moves]


def best_move(pos: Position, moves: Sequence[tuple[int, int]], from_hand: bool, weights: Weights) -> int:
    """The index in ``moves`` (``(card, target)``) of the expert's choice; the first on ties."""
    if len(moves) == 1:
        return 0
    ap = Appraisal(pos, weights)
    best_i = 0
    best_v = -1e18
    for i, (card, target) in enumerate(moves):
        v = ap.value(card, target, from_hand)
        if v > best_v + 1e-9:
            best_i, best_v = i, v
    return best_i


def expert_index(
    p: Playout, moves: Sequence[tuple[int, int]], totals: Sequence[int], weights: Weights
) -> int:
    """The index in ``moves`` of the expert's choice for the seat to act in ``p``, from
    what that seat knows there (no peeking at the other hands or the pile)."""
    pos = Position.of_playout(p, p.to_act, totals)
    return best_move(pos, moves, p.phase == "play", weights)


def expert_rollout(
    p: Playout,
    totals: Sequence[int],
    weights: Weights,
    index: list[list[tuple[int, int]]],
    depth: int,
) -> None:
    """Play ``p`` to the end of its round: the first ``depth`` decisions as the expert (each
    seat from its own knowledge: :meth:`Position.of_playout`), the rest with the fast
    points-now policy (:func:`~roppyakken.ai.playout.greedy_index`).  The master's rollout."""
    while p.phase != ENDED:
        moves = p.moves()
        if len(moves) == 1:
            card, target = moves[0]
        elif depth > 0:
            depth -= 1
            card, target = moves[expert_index(p, moves, totals, weights)]
        else:
            card, target = moves[greedy_index(p, moves, index)]
        p.step(card, target)


def declare_choice(
    held: Sequence[tuple[str, int, int]], weights: Weights = DEFAULT_WEIGHTS
) -> tuple[str, ...]:
    """Which held lucky hands ``(slug, points, cards)`` to declare (R-4.1 ``choose``).

    Declaring scores the hand's points this round, but shows its cards: the opponents
    then know which months they can never take from the expert's hand and which cards
    they will not draw.  The expert declares a hand when its points exceed what the
    newly shown cards are worth to the opponents (``reveal_cost`` points a card): with
    the usual values (200 for three cards, 400 for the whole hand) it always declares;
    with a house rule valuing a hand-three at 20 points it keeps it hidden.
    """
    chosen = []
    shown = 0
    for slug, points, cards in held:
        extra = (cards & ~shown).bit_count()
        if points > weights.reveal_cost * extra:
            chosen.append(slug)
            shown |= cards
    return tuple(chosen)


def call_redeal(rules: Rules, hand: int) -> bool:
    """R-3.4 ``optional``: redeal four of a month worth little (its points and month yaku).

    Four cards of one month can only take each other, so they are four dead cards for
    the rest of the round; they are kept when they are worth 60 points or more.
    """
    for m in range(1, 13):
        mm = MONTH_MASK[m]
        if hand & mm == mm:
            worth = sum(POINTS[c] for c in MONTH_CARDS[m])
            for _, mask, v in rules.table.set_yaku:
                if mask & mm == mask:
                    worth += v
            return worth < 60
    return False


# --- end of the compiled part: what follows is interpreted (the bot's interface), then swaps in
# the compiled module when it is there.


class ExpertBot:
    """Level ``expert``: counts unseen cards, builds and blocks yaku, plays the game score."""

    name = "expert"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.seed = seed  # the expert is deterministic: the seed is kept for the interface
        self.weights = weights

    def choose(self, view: SeatView) -> Action:
        """The expert's choice among ``view.legal``."""
        legal = view.legal
        first = legal[0]
        if len(legal) == 1:
            return first
        if isinstance(first, Declare):
            held = [(h.slug, h.points, h.cards) for h in view.lucky_hands]
            want = set(declare_choice(held, self.weights))
            for a in legal:
                if isinstance(a, Declare) and set(a.hands) == want:
                    return a
            return first
        if isinstance(first, CallRedeal):
            return CallRedeal(call_redeal(view.rules, view.hand))
        pos = Position.of_view(view)
        if isinstance(first, Take):
            moves = [(view.turned, a.target) for a in legal if isinstance(a, Take)]
            return legal[best_move(pos, moves, False, self.weights)]
        moves = [(a.card, a.target) for a in legal if isinstance(a, Play)]
        return legal[best_move(pos, moves, True, self.weights)]


swap_in(globals())


__all__ = [
    "DEFAULT_WEIGHTS",
    "Appraisal",
    "ExpertBot",
    "Weights",
    "best_move",
    "call_redeal",
    "declare_choice",
    "expert_index",
    "expert_rollout",
    "fuke_plan",
    "move_values",
]
