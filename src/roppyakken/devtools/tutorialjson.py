"""Write the browser's guided first game: ``server/static/tutorial.json``.

The tutorial (:mod:`roppyakken.tutorial`) is one scripted round, so everything the
browser's table will receive is known in advance. This tool plays the script through the
engine once for each answer to the lucky-hand question (declare it, or keep it secret) and
records, after each of the learner's moves and each of the opponent's, the messages the
server would send the learner's seat (``events``, ``round_end``, ``game_end``, ``state``,
built by the server's own :mod:`roppyakken.server.wire.server` and
:class:`~roppyakken.server.play.seat_views.StateMessages`). The page feeds them to the real table
(``static/js/tutorial.js``), which so looks and plays exactly like a game, and checks each
move against the step's accepted actions. The file is generated, not served by code, and
a test checks it is current:

    python -m roppyakken.devtools.tutorialjson        # (re)write the file
    python -m roppyakken.devtools.tutorialjson --check
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final

from roppyakken import tutorial
from roppyakken.actions import Action, Declare
from roppyakken.cards import slugs_of
from roppyakken.engine import Game
from roppyakken.events import Event, GameEnded, RoundEnded
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.server.wire import server as to_client

OUTPUT: Final = Path(__file__).resolve().parents[1] / "server" / "static" / "tutorial.json"
NAMES: Final = ("", "")
"""The players' names are the page's to fill in, in its own language."""
PATHS: Final[dict[str, Declare]] = {"declare": Declare(("hand-three",)), "keep": Declare(())}
"""The two ways through the lucky-hand step, by the learner's answer."""

Message = dict[str, Any]
Batch = list[Message]


def _change(game: Game, events: list[Event], seq: int) -> Batch:
    """What the server sends every seat after one action, for the learner's seat (see rooms.py)."""
    out: Batch = []
    if events:
        out.append(json.loads(to_client.events([e.to_json() for e in events], seq)))
    for event in events:
        if isinstance(event, RoundEnded):
            captures = [slugs_of(m) for m in game.history[event.round].captures or []]
            score = event.score.to_json()
            out.append(json.loads(to_client.round_end(event.round, score, event.totals, captures, seq)))
        elif isinstance(event, GameEnded):
            out.append(json.loads(to_client.game_end(event.winner, event.reason, "", seq)))
    out.append(json.loads(StateMessages(game, NAMES, seq).for_seat(tutorial.LEARNER)))
    return out


def _path(declare: Declare) -> list[list[Batch]]:
    """The batches of messages before the first move, then after each of the learner's moves.

    Entry 0 is the table as dealt (``history`` and ``state``); entry k holds one batch for
    the learner's k-th move and one for each of the opponent's replies.
    """
    game = tutorial.new_game()
    seq = 0
    first: list[Batch] = [
        [
            json.loads(to_client.history([e.to_json() for e in game.events], seq, 0)),
            json.loads(StateMessages(game, NAMES, seq).for_seat(tutorial.LEARNER)),
        ]
    ]
    out = [first]
    replies = iter(tutorial.OPPONENT_MOVES)
    for step in tutorial.STEPS:
        if not step.accepts:
            continue
        action: Action = declare if isinstance(step.accepts[0], Declare) else step.accepts[0]
        if not step.accepted(action):
            raise AssertionError(f"step {step.id} does not accept {action}")
        batches = [_change(game, game.apply(action, tutorial.LEARNER), seq + 1)]
        seq += 1
        while not game.over and game.to_act == tutorial.OPPONENT:
            batches.append(_change(game, game.apply(next(replies), tutorial.OPPONENT), seq + 1))
            seq += 1
        out.append(batches)
    if not game.over:
        raise AssertionError("the tutorial's script does not reach the end of the game")
    return out


def build() -> dict[str, Any]:
    """The tutorial for the browser: the steps and the messages of both ways through it."""
    script = tutorial.tutorial_json()
    return {
        "preset": script["preset"],
        "learner": script["learner"],
        "steps": script["steps"],
        "paths": {name: _path(declare) for name, declare in PATHS.items()},
    }


def text() -> str:
    """The file's content (compact, one line, deterministic)."""
    return json.dumps(build(), ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write ``server/static/tutorial.json``, or with ``--check`` fail if it is stale."""
    parser = argparse.ArgumentParser(prog="python -m roppyakken.devtools.tutorialjson", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report whether the file is stale")
    args = parser.parse_args(argv)
    content = text()
    current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else None
    if args.check:
        if current != content:
            print(f"stale: {OUTPUT}; run python -m roppyakken.devtools.tutorialjson", file=sys.stderr)
            return 1
        return 0
    if current != content:
        OUTPUT.write_text(content, encoding="utf-8", newline="\n")
        print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
