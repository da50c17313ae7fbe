"""The installable app's icons, drawn by the card-art generator: the crane of January on the theme colour.

``python -m roppyakken.devtools.appicons src/roppyakken/server/static/icons`` writes
``app.svg`` (the card, from :func:`roppyakken.devtools.cardart.card_svg`, on a square of
:data:`THEME_COLOUR`, its safe zone kept for maskable icons) and renders it to
``app-192.png`` and ``app-512.png`` with Chromium (Playwright), the sizes the web app
manifest (``static/manifest.webmanifest``) names.  A maintainer's tool, run when the art changes.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys
from typing import Final

from roppyakken.devtools.cardart import card_svg

THEME_COLOUR: Final = "#7a1f1f"
"""The app's theme colour (the manifest's ``theme_color``): a hanafuda back's deep red."""
CARD: Final = "pine-crane"
SIZES: Final = (192, 512)


def icon_svg() -> str:
    """The icon as an SVG document: the card, upright, inside the square's maskable safe zone."""
    card = card_svg(CARD)
    inner = re.sub(r"^<svg[^>]*>", "", card.strip(), count=1).rsplit("</svg>", 1)[0]
    inner = re.sub(r"<title>.*?</title>", "", inner, flags=re.S)
    # a 200x300 card scaled to 60% of a 512 square's height: inside the central 80% circle
    scale = 512 * 0.6 / 300
    x = (512 - 200 * scale) / 2
    y = (512 - 300 * scale) / 2
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">'
        f'<rect width="512" height="512" fill="{THEME_COLOUR}"/>'
        f'<g transform="translate({x:.2f} {y:.2f}) scale({scale:.4f})">{inner}</g>'
        "</svg>\n"
    )


def render_png(svg: str, size: int) -> bytes:
    """``svg`` as a ``size`` x ``size`` PNG, drawn by Debian's Chromium through Playwright."""
    from playwright.sync_api import sync_playwright

    page_html = (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<img style='display:block;width:{size}px;height:{size}px' "
        f"src='data:image/svg+xml;charset=utf-8,{svg.replace(chr(39), '%27').replace('#', '%23')}'>"
        "</body></html>"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html)
            page.wait_for_function("document.images[0].complete")
            return page.screenshot(type="png", omit_background=True)
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    """Write the icons into the directory given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("directory", type=pathlib.Path)
    args = parser.parse_args(argv)
    out: pathlib.Path = args.directory
    out.mkdir(parents=True, exist_ok=True)
    svg = icon_svg()
    (out / "app.svg").write_text(svg, encoding="utf-8")
    for size in SIZES:
        (out / f"app-{size}.png").write_bytes(render_png(svg, size))
    print(f"appicons: wrote app.svg and {', '.join(f'app-{s}.png' for s in SIZES)} in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
