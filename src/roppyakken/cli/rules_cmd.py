"""``roppyakken rules``: list the presets, or print one preset's options."""

from __future__ import annotations

import argparse
import shutil
from typing import Any

from roppyakken.cli.common import print_json
from roppyakken.explain import describe_rules
from roppyakken.i18n import _, cell_width, pad
from roppyakken.rules import PRESETS, load_rules_file, preset
from roppyakken.text import preset_description


def register(sub: Any, help_text: str) -> None:
    """Add the ``rules`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "rules",
        help=help_text,
        description=_("Without PRESET, list the presets; with one, print its options."),
    )
    p.add_argument("preset", nargs="?", help=_("a preset name"))
    p.add_argument("--rules-file", metavar="FILE", help=_("show the options of a house-rules file"))
    p.add_argument("--json", action="store_true", help=_("print the options as JSON"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken rules``."""
    if args.preset is None and args.rules_file is None:
        width = max(len(name) for name in PRESETS)
        labels = {name: _("2p") if preset(name).players == (2,) else _("2-3p") for name in PRESETS}
        column = max(cell_width(label) for label in labels.values()) + 1  # wide characters count twice
        for name in PRESETS:
            print(f"{name:{width}}  {pad(labels[name], column)}{preset_description(name)}")
        return 0
    rules = load_rules_file(args.rules_file) if args.rules_file else preset(args.preset)
    if args.json:
        print_json({"preset": rules.preset, "options": rules.options()})
    else:
        print(describe_rules(rules, shutil.get_terminal_size().columns))
    return 0
