"""Each room's chat: players talk among themselves and, apart, spectators among themselves.

A line is plain text (at most :data:`~roppyakken.server.wire.client.CHAT_MAX`
characters, no control characters; clients show it as text, never as markup) or
a quick phrase's id (:data:`~roppyakken.server.wire.client.PHRASES`) that each
reader's client shows in its own language.  Each author may send
:data:`LINES_PER_MINUTE` lines a minute (a burst of :data:`LINE_BURST`), and each
channel carries at most :data:`CHANNEL_PER_MINUTE`.  Each reader may mute an
author: the server then sends it none of that author's lines (a seat's mutes
last while the room is in memory, across reconnections), and a reader whose player blocks the
author's player (server/people/blocks.py) is never sent that author's lines, live or in the
history.  The lines are stored
in the ``chat`` table with the room, and removed with it (a foreign key that
cascades); a reader asks for the recent ones with ``chat_history``.

Authors are ``seat:N`` for a player and ``spec:<random>`` for a spectator's
connection: nothing that identifies a player beyond its seat.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
import weakref
from collections.abc import Sequence
from typing import Any, Final, Protocol

from sqlalchemy import Connection, func, insert, select

from roppyakken.server.limits import MemoryRateLimiter
from roppyakken.server.people import blocks, moderation
from roppyakken.server.people.moderation import Sanction
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.store.tables import chat, seat_players
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.client import CHAT_MAX, ChatHistory, Mute, Say
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.server.wire.server import Channel, ChatLine


class Client(Protocol):
    """A room's connection as the chat sees it (server/play/room.py ``Client``)."""

    seat: int | None

    def send(self, message: str) -> None:
        """Queue one message for the client."""


class Room(Protocol):
    """A room as the chat sees it (server/play/room.py ``Room``): its id, database, seats and clients."""

    @property
    def id(self) -> str:
        """The room's id."""

    @property
    def db(self) -> Database:
        """Where its chat is stored."""

    @property
    def seats(self) -> Sequence[Any]:
        """Its seats (``display_name``: the name a player's lines carry)."""

    @property
    def clients(self) -> Sequence[Client]:
        """Its connected clients."""


LINES_PER_MINUTE: Final = 20.0
LINE_BURST: Final = 5.0
CHANNEL_PER_MINUTE: Final = 120.0
"""Lines one channel of a room carries a minute, all authors together (a burst of a sixth of it)."""
HISTORY: Final = 50
"""Lines of a channel ``chat_history`` answers with (the newest)."""
MAX_MUTED: Final = 64
"""Authors one reader may mute at once."""
PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"


def clean_text(value: str, msg_id: str | None = None) -> str:
    """A chat line's text: spaces collapsed; refused (ProtocolError echoing ``msg_id``, the message's
    ``id``) if empty, too long, or with control or format characters (which could reorder or hide
    what others read)."""
    line = " ".join(value.split())
    if not line or len(line) > CHAT_MAX:
        raise ProtocolError(text.CHAT_TEXT_RULE, msg_id, max=CHAT_MAX)
    if any(unicodedata.category(ch).startswith("C") for ch in line):
        raise ProtocolError(text.CHAT_TEXT_RULE, msg_id, max=CHAT_MAX)
    return line


def _store(conn: Connection, room_id: str, line: ChatLine) -> None:
    conn.execute(
        insert(chat).values(
            room_id=room_id,
            idx=line["idx"],
            channel=line["channel"],
            at=line["at"],
            author=line["author"],
            name=line["name"],
            text=line["text"],
            phrase=line["phrase"],
        )
    )


def _next_index(conn: Connection, room_id: str) -> int:
    last = conn.execute(select(func.max(chat.c.idx)).where(chat.c.room_id == room_id)).scalar()
    return 0 if last is None else int(last) + 1


def recent(conn: Connection, room_id: str, channel: Channel, limit: int = HISTORY) -> list[ChatLine]:
    """The newest ``limit`` lines of a room's channel, oldest first."""
    rows = conn.execute(
        select(chat.c.idx, chat.c.at, chat.c.author, chat.c.name, chat.c.text, chat.c.phrase)
        .where(chat.c.room_id == room_id, chat.c.channel == channel)
        .order_by(chat.c.idx.desc())
        .limit(limit)
    ).all()
    return [
        ChatLine(
            type="chat",
            channel=channel,
            idx=int(r[0]),
            author=r[2],
            name=r[3],
            text=r[4],
            phrase=r[5],
            at=float(r[1]),
        )
        for r in reversed(rows)
    ]


class ChatDesk:
    """One room's chat: the next line's number, the rate limits and every reader's mutes."""

    def __init__(self) -> None:
        self.next_idx: int | None = None
        self.lock = asyncio.Lock()
        self.limiter = MemoryRateLimiter(max_keys=10_000)
        self.mutes: dict[str, set[str]] = {}
        """Reader (its author key) to the authors it muted."""
        self.spectators: weakref.WeakKeyDictionary[Client, str] = weakref.WeakKeyDictionary()
        self.seat_players: dict[int, tuple[str | None, float]] = {}
        """Each seat's player id (moderators' mutes), with when it was read (monotonic seconds)."""

    def author(self, client: Client) -> str:
        """The author key of a connection: its seat's, or its own as a spectator."""
        if client.seat is not None:
            return f"seat:{client.seat}"
        key = self.spectators.get(client)
        if key is None:
            key = self.spectators[client] = "spec:" + secrets.token_hex(4)
        return key


_DESKS: weakref.WeakKeyDictionary[Room, ChatDesk] = weakref.WeakKeyDictionary()


async def _moderator_mute(
    room: Room, client: Client, chat_desk: ChatDesk, msg_id: str | None
) -> Sanction | None:
    """The moderators' mute in effect on the player writing (a seat's player, from ``seat_players``,
    read again after :data:`~roppyakken.server.people.moderation.REFRESH`; a spectator's, from its cookie)."""
    player_id: str | None
    if client.seat is None:
        player_id = getattr(client, "player_id", None)
    else:
        seat, known = client.seat, chat_desk.seat_players.get(client.seat)
        if known is None or time.monotonic() - known[1] > moderation.REFRESH:
            try:
                found = await room.db.run(lambda c: _seat_player(c, room.id, seat))
            except StorageError:
                raise ProtocolError(text.STORAGE_UNAVAILABLE, msg_id) from None
            known = chat_desk.seat_players[seat] = (found, time.monotonic())
        player_id = known[0]
    if player_id is None:
        return None
    return await moderation.cache_for(room.db).find(moderation.MUTE, player_id=player_id)


def _seat_player(conn: Connection, room_id: str, seat: int) -> str | None:
    found = conn.execute(
        select(seat_players.c.player_id).where(seat_players.c.room_id == room_id, seat_players.c.seat == seat)
    ).scalar()
    return None if found is None else str(found)


async def _blocked_seats(room: Room, chat_desk: ChatDesk, reader: Client) -> set[str]:
    """The author keys (``seat:N``) of the seats whose player the reader's player blocks."""
    reader_id = await _player_of(room, chat_desk, reader)
    if reader_id is None:
        return set()
    seated = await room.db.run(lambda c: _seat_map(c, room.id))
    pairs = await room.db.run(lambda c: blocks.blocked_by_any(c, [reader_id], seated.values()))
    hidden = {blocked for _, blocked in pairs}
    return {f"seat:{seat}" for seat, player_id in seated.items() if player_id in hidden}


def _seat_map(conn: Connection, room_id: str) -> dict[int, str]:
    return {
        int(r[0]): str(r[1])
        for r in conn.execute(
            select(seat_players.c.seat, seat_players.c.player_id).where(seat_players.c.room_id == room_id)
        )
    }


def desk(room: Room) -> ChatDesk:
    """The room's chat desk (made on first use; it goes with the room object)."""
    found = _DESKS.get(room)
    if found is None:
        found = _DESKS[room] = ChatDesk()
    return found


def _channel(client: Client) -> Channel:
    return PLAYERS if client.seat is not None else SPECTATORS


def _name(room: Room, client: Client) -> str:
    if client.seat is None:
        return ""  # the client shows "spectator" in its reader's language
    return str(room.seats[client.seat].display_name)


async def handle(room: Room, client: Client, message: Say | Mute | ChatHistory) -> None:
    """Answer a chat message of a room's client (ProtocolError with one line to refuse it)."""
    chat_desk = desk(room)
    me = chat_desk.author(client)
    channel = _channel(client)
    if isinstance(message, Mute):
        muted = chat_desk.mutes.setdefault(me, set())
        if message.muted:
            if len(muted) >= MAX_MUTED:
                raise ProtocolError(text.CHAT_TOO_MANY_MUTED, message.id, max=MAX_MUTED)
            if message.author != me:
                muted.add(message.author)
        else:
            muted.discard(message.author)
        client.send(to_client.muted(message.id, muted))
        return
    if isinstance(message, ChatHistory):
        try:
            lines = await room.db.run(lambda c: recent(c, room.id, channel))
        except StorageError:
            raise ProtocolError(text.STORAGE_UNAVAILABLE, message.id) from None
        muted = chat_desk.mutes.get(me, set())
        try:
            hidden = await _blocked_seats(room, chat_desk, client)
        except StorageError:
            raise ProtocolError(text.STORAGE_UNAVAILABLE, message.id) from None
        shown = [line for line in lines if line["author"] not in muted and line["author"] not in hidden]
        client.send(to_client.chat_history(message.id, channel, shown, muted))
        return
    said = None if message.text is None else clean_text(message.text, message.id)
    mute = await _moderator_mute(room, client, chat_desk, message.id)
    if mute is not None:
        template, fields = moderation.worded(mute, text.MUTED, text.MUTED_UNTIL)
        raise ProtocolError(template, message.id, **fields)
    if chat_desk.limiter.take(me, LINES_PER_MINUTE, LINE_BURST) or chat_desk.limiter.take(
        channel, CHANNEL_PER_MINUTE, CHANNEL_PER_MINUTE / 6
    ):
        raise ProtocolError(text.CHAT_TOO_FAST, message.id)
    async with chat_desk.lock:  # one line at a time: numbered in order, stored before anyone sees it
        try:
            if chat_desk.next_idx is None:
                chat_desk.next_idx = await room.db.run(lambda c: _next_index(c, room.id))
            line = ChatLine(
                type="chat",
                channel=channel,
                idx=chat_desk.next_idx,
                author=me,
                name=_name(room, client),
                text=said,
                phrase=message.phrase,
                at=round(time.time(), 3),
            )
            await room.db.run(lambda c: _store(c, room.id, line))
        except StorageError:
            chat_desk.next_idx = None  # read again from the database next time
            raise ProtocolError(text.STORAGE_UNAVAILABLE, message.id) from None
        chat_desk.next_idx += 1
    encoded = to_client.chat_line(line)
    readers = [r for r in list(room.clients) if _channel(r) == channel]
    try:
        blocking = await _blocking(room, chat_desk, client, readers)
    except StorageError:  # who blocks the author is unknown: only the author reads the line
        blocking = {r for r in readers if r is not client}
    for reader in readers:
        if reader in blocking or me in chat_desk.mutes.get(chat_desk.author(reader), ()):
            continue
        reader.send(encoded)


async def _player_of(room: Room, chat_desk: ChatDesk, client: Client) -> str | None:
    """The player of a connection: its seat's (``seat_players``, read again after
    :data:`~roppyakken.server.people.moderation.REFRESH`), or a spectator's cookie's."""
    if client.seat is None:
        found = getattr(client, "player_id", None)
        return found if isinstance(found, str) else None
    known = chat_desk.seat_players.get(client.seat)
    if known is None or time.monotonic() - known[1] > moderation.REFRESH:
        seat = client.seat
        player_id = await room.db.run(lambda c: _seat_player(c, room.id, seat))
        known = chat_desk.seat_players[seat] = (player_id, time.monotonic())
    return known[0]


async def _blocking(room: Room, chat_desk: ChatDesk, author: Client, readers: list[Client]) -> set[Client]:
    """The readers whose player blocks the author's (server/people/blocks.py): they never read its lines."""
    author_id = await _player_of(room, chat_desk, author)
    if author_id is None:
        return set()
    by_player: dict[str, list[Client]] = {}
    for reader in readers:
        if reader is not author:
            reader_id = await _player_of(room, chat_desk, reader)
            if reader_id is not None and reader_id != author_id:
                by_player.setdefault(reader_id, []).append(reader)
    if not by_player:
        return set()
    pairs = await room.db.run(lambda c: blocks.blocked_by_any(c, by_player, [author_id]))
    return {reader for blocker, _ in pairs for reader in by_player[blocker]}
