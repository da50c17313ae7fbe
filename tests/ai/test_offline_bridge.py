"""The offline table (roppyakken.ai.offline, what the browser's worker runs on Pyodide) against the server.

A seeded game played through the bridge with given decisions gives the same record as the
server's engine and bot runner for the same seed and decisions; every message the bridge
sends validates against the schema the server publishes, and its ``state``, ``hint`` and
``review`` are the very ones the server builds for that seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # via ray in the dev lock

from roppyakken.actions import Action, action_from_json
from roppyakken.ai.hint import REVIEW_WORLDS
from roppyakken.ai.offline import (
    HINT_WORLDS,
    OfflineTable,
    call,
    decision_seed,
    hint_payload,
    public_seed,
    rules_from_json,
)
from roppyakken.engine import Game
from roppyakken.record import record_of
from roppyakken.rules import preset
from roppyakken.server.play import bot_loop, bots, hints, timer
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.server.wire import server as to_client
from roppyakken.view import SeatView, view_of

Decide = Callable[[SeatView], Action]


def first_legal(view: SeatView) -> Action:
    """The person's decisions in these tests: always the first legal action."""
    return view.legal[0]


def last_legal(view: SeatView) -> Action:
    """Another way to decide: the last legal action."""
    return view.legal[-1]


def server_game(
    rules_name: str, players: int, seat: int, levels: list[str | None], seed: int, decide: Decide
) -> Game:
    """The game as the server plays it: its engine, its bots' seeds (server/play/bots.py)."""
    game = Game(preset(rules_name), players, seed)
    moves = 0
    while not game.over:
        index = game.to_act
        view = view_of(game, index)
        level = levels[index]
        if index == seat:
            action = decide(view)
        else:
            assert level is not None
            action = bots.think(level, decision_seed(seed, index, moves), view)[0]
        game.apply(action, index)
        moves += 1
    return game


def offline_game(
    rules_name: str, players: int, seat: int, levels: list[str | None], seed: int, decide: Decide
) -> tuple[OfflineTable, list[dict[str, Any]]]:
    """The same game through the bridge, with every message it sent."""
    table = OfflineTable(preset(rules_name), players, seat, levels, seed, "Ann", review=False)
    sent = table.opening()
    while not table.game.over:
        state = [m for m in sent if m["type"] == "state"][-1]
        view = view_of(table.game, seat)
        assert [a.to_json() for a in view.legal] == state["view"]["legal"]
        sent.extend(table.act(decide(view).to_json()))
    return table, sent


@pytest.mark.parametrize(
    ("rules_name", "players", "levels", "seed", "decide"),
    [
        ("classic", 2, [None, "expert"], 11, first_legal),
        ("classic", 3, [None, "greedy", "expert"], 12, last_legal),
        ("online", 2, [None, "random"], 2**40 + 3, first_legal),
    ],
)
def test_a_seeded_game_gives_the_servers_record(
    rules_name: str, players: int, levels: list[str | None], seed: int, decide: Decide
) -> None:
    table, _ = offline_game(rules_name, players, 0, levels, seed, decide)
    expected = server_game(rules_name, players, 0, levels, seed, decide)
    names = ["Ann", *[f"bot:{lv}" for lv in levels[1:]]]
    assert table.record() == record_of(expected, names)
    assert table.record()["winner"] is not None


def test_the_decision_seed_is_the_servers() -> None:
    """The server's bots and the clock's bot seed their decisions with the offline table's function."""
    assert vars(bot_loop)["decision_seed"] is decision_seed and vars(timer)["decision_seed"] is decision_seed


def test_every_message_validates_against_the_published_schema() -> None:
    validator = Draft202012Validator(to_client.schema())
    short = rules_from_json({"toml": 'preset = "classic"\ntarget = 100\n'})
    table = OfflineTable(short, 2, 0, [None, "greedy"], 5, "Ann", review=True)
    sent = table.opening()
    hinted = -1
    while not table.game.over:
        view = view_of(table.game, 0)
        if hinted != view.round and any(a.to_json()["type"] == "play" for a in view.legal):
            sent.append(table.hint())  # once a round: a hint plays many worlds
            hinted = view.round
        sent.extend(table.act(first_legal(view).to_json()))
        sent.extend(table.reviews())
    kinds = {m["type"] for m in sent}
    assert kinds >= {"history", "state", "events", "round_end", "review", "hint", "game_end"}
    for message in sent:
        problems = [e.message for e in validator.iter_errors(message)]
        assert problems == [], (message["type"], problems)


def test_state_messages_are_the_servers() -> None:
    """At every state of a game the bridge's ``state`` is the server's for that seat (seat_views.py)."""
    table = OfflineTable(preset("classic"), 3, 1, ["expert", None, "random"], 21, "Ann", review=False)
    sent = table.opening()
    while True:
        ours = table.state()
        theirs = json.loads(StateMessages(table.game, table.names, table.actions).for_seat(1))
        assert ours == theirs
        assert [m for m in sent if m["type"] == "state"][-1] == ours
        if table.game.over:
            break
        sent = table.act(first_legal(view_of(table.game, 1)).to_json())


def test_hints_and_reviews_are_the_servers() -> None:
    table = OfflineTable(preset("classic"), 2, 0, [None, "greedy"], 9, "Ann")
    table.opening()
    view = view_of(table.game, 0)
    while not any(a.to_json()["type"] == "play" for a in view.legal):
        table.act(first_legal(view).to_json())
        view = view_of(table.game, 0)
    assert hint_payload(view, 77) == hints.compute_hint(view, HINT_WORLDS, 77)
    decisions = []
    turn = 0
    while table.game.round == 0 and not table.game.over:
        view = view_of(table.game, 0)
        action = first_legal(view)
        if action.to_json()["type"] in ("play", "take") and len(view.legal) >= 2:
            turn += 1
            decisions.append((turn, view, action))
        sent = table.act(action.to_json())
        assert not [m for m in sent if m["type"] == "review"]  # asked apart
        reviews = table.reviews()
        if reviews:
            seed = public_seed("offline", 0)  # the server's seed rule, with the offline table's label
            assert reviews[0]["reviews"] == hints.compute_review(decisions, REVIEW_WORLDS, seed)
            return
    pytest.fail("the first round ended without a review")


def test_the_worker_entry_point_answers_json() -> None:
    started = json.loads(
        call(
            json.dumps(
                {
                    "op": "start",
                    "rules": {"preset": "classic"},
                    "players": 2,
                    "seed": 3,
                    "bots": {"1": "random"},
                }
            )
        )
    )["ok"]
    assert started["room_info"]["seats"][1] == {
        "name": "bot:random",
        "kind": "bot",
        "connected": True,
        "level": "random",
    }
    state = [m for m in started["messages"] if m["type"] == "state"][-1]
    illegal = {"type": "redeal", "call": True}
    assert action_from_json(illegal) not in [action_from_json(a) for a in state["view"]["legal"]]
    refused = json.loads(call(json.dumps({"op": "act", "action": illegal})))
    assert "ok" not in refused and refused["error"] and refused["text"]["template"]
    score = json.loads(
        call(
            json.dumps(
                {
                    "op": "score",
                    "rules": {"preset": "classic"},
                    "body": {"players": [{"captures": []}, {"captures": []}]},
                }
            )
        )
    )
    assert "ok" in score, score
    assert json.loads(call("{}"))["error"].startswith("bad request")


def test_rules_from_json_reads_presets_records_and_house_rules() -> None:
    assert rules_from_json({"preset": "online"}) == preset("online")
    assert rules_from_json({"preset": "online", "options": preset("online").options()}) == preset("online")
    assert rules_from_json({"toml": 'preset = "classic"\ntarget = 100\n'}).target == 100
