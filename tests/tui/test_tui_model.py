"""The terminal game's plain parts: yaku progress (R-8), help text from the rules, board steps,
seats and saves, record scripts, card faces."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from roppyakken import text as text_module
from roppyakken.ai.base import BOT_LEVELS, make_bot
from roppyakken.ai.driver import play_out
from roppyakken.cards import KIND, NUM_CARDS, POINTS, RIBBON_MASK, card_id, iter_cards, mask_of
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.events import Played, Turned
from roppyakken.record import record_of, save
from roppyakken.rules import PRESETS, preset
from roppyakken.tui import helptext
from roppyakken.tui import text as t
from roppyakken.tui.board import board_of, frames
from roppyakken.tui.progress import DONE, GONE, OPEN, yaku_progress
from roppyakken.tui.session import (
    HUMAN,
    UNNAMED,
    RecordScript,
    Seat,
    display_names,
    new_save_path,
    parse_seats,
    resume,
    save_dir,
    save_game,
    seat_from_record_name,
)
from roppyakken.view import view_of
from tests.harness.support import require_module


@pytest.fixture(autouse=True)
def in_english() -> Iterator[None]:
    """Every test starts in English, whatever a test before it left (``--lang`` sets the language)."""
    from roppyakken import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


def cards(*slugs: str) -> int:
    """A mask from slugs."""
    return mask_of(card_id(s) for s in slugs)


def progress_of(rules_name: str, captures: list[int]) -> dict[str, tuple[tuple[int, ...], tuple[str, ...]]]:
    """slug -> (held, status) per seat."""
    return {p.slug: (p.held, p.status) for p in yaku_progress(preset(rules_name), captures)}


# ---------------------------------------------------------------- yaku progress


def test_progress_counts_held_cards_and_marks_gone_and_done() -> None:
    """R-8.1: held/needed per seat; a needed card in another's captures makes it gone."""
    mine = cards("pine-crane", "cherry-curtain", "chrysanthemum-sake", "pampas-moon")
    theirs = cards("paulownia-phoenix", "plum-warbler")
    p = progress_of("classic", [mine, theirs])
    assert p["four-brights"] == ((3, 1), (GONE, GONE))
    assert p["cannon"] == ((3, 0), (DONE, GONE))
    assert p["flower-viewing"][1] == (DONE, GONE)
    assert p["great-three"] == ((2, 1), (GONE, GONE))
    assert p["red-poems"] == ((0, 0), (OPEN, OPEN))


def test_progress_lists_only_enabled_yaku_in_display_order() -> None:
    """R-8.2: a preset without Four Brights has no such row."""
    slugs = [p.slug for p in yaku_progress(preset("yamayaku"), [0, 0])]
    assert "four-brights" not in slugs and "seven-ribbons" not in slugs
    assert slugs == [s for s in slugs if s in preset("yamayaku").yaku]


def test_four_brights_needs_the_warbler_in_yukbaek() -> None:
    """R-8.4: with four_brights_needs_warbler, Four Brights needs five cards."""
    four = next(p for p in yaku_progress(preset("yukbaek"), [0, 0]) if p.slug == "four-brights")
    assert four.needed == 5
    gone = next(
        p for p in yaku_progress(preset("yukbaek"), [0, cards("plum-warbler")]) if p.slug == "four-brights"
    )
    assert gone.status == (GONE, OPEN)


def test_seven_ribbons_counts_ribbons_and_is_gone_when_too_few_remain() -> None:
    """R-8.4: any 7 of the 10 ribbons; 4 in another's captures leave only 6."""
    ribbons = list(iter_cards(RIBBON_MASK))
    theirs = mask_of(ribbons[:4])
    mine = mask_of(ribbons[4:6])
    seven = next(p for p in yaku_progress(preset("classic"), [mine, theirs]) if p.slug == "seven-ribbons")
    assert seven.held == (2, 4) and seven.needed == 7
    assert seven.status == (GONE, OPEN)
    assert seven.missing[1] == RIBBON_MASK & ~theirs & ~mine


def test_seven_ribbons_options() -> None:
    """R-8.4: exclude leaves 9 countable ribbons; require makes the Willow ribbon a must."""
    willow = cards("willow-ribbon")
    excluded = preset("classic").with_options({"seven_ribbons_willow": "exclude"})
    seven = next(p for p in yaku_progress(excluded, [willow, 0]) if p.slug == "seven-ribbons")
    assert seven.held == (0, 0)
    required = next(p for p in yaku_progress(preset("yukbaek"), [0, willow]) if p.slug == "seven-ribbons")
    assert required.status == (GONE, OPEN)
    seven_mine = mask_of(list(iter_cards(RIBBON_MASK))[:7])
    done = next(p for p in yaku_progress(preset("classic"), [seven_mine, 0]) if p.slug == "seven-ribbons")
    assert done.status == (DONE, GONE)


# ---------------------------------------------------------------- help text from the rules


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_help_is_generated_for_every_preset(name: str) -> None:
    """Every preset gets the how-to-play, yaku, card and option texts, naming its target."""
    rules = preset(name)
    players = 2
    play = helptext.how_to_play(rules, players)
    assert f"**{rules.target}**" in play
    yaku = helptext.yaku_and_lucky_hands(rules)
    for slug, points in rules.yaku.items():
        assert f"| {points} |" in yaku, slug
    assert "Paulownia" in helptext.card_values(rules)
    assert rules.preset in helptext.all_options(rules)


def test_help_follows_the_options() -> None:
    """The help says what the options say: deal sizes, joker, fuke, match, lucky hands."""
    assert "**10** cards" in helptext.how_to_play(preset("ten-card"), 2)
    assert "**7** cards" in helptext.how_to_play(preset("classic"), 3)
    assert "Willow Lightning** is the joker" in helptext.how_to_play(preset("lightning"), 2)
    assert "Fuke" not in helptext.how_to_play(preset("classic"), 2)
    assert "nobody scores" in helptext.how_to_play(preset("fuke"), 2)
    assert "**3** games" in helptext.how_to_play(preset("marguerite"), 2)
    assert "31" in helptext.how_to_play(preset("wikipedia"), 2)
    assert t.RULES_NO_LUCKY in helptext.yaku_and_lucky_hands(preset("yukbaek"))
    assert "Hand Four" in helptext.yaku_and_lucky_hands(preset("sambong"))
    assert "Hand Four" in helptext.yaku_and_lucky_hands(preset("korean-high"))  # hand_four = play
    assert "Hand Four" not in helptext.yaku_and_lucky_hands(
        preset("korean-high").with_options({"hand_four": "redeal"})
    )
    assert "Four Brights" not in helptext.yaku_and_lucky_hands(preset("yamayaku"))
    assert "Rain-off" in helptext.yaku_and_lucky_hands(preset("online"))


def test_house_rules_are_named_as_such() -> None:
    """A rule set that differs from its preset is introduced as house rules."""
    house = preset("classic").with_options({"target": 900})
    assert helptext.is_house_rules(house) and not helptext.is_house_rules(preset("classic"))
    assert "House rules" in helptext.rules_intro(house)
    assert "**900**" in helptext.how_to_play(house, 2)


# ---------------------------------------------------------------- board steps


@pytest.mark.parametrize(
    ("name", "players", "seed"), [("classic", 2, 3), ("classic", 3, 5), ("changara", 2, 9)]
)
def test_board_steps_end_where_the_game_is(name: str, players: int, seed: int) -> None:
    """Showing each event's steps from the board before it gives the board after it."""
    game = Game(preset(name), players, seed)
    bots = [make_bot("random", s) for s in range(players)]
    viewer = 0
    steps = 0
    while not game.over and steps < 400:
        before = board_of(game, viewer)
        round_before = game.round
        events = game.apply(bots[game.to_act].choose(view_of(game, game.to_act)))
        board = before
        for event in events:
            for frame in frames(board, event):
                board = frame
        if game.round == round_before and not game.over:
            after = board_of(game, viewer)
            assert board.without_marks().table == after.table
            assert board.captures == after.captures
            assert board.hands[viewer] == after.hands[viewer]
            assert board.hand_sizes == after.hand_sizes
            assert board.pile_count == after.pile_count
            assert board.turned == after.turned
        steps += 1


def test_a_move_is_shown_in_two_steps() -> None:
    """A card played with a capture: first on its way with its target marked, then captured."""
    game = Game(preset("classic"), 2, 3)
    board = board_of(game, 0)
    table_card = next(iter_cards(board.table))
    event = Played(0, "pile", card_id("pine-crane"), 1 << table_card)
    first, second = frames(board, event)
    assert first.in_play == card_id("pine-crane") and first.taking == 1 << table_card
    assert first.pile_count == board.pile_count - 1
    assert second.in_play == -1 and second.captures[0] >> table_card & 1
    assert not second.table >> table_card & 1
    (turned,) = frames(board, Turned(0, card_id("pine-crane")))
    assert turned.turned == card_id("pine-crane") and turned.pile_count == board.pile_count - 1


def test_a_board_never_shows_another_seats_hand() -> None:
    """Hidden information: the board of seat 0 holds no card of seat 1's hand."""
    game = Game(preset("classic"), 2, 3)
    board = board_of(game, 0)
    assert board.hands[1] == 0 and board.hands[0] == game.hands[0]
    assert board_of(game, 0, show_all=True).hands[1] == game.hands[1]


# ---------------------------------------------------------------- seats, saves, records


def test_seats_from_the_command_line() -> None:
    """--bots: one level for every opponent, 'human' for hot seat, clear errors."""
    level = next(iter(BOT_LEVELS))
    assert parse_seats(level, 3) == [Seat(HUMAN, UNNAMED), Seat(level), Seat(level)]
    seats = parse_seats(f"{level},human", 3)
    assert seats == [Seat(HUMAN, "Player 1"), Seat(level), Seat(HUMAN, "Player 3")]
    with pytest.raises(RoppyakkenError, match="unknown opponent 'nobody'"):
        parse_seats("nobody", 2)
    with pytest.raises(RoppyakkenError, match="give 1 opponent"):
        parse_seats(f"{level},{level}", 2)
    with pytest.raises(RoppyakkenError, match="name"):
        parse_seats(level, 2, name="bot:me")


def test_names_and_record_names() -> None:
    """Bots are 'bot:LEVEL' in records (FORMATS.md §3) and 'Level bot' at the table."""
    level = next(iter(BOT_LEVELS))
    assert Seat(level).record_name == f"bot:{level}"
    assert seat_from_record_name(f"bot:{level}") == Seat(level)
    assert seat_from_record_name("Ann") == Seat(HUMAN, "Ann")
    with pytest.raises(RoppyakkenError, match="unknown level"):
        seat_from_record_name("bot:nonexistent")
    names = display_names([Seat(HUMAN, "Ann"), Seat(level), Seat(level)])
    assert names[0] == "Ann" and names[1] != names[2]


def test_the_unnamed_human_is_saved_as_a_marker_and_called_you_in_the_language_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game saved in Japanese by the human who gave no name resumes in Korean calling them 나
    (and lists as 나 대 …); older saves that wrote "You" in some language read the same."""
    from roppyakken import i18n
    from roppyakken.tui.session import resumable_saves

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    level = next(iter(BOT_LEVELS))
    game = Game(preset("classic"), 2, 4)
    rng = random.Random(4)
    for _ in range(4):
        game.apply(rng.choice(game.legal_actions()))
    try:
        i18n.set_language("ja")
        seats = parse_seats(level, 2)
        assert display_names(seats)[0] == "あなた"
        path = save_game(save_dir() / "a.json", game, seats)
        assert json.loads(path.read_text())["players"] == ["", f"bot:{level}"]
        i18n.set_language("ko")
        _game, resumed = resume(path)
        assert resumed == seats and display_names(resumed)[0] == "나"
        old = json.loads(path.read_text())
        for written in ("あなた", "You", "Vous"):  # saved before the marker, in some language
            old["players"][0] = written
            path.write_text(json.dumps(old))
            assert resume(path)[1][0] == Seat(HUMAN, UNNAMED), written
            [(label, _path)] = resumable_saves()
            assert label.split(" – ")[-1].startswith("나 대 "), label
        i18n.set_language("en")
        assert display_names(resume(path)[1])[0] == "You"
        assert display_names([Seat(HUMAN, "Ann")]) == ["Ann"]
    finally:
        i18n.set_language("en")


def test_saves_go_to_the_xdg_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves live in $XDG_DATA_HOME/roppyakken/saves, or ~/.local/share/… without it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert save_dir() == tmp_path / "data" / "roppyakken" / "saves"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert save_dir() == tmp_path / "home" / ".local" / "share" / "roppyakken" / "saves"
    first = new_save_path(0)
    first.parent.mkdir(parents=True)
    first.write_text("{}")
    assert new_save_path(0) != first


def test_save_and_resume_round_trip(tmp_path: Path) -> None:
    """A saved unfinished game resumes at the same position with the same seats."""
    game = Game(preset("classic"), 2, 4)
    bots = [make_bot("random", 1), make_bot("random", 2)]
    for _ in range(5):
        game.apply(bots[game.to_act].choose(view_of(game, game.to_act)))
    level = next(iter(BOT_LEVELS))
    seats = [Seat(HUMAN, "Ann"), Seat(level)]
    path = save_game(tmp_path / "a" / "game.json", game, seats)
    resumed, resumed_seats = resume(path)
    assert resumed_seats == seats
    assert (resumed.hands, resumed.table, resumed.captures) == (game.hands, game.table, game.captures)
    assert json.loads(path.read_text())["players"] == ["Ann", f"bot:{level}"]


def test_a_finished_game_cannot_be_resumed(tmp_path: Path) -> None:
    """Resuming a finished game says to watch it instead."""
    game = play_out(Game(preset("sanbyakuken"), 2, 2), [make_bot("random", 1), make_bot("random", 2)])
    path = tmp_path / "done.json"
    save(path, game, ["a", "b"])
    with pytest.raises(RoppyakkenError, match="--watch"):
        resume(path)


@pytest.mark.parametrize(
    ("name", "players", "seed"), [("classic", 2, 6), ("marguerite", 3, 2), ("changara", 2, 5)]
)
def test_record_script_replays_the_same_game(name: str, players: int, seed: int) -> None:
    """Answering each decision from the record reproduces the recorded game exactly."""
    bots = [make_bot("random", s + 10) for s in range(players)]
    original = play_out(Game(preset(name), players, seed), bots)
    script = RecordScript(record_of(original, [f"p{i}" for i in range(players)]))
    game = script.start()
    while not script.finished(game):
        game.apply(script.next_action(game))
    assert game.over and game.winner == original.winner
    assert [h.totals for h in game.history] == [h.totals for h in original.history]
    assert [h.plays for h in game.history] == [h.plays for h in original.history]


# ---------------------------------------------------------------- card faces


def test_every_card_face_is_three_lines_of_seven_cells_and_readable_without_colour() -> None:
    """Each face shows month number, kind letter and points in plain text."""
    require_module("rich", "pip install 'roppyakken[tui]'")
    from roppyakken.tui.cardface import CARD_WIDTH, card_lines, stack_lines

    joker = card_id("willow-rainman")
    for card in range(NUM_CARDS):
        lines = card_lines(card, joker)
        assert len(lines) == 3 and all(len(line) == CARD_WIDTH for line in lines)
        assert lines[0].strip().startswith(str(card // 4 + 1))
        assert lines[2][0] == t.KIND_LETTERS[KIND[card]]
        assert lines[2].strip().endswith(str(POINTS[card]))
        assert ("*" in lines[2]) == (card == joker)
    stack = stack_lines(cards("iris-bridge", "iris-chaff-1", "iris-chaff-2"))
    assert stack[1] == "stack×3" and stack[2].startswith("ACC") and stack[2].strip().endswith("10")
    assert all(len(line) == CARD_WIDTH for line in stack)


def test_card_names_are_unique_but_for_plain_chaff() -> None:
    """Every card but the plain chaff pairs has its own name."""
    names = [t.card_name(c) for c in range(NUM_CARDS)]
    twins = {n for n in names if names.count(n) > 1}
    assert all(n.endswith("chaff") for n in twins)
    rng = random.Random(0)
    assert t.cards_phrase([]) == "nothing"
    picked = rng.sample(names, 3)
    assert t.cards_phrase(picked) == f"{picked[0]}, {picked[1]} and {picked[2]}"
    assert t.say(t.EVENT_GAME_ENDED, "You") == "You win!"
    assert t.say(t.EVENT_GAME_ENDED, "Ann") == "Ann wins!"


def test_strip_lines_break_between_fields_only() -> None:
    """at any width, the captures line wraps between kinds, never inside one."""
    from rich.text import Text

    from roppyakken.tui.widgets import capture_fields, pack

    captured = mask_of(c for c in range(NUM_CARDS) if c % 3)  # every kind, long fields
    fields = capture_fields(captured)
    for width in (40, 60, 80, 100):
        lines = pack(fields, width, sep=" │ ", indent="  ")
        parts = [p.strip() for line in lines for p in line.plain.split(" │ ")]
        assert parts == [f.plain for f in fields], width
        assert all(line.cell_len <= width for line in lines if " │ " in line.plain), width
    assert len(pack([Text("a"), Text("b")], 80, sep=" · ")) == 1


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_the_chaff_field_names_only_the_special_chaff_in_every_language(lang: str) -> None:
    """plain chaff is counted, not named (``+ivraie+ivraie`` filled French lines), in each language."""
    from roppyakken.i18n import set_language
    from roppyakken.tui import text as t
    from roppyakken.tui.widgets import capture_fields

    chaff = ["pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "paulownia-yellow"]
    ribbons = ["pine-ribbon", "peony-ribbon"]
    set_language(lang)
    try:
        fields = [f.plain for f in capture_fields(mask_of(card_id(s) for s in chaff + ribbons))]
        yellow = t.CARD_SUBJECTS[card_id("paulownia-yellow")]
        poem_mark = "·" + t.CARD_SUBJECTS[card_id("pine-ribbon")][0].lower()
    finally:
        set_language("en")
    shown_chaff, shown_ribbons = fields[-1], fields[-2]
    assert yellow in shown_chaff and shown_chaff.count("+") == 1, shown_chaff  # one card named
    assert shown_ribbons.count(poem_mark) == 1 and "·" in shown_ribbons.split()[-1], shown_ribbons


def test_running_round_score_counts_yaku_and_lucky_hands() -> None:
    """the strip shows what the round is worth so far, yaku included (R-7.2)."""
    from roppyakken.tui.widgets import round_score_text

    rules = preset("classic")
    poems = [card_id(s) for s in ("pine-ribbon", "plum-ribbon", "cherry-ribbon")]
    captured = mask_of(poems)
    yaku = dict(rules.table.evaluate(captured, poems))
    assert "red-poems" in yaku
    want = 30 + sum(yaku.values())
    assert (
        round_score_text(rules, captured, poems, []) == f"round {want} = cards 30 + yaku {sum(yaku.values())}"
    )
    assert round_score_text(rules, mask_of(poems[:1]), poems[:1], []) == "round 10"
    lucky = rules.lucky_hands["hand-three"]
    assert round_score_text(rules, 0, [], ["hand-three"]) == f"round {lucky} = cards 0 + lucky {lucky}"


def test_fuke_exemption_reads_or() -> None:
    """a round where someone completes Four Brights OR Seven Ribbons is never void."""
    rules = preset("fuke")
    exempt = [s for s in rules.fuke_exempt if s in rules.yaku]
    play = helptext.how_to_play(rules, 2)
    assert len(exempt) == 2
    line = next(line for line in play.splitlines() if "never void" in line)
    assert " or " in line and " and " not in line, line
    assert t.or_phrase(["a", "b", "c"]) == "a, b or c"


def test_saved_games_are_listed_by_what_they_hold_and_finished_ones_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """the new-game screen's list names the players and the round, not the file."""
    from roppyakken.tui.session import resumable_saves, save_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    rules = preset("classic")
    unfinished = Game(rules, 2, 4)
    rng = random.Random(4)
    for _ in range(6):
        unfinished.apply(rng.choice(unfinished.legal_actions()))
    finished = Game(rules, 2, 5)
    play_out(finished, [make_bot("random", 1), make_bot("random", 2)])
    folder = save_dir()
    folder.mkdir(parents=True)
    save(folder / "a.json", unfinished, ["You", "bot:greedy"])
    save(folder / "b.json", finished, ["You", "bot:random"])
    (folder / "c.json").write_text("not json")
    listed = resumable_saves()
    assert [p.name for _, p in listed] == ["a.json"]
    label = listed[0][0]
    assert "You vs Greedy bot" in label and "round 1" in label and "a.json" not in label


def test_still_missing_marks_hand_cards_and_leaves_out_yaku_out_of_reach() -> None:
    """a card in your hand is marked, and a yaku needing a card nobody can capture
    any more (its month's other cards all captured, and no joker for it) is not listed."""
    from roppyakken.tui.widgets import missing_lines, out_of_reach

    rules = preset("classic")
    c = card_id
    # Seat 1 holds three Cherry cards: the Cherry curtain can no longer be captured by anyone
    # but the joker (it is worth 50, so the Rain Man could take it while it is free).
    captures = [
        mask_of([c("pine-crane")]),
        mask_of([c("cherry-ribbon"), c("cherry-chaff-1"), c("cherry-chaff-2")]),
    ]
    assert not out_of_reach(rules, captures) >> c("cherry-curtain") & 1
    assert any(line.startswith("Four Brights") for line in missing_lines(rules, captures, "You", 0))
    captures[1] |= 1 << c("willow-rainman")
    assert out_of_reach(rules, captures) >> c("cherry-curtain") & 1
    hand = mask_of([c("pampas-moon")])
    lines = missing_lines(rules, captures, "You", 0, hand)
    joined = "\n".join(lines)
    assert "Four Brights" not in joined  # needs the unreachable Cherry curtain
    moon = next(line for line in lines if line.startswith("Moon Viewing"))
    assert "Pampas Moon (in hand)" in moon


@pytest.mark.parametrize("lang", ["en", "fr", "ko", "pt-BR", "es", "de", "zh-Hant"])
def test_still_missing_names_each_card_whole(lang: str) -> None:
    """The lines of what a yaku still needs have the width to name each card whole
    (Paulownia Phoenix, not the card face's "Paul Phoenix"; Glycine, not "Glyc")."""
    from roppyakken import i18n
    from roppyakken.text import card_name
    from roppyakken.tui.widgets import missing_lines

    rules = preset("classic")
    captures = [mask_of([card_id("pine-crane"), card_id("cherry-curtain")]), 0]
    i18n.set_language(lang)
    try:
        joined = "\n".join(missing_lines(rules, captures, "You", 0, mask_of([card_id("wisteria-ribbon")])))
        for slug in ("paulownia-phoenix", "pampas-moon", "wisteria-ribbon"):
            assert card_name(card_id(slug)) in joined, (slug, joined)
        for short in t.MONTH_SHORT:
            if short not in (i18n._(m) for m in text_module.MONTH_NAMES):  # a cut month name
                assert not re.search(rf"(?<!\w){re.escape(short)}(?!\w)", joined), (short, joined)
    finally:
        i18n.set_language("en")
