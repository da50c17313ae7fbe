"""The shape of the house: imports run from the front ends down to the core, never back up.

Layers (DESIGN.md): the core (``roppyakken/*.py``, standard library only), the bots
(``roppyakken.ai``), the front ends (``roppyakken.cli``, ``roppyakken.tui``,
``roppyakken.server``).  Every import is read from the source (module level, inside
functions and under ``TYPE_CHECKING`` alike), so a lazy import cannot hide a wrong
direction.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "roppyakken"

BOTS = "ai"
FRONT_ENDS = ("cli", "tui", "server")
RL = "rl"
"""The research environment's adapters (``roppyakken.env`` but its standard-library
``core``): PettingZoo, Gymnasium and training, an optional extra that plays against bots."""
TOOLS = "devtools"
"""Tools for the developers (the catalogs, the card art): they may read every layer, and
nothing imports them."""
LAYERED = (BOTS, *FRONT_ENDS, RL, TOOLS)

LEARNED_BOT = "roppyakken.env.learned"
"""The ``learned`` bot level lives beside the environment that trained it (it needs numpy);
it is a bot: the bots' registry loads it, only when that level is asked for."""

LAUNCHERS = {
    ("roppyakken.cli.play_cmd", "tui"),
    ("roppyakken.cli.replay_cmd", "tui"),
    ("roppyakken.cli.learn_cmd", "tui"),
    ("roppyakken.cli.serve_cmd", "server"),
}
"""The command line is where the other front ends are started: ``roppyakken play``,
``replay`` and ``learn`` open the terminal interface, ``roppyakken serve`` the web server.  These
commands may import them, and only inside the function that starts them (so that the
other commands run without the optional extras installed)."""


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
    """``core``, ``ai``, ``cli``, ``tui`` or ``server`` for a roppyakken module; ``""`` otherwise."""
    parts = module.split(".")
    if parts[0] != "roppyakken":
        return ""
    if module == LEARNED_BOT or module.startswith(LEARNED_BOT + "."):
        return BOTS
    if len(parts) > 2 and parts[1] == "env" and parts[2] != "core":
        return RL
    if len(parts) > 1 and parts[1] in LAYERED:
        return parts[1]
    return "core"


def test_the_package_is_found() -> None:
    """The checks below read real modules (an empty walk would pass them all)."""
    modules = _modules()
    assert "roppyakken.engine" in modules and "roppyakken.kernel" in modules
    assert any(_layer(m) == "server" for m in modules)
    assert _layer("roppyakken.env.core") == "core" and _layer("roppyakken.env.gymnasium") == RL
    assert _layer("roppyakken.env.learned") == BOTS and _layer("roppyakken.devtools.i18n") == TOOLS
    assert len(_all_imports()) > 100


def test_the_core_imports_no_bot_and_no_front_end() -> None:
    """The rules know nothing of bots, the terminal or the network."""
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.module) == "core" and _layer(i.target) in LAYERED
    ]
    assert wrong == []


def test_the_core_depends_on_the_standard_library_only() -> None:
    """The core engine installs with nothing but Python."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.module) == "core" and _layer(i.target) == "" and i.target.split(".")[0] not in stdlib
    ]
    assert wrong == []


def test_the_bots_import_no_front_end() -> None:
    """Bots see views and play through the core; they know no front end."""
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.module) == BOTS and _layer(i.target) in FRONT_ENDS
    ]
    assert wrong == []


def test_the_environment_adapters_import_no_front_end() -> None:
    """The research environment plays through the core and the bots, never a front end."""
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.module) == RL and _layer(i.target) in FRONT_ENDS
    ]
    assert wrong == []


def test_nothing_imports_the_developer_tools() -> None:
    """The developers' tools (and their Babel dependency) never load in a game."""
    wrong = [
        f"{i.module} imports {i.target}"
        for i in _all_imports()
        if _layer(i.target) == TOOLS and _layer(i.module) != TOOLS
    ]
    assert wrong == []


def test_no_front_end_imports_another() -> None:
    """Front ends share the core and the bots, not each other (but for the launchers)."""
    wrong = []
    for i in _all_imports():
        source, target = _layer(i.module), _layer(i.target)
        if source not in FRONT_ENDS or target not in FRONT_ENDS or source == target:
            continue
        if (i.module, target) in LAUNCHERS and not i.top_level:
            continue
        wrong.append(f"{i.module} imports {i.target}" + (" at module level" if i.top_level else ""))
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
