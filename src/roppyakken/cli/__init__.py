"""The ``roppyakken`` command: one subcommand per module, registered in :data:`COMMANDS`.

Only the module of the command that runs is imported (``roppyakken --help`` imports
none), so that a command starts fast and needs only what it uses: the core commands
run on the standard library alone, and a command whose extra is missing says in one
line which extra to install.  Every user error ends in one line on standard error and
a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence
from typing import Any

from roppyakken import i18n
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import ERROR_LINE, LANGUAGES, N_, _, fill
from roppyakken.linebreak import width as cell_width
from roppyakken.linebreak import wrap

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("roppyakken.cli.score_cmd", N_("score a finished round from each player's captured cards")),
    "targets": ("roppyakken.cli.targets_cmd", N_("list what a card may capture on a table")),
    "simulate": ("roppyakken.cli.simulate_cmd", N_("play a batch of bot games and summarise them")),
    "replay": ("roppyakken.cli.replay_cmd", N_("verify a game record and print it round by round")),
    "rules": ("roppyakken.cli.rules_cmd", N_("list the presets, or show one preset's options")),
    "cards": ("roppyakken.cli.cards_cmd", N_("list the 48 cards and their slugs")),
    "play": ("roppyakken.cli.play_cmd", N_("play in the terminal against bots or at the same keyboard")),
    "learn": ("roppyakken.cli.learn_cmd", N_("new to Roppyakken? a guided first game in the terminal")),
    "serve": ("roppyakken.cli.serve_cmd", N_("start the web server: play in the browser")),
    "admin": ("roppyakken.cli.admin_cmd", N_("moderate the server: reports, mutes, suspensions, the log")),
    "arena": (
        "roppyakken.cli.arena_cmd",
        N_("measure bots against each other (duplicate deals, win rates with 95%% CIs)"),
    ),
    "ladder": (
        "roppyakken.cli.ladder_cmd",
        N_("rate the bot levels against each other (Elo-style, with 95%% intervals)"),
    ),
    "ratings": (
        "roppyakken.cli.ratings_cmd",
        N_("rebuild or check the players' ratings from the stored games"),
    ),
}
"""Each command: the module that defines its ``register(subparsers, help_text)`` and its line
in ``roppyakken --help``; front ends add theirs here."""


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


_USAGE_PARTS = re.compile(r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+")
"""The pieces of a usage line that argparse keeps whole (its own pattern)."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its lines wrapped by display width (a wide character takes two columns)
    and broken where the language allows (:mod:`roppyakken.linebreak`)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None) -> str:
        # argparse measures the prefix ("usage: ", translated) by characters: give it one of
        # as many narrow characters as the real one has columns, then put the real one back.
        shown = _("usage: ") if prefix is None else prefix
        stand_in = "\0" * cell_width(shown)
        formatted: str = super()._format_usage(usage, actions, groups, stand_in)
        formatted = shown + formatted[len(stand_in) :]
        if all(cell_width(line) <= self._width for line in formatted.splitlines()):
            return formatted
        # a part too long for argparse's indent: every part on lines under the prefix
        width, self._width = self._width, sys.maxsize
        try:
            one_line: str = super()._format_usage(usage, actions, groups, "")
        finally:
            self._width = width
        indent = " " * cell_width(shown)
        lines = [shown.rstrip()]
        for part in _USAGE_PARTS.findall(one_line.strip()):
            if lines[-1].strip() and cell_width(lines[-1]) + 1 + cell_width(part) > width:
                lines.append(indent)
            lines[-1] += part if not lines[-1].strip() else " " + part
        return "\n".join(lines) + "\n\n"


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        """Usage errors as one line, exit code 2."""
        self.exit(2, f"{fill(ERROR_LINE, message=message)}\n")


def command_argument(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (its first argument that is not an option), or None."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif arg == "--" or not arg.startswith("-"):
            return None if arg == "--" else arg
    return None


TOP_OPTIONS: tuple[str, ...] = ("-h", "--help", "--version", "--lang")
"""The options ``roppyakken`` takes before its command."""


def unknown_top_option(argv: Sequence[str]) -> str | None:
    """The first option before the command that ``roppyakken`` does not take (argparse would only
    say that a command is required), or None."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--" or not arg.startswith("-"):
            return None
        name = arg.split("=", 1)[0]
        if name == "--lang" and "=" not in arg:
            skip = True
        if name in TOP_OPTIONS or (len(name) > 2 and any(o.startswith(name) for o in TOP_OPTIONS)):
            continue  # argparse takes an unambiguous prefix of a long option too
        return arg
    return None


class _VersionAction(argparse.Action):
    """``--version``: the version and whether the compiled modules are in use (loaded only then)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from roppyakken import __version__
        from roppyakken.compiled import status

        print(f"roppyakken {__version__} ({status()})")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, in the current language: every command's options when ``command`` is
    None, else only the options of ``command`` (the others are listed by name and help line)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
    parser = _Parser(
        prog="roppyakken",
        description=_("Roppyakken (六百間, Six Hundred), the hanafuda game: play, score, simulate."),
    )
    parser.add_argument(
        "--version",
        action=_VersionAction,
        nargs=0,
        help=_("show program's version number and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    lang_help = i18n.fill(LANG_HELP, languages=", ".join(LANGUAGES))
    parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=lang_help)
    for name, (module, help_text) in COMMANDS.items():
        if command is None or command == name:
            importlib.import_module(module).register(sub, _(help_text))
        else:
            sub.add_parser(name, help=_(help_text))
    for name, command_parser in sub.choices.items():
        if command is None or command == name:
            command_parser.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=lang_help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    try:
        choose_language(args_list)
    except RoppyakkenError as exc:
        print(fill(ERROR_LINE, message=exc.translated()), file=sys.stderr)
        return 2
    command = command_argument(args_list)
    parser = build_parser(command if command in COMMANDS else "")
    unknown = unknown_top_option(args_list)
    if unknown is not None:
        parser.error(_("unrecognized arguments: %s") % unknown)
    args = parser.parse_args(args_list)
    try:
        code: int = args.run(args)
    except RoppyakkenError as exc:
        print(fill(ERROR_LINE, message=exc.translated()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(fill(N_("roppyakken: interrupted")), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
