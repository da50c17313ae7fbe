"""The standings' JSON and CSV (server/club/tournaments/view.py) carry Sonneborn-Berger and the
tie-break that set each line apart, as the rules compute them."""

from __future__ import annotations

import csv
import io

from roppyakken.server.club.tournaments import view
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament


def _snapshot() -> view.Snapshot:
    cup = Tournament(
        "t1", "Cup", "swiss", "standard", 3, "15+60", False, "public", None, None, None, 0.0, 0.0, None, 2, 2,
        "finished", 1.0,
    )  # fmt: skip
    entries = tuple(Entry(p, p.upper(), 1500.0, "h", 0.0, 0.0, False, False, 0) for p in "abcdef")
    played = (
        (1, ("c", "d", "f"), (1, 1, 3)),
        (1, ("a", "e", "b"), (1, 1, 3)),
        (2, ("c", "e", "a"), (1, 2, 3)),
        (2, ("b", "f", "d"), (1, 1, 3)),
    )
    tables = tuple(
        TableRow(n, r, players, 0.0, f"r{n}", 1.0, places, frozenset())
        for n, (r, players, places) in enumerate(played, 1)
    )
    return view.Snapshot(cup, entries, tables, ())


def test_the_json_and_the_csv_say_sonneborn_berger_and_the_tie_break() -> None:
    snap = _snapshot()
    lines = view.answer(snap, None, 2.0)["standings"]
    said = [
        (line["player"], line["points"], line["buchholz"], line["sonneborn_berger"], line["tie_break"])
        for line in lines
    ]
    assert said == [
        ("c", 3.5, 7.0, 6.25, None),
        ("e", 2.5, 8.0, 3.75, None),
        ("a", 1.5, 10.0, 2.75, None),
        ("d", 1.5, 8.0, 3.25, "buchholz"),
        ("f", 1.5, 8.0, 2.25, "sonneborn_berger"),  # equal Buchholz: Sonneborn-Berger decided
        ("b", 1.5, 7.0, 2.25, "buchholz"),
    ]
    rows = list(csv.DictReader(io.StringIO(view.standings_csv(snap, 2.0))))
    assert [(r["player"], r["sonneborn_berger"], r["tie_break"]) for r in rows] == [
        ("c", "6.25", ""),
        ("e", "3.75", ""),
        ("a", "2.75", ""),
        ("d", "3.25", "buchholz"),
        ("f", "2.25", "sonneborn_berger"),
        ("b", "2.25", "buchholz"),
    ]
