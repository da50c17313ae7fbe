"""An arena across cluster members: a game's room may be held by one member, the tournament's director
run on another and its watchers be on either.  A game's end woke only the director of the member
holding the room (which does not direct the tournament: the director waited for its next second), and
a pairing woke only the watchers of the director's member (the others saw it a second later).  Now
both are told to the other members through Redis (server/cluster/bus.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from roppyakken.server.club.game_end import ClubRecords
from roppyakken.server.cluster.link import Cluster, Handlers
from roppyakken.server.web.services import _tournaments_told
from tests.harness import services
from tests.harness.poll import until_async


class _Director:
    """What the telling uses of a director: the tournaments it holds, its listeners, its waking."""

    def __init__(self, held: dict[str, int]) -> None:
        self.held = held
        self.listeners: set[Callable[[str], None]] = set()
        self.woken = 0

    def wake_soon(self) -> None:
        self.woken += 1

    def changed(self, tournament_id: str) -> None:
        for listener in list(self.listeners):
            listener(tournament_id)


def _handlers() -> Handlers:
    async def call(member: str, call: object) -> object:
        raise AssertionError("no call expected")

    async def message(member: str, conn: str, raw: str) -> None:
        return None

    return Handlers(call=call, message=message, gone=lambda m, c: None, lost=lambda rooms: None)  # type: ignore[arg-type]


def test_a_game_end_and_a_pairing_are_told_to_the_other_members() -> None:
    async def scenario(url: str) -> None:
        playing, directing, watching = Cluster(url), Cluster(url), Cluster(url)
        members = (playing, directing, watching)
        for member in members:
            await member.start(_handlers())
        try:
            for member in members:
                await member.bus.refresh_roster()  # (each renewal does it)
            assert playing.bus.others == {directing.member, watching.member}
            # the member holding the game's room directs nothing; the director's member holds it
            room_side, director, watchers = _Director({}), _Director({"t1": 1}), _Director({})
            records = ClubRecords()
            _tournaments_told(records, room_side, playing)  # type: ignore[arg-type]
            _tournaments_told(ClubRecords(), director, directing)  # type: ignore[arg-type]
            _tournaments_told(ClubRecords(), watchers, watching)  # type: ignore[arg-type]
            heard: list[str | None] = []
            kept = watching.bus.tournaments
            assert kept is not None

            def heard_too(said: str | None) -> None:
                heard.append(said)
                kept(said)

            watching.bus.tournaments = heard_too
            read: dict[str, list[str]] = {"director": [], "watchers": [], "room_side": []}
            director.listeners.add(read["director"].append)  # each member's feeds
            watchers.listeners.add(read["watchers"].append)
            room_side.listeners.add(read["room_side"].append)

            # the game's end is stored on the database's thread of the member holding the room
            told = records.tournament_ended
            assert told is not None
            thread = threading.Thread(target=told)
            thread.start()
            thread.join()
            await until_async(lambda: director.woken == 1, 10, "the director woken by the game's end")
            assert room_side.woken == 1  # its own director too, as on one server
            await until_async(lambda: heard == [None], 10, "the third member told of the game's end")
            assert watchers.woken == 0  # it directs nothing: no round for nothing

            # the director paired: every member's watchers read at once, and nobody says it again
            director.changed("t1")
            await until_async(
                lambda: read["watchers"] == ["t1"] and read["room_side"] == ["t1"],
                10,
                "the other members' watchers told of the pairing",
            )
            assert read["director"] == ["t1"]  # its own feeds, once (not told back)

            # a member that stops leaves the roster: nothing is sent to it
            await watching.close()
            await playing.bus.refresh_roster()
            assert playing.bus.others == {directing.member}
        finally:
            for member in (playing, directing):
                await member.close()

    with services.redis_process() as rd:
        asyncio.run(scenario(rd.url))
