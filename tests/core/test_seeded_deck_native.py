"""The seeded decks' two formulations give the same order (FORMATS.md §3).

The compiled engine orders a seeded deck by a sorting network of native locals
(``decknet.deck_by_network``, written by ``roppyakken.devtools.decknet``), the first-dealer
draw by native loops (``engine._top_native``); the pure one by C calls
(``engine.deck_by_digest``, ``engine.top_by_digest``).  Both are checked here against each
other and against the keyed sort, on whichever build this process runs (compiled when it is
built, interpreted with ``ROPPYAKKEN_PURE=1``); ``tests/core/test_simulate_pinned.py`` checks whole
seeded games on both.
"""

from __future__ import annotations

import random
import struct

import pytest

from roppyakken import decknet, engine
from roppyakken.devtools import decknet as decknet_tool

_PACK: struct.Struct = struct.Struct(">48I")


def _digests() -> list[bytes]:
    """Random digests, and keys with ties and extremes (0, 2**31, 2**32 - 1, one bucket)."""
    rng = random.Random(13)
    out = [rng.randbytes(192) for _ in range(300)]
    for _ in range(300):
        pool = [0, 1, 2**31, 2**31 - 1, 2**32 - 1, 2**26, 2**26 - 1, rng.getrandbits(32)]
        out.append(_PACK.pack(*[rng.choice(pool) for _ in range(48)]))
    out.append(_PACK.pack(*[7] * 48))  # every key equal: the ids in order
    out.append(_PACK.pack(*range(48, 0, -1)))  # every card in the first bucket, reversed
    out.append(_PACK.pack(*[(2**32 - 1) - (card % 5) for card in range(48)]))  # the last bucket
    return out


def _keyed(digest: bytes) -> list[int]:
    keys = _PACK.unpack(digest)
    return sorted(range(48), key=lambda card: (keys[card], card))


def test_the_native_deck_is_the_reference_deck() -> None:
    for digest in _digests():
        expected = _keyed(digest)
        assert engine.deck_by_digest(digest) == expected
        assert decknet.deck_by_network(digest) == expected


@pytest.mark.parametrize("count", [1, 2, 3, 4, 48])
def test_the_native_top_cards_are_the_top_of_the_reference_deck(count: int) -> None:
    for digest in _digests()[::3]:
        expected = _keyed(digest)[:count]
        assert engine.top_by_digest(digest, count) == expected
        assert engine._top_native(digest, count) == expected


def test_seeded_decks_and_draws_are_the_reference_ones() -> None:
    """What a game deals and draws, whichever formulation this build uses."""
    for seed in range(40):
        label = f"roppyakken:{seed}:0:0"
        digest = engine._digest(label)
        assert engine.shuffled_by(label) == engine.deck_by_digest(digest) == engine.seeded_deck(seed, 0, 0)
        assert engine.shuffled_top(label, 3) == engine.top_by_digest(digest, 3)


def test_the_network_module_is_what_its_tool_writes() -> None:
    """``decknet.py`` is generated: an edit by hand (or a changed tool not run) shows here."""
    assert decknet_tool.TARGET.read_text(encoding="utf-8") == decknet_tool.source()


@pytest.mark.parametrize("count", [2, 3, 5, 16, 17, 47, 48, 64])
def test_merge_exchange_sorts_every_zero_one_input(count: int) -> None:
    """A comparator network sorts every input if it sorts every input of 0s and 1s (Knuth,
    TAOCP 5.3.4, the 0-1 principle): exhaustive for few items, random for more."""
    network = decknet_tool.merge_exchange(count)
    rng = random.Random(count)
    inputs = (
        [[n >> i & 1 for i in range(count)] for n in range(1 << count)]
        if count <= 17
        else [[rng.getrandbits(1) for _ in range(count)] for _ in range(20_000)]
    )
    for values in inputs:
        for i, j in network:
            if values[i] > values[j]:
                values[i], values[j] = values[j], values[i]
        assert values == sorted(values)
