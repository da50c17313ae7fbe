"""The ``roppyakken`` command: one subcommand per module, registered in :data:`COMMANDS`.

Every user error ends in one line on standard error and a non-zero exit code,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from roppyakken import i18n
from roppyakken.cli.common import ERROR_LINE
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import LANGUAGES, N_, _, fill

COMMANDS: tuple[str, ...] = (
    "roppyakken.cli.score_cmd",
    "roppyakken.cli.targets_cmd",
    "roppyakken.cli.simulate_cmd",
    "roppyakken.cli.replay_cmd",
    "roppyakken.cli.rules_cmd",
    "roppyakken.cli.cards_cmd",
    "roppyakken.cli.play_cmd",
    "roppyakken.cli.learn_cmd",
    "roppyakken.cli.serve_cmd",
    "roppyakken.cli.arena_cmd",
    "roppyakken.cli.ladder_cmd",
)
"""Modules that each define ``register(subparsers)``; front ends add theirs here."""


# argparse's own words (headings, standard options, errors) are translated with the rest:
# argparse looks its messages up through the module-level ``_`` and ``ngettext``, which
# :func:`build_parser` points at the current language.
ARGPARSE_MESSAGES: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"),
)
LANG_HELP = N_("language of the text: {languages} (default: from the locale, LANG)")


def _ngettext(singular: str, plural: str, n: int) -> str:
    return _(singular if n == 1 else plural)


def language_argument(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (last one wins), read before the parser is built."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def choose_language(argv: Sequence[str]) -> str:
    """Set the language from ``--lang`` or else the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    asked = language_argument(argv)
    return i18n.set_language(asked if asked is not None else i18n.language_from_env())


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors as one line, exit code 2."""
        self.exit(2, f"{fill(ERROR_LINE, message=message)}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, in the current language."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
    parser = _Parser(
        prog="roppyakken",
        description=_("Roppyakken (六百間, Six Hundred), the hanafuda game: play, score, simulate."),
    )
    from roppyakken import __version__

    parser.add_argument("--version", action="version", version=f"roppyakken {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    lang_help = i18n.fill(LANG_HELP, languages=", ".join(LANGUAGES))
    parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=lang_help)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    for command in sub.choices.values():
        command.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=lang_help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    try:
        choose_language(args_list)
    except RoppyakkenError as exc:
        print(fill(ERROR_LINE, message=exc.translated()), file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(args_list)
    try:
        code: int = args.run(args)
    except RoppyakkenError as exc:
        print(fill(ERROR_LINE, message=exc.translated()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("roppyakken: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
