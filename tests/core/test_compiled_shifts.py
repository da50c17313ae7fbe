"""The compiled modules cannot hold mypyc's 32-bit shift trap (see :mod:`roppyakken.compiled`).

mypyc compiles a constant shifted left by an ``i64`` (``1 << card``) as a C shift of a 32-bit
``int``: wrong for a card above 31, silently.  Which operand is an ``i64`` depends on
inference the source does not show, so in the compiled group a constant is never shifted left
by anything but a constant; a one-card mask is written ``BIT50 >> (50 - card)``
(:data:`roppyakken.cards.BIT50`: a constant above 32 bits is a 64-bit C literal).
"""

from __future__ import annotations

import ast

from roppyakken.compiled import END_OF_COMPILED, GROUP, source_path


def _constant(node: ast.expr) -> bool:
    """A literal, a module constant (an upper-case name), or arithmetic of those."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper() or node.id.lstrip("_").isupper()
    if isinstance(node, ast.BinOp):
        return _constant(node.left) and _constant(node.right)
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    return False


def traps(source: str) -> list[str]:
    """The shifts of a constant by a variable in ``source``: ``line: expression``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.LShift)
            and _constant(node.left)
            and not _constant(node.right)
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_finds_the_trap() -> None:
    """(So that the next test can fail.)"""
    code = (
        "x = 1 << card\ny = 15 << 4 * m\nz = FOUR << (c & ~3)\nok = 1 << 50 | 1 << NUM_CARDS | card << 48\n"
    )
    assert traps(code) == ["1: 1 << card", "2: 15 << 4 * m", "3: FOUR << (c & ~3)"]
    assert traps("w = BIT50 >> (50 - card)\nv = 1 << (NUM_CARDS - 1)\n") == []


def test_no_compiled_module_shifts_a_constant_by_a_variable() -> None:
    found = []
    for name in GROUP:
        source = source_path(name).read_text(encoding="utf-8").split(END_OF_COMPILED)[0]
        found += [f"{name}:{trap}" for trap in traps(source)]
    assert found == []
