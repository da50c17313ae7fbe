"""The capacity benchmark's attribution and arithmetic (the run itself is by hand: it starts a cluster)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.harness.support import ROOT


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_capacity", ROOT / "bench" / "bench_capacity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_capacity"] = module  # (its dataclasses look themselves up there)
    spec.loader.exec_module(module)
    return module


def test_statements_are_attributed_by_the_table_they_name() -> None:
    bench = _load()
    assert bench.statement_source("INSERT INTO actions (room_id, seq) VALUES ($1, $2)") == (
        "moves",
        "insert actions",
    )
    assert bench.statement_source("UPDATE rooms SET clock=$1 WHERE rooms.id = $2") == (
        "rooms and clocks",
        "update rooms",
    )
    # a foreign key's check names its table after ONLY and the schema
    fk = 'SELECT 1 FROM ONLY "public"."rooms" x WHERE "id" OPERATOR(pg_catalog.=) $1 FOR KEY SHARE OF x'
    assert bench.statement_source(fk) == ("rooms and clocks", "select rooms")
    assert bench.statement_source("COMMIT") == ("transactions", "commit")


def test_redis_commands_are_attributed_by_key_and_script() -> None:
    bench = _load()
    monitor = bench.Monitor("redis://127.0.0.1:1/0")
    renew = next(sha for sha, name in monitor.scripts.items() if name == "leases.renew")
    monitor._count({"command": f"EVALSHA {renew} 1 roppyakken:lease:r1 m1 3000", "client_type": "tcp"})
    monitor._count({"command": "GET roppyakken:lease:r1", "client_type": "lua"})
    monitor._count({"command": "ZADD roppyakken:conns:10.0.0.1 XX 5 m1:ab", "client_type": "tcp"})
    monitor._count({"command": "PUBLISH roppyakken:member:m2 payload", "client_type": "tcp"})
    assert dict(monitor.counts) == {
        ("leases", "EVALSHA leases.renew"): 1,
        ("leases", "GET (in a script)"): 1,
        ("connections (presence)", "ZADD"): 1,
        ("relays", "PUBLISH"): 1,
    }


def test_a_phase_is_counted_per_unit_less_the_baseline() -> None:
    bench = _load()
    baseline = bench.Phase("baseline", {"seconds": 10.0, "pg.commits": 10.0, "redis.get": 20.0}, {}, {}, {})
    games = bench.Phase("games", {"seconds": 20.0, "pg.commits": 220.0, "redis.get": 240.0}, {}, {}, {})
    cost = bench.per_unit(games, baseline, 5.0)  # 5 moves a second
    assert cost["pg.commits"] == (11.0 - 1.0) / 5.0
    assert cost["redis.commands"] == (12.0 - 2.0) / 5.0


def test_the_cpu_model_fitted_on_two_loads_predicts_a_third() -> None:
    """CPU = m a move + f a write transaction: fitted from a slow and a fast load of one configuration,
    it predicts another's moves a second from the cores left to it and its transactions a move."""
    bench = _load()
    m, f = 0.001, 0.004  # seconds of CPU a move, a write transaction

    def window(moves: float, per_move_txn: float, idle_cpu: float = 0.0) -> dict[str, float]:
        cpu = idle_cpu + moves * (m + f * per_move_txn)
        return {
            "moves": moves,
            "stack cpu": cpu,
            "pg.write transactions": moves * per_move_txn,
            "cores left": 0.0,
            "errors": 0.0,
        }

    base = {"moves": 0.0, "stack cpu": 0.1, "pg.write transactions": 0.0, "cores left": 0.0}
    slow, fast = window(10, 1.2, 0.1), window(200, 0.5, 0.1)
    target = window(150, 0.6, 0.1)
    target["cores left"] = 0.1 + 150 * (m + f * 0.6)
    raw = {
        "baseline": {"a": base, "b": base},
        "windows": {"a": {"games": [slow], "idle": []}, "b": {"games": [], "idle": []}},
        "full speed": {"a": fast, "b": target},
    }
    check = bench.model_check(raw)
    assert abs(check["m: CPU a move, ms"] - 1.0) < 1e-9
    assert abs(check["f: CPU a write transaction, ms"] - 4.0) < 1e-9
    assert abs(check["predicted moves/s"] - 150) < 1e-6
    assert abs(check["off by %"]) < 1e-6
    # the one-term model (the slow load's CPU a move) predicts far fewer
    assert check["the old model (human-pace CPU a move) predicted moves/s"] < 100
