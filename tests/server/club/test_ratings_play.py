"""A real rated game end to end: three people quick-paired over ``/ws/lobby`` play a 3-player game to
its end over their websockets; their three ratings are then openskill's own computation for the game's
finishing order, and the lobby and ``/api/me/ratings`` show them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from openskill.models import PlackettLuce
from sqlalchemy import Connection, select

from roppyakken.server.club.ratings import display, nearest_bot
from roppyakken.server.people.players import COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import rating_games, ratings, rooms
from tests.harness.lobby import Lobby, new_player
from tests.harness.ratings_season import START, Game, expected_places, result_json, store_room
from tests.harness.server_harness import Player, play_to_end, running_server


def test_a_quick_paired_three_player_game_moves_the_three_ratings_as_openskill_does(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'rated.sqlite3'}"
    with running_server(database) as server:

        async def run() -> tuple[str, list[str], list[dict[str, object]], list[str]]:
            made = [new_player(server.url, n) for n in ("Ann", "Bo", "Cy")]
            cookies = [cookie for cookie, _ in made]
            lobbies = [await Lobby.open(server.ws_url, cookie) for cookie in cookies]
            tokens = [await lobby.seek("classic", 3, "60+300") for lobby in lobbies]
            paired = [await lobby.expect("paired") for lobby in lobbies]
            for lobby in lobbies:
                await lobby.ws.close()
            room = paired[0]["room"]
            seated = [await Player.join(server, room, token) for token in tokens]
            assert seated[0].log[0]["room_info"]["rated"] is True
            ends = await play_to_end(seated, seed=5)
            rounds = [m for m in seated[0].log if m["type"] == "round_end"]
            for player in seated:
                await player.close()
            ids = [cookie.split(".")[0] for cookie in cookies]
            by_seat = [ids[[p["seat"] for p in paired].index(seat)] for seat in range(3)]
            return room, by_seat, [ends[0], rounds[-1]], cookies

        room, owners, (end, last_round), cookies = asyncio.run(run())
        winner, totals = end["winner"], last_round["totals"]
        assert isinstance(winner, int) and isinstance(totals, list)
        game = Game(room, "classic-3", owners, winner, totals, [0, 0, 0], [False] * 3, START)
        places = expected_places(game)
        assert places is not None
        model = PlackettLuce()
        reference = model.rate([[model.rating()] for _ in owners], ranks=[float(p) for p in places])

        db = Database(database)
        try:
            with db.engine.connect() as conn:
                assert conn.execute(select(rooms.c.rated).where(rooms.c.id == room)).scalar() is True
                stored = result_json(conn.execute(select(rating_games.c.result)).scalar_one())
                assert stored["players"] == owners and stored["places"] == places
                rows = {
                    r[0]: (r[1], r[2], r[3], r[4])
                    for r in conn.execute(
                        select(
                            ratings.c.player_id,
                            ratings.c.pool,
                            ratings.c.mu,
                            ratings.c.sigma,
                            ratings.c.games,
                        )
                    )
                }
        finally:
            db.engine.dispose()
        assert rows == {
            owner: ("classic-3", team[0].mu, team[0].sigma, 1)
            for owner, team in zip(owners, reference, strict=True)
        }
        # the player sees it: /api/me/ratings and the lobby
        first = owners.index(cookies[0].split(".")[0])
        mu, sigma = reference[first][0].mu, reference[first][0].sigma
        with httpx.Client(base_url=server.url, timeout=10, cookies={COOKIE: cookies[0]}) as client:
            shown = client.get("/api/me/ratings").json()["ratings"]["classic-3"]
        assert shown["rating"] == display(mu, sigma) and shown["games"] == 1 and shown["provisional"] is True
        assert shown["bot"] == nearest_bot("classic-3", mu)

        async def lobby_view() -> dict[str, object]:
            lobby = await Lobby.open(server.ws_url, cookies[0])
            await lobby.ws.close()
            message: dict[str, object] = lobby.log[-1]
            return message

        seen = asyncio.run(lobby_view())
        assert seen["ratings"]["classic-3"] == shown  # type: ignore[index]
        assert seen["families"]["fuke"] == "classic"  # type: ignore[index]


def test_a_public_rated_room_takes_no_bot_and_its_game_moves_both_ratings(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    with running_server(database) as server:
        (ann, ann_csrf), (bo, bo_csrf) = new_player(server.url, "Ann"), new_player(server.url, "Bo")
        body = {"name": "Ann", "players": 2, "clock": "60+300", "public": True, "rated": True}
        with httpx.Client(base_url=server.url, timeout=10, cookies={COOKIE: ann}) as client:
            made = client.post("/api/rooms", json=body, headers={"X-CSRF-Token": ann_csrf}).json()
            refused = client.post(
                "/api/rooms", json={**body, "bots": {"1": "expert"}}, headers={"X-CSRF-Token": ann_csrf}
            )
        assert refused.status_code == 400 and "no bots" in refused.json()["error"]
        with httpx.Client(base_url=server.url, timeout=10, cookies={COOKIE: bo}) as client:
            joined = client.post(
                f"/api/rooms/{made['room']}/join", json={"name": "Bo"}, headers={"X-CSRF-Token": bo_csrf}
            ).json()

        async def run() -> dict[str, object]:
            host = await Player.join(server, made["room"], made["token"])
            guest = await Player.join(server, made["room"], joined["token"])
            await host.send({"type": "seat", "seat": 1, "kind": "bot", "level": "expert", "id": "b"})
            while (answer := await host.recv())["type"] != "error":
                pass
            assert answer["id"] == "b" and "no bots" in answer["message"]
            await host.send({"type": "start", "id": "s"})
            await host.expect("state")
            await guest.expect("state")
            end = (await play_to_end([host, guest], seed=9))[0]
            await host.close()
            await guest.close()
            return end

        end = asyncio.run(run())
        db = Database(database)
        try:
            with db.engine.connect() as conn:
                result = result_json(conn.execute(select(rating_games.c.result)).scalar_one())
                pools = conn.execute(select(ratings.c.player_id, ratings.c.pool)).all()
        finally:
            db.engine.dispose()
        owners = [ann.split(".")[0], bo.split(".")[0]]
        assert result["players"] == owners and result["winner"] == end["winner"]
        assert result["places"][end["winner"]] == 1
        assert sorted(pools) == sorted((o, "classic-2") for o in owners)


def test_a_player_under_a_playban_cannot_make_a_rated_room(tmp_path: Path) -> None:
    import time

    from roppyakken.server.people import playban

    database = f"sqlite:///{tmp_path / 'ban.sqlite3'}"
    with running_server(database) as server:
        cookie, csrf = new_player(server.url, "Eve")
        player_id = cookie.split(".")[0]
        now = time.time()

        def left_twice(conn: Connection) -> None:  # two rated games abandoned just now
            for index in range(2):
                game = Game(f"gone{index}", "classic-2", [player_id], 0, [0, 0], [0, 0], [True, False], START)
                store_room(conn, game)
                playban.record(conn, game.room, 0, now, playban.TIMEOUT)

        db = Database(database)
        try:
            db.run_now(left_twice)
        finally:
            db.engine.dispose()
        body = {"name": "Eve", "players": 2, "clock": "15+60", "public": True}
        with httpx.Client(base_url=server.url, timeout=10, cookies={COOKIE: cookie}) as client:
            barred = client.post("/api/rooms", json={**body, "rated": True}, headers={"X-CSRF-Token": csrf})
            free = client.post("/api/rooms", json=body, headers={"X-CSRF-Token": csrf})
        assert barred.status_code == 403 and barred.json()["playban"]["seconds"] > 0
        assert free.status_code == 201
