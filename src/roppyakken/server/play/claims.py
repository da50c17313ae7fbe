"""Which member of a cluster holds a room: the interface, and the single server's answer (every room).

The cluster's implementation is :class:`~roppyakken.server.cluster.link.Cluster` (Redis leases).
"""

from __future__ import annotations

from typing import Protocol


class RoomClaims(Protocol):
    """Which server holds a room: a cluster lets one member at a time hold it (Redis leases)."""

    @property
    def shared(self) -> bool:
        """Whether other servers hold rooms of the same database (a cluster): a room in memory may
        have been taken since, and a stopping server gives its rooms back."""
        ...

    async def claim(self, room_id: str) -> str | None:
        """Hold ``room_id`` here: None if held here now, else the id of the member that holds it."""
        ...

    def release_soon(self, room_id: str) -> None:
        """This member no longer holds ``room_id`` (it left memory); a later claim waits for this."""
        ...

    def holds(self, room_id: str) -> bool:
        """Whether this member surely still holds ``room_id`` (it may make moves in it)."""
        ...

    async def confirm(self, room_id: str) -> bool:
        """Whether this member still holds ``room_id``, asked now (:meth:`holds` was unsure: its last
        renewal is too old, e.g. a late one); False if another holds it or nobody can say."""
        ...

    def orphaned_since(self, room_id: str) -> float | None:
        """If the last claim of ``room_id`` took it from a holder that died, the epoch seconds of that
        holder's last sign of life (the room had no living holder since then at most); else None."""
        ...

    async def give_back(self, room_id: str, *, busy: bool) -> None:
        """This server stops: another may take ``room_id`` at once; ``busy``: it must run with nobody
        there (bots, a clock near its deadline), so another member takes it without being asked."""
        ...


class LocalClaims:
    """:class:`RoomClaims` for a single server: every room is held here."""

    shared = False
    """A single server holds every room of its database."""

    def __init__(self) -> None:
        self.held: set[str] = set()

    async def claim(self, room_id: str) -> str | None:
        """See :meth:`RoomClaims.claim`."""
        self.held.add(room_id)
        return None

    def release_soon(self, room_id: str) -> None:
        """See :meth:`RoomClaims.release_soon`."""
        self.held.discard(room_id)

    def holds(self, room_id: str) -> bool:
        """See :meth:`RoomClaims.holds`."""
        return True

    async def confirm(self, room_id: str) -> bool:
        """See :meth:`RoomClaims.confirm`."""
        return True

    def orphaned_since(self, room_id: str) -> float | None:
        """See :meth:`RoomClaims.orphaned_since` (a single server's crash is found at its start)."""
        return None

    async def give_back(self, room_id: str, *, busy: bool) -> None:
        """See :meth:`RoomClaims.give_back`."""
        self.held.discard(room_id)


class HeldElsewhere(Exception):
    """Another member of the cluster holds the room (never with :class:`LocalClaims`)."""

    def __init__(self, room_id: str, holder: str) -> None:
        super().__init__(room_id)
        self.holder = holder


class RoomsFull(Exception):
    """The cluster holds as many rooms as it may (raised by a claim)."""
