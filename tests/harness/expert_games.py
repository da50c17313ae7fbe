"""Games the expert plays against itself, with each seat's view at every decision."""

from __future__ import annotations

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.base import make_bot
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of


def expert_game_views(name: str, players: int, seed: int) -> list[tuple[Game, SeatView]]:
    """Every card-play decision of an expert game: a logged copy of the game and the view."""
    game = Game(preset(name), players, seed=seed)
    bots = [make_bot("expert", s) for s in range(players)]
    out = []
    while not game.over:
        view = view_of(game, game.to_act)
        if game.phase in (PLAY, TAKE):
            out.append((game.clone(log=True), view))
        game.apply(bots[game.to_act].choose(view))
    return out
