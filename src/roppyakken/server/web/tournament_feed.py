"""The tournament socket's live feed (``/ws/tournament/<id>``, docs/PROTOCOL.md "Tournaments").

A member reads a watched tournament with one task (:class:`Feed`) while anyone there watches it:
only what changed (known.py, beside the database's writer), the page's parts built once on the
event loop when something did (:class:`view.Live`).  Each watching socket (:class:`Watcher`)
sends its player their own table, entry, points and games at once, and, while its page is shown
(``visible``), what every watcher shares at the next of its own moments, one every
:data:`LIVE_SHARED_EVERY` seconds (each watcher's moments are shifted by a random part of that
period, so that a thousand watchers paired at one instant do not all send at one instant).  A
read wakes only the watchers it concerns, :data:`WAKE_CHUNK` to a turn of the event loop, so that
the moves' messages are read between them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Final, Protocol

from sqlalchemy import Connection

from roppyakken.server.club.tournaments import view
from roppyakken.server.club.tournaments.known import Known, refresh
from roppyakken.server.club.tournaments.view import Snapshot
from roppyakken.server.store.database import Database, StorageError
from roppyakken.waiting import woken

log = logging.getLogger("roppyakken.server")

LIVE_EVERY: Final = 1.0
"""Seconds between two reads of a watched tournament by one member (shared by its watchers there);
this member's director's changes are read sooner, at most four times as often."""
LIVE_SHARED_EVERY: Final = 2.0
"""Seconds between two moments at which a watcher may be sent a change that every watcher shares
(its own table, standings line or entry is sent at once)."""
WAKE_CHUNK: Final = 32
"""Watchers a read wakes in one turn of the event loop (the next ones in the next turn)."""


@dataclass(eq=False, slots=True)
class Watcher:
    """One socket watching a tournament through its member's :class:`Feed`."""

    player: str | None
    """The watching player (None: nobody signed in)."""
    poked: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when there may be something new for this watcher."""
    waiting: bool = False
    """A change every watcher shares waits for this watcher's turn (its own timer wakes it), or the
    page is hidden: the feed does not wake it for such a change."""
    visible: bool = True
    """The page is shown (a hidden one is sent only the player's own parts)."""
    looked: bool = False
    """The page was shown again: what all share, if it changed, is sent at once."""
    page: int = 1
    """The page of the standings' lines the page shows (``{"type": "standings"}``)."""
    tables_page: int = 1
    """The page of the tables the page shows (``{"type": "tables"}``)."""
    playing: bool = False
    """The page shows the tables in play only (``{"type": "tables", "playing": true}``)."""

    def __post_init__(self) -> None:
        self.poked.set()  # the first look sends whatever there is

    def shown(self, visible: bool) -> None:
        """The page says whether it is shown (``{"type": "visible"}``)."""
        if visible and not self.visible:
            self.looked = True
            self.poked.set()
        self.visible = visible

    def paged(self, page: int) -> None:
        """The page shows another page of the standings (``{"type": "standings"}``): sent at once."""
        if page != self.page:
            self.page = page
            self.poked.set()

    def tables_paged(self, page: int, playing: bool) -> None:
        """The page shows another page of the tables, of those in play or not (``{"type":
        "tables"}``): sent at once."""
        if (page, playing) != (self.tables_page, self.playing):
            self.tables_page, self.playing = page, playing
            self.poked.set()


class Feed:
    """One watched tournament on this member: read every :data:`LIVE_EVERY` seconds by one task while
    anyone here watches it, the read shared by its watchers (:class:`view.Live`)."""

    def __init__(self, db: Database, tournament_id: str) -> None:
        self.db = db
        self.tournament_id = tournament_id
        self.live: view.Live | None = None
        self.gone = False
        """No such tournament."""
        self.version = 0
        """Raised when what every watcher is sent alike changed."""
        self.watchers: set[Watcher] = set()
        self.known: Known | None = None
        """What the reads know of the tournament (each read takes only what may have changed)."""
        self.club_name: str | None = None
        self.made: view.TablesMade = {}
        """The tables as the page shows them, built once each while unchanged."""
        self._soon = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def watch(self, player: str | None) -> Watcher:
        """One more watcher (the first starts the reads)."""
        watcher = Watcher(player)
        self.watchers.add(watcher)
        if self._task is None or self._task.done():
            self.known = None  # (a read the last task left under way may still change the one it had)
            self.made = {}
            self._task = asyncio.create_task(self._run(), name=f"tournament-feed-{self.tournament_id}")
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        """One watcher fewer (the last stops the reads)."""
        self.watchers.discard(watcher)
        if not self.watchers and self._task is not None:
            self._task.cancel()
            self._task = None

    def soon(self) -> None:
        """Read again without waiting out :data:`LIVE_EVERY` (this member's director changed it)."""
        self._soon.set()

    def _read(self, conn: Connection, known: Known | None) -> tuple[Known, str | None] | None:
        """``known`` brought up to date, and the club's name (read with the first read); None: there
        is no such tournament.  On the database's thread beside its writer."""
        known, _ = refresh(conn, self.tournament_id, known)
        if known is None:
            return None
        first = self.known is None
        return known, view.club_name(conn, known.tournament) if first else self.club_name

    async def _run(self) -> None:
        tournament_id = self.tournament_id
        while True:
            began = time.monotonic()
            try:
                read = await self.db.look(functools.partial(self._read, known=self.known))
                snap: Snapshot | None = None
                if read is not None:
                    self.known, self.club_name = read
                    snap = view.of_known(*read)
            except StorageError as exc:  # read again at the next turn
                log.warning("tournament %s not read for its watchers: %s", tournament_id, exc)
                snap = None
                if self.live is None:
                    await asyncio.sleep(LIVE_EVERY)
                    continue
            if snap is None and self.live is None:
                self.gone = True
                await self._wake(None, shared=True)
                return
            if snap is not None and (self.live is None or snap != self.live.shared.snap):
                # on the event loop: a thread would hold the interpreter's lock as long, and every
                # socket's turn would wait for it (measured: bench/RESULTS-tournaments.md)
                before, live = self.live, view.Live(view.Shared.of(snap, self.made))
                shared = before is None or not live.same_shared(before)
                if shared:
                    self.version += 1
                self.live = live
                await self._wake(None if before is None else live.changed_since(before), shared=shared)
            self._soon.clear()
            await woken(self._soon, LIVE_EVERY)
            # at most one read a LIVE_EVERY / 4, whatever wakes it
            await asyncio.sleep(max(0.0, began + LIVE_EVERY / 4 - time.monotonic()))

    async def _wake(self, players: set[str] | None, *, shared: bool) -> None:
        """Wake the watchers of ``players`` (None: every one), and if what all share changed, those
        not already waiting for their turn to send it; :data:`WAKE_CHUNK` to a turn of the loop."""
        woken = 0
        for watcher in list(self.watchers):
            if (
                players is None
                or (watcher.player is not None and watcher.player in players)
                or (shared and not watcher.waiting)
            ):
                watcher.poked.set()
                woken += 1
                if woken % WAKE_CHUNK == 0:
                    await asyncio.sleep(0)


class Followed(Protocol):
    """What :func:`follow` reads of a :class:`Feed`."""

    @property
    def live(self) -> view.Live | None:
        """The tournament as last read (None: not read yet)."""

    @property
    def version(self) -> int:
        """Raised when what every watcher is sent alike changed."""

    @property
    def gone(self) -> bool:
        """There is no such tournament."""


async def follow(feed: Followed, watcher: Watcher, send: Callable[[str], Awaitable[None]]) -> None:
    """Send one watcher what it should see, as the feed changes, until there is no such tournament
    (then return)."""
    sent: tuple[int, object] | None = None
    """The version and the watcher's own parts last sent."""
    shared_due: float | None = None
    """When a change of only what every watcher shares is to be sent (None: none waits)."""
    phase = random.random() * LIVE_SHARED_EVERY
    """The watcher's moments are ``phase`` plus a multiple of LIVE_SHARED_EVERY (monotonic time)."""
    moment_used = -LIVE_SHARED_EVERY
    """The last moment at which a change of only what every watcher shares was sent."""
    player_id = watcher.player
    while True:
        if not watcher.poked.is_set():
            delay = None if shared_due is None else max(0.0, shared_due - time.monotonic())
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await watcher.poked.wait()
        watcher.poked.clear()
        live = feed.live
        if live is None:
            if feed.gone:
                return
            continue
        parts = live.own(player_id)
        line = live.line(player_id)
        page = live.page(watcher.page)
        tables = (live.tables_page(watcher.tables_page, watcher.playing), watcher.playing)
        # own: the watcher's table and entry, their points and games wherever their line is (a
        # rank or a tie-break moved by others' games waits with the shared parts), and the pages
        # of the standings and of the tables they asked for
        points = None if line is None else (line["points"], line["games"])
        own = (parts.table, parts.me, points, page, tables)
        now = time.monotonic()
        due = shared_due is not None and now >= shared_due and watcher.visible
        looked, watcher.looked = watcher.looked, False
        if sent is None or own != sent[1] or (feed.version != sent[0] and (due or looked)):
            # the watcher's own table, line or entry is sent at once; the time alone is no change
            if due and shared_due is not None and not looked:
                moment_used = shared_due
            sent, shared_due = (feed.version, own), None
            watcher.waiting = False
            await send(live.message(parts, time.time(), page, *tables))
        elif not watcher.visible:
            # a hidden page: what all share waits until it is shown (the feed does not wake it for it)
            shared_due, watcher.waiting = None, True
        elif feed.version != sent[0] and shared_due is None:
            # what every watcher shares, at the watcher's next moment: two such sends are a whole
            # period apart, and the watchers' sends are spread over the period
            shared_due = now + (phase - now) % LIVE_SHARED_EVERY
            if shared_due < moment_used + LIVE_SHARED_EVERY / 2:  # that moment was used: the next
                shared_due += LIVE_SHARED_EVERY
            watcher.waiting = True


class Watched:
    """The tournaments watched through this member, each with its :class:`Feed`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.feeds: dict[str, Feed] = {}

    def feed(self, tournament_id: str) -> Feed:
        """The tournament's feed (made for its first watcher)."""
        found = self.feeds.get(tournament_id)
        if found is None:
            found = self.feeds[tournament_id] = Feed(self.db, tournament_id)
        return found

    def changed(self, tournament_id: str) -> None:
        """This member's director changed a tournament: its watchers here see it at once."""
        found = self.feeds.get(tournament_id)
        if found is not None:
            found.soon()

    def forget(self, tournament_id: str) -> None:
        """Drop a feed nobody watches."""
        found = self.feeds.get(tournament_id)
        if found is not None and not found.watchers:
            del self.feeds[tournament_id]
