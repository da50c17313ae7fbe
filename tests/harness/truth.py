"""The true game behind the messages a server sends, rebuilt to check what each seat was told."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from roppyakken.actions import action_from_json
from roppyakken.cards import SLUGS, iter_cards
from roppyakken.engine import Game
from roppyakken.events import Event
from roppyakken.rules import Rules

VIEW_KEYS = {
    "seat",
    "players",
    "phase",
    "to_act",
    "dealer",
    "round",
    "leg",
    "totals",
    "legs",
    "hand",
    "hand_sizes",
    "table",
    "captures",
    "pile_count",
    "turned",
    "declared",
    "revealed",
    "legal",
    "lucky_hands",
    "winner",
}
CARD_SLUGS = frozenset(SLUGS)


class Truth:
    """The true game after each number of actions: what each seat cannot see, and its hand."""

    def __init__(self, rules: Rules, players: int, seed: int, actions: list[dict[str, Any]]) -> None:
        game = Game(rules, players, seed)
        self.players = players
        self.hidden: list[dict[int | None, set[str]]] = [self._hidden(game)]
        self.hands: list[list[list[str]]] = [self._hands(game)]
        self.events: list[list[Event]] = [list(game.events)]
        for data in actions:
            self.events.append(game.apply(action_from_json(data)))
            self.hidden.append(self._hidden(game))
            self.hands.append(self._hands(game))

    def _hands(self, game: Game) -> list[list[str]]:
        return [[SLUGS[c] for c in iter_cards(h)] for h in game.hands]

    def _hidden(self, game: Game) -> dict[int | None, set[str]]:
        pile = {SLUGS[c] for c in game.pile[game.pile_pos :] if c != game.turned}
        secret = [
            {SLUGS[c] for c in iter_cards(h & ~r)} for h, r in zip(game.hands, game.revealed, strict=True)
        ]
        out: dict[int | None, set[str]] = {None: pile.union(*secret)}
        for seat in range(self.players):
            out[seat] = pile.union(*(secret[t] for t in range(self.players) if t != seat))
        return out

    def check(self, seat: int | None, message: dict[str, Any]) -> None:
        """Fail if ``message`` (received by ``seat``) shows anything that seat may not see."""
        kind = message["type"]
        if kind in ("chat", "chat_history", "muted"):
            # chat names no card of its own, and a channel reaches only its side of the table
            assert not cards_named(message), message
            if kind != "muted":
                assert message["channel"] == ("spectators" if seat is None else "players"), (seat, message)
            return
        if kind == "handed":
            assert not cards_named(message), message
            return
        if "seq" not in message:
            assert kind in ("welcome", "room", "pong"), message
            # the rules name a card (the joker); nothing else in a room message may
            named = cards_named({**message, "room_info": {**message["room_info"], "rules": None}})
            assert not named, f"{kind} names cards: {named}"
            return
        named = cards_named(message)
        k = message["seq"]
        hidden_now = self.hidden[k][seat]
        if kind == "state":
            view = message["view"]
            assert set(view) == VIEW_KEYS
            assert view["seat"] == seat
            assert view["hand"] == ([] if seat is None else self.hands[k][seat])
            assert len(view["hand_sizes"]) == self.players
            leak = named & hidden_now
        elif kind == "timeout":
            assert not named, f"a timeout names cards: {named}"
            leak = set()
        elif kind == "history":
            # what a client that connects late gets: the public events so far, exactly as sent then
            assert (
                message["events"]
                == [e.to_json() for step in self.events[: k + 1] for e in step][message["first"] :]
            )
            assert message["first"] == 0 or len(message["events"]) >= 100
            leak = set()
        else:
            assert kind in ("events", "round_end", "game_end"), message
            if kind == "events":
                assert message["events"] == [e.to_json() for e in self.events[k]]
            before = self.hidden[max(k - 1, 0)][seat]
            leak = named & hidden_now & before - event_cards(self.events[k])
        assert not leak, f"seat {seat} was shown {sorted(leak)} in a {kind} message at seq {k}"


def cards_named(message: dict[str, Any]) -> set[str]:
    return {s for s in strings(message) if s in CARD_SLUGS}


def event_cards(events: list[Event]) -> set[str]:
    return set().union(*(cards_named(e.to_json()) for e in events)) if events else set()


def strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)
