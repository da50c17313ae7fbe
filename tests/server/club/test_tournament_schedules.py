"""The operator's recurring tournaments: a schedule file read with one line for any problem, its
starts on the period's grid, made once however often (or by however many members) they are made,
by ``serve --tournaments FILE`` and by ``roppyakken admin tournaments``."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from roppyakken.errors import RoppyakkenError
from roppyakken.server.club.tournaments import schedules
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import tournaments
from tests.harness import services
from tests.harness.poll import until
from tests.harness.support import run_cli

HOURLY = """
[[tournament]]
name = "Hourly arena"
format = "arena"
clock = "15+60"
minutes = 50
every = "1h"

[[tournament]]
name = "Weekly Swiss"
format = "swiss"
preset = "yukbaek"
players = 3
clock = "60+300"
rounds = 5
every = "7d"
first = 2026-12-12T18:00:00Z
"""


def test_a_schedule_file_is_read_and_its_starts_fall_on_its_grid() -> None:
    hourly, weekly = schedules.parse(HOURLY)
    assert (hourly.format, hourly.preset, hourly.players, hourly.minutes, hourly.rated) == (
        "arena",
        "classic",
        2,
        50.0,
        True,
    )
    assert hourly.starts(7200.5, 7200.5 + 3 * 3600) == [10800.0, 14400.0, 18000.0]
    first = 1797098400.0  # 2026-12-12T18:00:00Z
    assert weekly.starts(first - 1, first + 8 * 86400) == [first, first + 7 * 86400]
    assert weekly.starts(first - 14 * 86400 + 1, first - 7 * 86400 + 1) == [first - 7 * 86400]
    assert hourly.tournament_id(10800.0) == schedules.parse(HOURLY)[0].tournament_id(10800.0)
    assert hourly.tournament_id(10800.0) != hourly.tournament_id(14400.0)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[[tournament]]\nname = 'x'\nformat = 'arena'\nclock = '15+60'\nevery = '1h'\n", "'minutes'"),
        ("[[tournament]]\nname = 'x'\nformat = 'swiss'\nclock = '15+60'\nevery = '1h'\n", "'rounds'"),
        ("[[tournament]]\nname = 'x'\nformat = 'cup'\nclock = '15+60'\nevery = '1h'\n", "'format'"),
        ("[[tournament]]\nname = 'x'\nformat = 'arena'\nminutes = 5\nevery = '1h'\n", "'clock'"),
        (
            "[[tournament]]\nname = 'x'\nformat = 'arena'\nminutes = 5\nclock = '15+60'\nevery = '1m'\n",
            "'every'",
        ),
        (
            "[[tournament]]\nname = 'x'\nformat = 'arena'\nminutes = 5\nclock = '15+60'\nevery = 'often'\n",
            "'every'",
        ),
        (
            "[[tournament]]\nname = 'x'\nformat = 'arena'\nminutes = 5\nclock = '15+60'\nevery = '1h'\n"
            "prize = 1\n",
            "'prize'",
        ),
        ("[[tournament]\n", "TOML"),
    ],
)
def test_a_bad_schedule_is_refused_in_one_line_naming_the_problem(text: str, said: str) -> None:
    with pytest.raises(RoppyakkenError) as refused:
        schedules.parse(text)
    message = str(refused.value)
    assert said in message and "\n" not in message.strip()


def test_scheduled_tournaments_are_made_once(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    db.open()
    try:
        wanted = schedules.parse(HOURLY)
        now = 7200.0 * 1000 + 100
        made = db.run_now(lambda c: schedules.make_due(c, wanted, now, 2 * 3600))
        assert len(made) == 2  # the next two hourly arenas; the weekly Swiss is not within two hours
        assert db.run_now(lambda c: schedules.make_due(c, wanted, now + 60, 2 * 3600)) == []
        count = db.run_now(lambda c: c.execute(select(func.count()).select_from(tournaments)).scalar())
        assert count == 2
    finally:
        db.engine.dispose()


def test_serve_makes_the_scheduled_tournaments_and_admin_makes_and_cancels_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tournaments.toml"
    path.write_text(HOURLY, encoding="utf-8")
    database = f"sqlite:///{tmp_path / 'served.sqlite3'}"
    member = services.Member(database, None, extra=["--tournaments", str(path)]).start()
    try:
        listed: list[dict[str, object]] = []

        def seen() -> bool:
            listed[:] = httpx.get(member.url + "/api/tournaments", timeout=10).json()["tournaments"]
            return bool(listed)

        until(seen, 30, "the scheduled arena listed")
        assert [t["name"] for t in listed] == ["Hourly arena"]
        starts = float(str(listed[0]["starts_at"]))
        assert starts % 3600 == 0 and time.time() <= starts <= time.time() + 3600
    finally:
        member.stop()
    # the admin command makes the same ones (none new), lists them, and cancels one
    code, out, err = run_cli(
        ["admin", "tournaments", "--schedule", str(path), "--database", database], monkeypatch=monkeypatch
    )
    assert code == 0, err
    assert "0 scheduled tournaments made" in out and "Hourly arena" in out
    code, out, err = run_cli(
        ["admin", "tournaments", "--schedule", str(path), "--ahead", "3h", "--database", database],
        monkeypatch=monkeypatch,
    )
    assert code == 0 and "2 scheduled tournaments made" in out, (out, err)
    tid = str(listed[0]["id"])
    code, out, err = run_cli(
        ["admin", "tournaments", "--cancel", tid, "--database", database], monkeypatch=monkeypatch
    )
    assert (
        code == 0 and f"tournament {tid} cancelled" in out and tid + " " not in out.split("cancelled", 1)[1]
    )
    code, out, err = run_cli(
        ["admin", "tournaments", "--cancel", tid, "--database", database], monkeypatch=monkeypatch
    )
    assert code != 0 and "there is no tournament" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("[[tournament]]\nname = 'x'\nformat = 'arena'\n", encoding="utf-8")
    code, out, err = run_cli(
        ["serve", "--tournaments", str(bad), "--database", database, "--port", "0"], monkeypatch=monkeypatch
    )
    assert code != 0 and "tournament schedule 1 ('x')" in err and "Traceback" not in err
