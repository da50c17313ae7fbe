"""Numbers and dates as each language writes them: a decimal comma in Portuguese, the day before
the month in a Brazilian date."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from roppyakken import i18n
from roppyakken.ai.base import BOT_LEVELS
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.tui.session import parse_seats, resumable_saves, save_dir, save_game
from tests.harness.support import run_cli


@pytest.mark.parametrize(
    ("lang", "shown"), [("en", "12.5 49.0%"), ("ja", "12.5 49.0%"), ("pt-BR", "12,5 49,0%")]
)
def test_a_decimal_is_written_with_the_language_s_separator(lang: str, shown: str) -> None:
    try:
        i18n.set_language(lang)
        assert f"{i18n.decimal(f'{12.5:.1f}')} {i18n.decimal(f'{0.49:.1%}')}" == shown
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "stamp"), [("en", "11-30 16:42"), ("pt-BR", "30/11 16:42")])
def test_a_saved_game_is_dated_as_the_language_writes_dates(
    lang: str, stamp: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = Game(preset("classic"), 2, 4)
    rng = random.Random(4)
    for _ in range(4):
        game.apply(rng.choice(game.legal_actions()))
    path = save_game(save_dir() / "a.json", game, parse_seats(next(iter(BOT_LEVELS)), 2))
    at = time.mktime((2026, 11, 30, 16, 42, 0, 0, 0, -1))
    os.utime(path, (at, at))
    try:
        i18n.set_language(lang)
        [(label, _path)] = resumable_saves()
        assert label.startswith(stamp + " – "), label
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", sorted(i18n.DECIMAL_COMMA))
def test_the_arena_table_writes_decimals_with_a_comma_where_the_language_does(lang: str) -> None:
    outputs = {}
    for shown in ("en", lang):
        code, out, err = run_cli(
            ["--lang", shown, "arena", "--bots", "random,greedy", "--games", "2", "--seed", "1"]
        )
        assert code == 0, err
        outputs[shown] = out
    assert re.search(r"\d+\.\d%", outputs["en"]) and not re.search(r"\d+,\d%", outputs["en"])
    assert re.search(r"\d+,\d%", outputs[lang]) and not re.search(r"\d+\.\d%", outputs[lang])
