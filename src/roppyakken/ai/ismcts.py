"""Information-set tree search for the master (level options ``search=tree`` and ``search=ismcts``).

The flat master (:mod:`roppyakken.ai.master`) plays each candidate move in sampled
worlds and then lets the expert play every later decision, its own included: more
rollouts sharpen the estimate of "this move, then the expert", never the play after it.
Here the seat's own later decisions are searched too, by single-observer
information-set Monte-Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse
2012): each iteration samples one world (determinization) consistent with the seat's
view, descends a tree of the seat's own decisions with UCB, expands one node and plays
the rest of the round out as the flat master's rollouts do.

* The tree holds only the seat's own decisions, keyed by the move ``(card, target)``
  (open loop: the opponents' plays and the turned-up cards are played in each world,
  not branched on; a move that a world does not allow is simply not available there,
  and UCB counts availability, as ISMCTS does).  The opponents play as the expert from
  their own knowledge in that world, as in the flat master's rollouts — nobody peeks.
* At each node only the expert's ``width`` best moves in that world are candidates;
  untried candidates are tried first, in the expert's order, so that a node visited
  once plays the expert's choice.
* ``search=tree`` keeps the flat master's root: every candidate is played in the same
  worlds (paired), pruned and gated as there, and only the play after it is searched
  by the tree (one tree per candidate).  ``search=ismcts`` is plain SO-ISMCTS: the
  root's candidates are chosen by UCB too, one per world, and the most visited is
  played unless the expert's choice is not clearly worse (``confidence`` standard
  errors of the unpaired difference).

The exploration constant is the ``uct`` option (0.25; values are chances of winning
the game, 0 to 1).  Measured against the flat master in ``bench/RESULTS-bots.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from roppyakken.ai.expert import Weights, best_move, move_values
from roppyakken.ai.playout import ENDED, Playout, greedy_index
from roppyakken.ai.position import Position
from roppyakken.scoring import RoundScore

Move = tuple[int, int]
"""A card-play decision: ``(card, target)``."""


class Node:
    """A node of the seat's own decisions: the statistics of the move that led here."""

    __slots__ = ("avail", "children", "n", "w", "w2")

    def __init__(self) -> None:
        self.children: dict[Move, Node] = {}
        self.n = 0
        self.w = 0.0
        self.w2 = 0.0
        self.avail = 0

    def mean(self) -> float:
        """The mean value of the iterations through this node (0 if none)."""
        return self.w / self.n if self.n else 0.0

    def add(self, value: float) -> None:
        """Count one iteration through this node that ended with ``value``."""
        self.n += 1
        self.w += value
        self.w2 += value * value


def select(node: Node, candidates: Sequence[Move], c: float) -> Move:
    """The move to follow from ``node``: the first untried of ``candidates`` (given in the
    expert's order), else the best by UCB over availability.  Counts availability."""
    chosen: Move | None = None
    for m in candidates:
        child = node.children.get(m)
        if child is None:
            if chosen is not None:
                continue
            child = Node()
            node.children[m] = child
            chosen = m
        child.avail += 1
    if chosen is not None:
        return chosen
    best = candidates[0]
    best_score = -math.inf
    for m in candidates:
        child = node.children[m]
        score = child.mean() + c * math.sqrt(math.log(child.avail) / child.n)
        if score > best_score:
            best, best_score = m, score
    return best


def descend(
    p: Playout,
    node: Node,
    seat: int,
    totals: Sequence[int],
    weights: Weights,
    index: list[list[tuple[int, int]]],
    depth: int,
    width: int,
    c: float,
    path: list[Node],
    finish: Callable[[Playout, int], None],
) -> None:
    """Play ``p`` to the end of its round: the seat's own decisions by the tree under
    ``node`` until one node is added, the others' as the rollout policy (the expert for
    the first ``depth`` decisions, then points now); ``finish(p, depth)`` plays the rest
    once the tree is left.  The nodes followed are appended to ``path``."""
    while p.phase != ENDED:
        moves = p.moves()
        if len(moves) == 1:
            p.step(*moves[0])
            continue
        if p.to_act == seat:
            pos = Position.of_playout(p, seat, totals)
            values = move_values(pos, moves, p.phase == "play", weights)
            order = sorted(range(len(moves)), key=lambda i: -values[i])[:width]
            move = select(node, [moves[i] for i in order], c)
            node = node.children[move]
            path.append(node)
            p.step(*move)
            if node.n == 0:
                finish(p, depth)
                return
            continue
        if depth > 0:
            depth -= 1
            pos = Position.of_playout(p, p.to_act, totals)
            i = best_move(pos, moves, p.phase == "play", weights)
        else:
            i = greedy_index(p, moves, index)
        p.step(*moves[i])


def back_up(p: Playout, path: Sequence[Node], leaf: Callable[[RoundScore], float]) -> float:
    """The value of ``p``'s ended round (``leaf`` of its score), counted in every node of
    ``path``, the nodes the iteration followed; returned."""
    score = p.score
    assert score is not None
    value = leaf(score)
    for node in path:
        node.add(value)
    return value


def unpaired(a: Node, b: Node) -> tuple[float, float]:
    """Mean difference of two nodes' values and its standard error (independent samples)."""
    if a.n < 2 or b.n < 2:
        return a.mean() - b.mean(), math.inf
    va = max(0.0, a.w2 / a.n - a.mean() ** 2) * a.n / (a.n - 1)
    vb = max(0.0, b.w2 / b.n - b.mean() ** 2) * b.n / (b.n - 1)
    return a.mean() - b.mean(), math.sqrt(va / a.n + vb / b.n)


__all__ = ["Move", "Node", "back_up", "descend", "select", "unpaired"]
