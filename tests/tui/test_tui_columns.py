"""Columns of the command line's tables line up by display width in every language (wide CJK
characters take two cells), and French labels do not run into the numbers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from roppyakken.i18n import cell_width, set_language
from roppyakken.rules import PRESETS
from roppyakken.text import card_name, preset_description
from tests.harness.support import run_cli


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test leaves the process in English, as it found it (``--lang`` sets the language)."""
    yield
    set_language("en")


CAPTURES = {
    "players": [
        {
            "captures": ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix", "pine-chaff-1"],
            "lucky_hands": ["hand-three"],
        },
        {"captures": ["maple-deer"]},
    ]
}


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_the_preset_list_starts_every_description_in_one_column(lang: str) -> None:
    code, out, _ = run_cli(["rules", "--lang", lang])
    assert code == 0
    set_language(lang)
    try:
        descriptions = {name: preset_description(name) for name in PRESETS}
    finally:
        set_language("en")
    columns = set()
    for line, name in zip(out.splitlines(), PRESETS, strict=True):
        columns.add(cell_width(line[: line.index(descriptions[name])]))
    assert len(columns) == 1, (lang, columns, out)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_score_explain_puts_every_number_in_one_column(lang: str) -> None:
    code, out, _ = run_cli(["score", "--explain", "--lang", lang], json.dumps(CAPTURES))
    assert code == 0
    ends = set()
    for line in out.splitlines():
        if not line.startswith("  "):
            continue
        number = re.match(r"^(  \D*?\s+\d+)(\s|$)", line)
        if number is not None:
            ends.add(cell_width(number.group(1)))
    assert len(ends) == 1, (lang, ends, out)


@pytest.mark.parametrize("lang", ["ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_targets_explain_names_the_cards_in_the_language(lang: str) -> None:
    doc = {"table": ["pine-crane", "pine-chaff-1", "maple-deer"], "card": "pine-ribbon"}
    code, out, _ = run_cli(["targets", "--explain", "--lang", lang], json.dumps(doc))
    set_language(lang)
    try:
        names = [card_name(s) for s in ("pine-ribbon", "pine-crane", "maple-deer")]
    finally:
        set_language("en")
    assert code == 0 and all(name in out for name in names), out
    assert "[pine-crane]" in out  # each target keeps its slug beside its name


@pytest.mark.parametrize("lang", ["ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_replay_quiet_names_bots_and_the_reason_in_the_language(lang: str, tmp_path: Path) -> None:
    from roppyakken.ai.base import make_bot
    from roppyakken.ai.driver import play_out
    from roppyakken.engine import Game
    from roppyakken.record import save
    from roppyakken.rules import preset

    game = play_out(Game(preset("sanbyakuken"), 2, 1), [make_bot("random", 1), make_bot("random", 2)])
    path = tmp_path / "game.json"
    save(path, game, ["bot:master", "bot:random"])
    code, out, _ = run_cli(["replay", "--quiet", "--lang", lang, str(path)])
    assert code == 0
    assert "bot:" not in out and f"({game.end_reason})" not in out, out
    assert not re.search(r"[(（]target[)）]", out), out


def _too_wide(out: str, columns: int = 80) -> list[str]:
    return [f"{cell_width(line)}: {line}" for line in out.splitlines() if cell_width(line) > columns]


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_arena_ladder_and_rules_fit_80_columns(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    outputs = []
    for preset_name in PRESETS:
        code, out, err = run_cli(["--lang", lang, "rules", preset_name], monkeypatch=monkeypatch)
        assert code == 0, err
        outputs.append(out)
    for bots in ("random,greedy", "random,greedy,random"):
        code, out, err = run_cli(
            ["--lang", lang, "arena", "--bots", bots, "--games", "3", "--seed", "1"], monkeypatch=monkeypatch
        )
        assert code == 0, err
        outputs.append(out)
    code, out, err = run_cli(
        ["--lang", lang, "ladder", "--levels", "random,greedy", "--games", "2"], monkeypatch=monkeypatch
    )
    assert code == 0, err
    outputs.append(out)
    wide = [line for out in outputs for line in _too_wide(out)]
    assert not wide, "\n".join(wide)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_the_ladder_wraps_every_levels_description_in_its_column(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from roppyakken.ai.base import BOT_LEVELS
    from roppyakken.cli.ladder_cmd import print_ladder

    ratings = [
        {"level": level, "rating": 100.0 * i, "ci95": [-1234.0, 1234.0]} for i, level in enumerate(BOT_LEVELS)
    ]
    doc = {"rules": "classic", "games_per_pair": 100, "seed": 0, "ratings": ratings, "pairs": []}
    set_language(lang)
    try:
        print_ladder(doc, 80)
    finally:
        set_language("en")
    out = capsys.readouterr().out
    assert not _too_wide(out), out
    lines = out.splitlines()
    column = cell_width(lines[1]) - cell_width(lines[1].split()[-1])  # where "description" starts
    continued = [line for line in lines[2:] if line.startswith(" ")]
    assert continued, out  # some description needed a second line at 80 columns
    assert all(cell_width(line) - cell_width(line.lstrip()) == column for line in continued), out
