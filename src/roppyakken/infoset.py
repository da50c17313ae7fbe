"""Information sets: the hidden cards drawn consistently with what one seat has seen.

From a :class:`~roppyakken.view.SeatView` the seat knows its hand, the table, every
capture (in order), the declared lucky hands and the cards they revealed (still in
their owners' hands), the turned-up card, the hand sizes and the pile size.  The rest,
``view.unseen``, is split uniformly at random between the other hands (each gets its
size less its revealed cards) and the pile, in a random order, among the splits whose
deal agrees with what the seat saw of it (no redeal, the lucky hands declared:
:func:`deal_consistent`).  Every world drawn this way is one the seat cannot tell apart
from the real one: this is the sampler the
``master`` bot searches with, public for researchers (determinized search, ISMCTS,
belief-state training).  Standard library only, like the rest of the core.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from roppyakken.cards import full_months, iter_cards
from roppyakken.engine import Game
from roppyakken.view import SeatView
from roppyakken.yaku import lucky_hands_held


@dataclass(frozen=True, slots=True)
class World:
    """One sampled completion of the hidden cards: every hand and the pile, top first."""

    hands: tuple[int, ...]
    pile: tuple[int, ...]


DEAL_TRIES = 1000
""":func:`sample_world` draws at most this many worlds looking for one whose deal is
consistent with the view (:func:`deal_consistent`); at least a quarter of the draws are, in
every position measured (``bench/bench_deal.py``), so the bound is not reached in play."""


def sample_world(view: SeatView, rng: random.Random) -> World:
    """A uniformly random world consistent with ``view`` (see the module docstring).

    Drawn uniformly, then kept only if its deal is one the seat could have seen
    (:func:`deal_consistent`: no undeclared lucky hand where declaring is automatic, no
    four of a month where that redeals, the lucky hands declared showing the cards shown):
    rejection keeps the draw uniform among the consistent worlds.  After
    :data:`DEAL_TRIES` draws the last is returned as it is.
    """
    world = _draw_world(view, rng)
    tries = 1
    while tries < DEAL_TRIES and not deal_consistent(view, world):
        world = _draw_world(view, rng)
        tries += 1
    return world


def _draw_world(view: SeatView, rng: random.Random) -> World:
    """One uniformly random split of the unseen cards between the other hands and the pile."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to sample for")
    unseen = list(iter_cards(view.unseen))
    rng.shuffle(unseen)
    hands = []
    pos = 0
    for s in range(view.players):
        if s == seat:
            hands.append(view.hand)
            continue
        hidden = view.hand_sizes[s] - view.revealed[s].bit_count()
        mask = view.revealed[s]
        for c in unseen[pos : pos + hidden]:
            mask |= 1 << c
        pos += hidden
        hands.append(mask)
    pile = tuple(unseen[pos:])
    if len(pile) != view.pile_count:
        raise ValueError(
            f"the view does not add up: {len(pile)} unseen cards for a pile of {view.pile_count}"
        )
    return World(tuple(hands), pile)


def dealt_hands(view: SeatView, world: World) -> list[int]:
    """Each hand of ``world`` as dealt this round: its cards now and those its seat played
    from hand (the view's :class:`~roppyakken.view.RoundRecord`; without one, the hands now)."""
    hands = list(world.hands)
    record = view.record
    if record is not None:
        for seat, source, card, _ in record.plays:
            if source == "hand":
                hands[seat] |= 1 << card
    return hands


def deal_consistent(view: SeatView, world: World) -> bool:
    """Whether the other hands of ``world`` could have been dealt as the seat saw the deal go.

    A hand is dealt before play, and what happened then is public: no redeal was called, so
    with ``hand_four = redeal`` no hand held four of a month (R-3.4); each seat declared the
    lucky hands it did (R-4.1), so its dealt hand held them, showing exactly the cards
    shown, and with ``declare = auto`` it held no other.  (With ``declare = choose`` a
    player may keep a lucky hand hidden: that is a choice, weighed by an opponent model,
    not a fact.)  Judged from the round's record; a view without one (a searcher's copy),
    or before card play, rules nothing out.
    """
    record = view.record
    if record is None or not view.phase.card_play:
        return True
    rules = view.rules
    redeal = rules.hand_four == "redeal"
    auto = rules.declare == "auto"
    hands = dealt_hands(view, world)
    for s in range(view.players):
        if s == view.seat:
            continue
        hand = hands[s]
        if redeal and full_months(hand):
            return False
        declared = view.declared[s]
        held = lucky_hands_held(rules, hand)
        if not held:
            if declared or record.revealed[s]:
                return False
            continue
        shown = 0
        found = 0
        for h in held:
            if h.slug in declared:
                shown |= h.cards
                found += 1
        if found != len(declared) or shown != record.revealed[s] or (auto and found != len(held)):
            return False
    return True


def game_of(view: SeatView, world: World, seed: int = 0) -> Game:
    """The whole game position of ``world``, rebuilt with :meth:`Game.from_position`.

    The cards shown by declared lucky hands stay shown.  ``seed`` deals the rounds after
    this one.  Decisions in the redeal or declaration phases are not rebuilt (the view
    does not say which seats are still to decide), so this serves card play.
    """
    if not view.phase.card_play:
        raise ValueError(f"only card play positions are rebuilt, not phase {view.phase.value!r}")
    game = Game.from_position(
        view.rules,
        hands=world.hands,
        table=view.table,
        pile=world.pile,
        captures=view.captures,
        orders=view.capture_orders,
        declared=view.declared,
        phase=view.phase.value,
        to_act=view.to_act,
        dealer=view.dealer,
        turned=view.turned,
        totals=view.totals,
        legs=view.legs,
        round_index=view.round,
        leg=view.leg,
        seed=seed,
    )
    game.revealed = list(view.revealed)
    return game


def sample_game(view: SeatView, rng: random.Random) -> Game:
    """A game in a uniformly random world consistent with ``view`` (card play only)."""
    return game_of(view, sample_world(view, rng))


__all__ = ["World", "deal_consistent", "dealt_hands", "game_of", "sample_game", "sample_world"]
