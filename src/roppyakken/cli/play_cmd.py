"""``roppyakken play``: the full-screen terminal game (needs the ``tui`` extra: Textual).

With no option it opens the new-game screen; with game options it starts that
game at once; ``--resume FILE`` goes on with a saved game.  Textual is imported
only when the command runs, so the rest of the command line works without it.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path
from typing import Any

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.cli.common import add_rules_arguments, check_players, rules_from_args, seed_argument
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, _, fill, install_extra

PACES = ("slow", "normal", "fast", "instant")
TEXTUAL_MISSING = N_("the terminal game needs Textual, the 'tui' extra: {install}")


def register(sub: Any, help_text: str) -> None:
    """Add the ``play`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "play",
        help=help_text,
        description=_(
            "Play Roppyakken in a full-screen terminal game. With no option it opens the "
            "new-game screen; with options it starts that game at once."
        ),
    )
    p.add_argument("--players", type=int, choices=(2, 3), help=_("2 or 3 players"))
    add_rules_arguments(p)
    p.add_argument(
        "--bots",
        metavar="LEVELS",
        help=fill(
            "the opponents, comma-separated: bot levels ({levels}) or 'human' for a player at the same "
            "keyboard (hot seat); one level serves for every opponent",
            levels=", ".join(BOT_LEVELS),
        ),
    )
    p.add_argument("--seed", type=seed_argument, help=_("deal a repeatable game from this seed"))
    p.add_argument("--name", default=None, help=_("your name at the table (default: You)"))
    p.add_argument("--resume", metavar="FILE", help=_("go on with a saved game"))
    p.add_argument("--pace", choices=PACES, default="normal", help=_("how fast bots' moves are shown"))
    p.set_defaults(run=run)


def textual_installed() -> bool:
    """Whether Textual can be imported."""
    return importlib.util.find_spec("textual") is not None


def require_textual() -> None:
    """Refuse with a one-line error when Textual is not installed."""
    if not textual_installed():
        raise RoppyakkenError(TEXTUAL_MISSING, install=install_extra("tui"))


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken play``."""
    require_textual()
    from roppyakken.tui.app import RoppyakkenApp
    from roppyakken.tui.session import GameSetup, parse_seats, resume

    game_options = (args.players, args.rules, args.rules_file, args.bots, args.seed, args.name)
    if args.resume is not None:
        if any(v is not None for v in game_options):
            raise RoppyakkenError(N_("--resume goes on with a saved game: give no other game option"))
        path = Path(args.resume)
        app = RoppyakkenApp(resumed=resume(path), save_path=path, pace=args.pace)
    elif any(v is not None for v in game_options):
        rules = rules_from_args(args)
        players = args.players or (2 if args.bots is None else len(args.bots.split(",")) + 1)
        check_players(args, rules, players)
        seats = parse_seats(args.bots, players, args.name)
        app = RoppyakkenApp(setup=GameSetup(rules, tuple(seats), args.seed), pace=args.pace)
    else:
        app = RoppyakkenApp(pace=args.pace)
    app.run()
    if app.return_code:
        return app.return_code
    return 0
