"""``python -m roppyakken.devtools.confusables``: Unicode's confusables.txt becomes the table that
server/people/logins.py reads (the shipped one is such a table, of Unicode 13.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roppyakken.devtools import confusables
from roppyakken.server.people import logins

SAMPLE = """\ufeff# confusables.txt
# Date: 2020-02-13, 01:38:49 GMT
# © 2020 Unicode®, Inc.
# For terms of use, see http://www.unicode.org/terms_of_use.html
# Version: 13.0.0
0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#

006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N\t#
"""


def test_the_tool_keeps_each_mapping_under_the_sources_version() -> None:
    table = confusables.convert(SAMPLE)
    assert (
        "# Version: 13.0.0" in table
        and "# For terms of use, see http://www.unicode.org/terms_of_use.html" in table
    )
    assert [line for line in table.splitlines() if not line.startswith("#")] == [
        "006d\t0072 006e",
        "0430\t0061",
    ]


def test_the_shipped_table_is_unicodes() -> None:
    table = logins.TABLE.read_text(encoding="utf-8")
    assert "# Version: 13.0.0" in table
    rows = [line for line in table.splitlines() if not line.startswith("#")]
    assert len(rows) > 6000 and "0430\t0061" in rows and "ff41\t0061" in rows


@pytest.mark.parametrize("text", ["", "# only comments\n", "not a table at all\n"])
def test_a_file_that_is_not_the_table_is_one_line_and_exit_2(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "confusables.txt"
    source.write_text(text, encoding="utf-8")
    assert confusables.main([str(source)]) == 2
    err = capsys.readouterr().err
    assert "no mapping found" in err and len(err.strip().splitlines()) == 1
    assert confusables.main([str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
