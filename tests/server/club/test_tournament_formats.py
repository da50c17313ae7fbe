"""Tournament formats as pure rules: points by place with shared ties, the arena's streak, byes,
tie-breaks in their declared order, Swiss pairings by 2 and 3 (checked against exhaustive
searches over many seeded random tournaments), round robins and arena waves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, pairwise

import pytest

from roppyakken.server.club.tournaments.model import (
    BYE_POINTS,
    TIE_BREAKS,
    Entrant,
    Standing,
    SwissRound,
    TableResult,
    Waiting,
    arena_pairing,
    arena_points,
    is_win,
    place_points,
    round_robin_schedule,
    standings,
    swiss_pairing,
)
from roppyakken.server.club.tournaments.swiss import DENSE_LIMIT

# Points, streaks, byes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ((1, 2), (2.0, 0.0)),
        ((2, 1), (0.0, 2.0)),
        ((1, 1), (1.0, 1.0)),
        ((1, 2, 3), (2.0, 1.0, 0.0)),
        ((1, 1, 3), (1.5, 1.5, 0.0)),
        ((1, 2, 2), (2.0, 0.5, 0.5)),
        ((1, 1, 1), (1.0, 1.0, 1.0)),
    ],
)
def test_places_give_points_and_tied_players_share_the_places_they_span(
    places: tuple[int, ...], points: tuple[float, ...]
) -> None:
    assert place_points(places) == points


@pytest.mark.parametrize("places", [(1,), (1, 2, 3, 4), (0, 1), (1, 3)])
def test_impossible_places_are_refused_in_one_line(places: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"table seats|places must be"):
        place_points(places)


def _game(players: tuple[str, ...], places: tuple[int, ...], abandoned: Sequence[str] = ()) -> TableResult:
    return TableResult(players=players, places=places, abandoned=frozenset(abandoned))


def test_a_streak_starts_after_two_wins_doubles_points_and_ends_with_a_non_win() -> None:
    win, loss = _game(("a", "b"), (1, 2)), _game(("a", "b"), (2, 1))
    assert arena_points([win, win], "a") == (4.0, True)
    assert arena_points([win, win, win], "a") == (8.0, True)  # 2 + 2 + 4
    assert arena_points([win, win, win, loss, win], "a") == (10.0, False)  # the loss ends it
    second_of_three = _game(("a", "b", "c"), (2, 1, 3))
    assert arena_points([win, win, second_of_three], "a") == (6.0, False)  # 1 point, doubled
    shared_first = _game(("a", "b"), (1, 1))
    assert arena_points([win, win, shared_first, win], "a") == (8.0, False)  # shared: not a win


def test_an_abandoned_game_scores_nothing_and_ends_the_streak_even_when_placed_first() -> None:
    win = _game(("a", "b"), (1, 2))
    walked = _game(("a", "b"), (1, 2), abandoned=["a"])
    assert not is_win(walked, "a")
    assert arena_points([win, win, walked, win], "a") == (6.0, False)


def test_a_swiss_bye_is_worth_its_points_and_is_counted() -> None:
    entrants = [Entrant("a"), Entrant("b"), Entrant("c")]
    lines = standings("swiss", entrants, [_game(("a", "b"), (1, 2), ())], byes=["c"])
    by_id = {line.player_id: line for line in lines}
    assert by_id["c"].points == BYE_POINTS and by_id["c"].byes == 1 and by_id["c"].games == 0
    assert [line.player_id for line in lines] == ["a", "c", "b"]


# Tie-breaks ------------------------------------------------------------------------------------


def test_tie_breaks_decide_in_order_and_name_what_decided() -> None:
    # a and b end on 4 points; a's opponents scored more (Buchholz).
    results = [
        _game(("a", "x"), (1, 2)),
        _game(("b", "y"), (1, 2)),
        _game(("x", "y"), (1, 2)),  # x: 2, y: 0
        _game(("a", "y"), (1, 2)),
        _game(("b", "z"), (1, 2)),
    ]
    lines = standings("swiss", [Entrant(p) for p in "abxyz"], results)
    assert [(line.player_id, line.points, line.tie_break) for line in lines[:2]] == [
        ("a", 4.0, None),
        ("b", 4.0, "buchholz"),
    ]
    assert lines[0].buchholz == 2.0 and lines[1].buchholz == 0.0


def test_sonneborn_berger_counts_the_points_of_the_table_mates_finished_above() -> None:
    # Tables of 3: a and b both scored 2 + 1, with the same table-mates' points, but a finished
    # above the stronger mate.
    results = [
        _game(("a", "s", "w"), (1, 3, 2)),
        _game(("b", "s", "w"), (2, 1, 3)),
        _game(("a", "s", "w"), (2, 1, 3)),
        _game(("b", "s", "w"), (1, 3, 2)),
    ]
    lines = standings("swiss", [Entrant(p) for p in "absw"], results)
    by_id = {line.player_id: line for line in lines}
    assert by_id["a"].points == by_id["b"].points == 3.0
    assert by_id["a"].buchholz == by_id["b"].buchholz  # the same four table-mates
    assert by_id["a"].sonneborn_berger == by_id["b"].sonneborn_berger  # symmetric so far
    # Now one more table where a beats s (high) and b beats w (low):
    more = [*results, _game(("a", "s"), (1, 2)), _game(("b", "w"), (1, 2))]
    lines = standings("swiss", [Entrant(p) for p in "absw"], more)
    by_id = {line.player_id: line for line in lines}
    assert by_id["a"].points == by_id["b"].points
    assert by_id["a"].sonneborn_berger > by_id["b"].sonneborn_berger
    order = [line.player_id for line in lines]
    assert order.index("a") < order.index("b")
    assert by_id["b"].tie_break in ("buchholz", "sonneborn_berger")


def test_wins_then_rating_then_a_shared_rank() -> None:
    # Everyone ends on 2 points with Buchholz 4 and Sonneborn-Berger 2: a and c each won once,
    # b and d tied twice.
    results = [
        _game(("a", "c"), (1, 2)),
        _game(("a", "c"), (2, 1)),
        _game(("b", "d"), (1, 1)),
        _game(("b", "d"), (1, 1)),
    ]
    entrants = [Entrant("a", 1500), Entrant("b", 1600), Entrant("c", 1400), Entrant("d", 1500)]
    lines = standings("swiss", entrants, results)
    assert {(line.points, line.buchholz, line.sonneborn_berger) for line in lines} == {(2.0, 4.0, 2.0)}
    assert [(line.player_id, line.rank, line.tie_break) for line in lines] == [
        ("a", 1, None),
        ("c", 2, "rating"),
        ("b", 3, "wins"),
        ("d", 4, "rating"),
    ]
    tie = standings("swiss", [Entrant("p", 1500), Entrant("q", 1500)], [])
    assert [line.rank for line in tie] == [1, 1] and tie[1].tie_break is None


def test_a_withdrawn_player_keeps_their_line_and_counts_for_their_opponents() -> None:
    results = [_game(("a", "w"), (2, 1)), _game(("b", "c"), (1, 2))]
    lines = standings("swiss", [Entrant(p) for p in "abcw"], results, withdrawn=["w"])
    by_id = {line.player_id: line for line in lines}
    assert by_id["w"].withdrawn and by_id["w"].points == 2.0
    assert by_id["a"].buchholz == 2.0


def _key(line: Standing, rating: dict[str, float]) -> tuple[float, ...]:
    return (-line.points, -line.buchholz, -line.sonneborn_berger, -line.wins, -rating[line.player_id])


def check_standings(lines: list[Standing], rating: dict[str, float]) -> None:
    """Sorted by the declared keys; ranks shared exactly on equal keys; the deciding key named."""
    for above, here in pairwise(lines):
        a, b = _key(above, rating), _key(here, rating)
        assert a <= b
        if a == b:
            assert here.rank == above.rank
        else:
            first = next(k for k in range(len(a)) if a[k] != b[k])
            assert here.rank == lines.index(here) + 1
            assert here.tie_break == (None if first == 0 else TIE_BREAKS[first])


# Swiss by 2 ------------------------------------------------------------------------------------


def test_the_first_round_pairs_the_top_half_with_the_bottom_half_by_rating() -> None:
    scores = {f"p{i}": 0.0 for i in range(8)}
    ratings = {f"p{i}": 2000.0 - i for i in range(8)}
    rnd = swiss_pairing(scores, [], {}, 2, ratings=ratings)
    assert rnd.tables == (("p0", "p4"), ("p1", "p5"), ("p2", "p6"), ("p3", "p7")) and rnd.byes == ()


def test_the_bye_goes_to_the_lowest_scored_player_without_one() -> None:
    scores = {"a": 2.0, "b": 2.0, "c": 1.0, "d": 0.0, "e": 0.0}
    rnd = swiss_pairing(scores, [], {"d": 1, "e": 1}, 2)
    assert rnd.byes == ("c",)
    rnd = swiss_pairing(scores, [], {}, 2)
    assert rnd.byes in (("d",), ("e",))


def test_a_repeat_pairing_is_avoided_even_at_the_cost_of_score_groups() -> None:
    scores = {"a": 4.0, "b": 4.0, "c": 0.0, "d": 0.0}
    rnd = swiss_pairing(scores, [("a", "b"), ("c", "d")], {}, 2)
    assert {frozenset(t) for t in rnd.tables} in (
        {frozenset("ac"), frozenset("bd")},
        {frozenset("ad"), frozenset("bc")},
    )


def test_a_large_round_merges_blocks_rather_than_repeat_a_pair() -> None:
    top = [f"t{i}" for i in range(32)]
    scores = {p: 5.0 for p in top} | {f"u{i}": 0.0 for i in range(40)}
    assert len(scores) > DENSE_LIMIT
    met = list(combinations(top, 2))  # the top group all met each other
    rnd = swiss_pairing(scores, met, {}, 2)
    assert not [t for t in rnd.tables if frozenset(t) in {frozenset(m) for m in met}]
    assert sorted(p for t in rnd.tables for p in t) == sorted(scores)


@pytest.mark.parametrize("size", [1, 4])
def test_a_table_size_other_than_2_or_3_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match="a table seats 2 or 3 players"):
        swiss_pairing({"a": 0.0, "b": 0.0}, [], {}, size)


def _matchings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    a = players[0]
    for i in range(1, len(players)):
        rest = players[1:i] + players[i + 1 :]
        for more in _matchings(rest):
            yield [(a, players[i]), *more]


def _tiers(
    pairs: list[tuple[str, str]], bye: str | None, halves: dict[str, int], met: set[frozenset[str]], low: int
) -> tuple[int, int, int, int]:
    repeats = sum(frozenset(p) in met for p in pairs)
    mixed = sum(halves[a] != halves[b] for a, b in pairs)
    spread = sum((halves[a] - halves[b]) ** 2 for a, b in pairs)
    return (repeats, 0 if bye is None else halves[bye] - low, mixed, spread)


def _best_pairs(
    active: list[str], halves: dict[str, int], met: set[frozenset[str]], byes_had: dict[str, int]
) -> tuple[int, int, int, int]:
    """The least (repeats, bye score, mixed pairs, squared differences) over every pairing."""
    fewest = min(byes_had.get(p, 0) for p in active)
    takers: list[str | None] = (
        [p for p in active if byes_had.get(p, 0) == fewest] if len(active) % 2 else [None]
    )
    low = min(halves[p] for p in takers if p is not None) if len(active) % 2 else 0
    best = None
    for bye in takers:
        for pairing in _matchings([p for p in active if p != bye]):
            cost = _tiers(pairing, bye, halves, met, low)
            best = cost if best is None or cost < best else best
    assert best is not None
    return best


def _partitions(players: list[str]) -> Iterator[list[tuple[str, ...]]]:
    if not players:
        yield []
        return
    a = players[0]
    for q, r in combinations(players[1:], 2):
        rest = [p for p in players[1:] if p not in (q, r)]
        for more in _partitions(rest):
            yield [(a, q, r), *more]


def _repeat_free_exists(players: list[str], met: set[frozenset[str]]) -> bool:
    return any(
        not any(frozenset(pair) in met for table in grouping for pair in combinations(table, 2))
        for grouping in _partitions(players)
    )


def _play(table: tuple[str, ...], rng: random.Random) -> TableResult:
    places = tuple(rng.randint(1, len(table)) for _ in table)
    ordered = sorted(places)
    fixed = tuple(1 + ordered.index(p) for p in places)  # tied players share the better place
    abandoned = frozenset(p for p in table if rng.random() < 0.03)
    return TableResult(players=table, places=fixed, abandoned=abandoned)


def _swiss_tournament(seed: int, size: int, max_players: int, exhaustive_upto: int) -> int:
    """One random Swiss event, every round checked; the rounds where exhaustive search ran."""
    rng = random.Random(seed)
    n = rng.randint(size, max_players)
    entrants = [Entrant(f"p{i}", rng.choice([1200.0, 1500.0, 1500.0, 1800.0])) for i in range(n)]
    rating = {e.player_id: e.rating for e in entrants}
    active = [e.player_id for e in entrants]
    results: list[TableResult] = []
    byes: list[str] = []
    withdrawn: list[str] = []
    checked = 0
    for _ in range(rng.randint(2, 7)):
        if len(active) > size and rng.random() < 0.15:
            gone = rng.choice(active)
            active.remove(gone)
            withdrawn.append(gone)
        lines = standings("swiss", entrants, results, byes, withdrawn)
        check_standings(lines, rating)
        assert {line.player_id for line in lines} == set(rating)  # withdrawn players stay
        scores = {line.player_id: line.points for line in lines if line.player_id in active}
        byes_had = dict(Counter(byes))
        met = {frozenset(pair) for r in results for pair in combinations(r.players, 2)}
        rnd = swiss_pairing(scores, [r.players for r in results], byes_had, size, seed=seed, ratings=rating)
        seated = [p for t in rnd.tables for p in t]
        # Every active player exactly once: at a table or a bye.
        assert sorted(seated + list(rnd.byes)) == sorted(active)
        assert all(len(t) == size for t in rnd.tables) and len(rnd.byes) == len(active) % size
        # Byes go to the fewest byes: no bye recipient had more than a player at a table.
        fewest = min(byes_had.get(p, 0) for p in active)
        most_given = max((byes_had.get(p, 0) for p in rnd.byes), default=0)
        assert all(most_given <= byes_had.get(p, 0) for p in seated)
        halves = {p: round(scores[p] * 2) for p in active}
        repeats = sum(frozenset(pair) in met for t in rnd.tables for pair in combinations(t, 2))
        if size == 2 and len(active) <= exhaustive_upto:
            low = min(halves[p] for p in active if byes_had.get(p, 0) == fewest)
            pairs = [(t[0], t[1]) for t in rnd.tables]
            got = _tiers(pairs, rnd.byes[0] if rnd.byes else None, halves, met, low)
            assert got == _best_pairs(active, halves, met, byes_had)  # every tier in its priority
            checked += 1
        elif size == 3 and len(seated) <= exhaustive_upto and repeats:
            assert not _repeat_free_exists(seated, met)
            checked += 1
        byes.extend(rnd.byes)
        results.extend(_play(t, rng) for t in rnd.tables)
    check_standings(standings("swiss", entrants, results, byes, withdrawn), rating)
    return checked


def test_swiss_by_two_is_the_best_pairing_by_its_tiers_over_a_thousand_random_events() -> None:
    checked = sum(_swiss_tournament(seed, 2, 10, exhaustive_upto=10) for seed in range(1000))
    assert checked > 2000


def test_swiss_by_three_repeats_a_pair_only_when_no_grouping_avoids_it_over_random_events() -> None:
    checked = sum(_swiss_tournament(seed, 3, 12, exhaustive_upto=12) for seed in range(1500))
    assert checked > 50


def test_larger_swiss_events_seat_everyone_once_without_repeats() -> None:
    for seed in range(6):
        for size in (2, 3):
            _swiss_tournament(10_000 + seed, size, 120, exhaustive_upto=0)


def test_swiss_pairing_is_deterministic_given_its_seed() -> None:
    scores = {f"p{i}": float(i % 3) for i in range(13)}
    for size in (2, 3):
        assert swiss_pairing(scores, [], {}, size, seed=5) == swiss_pairing(scores, [], {}, size, seed=5)


# Round robin -----------------------------------------------------------------------------------


def _check_rounds(players: list[str], rounds: list[SwissRound], size: int) -> Counter[frozenset[str]]:
    meetings: Counter[frozenset[str]] = Counter()
    for rnd in rounds:
        assert sorted([p for t in rnd.tables for p in t] + list(rnd.byes)) == sorted(players)
        assert all(len(t) == size for t in rnd.tables)
        meetings.update(frozenset(pair) for t in rnd.tables for pair in combinations(t, 2))
    return meetings


@pytest.mark.parametrize("n", range(2, 14))
def test_round_robin_by_two_meets_every_pair_once_with_one_bye_each_when_odd(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_schedule(players, 2, seed=n)
    meetings = _check_rounds(players, rounds, 2)
    assert set(meetings) == {frozenset(p) for p in combinations(players, 2)}
    assert set(meetings.values()) == {1}
    assert len(rounds) == (n if n % 2 else n - 1)
    assert Counter(p for r in rounds for p in r.byes) == (Counter(players) if n % 2 else Counter())


@pytest.mark.parametrize("n", [3, 9, 15, 27])
def test_round_robin_by_three_is_a_kirkman_schedule_for_its_counts(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_schedule(players, 3, seed=n)
    meetings = _check_rounds(players, rounds, 3)
    assert len(rounds) == (n - 1) // 2
    assert set(meetings) == {frozenset(p) for p in combinations(players, 2)} and set(meetings.values()) == {1}
    assert all(not r.byes for r in rounds)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 16, 17, 20, 21, 22])
def test_round_robin_by_three_covers_every_pair_with_byes_and_games_spread(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_schedule(players, 3, seed=n)
    meetings = _check_rounds(players, rounds, 3)
    assert set(meetings) == {frozenset(p) for p in combinations(players, 2)}
    byes = Counter({p: 0 for p in players}) + Counter(p for r in rounds for p in r.byes)
    byes_of = [byes[p] for p in players]
    assert max(byes_of) - min(byes_of) <= 1
    games = [sum(p in t for r in rounds for t in r.tables) for p in players]
    assert max(games) - min(games) <= 1


def test_a_round_robin_refuses_repeated_players_odd_table_sizes_and_too_many_players() -> None:
    with pytest.raises(ValueError, match="distinct"):
        round_robin_schedule(["a", "a", "b"], 2)
    with pytest.raises(ValueError, match="non-empty"):
        round_robin_schedule(["a", "", "b"], 2)
    with pytest.raises(ValueError, match="a table seats 2 or 3"):
        round_robin_schedule(["a", "b"], 4)
    with pytest.raises(ValueError, match="at most 32 players, not 33"):
        round_robin_schedule([f"p{i}" for i in range(33)], 3)


# Arena -----------------------------------------------------------------------------------------


def test_the_arena_pairs_near_scores_and_the_longest_waiting_first() -> None:
    waiting = [Waiting(f"p{i}", score=float(20 - i), since=float(i)) for i in range(5)]
    tables = arena_pairing(waiting, 2, now=5.0)
    assert tables == [("p0", "p1"), ("p2", "p3")]  # p4 arrived last and waits
    late_first = [Waiting("new", 10.0, since=9.0), *waiting[:4]]
    assert ("p3",) not in [tuple(t) for t in arena_pairing(late_first, 2, now=9.0)]


def test_the_arena_does_not_rematch_last_opponents_while_another_player_waits() -> None:
    waiting = [
        Waiting("a", 10.0, 0.0, frozenset({"b"})),
        Waiting("b", 9.0, 0.0, frozenset({"a"})),
        Waiting("c", 1.0, 1.0),
    ]
    assert arena_pairing(waiting, 2, now=1.0) == [("a", "c")]
    alone = waiting[:2]
    assert arena_pairing(alone, 2, now=1.0) == []  # they wait for someone else
    assert arena_pairing(alone, 2, now=100.0) == [("a", "b")]  # until one waited too long


def test_the_arena_seats_tables_of_three_without_last_opponents() -> None:
    waiting = [Waiting(f"p{i}", float(i), float(i), frozenset({f"p{i ^ 1}"})) for i in range(6)]
    tables = arena_pairing(waiting, 3, now=6.0)
    assert len(tables) == 2
    for table in tables:
        assert not any(
            b in {w.player_id: w for w in waiting}[a].last_opponents for a, b in combinations(table, 2)
        )


def test_arena_waves_keep_their_guarantees_over_random_waves() -> None:
    for seed in range(3000):
        rng = random.Random(seed)
        size = rng.choice((2, 3))
        n = rng.randint(0, 30)
        ids = [f"p{i}" for i in range(n)]
        waiting = [
            Waiting(
                p,
                score=float(rng.randint(0, 12)),
                since=rng.uniform(0, 60),
                last_opponents=frozenset(rng.sample(ids, min(n, rng.choice((0, 1, 2))))) - {p},
            )
            for p in ids
        ]
        window = rng.choice((2, 5, 10, 40))
        now = 60.0
        tables = arena_pairing(waiting, size, now=now, max_wait=30.0, window=window)
        by_id = {w.player_id: w for w in waiting}
        seated = [p for t in tables for p in t]
        assert len(seated) == len(set(seated)) and all(len(t) == size for t in tables)
        ranked = sorted(waiting, key=lambda w: (-w.score, w.since, w.player_id))
        rank = {w.player_id: i for i, w in enumerate(ranked)}
        for table in tables:
            overdue = any(now - by_id[p].since >= 30.0 for p in table)
            clash = any(
                a in by_id[b].last_opponents or b in by_id[a].last_opponents
                for a, b in combinations(table, 2)
            )
            span = max(rank[p] for p in table) - min(rank[p] for p in table)
            assert overdue or (not clash and span <= 2 * window), (seed, table)
        left_overdue = [w for w in waiting if w.player_id not in seated and now - w.since >= 30.0]
        assert len(left_overdue) < size, seed
        if all(not w.last_opponents for w in waiting) and window >= n:
            assert len(tables) == n // size


def test_an_arena_wave_is_refused_a_player_twice() -> None:
    with pytest.raises(ValueError, match="waits only once"):
        arena_pairing([Waiting("a", 0, 0), Waiting("a", 0, 1)], 2)
