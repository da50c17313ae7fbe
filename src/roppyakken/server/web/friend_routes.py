"""Follows, blocks and direct challenges (docs/PROTOCOL.md "Friends"), over server/people/follows.py,
blocks.py and challenges.py.

===========================================  ===================================================
``GET /api/friends``                         whom the player follows (online, playing), their
                                             followers, whom they block, their challenges
``POST /api/follows`` ``{"player"}``         follow; ``DELETE /api/follows/<id>``: unfollow
``POST /api/blocks`` ``{"player"}``          block; ``DELETE /api/blocks/<id>``: unblock
``POST /api/challenges``                     challenge ``{"player", "preset", "clock", "rated"}``
``POST /api/challenges/<id>/accept``         the room made, with the accepter's seat and token
``POST /api/challenges/<id>/decline``        (the challenged player), ``/cancel`` (the challenger)
===========================================  ===================================================

Every change needs the player's cookie and its CSRF token (server/web/identity.py).  A
player may send ``Limits.challenges_per_minute`` challenges a minute and twice as many
follows (one bucket per player, shared by a cluster's members).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.rules import preset
from roppyakken.server.club.presence import Presence
from roppyakken.server.club.ratings.pools import FAMILIES
from roppyakken.server.club.tournaments import blocking
from roppyakken.server.config import Limits
from roppyakken.server.limits import take_token
from roppyakken.server.people import blocks, challenges, enforcement, follows, players
from roppyakken.server.people.blocks import Refused
from roppyakken.server.play.registry import Registry
from roppyakken.server.play.room import hash_token, new_token
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.web import api, identity
from roppyakken.server.web.guard import app_limiter
from roppyakken.server.wire import answers, bodies, text, wording
from roppyakken.server.wire.bodies import CreateRoom

T = TypeVar("T")
NO_STORE = {"Cache-Control": "no-store"}


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.services.limits
    return limits


def _wake(request: Request, *, friends: bool = False) -> None:
    presence: Presence | None = request.app.state.services.presence
    if presence is not None:
        presence.wake(friends=friends)


async def _acting(request: Request) -> players.Player:
    player = await identity.acting(request)
    if player is None:
        raise api.ApiError(403, text.NO_PLAYER)
    return player


async def _run(request: Request, work: Callable[[Connection], T]) -> T:
    """``work`` on the database; its :class:`Refused` as an :class:`~roppyakken.server.web.api.ApiError`."""

    def guarded(c: Connection) -> T | Refused:  # a refusal is returned: the batch's others commit
        try:
            return work(c)
        except Refused as exc:
            return exc

    result = await identity.database(request).run(guarded)
    if isinstance(result, Refused):
        raise api.ApiError(result.status, result.template, **result.fields)
    return result


async def _pace(request: Request, player: players.Player, weight: float) -> None:
    """Count one challenge (``weight`` 1) or follow (0.5) of ``player``; 429 past the bound."""
    per_minute = _limits(request).challenges_per_minute / weight
    limiter = app_limiter(request.app, "friend_limiter")
    kind = "challenge" if weight >= 1 else "follow"
    wait = await take_token(limiter, f"{kind}:{player.id}", per_minute, per_minute)
    if wait:
        raise TooFast(60 if math.isinf(wait) else max(1, math.ceil(wait)))


class TooFast(api.ApiError):
    """Too many challenges or follows: 429, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__(429, text.CHALLENGE_TOO_FAST)
        self.seconds = seconds


async def handle_too_fast(request: Request, exc: Exception) -> Response:
    """:class:`TooFast` as a 429 ``{"error"}`` answer with ``Retry-After``."""
    seconds = exc.seconds if isinstance(exc, TooFast) else 60
    return JSONResponse(
        wording.answer(text.CHALLENGE_TOO_FAST), status_code=429, headers={"Retry-After": str(seconds)}
    )


def _target(request: Request) -> str:
    raw = str(request.path_params["player"])
    return bodies.player_body({"player": raw})


async def get_friends(request: Request) -> Response:
    """``GET /api/friends``: the player's follows, followers, blocks and challenges."""
    player = await identity.current(request)
    if player is None:
        return JSONResponse(
            answers.FriendsAnswer(
                following=[], followers=[], followers_count=0, blocked=[], incoming=[], outgoing=[]
            ),
            headers=NO_STORE,
        )
    me = player.id

    def read(c: Connection) -> answers.FriendsAnswer:
        now = time.time()
        followers, count = follows.followers(c, me)
        incoming, outgoing = challenges.mine(c, me, now)
        return answers.FriendsAnswer(
            following=follows.following(c, me, now),
            followers=followers,
            followers_count=count,
            blocked=blocks.blocked(c, me),
            incoming=incoming,
            outgoing=outgoing,
        )

    return JSONResponse(await identity.database(request).run(read), headers=NO_STORE)


async def post_follow(request: Request) -> Response:
    """``POST /api/follows`` ``{"player"}``: follow a player."""
    body = await api.read_body(request)
    player = await _acting(request)
    other = bodies.player_body(body)
    await _pace(request, player, 0.5)
    most = _limits(request).max_follows
    changed = await _run(request, lambda c: follows.follow(c, player.id, other, time.time(), most))
    _wake(request, friends=True)
    return JSONResponse(answers.FriendChanged(player=other, changed=changed), headers=NO_STORE)


async def delete_follow(request: Request) -> Response:
    """``DELETE /api/follows/<player>``: stop following a player."""
    player = await _acting(request)
    other = _target(request)
    changed = await _run(request, lambda c: follows.unfollow(c, player.id, other))
    _wake(request, friends=True)
    return JSONResponse(answers.FriendChanged(player=other, changed=changed), headers=NO_STORE)


async def post_block(request: Request) -> Response:
    """``POST /api/blocks`` ``{"player"}``: block a player (their follows and challenges go)."""
    body = await api.read_body(request)
    player = await _acting(request)
    other = bodies.player_body(body)
    most = _limits(request).max_blocks

    def block(c: Connection) -> tuple[bool, list[str]]:
        changed = blocks.block(c, player.id, other, time.time(), most)
        return changed, blocking.leave_for_block(c, player.id, other) if changed else []

    changed, left = await _run(request, block)
    _wake(request, friends=True)
    answer = answers.FriendChanged(player=other, changed=changed)
    if left:  # round robins both were in: the blocker left them (server/club/tournaments/blocking.py)
        answer["left"] = left
    return JSONResponse(answer, headers=NO_STORE)


async def delete_block(request: Request) -> Response:
    """``DELETE /api/blocks/<player>``: unblock a player."""
    player = await _acting(request)
    other = _target(request)
    changed = await _run(request, lambda c: blocks.unblock(c, player.id, other))
    return JSONResponse(answers.FriendChanged(player=other, changed=changed), headers=NO_STORE)


async def post_challenge(request: Request) -> Response:
    """``POST /api/challenges``: challenge a player; the challenger's seat token (seat 0) in the answer."""
    body = bodies.challenge(await api.read_body(request))
    player = await _acting(request)
    services = request.app.state.services
    await enforcement.may_take_seat(services.db, services.limits, player, None)
    if body.rated:
        await enforcement.may_play_rated(services.db, services.limits, player)
    await _pace(request, player, 1.0)
    asked = challenges.Asked(body.preset, body.players, body.clock, body.rated)
    rateable = body.preset in FAMILIES and body.clock != "none"
    came_from = _rated_origin(request) if body.rated else players.NOWHERE
    token = new_token()
    token_hash, limits = hash_token(token), services.limits
    made = await _run(
        request,
        lambda c: challenges.create(
            c,
            player.id,
            body.player,
            asked,
            token_hash,
            time.time(),
            limits,
            rateable=rateable,
            came_from=came_from,
        ),
    )
    _wake(request)
    return JSONResponse(answers.ChallengeSent(challenge=made, token=token), status_code=201, headers=NO_STORE)


def _rated_origin(request: Request) -> players.Origin:
    """Where a rated challenge is sent or accepted from (its two sides are kept apart unless the server
    lets one address play itself: ``serve --rated-same-address``)."""
    if _limits(request).rated_same_address:
        return players.NOWHERE
    return identity.origin_of(request)


def _challenge_id(request: Request) -> str:
    raw = str(request.path_params["challenge"])
    if not raw.isalnum() or len(raw) > 32:
        raise api.ApiError(404, text.NO_CHALLENGE, challenge=raw[:40])
    return raw


async def accept_challenge(request: Request) -> Response:
    """``POST /api/challenges/<id>/accept``: make the room (challenger seat 0, accepter seat 1)."""
    player = await _acting(request)
    challenge_id = _challenge_id(request)
    services = request.app.state.services
    await enforcement.may_take_seat(services.db, services.limits, player, None)
    came_from = _rated_origin(request)
    taken = await _run(request, lambda c: challenges.take(c, challenge_id, player.id, time.time(), came_from))
    info = taken.info
    if info["rated"]:
        try:
            await enforcement.may_play_rated(services.db, services.limits, player)
        except enforcement.Barred:
            await services.db.run(lambda c: challenges.untake(c, challenge_id))
            raise
    token = new_token()
    mine = came_from if info["rated"] else players.NOWHERE
    try:
        room_id = await _make_room(services.registry, services.db, taken, player, hash_token(token), mine)
    except Exception:
        with contextlib.suppress(StorageError):
            await services.db.run(lambda c: challenges.untake(c, challenge_id))
        raise
    info = {**info, "room": room_id}
    _wake(request)
    return JSONResponse(
        answers.ChallengeAccepted(challenge=info, room=room_id, seat=1, token=token), headers=NO_STORE
    )


async def _make_room(
    registry: Registry,
    db: Database,
    taken: challenges.Taken,
    player: players.Player,
    token_hash: str,
    came_from: players.Origin,
) -> str:
    """The challenge's room: private unless rated, its clock, both seated and started."""
    info = taken.info
    request = CreateRoom(
        info["challenger"]["name"],
        info["players"],
        preset(info["preset"]),
        None,
        {},
        False,
        info["clock"],
        info["rated"],
        taken.token_hash,
        rated=info["rated"],
    )
    room, _ = await registry.create(request)
    if await room.join(player.name, token_hash) is None:
        raise RuntimeError("a new challenge room refused a seat")
    await room.start(None)
    challenger = info["challenger"]["id"]
    challenge_id = info["id"]

    def record(c: Connection) -> None:
        challenges.made(c, challenge_id, room.id)
        theirs = taken.came_from if info["rated"] else players.NOWHERE
        players.link_seat(c, room.id, 0, challenger, theirs)
        players.link_seat(c, room.id, 1, player.id, came_from)

    await db.run(record)
    return str(room.id)


async def _answer(request: Request, status: str) -> Response:
    player = await _acting(request)
    challenge_id = _challenge_id(request)
    info = await _run(request, lambda c: challenges.answer(c, challenge_id, player.id, status, time.time()))
    _wake(request)
    return JSONResponse(answers.ChallengeAnswered(challenge=info), headers=NO_STORE)


async def decline_challenge(request: Request) -> Response:
    """``POST /api/challenges/<id>/decline``: the challenged player says no."""
    return await _answer(request, "declined")


async def cancel_challenge(request: Request) -> Response:
    """``POST /api/challenges/<id>/cancel``: the challenger takes it back."""
    return await _answer(request, "cancelled")
