"""The cost of building the messages a room sends after each move, by the server's builders and by
pydantic models (the typed forms weighed for them), in microseconds per message.

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_messages.py`` (``--repeat N``).  It plays a
seeded two-player game and, after each move, builds what a room sends: ``events``, then the
``state`` of each seat and of the spectators, and a ``timeout`` (views made beforehand).
Rows:

- ``builders``: the server's form (server/wire/server.py: a TypedDict, that is a dict, and one
  encoder; ``events`` and ``timeout`` by its builders; rooms assemble ``state`` from parts encoded
  once, server/play/seat_views.py, so a whole ``state`` encode here is its upper bound); run
  against an older checkout it times the builders of that day (``protocol.py``);
- ``pydantic + dump_json``: a validated model per message, ``model_dump_json`` (not the same
  bytes: pydantic writes 1e-05 as 0.00001);
- ``pydantic + json.dumps``: a validated model, ``model_dump(mode="json")`` then the server's
  encoder: the same bytes as the builders;
- ``model_construct + json.dumps``: the same without validation.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from roppyakken.choices import choices
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import view_of

try:
    from roppyakken.server.wire import server as builders
except ImportError:  # a checkout from before server/wire/server.py
    from roppyakken.server.wire import protocol as builders  # type: ignore[no-redef]

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class Events(BaseModel):
    type: Literal["events"]
    seq: int
    events: list[dict[str, Any]]


class State(BaseModel):
    type: Literal["state"]
    seq: int
    names: list[str]
    view: dict[str, Any]
    choices: list[dict[str, Any]]


class Timeout(BaseModel):
    type: Literal["timeout"]
    seq: int
    seat: int
    abandoned: bool


Step = tuple[int, list[dict[str, Any]], list[tuple[dict[str, Any], list[dict[str, Any]]]]]


def _steps(seed: int) -> list[Step]:
    """Each move of a seeded game: its seq, new events, and each seat's (view, choices)."""
    game = Game(preset("classic"), 2, seed=seed)
    rng = random.Random(seed)
    out: list[Step] = []
    seq = 0
    while not game.over:
        before = len(game.events)
        game.apply(rng.choice(game.legal_actions()))
        seq += 1
        views = []
        for seat in (None, 0, 1):
            view = view_of(game, seat)
            views.append((view.to_json(), [c.to_json() for c in choices(view)]))
        out.append((seq, [e.to_json() for e in game.events[before:]], views))
    return out


NAMES = ["a", "b"]


def by_builders(steps: list[Step]) -> int:
    """The server's form: a dict (a TypedDict's instance is one) and the encoder."""
    sent = 0
    for seq, events, views in steps:
        builders.events(events, seq)
        for view, chosen in views:
            message = {"type": "state", "seq": seq, "names": NAMES, "view": view, "choices": chosen}
            _ENCODER.encode(message)
        builders.timeout(1, seq, False)
        sent += 5
    return sent


def _pydantic(encode: Callable[[Any], str], validate: bool) -> Callable[[list[Step]], int]:
    events_of = Events if validate else Events.model_construct
    state_of = State if validate else State.model_construct
    timeout_of = Timeout if validate else Timeout.model_construct

    def run(steps: list[Step]) -> int:
        sent = 0
        for seq, events, views in steps:
            encode(events_of(type="events", seq=seq, events=events))
            for view, chosen in views:
                encode(state_of(type="state", seq=seq, names=NAMES, view=view, choices=chosen))
            encode(timeout_of(type="timeout", seq=seq, seat=1, abandoned=False))
            sent += 5
        return sent

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    steps = _steps(11)
    rows: list[tuple[str, Callable[[list[Step]], int]]] = [
        ("builders", by_builders),
        ("pydantic + dump_json", _pydantic(lambda m: m.model_dump_json(), validate=True)),
        (
            "pydantic + json.dumps",
            _pydantic(lambda m: _ENCODER.encode(m.model_dump(mode="json")), validate=True),
        ),
        (
            "model_construct + json.dumps",
            _pydantic(lambda m: _ENCODER.encode(m.model_dump(mode="json")), validate=False),
        ),
    ]
    print(f"{len(steps)} moves, 5 messages each (events, 3 states, timeout); best of {args.repeat}")
    base = None
    for name, run in rows:
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            sent = run(steps)
            best = min(best, time.perf_counter() - start)
        per = best / sent * 1e6
        base = base or per
        print(f"{name:32s} {per:8.2f} µs/message   x{per / base:.2f}")


if __name__ == "__main__":
    main()
