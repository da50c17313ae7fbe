"""Build the translation catalogs and the browser's catalog (needs Babel: the ``i18n`` extra).

English is the source language.  The messages are extracted with Babel from the
Python modules that mark them (``N_``, ``_``, ``fill``) and from the browser's
modules (``t("…")``) into ``locale/roppyakken.pot``; each language's ``.po`` is
updated from it, compiled to the ``.mo`` the game reads with the standard
library, and turned, with the deck, the yaku and the names of
:mod:`roppyakken.text`, into ``server/static/js/catalog.js`` for the browser.

    python -m roppyakken.devtools.i18n            # update .pot/.po, write .mo and catalog.js
    python -m roppyakken.devtools.i18n --check    # fail if any generated file is stale

Every output is deterministic, so the tests regenerate it and compare.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from roppyakken import cards, text, yaku
from roppyakken.ai.base import bot_description
from roppyakken.i18n import DOMAIN, LANGUAGE_NAMES, LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, catalog_name

PACKAGE = Path(__file__).resolve().parents[1]
STATIC_JS = PACKAGE / "server" / "static" / "js"
CATALOG_JS = STATIC_JS / "catalog.js"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE)

PYTHON_SOURCES: tuple[str, ...] = (
    "text.py",
    "ai/base.py",
    "ai/arena.py",
    "ai/ladder.py",
    "ai/master.py",
    "ai/driver.py",
    "ai/hint.py",
    "ai/ray_backend.py",
    "i18n.py",
    "record.py",
    "engine.py",
    "explain.py",
    "tutorial.py",
    "rules.py",
    "cards.py",
    "documents.py",
    "tui/session.py",
    "cli/__init__.py",
    "cli/common.py",
    "cli/score_cmd.py",
    "cli/targets_cmd.py",
    "cli/cards_cmd.py",
    "cli/simulate_cmd.py",
    "cli/replay_cmd.py",
    "cli/rules_cmd.py",
    "cli/play_cmd.py",
    "cli/learn_cmd.py",
    "cli/serve_cmd.py",
    "cli/arena_cmd.py",
    "cli/ladder_cmd.py",
    "cli/admin_cmd.py",
    "cli/ratings_cmd.py",
    "server/wire/text.py",
    "server/wire/client.py",
    "server/wire/protocol.py",
    "server/wire/lobby.py",
    "server/wire/bodies.py",
    "server/web/api.py",
    "server/web/offline_games.py",
    "ai/offline.py",
    "server/people/moderation.py",
)
"""Modules (under the package) whose marked messages are translated (``tui/text.py`` is read apart)."""

SERVER_SAYS: tuple[str, ...] = (
    "server/wire/text.py",
    "server/wire/client.py",
    "server/wire/protocol.py",
    "server/wire/lobby.py",
    "server/wire/bodies.py",
    "server/web/api.py",
    "engine.py",
    "rules.py",
    "documents.py",
    "cards.py",
    "i18n.py",
)
"""Modules whose messages the web server sends as errors' templates (server/wire/wording.py): the
browser says them in its language."""

BROWSER_PYTHON: tuple[str, ...] = ("text.py", "ai/base.py", "tutorial.py", *SERVER_SAYS)
"""Python modules whose messages the browser shows too (the names, descriptions and the server's errors)."""

PY_KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "fill": None,
    "ngettext": (1, 2),
    "nfill": (1, 2),
    "Plural": (1, 2),
}
JS_KEYWORDS: dict[str, object] = {"t": None, "tc": ((1, "c"), 2)}
"""``tc(context, message, fields)`` is a message in a context: a variant for a grammatical gender."""
GENDER = "grammatical gender"
"""The context of a card name's gender: the translation is one of :data:`GENDERS`."""
GENDERS = ("masculine", "feminine", "masculine plural", "feminine plural", "none")
"""A card name's gender and number in a language; each but ``none`` is also the context of the
variants of a message that agrees with a card (``tc`` in the browser)."""
GENDER_NOTE = "The grammatical gender of this card name: " + ", ".join(GENDERS) + "."
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
TRANSLATORS = "roppyakken contributors"
HEADER = "Roppyakken's messages. English is the source language; see src/roppyakken/i18n.py."


class _StableCatalog(Catalog):
    """A catalog whose headers do not name the Babel version (the output must not depend on it)."""

    @property
    def mime_headers(self) -> list[tuple[str, str]]:
        """The headers, without ``Generated-By``."""
        return [(k, v) for k, v in Catalog.mime_headers.fget(self) if k != "Generated-By"]  # type: ignore[attr-defined]

    @mime_headers.setter
    def mime_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        Catalog.mime_headers.fset(self, headers)  # type: ignore[attr-defined]


def _stable(catalog: Catalog) -> Catalog:
    catalog.__class__ = _StableCatalog
    return catalog


def js_sources() -> list[Path]:
    """The browser modules whose ``t("…")`` calls are messages (not the generated catalog)."""
    return sorted(p for p in STATIC_JS.glob("*.js") if p != CATALOG_JS)


MessageId = str | tuple[str, str]
"""A message id: its text, or its singular and plural forms (a message with a count)."""


def _extract(
    path: Path, method: str, keywords: dict[str, object]
) -> Iterator[tuple[str, MessageId, str | None]]:
    where = path.relative_to(PACKAGE).as_posix()
    found = extract_from_file(method, path, keywords=keywords)  # type: ignore[arg-type]
    for _lineno, message, _comments, context in found:
        if isinstance(message, str):
            yield where, message, context
        elif isinstance(message, tuple) and len(message) == 2 and all(isinstance(m, str) for m in message):
            yield where, (message[0], message[1]), context


def extract() -> Catalog:
    """The template catalog: every message, in source order, with the files that use it."""
    template = _StableCatalog(
        project="roppyakken",
        header_comment=f"# {HEADER}",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )
    found: list[tuple[str, MessageId, str | None]] = []
    for name in PYTHON_SOURCES:
        found.extend(_extract(PACKAGE / name, "python", dict(PY_KEYWORDS)))
    from roppyakken.tui import text as tui_text  # its constants are the messages (no markers)

    found.extend(("tui/text.py", message, None) for message in tui_text.messages())
    for path in js_sources():
        found.extend(_extract(path, "javascript", JS_KEYWORDS))
    for where, message, context in found:
        known = template.get(message[0] if isinstance(message, tuple) else message, context=context)
        if known is not None:
            known.locations.append((where, 0))
        else:
            template.add(message, locations=[(where, 0)], context=context)
    for name in dict.fromkeys(text.CARD_NAMES.values()):
        template.add(name, locations=[("text.py", 0)], context=GENDER, auto_comments=[GENDER_NOTE])
    return template


def message_key(message: Message) -> str:
    """A message's key in the browser's catalog: its id, after its context and a U+0004 if it has one."""
    ident = message.id[0] if isinstance(message.id, tuple | list) else message.id  # (the singular)
    return f"{message.context}\x04{ident}" if message.context else str(ident)


def browser_messages(template: Catalog) -> list[str]:
    """The message ids the browser needs, in template order."""
    browser_files = {*BROWSER_PYTHON, *(p.relative_to(PACKAGE).as_posix() for p in js_sources())}
    return [
        message_key(m)
        for m in template
        if m.id and isinstance(m.id, str) and any(where in browser_files for where, _ in m.locations)
    ]


def po_path(lang: str) -> Path:
    """The ``.po`` file of a language."""
    return LOCALE_DIR / catalog_name(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """The compiled ``.mo`` file of a language."""
    return po_path(lang).with_suffix(".mo")


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, no_location=False, include_lineno=False, omit_header=False)
    return out.getvalue()


def read_catalog(lang: str) -> Catalog:
    """A language's catalog as committed (an empty one if it has none yet)."""
    path = po_path(lang)
    if not path.exists():
        return _stable(Catalog(locale=catalog_name(lang), project="roppyakken", creation_date=FIXED_DATE))
    with path.open("rb") as f:
        return _stable(read_po(f, locale=catalog_name(lang)))


def updated(lang: str, template: Catalog) -> Catalog:
    """A language's catalog brought in line with the template (obsolete messages dropped)."""
    catalog = read_catalog(lang)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.header_comment = f"# {HEADER}\n# Language: {LANGUAGE_NAMES[lang]}."
    catalog.last_translator = TRANSLATORS
    catalog.language_team = LANGUAGE_NAMES[lang]
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.fuzzy = False
    return catalog


def translations(catalog: Catalog) -> dict[str, str]:
    """msgid (after its context and U+0004 if it has one) -> msgstr for every translated message."""
    return {
        message_key(m): m.string
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
    }


def plural_translations(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """singular msgid -> its forms, for every message with a count translated in every form."""
    return {
        m.id[0]: tuple(m.string)
        for m in catalog
        if isinstance(m.id, tuple | list) and isinstance(m.string, tuple | list) and all(m.string)
    }


def catalog_js(template: Catalog, catalogs: dict[str, Catalog]) -> str:
    """The browser's catalog module: the deck, the yaku, the names and every translation."""
    wanted = browser_messages(template)
    messages = {
        lang: {msgid: found[msgid] for msgid in wanted if msgid in found}
        for lang, found in ((lang, translations(catalogs[lang])) for lang in TRANSLATED)
    }
    names = {
        "cards": text.CARD_NAMES,
        "months": list(text.MONTH_NAMES),
        "kinds": text.KIND_NAMES,
        "kindPlurals": text.KIND_PLURALS,
        "yaku": text.YAKU_NAMES,
        "luckyHands": text.LUCKY_HAND_NAMES,
        "luckyConditions": text.LUCKY_HAND_CONDITIONS,
        "presets": text.PRESET_NAMES,
        "presetDescriptions": text.PRESET_DESCRIPTIONS,
        "options": text.OPTION_DESCRIPTIONS,
        "bots": text.BOT_LEVEL_NAMES,
        "botDescriptions": {level: bot_description(level) for level in text.BOT_LEVEL_NAMES},
    }
    deck = [[s, k] for s, k in zip(cards.SLUGS, cards.KIND, strict=True)]
    set_yaku = {slug: cards.slugs_of(mask) for slug, mask in yaku.SET_YAKU.items()}
    names_type = ", ".join(
        f"{k}: " + ("string[]" if k == "months" else "Record<string, string>") for k in names
    )
    exports: list[tuple[str, str, object]] = [
        # (name, its JSDoc type for tsc --checkJs, value)
        ("DECK", "Array<[string, string]>", deck),
        ("KINDS", "string[]", list(cards.KINDS)),
        ("POINTS", "number[]", list(cards.POINTS)),
        ("YAKU_ORDER", "string[]", list(yaku.YAKU_SLUGS)),
        ("LUCKY_HAND_ORDER", "string[]", list(yaku.LUCKY_HAND_SLUGS)),
        ("SET_YAKU", "Record<string, string[]>", set_yaku),
        ("NAMES", "{" + names_type + "}", names),
        ("LANGUAGES", "string[]", list(LANGUAGES)),
        ("LANGUAGE_NAMES", "Record<string, string>", LANGUAGE_NAMES),
        ("MESSAGES", "Record<string, Record<string, string>>", messages),
    ]
    parts = [
        "// Generated by `python -m roppyakken.devtools.i18n` from roppyakken.cards, roppyakken.yaku,",
        "// roppyakken.text and src/roppyakken/locale/*/LC_MESSAGES/roppyakken.po: do not edit by hand.",
        "// The names are English message ids; MESSAGES holds their translations and the browser's own.",
        "",
    ]
    for name, js_type, value in exports:
        parts.append(f"/** @type {{{js_type}}} */\nexport const {name} = {_js(value)};")
    parts.append("")
    return "\n".join(parts)


def _js(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def build() -> dict[Path, bytes]:
    """Every generated file and its content."""
    template = extract()
    out: dict[Path, bytes] = {POT: _po_bytes(template)}
    catalogs = {lang: updated(lang, template) for lang in TRANSLATED}
    for lang, catalog in catalogs.items():
        out[po_path(lang)] = _po_bytes(catalog)
        mo = io.BytesIO()
        write_mo(mo, catalog, use_fuzzy=False)
        out[mo_path(lang)] = mo.getvalue()
    out[CATALOG_JS] = catalog_js(template, catalogs).encode()
    return out


def stale(files: dict[Path, bytes] | None = None) -> list[Path]:
    """The generated files whose committed content differs from what the sources give."""
    files = build() if files is None else files
    return [path for path, data in files.items() if not path.exists() or path.read_bytes() != data]


def main(argv: list[str] | None = None) -> int:
    """Rebuild (or with --check, verify) every generated file."""
    parser = argparse.ArgumentParser(prog="python -m roppyakken.devtools.i18n", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    files = build()
    old = stale(files)
    if args.check:
        for path in old:
            print(f"stale: {path.relative_to(PACKAGE.parents[1])}", file=sys.stderr)
        return 1 if old else 0
    for path in old:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[path])
        print(f"wrote {path.relative_to(PACKAGE.parents[1])}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
