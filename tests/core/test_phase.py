"""The phase a game waits for is a typed value (:class:`roppyakken.phase.Phase`): front ends
compare against its members, a misspelt phase is a type error, and the JSON reads the same."""

from __future__ import annotations

import json
from pathlib import Path

from roppyakken import actions
from roppyakken.actions import Declare, Play
from roppyakken.engine import Game
from roppyakken.phase import PHASE_OF, Phase
from roppyakken.rules import preset
from roppyakken.view import view_of
from tests.harness.support import mypy_errors


def test_each_phase_is_the_kernels_string() -> None:
    """The kernel keeps the phase as the plain strings of ``actions``; each is a member's value,
    and every kernel phase has its member."""
    kernel = [actions.REDEAL, actions.DECLARE, actions.PLAY, actions.TAKE, actions.OVER]
    assert [p.value for p in Phase] == kernel
    assert [Phase(k) for k in kernel] == [PHASE_OF[k] for k in kernel] == list(Phase)
    assert [p for p in Phase if p.card_play] == [Phase.PLAY, Phase.TAKE]


def test_the_view_holds_a_phase_and_its_json_the_plain_name() -> None:
    """Every view of a game played to the end holds a :class:`Phase`; its JSON holds the plain
    string, so the web protocol and records read as before."""
    game = Game(preset("classic"), players=2, seed=7)
    seen: set[Phase] = set()
    while True:
        view = view_of(game, game.to_act)
        assert type(view.phase) is Phase and view.phase.value == game.phase
        data = view.to_json()
        assert type(data["phase"]) is str and data["phase"] == game.phase
        assert json.loads(json.dumps(data))["phase"] == view.phase
        seen.add(view.phase)
        if view.phase == Phase.OVER:
            break
        legal = view.legal
        declare = [a for a in legal if isinstance(a, Declare)]
        play = [a for a in legal if isinstance(a, Play)]
        game.apply((declare or play or list(legal))[0], game.to_act)
    assert {Phase.PLAY, Phase.OVER} <= seen


def test_a_misspelt_phase_is_a_type_error(tmp_path: Path) -> None:
    """``mypy --strict`` refuses a phase that does not exist and a plain string as a view's phase."""
    code = (
        "from dataclasses import replace\n"
        "from roppyakken.phase import Phase\n"
        "from roppyakken.view import SeatView\n"
        "def f(view: SeatView) -> SeatView:\n"
        "    ok = view.phase == Phase.TAKE or view.phase.card_play\n"
        "    bad = view.phase == Phase.TKAE\n"
        "    return replace(view, phase='take') if ok or bad else replace(view, phase=Phase.PLAY)\n"
    )
    out = mypy_errors(tmp_path, code)
    assert out.count("error:") == 2, out
    assert "snippet.py:6:" in out and "TKAE" in out
    assert "snippet.py:7:" in out
