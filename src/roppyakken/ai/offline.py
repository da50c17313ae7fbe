"""The offline table: one person against bots, answered as the server answers that person's seat.

The browser's offline mode runs this module on Pyodide in a Web Worker
(``static/js/offline/worker.js``): the same engine and the same bots as the server, from the
same source.  :class:`OfflineTable` holds one :class:`~roppyakken.engine.Game`; the person's
moves go in through :meth:`OfflineTable.act` and every change comes back as the messages the
server sends that seat (docs/PROTOCOL.md): ``events``, ``round_end``, ``game_end`` and the
seat's ``state`` (its view, with its choices), and each round's ``review``, asked apart
(:meth:`OfflineTable.reviews`) as the server sends it apart; all built from the same builders
(:func:`~roppyakken.view.view_of`, :meth:`~roppyakken.view.SeatView.to_json`,
:func:`~roppyakken.choices.choices`, the events' ``to_json``).  The bots' seats are played
in the same call, each decision seeded as the server seeds it (:func:`decision_seed`), so a
seed and the person's moves give the same game, and the same record
(:func:`~roppyakken.record.record_of`), as on the server.

It lives with the bots (it plays them and asks :mod:`roppyakken.ai.hint` for hints and the
round's review) and, like them, needs nothing but the standard library and the core.
:func:`call` is the worker's one entry point: JSON text in, JSON text out.
"""

from __future__ import annotations

import json
import math
import time
import tomllib
import zlib
from collections.abc import Sequence
from typing import Any, Final

from roppyakken.actions import Action, Play, Take, action_from_json
from roppyakken.ai.base import BOT_LEVELS, make_bot
from roppyakken.ai.hint import DEFAULT_WORLDS, REVIEW_TOP, REVIEW_WORLDS, MoveHint, hint, review
from roppyakken.cards import SLUGS, slugs_of
from roppyakken.choices import choices
from roppyakken.documents import score_document
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.events import Event, GameEnded, RoundEnded
from roppyakken.i18n import N_
from roppyakken.record import record_of
from roppyakken.rules import PRESETS, Rules, from_options, preset, rules_from_mapping
from roppyakken.view import SeatView, view_of

OFFLINE_LEVELS: Final = ("random", "greedy", "expert", "master")
"""The bot levels offline play offers: those of the core (the ``learned`` level needs numpy)."""
HINT_WORLDS: Final = DEFAULT_WORLDS
"""Worlds a hint plays each candidate in, offline and on the server."""
RECORD_URL: Final = "offline:record"
"""The ``record_url`` of an offline ``game_end``: the page keeps the record itself
(:meth:`OfflineTable.record`)."""


def decision_seed(room_seed: int, seat: int, move: int) -> int:
    """The seed of one decision of the bot in ``seat`` at move ``move`` of a game: the server's bots
    (server/play/bots.py) and the offline table's alike, so that a seed and the person's moves give
    the same bots' moves offline as on the server."""
    return (room_seed + 7919 * (seat + 1) + 104_729 * move) % 2**63


def public_seed(label: str, n: int) -> int:
    """A seed for sampling hint worlds, from public facts only (a room's id or 'offline', a count):
    never a deal's secret seed."""
    return zlib.crc32(f"{label}:{n}".encode())


def _round(x: float, digits: int = 2) -> float | None:
    return round(x, digits) if math.isfinite(x) else None


def move_json(move: MoveHint) -> dict[str, Any]:
    """One candidate of a hint as the protocol sends it (docs/PROTOCOL.md, ``hint``)."""
    return {
        "action": move.action.to_json(),
        "card": SLUGS[move.card],
        "target": slugs_of(move.target),
        "expert_choice": move.expert_choice,
        "points_now": move.points_now,
        "yaku_now": list(move.yaku_now),
        "expected_score": _round(move.expected_score, 1),
        "score_ci95": _round(move.score_ci95, 1),
        "expected_margin": _round(move.expected_margin, 1),
        "margin_ci95": _round(move.margin_ci95, 1),
        "risk": _round(move.risk, 1),
        "win_chance": _round(move.win_chance, 3),
        "yaku_chances": [{"yaku": slug, "chance": round(p, 2)} for slug, p in move.yaku_chances],
    }


def hint_payload(view: SeatView, seed: int, worlds: int = HINT_WORLDS) -> dict[str, Any]:
    """The fields of a ``hint`` message for ``view``."""
    h = hint(view, worlds=max(1, worlds), seed=seed)
    return {"worlds": h.worlds, "moves": [move_json(m) for m in h.moves]}


def review_items(
    decisions: Sequence[tuple[int, SeatView, Action]], seed: int, worlds: int = REVIEW_WORLDS
) -> list[dict[str, Any]]:
    """The ``reviews`` of a ``review`` message: ``decisions`` are (turn, view, action made)."""
    reviews = review(
        [(view, action) for _, view, action in decisions], top=REVIEW_TOP, worlds=max(1, worlds), seed=seed
    )
    return [
        {
            "turn": decisions[r.index][0],
            "phase": r.view.phase.value,
            "played": move_json(r.played),
            "best": move_json(r.best),
            "win_chance_lost": round(r.loss, 3),
            "points_lost": round(r.margin_loss, 1),
        }
        for r in reviews
    ]


def rules_from_json(value: Any) -> Rules:
    """``{"preset": NAME}``, ``{"preset", "options"}`` (a record's) or ``{"toml": HOUSE_RULES}``
    (a malformed document: :class:`tomllib.TOMLDecodeError`, a ``ValueError``)."""
    if not isinstance(value, dict):
        raise ValueError("rules: an object")
    if "toml" in value:
        return rules_from_mapping(tomllib.loads(str(value["toml"])))
    name = str(value.get("preset", "classic"))
    options = value.get("options")
    return preset(name) if options is None else from_options(name, options)


def decides(view: SeatView) -> bool:
    return any(isinstance(a, (Play, Take)) for a in view.legal)


class OfflineTable:
    """One game: the person (``name``) in ``seat``, a bot of ``levels[i]`` in every other seat ``i``
    (``levels[seat]`` is None), named as the server names them (``bot:LEVEL``)."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        seat: int,
        levels: Sequence[str | None],
        seed: int,
        name: str = "you",
        *,
        review: bool = True,
    ) -> None:
        # The page offers only what is valid: anything else is a programming error.
        if players not in rules.players:
            raise ValueError(f"{players} players: the preset is for {rules.players}")
        if not 0 <= seat < players or len(levels) != players:
            raise ValueError("one level a seat, None for the person's")
        for index, level in enumerate(levels):
            if (index == seat) != (level is None) or (level is not None and level not in BOT_LEVELS):
                raise ValueError(f"seat {index}: level {level!r}")
        self.rules = rules
        self.seat = seat
        self.levels = list(levels)
        self.seed = seed
        self.game = Game(rules, players, seed)
        self.actions = 0
        self.names = [f"bot:{lv}" if lv is not None else name for lv in levels]
        self.review = review
        """Whether the person's decisions of each round are reviewed when it ends."""
        self._decisions: list[tuple[int, SeatView, Action]] = []
        self._turns = 0
        self._due: list[tuple[int, list[tuple[int, SeatView, Action]]]] = []
        """Rounds ended whose review is not worked out yet, with the person's decisions."""

    # ----------------------------------------------------------------- messages

    def room_info(self) -> dict[str, Any]:
        """The game as ``welcome.room_info`` describes a room (docs/PROTOCOL.md)."""
        return {
            "room": "offline",
            "players": self.game.players,
            "rules": {"preset": self.rules.preset, "options": self.rules.options()},
            "seats": [
                {"name": self.names[i], "kind": "human", "connected": True}
                if lv is None
                else {"name": self.names[i], "kind": "bot", "connected": True, "level": lv}
                for i, lv in enumerate(self.levels)
            ],
            "status": "over" if self.game.over else "playing",
            "commitment": None,
            "hints": True,
            "clock": "none",
            "public": False,
            "rated": False,
        }

    def state(self) -> dict[str, Any]:
        """The seat's ``state`` message now."""
        view = view_of(self.game, self.seat)
        return {
            "type": "state",
            "seq": self.actions,
            "names": list(self.names),
            "view": view.to_json(),
            "choices": [c.to_json() for c in choices(view)],
        }

    def opening(self) -> list[dict[str, Any]]:
        """What a seat that joins the game is sent: the events so far, then the bots' first moves."""
        out: list[dict[str, Any]] = [
            {
                "type": "history",
                "seq": self.actions,
                "first": 0,
                "events": [e.to_json() for e in self.game.events],
            }
        ]
        out.append(self.state())
        out.extend(self._bots())
        return out

    def _change(self, new_events: list[Event]) -> list[dict[str, Any]]:
        """The messages of one change, in the server's order (room._send_change)."""
        seq = self.actions
        out: list[dict[str, Any]] = []
        if new_events:
            out.append({"type": "events", "seq": seq, "events": [e.to_json() for e in new_events]})
        for event in new_events:
            if isinstance(event, RoundEnded):
                captures = [slugs_of(m) for m in self.game.history[event.round].captures or []]
                out.append(
                    {
                        "type": "round_end",
                        "seq": seq,
                        "round": event.round,
                        "score": event.score.to_json(),
                        "totals": list(event.totals),
                        "captures": captures,
                    }
                )
                self._round_ended(event.round)
            elif isinstance(event, GameEnded):
                out.append(
                    {
                        "type": "game_end",
                        "seq": seq,
                        "winner": event.winner,
                        "reason": event.reason,
                        "record_url": RECORD_URL,
                    }
                )
        out.append(self.state())
        return out

    def _round_ended(self, round_index: int) -> None:
        made, self._decisions, self._turns = self._decisions, [], 0
        if made and self.review:
            self._due.append((round_index, made))

    def reviews(self) -> list[dict[str, Any]]:
        """The ``review`` messages of the rounds ended since the last call.

        Worked out apart from the move that ended the round (as the server sends them after
        the round's end), so that the round's end is shown while the master reviews it."""
        due, self._due = self._due, []
        out = []
        for round_index, made in due:
            seed = public_seed("offline", round_index * 10_000 + self.seat)
            items = review_items(made, seed)
            out.append({"type": "review", "round": round_index, "seat": self.seat, "reviews": items})
        return out

    # ----------------------------------------------------------------- moves

    def _apply(self, seat: int, action: Action) -> list[dict[str, Any]]:
        new_events = self.game.apply(action, seat)
        self.actions += 1
        return self._change(new_events)

    def _bots(self) -> list[dict[str, Any]]:
        """The bots' moves until the person is to act or the game is over."""
        out: list[dict[str, Any]] = []
        while not self.game.over and self.game.to_act != self.seat:
            index = self.game.to_act
            level = self.levels[index]
            assert level is not None
            view = view_of(self.game, index)
            action = make_bot(level, decision_seed(self.seed, index, self.actions)).choose(view)
            out.extend(self._apply(index, action))
        return out

    def act(self, action_json: Any) -> list[dict[str, Any]]:
        """The person's move (an action's JSON), then the bots' until the person's turn again.

        An illegal move raises :class:`~roppyakken.errors.RoppyakkenError` and changes nothing."""
        if self.game.over:
            raise RoppyakkenError(N_("the game is over"))
        action = action_from_json(action_json)
        seen = view_of(self.game, self.seat)
        out = self._apply(self.seat, action)
        if isinstance(action, (Play, Take)) and len(seen.legal) >= 2:
            self._turns += 1
            self._decisions.append((self._turns, seen, action))
        out.extend(self._bots())
        return out

    def hint(self) -> dict[str, Any]:
        """The ``hint`` message for the person's decision at hand."""
        view = view_of(self.game, self.seat)
        if self.game.over or not decides(view):
            raise RoppyakkenError(N_("a hint is for your own turn to play or take a card"))
        payload = hint_payload(view, public_seed("offline", self.actions))
        return {"type": "hint", "seq": self.actions, "seat": self.seat, **payload}

    def record(self) -> dict[str, Any]:
        """The game's record (FORMATS.md §3), as the server writes it (without a deal commitment)."""
        return record_of(self.game, self.names)


def presets_json() -> list[dict[str, Any]]:
    """The presets as ``GET /api/presets`` lists them (without their descriptions)."""
    return [
        {"name": name, "players": list(preset(name).players), "options": preset(name).options()}
        for name in PRESETS
    ]


def decision_times(
    level: str, *, decisions: int, seed: int = 1, rules_name: str = "classic", players: int = 2
) -> dict[str, list[float]]:
    """Milliseconds each of ``decisions`` bot decisions with a choice (two legal actions or more)
    took, bots of ``level`` in every seat of
    games seeded from ``seed`` (as :func:`decision_seed` seeds them): the same positions wherever
    it runs, for comparing the browser with CPython (bench/bench_offline.py).  ``ms``: the times;
    ``rollouts``: the playouts a searching bot made in each (its ``last_rollouts``; 0 for others)."""
    out: list[float] = []
    rollouts: list[float] = []
    game_seed = seed
    while len(out) < decisions:
        game = Game(preset(rules_name), players, game_seed)
        moves = 0
        while not game.over and len(out) < decisions:
            index = game.to_act
            view = view_of(game, index)
            bot = make_bot(level, decision_seed(game_seed, index, moves))
            began = time.perf_counter()
            action = bot.choose(view)
            if len(view.legal) >= 2:  # a decision with a choice (a forced move is not one)
                out.append((time.perf_counter() - began) * 1000.0)
                rollouts.append(float(getattr(bot, "last_rollouts", 0)))
            game.apply(action, index)
            moves += 1
        game_seed += 1
    return {"ms": out, "rollouts": rollouts}


class Bridge:
    """The worker's state: at most one offline game at a time."""

    def __init__(self) -> None:
        self.table: OfflineTable | None = None

    def handle(self, request: dict[str, Any]) -> Any:
        """Answer one request ``{"op": ..., ...}`` (see :func:`call`)."""
        op = request.get("op")
        if op == "start":
            rules = rules_from_json(request.get("rules", {"preset": "classic"}))
            players = int(request.get("players", min(rules.players)))
            seat = int(request.get("seat", 0))
            bots = request.get("bots", {})
            levels = [None if i == seat else str(bots.get(str(i), "expert")) for i in range(players)]
            seed = int(request["seed"])
            name = str(request.get("name") or "you")
            self.table = OfflineTable(
                rules, players, seat, levels, seed, name, review=bool(request.get("review", True))
            )
            return {"room_info": self.table.room_info(), "messages": self.table.opening()}
        if op == "score":
            rules = rules_from_json(request.get("rules", {"preset": "classic"}))
            document = {k: v for k, v in request.get("body", {}).items() if k != "rules"}
            return score_document(rules, document).to_json()
        if op == "presets":
            return presets_json()
        if op == "decision_times":
            return decision_times(
                str(request["level"]),
                decisions=int(request["decisions"]),
                seed=int(request.get("seed", 1)),
                rules_name=str(request.get("preset", "classic")),
                players=int(request.get("players", 2)),
            )
        table = self.table
        if table is None:
            raise ValueError("no offline game is running")
        if op == "act":
            return {"messages": table.act(request.get("action"))}
        if op == "hint":
            return {"messages": [table.hint()]}
        if op == "reviews":
            return {"messages": table.reviews()}
        if op == "record":
            return table.record()
        if op == "state":
            return {"messages": [table.state()]}
        raise ValueError(f"unknown request {op!r}")


_bridge = Bridge()


def call(request_text: str) -> str:
    """The worker's entry point: one JSON request in, ``{"ok": answer}`` or ``{"error", "text"}`` out."""
    try:
        answer = _bridge.handle(json.loads(request_text))
    except RoppyakkenError as exc:
        return json.dumps(
            {"error": str(exc), "text": {"template": exc.template, "fields": _fields(exc)}},
            ensure_ascii=False,
        )
    except (ValueError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        return json.dumps({"error": f"bad request: {exc}"}, ensure_ascii=False)
    return json.dumps({"ok": answer}, separators=(",", ":"), ensure_ascii=False)


def _fields(exc: RoppyakkenError) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in exc.fields.items():
        out[name] = value if value is None or isinstance(value, bool | int | float | str) else str(value)
    return out
