"""Vector card art for the 48 hanafuda cards of Roppyakken (RULES R-1), in two decks.

Every card face is generated as a small standalone SVG document from data: one
plant drawing per month (pine, plum, cherry, ...), one subject drawing per
special card (crane, curtain, moon, ...) and shared helpers for ribbons,
blossoms, leaves and the corner badges.

Two decks share the drawings. ``hanafuda`` is the Japanese print. ``hwatu`` is
the Korean one as Korean players know it: a red plastic edge and a red grained
back, the vivid four-colour print (deep black stems, the black-and-red April of
흑싸리, light blue where Japan has purple), 光 in a red disk on the five
brights, 홍단 and 청단 written on the red poem and blue ribbons (the plain 초단
ones bare), and the Korean month figures (오동 11, 비 12). The few characters
are drawn as strokes, so no CJK font is needed.

Each face is readable without colour: the top-left corner shows the month
number and, below it, a kind badge whose shape is the kind (a star for a
bright, a circle for an animal, a rectangle for a ribbon, a diamond for chaff);
the page writes the kind's mark on it in its own language (B, 光, 광, L...),
so the files carry no letter. The top-right corner shows the card's point value
(R-1.2). Ribbons differ by pattern as well as colour: poem ribbons carry glyph
marks, blue ribbons a pair of light stripes (hwatu: writing), plain red ribbons none.

The deck (slugs, months, kinds, points) comes from :mod:`roppyakken.cards`.
This is a maintainer's tool, run when the art changes, not part of the server:
``python -m roppyakken.devtools.cardart --all src/roppyakken/server/static``
(re)writes the files the server serves (``cards/`` and ``cards-hwatu/``).
"""

from __future__ import annotations

import argparse
import html
import math
import pathlib
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, cast

from roppyakken.cards import KIND, MONTH, MONTH_NAMES, NUM_CARDS, POINTS, SLUGS

__all__ = [
    "CARD_SLUGS",
    "DECKS",
    "DECK_DIRS",
    "KIND_MARK_CENTRE",
    "back_svg",
    "card_svg",
    "display_month",
    "main",
    "write_all",
]

Kind = Literal["bright", "animal", "ribbon", "chaff"]
Deck = Literal["hanafuda", "hwatu"]
DECKS: tuple[Deck, ...] = ("hanafuda", "hwatu")
"""The card styles: Japanese hanafuda and Korean hwatu."""
Mode = Literal["full", "accent", "none"]
Attr = str | float | None

WIDTH = 200
HEIGHT = 300

# --------------------------------------------------------------------------
# Deck data (RULES ), from roppyakken.cards
# --------------------------------------------------------------------------

_POEM_MONTHS = frozenset({1, 2, 3})
_BLUE_MONTHS = frozenset({6, 9, 10})


@dataclass(frozen=True)
class _Card:
    slug: str
    month: int
    month_name: str
    part: str
    kind: Kind
    points: int

    @property
    def ribbon_style(self) -> str:
        if self.kind != "ribbon":
            return ""
        if self.month in _POEM_MONTHS:
            return "poem"
        return "blue" if self.month in _BLUE_MONTHS else "red"


def _build_cards() -> tuple[_Card, ...]:
    """The deck of :mod:`roppyakken.cards` (R-1.1, R-1.2) with what the drawings need."""
    out: list[_Card] = []
    for card in range(NUM_CARDS):
        slug, month = SLUGS[card], MONTH[card]
        prefix = SLUGS[(month - 1) * 4].split("-")[0]
        kind = cast(Kind, KIND[card])
        out.append(_Card(slug, month, MONTH_NAMES[month - 1], slug[len(prefix) + 1 :], kind, POINTS[card]))
    return tuple(out)


_CARDS = _build_cards()
_BY_SLUG = {card.slug: card for card in _CARDS}

CARD_SLUGS: tuple[str, ...] = tuple(card.slug for card in _CARDS)
"""The 48 card slugs in canonical id order: ``id = (month - 1) * 4 + position``."""

# --------------------------------------------------------------------------
# Tiny SVG writer
# --------------------------------------------------------------------------

INK = "#1b1b1b"
PAPER = "#f6eedb"
BADGE = "#fffdf6"


def _n(value: float) -> str:
    """Format a number compactly (at most one decimal)."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attrs(attrs: Mapping[str, Attr]) -> str:
    parts: list[str] = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = _n(value) if isinstance(value, (int, float)) else html.escape(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


def _el(tag: str, body: str | None = None, /, **attrs: Attr) -> str:
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def _g(body: str | Iterable[str], **attrs: Attr) -> str:
    return _el("g", body if isinstance(body, str) else "".join(body), **attrs)


def _place(x: float, y: float, scale: float = 1.0, rot: float = 0.0) -> str:
    text = f"translate({_n(x)} {_n(y)})"
    if rot:
        text += f" rotate({_n(rot)})"
    if scale != 1.0:
        text += f" scale({_n(scale)})"
    return text


def _poly(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _star_points(
    cx: float, cy: float, n: int, r_out: float, r_in: float, start: float = -90.0
) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(start + i * 180.0 / n)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _ring(n: int, dist: float, start: float = -90.0) -> list[tuple[float, float, float]]:
    """``n`` positions (x, y, angle in degrees) evenly spaced on a circle."""
    out: list[tuple[float, float, float]] = []
    for i in range(n):
        a = start + i * 360.0 / n
        r = math.radians(a)
        out.append((dist * math.cos(r), dist * math.sin(r), a))
    return out


def _bezier(
    p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float], t: float
) -> tuple[float, float]:
    u = 1 - t
    return (
        u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
        u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1],
    )


def _cubic(pts: tuple[tuple[float, float], ...], t: float) -> tuple[float, float]:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    u = 1 - t
    a, b, c, d = u**3, 3 * u * u * t, 3 * u * t * t, t**3
    return (a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)


@dataclass
class _Scene:
    """The pieces of one card face being drawn."""

    card: _Card
    defs: dict[str, str] = field(default_factory=dict)
    layers: list[str] = field(default_factory=list)

    def uid(self, name: str) -> str:
        return f"{self.card.slug}-{name}"

    def define(self, name: str, body: str) -> None:
        if name not in self.defs:
            self.defs[name] = _g(body, id=self.uid(name))

    def use(
        self,
        name: str,
        x: float,
        y: float,
        scale: float = 1.0,
        rot: float = 0.0,
        **attrs: Attr,
    ) -> str:
        return _el("use", href=f"#{self.uid(name)}", transform=_place(x, y, scale, rot), **attrs)

    def add(self, *parts: str) -> None:
        self.layers.extend(parts)


def _stroke(d: str, colour: str, width: float, **attrs: Attr) -> str:
    return _el(
        "path",
        d=d,
        fill="none",
        stroke=colour,
        stroke_width=width,
        stroke_linecap="round",
        stroke_linejoin="round",
        **attrs,
    )


def _shape(
    d: str,
    fill: str,
    stroke: str | None = None,
    width: float | None = None,
    **attrs: Attr,
) -> str:
    return _el("path", d=d, fill=fill, stroke=stroke, stroke_width=width, **attrs)


# --------------------------------------------------------------------------
# Shared motifs (defined once per card in <defs>, placed with <use>)
# --------------------------------------------------------------------------


def _def_round_blossom(sc: _Scene, name: str, petal: str, edge: str, heart: str) -> None:
    """Five round petals: plum blossom."""
    petals = "".join(_el("circle", cx=x, cy=y, r=5.6) for x, y, _ in _ring(5, 5.6))
    heart_dot = _el("circle", r=2.6, fill=heart)
    sc.define(name, _g(petals, fill=petal, stroke=edge, stroke_width=0.8) + heart_dot)


def _def_cherry_blossom(sc: _Scene) -> None:
    """Five notched petals: cherry blossom."""
    petal = "M0,0C-6,-3-8,-10-4,-14L0,-11.5L4,-14C8,-10 6,-3 0,0Z"
    petals = "".join(_el("path", d=petal, transform=f"rotate({a})") for a in range(0, 360, 72))
    heart = _el("circle", r=2.4, fill="#c2185b")
    sc.define("cb", _g(petals, fill="#fbd3df", stroke="#c95b7f", stroke_width=0.8) + heart)


def _def_leaf(
    sc: _Scene,
    name: str,
    fill: str,
    vein: str,
    length: float = 18,
    width: float = 7,
) -> None:
    """A simple pointed leaf along +x from the origin, with a midrib."""
    d = f"M0,0Q{_n(length * 0.45)},{_n(-width)} {_n(length)},0Q{_n(length * 0.45)},{_n(width)} 0,0Z"
    sc.define(name, _shape(d, fill) + _stroke(f"M1,0H{_n(length * 0.85)}", vein, 0.8))


def _def_maple_leaf(sc: _Scene, name: str, fill: str) -> None:
    tips = ((-90, 1.0), (-40, 0.9), (-140, 0.9), (5, 0.72), (175, 0.72), (45, 0.42), (135, 0.42))
    ordered = sorted(tips, key=lambda t: t[0] % 360)
    pts: list[tuple[float, float]] = []
    for i, (angle, reach) in enumerate(ordered):
        a = math.radians(angle)
        pts.append((20 * reach * math.cos(a), 20 * reach * math.sin(a)))
        nxt = ordered[(i + 1) % len(ordered)][0] % 360
        cur = angle % 360
        gap = (nxt - cur) % 360
        mid = math.radians(cur + gap / 2)
        inner = 2.5 if 80 < (cur + gap / 2) % 360 < 100 else 7.0
        pts.append((inner * math.cos(mid), inner * math.sin(mid)))
    veins = "".join(f"M0,0L{_n(x * 0.8)},{_n(y * 0.8)}" for x, y in pts[::2])
    sc.define(
        name,
        _el(
            "polygon",
            points=_poly(pts),
            fill=fill,
            stroke="#7a1a10",
            stroke_width=0.8,
            stroke_linejoin="round",
        )
        + _stroke(veins + "M0,0L0,12", "#7a1a10", 0.7),
    )


def _bird(
    x: float,
    y: float,
    scale: float,
    body: str,
    wing: str,
    belly: str,
    tail: Literal["fork", "fan"],
    rot: float = 0.0,
    flip: bool = False,
) -> str:
    """A flying bird facing right (or left when ``flip``), used for several cards."""
    tail_d = "M-22,1L-46,-8L-34,3L-46,14Z" if tail == "fork" else "M-22,-1L-40,-8L-42,8L-22,5Z"
    parts = [
        _shape("M-4,-3C-10,-24 6,-36 24,-42C16,-28 12,-16 8,-3Z", wing, INK, 0.8),
        _shape(tail_d, body, INK, 0.8),
        _shape("M-26,2C-14,-8 10,-10 22,-5C29,-2 29,3 24,5C12,10-8,10-26,2Z", body, INK, 0.8),
        _shape("M-14,5C-2,9 12,8 22,4", belly, None, None),
        _el("circle", cx=24, cy=-2, r=6.5, fill=body, stroke=INK, stroke_width=0.8),
        _el("polygon", points="29.5,-4 38,-0.5 29.5,1", fill="#e0a530", stroke=INK),
        _el("circle", cx=26, cy=-3.5, r=1.6, fill="#ffffff"),
        _el("circle", cx=26.4, cy=-3.5, r=0.8, fill=INK),
        _shape("M2,0C-4,18 10,30 30,34C20,20 16,10 12,2Z", wing, INK, 0.8),
    ]
    transform = _place(x, y, scale, rot) + (" scale(-1 1)" if flip else "")
    return _g(parts, transform=transform)


# --------------------------------------------------------------------------
# Month plants
# --------------------------------------------------------------------------

Placements = tuple[tuple[float, float, float], ...]


def _uses(sc: _Scene, name: str, spots: Placements, rot_step: float = 0.0) -> str:
    return "".join(sc.use(name, x, y, s, (i * rot_step) % 360) for i, (x, y, s) in enumerate(spots))


def _pine(sc: _Scene, mode: Mode) -> None:
    needles = "".join(
        f"M0,7L{_n(27 * math.sin(math.radians(a)))},{_n(6 - 19 * math.cos(math.radians(a)))}"
        for a in range(-75, 76, 15)
    )
    sc.define(
        "pn",
        _shape("M-31,7C-31,-10-15,-17 0,-17C15,-17 31,-10 31,7Q0,12-31,7Z", "#2d6a35", "#173d1e")
        + _stroke(needles, "#86c46a", 1.1),
    )
    bark = "#5b3a24"
    if mode == "full":
        sc.add(
            _shape("M5,246C60,228 112,262 195,236V295H5Z", "#c0392b"),
            _shape("M5,262C70,250 120,276 195,258V295H5Z", "#9c2a20"),
            _stroke("M128,296C116,250 138,210 112,165C96,135 106,98 98,56", bark, 11),
            _stroke(
                "M110,160C86,150 66,140 50,118M102,104C124,94 146,88 162,74"
                "M122,216C142,206 160,200 174,186M106,132C92,132 80,144 70,160",
                bark,
                5,
            ),
            _uses(
                sc,
                "pn",
                (
                    (50, 114, 1.15),
                    (98, 52, 1.3),
                    (162, 70, 1.05),
                    (174, 182, 0.95),
                    (68, 158, 1.0),
                    (128, 122, 0.95),
                    (100, 86, 0.9),
                ),
            ),
        )
    else:
        sc.add(
            _shape("M5,268C60,256 112,280 195,262V295H5Z", "#c0392b"),
            _stroke("M18,296C26,262 22,240 46,214", bark, 9),
            _stroke("M30,252C48,248 58,244 70,236", bark, 4),
            _uses(sc, "pn", ((46, 210, 1.0), (72, 232, 0.8), (24, 254, 0.85))),
        )


def _plum(sc: _Scene, mode: Mode) -> None:
    _def_round_blossom(sc, "pb", "#d62c4c", "#7d0f27", "#f6d04d")
    bark = "#35221a"
    bud = _el("circle", r=3.4, fill="#a3182f", stroke="#5d0d1a", stroke_width=0.6)
    sc.define("bud", bud)
    sc.add(_shape("M5,270C70,250 120,282 195,262V295H5Z", "#e9b9b4"))
    if mode == "full":
        sc.add(
            _stroke("M5,252C50,232 72,200 92,170C112,140 152,130 190,92", bark, 9),
            _stroke(
                "M92,170C86,130 72,112 60,82M142,132C152,160 166,176 192,182"
                "M60,82L52,62M46,236C40,210 52,200 44,176",
                bark,
                4.5,
            ),
            _uses(
                sc,
                "pb",
                (
                    (60, 80, 1.1),
                    (44, 114, 0.95),
                    (96, 164, 1.2),
                    (126, 140, 1.0),
                    (162, 112, 1.1),
                    (184, 94, 0.85),
                    (164, 166, 0.95),
                    (30, 240, 1.0),
                    (74, 204, 0.95),
                    (46, 176, 0.9),
                    (186, 180, 0.8),
                    (120, 100, 0.8),
                ),
                23,
            ),
            _uses(
                sc,
                "bud",
                ((52, 62, 1), (76, 120, 1), (148, 124, 1), (192, 170, 1), (60, 226, 1)),
            ),
        )
    else:
        sc.add(
            _stroke("M5,236C50,218 78,192 100,168C122,144 160,132 195,114", bark, 9),
            _stroke("M100,168C94,132 80,112 66,88M40,222C36,196 48,186 42,162", bark, 4.5),
            _uses(
                sc,
                "pb",
                (
                    (66, 86, 1.1),
                    (52, 120, 0.95),
                    (28, 226, 1.0),
                    (166, 128, 1.0),
                    (188, 116, 0.85),
                    (84, 196, 0.95),
                    (42, 160, 0.9),
                    (100, 170, 1.0),
                ),
                23,
            ),
            _uses(sc, "bud", ((58, 70, 1), (80, 110, 1), (150, 130, 1), (58, 214, 1))),
        )


def _cherry(sc: _Scene, mode: Mode) -> None:
    _def_cherry_blossom(sc)
    bark = "#4a3020"
    sc.add(
        _shape(
            "M5,150C50,136 80,160 120,146C150,136 170,150 195,140V178C160,190 120,170"
            " 80,184C50,194 30,178 5,188Z",
            "#f3c6d3",
        )
    )
    spots: Placements = (
        (60, 40, 1.1),
        (86, 58, 1.2),
        (120, 46, 1.1),
        (146, 66, 1.2),
        (172, 50, 1.0),
        (40, 74, 1.0),
        (70, 92, 1.2),
        (104, 84, 1.1),
        (134, 100, 1.2),
        (166, 94, 1.1),
        (54, 124, 1.0),
        (90, 118, 1.1),
        (184, 124, 0.9),
        (120, 128, 1.0),
        (26, 104, 0.9),
    )
    sc.add(
        _stroke(
            "M195,34C160,50 130,44 98,62C70,78 44,74 5,96"
            "M128,46C140,70 150,84 170,96M80,70C84,92 80,106 92,120",
            bark,
            5,
        )
    )
    sc.add(_uses(sc, "cb", spots, 17))
    if mode == "full":
        sc.add(
            _stroke("M5,240C40,226 70,232 100,214M60,230C70,250 88,258 110,256", bark, 4),
            _uses(
                sc,
                "cb",
                (
                    (30, 226, 1.1),
                    (62, 214, 1.0),
                    (96, 210, 1.2),
                    (84, 246, 1.0),
                    (116, 250, 1.1),
                    (50, 252, 0.9),
                    (140, 226, 1.0),
                    (170, 240, 1.1),
                    (160, 270, 0.9),
                ),
                29,
            ),
        )


def _wisteria(sc: _Scene, mode: Mode) -> None:
    flowers: list[str] = []
    for row in range(9):
        count = 3 if row % 2 == 0 else 2
        r = 5.4 - row * 0.4
        span = (count - 1) * r * 1.3
        for k in range(count):
            x = -span / 2 + k * (span / (count - 1) if count > 1 else 0)
            colour = "#6f4aa3" if (row + k) % 2 == 0 else "#a486d4"
            flowers.append(_el("circle", cx=x, cy=row * 9.5, r=r, fill=colour))
    stalk = _stroke("M0,-4V78", "#3d6b2c", 1.2)
    sc.define("wc", stalk + _g(flowers, stroke="#3e2566", stroke_width=0.6))
    _def_leaf(sc, "wl", "#4e8a3a", "#2d5a1f", 16, 5)
    vine = "M5,28C50,46 100,16 150,34C170,41 184,38 195,30"
    sc.add(_stroke(vine, "#5b3a24", 6))
    sc.add(
        _uses(
            sc,
            "wl",
            ((30, 36, 1), (70, 38, 1), (118, 26, 1), (160, 37, 1), (48, 38, 0.9), (138, 30, 0.9)),
            130,
        )
    )
    if mode == "full":
        sc.add(
            _uses(
                sc,
                "wc",
                (
                    (36, 42, 1.15),
                    (78, 36, 1.45),
                    (122, 30, 1.25),
                    (164, 40, 1.5),
                    (56, 40, 0.9),
                    (144, 34, 0.95),
                ),
            )
        )
        sc.add(_shape("M5,262C60,246 130,270 195,250V295H5Z", "#7a4a8c"))
    else:
        sc.add(_uses(sc, "wc", ((60, 40, 1.1), (100, 28, 1.3), (142, 34, 1.1), (178, 38, 0.9))))


def _iris(sc: _Scene, mode: Mode) -> None:
    fall = "M0,0C-8,-2-22,2-20,14C-14,16-6,9 0,3Z"
    sc.define(
        "if",
        _stroke("M0,4V60", "#3f7d3a", 2.2)
        + _shape(fall, "#46308f", "#22154f", 0.8)
        + _shape(fall, "#46308f", "#22154f", 0.8, transform="scale(-1 1)")
        + _el("ellipse", cx=0, cy=-11, rx=5, ry=12, fill="#7a5cc8", stroke="#22154f")
        + _stroke("M-4,3L-12,8M4,3L12,8", "#f2c53d", 2),
    )
    blades = "".join(
        _shape(
            f"M{_n(x - 4)},296Q{_n(x + lean / 2 - 3)},{_n(tip + 60)} {_n(x + lean)},{_n(tip)}"
            f"Q{_n(x + lean / 2 + 3)},{_n(tip + 60)} {_n(x + 4)},296Z",
            "#3c8a3f",
            "#1e5020",
            0.8,
        )
        for x, lean, tip in (
            (28, -10, 150),
            (44, 14, 120),
            (66, -6, 170),
            (92, 10, 140),
            (118, -12, 156),
            (140, 8, 116),
            (160, -4, 168),
            (182, 6, 136),
        )
    )
    if mode == "full":
        sc.add(
            _shape("M5,250C60,240 130,262 195,246V295H5Z", "#b9d6e6"),
            blades,
            _uses(
                sc,
                "if",
                (
                    (44, 96, 1.2),
                    (92, 78, 1.25),
                    (140, 100, 1.2),
                    (70, 150, 1.0),
                    (122, 160, 1.0),
                    (170, 150, 0.9),
                ),
            ),
        )
    else:
        sc.add(blades, _uses(sc, "if", ((52, 92, 1.1), (104, 72, 1.2), (154, 98, 1.1))))


def _peony(sc: _Scene, mode: Mode) -> None:
    outer = "".join(_el("circle", cx=x, cy=y, r=14) for x, y, _ in _ring(10, 20))
    middle = "".join(_el("circle", cx=x, cy=y, r=11) for x, y, _ in _ring(8, 11, -70))
    sc.define(
        "pf",
        _g(outer, fill="#c81f3d", stroke="#7a0d22", stroke_width=1)
        + _g(middle, fill="#e4526c", stroke="#9a1830", stroke_width=0.8)
        + _el("circle", r=9, fill="#f28aa0", stroke="#9a1830", stroke_width=0.8)
        + _g("".join(_el("circle", cx=x, cy=y, r=1.5) for x, y, _ in _ring(6, 4)), fill="#f6d04d"),
    )
    _def_leaf(sc, "pl", "#3f7f3a", "#214a1d", 52, 13)
    flowers: Placements
    if mode == "full":
        flowers = ((100, 124, 1.45), (58, 222, 1.05), (150, 238, 0.95))
    else:
        flowers = ((100, 216, 1.35), (38, 264, 0.8), (166, 266, 0.8))
    for i, (x, y, scale) in enumerate(flowers):
        angles = (25, 105, 160, 230, 320)
        sc.add("".join(sc.use("pl", x, y, scale, angle + i * 25) for angle in angles))
    sc.add(_uses(sc, "pf", flowers))


def _clover(sc: _Scene, mode: Mode) -> None:
    _def_leaf(sc, "cl", "#b3253c", "#5e0d1c", 13, 5.5)
    stems: list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]
    if mode == "full":
        stems = [
            ((30, 296), (40, 60), (150, 80)),
            ((90, 296), (110, 110), (190, 150)),
            ((150, 296), (130, 140), (40, 170)),
            ((60, 296), (50, 200), (130, 210)),
        ]
    else:
        stems = [
            ((5, 40), (100, 20), (170, 150)),
            ((195, 30), (80, 40), (40, 140)),
            ((60, 6), (150, 50), (120, 170)),
        ]
    parts: list[str] = []
    blooms: list[str] = []
    for si, (p0, p1, p2) in enumerate(stems):
        parts.append(
            _stroke(
                f"M{_n(p0[0])},{_n(p0[1])}Q{_n(p1[0])},{_n(p1[1])} {_n(p2[0])},{_n(p2[1])}",
                "#4a2a1a",
                2.4,
            )
        )
        steps = 18
        for i in range(2, steps + 1):
            t = i / steps
            x, y = _bezier(p0, p1, p2, t)
            dx, dy = _bezier(p0, p1, p2, min(1.0, t + 0.02))
            ang = math.degrees(math.atan2(dy - y, dx - x))
            side = 60 if (i + si) % 2 else -60
            parts.append(sc.use("cl", x, y, 0.8 + 0.4 * t, ang + side))
            if i % 2 == 0:
                blooms.append(_el("circle", cx=x + 3, cy=y - 3, r=2.8))
                blooms.append(_el("circle", cx=x - 2, cy=y + 2, r=2.2))
    sc.add("".join(parts), _g(blooms, fill="#e0569a", stroke="#6d1240", stroke_width=0.6))


def _pampas(sc: _Scene, mode: Mode) -> None:
    edge = ((5.0, 190.0), (50.0, 142.0), (150.0, 150.0), (195.0, 200.0))
    hill = "M5,295V190C50,142 150,150 195,200V295Z"
    grass: list[str] = []
    plumes: list[str] = []
    for i in range(21):
        x, y = _cubic(edge, (i + 0.5) / 21)
        lean = (1 if i % 2 else -1) * (8 + (i * 7) % 12)
        top = y - 6 + (i * 11) % 18
        grass.append(
            f"M{_n(x - lean * 0.3)},296C{_n(x - lean * 0.2)},{_n(top + 70)} "
            f"{_n(x + lean * 0.2)},{_n(top + 20)} {_n(x + lean)},{_n(top)}"
        )
        if i % 3 == 1:
            tip_x, tip_y = x + lean * 0.6, y - 26
            plumes.append(
                _stroke(
                    f"M{_n(x)},{_n(y + 4)}Q{_n(x)},{_n(y - 14)} {_n(tip_x)},{_n(tip_y)}",
                    "#8a7a5a",
                    1.2,
                )
            )
            plumes.append(
                _el(
                    "ellipse",
                    cx=tip_x,
                    cy=tip_y,
                    rx=3.2,
                    ry=9,
                    transform=f"rotate({_n(lean * 1.5)} {_n(tip_x)} {_n(tip_y)})",
                )
            )
    sc.add(
        _g(plumes[0::2]),
        _g(plumes[1::2], fill="#e9dcbc", stroke="#7a6a4a", stroke_width=0.8),
        _shape(hill, "#1d1b1a"),
        _stroke("".join(grass), "#efe6d0", 1.3),
    )


_MIST = "M5,70C50,56 90,80 140,64C170,56 184,62 195,58V86C160,96 120,84 80,98C50,106 30,94 5,100Z"


def _chrysanthemum(sc: _Scene, mode: Mode) -> None:
    outer = "".join(
        _el("ellipse", cx=x, cy=y, rx=3.6, ry=8, transform=f"rotate({_n(a + 90)} {_n(x)} {_n(y)})")
        for x, y, a in _ring(16, 13)
    )
    inner = "".join(_el("circle", cx=x, cy=y, r=3.4) for x, y, _ in _ring(10, 7))
    sc.define(
        "cf",
        _g(outer, fill="#f4c430", stroke="#9a6a0b", stroke_width=0.7)
        + _g(inner, fill="#f9d95a", stroke="#9a6a0b", stroke_width=0.6)
        + _el("circle", r=4.5, fill="#d9930b", stroke="#9a6a0b", stroke_width=0.6),
    )
    _def_leaf(sc, "kl", "#3d7a34", "#1f4a1a", 22, 9)
    sc.add(
        _shape(
            _MIST,
            "#c9dcf0",
        )
    )
    if mode == "full":
        sc.add(
            _stroke(
                "M100,296C98,240 104,190 100,122M100,240C80,226 64,214 58,196"
                "M102,220C120,214 136,214 146,206",
                "#3d6b2c",
                3,
            ),
            _uses(
                sc,
                "kl",
                (
                    (100, 250, 1),
                    (100, 200, 1.1),
                    (100, 270, 1.0),
                    (60, 200, 0.9),
                    (146, 210, 0.9),
                    (100, 160, 1),
                ),
                150,
            ),
            _uses(
                sc,
                "cf",
                ((100, 118, 1.6), (56, 192, 1.2), (148, 204, 1.25), (48, 270, 0.9), (156, 274, 1)),
            ),
        )
    else:
        sc.add(
            _stroke("M60,190C62,150 70,120 72,110M140,190C138,160 130,130 132,112", "#3d6b2c", 3),
            _uses(sc, "kl", ((62, 160, 1), (140, 158, 1.0), (70, 130, 0.9)), 170),
            _uses(sc, "cf", ((72, 108, 1.3), (132, 110, 1.2), (100, 60, 0.8))),
        )


def _maple(sc: _Scene, mode: Mode) -> None:
    _def_maple_leaf(sc, "ml", "#c62828")
    _def_maple_leaf(sc, "mo", "#e07b24")
    bark = "#3e2a1e"
    if mode == "full":
        sc.add(
            _stroke(
                "M195,30C150,50 110,60 70,110C50,134 40,160 30,200"
                "M110,62C120,90 130,110 160,130M70,110C96,120 110,140 116,176",
                bark,
                4.5,
            ),
            _uses(
                sc,
                "ml",
                (
                    (150, 50, 1.2),
                    (110, 70, 1.1),
                    (80, 104, 1.2),
                    (50, 150, 1.1),
                    (34, 200, 1.0),
                    (130, 108, 1.1),
                    (162, 132, 1.2),
                    (116, 180, 1.2),
                    (94, 134, 1.0),
                    (186, 46, 1.0),
                ),
                31,
            ),
            _uses(
                sc,
                "mo",
                (
                    (60, 124, 0.9),
                    (140, 80, 0.9),
                    (100, 210, 1.0),
                    (150, 170, 0.9),
                    (70, 250, 1.0),
                    (150, 250, 1.1),
                ),
                47,
            ),
        )
    else:
        sc.add(
            _stroke("M195,30C150,50 110,60 70,110M110,62C120,90 130,110 160,130", bark, 4.5),
            _uses(
                sc,
                "ml",
                (
                    (150, 50, 1.2),
                    (110, 70, 1.1),
                    (80, 104, 1.2),
                    (130, 108, 1.1),
                    (162, 132, 1.1),
                    (186, 46, 1.0),
                ),
                31,
            ),
            _uses(sc, "mo", ((60, 124, 0.9), (140, 80, 0.9), (100, 100, 0.9)), 47),
        )


def _rain(sc: _Scene, colour: str) -> None:
    lines = "".join(
        f"M{_n(16 + col * 34 + (row * 17) % 34)},{_n(18 + row * 30)}l-5,13"
        for row in range(9)
        for col in range(5)
    )
    sc.add(_stroke(lines, colour, 1.2))


def _willow(sc: _Scene, mode: Mode) -> None:
    strands = [(120 + i * 11, 6, -10 + i * 4, 110 + (i * 37) % 90) for i in range(7)]
    if mode == "full":
        strands += [(30 + i * 14, 6, 8 - i * 3, 150 + (i * 29) % 100) for i in range(6)]
    twigs = "".join(
        f"M{_n(x)},{_n(y)}C{_n(x + bend)},{_n(y + length * 0.4)} "
        f"{_n(x + bend)},{_n(y + length * 0.7)} {_n(x + bend * 0.6)},"
        f"{_n(y + length)}"
        for x, y, bend, length in strands
    )
    sc.add(
        _stroke("M195,10C170,20 140,14 110,8", "#4a3020", 5),
        _stroke(twigs, "#2f5f22", 1.4),
        _stroke(twigs, "#5aa23e", 4.5, stroke_dasharray="5 4"),
    )


def _paulownia(sc: _Scene, mode: Mode) -> None:
    leaf = "M0,24C-34,12-38,-20-14,-28C-6,-30 0,-26 0,-20C0,-26 6,-30 14,-28C38,-20 34,12 0,24Z"
    veins = "M0,22V-20M0,4L-18,-12M0,4L18,-12M0,14L-22,4M0,14L22,4"
    sc.define("pw", _shape(leaf, "#3f7d36", "#1e4a1a", 1.2) + _stroke(veins, "#9bcf7e", 1))
    rows = (
        (0, 3, 8),
        (-7, 3, 7),
        (-14, 2, 6),
        (-21, 3, 6),
        (-28, 2, 5),
        (-35, 2, 4),
        (-42, 1, 0),
        (-48, 1, 0),
    )
    bells = "".join(
        _el("ellipse", cx=-spread + k * (2 * spread / max(1, count - 1)), cy=y, rx=3.8, ry=3.2)
        for y, count, spread in rows
        for k in range(count)
    )
    sc.define(
        "pk",
        _stroke("M0,6V-52", "#3e5f2a", 1.6)
        + _g(bells, fill="#8a5cc2", stroke="#3c2164", stroke_width=0.7)
        + _el("circle", cx=0, cy=-56, r=2.8, fill="#b596e0", stroke="#3c2164", stroke_width=0.7),
    )
    if mode == "full":
        sc.add(
            _stroke(
                "M100,214C98,190 100,170 100,136M100,190C86,180 76,170 72,152"
                "M100,184C114,176 124,166 128,152",
                "#5b4a2a",
                2.4,
            ),
            _uses(sc, "pk", ((72, 152, 1.35), (100, 134, 1.7), (128, 152, 1.35))),
            sc.use("pw", 162, 274, 0.95, 40),
            _uses(sc, "pw", ((50, 226, 1.25), (146, 222, 1.35), (94, 256, 1.45))),
        )
    else:
        sc.add(
            _uses(sc, "pw", ((40, 262, 1.1), (160, 262, 1.1), (100, 276, 1.2))),
            _uses(sc, "pk", ((24, 226, 0.9), (176, 226, 0.9))),
        )


_PLANTS: dict[int, Callable[[_Scene, Mode], None]] = {
    1: _pine,
    2: _plum,
    3: _cherry,
    4: _wisteria,
    5: _iris,
    6: _peony,
    7: _clover,
    8: _pampas,
    9: _chrysanthemum,
    10: _maple,
    11: _willow,
    12: _paulownia,
}

# --------------------------------------------------------------------------
# Subjects of special cards
# --------------------------------------------------------------------------


def _sun(sc: _Scene) -> None:
    sc.add(_el("circle", cx=118, cy=112, r=58, fill="#d7342a", stroke="#8e1b14", stroke_width=1.5))


def _crane(sc: _Scene) -> None:
    sc.add(
        _stroke("M112,232L108,282M124,232L128,282M100,283H114M122,283H136", INK, 2.6),
        _shape("M74,220C66,230 64,244 70,254C80,244 88,236 96,230Z", INK),
        _el(
            "ellipse",
            cx=110,
            cy=220,
            rx=36,
            ry=19,
            transform="rotate(-14 110 220)",
            fill="#ffffff",
            stroke=INK,
            stroke_width=1.5,
        ),
        _stroke("M88,214C104,204 124,204 140,214", "#9a9a9a", 1.4),
        _stroke("M136,212C150,194 140,170 150,150", INK, 7),
        _el("circle", cx=152, cy=146, r=6.5, fill="#ffffff", stroke=INK, stroke_width=1.2),
        _el("circle", cx=151, cy=140.5, r=3.2, fill="#d62828"),
        _el("polygon", points="157.5,144 176,149 157.5,149.5", fill="#c9a25a", stroke=INK),
        _el("circle", cx=154, cy=145, r=1.2, fill=INK),
    )


def _warbler(sc: _Scene) -> None:
    body, belly = "#7f9a2e", "#d6dc8a"
    sc.add(
        _stroke("M122,146L118,156M132,146L130,156", "#5a4020", 2),
        _shape("M108,134L84,150L90,156L112,142Z", "#5f7522", INK, 0.8),
        _el(
            "ellipse",
            cx=124,
            cy=132,
            rx=20,
            ry=13,
            transform="rotate(-18 124 132)",
            fill=body,
            stroke=INK,
            stroke_width=1,
        ),
        _shape("M110,140C120,148 134,146 142,134", belly, None, None),
        _shape("M108,128C118,120 132,122 136,132C126,136 114,136 108,128Z", "#5f7522", INK, 0.8),
        _el("circle", cx=143, cy=118, r=9.5, fill=body, stroke=INK, stroke_width=1),
        _el("polygon", points="151,115 161,118 151,121", fill="#3a2a10"),
        _el("circle", cx=146, cy=116, r=2.6, fill="#ffffff"),
        _el("circle", cx=146.5, cy=116, r=1.3, fill=INK),
    )


PURPLE = "#6b3a8c"


def _curtain(sc: _Scene) -> None:
    top, bottom, left, right = 162, 268, 14, 186
    width = (right - left) / 6
    panels = "".join(
        _el(
            "rect",
            x=left + i * width,
            y=top,
            width=width,
            height=bottom - top,
            fill="#b8323c" if i % 2 == 0 else "#f7efe0",
        )
        for i in range(6)
    )
    scallop = "".join(f"q{_n(width / 4)},9 {_n(width / 2)},0" for _ in range(12))
    crest = _g(
        [
            _el("circle", cx=100, cy=214, r=26, fill="#f7efe0", stroke=INK, stroke_width=2),
            _el("circle", cx=100, cy=214, r=21, fill="none", stroke="#6b3a8c", stroke_width=2),
            _g([_el("ellipse", cx=100 + dx, cy=202, rx=4, ry=7) for dx in (-9, 0, 9)], fill=PURPLE),
            _shape("M84,224C90,210 110,210 116,224C108,220 92,220 84,224Z", "#6b3a8c"),
        ]
    )
    sc.add(
        _g(panels, stroke=INK, stroke_width=1),
        _shape(f"M{left},{bottom}{scallop}V{bottom + 12}H{left}Z", PAPER),
        _stroke(f"M{left},{bottom}{scallop}", INK, 1),
        _stroke(f"M8,{top - 2}H192", "#5b3a24", 5),
        _g(
            [_el("circle", cx=left + i * width, cy=top + 2, r=4) for i in range(7)],
            fill="#e1b13c",
            stroke=INK,
            stroke_width=1,
        ),
        crest,
    )


def _cuckoo(sc: _Scene) -> None:
    sc.add(
        _el("circle", cx=146, cy=196, r=26, fill="#f0b73c", stroke="#8a5a10", stroke_width=1.2),
        _el("circle", cx=158, cy=188, r=23, fill=PAPER),
        _bird(86, 210, 1.3, "#3b3f46", "#6a7180", "#d8d2c0", "fan", -22),
    )


def _water(sc: _Scene) -> None:
    sc.add(
        _shape("M5,196C60,182 130,212 195,192V295H5Z", "#8fbfdc"),
        _stroke("M20,270q15,-6 30,0t30,0M110,284q15,-6 30,0t30,0M120,214q15,-6 30,0", "#f4f8fb", 2),
    )


def _bridge(sc: _Scene) -> None:
    planks = ((4, 212, 112, 186), (92, 190, 196, 234))
    for x0, y0, x1, y1 in planks:
        dx, dy = x1 - x0, y1 - y0
        sc.add(
            _g(
                [
                    _el("rect", x=x, y=y, width=5, height=44, fill="#5a3416", stroke=INK)
                    for x, y in ((x0 + 12, y0 + 6), (x1 - 16, y1 + 2))
                ]
            )
        )
        sc.add(
            _el(
                "polygon",
                points=_poly(((x0, y0 + 10), (x1, y1 + 10), (x1, y1 + 17), (x0, y0 + 17))),
                fill="#6e4220",
                stroke=INK,
                stroke_width=1.2,
            )
        )
        sc.add(
            _el(
                "polygon",
                points=_poly(((x0, y0), (x1, y1), (x1, y1 + 10), (x0, y0 + 10))),
                fill="#b07a40",
                stroke=INK,
                stroke_width=1.2,
            )
        )
        sc.add(
            _stroke(
                "".join(f"M{_n(x0 + dx * t)},{_n(y0 + dy * t)}v10" for t in (0.3, 0.6)),
                "#6e4220",
                1,
            )
        )


def _butterfly(x: float, y: float, scale: float, rot: float) -> str:
    wing = "#3a6fc4"
    upper = "M0,0C-6,-20-26,-24-24,-8C-22,0-8,2 0,0Z"
    lower = "M0,0C-4,12-18,18-16,8C-14,2-6,0 0,0Z"
    parts = [
        _shape(upper, wing, INK, 1),
        _shape(upper, wing, INK, 1, transform="scale(-1 1)"),
        _shape(lower, "#f2c53d", INK, 1),
        _shape(lower, "#f2c53d", INK, 1, transform="scale(-1 1)"),
        _el("circle", cx=-14, cy=-10, r=3, fill="#ffffff"),
        _el("circle", cx=14, cy=-10, r=3, fill="#ffffff"),
        _el("ellipse", cx=0, cy=0, rx=2, ry=9, fill=INK),
        _stroke("M0,-8L-5,-17M0,-8L5,-17", INK, 0.9),
    ]
    return _g(parts, transform=_place(x, y, scale, rot))


def _butterflies(sc: _Scene) -> None:
    sc.add(_butterfly(74, 102, 1.4, -15), _butterfly(140, 136, 1.1, 20))


def _boar(sc: _Scene) -> None:
    fur, dark = "#6d4c2f", "#3d2a18"
    sc.add(
        _g(
            [
                _el("rect", x=x, y=242, width=9, height=h, rx=2)
                for x, h in ((62, 34), (80, 30), (130, 32), (146, 36))
            ],
            fill=dark,
        ),
        _stroke("M160,222c10,-4 12,6 6,8", dark, 2),
        _el("ellipse", cx=110, cy=226, rx=52, ry=28, fill=fur, stroke=INK, stroke_width=1.4),
        _shape("M64,206C50,208 34,220 26,236C32,244 50,246 66,244Z", fur, INK, 1.4),
        _el("ellipse", cx=26, cy=238, rx=4, ry=6, fill="#c98a7a", stroke=INK, stroke_width=1),
        _shape("M36,244C36,236 42,232 46,234", "#ffffff", INK, 1),
        _shape("M60,206L70,190L74,210Z", dark),
        _el("circle", cx=50, cy=222, r=2.2, fill=INK),
        _stroke("M66,204C90,194 130,194 158,208", dark, 4, stroke_dasharray="3 2"),
    )


def _moon(sc: _Scene) -> None:
    sc.add(_el("circle", cx=100, cy=112, r=60, fill="#fbf3dc", stroke="#e6c98a", stroke_width=3))


def _geese(sc: _Scene) -> None:
    goose = ("#2b2b2b", "#1a1a1a", "#6b6b6b")
    sc.add(
        _bird(74, 88, 0.75, *goose, "fan", 10, True),
        _bird(110, 112, 0.75, *goose, "fan", 10, True),
        _bird(146, 136, 0.75, *goose, "fan", 10, True),
    )


def _sake(sc: _Scene) -> None:
    sc.add(
        _el("polygon", points="78,244 122,244 130,264 70,264", fill="#7e141d", stroke=INK),
        _shape("M36,188Q100,200 164,188Q156,242 100,248Q44,242 36,188Z", "#b3202a", INK, 1.4),
        _el("ellipse", cx=100, cy=188, rx=64, ry=11, fill="#d63a3a", stroke=INK, stroke_width=1.4),
        _el("ellipse", cx=100, cy=189, rx=54, ry=7, fill="#8e1620"),
        _el("circle", cx=100, cy=222, r=13, fill="#e2b13c", stroke="#6b4a0b", stroke_width=1.2),
        _stroke("M93,215H107M100,211V233M94,222H106M95,229H105", "#6b4a0b", 1.8),
    )


def _deer(sc: _Scene) -> None:
    fur, dark = "#a8692e", "#5a3416"
    sc.add(
        _stroke("M80,236L74,282M92,240L94,282M132,236L128,282M144,232L150,280", dark, 4.5),
        _el("ellipse", cx=112, cy=222, rx=42, ry=20, fill=fur, stroke=INK, stroke_width=1.4),
        _g(
            [
                _el("circle", cx=x, cy=y, r=2.3)
                for x, y in ((96, 214), (110, 210), (124, 214), (104, 224), (118, 224), (132, 222))
            ],
            fill="#f6e7c8",
        ),
        _shape("M146,214C154,196 156,180 150,166L140,168C142,184 136,198 130,210Z", fur, INK, 1.2),
        _shape("M140,170C136,156 148,146 160,150C170,154 172,164 164,168Z", fur, INK, 1.2),
        _stroke(
            "M146,152C140,138 134,130 124,126M138,138L132,144M150,150C152,134 160,124 "
            "170,120M158,130L166,136",
            dark,
            2.4,
        ),
        _el("circle", cx=158, cy=158, r=1.8, fill=INK),
        _shape("M70,214C64,208 64,202 70,200", "none", INK, 1.2),
    )


def _rainman(sc: _Scene) -> None:
    sc.add(
        _shape("M5,258C50,246 120,270 195,252V295H5Z", "#2f5d8a"),
        _stroke("M18,272q14,-6 28,0t28,0M104,280q14,-6 28,0t28,0", "#a9cbe6", 1.6),
        _shape("M70,150L92,150L104,262L56,262Z", "#c0392b", INK, 1.2),
        _shape("M74,180L88,180L92,262L70,262Z", "#f2efe6", INK, 0.8),
        _el("circle", cx=82, cy=146, r=9, fill="#f1d2b0", stroke=INK, stroke_width=1),
        _stroke("M100,166L126,110", "#5b3a24", 2.4),
        _shape("M86,162C92,176 98,174 104,160L98,156C96,164 94,166 92,160Z", "#c0392b", INK, 1),
        _el("circle", cx=101, cy=160, r=3.2, fill="#f1d2b0", stroke=INK, stroke_width=0.8),
        _shape(
            "M70,118Q110,60 160,96Q150,100 140,104Q130,100 118,112Q104,108 94,118Q82,112 70,118Z",
            "#e8b530",
            INK,
            1.2,
        ),
        _stroke("M118,78L94,118M118,78L118,112M118,78L140,104", "#8a5d10", 1),
        _el("ellipse", cx=34, cy=246, rx=10, ry=7, fill="#5a9a3a", stroke=INK, stroke_width=1),
        _el("circle", cx=30, cy=240, r=2, fill="#ffffff"),
    )


def _swallow(sc: _Scene) -> None:
    sc.add(_bird(96, 196, 1.4, "#23304a", "#131a2a", "#f4f0e6", "fork", 28, True))


def _lightning(sc: _Scene) -> None:
    bands = "".join(_el("rect", x=5, y=y, width=190, height=14) for y in (52, 246))
    drum_tomoe = "M0,-4C8,-4 10,8 0,12C6,6 2,0 0,-4Z"
    tomoe = "".join(_el("path", d=drum_tomoe, transform=f"rotate({a})") for a in (0, 120, 240))
    drums = "".join(
        _g(
            [
                _el("circle", r=22, fill="#c0392b", stroke="#f4ecd8", stroke_width=2),
                _g([_el("circle", cx=x, cy=y, r=1.6) for x, y, _ in _ring(10, 18)], fill="#f4ecd8"),
                _g(tomoe, fill="#2a0d0d", transform="scale(1.4)"),
            ],
            transform=_place(x, y),
        )
        for x, y in ((52, 110), (148, 110), (100, 188))
    )
    bolt = "M118,64L92,128H110L80,196L128,120H110L134,64Z"
    sc.add(
        _g(bands, fill="#7a1f1f"),
        drums,
        _shape(bolt, "#e04a2f", "#f4ecd8", 2),
        _shape("M60,200L44,236H56L36,276L70,228H58L72,200Z", "#e04a2f", "#f4ecd8", 1.6),
        _shape("M150,210L136,244H148L132,280L164,236H152L164,210Z", "#e04a2f", "#f4ecd8", 1.6),
    )


def _phoenix(sc: _Scene) -> None:
    tail_colours = ("#2f8f4e", "#2b5fb0", "#d63a2a", "#f2c53d", "#2f8f4e")
    tails = "".join(
        _stroke(
            f"M112,150C{_n(140 + i * 6)},{_n(170 + i * 8)} {_n(150 + i * 10)},"
            f"{_n(200 + i * 6)} {_n(120 + i * 16)},{_n(232 + i * 4)}",
            colour,
            6 - i * 0.5,
        )
        for i, colour in enumerate(tail_colours)
    )
    feathers = "".join(
        _el("ellipse", cx=0, cy=-24, rx=6, ry=20, transform=f"translate(98 132) rotate({_n(a)})")
        for a in range(-70, 11, 16)
    )
    sc.add(
        _el("circle", cx=150, cy=80, r=30, fill="#d9502f", stroke="#8e1b14", stroke_width=1.2),
        _g(tails),
        _g(feathers, fill="#2b5fb0", stroke=INK, stroke_width=1),
        _g(
            feathers,
            fill="#d63a2a",
            stroke=INK,
            stroke_width=1,
            transform="translate(196 -10) scale(-0.9 1)",
        ),
        _shape("M70,130C80,112 110,116 120,140C112,156 90,160 78,150Z", "#d63a2a", INK, 1.2),
        _shape("M94,128C78,122 66,112 62,98L48,104C54,120 66,134 82,144Z", "#d63a2a", INK, 1.2),
        _el("circle", cx=54, cy=100, r=8, fill="#f2c53d", stroke=INK, stroke_width=1.2),
        _el("polygon", points="46,98 36,102 46,104", fill="#e0a530", stroke=INK, stroke_width=0.8),
        _stroke("M56,93C58,84 64,80 70,80M58,93C64,88 70,88 74,90", "#2f8f4e", 2),
        _el("circle", cx=52, cy=98, r=1.5, fill=INK),
    )


def _yellow(sc: _Scene) -> None:
    sc.add(
        _el("rect", x=5, y=196, width=190, height=100, fill="#f2c94c"),
        _stroke("M5,196H195", "#9a7a10", 2),
    )


@dataclass(frozen=True)
class _Subject:
    back: Callable[[_Scene], None] | None = None
    front: Callable[[_Scene], None] | None = None
    mode: Mode = "accent"
    sky: str = PAPER


_SUBJECTS: dict[str, _Subject] = {
    "pine-crane": _Subject(_sun, _crane),
    "plum-warbler": _Subject(None, _warbler),
    "cherry-curtain": _Subject(None, _curtain),
    "wisteria-cuckoo": _Subject(None, _cuckoo),
    "iris-bridge": _Subject(_water, _bridge),
    "peony-butterflies": _Subject(None, _butterflies),
    "clover-boar": _Subject(None, _boar),
    "pampas-moon": _Subject(_moon, sky="#c8392b"),
    "pampas-geese": _Subject(None, _geese, sky="#e0703a"),
    "chrysanthemum-sake": _Subject(None, _sake),
    "maple-deer": _Subject(None, _deer),
    "willow-rainman": _Subject(None, _rainman, sky="#2a2830"),
    "willow-swallow": _Subject(None, _swallow, sky="#efe2bf"),
    "willow-lightning": _Subject(None, _lightning, mode="none", sky="#1c1a1a"),
    "paulownia-phoenix": _Subject(None, _phoenix, sky="#f3d9b0"),
    "paulownia-yellow": _Subject(_yellow, mode="full"),
}

# --------------------------------------------------------------------------
# Glyphs drawn as strokes (the cards need no CJK font): hwatu's 光 and Hangul
# --------------------------------------------------------------------------


def _circle_d(cx: float, cy: float, r: float) -> str:
    """A circle as path data, for glyphs made of one stroked path."""
    return (
        f"M{_n(cx + r)},{_n(cy)}A{_n(r)},{_n(r)} 0 1 1 {_n(cx - r)},{_n(cy)}"
        f"A{_n(r)},{_n(r)} 0 1 1 {_n(cx + r)},{_n(cy)}Z"
    )


_GLYPHS: dict[str, str] = {
    # 光 (gwang, "bright"): three short strokes, a bar, and two legs.
    "gwang": "M-6,-9L-4,-5M0,-10.5V-3.5M6,-9L4,-5M-9,-2H9M-3,-2C-3,4-5,8-9.5,10M3,-2V7.5C3,9.5 4,10 6,10H9V7",
    # 홍 (hong): ㅎ over ㅗ over ㅇ.
    "hong": "M-2.5,-10H2.5M-6,-7.5H6"
    + _circle_d(0, -3.5, 2.6)
    + "M0,-0.9V2.2M-8.5,2.2H8.5"
    + _circle_d(0, 7, 3),
    # 단 (dan): ㄷ and ㅏ over ㄴ.
    "dan": "M-1,-9H-7.5V-2H-0.5M4,-10.5V0.5M4,-5H7.5M-6.5,3V9H7",
    # 청 (cheong): ㅊ and ㅓ over ㅇ.
    "cheong": "M-3.5,-11V-9.5M-7.5,-8.5H0.5M-3.5,-8.5L-8,-1.5M-3.5,-6L1,-1.5M2,-5H5M5,-10.5V0.5"
    + _circle_d(0, 6.5, 3.2),
}
"""Stroke paths of the few characters the hwatu deck writes, in a 20 × 20 box around the origin."""


def _gwang_mark(x: float, y: float) -> str:
    """Hwatu's bright mark: a red disk with 光 in white."""
    return _g(
        [
            _el("circle", r=17, fill="#e3121b", stroke="#ffffff", stroke_width=2.5),
            _stroke(_GLYPHS["gwang"], "#ffffff", 2.8, transform="scale(1.05)"),
        ],
        transform=_place(x, y),
        class_="gwang",
    )


# --------------------------------------------------------------------------
# Ribbons
# --------------------------------------------------------------------------

_RIBBON_FILL = {"poem": "#c8232c", "red": "#c8232c", "blue": "#2753a6"}
_RIBBON_BAND = {"poem": "#7a1018", "red": "#7a1018", "blue": "#142e66"}
_HWATU_RIBBON_FILL = {"poem": "#e3121b", "red": "#e3121b", "blue": "#1ea7e1"}
_HWATU_RIBBON_BAND = {"poem": "#8a0a10", "red": "#8a0a10", "blue": "#0b6f9c"}
_HWATU_RIBBON_WORD = {"poem": ("hong", "dan"), "blue": ("cheong", "dan")}
"""The Hangul written down a hwatu ribbon: 홍단 on the red poem ribbons, 청단 on the blue ones
(the plain red ones, 초단 and the Willow ribbon, carry no writing)."""


def _ribbon(sc: _Scene, deck: Deck) -> None:
    style = sc.card.ribbon_style
    hwatu = deck == "hwatu"
    strip = "M-14,-92H14V84L0,72L-14,84Z"
    fill = (_HWATU_RIBBON_FILL if hwatu else _RIBBON_FILL)[style]
    band = (_HWATU_RIBBON_BAND if hwatu else _RIBBON_BAND)[style]
    parts = [
        _shape(strip, fill, INK, 1.6),
        _el("rect", x=-14, y=-92, width=28, height=10, fill=band, stroke=INK, stroke_width=1.2),
    ]
    if hwatu:
        word = _HWATU_RIBBON_WORD.get(style)
        if word is not None:
            glyphs = "".join(
                _g(_stroke(_GLYPHS[name], "#111111", 2.6), transform=_place(0, y, 1.05))
                for name, y in zip(word, (-52, -22), strict=True)
            )
            parts.append(glyphs)
    elif style == "blue":
        parts.append(_stroke("M-8,-78V72M8,-78V72", "#dfe9ff", 2))
    elif style == "poem":
        glyphs_jp = (
            "M-6,-66H6M0,-72V-52C0,-46-6,-46-6,-50",
            "M-5,-30C2,-34 6,-26 0,-22C-6,-18-2,-10 6,-12M-2,-36L2,-32",
            "M-6,4H5M0,-2V18M-6,18C0,12 6,14 6,20",
            "M-4,40C4,36 6,46 0,50M4,44L-6,58",
        )
        parts.append(_stroke("".join(glyphs_jp), "#111111", 2.6))
    sc.add(_g(parts, transform="translate(104 150) rotate(-18)"))


# --------------------------------------------------------------------------
# Corner badges
# --------------------------------------------------------------------------

KIND_MARK_CENTRE: tuple[float, float] = (28, 70)
"""Where the kind badge sits (viewBox units): the page writes the kind's mark there in its
own language (B, 光, 광, L...), so the faces carry the badge's shape but no letter."""

_KIND_FILL: dict[Kind, str] = {
    "bright": "#ffe8a3",
    "animal": "#e4efff",
    "ribbon": "#ffe1e1",
    "chaff": BADGE,
}


def _label(x: float, y: float, text: str, size: float, cls: str) -> str:
    return _el(
        "text",
        html.escape(text),
        x=x,
        y=y + size * 0.36,
        font_size=size,
        class_=cls,
        text_anchor="middle",
    )


def _kind_badge(kind: Kind, cx: float, cy: float) -> str:
    """The badge's shape says the kind without colour or words: star, circle, rectangle, diamond."""
    outline: dict[str, Attr] = {
        "fill": _KIND_FILL[kind],
        "stroke": INK,
        "stroke_width": 2,
        "class_": "kind",
        "data_kind": kind,
    }
    if kind == "bright":
        return _el("polygon", points=_poly(_star_points(cx, cy, 8, 22, 16)), **outline)
    if kind == "animal":
        return _el("circle", cx=cx, cy=cy, r=17, **outline)
    if kind == "ribbon":
        return _el("rect", x=cx - 18, y=cy - 13, width=36, height=26, **outline)
    corners = ((cx, cy - 20), (cx + 19, cy), (cx, cy + 20), (cx - 19, cy))
    return _el("polygon", points=_poly(corners), **outline)


def _badges(card: _Card, deck: Deck) -> str:
    light: dict[str, Attr] = {"fill": BADGE, "stroke": INK, "stroke_width": 2}
    parts = [
        _el("rect", x=9, y=9, width=38, height=33, rx=6, **light),
        _label(28, 25.5, str(display_month(card.month, deck)), 23, "month"),
        _kind_badge(card.kind, *KIND_MARK_CENTRE),
        _el("rect", x=149, y=9, width=42, height=33, rx=16.5, **light),
        _label(170, 25.5, str(card.points), 23, "points"),
    ]
    return _g(parts, font_family="sans-serif", font_weight="bold")


# --------------------------------------------------------------------------
# The hwatu deck: the same drawings in the Korean print's colours, with its marks
# --------------------------------------------------------------------------

_HWATU_COLOURS: dict[str, str] = {
    # the white plastic face and the ink
    PAPER: "#fffdf7",
    INK: "#111111",
    # bark and stems: hwatu prints them deep black
    "#5b3a24": "#1a120c",
    "#35221a": "#111111",
    "#4a3020": "#1a120c",
    "#3e2a1e": "#111111",
    "#4a2a1a": "#111111",
    "#5b4a2a": "#111111",
    # reds: one vivid red
    "#c0392b": "#e3121b",
    "#9c2a20": "#a50a12",
    "#d7342a": "#e3121b",
    "#d62c4c": "#e3121b",
    "#c81f3d": "#e3121b",
    "#e4526c": "#ff4f5e",
    "#c62828": "#e3121b",
    "#c8392b": "#e3121b",
    "#b3253c": "#e3121b",
    "#e0569a": "#ff3d7a",
    "#b8323c": "#e3121b",
    # greens: vivid
    "#2d6a35": "#0b8a3e",
    "#173d1e": "#04401a",
    "#86c46a": "#b4f08a",
    "#3c8a3f": "#0b8a3e",
    "#3f7f3a": "#0b8a3e",
    "#3d7a34": "#0b8a3e",
    "#5aa23e": "#1fbf4a",
    "#2f5f22": "#04401a",
    # April, 흑싸리 ("black bush clover"): black strands hung with red
    "#6f4aa3": "#111111",
    "#a486d4": "#e3121b",
    "#3e2566": "#000000",
    "#4e8a3a": "#111111",
    "#7a4a8c": "#e3121b",
    # May, 난초: blue flowers over light-blue water
    "#46308f": "#1565c8",
    "#7a5cc8": "#3fb8f0",
    "#22154f": "#0a2a5a",
    "#b9d6e6": "#8fdcf8",
    # the curtain's crest and the mist: black and light blue
    "#6b3a8c": "#111111",
    "#c9dcf0": "#8fdcf8",
    # November, 오동: black leaves, red flower heads
    "#3f7d36": "#111111",
    "#1e4a1a": "#000000",
    "#9bcf7e": "#3a3a3a",
    "#8a5cc2": "#e3121b",
    "#b596e0": "#ff6a6a",
    "#3c2164": "#6a0a0a",
    # the rain: sky black, water light blue
    "#2a2830": "#111111",
    "#2f5d8a": "#1ea7e1",
    # yellows
    "#f4c430": "#ffd400",
    "#f2c94c": "#ffd400",
}
"""Japanese colour -> hwatu colour: the Korean four-colour print (vivid red, deep black,
light blue where Japan has purple, bright green and yellow)."""

_HEX = re.compile(r"#[0-9a-f]{6}")


def _recolour(text: str, deck: Deck) -> str:
    if deck == "hanafuda":
        return text
    return _HEX.sub(lambda m: _HWATU_COLOURS.get(m.group(0), m.group(0)), text)


def display_month(month: int, deck: Deck = "hanafuda") -> int:
    """The month number a deck prints: hwatu counts Paulownia (오동) as 11 and Willow (비) as 12.

    The game's months (RULES R-1.1) do not change; only the figure on the Korean cards does.
    """
    if deck == "hwatu" and month in (11, 12):
        return 23 - month
    return month


_HWATU_GWANG_AT: dict[str, tuple[float, float]] = {
    "pine-crane": (170, 268),
    "cherry-curtain": (170, 268),
    "pampas-moon": (170, 60),
    "willow-rainman": (172, 62),
    "paulownia-phoenix": (30, 268),
}
"""Where each hwatu bright carries its 光 disk (a corner the drawing leaves free)."""

# --------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------


def _document(title: str, defs: Iterable[str], body: Iterable[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{html.escape(title)}">'
    )
    defs_text = "".join(defs)
    parts = [head, _el("title", html.escape(title))]
    if defs_text:
        parts.append(_el("defs", defs_text))
    parts.extend(body)
    parts.append("</svg>\n")
    return "\n".join(parts)


_EDGE = {"hanafuda": "#2a1d14", "hwatu": "#d0101a"}
"""The card's edge: Japan's dark turned-over paper, hwatu's red plastic."""


def _frame(fill: str, deck: Deck) -> str:
    return _el("rect", width=WIDTH, height=HEIGHT, rx=12, fill=_EDGE[deck]) + _el(
        "rect", x=5, y=5, width=WIDTH - 10, height=HEIGHT - 10, rx=8, fill=fill
    )


def _check_deck(deck: str) -> Deck:
    if deck not in DECKS:
        raise ValueError(f"unknown deck: {deck!r} (one of {', '.join(DECKS)})")
    return deck


def card_svg(slug: str, deck: str = "hanafuda") -> str:
    """Return a complete standalone SVG document for the face of card ``slug`` in ``deck``.

    Raises ``ValueError`` if ``slug`` is not one of :data:`CARD_SLUGS` or ``deck`` not one
    of :data:`DECKS`.
    """
    card = _BY_SLUG.get(slug)
    if card is None:
        raise ValueError(f"unknown card slug: {slug!r}")
    style = _check_deck(deck)
    subject = _SUBJECTS.get(slug, _Subject(mode="full"))
    sc = _Scene(card)
    if subject.back is not None:
        subject.back(sc)
    if subject.mode != "none":
        start = len(sc.layers)
        _PLANTS[card.month](sc, subject.mode)
        if card.part == "chaff-2":
            sc.layers[start:] = [_g(sc.layers[start:], transform="matrix(-1 0 0 1 200 0)")]
    if card.month == 11 and slug != "willow-lightning":
        _rain(sc, "#c9d3dc" if slug == "willow-rainman" else "#7d8a99")
    layers = [_recolour(layer, style) for layer in sc.layers]
    if card.kind == "ribbon":
        sc.layers = []
        _ribbon(sc, style)
        layers.extend(sc.layers)
    sc.layers = []
    if subject.front is not None:
        subject.front(sc)
    layers.extend(_recolour(layer, style) for layer in sc.layers)
    if style == "hwatu" and slug in _HWATU_GWANG_AT:
        layers.append(_gwang_mark(*_HWATU_GWANG_AT[slug]))
    clip_id = sc.uid("clip")
    inner = _el("rect", x=5, y=5, width=WIDTH - 10, height=HEIGHT - 10, rx=8)
    clip = _el("clipPath", inner, id=clip_id)
    sky = _recolour(subject.sky, style)
    body = [_frame(sky, style), _g(layers, clip_path=f"url(#{clip_id})"), _badges(card, style)]
    defs = [clip, *(_recolour(d, style) for d in sc.defs.values())]
    return _document(_title(card, style), defs, body)


def _title(card: _Card, deck: Deck) -> str:
    """The English description the file carries (the page names cards in its own language)."""
    what = card.part.replace("-", " ")
    if card.kind == "ribbon":
        names = {"poem": "red poem ribbon", "blue": "blue ribbon"}
        what = names.get(card.ribbon_style, "red ribbon")
    month = display_month(card.month, deck)
    return f"{card.month_name} ({month}), {what}: {card.kind}, {card.points} points"


def back_svg(deck: str = "hanafuda") -> str:
    """Return the SVG document for the card back: dark red-brown lattice, or hwatu's red plastic."""
    if _check_deck(deck) == "hwatu":
        return _hwatu_back()
    tile = _el(
        "pattern",
        _el("rect", width=16, height=16, fill="#6e2016")
        + _stroke("M0,8L8,0L16,8L8,16Z", "#4f140d", 1.6)
        + _el("circle", cx=8, cy=8, r=1.6, fill="#8a3020"),
        id="back-lattice",
        width=16,
        height=16,
        patternUnits="userSpaceOnUse",
    )
    body = [
        _el("rect", width=WIDTH, height=HEIGHT, rx=12, fill="#2a1d14"),
        _el("rect", x=5, y=5, width=190, height=290, rx=8, fill="url(#back-lattice)"),
        _el(
            "rect",
            x=14,
            y=14,
            width=WIDTH - 28,
            height=HEIGHT - 28,
            rx=5,
            fill="none",
            stroke="#a0482e",
            stroke_width=2,
        ),
    ]
    return _document("Card back", [tile], body)


def _hwatu_back() -> str:
    """Hwatu's back: plain bright-red plastic with a fine pebbled grain."""
    grain = _el(
        "pattern",
        _el("rect", width=6, height=6, fill="#d0101a")
        + _el("circle", cx=1.5, cy=1.5, r=0.9, fill="#b00a14")
        + _el("circle", cx=4.5, cy=4.5, r=0.9, fill="#e8343c"),
        id="back-grain",
        width=6,
        height=6,
        patternUnits="userSpaceOnUse",
    )
    body = [
        _el("rect", width=WIDTH, height=HEIGHT, rx=12, fill="#a50a12"),
        _el("rect", x=4, y=4, width=192, height=292, rx=9, fill="url(#back-grain)"),
    ]
    return _document("Card back (hwatu)", [grain], body)


def write_all(directory: pathlib.Path, deck: str = "hanafuda") -> list[pathlib.Path]:
    """Write ``<slug>.svg`` for all 48 cards of ``deck`` and ``back.svg`` into ``directory``.

    The directory is created if needed; returns the written paths in id order,
    the back last.
    """
    directory.mkdir(parents=True, exist_ok=True)
    written: list[pathlib.Path] = []
    documents = [(slug, card_svg(slug, deck)) for slug in CARD_SLUGS] + [("back", back_svg(deck))]
    for name, text in documents:
        path = directory / f"{name}.svg"
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


DECK_DIRS: dict[str, str] = {"hanafuda": "cards", "hwatu": "cards-hwatu"}
"""Each deck's folder under the server's static files."""


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m roppyakken.devtools.cardart OUTDIR [--deck hwatu]``."""
    parser = argparse.ArgumentParser(
        prog="python -m roppyakken.devtools.cardart",
        description="Write the SVG card art (48 faces and back.svg) into OUTDIR; with --all, "
        "write every deck into its folder under OUTDIR (cards/, cards-hwatu/).",
    )
    parser.add_argument("outdir", type=pathlib.Path, help="directory to write into")
    parser.add_argument("--deck", choices=DECKS, default="hanafuda", help="which deck (default hanafuda)")
    parser.add_argument("--all", action="store_true", help="every deck, each in its own folder")
    args = parser.parse_args(argv)
    targets = [(d, args.outdir / DECK_DIRS[d]) for d in DECKS] if args.all else [(args.deck, args.outdir)]
    for deck, outdir in targets:
        paths = write_all(outdir, deck)
        print(f"wrote {len(paths)} {deck} files to {outdir}", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
