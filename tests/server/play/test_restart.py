"""A game survives a server restart: stop the server mid-game, start it again, the players go on."""

from __future__ import annotations

from pathlib import Path

from tests.harness.restart import restart_scenario


def test_a_game_survives_a_server_restart(tmp_path: Path) -> None:
    restart_scenario(f"sqlite:///{tmp_path / 'games.sqlite3'}")
