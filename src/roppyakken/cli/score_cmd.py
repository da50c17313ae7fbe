"""``roppyakken score``: score a finished round (FORMATS.md §1); the physical-cards calculator."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cli.common import add_document_command, run_document
from roppyakken.documents import parse_round, score_document
from roppyakken.explain import explain_round
from roppyakken.i18n import _
from roppyakken.rules import Rules


def register(sub: Any, help_text: str) -> None:
    """Add the ``score`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    description = _(
        'Read {"players": [{"captures": [...], "lucky_hands": [...]}, ...]} '
        "on standard input and print the scoring breakdown (FORMATS.md §1)."
    )
    add_document_command(sub, "score", help_text, description, _("print a readable breakdown"), run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken score``."""
    return run_document(args, lambda rules, doc: score_document(rules, doc).to_json(), _explain)


def _explain(rules: Rules, data: Any) -> str:
    """The round's scoring breakdown in words."""
    score = score_document(rules, data)
    return explain_round(rules, score, parse_round(rules, data)[0])
