"""The ``roppyakken`` command: one subcommand per module, registered in :data:`COMMANDS`.

Every user error ends in one line on standard error and a non-zero exit code,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from roppyakken.errors import RoppyakkenError

COMMANDS: tuple[str, ...] = (
    "roppyakken.cli.score_cmd",
    "roppyakken.cli.targets_cmd",
    "roppyakken.cli.simulate_cmd",
    "roppyakken.cli.replay_cmd",
    "roppyakken.cli.rules_cmd",
    "roppyakken.cli.cards_cmd",
    "roppyakken.cli.play_cmd",
    "roppyakken.cli.serve_cmd",
    "roppyakken.cli.arena_cmd",
    "roppyakken.cli.ladder_cmd",
)
"""Modules that each define ``register(subparsers)``; front ends add theirs here."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors as one line, exit code 2."""
        self.exit(2, f"roppyakken: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser."""
    parser = _Parser(
        prog="roppyakken",
        description="Roppyakken (六百間, Six Hundred), the hanafuda game: play, score, simulate.",
    )
    from roppyakken import __version__

    parser.add_argument("--version", action="version", version=f"roppyakken {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except RoppyakkenError as exc:
        print(f"roppyakken: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("roppyakken: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
