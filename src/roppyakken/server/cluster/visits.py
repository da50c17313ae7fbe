"""A room asked about wherever it is held: here, or by another member of the cluster.

:meth:`Visits.visit` answers an ``info`` or ``join`` call (server/wire/member.py)
for the HTTP API.  A room held here is asked directly (:meth:`Visits.do`); in a
cluster, a room held by another member is asked through Redis, and if that
member does not answer (it died), the room is claimed again until a member
holds it (about a lease's lifetime).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Final

from roppyakken.errors import Phrase
from roppyakken.server.play.claims import HeldElsewhere
from roppyakken.server.play.registry import Registry
from roppyakken.server.play.room import Room
from roppyakken.server.play.seats import WAITING
from roppyakken.server.store.database import StorageError
from roppyakken.server.wire import text, wording
from roppyakken.server.wire.member import InfoCall, JoinCall, Joined, Refused, RoomInfo

if TYPE_CHECKING:
    from roppyakken.server.cluster.link import Cluster

CLAIM_PATIENCE: Final = 10.0
"""Seconds a request waits for a room's holder to answer or for its lease to come free (cluster)."""
JOINS_REMEMBERED: Final = 1024
"""Joins through the cluster remembered by their key, so that a retried one takes no second seat."""

Answer = RoomInfo | Joined | Refused


class Visits:
    """Calls about rooms, answered here or by their holder."""

    def __init__(self, registry: Registry, cluster: Cluster | None = None) -> None:
        self.registry = registry
        self.cluster = cluster
        self._joins: OrderedDict[tuple[str, str], asyncio.Future[Joined | Refused]] = OrderedDict()
        """Joins asked through the cluster, by (room, the visit's key): a retried visit gets the
        first answer (the last :data:`JOINS_REMEMBERED`)."""

    async def visit(self, call: InfoCall | JoinCall) -> Answer | None:
        """``call`` on its room wherever it is held; None if there is no such room."""
        deadline = time.monotonic() + CLAIM_PATIENCE
        # One key for every try of this visit through the cluster: a holder that answers a join
        # too late and is asked again gives the same seat, not a second one (see :meth:`do`).
        relayed = call
        if isinstance(call, JoinCall) and call.once is None:
            relayed = call.model_copy(update={"once": secrets.token_hex(8)})
        while True:
            try:
                room = await self.registry.get(call.room)
            except HeldElsewhere as exc:
                assert self.cluster is not None
                answer = None
                with contextlib.suppress(StorageError):
                    answer = await self.cluster.bus.call(exc.holder, relayed)
                if isinstance(answer, RoomInfo | Joined | Refused):
                    return answer
                if time.monotonic() > deadline:
                    raise StorageError(text.STORAGE_UNAVAILABLE) from None
                await asyncio.sleep(0.1)
                continue
            if room is None:
                return None
            return await self.do(room, call)

    async def do(self, room: Room, call: InfoCall | JoinCall) -> Answer:
        """``call`` on a room held here."""
        if isinstance(call, InfoCall):
            return RoomInfo(info=dict(room.info()))
        if call.once is None:
            return await self._join(room, call.name)
        key = (room.id, call.once)
        if key not in self._joins:  # the first try; a later one waits for the same answer
            self._joins[key] = asyncio.ensure_future(self._join(room, call.name))
            while len(self._joins) > JOINS_REMEMBERED:
                self._joins.popitem(last=False)
        return await asyncio.shield(self._joins[key])

    async def _join(self, room: Room, name: str) -> Joined | Refused:
        joined = await room.join(name)
        if joined is None:
            message = text.ROOM_STARTED if room.status != WAITING else text.ROOM_FULL
            said = wording.answer(Phrase(message, room=room.id))
            return Refused(status=409, error=said["error"], text=said["text"])
        return Joined(seat=joined[0], token=joined[1])
