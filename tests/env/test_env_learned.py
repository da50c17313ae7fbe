"""The learned baseline: its bot plays legal moves, loads its weights, trains reproducibly."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.env import RoppyakkenEnv
from roppyakken.env.learned import WEIGHTS_PATH, LearnedBot, ValueNet, afterstate_features, feature_size
from roppyakken.env.train import gradients, main
from roppyakken.errors import RoppyakkenError
from roppyakken.record import dumps, record_of
from roppyakken.rules import from_options, preset
from tests.harness.support import run_python


def test_shipped_weights_load_and_fit_the_features() -> None:
    assert WEIGHTS_PATH.is_file()
    assert WEIGHTS_PATH.stat().st_size < 500_000
    net = ValueNet.load(WEIGHTS_PATH)
    assert net.w1.shape[0] == feature_size()


@pytest.mark.parametrize(
    ("rules_name", "players"),
    [("classic", 2), ("classic", 3), ("korean-high", 2), ("yukbaek", 3), ("optional-four", 2)],
)
def test_learned_bot_plays_only_legal_moves(rules_name: str, players: int) -> None:
    rules = (
        from_options("classic", {"hand_four": "optional"})
        if rules_name == "optional-four"
        else preset(rules_name)
    )
    for seed in range(3):
        bots = [make_bot("learned", seed) if s == 0 else make_bot("greedy", seed) for s in range(players)]
        game = play_out(Game(rules, players, seed), bots)  # raises on an illegal action
        assert game.over


def test_learned_bot_values_every_legal_action_from_its_view_only() -> None:
    env = RoppyakkenEnv(seed=5)
    rng = random.Random(0)
    checked = 0
    while not env.done:
        seat = env.current_player
        view = env.view(seat)
        x = afterstate_features(view, view.legal)
        assert x.shape == (len(view.legal), feature_size())
        assert LearnedBot(0).choose(view) in view.legal
        if view.phase in ("play", "take"):
            # Another world this seat cannot tell apart gives the same features.
            other = env.sample(seat, rng)
            assert other.game.hands != env.game.hands or other.game.hands[1 - seat] == 0
            assert np.array_equal(afterstate_features(other.view(seat), view.legal), x)
            checked += 1
        env.step(env.legal_actions()[0])
    assert checked > 5


def test_learned_bot_breaks_ties_by_its_seed() -> None:
    """With a network that values every afterstate alike, every decision is a tie: the seed
    alone decides, so another seed plays another game and the same seed the same one."""
    flat = ValueNet({k: np.zeros_like(v) for k, v in ValueNet.load(WEIGHTS_PATH).params().items()})

    def record(seed: int) -> str:
        bots = [LearnedBot(seed, net=flat), make_bot("greedy", 100)]
        return dumps(record_of(play_out(Game(preset("classic"), 2, seed=2), bots)))

    assert record(1) == record(1)
    assert len({record(seed) for seed in (1, 2, 3)}) == 3


def test_bad_weights_and_options_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(RoppyakkenError, match="cannot load"):
        make_bot(f"learned:weights={tmp_path / 'missing.npz'}")
    with pytest.raises(RoppyakkenError, match="has no option"):
        make_bot("learned:depth=3")


def test_learned_level_without_numpy_is_a_one_line_error() -> None:
    """Without numpy the level is still listed, and asking for it says what to install."""
    program = (
        "import sys; sys.modules['numpy'] = None\n"
        "from roppyakken.ai.base import BOT_LEVELS, make_bot\n"
        "from roppyakken.errors import RoppyakkenError\n"
        "assert 'learned' in BOT_LEVELS\n"
        "for level in ('learned', 'learned:weights=x.npz'):\n"
        "    try:\n        make_bot(level)\n"
        "    except RoppyakkenError as e:\n        print(e)\n"
    )
    message = "bot level learned needs numpy, the 'rl' extra: in the roppyakken checkout, pip install '.[rl]'"
    assert run_python(program, pure=False, timeout=60).splitlines() == [message, message]


def test_the_learned_level_registers_itself_when_first_asked_for() -> None:
    """The bots' registry names the module and imports it only when the level is asked for."""
    program = (
        "import sys\n"
        "from roppyakken.ai.base import BOT_LEVELS, make_bot\n"
        "print('roppyakken.env.learned' in sys.modules, 'numpy' in sys.modules)\n"
        "print(type(make_bot('learned', 3)).__module__, BOT_LEVELS['learned'][0].__name__)\n"
    )
    out = run_python(program, pure=False, timeout=60).splitlines()
    assert out == ["False False", "roppyakken.env.learned LearnedBot"]


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(0)
    net = ValueNet.init(8, rng)
    net.w2[:] = rng.standard_normal(8).astype(np.float32)
    net.wl[:] = (rng.standard_normal(feature_size()) * 0.01).astype(np.float32)
    x = rng.standard_normal((5, feature_size())).astype(np.float32)
    y = rng.standard_normal(5).astype(np.float32)
    _, grads = gradients(net, x, y)
    params = net.params()
    for name, index in (("w1", (3, 2)), ("b1", (4,)), ("w2", (1,)), ("wl", (7,)), ("b2", (0,))):
        arr = params[name]
        old = float(arr[index])
        h = 1e-2
        arr[index] = old + h
        up, _ = gradients(net, x, y)
        arr[index] = old - h
        down, _ = gradients(net, x, y)
        arr[index] = old
        numeric = (up - down) / (2 * h)
        assert float(grads[name][index]) == pytest.approx(numeric, rel=0.05, abs=1e-3), name


def test_training_is_reproducible_and_writes_its_outputs(tmp_path: Path) -> None:
    def run(tag: str) -> Path:
        out = tmp_path / f"{tag}.npz"
        args = ["--rounds", "40", "--eval-every", "20", "--eval-deals", "2", "--deals", "1"]
        args += ["--batch-rounds", "10", "--out", str(out), "--report", str(tmp_path / f"{tag}.md")]
        args += ["--plot", str(tmp_path / f"{tag}.png")]
        assert main(args) == 0
        return out

    a, b = run("a"), run("b")
    wa, wb = ValueNet.load(a).params(), ValueNet.load(b).params()
    assert all(np.array_equal(wa[k], wb[k]) for k in wa)
    assert not np.array_equal(wa["w1"], ValueNet.init(64, np.random.default_rng(1)).w1)
    report = (tmp_path / "a.md").read_text()
    assert "| expert |" in report and "95%" in report
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"
    assert make_bot(f"learned:weights={a}").name == "learned"


def test_training_without_matplotlib_stops_at_once_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["--rounds", "5", "--out", str(tmp_path / "w.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "matplotlib" in err
    assert not (tmp_path / "w.npz").exists()


def test_bad_training_lengths_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rounds", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err
