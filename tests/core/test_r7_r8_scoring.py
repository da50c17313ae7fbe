"""RULES.md R-7 (end of round) and R-8 (yaku): a hand-checked scoring table.

Each case gives a preset (and options), what each player captured (in order) and
declared, and the values worked out by hand from RULES.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from roppyakken.documents import score_document
from roppyakken.rules import preset

Y = dict[str, int]


def score(rules_name: str, players: list[dict[str, Any]], **options: object) -> dict[str, Any]:
    rules = preset(rules_name).with_options(options) if options else preset(rules_name)
    return score_document(rules, {"players": players}).to_json()


def yaku_of(result: dict[str, Any], seat: int = 0) -> Y:
    return {y["slug"]: y["points"] for y in result["players"][seat]["yaku"]}


def one(captures: list[str], lucky: list[str] | None = None) -> dict[str, Any]:
    return {"captures": captures, "lucky_hands": lucky or []}


EMPTY = one([])

# (case id, preset, captures of seat 0, expected yaku of seat 0, expected card points)
TABLE: list[tuple[str, str, list[str], Y, int]] = [
    (
        "four-brights",
        "classic",
        ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"],
        {"four-brights": 600, "matsu-kiri-bozu": 150},
        200,
    ),
    (
        "rain-man-is-not-a-four-brights-card",
        "classic",
        ["pine-crane", "cherry-curtain", "pampas-moon", "willow-rainman"],
        {},
        200,
    ),
    (
        "matsu-kiri-bozu",
        "classic",
        ["pine-crane", "pampas-moon", "paulownia-phoenix"],
        {"matsu-kiri-bozu": 150},
        150,
    ),
    ("great-three", "classic", ["pine-crane", "plum-warbler", "cherry-curtain"], {"great-three": 150}, 150),
    (
        "seven-ribbons",
        "classic",
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
        ],
        {"seven-ribbons": 600, "red-poems": 100, "grass-ribbons": 100},
        70,
    ),
    ("red-poems", "classic", ["pine-ribbon", "plum-ribbon", "cherry-ribbon"], {"red-poems": 100}, 30),
    (
        "blue-ribbons",
        "classic",
        ["peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"],
        {"blue-ribbons": 100},
        30,
    ),
    (
        "grass-ribbons",
        "classic",
        ["wisteria-ribbon", "iris-ribbon", "clover-ribbon"],
        {"grass-ribbons": 100},
        30,
    ),
    ("willow-ribbon-is-not-grass", "classic", ["wisteria-ribbon", "iris-ribbon", "willow-ribbon"], {}, 30),
    (
        "boar-deer-butterflies",
        "classic",
        ["clover-boar", "maple-deer", "peony-butterflies"],
        {"boar-deer-butterflies": 300},
        30,
    ),
    (
        "cannon-replaces-viewings",
        "classic",
        ["cherry-curtain", "pampas-moon", "chrysanthemum-sake"],
        {"cannon": 300},
        110,
    ),
    ("flower-viewing", "classic", ["cherry-curtain", "chrysanthemum-sake"], {"flower-viewing": 100}, 60),
    ("moon-viewing", "classic", ["pampas-moon", "chrysanthemum-sake"], {"moon-viewing": 100}, 60),
    (
        "viewings-add-up-when-not-exclusive",
        "classic-nonexclusive",
        ["cherry-curtain", "pampas-moon", "chrysanthemum-sake"],
        {"cannon": 300, "flower-viewing": 100, "moon-viewing": 100},
        110,
    ),
    (
        "four-willow",
        "classic",
        ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"],
        {"four-willow": 200},
        70,
    ),
    (
        "four-pine",
        "classic",
        ["pine-crane", "pine-ribbon", "pine-chaff-1", "pine-chaff-2"],
        {"four-pine": 50},
        60,
    ),
    (
        "four-plum",
        "classic",
        ["plum-warbler", "plum-ribbon", "plum-chaff-1", "plum-chaff-2"],
        {"four-plum": 50},
        60,
    ),
    (
        "four-cherry",
        "classic",
        ["cherry-curtain", "cherry-ribbon", "cherry-chaff-1", "cherry-chaff-2"],
        {"four-cherry": 50},
        60,
    ),
    (
        "four-wisteria",
        "classic",
        ["wisteria-cuckoo", "wisteria-ribbon", "wisteria-chaff-1", "wisteria-chaff-2"],
        {"four-wisteria": 50},
        20,
    ),
    (
        "four-pampas",
        "classic",
        ["pampas-moon", "pampas-geese", "pampas-chaff-1", "pampas-chaff-2"],
        {"four-pampas": 50},
        60,
    ),
    (
        "four-maple",
        "classic",
        ["maple-deer", "maple-ribbon", "maple-chaff-1", "maple-chaff-2"],
        {"four-maple": 50},
        20,
    ),
    (
        "four-paulownia",
        "classic",
        ["paulownia-phoenix", "paulownia-yellow", "paulownia-chaff-1", "paulownia-chaff-2"],
        {"four-paulownia": 50},
        60,
    ),
    ("no-four-iris", "classic", ["iris-bridge", "iris-ribbon", "iris-chaff-1", "iris-chaff-2"], {}, 20),
    # korean-high values and extra yaku
    (
        "korean-mkb",
        "korean-high",
        ["pine-crane", "pampas-moon", "paulownia-phoenix"],
        {"matsu-kiri-bozu": 200},
        150,
    ),
    (
        "korean-cannon",
        "korean-high",
        ["cherry-curtain", "pampas-moon", "chrysanthemum-sake"],
        {"cannon": 400},
        110,
    ),
    (
        "korean-four-maple",
        "korean-high",
        ["maple-deer", "maple-ribbon", "maple-chaff-1", "maple-chaff-2"],
        {"four-maple": 200},
        20,
    ),
    (
        "korean-four-willow",
        "korean-high",
        ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"],
        {"four-willow": 300},
        70,
    ),
    (
        "ribbon-bdb",
        "korean-high",
        ["clover-ribbon", "maple-ribbon", "peony-ribbon"],
        {"ribbon-boar-deer-butterflies": 400, "blue-ribbons": 0},
        30,
    ),
    (
        "ribbon-cannon-replaces-ribbon-viewings",
        "korean-high",
        ["cherry-ribbon", "pampas-geese", "chrysanthemum-ribbon"],
        {"ribbon-cannon": 400},
        30,
    ),
    (
        "ribbon-flower-viewing",
        "korean-high",
        ["cherry-ribbon", "chrysanthemum-ribbon"],
        {"ribbon-flower-viewing": 200},
        20,
    ),
    (
        "ribbon-moon-viewing",
        "korean-high",
        ["chrysanthemum-ribbon", "pampas-geese"],
        {"ribbon-moon-viewing": 200},
        20,
    ),
    # R-10 preset values
    (
        "marguerite-values",
        "marguerite",
        ["pine-crane", "plum-warbler", "cherry-curtain", "pine-ribbon", "plum-ribbon", "cherry-ribbon"],
        {"great-three": 100, "red-poems": 150},
        180,
    ),
    (
        "marguerite-blue",
        "marguerite",
        ["peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"],
        {"blue-ribbons": 200},
        30,
    ),
    (
        "changara-mkb",
        "changara",
        ["pine-crane", "pampas-moon", "paulownia-phoenix", "cherry-curtain"],
        {"matsu-kiri-bozu": 300},
        200,
    ),
    ("changara-no-great-three", "changara", ["pine-crane", "plum-warbler", "cherry-curtain"], {}, 150),
    (
        "yamayaku-no-viewing",
        "yamayaku",
        ["cherry-curtain", "chrysanthemum-sake", "pampas-moon"],
        {"cannon": 300},
        110,
    ),
    (
        "yamayaku-no-month-yaku",
        "yamayaku",
        ["pine-crane", "pine-ribbon", "pine-chaff-1", "pine-chaff-2"],
        {},
        60,
    ),
    (
        "yamayaku-great-three",
        "yamayaku",
        ["pine-crane", "plum-warbler", "cherry-curtain"],
        {"great-three": 100},
        150,
    ),
    # options
    (
        "yukbaek-four-brights-need-warbler",
        "yukbaek",
        ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"],
        {"matsu-kiri-bozu": 150},
        200,
    ),
    (
        "yukbaek-five-brights",
        "yukbaek",
        ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix", "plum-warbler"],
        {"four-brights": 600, "matsu-kiri-bozu": 150, "great-three": 150},
        250,
    ),
    (
        "yukbaek-seven-ribbons-need-willow",
        "yukbaek",
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
        ],
        {"red-poems": 100, "grass-ribbons": 100},
        70,
    ),
    (
        "yukbaek-seven-ribbons-with-willow",
        "yukbaek",
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "willow-ribbon",
        ],
        {"seven-ribbons": 600, "red-poems": 100},
        70,
    ),
    (
        "exclude-willow-ribbon",
        "classic-exclude",
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "willow-ribbon",
        ],
        {"red-poems": 100},
        70,
    ),
    (
        "sambong-extra-ribbons",
        "sambong",
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
            "maple-ribbon",
            "willow-ribbon",
        ],
        {"seven-ribbons": 900, "red-poems": 100, "grass-ribbons": 100},
        90,
    ),
]

VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    "classic-nonexclusive": ("classic", {"viewing_exclusive": False}),
    "classic-exclude": ("classic", {"seven_ribbons_willow": "exclude"}),
}


@pytest.mark.parametrize(
    ("case", "rules_name", "captures", "expected", "points"), TABLE, ids=[t[0] for t in TABLE]
)
def test_r8_scoring_table(case: str, rules_name: str, captures: list[str], expected: Y, points: int) -> None:
    name, options = VARIANTS.get(rules_name, (rules_name, {}))
    result = score(name, [one(captures), EMPTY], **options)
    wanted = {k: v for k, v in expected.items() if v}
    assert yaku_of(result) == wanted
    p = result["players"][0]
    assert p["card_points"] == points
    assert p["round_score"] == points + sum(wanted.values())


def test_r8_1_yaku_add_up() -> None:
    caps = ["pine-crane", "plum-warbler", "cherry-curtain", "pampas-moon", "paulownia-phoenix",
            "pine-ribbon", "plum-ribbon", "cherry-ribbon"]  # fmt: skip
    result = score("classic", [one(caps), EMPTY])
    assert yaku_of(result) == {
        "four-brights": 600,
        "matsu-kiri-bozu": 150,
        "great-three": 150,
        "red-poems": 100,
    }
    assert result["players"][0]["round_score"] == 280 + 1000


VIEW = ["cherry-curtain", "chrysanthemum-sake"]


def test_r8_3_rain_off_off_keeps_viewing() -> None:
    assert yaku_of(score("classic", [one(["willow-swallow", *VIEW]), EMPTY])) == {"flower-viewing": 100}


def test_r8_3_rain_off_end_of_round_a_willow_voids_viewing() -> None:
    assert yaku_of(score("classic", [one([*VIEW, "willow-swallow"]), EMPTY], rain_off="end-of-round")) == {}


def test_r8_3_rain_off_voids_cannon_too() -> None:
    caps = ["cherry-curtain", "pampas-moon", "chrysanthemum-sake", "willow-lightning"]
    assert yaku_of(score("classic", [one(caps), EMPTY], rain_off="end-of-round")) == {}


def test_r8_3_rain_off_end_of_round_crane_protects_whenever_captured() -> None:
    caps = [*VIEW, "willow-swallow", "pine-crane"]
    assert yaku_of(score("classic", [one(caps), EMPTY], rain_off="end-of-round")) == {"flower-viewing": 100}


def test_r8_3_rain_off_ordered_crane_must_come_before_the_first_willow() -> None:
    late = [*VIEW, "willow-swallow", "pine-crane"]
    early = ["pine-crane", *VIEW, "willow-swallow"]
    assert yaku_of(score("online", [one(late), EMPTY])) == {}
    assert yaku_of(score("online", [one(early), EMPTY])) == {"flower-viewing": 100}


def test_r8_3_rain_off_does_not_touch_other_yaku() -> None:
    caps = ["willow-swallow", "pine-ribbon", "plum-ribbon", "cherry-ribbon", *VIEW]
    assert yaku_of(score("online", [one(caps), EMPTY])) == {"red-poems": 100}


def test_r8_5_instant_win_four_brights_before_seven_ribbons() -> None:
    brights = one(["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"])
    ribbons = one(
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
        ]
    )
    assert score("classic", [ribbons, brights])["instant_win"] == {"seat": 1, "yaku": "four-brights"}
    assert score("classic", [ribbons, EMPTY])["instant_win"] == {"seat": 0, "yaku": "seven-ribbons"}
    assert score("no-instant-win", [ribbons, brights])["instant_win"] is None
    assert score("changara", [brights, EMPTY])["instant_win"] is None  # not a yaku there


# ---------------------------------------------------------------------


def test_r7_2_round_score_is_cards_plus_yaku_plus_lucky_hands() -> None:
    result = score("classic", [one(["pine-crane", "pine-chaff-1"], ["hand-three"]), EMPTY])
    p = result["players"][0]
    assert p["lucky_hands"] == [{"slug": "hand-three", "points": 200}]
    assert (p["card_points"], p["round_score"], p["counted"], p["final"]) == (50, 250, 250, 250)
    assert result["fuke"] is False and result["instant_win"] is None


LOW = one(["pine-chaff-1", "willow-swallow", "paulownia-phoenix"])  # 60 points, 60 of them Willow/Paulownia
HIGH = one(["pine-crane", "cherry-curtain", "plum-warbler", "clover-boar"])  # 160 + great-three 150


def test_r7_3_fuke_off_counts_nothing() -> None:
    result = score("classic", [LOW, one([])])
    assert result["fuke"] is False
    assert [p["final"] for p in result["players"]] == [60, 0]


def test_r7_3_fuke_all_voids_the_round() -> None:
    result = score("fuke", [LOW, HIGH])
    assert [p["counted"] for p in result["players"]] == [60, 310]
    assert result["fuke"] is False
    result = score("fuke", [one(["pine-chaff-1", "maple-deer", "iris-bridge", "iris-ribbon"]), HIGH])
    assert result["players"][0]["counted"] == 30
    assert result["fuke"] is True
    assert [p["final"] for p in result["players"]] == [0, 0]
    assert [p["round_score"] for p in result["players"]] == [30, 310]


def test_r7_3_fuke_no_willow_paulownia_subtracts_those_cards() -> None:
    result = score("online", [LOW, HIGH])
    assert [p["counted"] for p in result["players"]] == [0, 310]
    assert result["fuke"] is True


def test_r7_3_fuke_no_willow_paulownia_keeps_yaku_points() -> None:
    caps = ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"]
    result = score("online", [one(caps), HIGH])
    assert result["players"][0]["counted"] == 200  # four-willow 200 + 70 - 70
    assert result["fuke"] is False


def test_r7_3_fuke_cards_only_ignores_yaku_and_willow_paulownia() -> None:
    caps = ["willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning"]
    result = score("classic", [one(caps), HIGH], fuke="cards-only")
    assert result["players"][0]["counted"] == 0
    assert result["fuke"] is True


def test_r7_3_fuke_threshold() -> None:
    caps = ["pampas-moon"]  # 50
    assert score("fuke", [one(caps), HIGH])["fuke"] is False
    assert score("fuke", [one(caps), HIGH], fuke_threshold=50)["fuke"] is True


def test_r7_4_round_scoring_difference() -> None:
    result = score(
        "yukbaek", [one(["pine-crane"]), one(["plum-warbler", "maple-deer"]), one(["iris-bridge"])]
    )
    assert [p["final"] for p in result["players"]] == [0, 10, 0]
    tie = score("yukbaek", [one(["pine-crane"]), one(["plum-warbler"])])
    assert [p["final"] for p in tie["players"]] == [0, 0]


def test_r7_4_round_scoring_round_up() -> None:
    result = score(
        "sambong",
        [
            one(
                [
                    "pine-crane",
                    "pine-ribbon",
                    "pine-chaff-1",
                    "pine-chaff-2",
                    "plum-warbler",
                    "maple-deer",
                    "iris-bridge",
                    "clover-boar",
                ]
            ),
            one([]),
            one(["peony-butterflies"]),
        ],
    )
    # 50+10+50+10+10+10 = 140 + four-pine 50 = 190 -> 200; 0 -> 0; 10 -> 100
    assert [p["round_score"] for p in result["players"]] == [190, 0, 10]
    assert [p["final"] for p in result["players"]] == [200, 0, 100]
    assert (
        score(
            "sambong",
            [
                one(
                    [
                        "pine-crane",
                        "cherry-curtain",
                        "pampas-moon",
                        "paulownia-phoenix",
                        "plum-warbler",
                        "maple-deer",
                        "iris-bridge",
                        "clover-boar",
                        "wisteria-cuckoo",
                        "pampas-geese",
                        "chrysanthemum-sake",
                        "willow-swallow",
                        "peony-butterflies",
                    ]
                ),
                one([]),
            ],
        )["players"][0]["final"]
        == 1900
    )
    # cards 250 + 90 = 340; four-brights 600, matsu-kiri-bozu 150, great-three 150, cannon 300,
    # boar-deer-butterflies 300: 1840, rounded up to 1900


def test_r7_5_four_brights_spares_the_round_from_fuke() -> None:
    brights = one(["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"])
    result = score("fuke", [brights, one([])])
    assert result["fuke"] is False
    assert result["instant_win"] == {"seat": 0, "yaku": "four-brights"}


def test_r7_5_marguerite_seven_ribbons_round_can_be_void() -> None:
    ribbons = one(
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
        ]
    )
    result = score("marguerite", [ribbons, one([])])
    assert result["fuke"] is True
    assert result["instant_win"] is None  # a void round has no instant win
    assert [p["final"] for p in result["players"]] == [0, 0]


def test_r7_6_void_round_has_no_instant_win_unless_exempt() -> None:
    ribbons = one(
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "wisteria-ribbon",
            "iris-ribbon",
            "peony-ribbon",
            "clover-ribbon",
        ]
    )
    assert score("fuke", [ribbons, one([])])["instant_win"] == {"seat": 0, "yaku": "seven-ribbons"}
    assert score("fuke", [ribbons, one([])], fuke_exempt=[])["instant_win"] is None


def test_r7_1_cards_left_on_the_table_score_for_no_one() -> None:
    result = score("classic", [one([]), one([])])
    assert [p["round_score"] for p in result["players"]] == [0, 0]


def _cases(*ids: str) -> list[tuple[str, str, list[str], Y, int]]:
    chosen = [t for t in TABLE if t[0] in ids]
    assert len(chosen) == len(ids)
    return chosen


def _check(cases: list[tuple[str, str, list[str], Y, int]]) -> None:
    for case in cases:
        test_r8_scoring_table(*case)


def test_r8_2_yaku_option_values_can_be_changed_dropped_and_added() -> None:
    caps = one(["cherry-curtain", "chrysanthemum-sake", "clover-ribbon", "maple-ribbon", "peony-ribbon"])
    base = yaku_of(score("classic", [caps, EMPTY]))
    assert base == {"flower-viewing": 100}
    changed = preset("classic").with_options(
        {"yaku": {"flower-viewing": 250, "ribbon-boar-deer-butterflies": 300}}
    )
    assert yaku_of(score_document(changed, {"players": [caps, EMPTY]}).to_json()) == {
        "flower-viewing": 250,
        "ribbon-boar-deer-butterflies": 300,
    }
    dropped = preset("classic").with_options({"yaku": {"flower-viewing": False}})
    assert yaku_of(score_document(dropped, {"players": [caps, EMPTY]}).to_json()) == {}


def test_r8_4_seven_ribbons_willow_warbler_and_extra_ribbons() -> None:
    _check(
        _cases(
            "yukbaek-four-brights-need-warbler",
            "yukbaek-five-brights",
            "yukbaek-seven-ribbons-need-willow",
            "yukbaek-seven-ribbons-with-willow",
            "exclude-willow-ribbon",
            "sambong-extra-ribbons",
        )
    )


def test_r8_6_korean_extra_yaku() -> None:
    _check(
        _cases(
            "ribbon-bdb",
            "ribbon-cannon-replaces-ribbon-viewings",
            "ribbon-flower-viewing",
            "ribbon-moon-viewing",
        )
    )
    assert "ribbon-cannon" not in preset("classic").yaku  # off by default


def test_r8_7_korean_alternative_values() -> None:
    _check(_cases("korean-mkb", "korean-cannon", "korean-four-maple", "korean-four-willow"))


def test_scoring_options_kept_for_a_bounded_number_of_rule_sets() -> None:
    """A server meets a new rule set with every room of house rules: the options read once per
    rules (``scoring.scoring_options``) are kept for at most ``OPTIONS_KEPT`` of them, and a rule
    set met again after the cache started afresh still reads its own options."""
    import sys
    from dataclasses import replace

    from roppyakken import scoring
    from roppyakken.rules import preset

    # the cache of the module whose function runs (the compiled copy's when it is built)
    kept = sys.modules[scoring.scoring_options.__module__]._OPTIONS
    base = preset("classic")
    first = replace(base, target=base.target + 10)
    assert scoring.scoring_options(first).target == base.target + 10
    for k in range(scoring.OPTIONS_KEPT + 5):
        rules = replace(base, target=base.target + 20 + k)
        assert scoring.scoring_options(rules).target == base.target + 20 + k
        assert 0 < len(kept) <= scoring.OPTIONS_KEPT
    assert scoring.scoring_options(first).target == base.target + 10
    assert scoring.scoring_options(first) is scoring.scoring_options(first)


def test_scoring_options_equal_as_their_rules_and_read_the_deal() -> None:
    """The options are equal, and hash alike, when read from equal rules (the lucky hands'
    cache is keyed by them, as by value: a rebuilt options object finds its entries); they
    carry the deal's options (R-3.3, R-3.4, R-4.1), which the engine reads from them, and give
    the lucky hands the rules give."""
    from dataclasses import replace

    from roppyakken.rules import PRESETS
    from roppyakken.scoring import ScoringOptions
    from roppyakken.yaku import lucky_hands_held

    base = preset("classic")
    options = ScoringOptions(base)
    again = ScoringOptions(replace(base))
    assert options == again and hash(options) == hash(again) and options is not again
    assert options != ScoringOptions(replace(base, target=base.target + 10))
    assert options != base
    assert {options: 1}[again] == 1
    changed = replace(base, table_four="dealer_takes", hand_four="optional", declare="auto")
    read = ScoringOptions(changed)
    assert (read.table_four, read.hand_four, read.declare_auto) == ("dealer_takes", "optional", True)
    assert (options.table_four, options.hand_four, options.declare_auto) == ("redeal", "redeal", False)
    for name in PRESETS:  # and the card play's options, which Round.read_options takes from them
        rules = preset(name)
        read = ScoringOptions(rules)
        assert (read.immediate_win, read.joker_card, read.joker_wild_on_table, read.auto_capture_higher) == (
            rules.instant_win == "immediate",
            rules.joker_card,
            rules.joker_wild_on_table,
            rules.auto_capture_higher,
        )
    hand = 0b111 | 0b111 << 4  # two months' three cards: double-hand-three
    assert lucky_hands_held(options, hand) == lucky_hands_held(base, hand) != []
