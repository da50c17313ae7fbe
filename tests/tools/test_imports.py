"""The shape of the house: imports run from the front ends down to the core, never back up.

The layers, from the inside out (the design notes, ``../shared/DESIGN.md`` beside the
checkout: "dependencies point inwards only"):

0. the core (``roppyakken/*.py`` and the environment's ``roppyakken.env.core`` and
   ``roppyakken.env.kernel``, compiled with the rules), standard library only;
1. the bots (``roppyakken.ai``);
2. the research environment's adapters (the rest of ``roppyakken.env``: PettingZoo,
   Gymnasium, training, the ``learned`` level that registers itself with the bots);
3. the front ends, side by side: the terminal (``roppyakken.tui``) and the web server
   (``roppyakken.server``);
4. the command line (``roppyakken.cli``), which starts any of them;
5. the developers' tools (``roppyakken.devtools``), which read every layer.

A module imports only from its own layer and those inside it; the front ends of one rank
import nothing of each other.  Every import is read from the source (module level, inside
functions and under ``TYPE_CHECKING`` alike), so a lazy import cannot hide a wrong
direction.  No module is an exception.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.harness.support import ROOT

PACKAGE = ROOT / "src" / "roppyakken"

CORE = "core"
BOTS = "ai"
RL = "rl"
TUI = "tui"
SERVER = "server"
CLI = "cli"
TOOLS = "devtools"
RANK = {CORE: 0, BOTS: 1, RL: 2, TUI: 3, SERVER: 3, CLI: 4, TOOLS: 5}
"""Each layer's rank: a module may import only from layers of lower rank, or its own."""
EXTRAS = (RL, TUI, SERVER)
"""The layers an optional extra installs: the command line loads them only inside the
command that needs them, so that the other commands run on a bare install."""


@dataclass(frozen=True)
class Import:
    """One ``import`` of a roppyakken module (or of anything, for the core's check)."""

    module: str
    target: str
    top_level: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, id(node) in top)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield Import(module, full if full in known else node.module, id(node) in top)


def _all_imports() -> list[Import]:
    known = _modules()
    return [imp for module, path in known.items() for imp in _imports(module, path, known)]


def _layer(module: str) -> str:
    """The layer of a roppyakken module (:data:`RANK`); ``""`` for any other module."""
    parts = module.split(".")
    if parts[0] != "roppyakken":
        return ""
    if len(parts) > 2 and parts[1] == "env" and parts[2] not in ("core", "kernel"):
        return RL
    if len(parts) > 1 and parts[1] in RANK and parts[1] != CORE:
        return parts[1]
    return CORE


def _wrong_way(imp: Import) -> bool:
    """Whether ``imp`` runs outwards, or sideways between two front ends."""
    source, target = _layer(imp.module), _layer(imp.target)
    if not target or source == target:
        return False
    return RANK[target] >= RANK[source]


def test_the_package_is_found() -> None:
    """The checks below read real modules (an empty walk would pass them all)."""
    modules = _modules()
    assert "roppyakken.engine" in modules and "roppyakken.kernel" in modules
    assert {_layer(m) for m in modules} == set(RANK)
    assert _layer("roppyakken.env.core") == CORE and _layer("roppyakken.env.gymnasium") == RL
    assert _layer("roppyakken.env.kernel") == CORE and _layer("roppyakken.env.arrays") == RL
    assert _layer("roppyakken.env.learned") == RL and _layer("roppyakken.devtools.i18n") == TOOLS
    assert len(_all_imports()) > 100


def test_a_wrong_way_is_seen() -> None:
    """(So that the next test can fail.)"""
    assert _wrong_way(Import("roppyakken.ai.base", "roppyakken.env.learned", False))
    assert _wrong_way(Import("roppyakken.engine", "roppyakken.ai.base", False))
    assert _wrong_way(Import("roppyakken.tui.app", "roppyakken.server.play.room", False))
    assert _wrong_way(Import("roppyakken.server.web.app", "roppyakken.cli.main", False))
    assert not _wrong_way(Import("roppyakken.cli.play_cmd", "roppyakken.tui.app", False))
    assert not _wrong_way(Import("roppyakken.env.learned", "roppyakken.ai.base", True))


def test_imports_run_inwards_only() -> None:
    """No module imports a layer outside its own, nor a front end beside it."""
    wrong = [f"{i.module} imports {i.target}" for i in _all_imports() if _wrong_way(i)]
    assert wrong == []


def test_the_core_depends_on_the_standard_library_only() -> None:
    """The core engine installs with nothing but Python."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.module) == CORE and _layer(i.target) == "" and i.target.split(".")[0] not in stdlib
    ]
    assert wrong == []


def test_the_command_line_loads_an_extra_only_in_its_command() -> None:
    """``roppyakken play``, ``serve`` and the like import their front end when they run, so
    that every other command starts without it (and without its extra installed)."""
    wrong = [
        f"{i.module} imports {i.target} at module level"
        for i in _all_imports()
        if _layer(i.module) == CLI and _layer(i.target) in EXTRAS and i.top_level
    ]
    assert wrong == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycles_are_found() -> None:
    """The cycle finder finds a cycle when there is one (so that the next test can fail)."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    """No two modules import each other, directly or through others (lazy imports included)."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for i in _all_imports():
        if i.target in modules and i.target != i.module:
            graph[i.module].add(i.target)
    assert _cycles(graph) == []


SERVER_RANK = {
    "": 0,
    "wire": 0,
    "store": 1,
    "people": 2,
    "play": 3,
    "club": 4,
    "migrations": 4.5,
    "cluster": 5,
    "web": 6,
}
"""The server's folders by concern, from the ground up (docs/SERVER.md): a module of the server
imports only its own folder and those of lower rank.  The ground (``limits``, ``addresses``,
``config``) and the messages (``wire``) hold no state and run no I/O of their own; ``store`` is
the database; ``people`` and ``play`` decide; ``club`` (pairing, ratings, profiles) and
``cluster`` (several servers as one) build on rooms; ``web`` serves them all.  The migrations
(``store/migrations``) are the database's history: Alembic runs them by path and nothing imports
them, and a data migration may call the domain's own functions (a login's skeleton, a profile's
backfill), so they stand above what they call."""


def _concern(module: str) -> str | None:
    """The server folder of ``module`` (``""`` for the ground), or None outside the server."""
    parts = module.split(".")
    if parts[:2] != ["roppyakken", "server"] or len(parts) < 3:
        return None
    if parts[2:4] == ["store", "migrations"]:
        return "migrations"
    if parts[2] in SERVER_RANK and len(parts) > 3:
        return parts[2]
    return ""


def _server_wrong_way(imp: Import) -> bool:
    source, target = _concern(imp.module), _concern(imp.target)
    if source is None or target is None or source == target:
        return False
    return SERVER_RANK[target] > SERVER_RANK[source]


def test_the_server_folders_are_found() -> None:
    """Every folder of the server is read (so that the next tests can fail)."""
    folders = {_concern(m) for m in _modules()} - {None}
    assert folders == set(SERVER_RANK)
    assert _concern("roppyakken.server.store.migrations.versions.0008_account_recovery") == "migrations"
    assert _server_wrong_way(Import("roppyakken.server.play.room", "roppyakken.server.web.app", False))
    assert _server_wrong_way(Import("roppyakken.server.store.tables", "roppyakken.server.play.clocks", False))
    assert not _server_wrong_way(Import("roppyakken.server.web.app", "roppyakken.server.play.room", True))


def test_the_server_imports_run_down_its_folders() -> None:
    """web -> cluster -> club -> play -> people -> store -> wire and the ground, never back up."""
    wrong = [f"{i.module} imports {i.target}" for i in _all_imports() if _server_wrong_way(i)]
    assert wrong == []


def test_only_the_web_folder_imports_starlette() -> None:
    """Rooms, people, clubs and the cluster know nothing of HTTP: the routes live in ``web``."""
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _concern(i.module) not in (None, "web") and i.target.split(".")[0] == "starlette"
    ]
    assert wrong == []
