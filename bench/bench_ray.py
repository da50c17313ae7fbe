"""Arenas and self-play on Ray against one machine's processes: deals and rounds a second.

Needs the extra ``[ray]``.  Starts a one-node Ray instance on this machine for each
measure (``--cpus`` worker processes; Ray's own services run beside them) and prints:

* deals a second of an arena (``--bots``, ``--deals`` duplicate deals) played locally,
  with ``--jobs`` 1 and 2 worker processes, and on Ray with 1 and 2 worker processes;
* the overhead of one task: ``--tasks`` deals of ``random`` against ``random`` (about a
  millisecond each) sent one deal a task, to Ray and to a ``--jobs`` process pool of one
  worker, less the time the same deals take in this process;
* self-play rounds a second of ``python -m roppyakken.env.train`` (its evaluations left
  out) locally, and with 1 and 2 Ray actors (batches of 32 rounds an actor).

The work runs in other processes, so the figures are wall time: on a busy machine,
read them with the load average printed first.

Usage: ``python bench/bench_ray.py [--deals 200] [--tasks 400] [--rounds 512]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from roppyakken.ai.arena import play_deals, run_arena
from roppyakken.ai.driver import game_seeds
from roppyakken.ai.ray_backend import ordered_map, ray_module
from roppyakken.rules import preset

# A one-node instance keeps to loopback when Ray is told this is no cluster host, and
# needs no token (Ray would write one to ~/.ray for every later cluster to require).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")


def ray_instance(cpus: int) -> None:
    """Start a fresh one-node Ray instance with ``cpus`` worker CPUs (stopping the last one)."""
    ray = ray_module()
    ray.shutdown()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)


def arena_rate(bots: list[str], deals: int, jobs: int = 1, ray: str | None = None) -> float:
    """Deals a second of one arena."""
    start = time.perf_counter()
    run_arena(preset("classic"), bots, deals, seed=7, jobs=jobs, ray=ray)
    return deals / (time.perf_counter() - start)


def overhead(tasks: int) -> tuple[float, float, float]:
    """Milliseconds a deal here, and the extra milliseconds a one-deal task costs on Ray and in a pool."""
    rules, bots = preset("classic"), ["random", "random"]
    seeds = [[s] for s in game_seeds(3, tasks)]
    start = time.perf_counter()
    for chunk in seeds:
        play_deals(rules, bots, chunk)
    local = (time.perf_counter() - start) / tasks
    ray_instance(1)
    list(ordered_map("auto", play_deals, (rules, bots), seeds[:8]))  # workers started before timing
    start = time.perf_counter()
    list(ordered_map("auto", play_deals, (rules, bots), seeds))
    on_ray = (time.perf_counter() - start) / tasks
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        list(pool.map(play_deals, [rules] * 8, [bots] * 8, seeds[:8]))
        start = time.perf_counter()
        list(pool.map(play_deals, [rules] * tasks, [bots] * tasks, seeds))
        in_pool = (time.perf_counter() - start) / tasks
    return local * 1000, (on_ray - local) * 1000, (in_pool - local) * 1000


def self_play_rate(rounds: int, actors: int | None) -> float:
    """Self-play rounds a second of a short training run, evaluations left out (``actors``
    None: in this process)."""
    from roppyakken.env.train import parser, train

    args = ["--rounds", str(rounds), "--eval-every", str(10 * rounds), "--eval-deals", "1"]
    if actors is not None:
        ray_instance(actors)
        args += ["--ray", "auto", "--actors", str(actors), "--batch-rounds", str(32 * actors)]
    _net, curve = train(parser().parse_args(args), lambda text: None)
    return curve[-1]["rounds_per_second"]


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bots", default="expert,greedy", help="the arena's bots (expert,greedy)")
    parser.add_argument("--deals", type=int, default=200, help="deals of each arena (200)")
    parser.add_argument("--tasks", type=int, default=400, help="one-deal tasks for the overhead (400)")
    parser.add_argument("--rounds", type=int, default=512, help="self-play rounds of each run (512)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; Python {sys.version.split()[0]}")
    for jobs in (1, 2):
        rate = arena_rate(bots, args.deals, jobs=jobs)
        print(f"arena {args.bots}, --jobs {jobs}:        {rate:7.2f} deals/s")
    for cpus in (1, 2):
        ray_instance(cpus)
        rate = arena_rate(bots, args.deals, ray="auto")
        print(f"arena {args.bots}, Ray, {cpus} worker(s): {rate:7.2f} deals/s")
    local, on_ray, in_pool = overhead(args.tasks)
    print(f"one random deal here: {local:.2f} ms; a one-deal task adds {on_ray:.2f} ms on Ray, ")
    print(f"  {in_pool:.2f} ms in a process pool (--jobs)")
    print(f"self-play, this process:  {self_play_rate(args.rounds, None):7.1f} rounds/s")
    for actors in (1, 2):
        print(f"self-play, {actors} Ray actor(s): {self_play_rate(args.rounds, actors):7.1f} rounds/s")
    ray_module().shutdown()


if __name__ == "__main__":
    main()
