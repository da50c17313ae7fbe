"""The repository's copies of the specification stay equal to the shared originals."""

from __future__ import annotations

import json
import re

import pytest

from tests.harness.support import ROOT, require

SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize("name", ["RULES.md", "FORMATS.md"])
def test_docs_copy_matches_shared_spec(name: str) -> None:
    original = SHARED / name
    require(
        original.exists(), f"the shared specification {original} is not there (a folder beside the checkout)"
    )
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == original.read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert block[0].startswith("./scripts/serve") and block[1].startswith("./scripts/test")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test" in ci


def test_the_readme_error_example_is_the_real_message() -> None:
    """The README's example of a bad-input error is what ``roppyakken score`` really prints for
    that input (it had drifted from the real message once)."""
    import re

    from tests.harness.support import run_cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`(roppyakken: error: player (\d) captures: unknown card '([a-z-]+)'[^`]*)`", readme)
    assert found, "the README's error example is gone (or no longer about an unknown card)"
    message, player, card = found.group(1), int(found.group(2)), found.group(3)
    players: list[dict[str, list[str]]] = [{"captures": []}, {"captures": []}]
    players[player - 1]["captures"] = [card]
    code, out, err = run_cli(["score"], json.dumps({"players": players}))
    assert code == 2 and out == "" and err == message + "\n"


_RESULTS_LINK = re.compile(r"\]\((bench/RESULTS-[A-Za-z]+\.md)(?:#([a-z0-9-]+))?\)")
_FIGURE = re.compile(r"(?<![\w.,/-])[+−]?\d[\d,]*(?:\.\d+)?(?:–\d[\d,]*(?:\.\d+)?)?")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower().replace("`", ""))
    return re.sub(r"\s", "-", text)


def _section(page: str, anchor: str | None) -> str:
    """The section of a results page an anchor names, or its "Current figures" section."""
    lines = page.splitlines()
    for index, line in enumerate(lines):
        heading = re.match(r"(#+) (.*)", line)
        if heading is None:
            continue
        name = heading.group(2)
        if (anchor is not None and _slug(name) == anchor) or (
            anchor is None and name.lower().startswith("current figures")
        ):
            level = len(heading.group(1))
            end = next(
                (
                    later
                    for later in range(index + 1, len(lines))
                    if (m := re.match(r"(#+) ", lines[later])) and len(m.group(1)) <= level
                ),
                len(lines),
            )
            return "\n".join(lines[index:end])
    raise AssertionError(f"no section {anchor or 'Current figures'!r} in the results page")


def _blocks(readme: str) -> list[str]:
    """The README's sentences and table rows: a figure and the link to its results share one."""
    blocks: list[str] = []
    for paragraph in re.split(r"\n\s*\n", readme):
        if paragraph.lstrip().startswith("|"):
            blocks.extend(paragraph.splitlines())
        else:
            blocks.extend(re.split(r"(?<=[.;:])\s+(?=[A-Z`(-])", paragraph))
    return blocks


def test_every_readme_figure_is_the_results_page_figure() -> None:
    """Every figure in a README paragraph (or table row) that cites a results page is written in
    the section it cites (its anchor, else its "Current figures"), which says the date, the
    machine and the command that gave it: the README never keeps an older figure."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cited = 0
    for block in _blocks(readme):
        links = _RESULTS_LINK.findall(block)
        if not links:
            continue
        text = re.sub(r"`[^`]*`", "", _RESULTS_LINK.sub("", block))  # commands and names are not figures
        figures = _FIGURE.findall(text)
        if not figures:
            continue
        sections = []
        for page, anchor in links:
            section = _section((ROOT / page).read_text(encoding="utf-8"), anchor or None)
            sections.append(section)
            assert re.search(r"\b20\d\d-\d\d-\d\d\b", section), f"{page}#{anchor}: its figures have no date"
            command = r"(`[^`\n]*|^ {4}.*|^\.venv/.*|^python .*)(bench/|roppyakken)"  # inline or a block
            assert re.search(command, section, re.MULTILINE), f"{page}#{anchor}: no command"
        for figure in figures:
            cited += 1
            assert any(figure in section for section in sections), (
                f"README figure {figure!r} is not in the results it cites: {block.strip()[:160]}"
            )
    assert cited >= 10, "the README cites fewer figures than it did: is the link pattern still right?"


def test_the_translators_guide_lists_every_language() -> None:
    """docs/TRANSLATING.md's table has one row per language of ``LANGUAGES``, each with its catalog."""
    from roppyakken.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog_name

    guide = (ROOT / "docs" / "TRANSLATING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([A-Za-z-]+)` \|[^|]*\| (.*?) \|$", guide, re.M)
    assert [code for code, _ in rows] == list(LANGUAGES)
    for code, catalog in rows:
        if code != SOURCE_LANGUAGE:
            assert catalog == f"`src/roppyakken/locale/{catalog_name(code)}/LC_MESSAGES/roppyakken.po`"
            assert (ROOT / catalog.strip("`")).is_file()
