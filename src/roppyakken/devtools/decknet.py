"""Write (or check) ``roppyakken/decknet.py``: a seeded deck's order as a sorting network.

    python -m roppyakken.devtools.decknet [--check]

The compiled engine orders a seeded deck (FORMATS.md §3: the 48 cards by their 32-bit
SHAKE-128 keys, the lower id first among equal keys) by one straight-line function: the
48 ``key * 64 + id`` as native ints in locals, sorted by Batcher's merge exchange
(Knuth, TAOCP 5.2.2, Algorithm M: a network for any count, each comparator a swap of two
locals), the ids read back.  mypyc has no native array the core may use (its ``vec``
needs ``librt``), and a list of native ints boxes each int it stores; locals stay native.
Written out, the network is hundreds of lines no one should edit by hand: this tool
writes them; ``tests/core/test_seeded_deck_native.py`` checks the file is what it writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

CARDS = 48
"""The deck's cards (``roppyakken.cards.NUM_CARDS``)."""

TARGET = Path(__file__).resolve().parent.parent / "decknet.py"
"""The module this tool writes."""


def merge_exchange(count: int) -> list[tuple[int, int]]:
    """Batcher's merge exchange (Knuth, TAOCP 5.2.2, Algorithm M): the comparators ``(i, j)``,
    ``i < j``, in order, of a network that sorts ``count`` items (the lesser one to ``i``)."""
    t = (count - 1).bit_length()
    comparators: list[tuple[int, int]] = []
    p = 1 << (t - 1)
    while p > 0:
        q, r, d = 1 << (t - 1), 0, p
        while True:
            comparators.extend((i, i + d) for i in range(count - d) if i & p == r)
            if q == p:
                break
            d, q, r = q - p, q >> 1, p
        p >>= 1
    return comparators


HEADER = '''"""A seeded deck's order by a sorting network: ``python -m roppyakken.devtools.decknet`` writes it
(not by hand: ``tests/core/test_seeded_deck_native.py`` checks it is what that tool writes).

:func:`deck_by_network` is ``engine.deck_by_digest`` (FORMATS.md §3) as straight-line native
code: compiled with the engine, each card's ``key * 64 + id`` is a native int in a local (mypyc
has no native array the core may use: a list boxes what it stores), sorted by Batcher's merge
exchange ({count} comparators, each a swap of two locals).  The compiled engine orders its
seeded decks with it; interpreted, it is slower than the pure engine's C calls, which the pure
engine keeps.
"""

from __future__ import annotations

from roppyakken.compiled import i64, swap_in


def deck_by_network(digest: bytes) -> list[int]:
    """The card ids sorted by their 32-bit big-endian keys in ``digest`` (its first 192 bytes),
    the lower id first among equal keys."""
    # Each card as ``key * 64 + id``: distinct, ordered as ``(key, id)``.
'''

FOOTER = """

__all__ = ["deck_by_network"]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
"""


def source() -> str:
    """The text of ``roppyakken/decknet.py``."""
    network = merge_exchange(CARDS)
    lines = [HEADER.format(count=len(network)).rstrip("\n")]
    for card in range(CARDS):
        b = 4 * card
        lines.append(
            f"    k{card}: i64 = (((i64(digest[{b}]) * 256 + digest[{b + 1}]) * 256 + digest[{b + 2}]) * 256"
            f" + digest[{b + 3}]) * 64 + {card}"
        )
    lines.append("    # The network: each comparator puts the lesser of two locals first.")
    for i, j in network:
        lines.append(f"    k{i}, k{j} = (k{j}, k{i}) if k{i} > k{j} else (k{i}, k{j})")
    lines.append("    return [")
    lines.extend(f"        k{card} & 63," for card in range(CARDS))
    lines.append("    ]")
    return "\n".join(lines) + "\n" + FOOTER


def main() -> None:
    """Write the module, or with ``--check`` exit 1 if it differs from what would be written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the module is up to date")
    args = parser.parse_args()
    text = source()
    if args.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is not what {__name__} writes: run it", file=sys.stderr)
            sys.exit(1)
        return
    TARGET.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
