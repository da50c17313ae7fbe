"""End-of-round scoring (RULES.md R-7, R-8.5): breakdown, fuke, instant wins, round scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from roppyakken.cards import WILLOW_PAULOWNIA_MASK, points_of
from roppyakken.compiled import swap_in
from roppyakken.errors import RoppyakkenError
from roppyakken.options import HandFour, JokerWild, MatchKind, TableFour
from roppyakken.rules import Rules
from roppyakken.yaku import FOUR_BRIGHTS, SEVEN_RIBBONS, YakuTable


class PlayerScore(NamedTuple):
    """One player's round: the FORMATS.md §1 player object.

    A named tuple rather than a frozen dataclass: searchers score rounds by the
    hundred thousand, and a tuple is built several times faster.
    """

    card_points: int
    yaku: tuple[tuple[str, int], ...]
    lucky_hands: tuple[tuple[str, int], ...]
    round_score: int
    counted: int
    final: int

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md §1 player object."""
        return {
            "card_points": self.card_points,
            "yaku": [{"slug": s, "points": p} for s, p in self.yaku],
            "lucky_hands": [{"slug": s, "points": p} for s, p in self.lucky_hands],
            "round_score": self.round_score,
            "counted": self.counted,
            "final": self.final,
        }


class RoundScore(NamedTuple):
    """A scored round: every player's breakdown, whether it was void, any instant win."""

    players: tuple[PlayerScore, ...]
    fuke: bool
    instant_win: tuple[int, str] | None

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md §1 output document."""
        win = None
        if self.instant_win is not None:
            win = {"seat": self.instant_win[0], "yaku": self.instant_win[1]}
        return {
            "players": [p.to_json() for p in self.players],
            "fuke": self.fuke,
            "instant_win": win,
        }


def _lucky_points(values: Mapping[str, int], declared: Sequence[str]) -> tuple[tuple[str, int], ...]:
    out = []
    for slug in declared:
        if slug not in values:
            raise RoppyakkenError(f"lucky hand {slug!r} does not score under these rules")
        out.append((slug, values[slug]))
    return tuple(out)


def _counted_by(mode: int, captured: int, card_points: int, round_score: int) -> int:
    """R-7.3: what the fuke check counts (``mode``: :attr:`ScoringOptions.fuke`)."""
    if mode == _FUKE_NO_WILLOW_PAULOWNIA:
        return round_score - points_of(captured & WILLOW_PAULOWNIA_MASK)
    if mode == _FUKE_CARDS_ONLY:
        return card_points - points_of(captured & WILLOW_PAULOWNIA_MASK)
    return round_score


_FUKE_OFF: Final = 0
_FUKE_NO_WILLOW_PAULOWNIA: Final = 1
_FUKE_CARDS_ONLY: Final = 2
_FUKE_ROUND: Final = 3
_FUKE_MODES: Final = {"off": _FUKE_OFF, "no-willow-paulownia": 1, "cards-only": 2}
"""R-7.3 ``fuke`` as an int (another value counts the round score)."""

_PLAIN: Final = 0
_ROUND_UP: Final = 1
_DIFFERENCE: Final = 2
_ROUND_SCORING: Final = {"round-up": _ROUND_UP, "difference": _DIFFERENCE}
"""R-7.4 ``round_scoring`` as an int (another value: ``plain``)."""


def round_up(score: int) -> int:
    """R-7.4 ``round-up``: to the next hundred (320 → 400, 600 → 600, 0 → 0)."""
    return -(-score // 100) * 100


def _finals(mode: int, scores: Sequence[int]) -> list[int]:
    if mode == _ROUND_UP:
        return [round_up(s) for s in scores]
    if mode == _DIFFERENCE:
        ordered = sorted(scores, reverse=True)
        top, second = ordered[0], ordered[1]
        return [top - second if s == top else 0 for s in scores]
    return list(scores)


def yaku_table(rules: Rules) -> YakuTable:
    """``rules.table``, typed as this module's :class:`YakuTable` (compiled, the compiled class:
    its methods are then called natively, not looked up as Python attributes)."""
    table: object = rules.table
    if not isinstance(table, YakuTable):  # pragma: no cover - Rules always builds one
        raise TypeError(f"rules.table is not a YakuTable: {table!r}")
    return table


class ScoringOptions:
    """The options of a round's score (R-7, R-8.5) and of the end of the game (R-9), read once
    from a :class:`Rules` as ints: compiled, the score reads native attributes instead of an
    interpreted frozen dataclass's (as :meth:`roppyakken.kernel.Round.read_options` does for
    the card play).  One per rules: :func:`scoring_options`.  The deal's options (R-3.3,
    R-3.4, R-4.1) are read here too, for the engine's deal; with ``lucky_hands`` and
    ``hand_four`` these options are the lucky hands' (:class:`roppyakken.yaku.LuckyOptions`).
    Equal, and hashed, as the rules they are read from (the hash kept: the lucky hands' cache
    is keyed by them)."""

    rules: Rules
    table: YakuTable
    fuke: int
    """R-7.3: 0 off, 1 ``no-willow-paulownia``, 2 ``cards-only``, 3 the round score counted."""
    fuke_threshold: int
    fuke_exempt: tuple[str, ...]
    instant_win: bool
    """R-8.5: whether instant wins are on."""
    bright_mask: int
    """Four Brights' cards when it is an instant-win yaku (R-8.5), else 0."""
    seven_ribbons: bool
    """Whether Seven Ribbons is an instant-win yaku."""
    round_scoring: int
    """R-7.4: 0 ``plain``, 1 ``round-up``, 2 ``difference``."""
    lucky_hands: Mapping[str, int]
    target: int
    """R-9.1 ``target``."""
    top_tie_play_order: bool
    """R-9.2 ``top_tie = "play-order"``."""
    win_margin: int
    match_kind: MatchKind
    """R-9.3 ``match``: ``single``, ``first-to`` or ``rounds``, and its count."""
    match_count: int
    rotate_dealer: bool
    """R-2.3 ``next_dealer = "rotate"``."""
    table_four: TableFour
    """R-3.3 ``table_four``."""
    hand_four: HandFour
    """R-3.4 ``hand_four``."""
    declare_auto: bool
    """R-4.1 ``declare = "auto"``."""
    immediate_win: bool
    """R-8.5 ``instant_win = "immediate"`` (the card play's options, below, are read from here
    by :meth:`roppyakken.kernel.Round.read_options`)."""
    joker_card: int
    """R-6 ``joker_card`` (-1: none)."""
    joker_wild_on_table: JokerWild
    auto_capture_higher: bool
    _hash: int

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        table = self.table = yaku_table(rules)
        self.fuke = _FUKE_MODES.get(rules.fuke, _FUKE_ROUND)
        self.fuke_threshold = rules.fuke_threshold
        self.fuke_exempt = tuple(rules.fuke_exempt)
        self.instant_win = rules.instant_win != "off"
        self.bright_mask = 0
        self.seven_ribbons = False
        for slug, mask in table.instant_masks:
            if slug == FOUR_BRIGHTS:
                self.bright_mask = mask
            elif slug == SEVEN_RIBBONS:
                self.seven_ribbons = True
        self.round_scoring = _ROUND_SCORING.get(rules.round_scoring, _PLAIN)
        self.lucky_hands = rules.lucky_hands
        self.target = rules.target
        self.top_tie_play_order = rules.top_tie == "play-order"
        self.win_margin = rules.win_margin
        self.match_kind = rules.match_rule.kind
        self.match_count = rules.match_rule.count
        self.rotate_dealer = rules.next_dealer == "rotate"
        self.table_four = rules.table_four
        self.hand_four = rules.hand_four
        self.declare_auto = rules.declare == "auto"
        self.immediate_win = rules.instant_win == "immediate"
        self.joker_card = rules.joker_card
        self.joker_wild_on_table = rules.joker_wild_on_table
        self.auto_capture_higher = rules.auto_capture_higher
        self._hash = hash((rules, "options"))  # (not the rules' own: a cache may hold both)

    def __hash__(self) -> int:
        """Hashed as the rules (kept)."""
        return self._hash

    def __eq__(self, other: object) -> bool:
        """Equal when read from equal rules."""
        return isinstance(other, ScoringOptions) and other.rules == self.rules

    def __reduce__(self) -> tuple[object, tuple[Rules]]:
        """Copy and pickle as the rules they are read from."""
        return scoring_options, (self.rules,)


_OPTIONS: dict[Rules, ScoringOptions] = {}
"""The scoring options of the rules met lately (keyed by the rules, which hash by value)."""

OPTIONS_KEPT: Final = 256
"""At most this many rules' scoring options are kept: a server meets a new rule set with every
room of house rules, so the cache starts afresh when it is full (a round reads its options
once, :meth:`roppyakken.kernel.Round.read_options`, so a miss costs one build a game)."""


def scoring_options(rules: Rules) -> ScoringOptions:
    """The :class:`ScoringOptions` of ``rules`` (built once per rules while kept)."""
    options = _OPTIONS.get(rules)
    if options is None:
        if len(_OPTIONS) >= OPTIONS_KEPT:
            _OPTIONS.clear()
        options = _OPTIONS[rules] = ScoringOptions(rules)
    return options


def score_round(
    rules: Rules,
    captures: Sequence[int],
    orders: Sequence[Sequence[int]],
    declared: Sequence[Sequence[str]],
) -> RoundScore:
    """Score a finished round from each seat's captured cards (R-7.2 to R-7.6).

    ``captures`` are card masks, ``orders`` the capture order of each seat (R-5.6,
    used by ordered rain-off), ``declared`` each seat's declared lucky hands.
    """
    lists = [list(o) for o in orders], [list(d) for d in declared]
    return score_with(scoring_options(rules), list(captures), *lists, None)


def score_with(
    options: ScoringOptions,
    captures: list[int],
    orders: list[list[int]],
    declared: list[list[str]],
    instant: tuple[int, str] | None,
) -> RoundScore:
    """:func:`score_round` under ``options`` (:func:`scoring_options`); ``instant``, when not
    None, is the instant win that ended the round (R-8.5 ``immediate``), else it is looked for."""
    return score_parts(options, captures, orders, declared, instant).public()


class SeatScore:
    """One seat's round as plain fields: the :class:`PlayerScore` it stands for, not yet built
    (compiled, a native object: its ints unboxed, built without ``tuple.__new__``'s argument
    tuples)."""

    card_points: int
    yaku: list[Any]
    """The yaku as ``(slug, points)`` pairs, in display order (the list the table gave)."""
    lucky: tuple[tuple[str, int], ...]
    round_score: int
    counted: int
    final: int

    def __init__(
        self, card_points: int, yaku: list[Any], lucky: tuple[tuple[str, int], ...], score: int, counted: int
    ) -> None:
        self.card_points = card_points
        self.yaku = yaku
        self.lucky = lucky
        self.round_score = score
        self.counted = counted
        self.final = score  # the round score unless change it


class ScoreParts:
    """A scored round as plain fields (:func:`score_parts`): what the engine keeps and the end
    of the game reads.  The public :class:`RoundScore` (named tuples, the FORMATS outputs) is
    built from it only when someone asks for it (:meth:`public`), once: a playout that is
    never looked at does not build it."""

    seats: list[SeatScore]
    fuke: bool
    instant_win: tuple[int, str] | None
    _public: RoundScore | None

    def __init__(self, seats: list[SeatScore], fuke: bool, instant_win: tuple[int, str] | None) -> None:
        self.seats = seats
        self.fuke = fuke
        self.instant_win = instant_win
        self._public = None

    def public(self) -> RoundScore:
        """The :class:`RoundScore` of these parts (built at the first call, then the same one)."""
        score = self._public
        if score is None:
            players: tuple[PlayerScore, ...] = tuple(
                [
                    _new_tuple(
                        _PLAYER_SCORE,
                        (s.card_points, tuple(s.yaku), s.lucky, s.round_score, s.counted, s.final),
                    )
                    for s in self.seats
                ]
            )
            score = self._public = _new_tuple(_ROUND_SCORE, (players, self.fuke, self.instant_win))
        return score


def parts_of(score: RoundScore) -> ScoreParts:
    """The :class:`ScoreParts` of a public ``score`` (its :meth:`~ScoreParts.public` is ``score``
    itself): for the public functions of the end of the game, which take a :class:`RoundScore`."""
    seats = []
    for p in score[0]:  # (fields by index: compiled, no attribute lookup)
        seat = SeatScore(p[0], list(p[1]), p[2], p[3], p[4])
        seat.final = p[5]
        seats.append(seat)
    parts = ScoreParts(seats, score[1], score[2])
    parts._public = score
    return parts


def score_parts(
    options: ScoringOptions,
    captures: list[int],
    orders: list[list[int]],
    declared: list[list[str]],
    instant: tuple[int, str] | None,
) -> ScoreParts:
    """:func:`score_with` as :class:`ScoreParts`, the named tuples not built (the engine's score)."""
    table = options.table
    fuke = options.fuke
    void = False
    n = len(captures)
    if len(orders) != n or len(declared) != n:
        raise ValueError(f"{n} captures, {len(orders)} capture orders, {len(declared)} declarations")
    seats: list[SeatScore] = []
    for seat in range(n):  # (indexes, not zip(strict=True): a generic call when compiled)
        captured = captures[seat]
        card_points = points_of(captured)
        yaku = table.evaluate(captured, orders[seat])
        lucky_slugs = declared[seat]
        lucky = _lucky_points(options.lucky_hands, lucky_slugs) if lucky_slugs else ()
        score = card_points
        for _, p in yaku:
            score += p
        for _, p in lucky:
            score += p
        counted = score
        if fuke != _FUKE_OFF:
            counted = _counted_by(fuke, captured, card_points, score)
            if counted <= options.fuke_threshold:
                void = True
        seats.append(SeatScore(card_points, yaku, lucky, score, counted))
    if void:  # a round in which an exempt yaku was completed is spared
        exempt = options.fuke_exempt
        void = not any(slug in exempt for s in seats for slug, _ in s.yaku)
    if void or options.round_scoring != _PLAIN:
        finals = _finals(options.round_scoring, [0] * n if void else [s.round_score for s in seats])
        for seat in range(n):
            seats[seat].final = finals[seat]
    if instant is None and options.instant_win and not void:
        instant = _instant_winner(options, captures)
    return ScoreParts(seats, void, instant)


_new_tuple: Final = tuple.__new__
"""``tuple.__new__``, which builds the named tuples of a score."""

_PLAYER_SCORE: Final[type] = PlayerScore
_ROUND_SCORE: Final[type] = RoundScore
"""The named tuples' classes (compiled, a ``Final`` is a C static: not looked up in the
module's dict at each use)."""


def _instant_winner(options: ScoringOptions, captures: list[int]) -> tuple[int, str] | None:
    mask = options.bright_mask
    n = len(captures)
    if mask:
        for seat in range(n):
            if captures[seat] & mask == mask:
                return seat, FOUR_BRIGHTS
    if options.seven_ribbons:
        table = options.table
        for seat in range(n):
            if table.has_seven_ribbons(captures[seat]):
                return seat, SEVEN_RIBBONS
    return None


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
