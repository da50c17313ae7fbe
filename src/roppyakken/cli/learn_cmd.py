"""``roppyakken learn``: the guided first game in the terminal (needs the ``tui`` extra: Textual).

Textual is imported only when the command runs, so the rest of the command line works
without it.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from roppyakken.cli.play_cmd import TEXTUAL_MISSING
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import _, install_extra


def register(sub: Any, help_text: str) -> None:
    """Add the ``learn`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "learn",
        help=help_text,
        description=_(
            "A guided first game: one scripted round against an opponent, step by step, each "
            "move explained (matching a month, choosing a capture, the turned-up card, the "
            "joker, a lucky hand, yaku, the score, an instant win)."
        ),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken learn``."""
    if importlib.util.find_spec("textual") is None:
        raise RoppyakkenError(TEXTUAL_MISSING, install=install_extra("tui"))
    from roppyakken.tui.app import RoppyakkenApp

    app = RoppyakkenApp(learn=True)
    app.run()
    return app.return_code or 0
