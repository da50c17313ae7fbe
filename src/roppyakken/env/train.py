"""Train the learned baseline by self-play and report its strength (extra ``[train]``).

``python -m roppyakken.env.train`` (fixed seeds: the same arguments give the same
weights on the same machine and numpy; floating-point sums may differ elsewhere)
plays ``--rounds`` self-play rounds of classic 2-player Roppyakken in
:class:`~roppyakken.env.core.RoppyakkenEnv`, both seats
choosing with the current :class:`~roppyakken.env.learned.ValueNet` (epsilon-greedy
over the afterstates of the legal actions, epsilon and the learning rate decaying
linearly), and regresses each decision's afterstate
value on the round's final score difference (Monte-Carlo returns, Adam).  Every
``--eval-every`` rounds it measures the greedy policy on fixed duplicate round deals
against ``greedy`` and ``expert`` (the learning curve); at the end it writes the weights
(``--out``), plays ``--deals`` duplicate games against ``random``, ``greedy`` and
``expert`` with :func:`roppyakken.ai.arena.run_arena` (95% Wilson intervals) and writes
``--report`` (markdown) and ``--plot`` (PNG).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from roppyakken.ai.arena import run_arena, summary
from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds
from roppyakken.ai.ray_backend import document_stdout
from roppyakken.env.core import RoppyakkenEnv, action_id
from roppyakken.env.learned import WEIGHTS_PATH, FloatArray, LearnedBot, ValueNet, afterstate_features
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import preset

SCALE = 100.0
"""Returns are learned in hundreds of points."""


class Adam:
    """Adam over a dict of arrays (in place)."""

    def __init__(self, params: dict[str, FloatArray], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, FloatArray], grads: dict[str, FloatArray]) -> None:
        """One update."""
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mhat = self.m[k] / (1 - b1**self.t)
            vhat = self.v[k] / (1 - b2**self.t)
            params[k] -= (self.lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


def gradients(net: ValueNet, x: FloatArray, y: FloatArray) -> tuple[float, dict[str, FloatArray]]:
    """Mean squared error of ``net`` on ``(x, y)`` and its gradients."""
    pre = x @ net.w1 + net.b1
    hidden = np.maximum(pre, 0.0)
    v = hidden @ net.w2 + x @ net.wl + net.b2[0]
    err = v - y
    d = (2.0 / len(y)) * err
    dh = np.outer(d, net.w2) * (pre > 0)
    grads = {
        "w1": x.T @ dh,
        "b1": dh.sum(axis=0),
        "w2": hidden.T @ d,
        "wl": x.T @ d,
        "b2": np.array([d.sum()], np.float32),
    }
    return float((err * err).mean()), {k: g.astype(np.float32) for k, g in grads.items()}


def self_play_round(
    env: RoppyakkenEnv, net: ValueNet, epsilon: float, rng: random.Random
) -> tuple[list[FloatArray], list[int]]:
    """One self-play round: the chosen afterstate features and the seat of each decision."""
    env.reset()
    feats: list[FloatArray] = []
    seats: list[int] = []
    while not env.done:
        seat = env.current_player
        view = env.view(seat)
        legal = view.legal
        x = afterstate_features(view, legal)
        if len(legal) == 1:
            i = 0
        elif rng.random() < epsilon:
            i = rng.randrange(len(legal))
        else:
            i = int(np.argmax(net(x)))
        feats.append(x[i])
        seats.append(seat)
        env.step(action_id(legal[i]))
    return feats, seats


def duplicate_rounds(net: ValueNet, level: str, deals: Sequence[int]) -> tuple[float, float]:
    """The learned policy against ``level`` on round deals, each played from both seats.

    Returns the mean score difference per round (points) and the share of rounds won
    (ties count half).
    """
    diffs: list[float] = []
    wins = 0.0
    env = RoppyakkenEnv("classic", 2, episode="round", reward="score")
    for deal in deals:
        for learner in (0, 1):
            env.reset(deal)
            bots = {1 - learner: make_bot(level, deal), learner: LearnedBot(deal, net=net)}
            while not env.done:
                seat = env.current_player
                env.step(action_id(bots[seat].choose(env.view(seat))))
            d = env.returns[learner]
            diffs.append(d)
            wins += 1.0 if d > 0 else 0.5 if d == 0 else 0.0
    return sum(diffs) / len(diffs), wins / len(diffs)


Batch = tuple[list[FloatArray], list[float]]
"""Self-play rounds' afterstate features and the returns to learn (in hundreds of points)."""


class SelfPlayer:
    """Plays self-play rounds with the weights it is sent: in this process, or as a Ray actor.

    It keeps its own environment and random generator from one batch to the next, so
    that one player, local or remote, plays the very rounds of the local loop.
    """

    def __init__(self, seed: int, epsilon: float, epsilon_end: float, rounds: int) -> None:
        self.env = RoppyakkenEnv("classic", 2, episode="round", reward="score", seed=seed)
        self.rng = random.Random(seed)
        self.epsilon = (epsilon, epsilon_end)
        self.rounds = rounds

    def play(self, params: dict[str, FloatArray], first: int, count: int) -> Batch:
        """Rounds ``first .. first + count - 1`` of the schedule: afterstate features and returns."""
        net = ValueNet(params)
        xs: list[FloatArray] = []
        ys: list[float] = []
        start, end = self.epsilon
        for r in range(first, first + count):
            frac = min(1.0, r / max(1, self.rounds))
            feats, seats = self_play_round(self.env, net, start * (1.0 - frac) + end * frac, self.rng)
            xs.extend(feats)
            ys.extend(self.env.returns[s] / SCALE for s in seats)
        return xs, ys


def actor_seed(seed: int, index: int) -> int:
    """The seed of self-play actor ``index``: the first plays the local loop's rounds."""
    return seed if index == 0 else random.Random(f"roppyakken-actor:{seed}:{index}").getrandbits(62)


class LocalRounds:
    """Self-play batches in this process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.player = SelfPlayer(args.seed, args.epsilon, args.epsilon_end, args.rounds)

    def __call__(self, params: dict[str, FloatArray], first: int, count: int) -> Batch:
        """Rounds ``first .. first + count - 1``."""
        return self.player.play(params, first, count)


class RayRounds:
    """Self-play batches split over ``actors`` Ray actors, gathered in actor order."""

    def __init__(self, args: argparse.Namespace) -> None:
        from roppyakken.ai.ray_backend import connect

        self.ray = connect(args.ray)
        remote = self.ray.remote(num_cpus=1, max_restarts=0)(SelfPlayer)
        self.actors = [
            remote.options(scheduling_strategy="SPREAD").remote(
                actor_seed(args.seed, i), args.epsilon, args.epsilon_end, args.rounds
            )
            for i in range(args.actors)
        ]

    def close(self) -> None:
        """Stop the actors (their CPUs go back to the cluster)."""
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []

    def __call__(self, params: dict[str, FloatArray], first: int, count: int) -> Batch:
        """Rounds ``first .. first + count - 1``, the first share to the first actor and so on."""
        shared = self.ray.put(params)
        n = len(self.actors)
        shares = [count // n + (1 if i < count % n else 0) for i in range(n)]
        refs = []
        at = first
        for actor, share in zip(self.actors, shares, strict=True):
            if share:
                refs.append(actor.play.remote(shared, at, share))
            at += share
        xs: list[FloatArray] = []
        ys: list[float] = []
        try:
            parts = self.ray.get(refs)
        except self.ray.exceptions.RayActorError:  # not restarted: it would start its rounds over
            raise RoppyakkenError(
                "a self-play actor was lost (its worker process or its node died); "
                "the rounds it was playing cannot be played again: start the training again"
            ) from None
        for part_x, part_y in parts:
            xs.extend(part_x)
            ys.extend(part_y)
        return xs, ys


def train(args: argparse.Namespace, log: Any) -> tuple[ValueNet, list[dict[str, float]]]:
    """Self-play training (see the module docstring); returns the net and the curve.

    Rounds are played a batch at a time with the weights of the batch's start (the
    learner updates between batches), here or by Ray actors (``args.ray``).
    """
    nrng = np.random.default_rng(args.seed)
    net = ValueNet.init(args.hidden, nrng)
    params = net.params()
    opt = Adam(params, args.lr)
    rounds_source = LocalRounds(args) if getattr(args, "ray", None) is None else RayRounds(args)
    eval_deals = game_seeds(args.seed + 1000, args.eval_deals)
    curve: list[dict[str, float]] = []
    start = time.monotonic()
    loss = 0.0
    played_seconds = 0.0

    def evaluate(rounds: int) -> None:
        point: dict[str, float] = {"rounds": rounds, "minutes": (time.monotonic() - start) / 60.0}
        for level in ("greedy", "expert"):
            diff, share = duplicate_rounds(net, level, eval_deals)
            point[f"{level}_diff"] = diff
            point[f"{level}_share"] = share
        point["rounds_per_second"] = rounds / played_seconds if played_seconds else 0.0
        curve.append(point)
        log(
            f"{rounds:>8} rounds  {point['minutes']:6.1f} min  loss {loss:.3f}  "
            f"vs greedy {point['greedy_diff']:+7.1f} ({point['greedy_share']:.3f})  "
            f"vs expert {point['expert_diff']:+7.1f} ({point['expert_share']:.3f})  "
            f"{point['rounds_per_second']:.0f} rounds/s"
        )

    try:
        evaluate(0)
        first = 1
        while first <= args.rounds:
            last = min(args.rounds, (first - 1) // args.batch_rounds * args.batch_rounds + args.batch_rounds)
            began = time.monotonic()
            xs, ys = rounds_source(params, first, last - first + 1)
            played_seconds += time.monotonic() - began
            # An evaluation inside the batch sees the weights the batch was played with.
            for r in range(first, last):
                if r % args.eval_every == 0:
                    evaluate(r)
            if last % args.batch_rounds == 0:
                frac = min(1.0, last / max(1, args.rounds))
                opt.lr = args.lr * (1.0 - 0.9 * frac)  # linear decay to a tenth
                x_all = np.stack(xs)
                y_all = np.array(ys, np.float32)
                for _ in range(args.updates):
                    idx = nrng.integers(0, len(y_all), args.minibatch)
                    loss, grads = gradients(net, x_all[idx], y_all[idx])
                    opt.step(params, grads)
            if last % args.eval_every == 0 or last == args.rounds:
                evaluate(last)
            first = last + 1
    finally:
        if isinstance(rounds_source, RayRounds):
            rounds_source.close()
    return net, curve


def plot(curve: list[dict[str, float]], path: Path) -> None:
    """The learning curve: mean round score difference against greedy and expert."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    rounds = [p["rounds"] for p in curve]
    for level, colour in (("greedy", "tab:blue"), ("expert", "tab:red")):
        ax.plot(rounds, [p[f"{level}_diff"] for p in curve], marker="o", color=colour, label=f"vs {level}")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("self-play rounds")
    ax.set_ylabel("mean score difference per round (points)")
    ax.set_title("Learned baseline (classic, 2 players): duplicate round deals")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report(
    args: argparse.Namespace,
    curve: list[dict[str, float]],
    results: list[dict[str, Any]],
    seconds: float,
    command: str,
) -> str:
    """The markdown of ``bench/RESULTS-rl.md``."""
    lines = [
        "# The learned baseline (`learned` bot level)",
        "",
        "Written by the command below (on one machine, the same arguments give the same weights, "
        "figures and plot).",
        "",
        "```",
        command,
        "```",
        "",
        f"Method: afterstate value network ({args.hidden} ReLU units plus a linear skip, numpy), "
        f"trained by self-play on {args.rounds:,} classic 2-player rounds (epsilon-greedy, "
        f"epsilon {args.epsilon} to {args.epsilon_end}), Monte-Carlo returns (the round's score "
        f"difference), Adam (lr {args.lr} decaying linearly to a tenth, {args.updates} updates "
        f"of {args.minibatch} every {args.batch_rounds} rounds). Seed {args.seed}. "
        f"Wall time {seconds / 60.0:.1f} min (training and evaluation, "
        + (f"self-play in {args.actors} Ray actors)." if args.ray else "one process)."),
        "",
        f"## Strength: {args.deals} duplicate deals (full classic games to 600), 95% Wilson intervals",
        "",
        "| opponent | games | learned wins | win rate | 95% interval "
        "| mean points per game (learned / opponent) |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        lo, hi = r["ci95"][0]
        lines.append(
            f"| {r['bots'][1]} | {r['games']} | {r['wins'][0]} | {r['win_rate'][0]:.3f} | "
            f"{lo:.3f}–{hi:.3f} | {r['mean_points_per_game'][0]} / {r['mean_points_per_game'][1]} |"
        )
    lines += [
        "",
        f"## Learning curve ({args.eval_deals} round deals, each from both seats, greedy policy)",
        "",
        "![learning curve](rl-curve.png)",
        "",
        "| self-play rounds | minutes | vs greedy: diff / rounds won | vs expert: diff / rounds won |",
        "|---|---|---|---|",
    ]
    for p in curve:
        lines.append(
            f"| {int(p['rounds']):,} | {p['minutes']:.1f} "
            f"| {p['greedy_diff']:+.1f} / {p['greedy_share']:.3f} "
            f"| {p['expert_diff']:+.1f} / {p['expert_share']:.3f} |"
        )
    return "\n".join(lines) + "\n"


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(prog="python -m roppyakken.env.train", description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=600_000, help="self-play rounds (default 600000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epsilon", type=float, default=0.2)
    p.add_argument("--epsilon-end", type=float, default=0.03)
    p.add_argument("--batch-rounds", type=int, default=32)
    p.add_argument("--updates", type=int, default=8)
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--eval-every", type=int, default=10_000)
    p.add_argument("--eval-deals", type=int, default=100)
    p.add_argument("--deals", type=int, default=300, help="duplicate games per opponent in the report")
    p.add_argument("--out", type=Path, default=WEIGHTS_PATH, help="weights file (default: the shipped one)")
    p.add_argument("--report", type=Path, default=Path("bench/RESULTS-rl.md"))
    p.add_argument("--plot", type=Path, default=Path("bench/rl-curve.png"))
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="play the self-play rounds in Ray actors on this cluster (auto: the one this machine joined)",
    )
    p.add_argument("--actors", type=int, default=2, help="self-play actors with --ray (2)")
    p.add_argument(
        "--no-report", action="store_true", help="write the weights only: no arena, report or plot"
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Train, save, evaluate, report."""
    args = parser().parse_args(argv)
    if args.rounds < 1 or args.eval_every < 1 or args.deals < 1 or args.eval_deals < 1 or args.actors < 1:
        print(
            "train: --rounds, --eval-every, --deals, --eval-deals and --actors must be positive",
            file=sys.stderr,
        )
        return 2
    if args.batch_rounds < 1:
        print("train: --batch-rounds must be positive", file=sys.stderr)
        return 2
    try:
        if not args.no_report:
            import matplotlib  # noqa: F401  (checked before hours of training, used at the end)
    except ImportError:
        print("train: the plot needs matplotlib: pip install 'roppyakken[train]'", file=sys.stderr)
        return 2
    start = time.monotonic()

    def log(text: str) -> None:
        print(text, flush=True)

    try:
        with document_stdout(args.ray) as out:  # Ray's own messages go to stderr, not into the log
            net, curve = train(args, lambda text: print(text, file=out, flush=True))
    except RoppyakkenError as exc:
        print(f"train: {exc}", file=sys.stderr)
        return 1
    net.save(args.out)
    if args.no_report:
        log(f"wrote {args.out} in {(time.monotonic() - start) / 60.0:.1f} min")
        return 0
    rules = preset("classic")
    results = []
    for level in ("random", "greedy", "expert"):
        try:
            totals = run_arena(rules, [f"learned:weights={args.out}", level], args.deals, seed=args.seed)
        except RoppyakkenError as exc:
            print(f"train: {exc}", file=sys.stderr)
            return 1
        result = summary(totals, "classic")
        results.append(result)
        lo, hi = result["ci95"][0]
        log(f"vs {level}: {result['win_rate'][0]:.3f} ({lo:.3f}-{hi:.3f}) over {result['games']} games")
    seconds = time.monotonic() - start
    argv_text = " ".join(sys.argv[1:] if argv is None else argv)
    command = f"python -m roppyakken.env.train {argv_text}".strip()
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report(args, curve, results, seconds, command))
    args.report.with_suffix(".json").write_text(
        json.dumps({"curve": curve, "arena": results}, indent=1) + "\n"
    )
    plot(curve, args.plot)
    log(f"wrote {args.out}, {args.report}, {args.plot} in {seconds / 60.0:.1f} min")
    return 0 if all(math.isfinite(p["greedy_diff"]) for p in curve) else 1


if __name__ == "__main__":
    sys.exit(main())
