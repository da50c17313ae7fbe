"""``roppyakken play`` and ``roppyakken replay --watch`` on the command line: clear one-line errors,
and the core command line works without Textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.cli import main, play_cmd
from roppyakken.engine import Game
from roppyakken.record import save
from roppyakken.rules import preset
from tests.harness.support import require_module


def error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command line; it must fail with one line on standard error."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("roppyakken: error: "), err
    return err


def test_play_refuses_bad_options_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Unknown bots, impossible player counts, missing saves: one line each, no traceback."""
    require_module("textual", "pip install 'roppyakken[tui]'")
    assert "unknown opponent 'nobody'" in error_of(["play", "--bots", "nobody"], capsys)
    assert "2 players only" in error_of(["play", "--players", "3", "--rules", "ten-card"], capsys)
    assert "unknown preset" in error_of(["play", "--rules", "nope"], capsys)
    assert "not found" in error_of(["play", "--resume", str(tmp_path / "none.json")], capsys)
    assert "no other game option" in error_of(["play", "--resume", "x.json", "--seed", "3"], capsys)


def test_resume_of_a_finished_game_points_to_watch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A finished game cannot be resumed; the error says how to watch it."""
    require_module("textual", "pip install 'roppyakken[tui]'")
    game = play_out(Game(preset("sanbyakuken"), 2, 1), [make_bot("random", 1), make_bot("random", 2)])
    path = tmp_path / "done.json"
    save(path, game, ["a", "b"])
    assert "--watch" in error_of(["play", "--resume", str(path)], capsys)


def test_replay_watch_refuses_a_bad_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--watch checks the record first, like the plain replay."""
    require_module("textual", "pip install 'roppyakken[tui]'")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert "not a roppyakken-record/1 record" in error_of(["replay", str(bad), "--watch"], capsys)


def test_without_textual_play_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Textual missing, the command says to install the tui extra."""
    monkeypatch.setattr(play_cmd, "textual_installed", lambda: False)
    install = "in the roppyakken checkout, pip install '.[tui]'"  # the README's command
    assert install in error_of(["play"], capsys)
    assert install in error_of(["replay", "x.json", "--watch"], capsys)


BLOCKED_EXTRAS = """
import sys
class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"textual", "starlette", "sqlalchemy", "uvicorn", "openskill", "numpy"}:
            raise ImportError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _Missing())
import importlib.util
_find = importlib.util.find_spec
def _find_spec(name, package=None):
    if name.split(".")[0] in {"textual", "starlette", "sqlalchemy", "uvicorn", "openskill", "numpy"}:
        return None
    return _find(name, package)
importlib.util.find_spec = _find_spec
"""


def test_without_the_extras_each_command_says_the_readmes_install_command(tmp_path: Path) -> None:
    """A bare install (no extra: their modules cannot be imported) names, in one line, the
    README's command for each missing extra (tests/harness/core_commands.py checks a real bare install)."""
    from tests.harness import core_commands

    runner = BLOCKED_EXTRAS + core_commands.RUNNER
    for argv, says in core_commands.EXTRAS:
        code, _, err = core_commands.run(sys.executable, argv, "", tmp_path, runner=runner)
        assert code != 0 and err.count("\n") == 1 and says in err, (argv, err)
        assert "scripts/setup" not in err and "roppyakken[" not in err, err


def test_the_core_command_line_does_not_import_textual() -> None:
    """Building the whole command line, and the plain replay, never import Textual."""
    code = (
        "import sys; from roppyakken.cli import build_parser; build_parser(); "
        "import roppyakken.tui.session, roppyakken.tui.helptext, roppyakken.tui.board; "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("players", ["[3]", "[2, 3]"])
def test_a_ten_card_house_file_with_three_players_is_refused_at_load(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, players: str
) -> None:
    """The file is refused by every command that reads it, naming the file and the option."""
    house = tmp_path / "house.toml"
    house.write_text(f'preset = "ten-card"\nplayers = {players}\n', encoding="utf-8")
    for argv in (["rules", "--rules-file", str(house)], ["simulate", "--rules-file", str(house)]):
        err = error_of(argv, capsys)
        assert str(house) in err and "option 'players'" in err and "ten_card_deal" in err, err
    house.write_text('preset = "ten-card"\nplayers = [2]\n', encoding="utf-8")
    assert main(["rules", "--rules-file", str(house)]) == 0


def test_a_house_file_limiting_the_players_is_blamed_not_its_preset(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    require_module("textual", "pip install 'roppyakken[tui]'")
    house = tmp_path / "two.toml"
    house.write_text('preset = "classic"\nplayers = [2]\n', encoding="utf-8")
    err = error_of(["play", "--rules-file", str(house), "--bots", "random,random"], capsys)
    assert str(house) in err and "option 'players' allows 2 players only, not 3" in err, err
    assert "preset" not in err
    err = error_of(["simulate", "--rules-file", str(house), "--players", "3"], capsys)
    assert str(house) in err and "not 3" in err
    err = error_of(["play", "--rules", "ten-card", "--players", "3"], capsys)
    assert "preset 'ten-card' is for 2 players only, not 3" in err


def test_replay_names_the_unnamed_human_in_the_language_of_the_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A record of the terminal game's "You" (the marker "", or "나" written by an older Korean
    save) replays in English as "You", in Japanese as あなた; a given name stays."""
    game = Game(preset("classic"), 2, 3)
    play_out(game, [make_bot("random", 1), make_bot("random", 2)])
    for written in ("", "나"):
        path = tmp_path / "game.json"
        save(path, game, [written, "bot:random"])
        assert main(["--lang", "en", "replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert "  You play " in out and "  You turn up " in out, out  # said to "You", in English
        assert "나" not in out and "You plays" not in out and "Random bot plays" not in out
        assert main(["--lang", "ja", "replay", str(path)]) == 0
        assert "あなたが" in capsys.readouterr().out
        assert main(["--lang", "ko", "replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert "내가 " in out and "나가 " not in out and "나이 " not in out, out
    save(path, game, ["Ann", "bot:random"])
    assert main(["--lang", "en", "replay", str(path)]) == 0
    assert "Ann plays " in capsys.readouterr().out
