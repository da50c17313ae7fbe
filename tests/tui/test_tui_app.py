"""The terminal game driven headless by key presses (Textual's pilot): whole games, targets,
lucky hands, hot seat, save and resume, replays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.containers import VerticalScroll
from textual.pilot import Pilot

from roppyakken.actions import DECLARE, PLAY, Play
from roppyakken.cards import card_id, mask_of
from roppyakken.engine import Game
from roppyakken.record import load, record_of
from roppyakken.rules import Rules, preset
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.dialogs import DeclareScreen, HandoffScreen, QuitScreen
from roppyakken.tui.screens.info import HelpScreen, LogScreen, YakuScreen
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
from roppyakken.tui.screens.table import TableScreen
from roppyakken.tui.session import HUMAN, UNNAMED, GameSetup, RecordScript, Seat, resume
from roppyakken.tui.table.choosing import CARD, CHOOSE_TAKE, TARGET, TARGET_KEYS, table_slots
from roppyakken.tui.testing import press, shown_text, wait_until
from tests.harness.tui_pilot import enter_until, run, table, vs_random, waiting_for_me


def first_seed(predicate: Callable[[Game], bool], rules_name: str = "classic") -> int:
    """The first seed whose new 2-player game satisfies ``predicate`` (keeps tests independent of
    the exact shuffles)."""
    rules = preset(rules_name)
    for seed in range(1000):
        if predicate(Game(rules, 2, seed)):
            return seed
    raise AssertionError("no such seed")


def my_turn(rules: Rules, mine: list[int], on_table: list[int], turned: int | None = None) -> Game:
    """A 2-player position with seat 0 to play: ``mine`` in its hand, the two Maple chaff in the
    other's, ``on_table`` on the table, and ``turned`` (if given) the next card of the pile."""
    my_hand, table_cards = mask_of(mine), mask_of(on_table)
    other = mask_of([card_id("maple-chaff-1"), card_id("maple-chaff-2")])
    used = my_hand | other | table_cards
    rest = [c for c in range(48) if not used >> c & 1 and c != turned]
    return Game.from_position(
        rules,
        hands=[my_hand, other],
        table=table_cards,
        pile=rest if turned is None else [turned, *rest],
        captures=[0, 0],
        orders=[[], []],
        declared=[[], []],
        phase=PLAY,
        to_act=0,
        dealer=0,
    )


def test_whole_game_against_a_bot_by_key_presses() -> None:
    """A whole game, every decision by a key press, to the end screen (R-9.1)."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, Game, int]:
        presses = await enter_until(pilot, app, GameOverScreen, 500)
        return await shown_text(pilot, app), table(app).game, presses

    text, game, presses = run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=11), pace="instant"), script)
    assert game.over and game.winner is not None
    assert " win" in text and "n: new game" in text, text
    assert presses >= 8  # at least a round of cards was played by hand


def test_three_players_game_to_its_end() -> None:
    """Three players: the table fits at 80×24 and a game reaches its end."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: waiting_for_me(app))
        first = await shown_text(pilot, app)
        while not isinstance(app.screen, GameOverScreen):
            await wait_until(pilot, lambda: waiting_for_me(app))
            if not isinstance(app.screen, GameOverScreen):
                await press(pilot, "enter")
        assert table(app).game.over
        return first

    first = run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=4, players=3), pace="instant"), script)
    lines = first.splitlines()
    assert len(lines) <= 24
    assert sum("Random bot" in line for line in lines) >= 2  # both opponents' strips are on screen


def test_choosing_among_two_targets() -> None:
    """R-5.3: a card with two targets asks which; Tab moves to the second, Enter takes it."""

    def two_targets(game: Game) -> bool:
        if game.phase != PLAY or game.to_act != 0:
            return False
        by_card: dict[int, list[int]] = {}
        for a in game.legal_actions():
            if isinstance(a, Play):
                by_card.setdefault(a.card, []).append(a.target)
        return any(len(ts) == 2 and all(t.bit_count() == 1 for t in ts) for ts in by_card.values())

    seed = first_seed(two_targets)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        screen = table(app)
        game = screen.game
        hand = screen.state.choosing.hand_cards
        index = next(i for i, c in enumerate(hand) if len(screen.state.choosing.legal_by_card[c]) == 2)
        card = hand[index]
        second = screen.state.choosing.legal_by_card[card][1]
        await press(pilot, str(index + 1))
        assert "can take one of 2" in await shown_text(pilot, app)
        await press(pilot, "enter")
        assert screen.mode == TARGET
        text = await shown_text(pilot, app)
        assert "▶a◀" in text and "▲b" in text
        await press(pilot, "tab")
        assert "▶b◀" in await shown_text(pilot, app)
        await press(pilot, "enter")
        await wait_until(pilot, lambda: bool(game.captures[0]))
        assert game.captures[0] & second and game.captures[0] >> card & 1

    run(RoppyakkenApp(setup=vs_random(seed=seed), pace="instant"), script)


def test_escape_goes_back_and_letters_pick_a_target() -> None:
    """Esc returns to choosing a card; a target's letter takes it at once."""
    rules = preset("classic")
    crane, ribbon, chaff = card_id("pine-crane"), card_id("pine-ribbon"), card_id("pine-chaff-1")
    game = my_turn(rules, [crane, card_id("iris-chaff-1")], [ribbon, chaff], card_id("peony-chaff-1"))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        screen = table(app)
        await press(pilot, "1", "enter")
        assert screen.mode == TARGET
        await press(pilot, "escape")
        assert screen.mode == CARD
        await press(pilot, "enter", "b")
        await wait_until(pilot, lambda: bool(game.captures[0]))
        assert game.captures[0] == mask_of([crane, chaff])

    run(RoppyakkenApp(resumed=(game, [Seat(HUMAN, "You"), Seat("random")]), pace="instant"), script)


def test_turned_up_card_with_two_targets_is_a_second_step() -> None:
    """R-5.5: when the turned-up card has two targets, the player chooses after playing."""
    rules = preset("classic")
    warbler, plum_ribbon, plum_chaff = (
        card_id("plum-warbler"),
        card_id("plum-ribbon"),
        card_id("plum-chaff-1"),
    )
    irises = [card_id("iris-chaff-1"), card_id("iris-chaff-2")]
    game = my_turn(rules, irises, [warbler, plum_ribbon], plum_chaff)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "enter")  # an Iris chaff goes to the table; the Plum chaff is turned up
        screen = table(app)
        await wait_until(pilot, lambda: screen.mode == CHOOSE_TAKE)
        text = await shown_text(pilot, app)
        assert "turned" in text and "Turned up Plum chaff" in text
        await press(pilot, "right", "enter")
        await wait_until(pilot, lambda: bool(game.captures[0]))
        assert game.captures[0] == mask_of([plum_chaff, plum_ribbon])

    run(RoppyakkenApp(resumed=(game, [Seat(HUMAN, "You"), Seat("random")]), pace="instant"), script)


def test_declaring_a_lucky_hand() -> None:
    """R-4.1: a held lucky hand is offered with its points; Enter declares it."""
    seed = first_seed(lambda g: g.phase == DECLARE and g.to_act == 0)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, list[str]]:
        await wait_until(pilot, lambda: isinstance(app.screen, DeclareScreen))
        text = await shown_text(pilot, app)
        game = table(app).game
        held = [h.slug for h in game.held_lucky_hands(0)]
        await press(pilot, "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, DeclareScreen))
        assert game.declared[0] == held
        return text, held

    text, held = run(RoppyakkenApp(setup=vs_random(seed=seed), pace="instant"), script)
    values = preset("classic").lucky_hands
    assert f"{values[held[0]]} points" in text


def test_declining_a_lucky_hand() -> None:
    """Unticking the hand (its number) and confirming declares nothing."""
    seed = first_seed(lambda g: g.phase == DECLARE and g.to_act == 0 and len(g.held_lucky_hands(0)) == 1)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        await wait_until(pilot, lambda: isinstance(app.screen, DeclareScreen))
        await press(pilot, "1", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, DeclareScreen))
        return table(app).game.declared[0]

    assert run(RoppyakkenApp(setup=vs_random(seed=seed), pace="instant"), script) == []


def test_save_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """s saves to the data folder; the saved game resumes at the same position."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    seed = first_seed(lambda g: g.phase == PLAY and g.to_act == 0)

    async def play_and_save(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[int, int]:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "enter")  # one card
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "s")
        # Right after saving, quitting does not warn that the game is unsaved.
        await press(pilot, "q")
        assert isinstance(app.screen, QuitScreen)
        asked = await shown_text(pilot, app)
        assert "nothing has happened since" in asked and "unsaved" not in asked, asked
        await press(pilot, "escape")
        game = table(app).game
        return game.hands[0], game.table

    hand, table_cards = run(RoppyakkenApp(setup=vs_random(seed=seed), pace="instant"), play_and_save)
    saves = list((tmp_path / "roppyakken" / "saves").glob("*.json"))
    assert len(saves) == 1
    game, seats = resume(saves[0])
    assert (game.hands[0], game.table) == (hand, table_cards)
    assert seats == [Seat(HUMAN, UNNAMED), Seat("random")]

    async def resumed(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: waiting_for_me(app))
        return await shown_text(pilot, app)

    async def resumed_log(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        await wait_until(pilot, lambda: waiting_for_me(app))
        return list(table(app).state.log_lines)

    text = run(RoppyakkenApp(resumed=(game, seats), save_path=saves[0], pace="instant"), resumed)
    assert "Game resumed" in text
    assert "hand 7" in text  # one card played before saving
    # The log is rebuilt from the saved game: the deal and the plays before the save.
    log = run(RoppyakkenApp(resumed=(game, seats), save_path=saves[0], pace="instant"), resumed_log)
    assert any("deal" in line for line in log) and any("plays" in line for line in log), log
    assert "Game resumed" in log[-1] or any("Game resumed" in line for line in log)


def test_quit_asks_and_can_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """q asks first; Esc cancels; s saves and quits."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "q")
        assert isinstance(app.screen, QuitScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, TableScreen | DeclareScreen)
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await press(pilot, "q", "s")
        await pilot.pause()

    run(RoppyakkenApp(setup=vs_random(seed=5), pace="instant"), script)
    assert len(list((tmp_path / "roppyakken" / "saves").glob("*.json"))) == 1


def test_help_yaku_and_log_screens_open_and_close() -> None:
    """?, y and l open their screens; Esc closes them."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> dict[str, str]:
        await wait_until(pilot, lambda: waiting_for_me(app))
        if isinstance(app.screen, DeclareScreen):
            await press(pilot, "enter")
            await wait_until(pilot, lambda: waiting_for_me(app))
        texts = {}
        for key, kind in (("question_mark", HelpScreen), ("y", YakuScreen), ("l", LogScreen)):
            await press(pilot, key)
            await wait_until(pilot, lambda kind=kind: isinstance(app.screen, kind))  # type: ignore[misc]
            await pilot.pause()
            texts[key] = await shown_text(pilot, app)
            await press(pilot, "escape")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        return texts

    texts = run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=2), pace="instant"), script)
    assert "300" in texts["question_mark"]  # the help tells this preset's target
    assert "Four Brights" in texts["y"] and "0/4" in texts["y"]
    assert "Round 1" in texts["l"]


def test_new_game_screen_starts_a_game_and_refuses_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new-game screen: an unusable house-rules file is refused in words; Start starts."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        from textual.widgets import Input

        screen.query_one("#rules-file", Input).value = str(tmp_path / "missing.toml")
        screen.action_start()
        await pilot.pause()
        error = await shown_text(pilot, app)
        screen.query_one("#rules-file", Input).value = ""
        screen.query_one("#seed", Input).value = "12"
        await press(pilot, "enter")  # the Start button has the focus
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen | DeclareScreen))
        assert table(app).game.seed == 12
        return error

    error = run(RoppyakkenApp(pace="instant"), script)
    assert "not found" in error


def test_hot_seat_hides_hands_between_people() -> None:
    """Two people at one keyboard: a cover screen before each person's turn, names become Player 1/2."""
    setup = GameSetup(preset("classic"), (Seat(HUMAN, "Player 1"), Seat(HUMAN, "Player 2")), 3)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        covers = []
        for _ in range(3):
            await wait_until(pilot, lambda: isinstance(app.screen, HandoffScreen))
            text = await shown_text(pilot, app)
            assert "░" not in text and " 1 Pine" not in text  # no card is visible
            covers.append(text)
            await press(pilot, "enter")
            await wait_until(pilot, lambda: waiting_for_me(app) and not isinstance(app.screen, HandoffScreen))
            while isinstance(app.screen, DeclareScreen):
                await press(pilot, "enter")
                await wait_until(pilot, lambda: waiting_for_me(app))
            if isinstance(app.screen, HandoffScreen):
                continue
            await press(pilot, "enter")
        return covers

    covers = run(RoppyakkenApp(setup=setup, pace="instant"), script)
    assert any("Player 1" in c for c in covers) and any("Player 2" in c for c in covers)


def test_replay_watch_steps_through_a_record(tmp_path: Path) -> None:
    """A finished record steps to its end screen in the table view."""
    from roppyakken.ai.base import make_bot
    from roppyakken.ai.driver import play_out

    game = play_out(Game(preset("sanbyakuken"), 2, 8), [make_bot("random", 1), make_bot("random", 2)])
    record = record_of(game, ["bot:random", "Ann"])
    script_ = RecordScript(record)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table(app)
        first = await shown_text(pilot, app)
        assert "replay" in first
        for _ in range(4):  # step by step: → applies the next recorded decision
            before = len(screen.game.events)
            await press(pilot, "right")
            await wait_until(pilot, lambda before=before: len(screen.game.events) > before)  # type: ignore[misc]
        await press(pilot, "p")  # then play on by itself
        while not isinstance(app.screen, GameOverScreen):
            await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen | GameOverScreen))
            if isinstance(app.screen, RoundEndScreen):
                await press(pilot, "enter")
        assert screen.game.winner == game.winner
        assert screen.game.history[-1].totals == game.history[-1].totals
        boxed = await shown_text(pilot, app)
        await press(pilot, "escape")  # the table behind the box still says who won, once
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        return boxed + "\n=====\n" + await shown_text(pilot, app)

    boxed, after = run(RoppyakkenApp(script=script_, pace="instant"), script).split("\n=====\n")
    assert "wins" in boxed
    assert game.winner is not None
    winner = ["Random bot", "Ann"][game.winner]
    assert after.count("End of the record") == 1 and f"{winner} wins" in after, after


def test_replay_playing_on_by_itself_quits_with_q_wherever_it_is() -> None:
    """q during auto-play (p): the quit dialog stays on top (the replay waits behind it; a
    round's scores never cover it), and q on a round's scores asks to quit too."""
    from roppyakken.ai.base import make_bot
    from roppyakken.ai.driver import play_out

    game = play_out(Game(preset("classic"), 2, 8), [make_bot("random", 1), make_bot("random", 2)])
    script_ = RecordScript(record_of(game, ["bot:random", "Ann"]))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        seen = []
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table(app)
        await press(pilot, "p", "q")  # at the instant pace the round ends within moments
        await wait_until(pilot, lambda: isinstance(app.screen, QuitScreen))
        events = len(screen.game.events)
        for _ in range(20):
            await pilot.pause(0.02)
        seen.append(type(app.screen).__name__)
        assert len(screen.game.events) == events  # the replay waits behind the dialog
        await press(pilot, "escape")  # cancel: it plays on, to the round's scores
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        await press(pilot, "q")
        await wait_until(pilot, lambda: isinstance(app.screen, QuitScreen))
        seen.append(type(app.screen).__name__)
        await press(pilot, "q")
        await wait_until(pilot, lambda: not app.is_running)
        return seen

    seen = run(RoppyakkenApp(script=script_, pace="instant"), script)
    assert seen == ["QuitScreen", "QuitScreen"]


def test_replay_of_a_saved_unfinished_game_stops_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unfinished record replays up to where it was saved."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = Game(preset("classic"), 2, 21)
    from roppyakken.ai.base import make_bot

    bots = [make_bot("random", 1), make_bot("random", 2)]
    from roppyakken.view import view_of

    for _ in range(6):
        game.apply(bots[game.to_act].choose(view_of(game, game.to_act)))
    path = tmp_path / "unfinished.json"
    from roppyakken.record import save

    save(path, game, ["bot:random", "bot:random"])
    script_ = RecordScript(load(path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = table(app)
        app.screen.action_auto()  # type: ignore[attr-defined]
        await wait_until(pilot, lambda: screen.state.replay_done)
        assert screen.game.hands == game.hands and screen.game.table == game.table
        return await shown_text(pilot, app)

    assert "saved unfinished" in run(RoppyakkenApp(script=script_, pace="instant"), script)


def test_mouse_chooses_a_card_then_its_target() -> None:
    """Click a hand card to choose it, then a highlighted table card to take it."""

    def two_targets(game: Game) -> bool:
        if game.phase != PLAY or game.to_act != 0:
            return False
        counts: dict[int, int] = {}
        for a in game.legal_actions():
            if isinstance(a, Play) and a.target:
                counts[a.card] = counts.get(a.card, 0) + 1
        return 2 in counts.values()

    seed = first_seed(two_targets)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        screen = table(app)
        game = screen.game
        index = next(
            i
            for i, c in enumerate(screen.state.choosing.hand_cards)
            if len(screen.state.choosing.legal_by_card[c]) == 2
        )
        card = screen.state.choosing.hand_cards[index]
        second = screen.state.choosing.legal_by_card[card][1]
        await pilot.click("#hand", offset=(index * 8 + 2, 2))
        assert screen.state.choosing.sel == index and screen.mode == CARD
        slots = table_slots(game.table)
        where = slots.index(second)
        await pilot.click("#table", offset=(where * 8 + 2, 1))
        await wait_until(pilot, lambda: bool(game.captures[0]))
        assert game.captures[0] & second and game.captures[0] >> card & 1

    run(RoppyakkenApp(setup=vs_random(seed=seed), pace="instant"), script)


def test_layout_follows_the_terminal_size() -> None:
    """Narrower than 80 columns the hand wraps onto two rows; at 80×24 it fits one."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[int, int, int]:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen | DeclareScreen))
        hand = table(app).query_one("#hand")
        await pilot.pause()
        wide = hand.size.height
        await pilot.resize_terminal(50, 24)
        await pilot.pause()
        narrow = hand.size.height
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        return wide, narrow, hand.size.height

    wide, narrow, back = run(RoppyakkenApp(setup=vs_random(seed=4), pace="instant"), script)
    assert (wide, narrow, back) == (4, 8, 4)


def test_optional_redeal_is_asked() -> None:
    """R-3.4 optional: four of a month in hand asks whether to redeal; n plays on."""
    rules = preset("classic").with_options({"hand_four": "optional"})
    seed = next(s for s in range(2000) if (g := Game(rules, 2, s)).phase == "redeal" and g.to_act == 0)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        from roppyakken.tui.screens.dialogs import RedealScreen

        await wait_until(pilot, lambda: isinstance(app.screen, RedealScreen))
        text = await shown_text(pilot, app)
        game = table(app).game
        hand = game.hands[0]
        await press(pilot, "n")
        await wait_until(pilot, lambda: not isinstance(app.screen, RedealScreen))
        assert game.phase != "redeal" or game.to_act != 0
        assert game.round == 0 and game.hands[0] & hand
        return text

    setup = GameSetup(rules, (Seat(HUMAN, "You"), Seat("random")), seed)
    assert "call a redeal" in run(RoppyakkenApp(setup=setup, pace="instant"), script).lower()


def test_turned_up_card_between_equivalent_targets_takes_by_itself() -> None:
    """two Plum chaff give the same (0 points, the same yaku progress): no question."""
    rules = preset("classic")
    ribbon, chaff1, chaff2 = card_id("plum-ribbon"), card_id("plum-chaff-1"), card_id("plum-chaff-2")
    game = my_turn(rules, [card_id("iris-chaff-1"), card_id("iris-chaff-2")], [chaff1, chaff2], ribbon)

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> None:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "enter")  # an Iris chaff to the table; the Plum ribbon is turned up
        await wait_until(pilot, lambda: bool(game.captures[0]))
        assert game.captures[0] in (mask_of([ribbon, chaff1]), mask_of([ribbon, chaff2]))
        assert any("did not ask" in line for line in table(app).state.log_lines)

    run(RoppyakkenApp(resumed=(game, [Seat(HUMAN, "You"), Seat("random")]), pace="instant"), script)


def test_help_scrolls_at_once_and_shows_every_option_whole() -> None:
    """↓ scrolls the help without Tab first; the options and keys are not cut at 80 columns."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[float, str, str]:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await press(pilot, "down", "down", "down")
        await pilot.pause()
        scrolled = app.screen.query_one("#play").query_one(VerticalScroll).scroll_y
        await press(pilot, "right", "right", "right")
        options = await shown_text(pilot, app)
        await press(pilot, "right")
        keys = await shown_text(pilot, app)
        return scrolled, options, keys

    scrolled, options, keys = run(RoppyakkenApp(setup=vs_random(seed=1), pace="instant"), script)
    assert scrolled >= 3
    flat = " ".join(options.split())
    assert "who deals the next round: top-scorer or rotate" in flat
    assert "choose a card in your hand (0 is the tenth)" in " ".join(keys.split())


def test_help_opens_without_mounting_a_widget_per_paragraph() -> None:
    """``?`` took 1–3 s to open: Textual's Markdown widget mounted over a thousand widgets (one per
    paragraph, list item and table cell) for the five tabs.  Each tab is one widget now, so the help
    opens in a fraction of that, however long the rules' text."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> int:
        await wait_until(pilot, lambda: waiting_for_me(app))
        await press(pilot, "question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        return len(list(app.screen.walk_children()))

    widgets = run(RoppyakkenApp(setup=vs_random("wikipedia", seed=1), pace="instant"), script)
    assert widgets < 80, widgets


def test_new_game_screen_keeps_tab_off_quit_and_the_last_choices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tab then Enter from Start does not quit; after a game, n keeps its opponents."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from textual.widgets import Select

    async def tab_enter(pilot: Pilot[None], app: RoppyakkenApp) -> bool:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await press(pilot, "tab")
        assert app.focused is not None and app.focused.id != "quit"
        await press(pilot, "enter")  # used to press Quit and leave without a word
        await pilot.pause()
        return app.is_running and isinstance(app.screen, NewGameScreen)

    assert run(RoppyakkenApp(pace="instant"), tab_enter)

    setup = GameSetup(preset("sanbyakuken"), (Seat(HUMAN, "Aki"), Seat("greedy")), 11)

    async def again(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[object, object, str]:
        presses = 0
        while not isinstance(app.screen, GameOverScreen):
            await wait_until(pilot, lambda: waiting_for_me(app))
            if isinstance(app.screen, GameOverScreen):
                break
            await press(pilot, "enter")
            presses += 1
            assert presses < 500
        await press(pilot, "n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        from textual.widgets import Input

        return (
            screen.query_one("#opp1", Select).value,
            screen.query_one("#preset", Select).value,
            screen.query_one("#name", Input).value,
        )

    assert run(RoppyakkenApp(setup=setup, pace="instant"), again) == ("greedy", "sanbyakuken", "Aki")


def test_the_jokers_many_targets_are_named_whole_at_80_columns() -> None:
    """the joker's choice names every target, and what it gives, without cutting."""
    rules = preset("classic")
    joker = rules.joker_card
    targets = ["pine-crane", "plum-warbler", "cherry-curtain", "pampas-moon", "maple-deer", "iris-bridge"]
    game = my_turn(rules, [joker, card_id("wisteria-chaff-1")], [card_id(s) for s in targets])

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: waiting_for_me(app))
        screen = table(app)
        index = screen.state.choosing.hand_cards.index(joker)
        await press(pilot, str(index + 1), "enter")
        assert screen.mode == TARGET and len(screen.state.choosing.targets) >= len(targets)
        return await shown_text(pilot, app)

    text = run(RoppyakkenApp(resumed=(game, [Seat(HUMAN, "You"), Seat("random")]), pace="instant"), script)
    flat = " ".join(text.split())
    from roppyakken.tui import text as tt

    for key, slug in zip(TARGET_KEYS, targets, strict=False):
        assert f"{key}) " in flat
        assert tt.card_name(card_id(slug)) in flat, slug
    assert "Esc back" in flat, text  # the end of the prompt is on screen: nothing was cut
    last = TARGET_KEYS[len(targets) - 1]
    assert f"a-{last}" in flat
