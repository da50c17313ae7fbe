"""The expert's choices in hand-built positions: each test states the reason for the choice."""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.actions import DECLARE, PLAY, Action, Declare, Play
from roppyakken.ai.expert import ExpertBot, call_redeal, declare_choice
from roppyakken.ai.greedy import GreedyBot
from roppyakken.cards import ALL_CARDS, card_id, iter_cards, mask_of
from roppyakken.engine import Game
from roppyakken.rules import Rules, preset
from roppyakken.view import SeatView, view_of


def _m(slugs: Sequence[str]) -> int:
    return mask_of(card_id(s) for s in slugs)


def view(
    rules: Rules,
    hand: Sequence[str],
    table: Sequence[str],
    opp_hand: Sequence[str],
    mine: Sequence[str] = (),
    theirs: Sequence[str] = (),
    totals: Sequence[int] = (0, 0),
    phase: str = PLAY,
) -> SeatView:
    """Seat 0's view of a 2-player position; every card not named is in the pile."""
    caps = [[card_id(s) for s in mine], [card_id(s) for s in theirs]]
    used = _m(hand) | _m(table) | _m(opp_hand) | _m(mine) | _m(theirs)
    game = Game.from_position(
        rules,
        hands=[_m(hand), _m(opp_hand)],
        table=_m(table),
        pile=list(iter_cards(ALL_CARDS & ~used)),
        captures=[mask_of(c) for c in caps],
        orders=caps,
        declared=[[], []],
        phase=phase,
        to_act=0,
        dealer=0,
        totals=totals,
    )
    return view_of(game, 0)


def play(action: Action) -> tuple[str, list[str]]:
    assert isinstance(action, Play)
    from roppyakken.cards import SLUGS, slugs_of

    return SLUGS[action.card], slugs_of(action.target)


CLASSIC = preset("classic")


def test_blocks_an_opponent_one_card_from_boar_deer_butterflies() -> None:
    """The opponent holds the boar and the butterflies; the deer lies on the table and two
    maple cards are unseen.  Taking the deer (10 points) denies a 300-point yaku, which
    beats taking 60 points with the warbler; the greedy bot takes the 60."""
    v = view(
        CLASSIC,
        hand=["maple-chaff-1", "plum-warbler", "pine-chaff-1", "cherry-chaff-1"],
        table=["maple-deer", "plum-ribbon", "iris-chaff-1", "wisteria-chaff-1"],
        opp_hand=["pampas-chaff-1", "pampas-chaff-2", "paulownia-chaff-1", "iris-chaff-2"],
        theirs=["clover-boar", "clover-chaff-1", "peony-butterflies", "peony-chaff-1"],
    )
    assert play(ExpertBot().choose(v)) == ("maple-chaff-1", ["maple-deer"])
    assert play(GreedyBot().choose(v)) == ("plum-warbler", ["plum-ribbon"])


def test_takes_the_stack_with_the_fourth_card() -> None:
    """Three cherry cards lie on the table (a stack, R-3.5) and the expert holds the fourth:
    taking all four (60 points, towards Great Three and Cannon) beats throwing a card
    away, which would only give the opponent something."""
    v = view(
        CLASSIC,
        hand=["cherry-chaff-2", "iris-chaff-1", "wisteria-chaff-1"],
        table=["cherry-curtain", "cherry-ribbon", "cherry-chaff-1", "pine-chaff-1", "maple-ribbon"],
        opp_hand=["pampas-chaff-1", "pampas-chaff-2", "paulownia-chaff-1"],
    )
    assert play(ExpertBot().choose(v)) == (
        "cherry-chaff-2",
        ["cherry-curtain", "cherry-ribbon", "cherry-chaff-1"],
    )


def test_declares_hand_three_for_its_points() -> None:
    """Hand Three is worth 200 points; showing its three cards tells the opponents much less
    (estimated 8 points a card), so the expert declares it (R-4.1 ``choose``)."""
    v = view(
        CLASSIC,
        hand=["pine-crane", "pine-chaff-1", "pine-chaff-2", "iris-chaff-1", "maple-deer", "clover-boar"],
        table=["plum-ribbon", "cherry-chaff-1"],
        opp_hand=["pampas-chaff-1", "pampas-chaff-2", "paulownia-chaff-1", "willow-swallow"],
        phase=DECLARE,
    )
    assert v.legal and isinstance(v.legal[0], Declare)
    assert ExpertBot().choose(v) == Declare(("hand-three",))


def test_hides_a_lucky_hand_worth_less_than_what_it_reveals() -> None:
    """With a house rule valuing Hand Three at 10 points, declaring would show three cards
    for less than they tell the opponents: the expert keeps the hand hidden."""
    rules = CLASSIC.with_options({"lucky_hands": {"hand-three": 10}})
    v = view(
        rules,
        hand=["pine-crane", "pine-chaff-1", "pine-chaff-2", "iris-chaff-1", "maple-deer", "clover-boar"],
        table=["plum-ribbon", "cherry-chaff-1"],
        opp_hand=["pampas-chaff-1", "pampas-chaff-2", "paulownia-chaff-1", "willow-swallow"],
        phase=DECLARE,
    )
    assert ExpertBot().choose(v) == Declare(())
    whole_hand = _m(["pine-chaff-1", "plum-chaff-1", "iris-chaff-1", "iris-chaff-2", "peony-chaff-1"])
    assert declare_choice([("all-chaff", 400, whole_hand)]) == ("all-chaff",)


def test_spends_the_joker_on_the_best_target() -> None:
    """The Rain Man may take any single card worth points (R-6.2): the expert takes the moon,
    not a ribbon."""
    v = view(
        CLASSIC,
        hand=["willow-rainman", "iris-chaff-1", "wisteria-chaff-1"],
        table=["pampas-moon", "maple-ribbon", "pine-chaff-1"],
        opp_hand=["pampas-chaff-1", "cherry-chaff-2", "paulownia-chaff-1"],
    )
    assert play(ExpertBot().choose(v)) == ("willow-rainman", ["pampas-moon"])


def test_rain_off_keeps_it_away_from_willow() -> None:
    """With ordered rain-off (R-8.3) a Willow capture would void the Flower Viewing (100) the
    expert has completed without the crane, so it pairs two iris chaff instead of taking
    the swallow (10 points); with rain-off off it takes the swallow."""

    def choice(rules: Rules) -> tuple[str, list[str]]:
        v = view(
            rules,
            hand=["willow-lightning", "iris-chaff-1", "wisteria-chaff-1"],
            table=["willow-swallow", "iris-chaff-2", "pine-chaff-1"],
            opp_hand=["pampas-chaff-1", "cherry-chaff-2", "paulownia-chaff-1"],
            mine=["cherry-curtain", "cherry-chaff-1", "chrysanthemum-sake", "chrysanthemum-chaff-1"],
            theirs=["willow-rainman", "willow-ribbon", "pampas-geese", "pampas-chaff-2"],
        )
        return play(ExpertBot().choose(v))

    assert choice(CLASSIC.with_options({"rain_off": "ordered"})) == ("iris-chaff-1", ["iris-chaff-2"])
    assert choice(CLASSIC) == ("willow-lightning", ["willow-swallow"])


def test_fuke_late_in_a_lost_round_keeps_it_void() -> None:
    """Fuke ``all`` (R-7.3): the opponent has scored a big round and the expert has nothing.
    Taking the moon would lift it over 30 points and let the round count; throwing a chaff
    keeps its score at 0, and a round where someone scores 30 or less is void.  Without
    fuke it takes the moon."""

    def choice(rules: Rules) -> tuple[str, list[str]]:
        v = view(
            rules,
            hand=["pampas-moon", "iris-chaff-1"],
            table=["pampas-chaff-1", "pine-chaff-1"],
            opp_hand=["cherry-chaff-2", "paulownia-chaff-1"],
            theirs=[
                "pine-crane",
                "pine-ribbon",
                "cherry-curtain",
                "cherry-ribbon",
                "paulownia-phoenix",
                "plum-warbler",
            ],
        )
        return play(ExpertBot().choose(v))

    assert choice(preset("fuke")) == ("iris-chaff-1", [])
    assert choice(CLASSIC) == ("pampas-moon", ["pampas-chaff-1"])


def test_redeals_four_worthless_cards_only() -> None:
    """Four of a month in hand (R-3.4 ``optional``) can only take each other: four Iris
    cards (20 points) are redealt, four Pine cards (60 points and Four Pine) are kept."""
    assert call_redeal(CLASSIC, _m(["iris-bridge", "iris-ribbon", "iris-chaff-1", "iris-chaff-2"]))
    assert not call_redeal(CLASSIC, _m(["pine-crane", "pine-ribbon", "pine-chaff-1", "pine-chaff-2"]))


def test_game_score_changes_its_plan() -> None:
    """Far behind (0 to 450) the expert reaches for its own yaku: holding the boar, it takes
    the deer towards Boar-Deer-Butterflies (300).  Far ahead (450 to 0) it plays safe and
    banks the crane, a bright the opponent could otherwise take with a pine card."""

    def choice(totals: tuple[int, int]) -> tuple[str, list[str]]:
        v = view(
            CLASSIC,
            hand=[
                "pine-crane",
                "plum-chaff-2",
                "cherry-curtain",
                "cherry-ribbon",
                "wisteria-chaff-1",
                "clover-boar",
                "maple-chaff-1",
                "maple-chaff-2",
            ],
            table=[
                "pine-chaff-1",
                "pine-chaff-2",
                "iris-chaff-2",
                "clover-ribbon",
                "pampas-moon",
                "pampas-geese",
                "chrysanthemum-chaff-2",
                "maple-deer",
            ],
            opp_hand=[
                "plum-warbler",
                "plum-ribbon",
                "plum-chaff-1",
                "cherry-chaff-1",
                "cherry-chaff-2",
                "wisteria-cuckoo",
                "wisteria-ribbon",
            ],
            theirs=["pine-ribbon", "willow-rainman"],
            totals=totals,
        )
        return play(ExpertBot().choose(v))

    assert choice((0, 450)) == ("maple-chaff-1", ["maple-deer"])
    assert choice((450, 0)) == ("pine-crane", ["pine-chaff-1"])


def test_draw_value_counts_what_the_turned_card_takes_in_the_changed_months() -> None:
    """The experimental ``draw`` term (off by default): discarding a card of a month with
    unseen cards lets the card turned up next take it back; capturing the table's only card
    of a month leaves the turned-up card of that month nothing to take.  Each unseen card
    is the top of the pile with the same chance."""
    from roppyakken.ai.expert import DEFAULT_WEIGHTS, Appraisal, Weights
    from roppyakken.ai.position import Position
    from roppyakken.cards import MONTH, MONTH_MASK, card_id

    v = view(
        CLASSIC,
        hand=["iris-chaff-1", "maple-chaff-1", "pine-chaff-1"],
        table=["maple-deer", "plum-ribbon", "wisteria-chaff-1"],
        opp_hand=["pampas-chaff-1", "pampas-chaff-2", "paulownia-chaff-1"],
    )
    ap = Appraisal(Position.of_view(v), DEFAULT_WEIGHTS)
    n_unseen = v.unseen.bit_count()
    iris = card_id("iris-chaff-1")
    unseen_iris = [x for x in iter_cards(v.unseen & MONTH_MASK[MONTH[iris]])]
    assert len(unseen_iris) == 3
    expected = sum(ap.gain[x] + ap.gain[iris] for x in unseen_iris) / n_unseen
    changed = 1 << MONTH[iris]
    assert abs(ap.draw_value(v.table | 1 << iris, changed) - expected) < 1e-9
    maple, deer = card_id("maple-chaff-1"), card_id("maple-deer")
    unseen_maple = list(iter_cards(v.unseen & MONTH_MASK[MONTH[maple]]))
    lost = sum(ap.gain[x] + ap.gain[deer] for x in unseen_maple) / n_unseen
    assert abs(ap.draw_value(v.table & ~(1 << deer), 1 << MONTH[maple]) + lost) < 1e-9
    # Off by default: the value of a move does not include it; with a weight it does.
    on = Appraisal(Position.of_view(v), Weights(draw=1.0))
    assert abs(on.value(iris, 0, True) - ap.value(iris, 0, True) - expected) < 1e-9


def test_appraisal_caches_keyed_by_value_and_bounded() -> None:
    """The expert reads each rule set and each set of weights once (caches keyed by
    the rules' value, never by ``id``): equal values built apart share one entry, the cache
    holds at most ``CACHE_KEPT`` rule sets, and rules met again after it started afresh still
    read their own options."""
    import sys
    from dataclasses import replace

    from roppyakken.ai import expert
    from roppyakken.ai.weights import Weights

    module = sys.modules[expert.Appraisal.__module__]  # the compiled copy's, when it runs
    base = preset("classic")
    first = replace(base, target=base.target + 10)
    again = replace(base, target=base.target + 10)  # equal, another object
    assert first is not again
    assert module._info(first) is module._info(again)
    assert module._info(first).target == base.target + 10
    for k in range(expert.CACHE_KEPT + 5):
        rules = replace(base, target=base.target + 20 + k)
        assert module._info(rules).target == base.target + 20 + k
        assert 0 < len(module._INFO) <= expert.CACHE_KEPT
    assert module._info(again).target == base.target + 10
    w1, w2 = Weights(hold=0.7), Weights(hold=0.7)
    assert w1 is not w2 and hash(w1) == hash(w2)
    assert module._weights(w1) is module._weights(w2)
    assert module._weights(Weights(hold=0.6)) is not module._weights(w1)
