"""Clubs (server/club/clubs.py) on SQLite and on PostgreSQL: admission, roles and their refusals,
privacy, bounds, the leaderboard read from the ratings, the chat and its hiding, an erased account."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar

import pytest
from sqlalchemy import Connection, func, insert, select

from roppyakken.server.club import clubs
from roppyakken.server.club.clubs import ClubRefused
from roppyakken.server.club.ratings.scale import display
from roppyakken.server.config import Limits
from roppyakken.server.people import accounts, erasure, players
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import club_chat, club_members, ratings, reports
from roppyakken.server.store.tables import clubs as clubs_table
from roppyakken.server.wire import text

T = TypeVar("T")
LIMITS = Limits(bot_workers=0)


@pytest.fixture
def db(database: str) -> Iterator[Database]:
    made = Database(database)
    made.open()
    try:
        yield made
    finally:
        made.engine.dispose()


def account(db: Database, name: str) -> str:
    """A new account's player id."""

    def make(conn: Connection) -> str:
        account_id = accounts.register(conn, None, name, name.lower(), "x", [], 0.0)
        assert account_id is not None
        row = accounts.find(conn, account_id=account_id)
        assert row is not None
        return row.player_id

    return db.run_now(make)


def call(db: Database, op: Callable[..., T], *args: Any) -> T:
    """``op(conn, *args)`` in a transaction of its own."""
    return db.run_now(lambda c: op(c, *args))


def ok(value: T | ClubRefused) -> T:
    assert not isinstance(value, ClubRefused), str(value)
    return value


def refused(value: object, template: str, status: int) -> None:
    assert isinstance(value, ClubRefused), value
    assert (value.template, value.status) == (template, status)


def new_club(db: Database, owner: str, name: str = "Pine Club", admission: str = "open", **kw: Any) -> str:
    limits = kw.pop("limits", LIMITS)
    private = kw.pop("private", False)
    return ok(db.run_now(lambda c: clubs.create(c, owner, name, "", "en", admission, private, 1.0, limits)))


def test_names_are_unique_as_logins_are_alike_looking_ones_too(db: Database) -> None:
    ann = account(db, "Ann")
    new_club(db, ann, "Pine Club")
    for alike in ("pine club", "ＰＩＮＥ ＣＬＵＢ", "Pіne Club"):  # full width; a Cyrillic і
        made = call(db, clubs.create, ann, alike, "", "en", "open", False, 2.0, LIMITS)
        refused(made, text.CLUB_NAME_TAKEN, 409)
    new_club(db, ann, "Plum Club")
    found = db.run_now(lambda c: clubs.listing(c, None, "PLUM"))
    assert [c["name"] for c in found["clubs"]] == ["Plum Club"]


def test_open_clubs_take_anyone_request_clubs_ask_a_leader_invitation_clubs_only_the_invited(
    db: Database,
) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    opened = new_club(db, ann, "Open", "open")
    assert ok(db.run_now(lambda c: clubs.join(c, opened, bob, 2.0, LIMITS)))["status"] == "member"
    refused(db.run_now(lambda c: clubs.join(c, opened, bob, 2.0, LIMITS)), text.CLUB_ALREADY_MEMBER, 409)

    asked = new_club(db, ann, "Asked", "request")
    assert ok(db.run_now(lambda c: clubs.join(c, asked, bob, 2.0, LIMITS)))["status"] == "requested"
    assert not db.run_now(lambda c: clubs.is_member(c, asked, bob))
    refused(db.run_now(lambda c: clubs.join(c, asked, bob, 2.0, LIMITS)), text.CLUB_ALREADY_PENDING, 409)
    # a member (not a leader) cannot accept; the owner can
    ok(db.run_now(lambda c: clubs.join(c, opened, cat, 2.0, LIMITS)))
    page = ok(db.run_now(lambda c: clubs.page(c, asked, ann)))
    assert [(p["player"], p["kind"]) for p in page["pending"]] == [(bob, "request")]
    assert ok(db.run_now(lambda c: clubs.page(c, asked, bob)))["pending"] == []  # leaders only
    assert ok(db.run_now(lambda c: clubs.accept(c, asked, ann, bob, 3.0, LIMITS)))["status"] == "member"
    assert db.run_now(lambda c: clubs.is_member(c, asked, bob))
    refused(db.run_now(lambda c: clubs.accept(c, asked, ann, cat, 3.0, LIMITS)), text.CLUB_NOT_PENDING, 404)

    invited = new_club(db, ann, "Invited", "invitation")
    refused(db.run_now(lambda c: clubs.join(c, invited, cat, 2.0, LIMITS)), text.CLUB_BY_INVITATION, 403)
    assert ok(db.run_now(lambda c: clubs.invite(c, invited, ann, cat, 2.0, LIMITS)))["status"] == "invited"
    mine = db.run_now(lambda c: clubs.listing(c, cat))
    assert [c["id"] for c in mine["invitations"]] == [invited]
    assert ok(db.run_now(lambda c: clubs.join(c, invited, cat, 3.0, LIMITS)))["status"] == "member"
    # a declined invitation is gone
    ok(db.run_now(lambda c: clubs.invite(c, invited, ann, bob, 2.0, LIMITS)))
    assert ok(db.run_now(lambda c: clubs.decline(c, invited, bob, bob)))["status"] == "none"
    refused(db.run_now(lambda c: clubs.join(c, invited, bob, 2.0, LIMITS)), text.CLUB_BY_INVITATION, 403)


def test_only_accounts_can_be_invited(db: Database) -> None:
    ann = account(db, "Ann")
    guest = db.run_now(lambda c: players.create(c, "guest")).id
    club = new_club(db, ann)
    refused(db.run_now(lambda c: clubs.invite(c, club, ann, guest, 2.0, LIMITS)), text.CLUB_NO_ACCOUNT, 404)


def test_roles_and_their_refusals(db: Database) -> None:
    ann, bob, cat, dan = (account(db, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    club = new_club(db, ann)
    for who in (bob, cat, dan):
        ok(call(db, clubs.join, club, who, 2.0, LIMITS))
    # a member cannot remove, invite or change roles
    refused(db.run_now(lambda c: clubs.remove(c, club, bob, cat)), text.CLUB_LEADERS_ONLY, 403)
    refused(
        db.run_now(lambda c: clubs.set_role(c, club, bob, cat, "leader", LIMITS)), text.CLUB_LEADERS_ONLY, 403
    )
    # the owner makes bob a leader; a leader removes a member but not another leader, nor the owner
    assert ok(db.run_now(lambda c: clubs.set_role(c, club, ann, bob, "leader", LIMITS)))["status"] == "leader"
    ok(db.run_now(lambda c: clubs.set_role(c, club, ann, cat, "leader", LIMITS)))
    refused(db.run_now(lambda c: clubs.remove(c, club, bob, cat)), text.CLUB_OWNER_ONLY, 403)
    refused(db.run_now(lambda c: clubs.remove(c, club, bob, ann)), text.CLUB_OWNER_STAYS, 403)
    refused(
        db.run_now(lambda c: clubs.set_role(c, club, bob, dan, "leader", LIMITS)), text.CLUB_OWNER_ONLY, 403
    )
    assert ok(db.run_now(lambda c: clubs.remove(c, club, bob, dan)))["status"] == "none"
    assert not db.run_now(lambda c: clubs.is_member(c, club, dan))
    # the owner hands the club over: bob owns it, ann leads
    assert ok(db.run_now(lambda c: clubs.set_role(c, club, ann, bob, "owner", LIMITS)))["status"] == "owner"
    assert db.run_now(lambda c: (clubs.role_of(c, club, ann), clubs.role_of(c, club, bob))) == (
        "leader",
        "owner",
    )
    refused(
        db.run_now(lambda c: clubs.set_role(c, club, ann, cat, "member", LIMITS)), text.CLUB_OWNER_ONLY, 403
    )


def test_an_owner_who_leaves_hands_over_to_the_longest_standing_leader_and_the_last_one_deletes(
    db: Database,
) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    club = new_club(db, ann)
    ok(db.run_now(lambda c: clubs.join(c, club, bob, 2.0, LIMITS)))
    ok(db.run_now(lambda c: clubs.join(c, club, cat, 3.0, LIMITS)))
    ok(db.run_now(lambda c: clubs.set_role(c, club, ann, cat, "leader", LIMITS)))
    ok(db.run_now(lambda c: clubs.leave(c, club, ann)))
    assert db.run_now(lambda c: clubs.role_of(c, club, cat)) == "owner"  # a leader before an older member
    ok(db.run_now(lambda c: clubs.leave(c, club, cat)))
    assert db.run_now(lambda c: clubs.role_of(c, club, bob)) == "owner"
    refused(db.run_now(lambda c: clubs.leave(c, club, cat)), text.CLUB_NOT_MEMBER, 409)
    assert ok(db.run_now(lambda c: clubs.leave(c, club, bob)))["status"] == "deleted"
    assert db.run_now(lambda c: clubs.find(c, club)) is None


def test_a_private_club_does_not_exist_for_outsiders(db: Database) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    club = new_club(db, ann, "Hidden", "request", private=True)
    for viewer in (None, bob):
        refused(call(db, clubs.page, club, viewer), text.CLUB_NONE, 404)
        assert call(db, clubs.listing, viewer)["clubs"] == []
    refused(db.run_now(lambda c: clubs.join(c, club, bob, 2.0, LIMITS)), text.CLUB_NONE, 404)
    refused(db.run_now(lambda c: clubs.chat(c, club, bob)), text.CLUB_NONE, 404)
    # invited, cat sees it and joins
    ok(db.run_now(lambda c: clubs.invite(c, club, ann, cat, 2.0, LIMITS)))
    assert ok(db.run_now(lambda c: clubs.page(c, club, cat)))["club"]["pending"] == "invitation"
    ok(db.run_now(lambda c: clubs.join(c, club, cat, 3.0, LIMITS)))
    assert [c["id"] for c in db.run_now(lambda c: clubs.listing(c, cat))["mine"]] == [club]


def test_bounds(db: Database) -> None:
    small = Limits(
        bot_workers=0,
        clubs_per_owner=1,
        clubs_per_player=2,
        club_members=2,
        club_pending=1,
        club_chat_per_minute=2,
    )
    ann, bob, cat, dan = (account(db, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    first = new_club(db, ann, "First", limits=small)
    made = db.run_now(lambda c: clubs.create(c, ann, "Second", "", "en", "open", False, 1.0, small))
    refused(made, text.CLUB_OWNS_TOO_MANY, 409)
    ok(db.run_now(lambda c: clubs.join(c, first, bob, 2.0, small)))
    refused(db.run_now(lambda c: clubs.join(c, first, cat, 2.0, small)), text.CLUB_FULL, 409)
    asked = new_club(db, cat, "Asked", "request", limits=small)
    ok(db.run_now(lambda c: clubs.join(c, asked, bob, 2.0, small)))
    refused(db.run_now(lambda c: clubs.join(c, asked, dan, 2.0, small)), text.CLUB_TOO_MANY_PENDING, 409)
    third = new_club(db, dan, "Third", limits=small)
    ok(db.run_now(lambda c: clubs.accept(c, asked, cat, bob, 3.0, small)))  # bob: 2 clubs, the most
    refused(db.run_now(lambda c: clubs.join(c, third, bob, 2.0, small)), text.CLUB_JOINED_TOO_MANY, 409)
    ok(db.run_now(lambda c: clubs.post(c, first, bob, "one", 10.0, small)))
    ok(db.run_now(lambda c: clubs.post(c, first, bob, "two", 11.0, small)))
    refused(db.run_now(lambda c: clubs.post(c, first, bob, "three", 12.0, small)), text.CHAT_TOO_FAST, 429)
    ok(db.run_now(lambda c: clubs.post(c, first, bob, "a minute on", 71.0, small)))


def test_the_chat_keeps_its_newest_lines(db: Database) -> None:
    kept = Limits(bot_workers=0, club_chat_kept=3, club_chat_per_minute=100)
    ann = account(db, "Ann")
    club = new_club(db, ann)
    for i in range(5):
        ok(call(db, clubs.post, club, ann, f"line {i}", 10.0 + i, kept))
    lines = ok(db.run_now(lambda c: clubs.chat(c, club, ann)))
    assert [line["text"] for line in lines] == ["line 2", "line 3", "line 4"]
    count = db.run_now(lambda c: c.execute(select(func.count()).select_from(club_chat)).scalar_one())
    assert count == 3


def test_members_chat_leaders_hide_and_a_hidden_line_is_gone_for_everyone(db: Database) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    club = new_club(db, ann)
    ok(db.run_now(lambda c: clubs.join(c, club, bob, 2.0, LIMITS)))
    refused(db.run_now(lambda c: clubs.post(c, club, cat, "hi", 5.0, LIMITS)), text.CLUB_MEMBERS_ONLY, 403)
    refused(db.run_now(lambda c: clubs.chat(c, club, cat)), text.CLUB_MEMBERS_ONLY, 403)
    hello = ok(db.run_now(lambda c: clubs.post(c, club, ann, "hello", 5.0, LIMITS)))
    rude = ok(db.run_now(lambda c: clubs.post(c, club, bob, "rude words", 6.0, LIMITS)))
    assert rude["name"] == "Bob"
    refused(db.run_now(lambda c: clubs.hide(c, club, bob, hello["id"])), text.CLUB_LEADERS_ONLY, 403)
    reported = ok(db.run_now(lambda c: clubs.report(c, club, ann, None, rude["id"], "abuse", 7.0)))
    refused(
        db.run_now(lambda c: clubs.report(c, club, ann, None, rude["id"], "abuse", 7.0)),
        text.REPORT_AGAIN,
        409,
    )
    refused(
        db.run_now(lambda c: clubs.report(c, club, bob, None, rude["id"], "abuse", 7.0)),
        text.REPORT_SELF,
        400,
    )
    row = db.run_now(
        lambda c: c.execute(select(reports.c.room_id, reports.c.text).where(reports.c.id == reported)).one()
    )
    assert tuple(row) == (f"club:{club}", "rude words")
    assert ok(db.run_now(lambda c: clubs.hide(c, club, ann, rude["id"]))) == rude["id"]
    for reader in (ann, bob):
        lines = ok(call(db, clubs.chat, club, reader))
        assert [line["text"] for line in lines] == ["hello"]
    refused(db.run_now(lambda c: clubs.hide(c, club, ann, rude["id"])), text.CLUB_NO_LINE, 404)
    # a line of another club is not this club's
    other = new_club(db, bob, "Other")
    theirs = ok(db.run_now(lambda c: clubs.post(c, other, bob, "elsewhere", 8.0, LIMITS)))
    refused(db.run_now(lambda c: clubs.hide(c, club, ann, theirs["id"])), text.CLUB_NO_LINE, 404)


def test_the_leaderboard_reads_the_members_ratings(db: Database) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    club = new_club(db, ann)
    ok(db.run_now(lambda c: clubs.join(c, club, bob, 2.0, LIMITS)))
    when = datetime(2026, 1, 1, tzinfo=UTC)

    def rate(conn: Connection) -> None:
        for player, mu in ((ann, 25.0), (bob, 30.0), (cat, 40.0)):  # cat is no member
            conn.execute(
                insert(ratings).values(
                    player_id=player,
                    pool="classic-2",
                    mu=mu,
                    sigma=2.0,
                    games=12,
                    last_seq=1,
                    last_played=when,
                )
            )

    db.run_now(rate)
    page = ok(db.run_now(lambda c: clubs.page(c, club, None)))
    (board,) = page["leaderboards"]
    assert board["pool"] == "classic-2"
    assert [(e["rank"], e["player"], e["rating"]) for e in board["players"]] == [
        (1, bob, display(30.0, 2.0)),
        (2, ann, display(25.0, 2.0)),
    ]
    roles = {m["player"]: (m["role"], m["ratings"]) for m in page["members"]}
    assert roles == {
        ann: ("owner", {"classic-2": display(25.0, 2.0)}),
        bob: ("member", {"classic-2": display(30.0, 2.0)}),
    }


def test_an_erased_account_leaves_its_clubs_cleanly(db: Database) -> None:
    ann, bob = account(db, "Ann"), account(db, "Bob")
    shared = new_club(db, ann, "Shared")
    alone = new_club(db, ann, "Alone")
    asked = new_club(db, bob, "Asked", "request")
    ok(db.run_now(lambda c: clubs.join(c, shared, bob, 2.0, LIMITS)))
    ok(db.run_now(lambda c: clubs.join(c, asked, ann, 2.0, LIMITS)))
    ok(db.run_now(lambda c: clubs.post(c, shared, ann, "mine", 3.0, LIMITS)))
    ok(db.run_now(lambda c: clubs.post(c, shared, bob, "bob's", 4.0, LIMITS)))

    def erase(conn: Connection) -> None:
        row = accounts.find(conn, login="ann")
        assert row is not None
        clubs.forget(conn, accounts.player_ids(conn, row.id))
        assert erasure.erase(conn, row.id) is not None

    db.run_now(erase)
    assert db.run_now(lambda c: clubs.role_of(c, shared, bob)) == "owner"
    assert db.run_now(lambda c: clubs.find(c, alone)) is None
    assert ok(db.run_now(lambda c: clubs.page(c, asked, bob)))["pending"] == []
    assert [line["text"] for line in ok(db.run_now(lambda c: clubs.chat(c, shared, bob)))] == ["bob's"]
    left = db.run_now(
        lambda c: c.execute(
            select(func.count()).select_from(club_members).where(club_members.c.player_id == ann)
        ).scalar_one()
    )
    assert left == 0
    assert db.run_now(lambda c: c.execute(select(func.count()).select_from(clubs_table)).scalar_one()) == 2


def test_joins_at_the_same_moment_never_pass_the_bound(db: Database) -> None:
    """Eight players join a club with room for three more at once, each in its own transaction (as
    members of a cluster would): the club's row lock lets exactly three in."""
    bound = Limits(bot_workers=0, club_members=4)
    ann = account(db, "Ann")
    club = new_club(db, ann, limits=bound)
    people = [account(db, f"P{i}") for i in range(8)]
    start = threading.Barrier(len(people))
    results: list[object] = []

    def join(player: str) -> None:
        start.wait()
        results.append(db.run_now(lambda c: clubs.join(c, club, player, 2.0, bound)))

    threads = [threading.Thread(target=join, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    admitted = [r for r in results if not isinstance(r, BaseException) and not isinstance(r, ClubRefused)]
    assert len(admitted) == 3
    assert all(
        isinstance(r, ClubRefused) and r.template == text.CLUB_FULL for r in results if r not in admitted
    )
    count = db.run_now(
        lambda c: c.execute(
            select(func.count()).select_from(club_members).where(club_members.c.club_id == club)
        ).scalar_one()
    )
    assert count == 4


def test_leaders_change_the_clubs_settings_and_members_do_not(db: Database) -> None:
    ann, bob, cat = account(db, "Ann"), account(db, "Bob"), account(db, "Cat")
    club = new_club(db, ann)
    ok(call(db, clubs.join, club, bob, 2.0, LIMITS))
    refused(call(db, clubs.settle, club, bob, "mine now", None, None, None), text.CLUB_LEADERS_ONLY, 403)
    ok(call(db, clubs.set_role, club, ann, bob, "leader", LIMITS))
    shown = ok(call(db, clubs.settle, club, bob, "Evenings only", "ja", "invitation", True))
    assert (shown["description"], shown["language"], shown["admission"], shown["private"]) == (
        "Evenings only",
        "ja",
        "invitation",
        True,
    )
    assert ok(call(db, clubs.settle, club, ann, None, None, None, None))["description"] == "Evenings only"
    refused(call(db, clubs.page, club, cat), text.CLUB_NONE, 404)  # private now
    refused(call(db, clubs.join, club, cat, 3.0, LIMITS), text.CLUB_NONE, 404)
