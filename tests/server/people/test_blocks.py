"""Blocking through the API and its effects: follows removed both ways, pending challenges cancelled,
the blocked player can neither follow nor challenge the blocker (one line that says no more), the two
are never paired in quick pairing, and the blocker never reads the blocked player's chat."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from roppyakken.server.club import pairing
from roppyakken.server.people import blocks
from roppyakken.server.store.database import Database
from tests.harness.friends import Friend
from tests.harness.ratings_season import make_people, sqlite_database
from tests.harness.server_harness import Player, ServerThread, limits_for_tests, running_server


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server where one may block 2 players."""
    path = tmp_path_factory.mktemp("blocks") / "b.sqlite3"
    limits = dataclasses.replace(limits_for_tests(), max_blocks=2)
    with running_server(f"sqlite:///{path}", limits=limits) as served:
        yield served


def test_a_block_removes_follows_and_challenges_and_refuses_the_blocked(small: ServerThread) -> None:
    ann, bo = Friend(small.url, "Ann"), Friend(small.url, "Bo")
    assert ann.follow(bo).status_code == 200 and bo.follow(ann).status_code == 200
    pending = bo.challenge(ann)
    assert pending.status_code == 201, pending.text
    assert ann.block(bo).json() == {"player": bo.id, "changed": True}
    assert ann.friends()["following"] == [] and ann.friends()["followers"] == []
    assert [b["id"] for b in ann.friends()["blocked"]] == [bo.id]
    assert ann.friends()["incoming"] == []  # Bo's challenge was cancelled
    assert [c["status"] for c in bo.friends()["outgoing"]] == ["cancelled"]
    # Bo can neither follow nor challenge Ann: told only that it cannot be done
    follow, challenge = bo.follow(ann), bo.challenge(ann)
    assert (follow.status_code, follow.json()["error"]) == (403, "you cannot follow this player")
    assert (challenge.status_code, challenge.json()["error"]) == (403, "you cannot challenge this player")
    # Ann must unblock Bo first to follow or challenge him
    assert ann.follow(bo).status_code == 409 and "unblock" in ann.follow(bo).json()["error"]
    assert ann.challenge(bo).status_code == 409
    assert ann.delete(f"/api/blocks/{bo.id}").json()["changed"] is True
    assert bo.follow(ann).status_code == 200 and ann.follow(bo).status_code == 200


def test_the_bound_on_blocks(small: ServerThread) -> None:
    cy = Friend(small.url, "Cy")
    others = [Friend(small.url, f"B{n}") for n in range(3)]
    assert [cy.block(o).status_code for o in others[:2]] == [200, 200]
    refused = cy.block(others[2])
    assert refused.status_code == 409 and "2 players already" in refused.json()["error"]
    assert cy.block(cy).status_code == 400


def _claimed(db: Database, ids: list[str], now: float) -> list[list[str]]:
    pool = pairing.Pool("classic", 2, "15+60")

    def work(conn: object) -> list[list[str]]:
        for n, player_id in enumerate(ids):
            pairing.enter(conn, player_id, player_id, pool, f"hash{n}", now - 5 + n)  # type: ignore[arg-type]
        found = pairing.claim(conn, now, False, apart=True)  # type: ignore[arg-type]
        return [[p[0] for p in c.players] for c in found]

    return db.run_now(work)


def test_a_blocked_pair_is_never_paired(tmp_path: Path) -> None:
    db = sqlite_database(tmp_path)
    try:
        ann, bo, cy, di = db.run_now(lambda c: make_people(c, 4))
        db.run_now(lambda c: blocks.block(c, bo, ann, 0.0, 10))
        # oldest first would pair Ann with Bo: Bo blocks Ann, so Ann plays Cy and Bo plays Di
        assert _claimed(db, [ann, bo, cy, di], 1000.0) == [[ann, cy], [bo, di]]
    finally:
        db.engine.dispose()


def test_two_who_block_one_another_wait_alone(tmp_path: Path) -> None:
    db = sqlite_database(tmp_path)
    try:
        ann, bo = db.run_now(lambda c: make_people(c, 2))
        db.run_now(lambda c: blocks.block(c, ann, bo, 0.0, 10))
        assert _claimed(db, [ann, bo], 1000.0) == []
        db.run_now(lambda c: blocks.unblock(c, ann, bo))
        assert _claimed(db, [ann, bo], 1000.0) == [[ann, bo]]
    finally:
        db.engine.dispose()


def test_the_blocked_players_chat_never_reaches_the_blocker(small: ServerThread) -> None:
    ed, fay = Friend(small.url, "Ed"), Friend(small.url, "Fay")
    sent = ed.challenge(fay)
    accepted = fay.post(f"/api/challenges/{sent.json()['challenge']['id']}/accept").json()

    async def run() -> None:
        mine = await Player.join(small, accepted["room"], sent.json()["token"])
        hers = await Player.join(small, accepted["room"], accepted["token"])
        try:
            assert (mine.seat, hers.seat) == (0, 1)
            await mine.quiet()
            await hers.quiet()
            assert ed.block(fay).status_code == 200  # during the game
            await hers.send({"type": "chat", "text": "hello Ed"})
            assert (await hers.expect("chat"))["text"] == "hello Ed"  # she reads her own line
            await mine.send({"type": "chat", "text": "hi Fay"})
            assert (await hers.expect("chat"))["text"] == "hi Fay"  # the block is one-way
            seen = [m for m in await mine.quiet() if m["type"] == "chat"]
            assert [m["text"] for m in seen] == ["hi Fay"]  # never Fay's
            await mine.send({"type": "chat_history", "id": "h"})
            history = await mine.expect("chat_history")
            assert [line["text"] for line in history["lines"]] == ["hi Fay"]
        finally:
            await mine.close()
            await hers.close()

    asyncio.run(run())


def test_follows_and_blocks_do_not_keep_a_forgotten_guest(tmp_path: Path) -> None:
    """A guest unseen for long is forgotten whatever its follows, blocks and challenges: they go with it."""
    from sqlalchemy import select, update

    from roppyakken.server.people import follows, guests
    from roppyakken.server.store.tables import challenges, players

    db = sqlite_database(tmp_path)
    try:
        old, other = db.run_now(lambda c: make_people(c, 2))

        def relate(c: object) -> None:
            follows.follow(c, old, other, 0.0, 10)  # type: ignore[arg-type]
            follows.follow(c, other, old, 0.0, 10)  # type: ignore[arg-type]
            blocks.block(c, other, old, 0.0, 10)  # type: ignore[arg-type]
            c.execute(update(players).where(players.c.id == old).values(seen_at=0.0))  # type: ignore[attr-defined]

        db.run_now(relate)
        assert db.run_now(lambda c: guests.sweep(c, 100 * 86_400.0, 30.0)) == 1
        assert db.run_now(lambda c: blocks.blocked(c, other)) == []
        assert db.run_now(lambda c: follows.following(c, other, 0.0)) == []
        assert db.run_now(lambda c: c.execute(select(challenges.c.id)).all()) == []
    finally:
        db.engine.dispose()
