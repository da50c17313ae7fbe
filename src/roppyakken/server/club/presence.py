"""This member's share of the friends' live work: presence, challenges and the followed players online.

Every :data:`~roppyakken.server.people.follows.PRESENCE_TICK` seconds the member writes
the presence of the players connected to it (a lobby socket, or a room socket of a room
it holds: server/people/follows.py) and, while a lobby socket is open here, expires the
challenges past their time.  Every :data:`CHALLENGE_TICK` seconds, while a lobby socket
of a player is open here, it reads from the database the challenges to and from those
players (one query) and sends each lobby socket a ``challenge`` message for each one new
or changed; every :data:`FRIENDS_EVERY` seconds it reads the followed players online of
all its sockets' players at once, and sends ``friends`` to the sockets whose list changed (with
the players each blocks or is blocked by: the lobby hides their open tables).
A challenge sent through one member thus reaches a player connected to another within a
tick, with no relay between members: the database is the cluster's meeting point, as for
quick pairing (server/club/pairing.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sqlalchemy import Connection

from roppyakken.server.club.ticking import Ticker
from roppyakken.server.people import blocks, challenges, follows
from roppyakken.server.store.database import Database
from roppyakken.server.wire import lobby as to_lobby
from roppyakken.server.wire.lobby import FriendEntry

if TYPE_CHECKING:
    from roppyakken.server.play.registry import Registry

CHALLENGE_TICK: Final = 0.5
"""Seconds between two reads of the watched players' challenges."""
FRIENDS_EVERY: Final = 5.0
"""Seconds between two reads of each watched player's followed players online."""


@dataclass(eq=False)
class Watcher:
    """One lobby socket of a player: what it was told."""

    player_id: str
    send: Callable[[str], None]
    seen: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """Each challenge told, by id: (status, room)."""
    online: list[FriendEntry] = field(default_factory=list)
    """The followed players online it was told (none at first: ``friends`` comes once one is)."""
    fresh: bool = True
    """Not told anything yet: only the pending challenges are sent to it first."""
    avoid: frozenset[str] = frozenset()
    """The players it blocks or who block it (the lobby hides their tables), read with the friends."""
    redraw: Callable[[], None] | None = None
    """Sends the lobby again (its tables seen through :attr:`avoid`) when :attr:`avoid` changes."""


class Presence:
    """The member's presence writes and its lobby sockets' friends' messages."""

    def __init__(self, registry: Registry, *, tick: float = CHALLENGE_TICK) -> None:
        self.registry = registry
        self.db: Database = registry.db
        self.ticker = Ticker(self.round, tick, name="roppyakken-presence", what="presence round")
        """The loop that runs :meth:`round`."""
        self.watchers: set[Watcher] = set()
        self._last_presence = -1e9
        self._last_friends = -1e9

    def start(self) -> None:
        """Start the loop."""
        self.ticker.start()

    async def close(self) -> None:
        """Stop the loop (the presence rows age out)."""
        await self.ticker.close()

    def watch(
        self,
        player_id: str,
        send: Callable[[str], None],
        avoid: frozenset[str] = frozenset(),
        redraw: Callable[[], None] | None = None,
    ) -> Watcher:
        """A lobby socket of ``player_id`` opened: tell it its challenges and friends from now on
        (``avoid`` and ``redraw``: see :class:`Watcher`)."""
        watcher = Watcher(player_id, send, avoid=avoid, redraw=redraw)
        self.watchers.add(watcher)
        self.wake(friends=True)
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        """The lobby socket closed."""
        self.watchers.discard(watcher)

    def wake(self, *, friends: bool = False) -> None:
        """Run a round now (a challenge or a follow changed here); ``friends``: read the friends too."""
        if friends:
            self._last_friends = -1e9
        self.ticker.wake()

    def connected(self) -> set[str]:
        """The players with a lobby socket, or a room socket of a room held here, open on this member."""
        ids = {w.player_id for w in self.watchers}
        for room in list(self.registry.rooms.values()):
            for client in list(room.clients):
                player_id = getattr(client, "player_id", None)
                if isinstance(player_id, str):
                    ids.add(player_id)
        return ids

    async def round(self) -> None:
        """One round: presence (when due), challenges, friends online (when due)."""
        watchers = list(self.watchers)
        watched = {w.player_id for w in watchers}
        if time.monotonic() - self._last_presence >= follows.PRESENCE_TICK:
            self._last_presence = time.monotonic()
            ids = self.connected()
            if ids:
                await self.db.run(lambda c: _touch(c, ids, bool(watched), time.time()), alone=True)
        if not watchers:
            return
        found = await self.db.run(lambda c: challenges.changed(c, watched))
        for watcher in watchers:
            for info in found:
                if watcher.player_id not in (info["challenger"]["id"], info["challenged"]["id"]):
                    continue
                if info["status"] == "accepted" and info["room"] is None:
                    continue  # its room is being made: told once it is
                state = (info["status"], info["room"])
                if watcher.seen.get(info["id"]) == state:
                    continue
                watcher.seen[info["id"]] = state
                if watcher.fresh and info["status"] != "pending":
                    continue
                watcher.send(to_lobby.challenge(info))
            watcher.fresh = False
            readable = {info["id"] for info in found}  # what it was told of challenges gone is forgotten
            watcher.seen = {k: v for k, v in watcher.seen.items() if k in readable}
        if time.monotonic() - self._last_friends >= FRIENDS_EVERY:
            self._last_friends = time.monotonic()
            online, apart = await self.db.run(
                lambda c: (follows.online_of(c, watched, time.time()), blocks.partners(c, watched))
            )
            for watcher in watchers:
                avoid = apart.get(watcher.player_id, frozenset())
                if avoid != watcher.avoid:
                    watcher.avoid = avoid
                    if watcher.redraw is not None:
                        watcher.redraw()
                now_online = online.get(watcher.player_id, [])
                if watcher.online != now_online:
                    watcher.online = now_online
                    watcher.send(to_lobby.friends(now_online))


def _touch(conn: Connection, ids: set[str], expiring: bool, now: float) -> None:
    """The presence of this member's connected players; with lobby sockets open, challenges past their
    time expire too (so that their players are told)."""
    follows.touch(conn, ids, now)
    if expiring:
        challenges.expire(conn, now)
