"""The learned baseline: an afterstate value network trained by self-play (numpy only).

For each legal action the agent builds the position it leaves behind — its hand, the
table and its captures after the card is played (before the pile is turned), the
others' captures, the cards it has not seen, the progress of every yaku of the rules
for it and for the others — as a feature vector (:func:`afterstate_features`), and
plays the action whose afterstate a small network values highest.  The network
(``features -> 64 ReLU -> 1`` plus a linear skip) predicts the round's score difference
in hundreds of points; it is trained by :mod:`roppyakken.env.train` on the Monte-Carlo
returns of self-play rounds.  It reads only the seat's :class:`~roppyakken.view.SeatView`.

The shipped weights are ``learned.npz`` beside this module; ``LearnedBot(weights=path)``
loads others.  Importing this module registers the bot level ``learned``
(``learned:weights=PATH``), which :data:`roppyakken.ai.base.EXTRA_LEVELS` declares.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.ai.base import EXTRA_LEVELS, register_level
from roppyakken.cards import MONTH_MASK, NUM_CARDS, POINTS, RIBBON_MASK
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import Rules
from roppyakken.text import BOT_LEVEL_DESCRIPTIONS
from roppyakken.view import SeatView

FloatArray = np.ndarray[Any, np.dtype[np.float32]]

WEIGHTS_PATH = Path(__file__).with_name("learned.npz")
"""The shipped weights."""

_BITS: FloatArray = np.array([[b >> i & 1 for i in range(8)] for b in range(256)], np.float32)
_POINTS: FloatArray = np.array(POINTS, np.float32) / 100.0
_RIBBONS: FloatArray = np.array([RIBBON_MASK >> c & 1 for c in range(NUM_CARDS)], np.float32)
_MONTHS: FloatArray = np.array(
    [[MONTH_MASK[m] >> c & 1 for m in range(1, 13)] for c in range(NUM_CARDS)], np.float32
)
_PLANES = 5
_SCALARS = 12


def planes(masks: Sequence[int]) -> FloatArray:
    """Card masks as rows of 48 zeros and ones (card-id order)."""
    arr = np.array(masks, dtype=np.uint64).view(np.uint8).reshape(-1, 8)[:, :6]
    out: FloatArray = _BITS[arr].reshape(-1, NUM_CARDS)
    return out


class _YakuMatrix:
    """The rules' yaku as a card-by-yaku matrix, with sizes and values (cached per rules)."""

    def __init__(self, rules: Rules) -> None:
        entries = rules.table.set_yaku
        self.matrix: FloatArray = np.array(
            [[mask >> c & 1 for _, mask, _ in entries] for c in range(NUM_CARDS)], np.float32
        ).reshape(NUM_CARDS, len(entries))
        self.sizes: FloatArray = np.maximum(self.matrix.sum(axis=0), 1.0)
        self.values: FloatArray = np.array([v for _, _, v in entries], np.float32) / 100.0


_YAKU_CACHE: dict[Rules, _YakuMatrix] = {}


def _yaku(rules: Rules) -> _YakuMatrix:
    found = _YAKU_CACHE.get(rules)  # keyed by the rules themselves: an id can be reused
    if found is None:
        if len(_YAKU_CACHE) > 64:
            _YAKU_CACHE.clear()
        found = _YAKU_CACHE[rules] = _YakuMatrix(rules)
    return found


YAKU_SLOTS = 24
"""Room for this many yaku of a rule set in the features (more are ignored)."""


def feature_size() -> int:
    """Length of an afterstate feature vector."""
    return _PLANES * NUM_CARDS + 6 * YAKU_SLOTS + 2 * 12 + _SCALARS


def afterstate_features(view: SeatView, legal: Sequence[Action]) -> FloatArray:
    """One row of features per legal action: the position that action leaves (module docstring)."""
    seat = view.seat
    if seat is None:
        raise RoppyakkenError("a spectator has no decisions")
    n = view.players
    hand, table, unseen = view.hand, view.table, view.unseen
    mine = view.captures[seat]
    others = 0
    for s in range(n):
        if s != seat:
            others |= view.captures[s]
    rows: list[int] = []
    scalars = np.zeros((len(legal), _SCALARS), np.float32)
    lucky = {h.slug: h.points for h in view.lucky_hands}
    values = view.rules.lucky_hands
    my_declared = sum(values.get(slug, 0) for slug in view.declared[seat])
    their_declared = 0
    for s in range(n):
        if s != seat:
            their_declared += sum(values.get(slug, 0) for slug in view.declared[s])
    for i, action in enumerate(legal):
        h, t, m = hand, table, mine
        declared = my_declared
        if isinstance(action, Play | Take):
            card = action.card if isinstance(action, Play) else view.turned
            if isinstance(action, Play):
                h = hand & ~(1 << card)
            if action.target:
                t = table & ~action.target
                m = mine | 1 << card | action.target
            else:
                t = table | 1 << card
        elif isinstance(action, Declare):
            declared = sum(lucky.get(slug, 0) for slug in action.hands)
            scalars[i, 8] = len(action.hands)
        elif isinstance(action, CallRedeal):
            scalars[i, 9] = 1.0 if action.call else 0.0
        rows.extend((m, others, t, h, unseen))
        scalars[i, 0] = declared / 100.0
    p = planes(rows).reshape(len(legal), _PLANES, NUM_CARDS)
    my, th, tb, hd = p[:, 0], p[:, 1], p[:, 2], p[:, 3]
    y = _yaku(view.rules)
    k = min(y.matrix.shape[1], YAKU_SLOTS)
    ym, ys, yv = y.matrix[:, :k], y.sizes[:k], y.values[:k]
    mine_have = my @ ym
    theirs_have = th @ ym
    yaku = np.zeros((len(legal), 6, YAKU_SLOTS), np.float32)
    yaku[:, 0, :k] = mine_have / ys
    yaku[:, 1, :k] = theirs_have / ys
    yaku[:, 2, :k] = (mine_have >= ys) * yv
    yaku[:, 3, :k] = (theirs_have >= ys) * yv
    yaku[:, 4, :k] = (theirs_have > 0) * yv  # blocked for me
    yaku[:, 5, :k] = (mine_have > 0) * yv  # blocked for them
    hand_months = hd @ _MONTHS
    table_months = tb @ _MONTHS
    months = np.concatenate([(hand_months > 0) * (table_months > 0), table_months / 4.0], axis=1)
    target = float(view.rules.target)
    best_other = max(view.totals[s] for s in range(n) if s != seat)
    scalars[:, 1] = their_declared / 100.0
    scalars[:, 2] = my @ _POINTS
    scalars[:, 3] = th @ _POINTS
    scalars[:, 4] = my @ _RIBBONS / 7.0
    scalars[:, 5] = th @ _RIBBONS / 7.0
    scalars[:, 6] = (view.totals[seat] - best_other) / target
    scalars[:, 7] = view.pile_count / 48.0
    scalars[:, 10] = 1.0 if n == 3 else 0.0
    scalars[:, 11] = 1.0
    out: FloatArray = np.concatenate(
        [p.reshape(len(legal), -1), yaku.reshape(len(legal), -1), months, scalars], axis=1
    )
    return out


class ValueNet:
    """``v(x) = relu(x W1 + b1) . w2 + x . wl + b2``: the afterstate value (numpy)."""

    def __init__(self, params: Mapping[str, FloatArray]) -> None:
        self.w1 = np.asarray(params["w1"], np.float32)
        self.b1 = np.asarray(params["b1"], np.float32)
        self.w2 = np.asarray(params["w2"], np.float32)
        self.wl = np.asarray(params["wl"], np.float32)
        self.b2 = np.asarray(params["b2"], np.float32)
        if self.w1.shape[0] != feature_size():
            raise RoppyakkenError(
                f"learned weights: made for {self.w1.shape[0]} features, these are {feature_size()}"
            )

    @classmethod
    def init(cls, hidden: int, rng: np.random.Generator) -> ValueNet:
        """Fresh small random weights."""
        f = feature_size()
        return cls(
            {
                "w1": (rng.standard_normal((f, hidden)) * np.sqrt(2.0 / f)).astype(np.float32),
                "b1": np.zeros(hidden, np.float32),
                "w2": (rng.standard_normal(hidden) * 0.01).astype(np.float32),
                "wl": np.zeros(f, np.float32),
                "b2": np.zeros(1, np.float32),
            }
        )

    @classmethod
    def load(cls, path: str | Path = WEIGHTS_PATH) -> ValueNet:
        """Weights from an ``.npz`` file (one-line error if missing or unreadable)."""
        try:
            with np.load(path) as data:
                return cls({k: data[k] for k in ("w1", "b1", "w2", "wl", "b2")})
        except (OSError, KeyError, ValueError) as exc:
            raise RoppyakkenError(f"learned weights {str(path)!r}: cannot load ({exc})") from None

    def params(self) -> dict[str, FloatArray]:
        """The weights by name."""
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "wl": self.wl, "b2": self.b2}

    def save(self, path: str | Path) -> None:
        """Write the weights (float16 would lose too little to matter; kept float32)."""
        p = self.params()
        np.savez_compressed(path, w1=p["w1"], b1=p["b1"], w2=p["w2"], wl=p["wl"], b2=p["b2"])

    def __call__(self, x: FloatArray) -> FloatArray:
        """The value of each row of ``x``."""
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: FloatArray = hidden @ self.w2 + x @ self.wl + self.b2[0]
        return out


_LOADED: dict[str, ValueNet] = {}


def shipped_net(path: str | Path = WEIGHTS_PATH) -> ValueNet:
    """The network of ``path`` (loaded once per process)."""
    key = str(path)
    net = _LOADED.get(key)
    if net is None:
        net = _LOADED[key] = ValueNet.load(path)
    return net


class LearnedBot:
    """Level ``learned``: plays the action whose afterstate its network values highest.

    Ties are broken by the seeded generator; with the same seed and views it answers
    the same way.  ``weights``: an ``.npz`` path (default: the shipped weights).
    """

    name = "learned"

    def __init__(self, seed: int = 0, weights: str | Path | None = None, net: ValueNet | None = None) -> None:
        self.rng = random.Random(seed)
        self.net = net if net is not None else shipped_net(weights or WEIGHTS_PATH)

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> LearnedBot:
        """A learned bot from level options (``weights=PATH``)."""
        for key in options:
            if key != "weights":
                raise RoppyakkenError(f"bot level learned has no option {key!r} (options: weights)")
        return cls(seed, options.get("weights"))

    def values(self, view: SeatView) -> FloatArray:
        """The network's value of each legal action of ``view``."""
        return self.net(afterstate_features(view, view.legal))

    def choose(self, view: SeatView) -> Action:
        """The legal action of highest value."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        values = self.values(view)
        best = float(values.max())
        top = [i for i in range(len(legal)) if values[i] >= best - 1e-6]
        return legal[top[0] if len(top) == 1 else self.rng.choice(top)]


register_level(
    "learned",
    LearnedBot,
    BOT_LEVEL_DESCRIPTIONS["learned"],
    LearnedBot.from_options,
    EXTRA_LEVELS["learned"].options_help,
)
