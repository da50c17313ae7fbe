"""Blocks at the tables: a player who blocks another, or is blocked by them, neither takes a seat at a
table where the other sits (public from the lobby, or private by its link: one line that names
nobody) nor sees such an open table in the lobby, on a real server over HTTP and ``/ws/lobby``."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from tests.harness.friends import Friend
from tests.harness.lobby import Lobby
from tests.harness.poll import until_async
from tests.harness.server_harness import Player, ServerThread, running_server

REFUSED = "you cannot join this table"


def _table(host: Friend, players: int = 3, public: bool = True) -> dict[str, Any]:
    made = host.post(
        "/api/rooms", {"name": host.name, "players": players, "clock": "30+120", "public": public}
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def _listed(lobby: Lobby) -> set[str]:
    return {t["room"] for t in lobby.log[-1]["tables"]}


async def _lobby_until(lobby: Lobby, check: Any, what: str) -> None:
    async def seen() -> bool:
        if check(_listed(lobby)):
            return True
        with contextlib.suppress(TimeoutError):
            await lobby.expect("lobby", timeout=0.5)
        return bool(check(_listed(lobby)))

    await until_async(seen, 15, what)


def _scenario(server: ServerThread) -> None:
    ann, bo, cy, di, eve = (Friend(server.url, n) for n in ("Ann", "Bo", "Cy", "Di", "Eve"))
    assert ann.block(bo).status_code == 200

    async def run() -> None:
        anns = _table(ann)
        host = await Player.join(server, anns["room"], anns["token"])
        dis = _table(di)
        di_host = await Player.join(server, dis["room"], dis["token"])
        # the blocked player cannot sit at the blocker's table, told only that
        refused = bo.post(f"/api/rooms/{anns['room']}/join", {"name": "Bo"})
        assert (refused.status_code, refused.json()["error"]) == (403, REFUSED), refused.text
        # nor the blocker at a table where the blocked player sits (Bo joins Di's table first)
        assert bo.post(f"/api/rooms/{dis['room']}/join", {"name": "Bo"}).status_code == 200
        refused = ann.post(f"/api/rooms/{dis['room']}/join", {"name": "Ann"})
        assert (refused.status_code, refused.json()["error"]) == (403, REFUSED), refused.text
        # a private table joined by its link: the same rule
        private = _table(bo, players=2, public=False)
        refused = ann.post(f"/api/rooms/{private['room']}/join", {"name": "Ann"})
        assert (refused.status_code, refused.json()["error"]) == (403, REFUSED)
        # anyone else sits down as before
        assert cy.post(f"/api/rooms/{anns['room']}/join", {"name": "Cy"}).status_code == 200

        # the lobby: Cy sees both tables, Bo not Ann's, Ann not Di's (Bo sits there)
        lobbies = [await Lobby.open(server.ws_url, p.cookie) for p in (cy, bo, ann)]
        cys, bos, anns_lobby = lobbies
        both = {anns["room"], dis["room"]}
        await _lobby_until(cys, lambda rooms: both <= rooms, "Cy does not see both tables")
        await _lobby_until(bos, lambda rooms: dis["room"] in rooms, "Bo does not see Di's table")
        await _lobby_until(anns_lobby, lambda rooms: anns["room"] in rooms, "Ann does not see her table")
        assert anns["room"] not in _listed(bos) and dis["room"] not in _listed(anns_lobby)
        assert all(
            anns["room"] not in {t["room"] for t in m["tables"]} for m in bos.log if m["type"] == "lobby"
        )

        # a block made while the lobby is open hides the table at once (the lobby is sent again)
        eves = _table(eve)
        eve_host = await Player.join(server, eves["room"], eves["token"])
        await _lobby_until(cys, lambda rooms: eves["room"] in rooms, "Cy does not see Eve's table")
        await _lobby_until(anns_lobby, lambda rooms: eves["room"] in rooms, "Ann does not see Eve's table")
        assert eve.block(ann).status_code == 200
        await _lobby_until(anns_lobby, lambda rooms: eves["room"] not in rooms, "Ann still sees Eve's table")
        assert eves["room"] in _listed(cys)
        refused = ann.post(f"/api/rooms/{eves['room']}/join", {"name": "Ann"})
        assert (refused.status_code, refused.json()["error"]) == (403, REFUSED)
        for lobby in lobbies:
            await lobby.ws.close()
        for player in (host, di_host, eve_host):
            await player.close()

    asyncio.run(run())
    for friend in (ann, bo, cy, di, eve):
        friend.close()


def test_blocks_keep_players_from_each_others_tables(database: str) -> None:
    with running_server(database) as server:
        _scenario(server)
