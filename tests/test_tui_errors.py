"""Errors in the reader's language: the command line's one-line errors and the new-game form's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.support import require_module, run_cli

BAD_CARD = json.dumps({"players": [{"captures": ["maple-chaff"]}, {}]})


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ja", ("エラー", "プレイヤー1", "存在しない")),
        ("ko", ("오류", "플레이어 1", "알 수 없는 패")),
        ("fr", ("erreur", "joueur 1", "carte inconnue")),
    ],
)
def test_cli_errors_are_in_the_language(lang: str, words: tuple[str, ...], tmp_path: Path) -> None:
    code, _, err = run_cli(["score", "--lang", lang], BAD_CARD)
    assert code == 2 and err.count("\n") == 1
    assert all(w in err for w in words), err
    assert "maple-chaff-1" in err  # the slugs stay as typed
    for argv in (["rules", "nope"], ["rules", "--rules-file", str(tmp_path / "none.toml")]):
        code, _, err = run_cli([*argv, "--lang", lang])
        assert code == 2 and err.count("\n") == 1
        assert not any(english in err for english in ("unknown preset", "not found", "error:")), err


def test_english_errors_are_unchanged() -> None:
    code, _, err = run_cli(["score"], BAD_CARD)
    assert code == 2 and err == (
        "roppyakken: error: player 1 captures: unknown card 'maple-chaff' "
        "(did you mean maple-chaff-1 or maple-chaff-2?)\n"
    )


def test_the_new_game_form_says_its_errors_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_module("textual", "pip install 'roppyakken[tui]'")
    from textual.widgets import Input, Static

    from roppyakken.i18n import set_language
    from roppyakken.tui.app import RoppyakkenApp
    from roppyakken.tui.screens.newgame import NewGameScreen
    from roppyakken.tui.testing import wait_until

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def main() -> str:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            screen.query_one("#rules-file", Input).value = str(tmp_path / "none.toml")
            screen.action_start()
            await pilot.pause()
            return str(screen.query_one("#error", Static).render())

    set_language("ja")
    try:
        shown = asyncio.run(main())
    finally:
        set_language("en")
    assert "ルールファイル" in shown and "見つからない" in shown, shown


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--bots", "nobody", "--lang", "ko"], ("오류", "알 수 없는 상대")),
        (["simulate", "--games", "0", "--lang", "fr"], ("erreur", "doit valoir au moins 1")),
        (["arena", "--bots", "random", "--lang", "ja"], ("エラー", "対戦場は2体か3体")),
    ],
)
def test_command_option_errors_are_in_the_language(argv: list[str], words: tuple[str, ...]) -> None:
    if argv[0] == "play":
        require_module("textual", "pip install 'roppyakken[tui]'")
    code, _, err = run_cli(argv)
    assert code == 2 and err.count("\n") == 1
    assert all(w in err for w in words), err
