"""``roppyakken targets``: what a card may capture on a table (FORMATS.md §2)."""

from __future__ import annotations

import argparse
from typing import Any, Final

from roppyakken.cli.common import add_document_command, run_document
from roppyakken.documents import targets_document
from roppyakken.i18n import N_, SOURCE_LANGUAGE, _, fill, language
from roppyakken.text import card_name


def register(sub: Any, help_text: str) -> None:
    """Add the ``targets`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    description = _(
        'Read {"table": [...], "card": slug, "source": "hand"|"pile"} on '
        'standard input; print {"targets": [[...], ...]} (FORMATS.md §2).'
    )
    add_document_command(sub, "targets", help_text, description, _("say it in words"), run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken targets``."""
    return run_document(
        args,
        targets_document,
        lambda rules, doc: explain_targets(doc, targets_document(rules, doc)["targets"]),
    )


EXPLAIN_HEAD: Final = {
    (False, True): N_("{card}, played from hand, on a table of {table}:"),
    (True, True): N_("{card}, turned up from the pile, on a table of {table}:"),
    (False, False): N_("{card}, played from hand, on an empty table:"),
    (True, False): N_("{card}, turned up from the pile, on an empty table:"),
}
"""The first line of ``--explain``, by (turned up from the pile, something on the table)."""
EXPLAIN_NOTHING: Final = N_("nothing to take: it goes to the table")
EXPLAIN_MUST: Final = N_("it must take {cards}")
EXPLAIN_CHOOSE: Final = N_("the player chooses what it takes:")
EXPLAIN_NAMED: Final = N_("{name} [{slugs}]")


def explain_targets(data: dict[str, Any], targets: list[list[str]]) -> str:
    """A checked §2 document and its answer in words, in the current language: in English cards
    by slug (the names the documents use), else by their names, each with its slug."""
    card = data["card"]
    from_pile = data.get("source", "hand") == "pile"
    table = data.get("table", [])
    head = EXPLAIN_HEAD[from_pile, bool(table)]
    lines = [fill(head, card=_named([card]), table=_(", ").join(_named([s]) for s in table))]
    if not targets:
        lines.append("  " + _(EXPLAIN_NOTHING))
    elif len(targets) == 1:
        lines.append("  " + fill(EXPLAIN_MUST, cards=_named(targets[0])))
    else:
        lines.append("  " + _(EXPLAIN_CHOOSE))
        lines.extend(f"  - {_named(t)}" for t in targets)
    return "\n".join(lines)


def _named(slugs: list[str]) -> str:
    """Cards taken together: ``pine-crane + pine-chaff-1`` in English, else
    ``松に鶴 + 松のカス [pine-crane + pine-chaff-1]``."""
    joined = " + ".join(slugs)
    if language() == SOURCE_LANGUAGE:
        return joined
    return fill(EXPLAIN_NAMED, name=" + ".join(card_name(s) for s in slugs), slugs=joined)
