"""Tests for the generated SVG card art (roppyakken.devtools.cardart)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.harness.support import ROOT

try:
    from roppyakken.devtools import cardart
except ModuleNotFoundError:  # a plain checkout, package not installed
    sys.path.insert(0, str(ROOT / "src"))
    from roppyakken.devtools import cardart

STATIC = ROOT / "src" / "roppyakken" / "server" / "static"
STATIC_CARDS = STATIC / "cards"
SVG = "{http://www.w3.org/2000/svg}"
REGENERATE = "python -m roppyakken.devtools.cardart --all src/roppyakken/server/static"
DECK_DIRS = {"hanafuda": "cards", "hwatu": "cards-hwatu"}

# RULES R-1.1 (order) and R-1.2 (points), written out independently of the module.
_CHAFF = ("chaff-1", "chaff-2")
MONTH_CARDS = {
    "pine": ("crane", "ribbon", *_CHAFF),
    "plum": ("warbler", "ribbon", *_CHAFF),
    "cherry": ("curtain", "ribbon", *_CHAFF),
    "wisteria": ("cuckoo", "ribbon", *_CHAFF),
    "iris": ("bridge", "ribbon", *_CHAFF),
    "peony": ("butterflies", "ribbon", *_CHAFF),
    "clover": ("boar", "ribbon", *_CHAFF),
    "pampas": ("moon", "geese", *_CHAFF),
    "chrysanthemum": ("sake", "ribbon", *_CHAFF),
    "maple": ("deer", "ribbon", *_CHAFF),
    "willow": ("rainman", "swallow", "ribbon", "lightning"),
    "paulownia": ("phoenix", "yellow", *_CHAFF),
}
EXPECTED_SLUGS = [f"{month}-{part}" for month, parts in MONTH_CARDS.items() for part in parts]
BRIGHTS = {"pine-crane", "cherry-curtain", "pampas-moon", "willow-rainman", "paulownia-phoenix"}
ANIMALS = {
    "plum-warbler",
    "wisteria-cuckoo",
    "iris-bridge",
    "peony-butterflies",
    "clover-boar",
    "pampas-geese",
    "chrysanthemum-sake",
    "maple-deer",
    "willow-swallow",
}


def expected_kind(slug: str) -> str:
    if slug in BRIGHTS:
        return "B"
    if slug in ANIMALS:
        return "A"
    return "R" if slug.endswith("-ribbon") else "C"


def expected_points(slug: str) -> int:
    if slug in BRIGHTS or slug == "plum-warbler":
        return 50
    if slug in ANIMALS or slug.endswith("-ribbon") or slug == "paulownia-yellow":
        return 10
    return 0


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def texts_by_class(root: ET.Element) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for el in root.iter(f"{SVG}text"):
        found.setdefault(el.get("class", ""), []).append("".join(el.itertext()).strip())
    return found


def test_slugs_in_canonical_order() -> None:
    assert tuple(EXPECTED_SLUGS) == cardart.CARD_SLUGS
    assert len(set(cardart.CARD_SLUGS)) == 48


KIND_NAMES = {"B": "bright", "A": "animal", "R": "ribbon", "C": "chaff"}


def kind_badges(root: ET.Element) -> list[str]:
    return [el.get("data-kind", "") for el in root.iter() if el.get("class") == "kind"]


@pytest.mark.parametrize("deck", ["hanafuda", "hwatu"])
@pytest.mark.parametrize("slug", EXPECTED_SLUGS)
def test_face_is_well_formed_and_labelled(slug: str, deck: str) -> None:
    text = cardart.card_svg(slug, deck)
    root = parse(text)
    view_box = root.get("viewBox")
    assert view_box is not None
    _, _, width, height = (float(v) for v in view_box.split())
    assert 1.3 < height / width < 1.7  # portrait, about 2:3
    month = EXPECTED_SLUGS.index(slug) // 4 + 1
    if deck == "hwatu" and month >= 11:
        month = 23 - month  # Korean cards: Paulownia (오동) is 11, Willow (비) 12
    labels = texts_by_class(root)
    assert labels["month"] == [str(month)]
    assert labels["points"] == [str(expected_points(slug))]
    assert "kind" not in labels  # the page writes the kind's mark in its own language
    assert kind_badges(root) == [KIND_NAMES[expected_kind(slug)]]
    title = root.find(f"{SVG}title")
    assert title is not None and title.text  # accessible name


@pytest.mark.parametrize("deck", ["hanafuda", "hwatu"])
@pytest.mark.parametrize("slug", EXPECTED_SLUGS)
def test_face_is_self_contained_and_small(slug: str, deck: str) -> None:
    text = cardart.card_svg(slug, deck)
    assert len(text.encode("utf-8")) < 12 * 1024
    lowered = text.lower()
    for forbidden in ("<image", "xlink", "@import", "<script", "<foreignobject", "url(http"):
        assert forbidden not in lowered
    root = parse(text)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    assert all(i is not None and i.startswith(slug + "-") for i in ids)  # no clashes inline
    for el in root.iter(f"{SVG}use"):
        assert el.get("href", "").removeprefix("#") in ids


def kind_shape(root: ET.Element) -> str:
    """Describe the kind badge's shape: tag (and corner count)."""
    for shape in root.iter():
        if shape.get("class") == "kind":
            tag = shape.tag.removeprefix(SVG)
            corners = len(shape.get("points", "").split())
            return f"{tag}{corners or ''}"
    raise AssertionError("no kind badge")


def test_kind_badges_have_distinct_shapes() -> None:
    shapes: dict[str, set[str]] = {}
    for slug in EXPECTED_SLUGS:
        shapes.setdefault(expected_kind(slug), set()).add(kind_shape(parse(cardart.card_svg(slug))))
    assert all(len(found) == 1 for found in shapes.values()), shapes
    assert len({next(iter(found)) for found in shapes.values()}) == 4, shapes


@pytest.mark.parametrize("deck", ["hanafuda", "hwatu"])
def test_back_is_well_formed(deck: str) -> None:
    root = parse(cardart.back_svg(deck))
    assert root.get("viewBox") == "0 0 200 300"


def test_unknown_slug_or_deck_raises_value_error() -> None:
    with pytest.raises(ValueError, match="pine-swan"):
        cardart.card_svg("pine-swan")
    with pytest.raises(ValueError, match="tarot"):
        cardart.card_svg("pine-crane", "tarot")
    with pytest.raises(ValueError, match="tarot"):
        cardart.back_svg("tarot")


def _marked(root: ET.Element, cls: str) -> bool:
    return any(el.get("class") == cls for el in root.iter())


def test_hwatu_marks_brights_and_writes_its_ribbons() -> None:
    """Korean cards: 光 disk on exactly the five brights; 홍단 / 청단 written on those ribbons only."""
    for slug in EXPECTED_SLUGS:
        hwatu = parse(cardart.card_svg(slug, "hwatu"))
        japanese = parse(cardart.card_svg(slug, "hanafuda"))
        assert _marked(hwatu, "gwang") == (slug in BRIGHTS), slug
        assert not _marked(japanese, "gwang")
    words = {slug: cardart.card_svg(slug, "hwatu") for slug in EXPECTED_SLUGS if slug.endswith("-ribbon")}
    hong, cheong = cardart._GLYPHS["hong"], cardart._GLYPHS["cheong"]
    assert {s for s, text in words.items() if hong in text} == {"pine-ribbon", "plum-ribbon", "cherry-ribbon"}
    assert {s for s, text in words.items() if cheong in text} == {
        "peony-ribbon",
        "chrysanthemum-ribbon",
        "maple-ribbon",
    }
    assert not any(hong in cardart.card_svg(s) for s in words)  # the Japanese deck keeps its kana


def test_hwatu_is_the_korean_print() -> None:
    """Red edge and red back; April's wisteria black and red (흑싸리) where Japan's is purple."""
    wisteria = cardart.card_svg("wisteria-chaff-1", "hwatu")
    assert "#6f4aa3" in cardart.card_svg("wisteria-chaff-1") and "#6f4aa3" not in wisteria
    assert "#111111" in wisteria
    assert 'fill="#d0101a"' in cardart.card_svg("pine-chaff-1", "hwatu")
    assert "#d0101a" in cardart.back_svg("hwatu") and "#d0101a" not in cardart.back_svg()


def test_output_is_the_same_in_another_process() -> None:
    """The faces do not depend on the process (string hashing, set order, ids): a fresh
    interpreter with another hash seed draws every card byte for byte as this one does."""
    program = (
        "import sys; from roppyakken.devtools import cardart; "
        "sys.stdout.write('\\x00'.join(cardart.card_svg(s) for s in cardart.CARD_SLUGS))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120, check=True
    )
    here = [cardart.card_svg(s) for s in cardart.CARD_SLUGS]
    assert done.stdout.split("\x00") == here


@pytest.mark.parametrize("deck", ["hanafuda", "hwatu"])
def test_committed_files_match_generator(deck: str) -> None:
    folder = STATIC / DECK_DIRS[deck]
    assert cardart.DECK_DIRS[deck] == DECK_DIRS[deck]
    expected = {f"{slug}.svg": cardart.card_svg(slug, deck) for slug in cardart.CARD_SLUGS}
    expected["back.svg"] = cardart.back_svg(deck)
    present = {path.name for path in folder.iterdir()}
    assert present == set(expected), f"regenerate: {REGENERATE}"
    for name, text in expected.items():
        committed = (folder / name).read_text(encoding="utf-8")
        assert committed == text, f"{DECK_DIRS[deck]}/{name} is stale; regenerate: {REGENERATE}"


def test_write_all_and_main(tmp_path: pathlib.Path) -> None:
    paths = cardart.write_all(tmp_path / "out")
    assert [p.name for p in paths] == [f"{s}.svg" for s in EXPECTED_SLUGS] + ["back.svg"]
    assert cardart.main([str(tmp_path / "cli")]) == 0
    assert len(list((tmp_path / "cli").glob("*.svg"))) == 49
    assert cardart.main(["--all", str(tmp_path / "static")]) == 0
    for deck, folder in DECK_DIRS.items():
        assert (tmp_path / "static" / folder / "back.svg").read_text() == cardart.back_svg(deck)
        assert len(list((tmp_path / "static" / folder).glob("*.svg"))) == 49


def test_deck_comes_from_the_core() -> None:
    """The generator keeps no deck table of its own: slugs, kinds and points are roppyakken.cards'."""
    from roppyakken import cards

    assert cardart.CARD_SLUGS == cards.SLUGS
    source = pathlib.Path(cardart.__file__).read_text()
    assert '("crane", "bright")' not in source and "def _points" not in source
