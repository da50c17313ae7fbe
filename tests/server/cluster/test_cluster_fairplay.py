"""Fair play and moderation across a cluster (PostgreSQL, Redis, two real ``serve --redis`` members):
every member sees the same playbans, mutes and suspensions, the sanctions within
:data:`~roppyakken.server.people.moderation.REFRESH` seconds of ``roppyakken admin`` setting or clearing
them."""

from __future__ import annotations

import asyncio
import functools
import io
import json
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from roppyakken.cli import main as cli_main
from roppyakken.server.people import moderation
from roppyakken.server.people.players import COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import abandonments
from tests.harness import services
from tests.harness.lobby import Lobby, new_player
from tests.harness.poll import until
from tests.harness.server_harness import Player

pytestmark = pytest.mark.slow

CSRF = "X-CSRF-Token"
SCALE = "0.05"


@dataclass
class _At:
    """A member's websocket address, as :meth:`Player.join` reads it from a server."""

    ws_url: str


def _admin(database: str, *args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli_main(["admin", "--database", database, "--as", "ops", *args]) == 0
    return out.getvalue()


def _answers(url: str, status: int) -> bool:
    """Whether the member at ``url`` answers a plain request with ``status``."""
    return httpx.get(url + "/api/presets", timeout=10).status_code == status


def test_every_member_enforces_the_same_playbans_and_sanctions() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "fairplay")
        with services.members(database, rd, 2, extra=["--clock-scale", SCALE]) as started:
            urls = [m.url for m in started]
            ws_urls = [u.replace("http://", "ws://") for u in urls]
            bob_cookie, bob_csrf = new_player(urls[0], "bob")
            alice_cookie, alice_csrf = new_player(urls[1], "alice")
            bob_id = bob_cookie.split(".")[0]

            # a playban written on the shared database is seen by both members
            db = Database(database)
            now = time.time()
            db.run_now(
                lambda c: c.execute(
                    insert(abandonments),
                    [
                        {
                            "player_id": bob_id,
                            "room_id": f"g{i}",
                            "seat": 1,
                            "at": now - 5 + i,
                            "cause": "timeout",
                        }
                        for i in range(2)
                    ],
                )
            )
            db.engine.dispose()

            async def lobbies() -> list[dict[str, Any]]:
                answers = []
                for ws_url in ws_urls:
                    lobby = await Lobby.open(ws_url, bob_cookie)
                    await lobby.send(
                        {"type": "seek", "id": "s", "preset": "classic", "players": 2, "clock": "1d"}
                    )
                    refused = json.loads(await asyncio.wait_for(lobby.ws.recv(), 10))
                    while refused["type"] in ("lobby", "playban"):
                        refused = json.loads(await asyncio.wait_for(lobby.ws.recv(), 10))
                    answers.append(refused)
                    await lobby.ws.close()
                return answers

            for refused in asyncio.run(lobbies()):
                assert refused["type"] == "error" and refused["playban"]["recent"] == 2, refused

            # a mute: bob's room is held by member 0, bob talks through member 1 (relayed)
            made = httpx.post(
                urls[0] + "/api/rooms",
                json={"name": "alice", "players": 2},
                headers={CSRF: alice_csrf},
                cookies={COOKIE: alice_cookie},
                timeout=10,
            ).json()
            room = made["room"]
            joined = httpx.post(
                urls[0] + f"/api/rooms/{room}/join",
                json={"name": "bob"},
                headers={CSRF: bob_csrf},
                cookies={COOKIE: bob_cookie},
                timeout=10,
            )
            assert joined.status_code == 200, joined.text
            token_b = joined.json()["token"]
            host = asyncio.run(_hold(ws_urls[0], room, made["token"]))
            _admin(database, "mute", bob_id, "--for", "1h")

            async def muted_within() -> float:
                bob = await Player.join(_At(ws_urls[1]), room, token_b)  # type: ignore[arg-type]
                started_at = time.monotonic()
                while True:
                    await bob.send({"type": "chat", "text": "hello", "id": "c"})
                    answer = await bob.recv()
                    while answer["type"] not in ("chat", "error"):
                        answer = await bob.recv()
                    if answer["type"] == "error" and "muted you" in answer["message"]:
                        await bob.close()
                        return time.monotonic() - started_at
                    assert time.monotonic() - started_at < moderation.REFRESH + 3, answer
                    await asyncio.sleep(1.0)

            assert asyncio.run(muted_within()) <= moderation.REFRESH + 3
            del host

            # an address suspended, then cleared: each member follows within the refresh bound
            _admin(database, "suspend", "--address", "127.0.0.1", "--for", "1h")
            bound = moderation.REFRESH + 2
            for url in urls:
                until(
                    functools.partial(_answers, url, 403),
                    bound,
                    f"{url} refuses the suspended address",
                    every=0.1,
                )
            listed = _admin(database, "sanctions").splitlines()
            sanction = next(line for line in listed if "address:" in line).split()[0].lstrip("#")
            _admin(database, "clear", sanction)
            for url in urls:
                until(
                    functools.partial(_answers, url, 200),
                    bound,
                    f"{url} serves the cleared address",
                    every=0.1,
                )
            log = _admin(database, "log")
            assert "ops suspend address:127.0.0.1/32" in log and "ops clear address:127.0.0.1/32" in log
            assert not [e for m in started for e in m.errors()], [e for m in started for e in m.errors()]


async def _hold(ws_url: str, room: str, token: str) -> None:
    """Connect the host once to the member that must hold the room (it loads it), then leave."""
    host = await Player.join(_At(ws_url), room, token)  # type: ignore[arg-type]
    await host.close()
