"""``roppyakken targets``: what a card may capture on a table (FORMATS.md §2)."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cli.common import (
    add_rules_arguments,
    print_json,
    read_stdin_json,
    rules_from_args,
    run_jsonl,
)
from roppyakken.documents import targets_document
from roppyakken.i18n import _


def register(sub: Any) -> None:
    """Add the ``targets`` subcommand."""
    p = sub.add_parser(
        "targets",
        help=_("list what a card may capture on a table"),
        description=_(
            'Read {"table": [...], "card": slug, "source": "hand"|"pile"} on '
            'standard input; print {"targets": [[...], ...]} (FORMATS.md §2).'
        ),
    )
    add_rules_arguments(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--jsonl", action="store_true", help=_("one document per line in and out"))
    mode.add_argument("--explain", action="store_true", help=_("say it in words"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken targets``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: targets_document(rules, doc))
    data = read_stdin_json()
    answer = targets_document(rules, data)
    if args.explain:
        print(explain_targets(data, answer["targets"]))
    else:
        print_json(answer)
    return 0


def explain_targets(data: dict[str, Any], targets: list[list[str]]) -> str:
    """A checked §2 document and its answer in words."""
    card = data["card"]
    source = "turned up from the pile" if data.get("source", "hand") == "pile" else "played from hand"
    table = ", ".join(data.get("table", []))
    lines = [f"{card}, {source}, on " + (f"a table of {table}:" if table else "an empty table:")]
    if not targets:
        lines.append("  nothing to take: it goes to the table")
    elif len(targets) == 1:
        lines.append(f"  it must take {' + '.join(targets[0])}")
    else:
        lines.append("  the player chooses what it takes:")
        lines.extend(f"  - {' + '.join(t)}" for t in targets)
    return "\n".join(lines)
