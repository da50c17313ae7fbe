"""Helpers for the tests: what a test needs of its environment (:func:`require`, the one place
that decides a skip), card masks from slugs, and games with a chosen deal or position."""

from __future__ import annotations

import importlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from roppyakken.actions import PLAY
from roppyakken.cards import ALL_CARDS, card_id, iter_cards, mask_of
from roppyakken.engine import Game, deck_from_deal
from roppyakken.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""


def in_ci() -> bool:
    """Whether the tests run as CI: ``CI=true`` (``.ci/run`` sets it, as CI services do).
    Then nothing may be skipped: a test whose environment is missing fails."""
    return os.environ.get("CI") == "true"


def require(found: object, missing: str) -> None:
    """Go on when ``found`` is true; else skip the test (or the module), saying ``missing``:
    what is not there and how to get it -- and under CI (:func:`in_ci`) fail with the same words.

    Every test that depends on its environment (a browser, a service, node, a package of an
    extra, the compiled modules, the shared specification) decides here, and only here.
    """
    if found:
        return
    if in_ci():
        pytest.fail(f"{missing}; CI=true runs every test, so this one fails instead of skipping")
    pytest.skip(missing, allow_module_level=True)


COMPILED_MISSING = "the compiled modules are not built (python scripts/build_kernel.py builds them)"
"""What :func:`require` says when a test of the compiled modules finds none."""


def require_module(name: str, install: str) -> ModuleType:
    """The module ``name``, imported; when it is not installed, :func:`require` decides (skip, or
    fail under CI) with ``install``, what installs it."""
    try:
        return importlib.import_module(name)
    except ImportError:
        require(False, f"the Python package {name} is not installed ({install})")
        raise  # pragma: no cover - require skipped or failed


def mypy_errors(tmp_path: Path, code: str) -> str:
    """``mypy --strict``'s report on ``code`` (the test extra's type checker, as in CI), which
    must find errors."""
    from mypy import api

    snippet = tmp_path / "snippet.py"
    snippet.write_text(code, encoding="utf-8")
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    assert status == 1, out + err
    return out


def ids(*slugs: str) -> list[int]:
    """Card ids of slugs."""
    return [card_id(s) for s in slugs]


def m(*slugs: str) -> int:
    """The mask of slugs."""
    return mask_of(ids(*slugs))


def dealt(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    pile: Sequence[str] | None = None,
    dealer: int = 0,
) -> Game:
    """A new game whose first round deals exactly these hands and table (R-3.2).

    The pile is ``pile`` followed by every other card in id order.  Later rounds
    use the game's own seeded decks.
    """
    players = len(hands)
    hand_ids = [ids(*h) for h in hands]
    table_ids = ids(*table)
    used = mask_of([c for h in hand_ids for c in h] + table_ids)
    head = ids(*(pile or ()))
    rest = [c for c in iter_cards(ALL_CARDS & ~used & ~mask_of(head))]
    deck = deck_from_deal(rules, players, dealer, hand_ids, table_ids, head + rest)

    def source(index: int, attempt: int) -> list[int]:
        if index == 0 and attempt == 0:
            return deck
        from roppyakken.engine import seeded_deck

        return seeded_deck(99, index, attempt)

    return Game(rules, players, seed=99, deck_source=source, first_dealer=dealer)


def position(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    table: Sequence[str] = (),
    pile: Sequence[str] = (),
    captures: Sequence[Sequence[str]] | None = None,
    to_act: int = 0,
    dealer: int = 0,
    phase: str = PLAY,
    totals: Sequence[int] | None = None,
) -> Game:
    """A mid-round position: the given cards, and every other card at the end of the pile."""
    players = len(hands)
    caps = [ids(*c) for c in captures] if captures is not None else [[] for _ in range(players)]
    hand_masks = [m(*h) for h in hands]
    used = m(*table) | m(*pile) | mask_of(c for cs in caps for c in cs)
    for h in hand_masks:
        used |= h
    rest = list(iter_cards(ALL_CARDS & ~used))
    return Game.from_position(
        rules,
        hands=hand_masks,
        table=m(*table),
        pile=ids(*pile) + rest,
        captures=[mask_of(c) for c in caps],
        orders=caps,
        declared=[[] for _ in range(players)],
        phase=phase,
        to_act=to_act,
        dealer=dealer,
        totals=totals,
    )


def run_cli(
    args: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str, str]:
    """Run the ``roppyakken`` command in-process: its exit code, standard output and error.  The
    process's language is put back afterwards (``--lang`` sets it for the process: a later test
    would read the command's language)."""
    from roppyakken import i18n
    from roppyakken.cli import main  # (here: the skip decisions above import no front end)

    before = i18n.language()
    out, err = io.StringIO(), io.StringIO()
    mp = monkeypatch or pytest.MonkeyPatch()
    mp.setattr(sys, "stdin", io.StringIO(stdin))
    mp.setattr(sys, "stdout", out)
    mp.setattr(sys, "stderr", err)
    try:
        code = main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        i18n.set_language(before)
        if monkeypatch is None:
            mp.undo()
    return code, out.getvalue(), err.getvalue()


def run_python(program: str, *args: str, pure: bool, timeout: float) -> str:
    """Run ``program`` (Python source) in a new interpreter from the repository's root, on the
    pure-Python modules (``ROPPYAKKEN_PURE=1``) or on the compiled ones if built; its stdout.

    Fails the test with the child's stderr if it does not exit cleanly.
    """
    env = dict(os.environ)
    env.pop("ROPPYAKKEN_PURE", None)
    if pure:
        env["ROPPYAKKEN_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", program, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def run_node_module(script: str, module: Path, payload: object, tmp_path: Path) -> Any:
    """Run ``script`` in Node (``%s`` in it: the file URL of the browser module ``module`` to import),
    ``payload`` as JSON on its standard input; what it prints, parsed as JSON.  Node is a test tool
    here (scripts/setup installs it)."""
    node = shutil.which("node")
    require(node, "node is not installed (scripts/setup installs it)")
    assert node is not None
    path = tmp_path / "check.mjs"
    path.write_text(script % json.dumps(module.as_uri()), encoding="utf-8")
    feed = json.dumps(payload)
    done = subprocess.run([node, str(path)], input=feed, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
