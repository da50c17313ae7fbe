"""Each catalog is written in its own language's script.

A translation pasted into the wrong catalog (a Japanese line in the Korean or French file)
passes every placeholder check; what gives it away is the script.  Korean and French
entries hold no kana, Japanese and French entries no hangul, French entries no Han
characters, unless the English message itself holds them (the 六百間 of the tagline).
"""

from __future__ import annotations

import re

import pytest

from roppyakken.devtools import i18n as build

SCRIPTS = {
    "kana": re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]"),
    "hangul": re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]"),
    "han": re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"),
}
FOREIGN = {
    "ja": ("hangul",),
    "ko": ("kana",),
    "fr": ("kana", "hangul", "han"),
    "pt-BR": ("kana", "hangul", "han"),
    "es": ("kana", "hangul", "han"),
    "de": ("kana", "hangul", "han"),
    "zh-Hant": ("kana", "hangul"),
}


def foreign_scripts(lang: str, msgid: str, msgstr: str) -> list[str]:
    """The scripts of ``msgstr`` foreign to ``lang`` and absent from its English ``msgid``."""
    return [
        name for name in FOREIGN[lang] if SCRIPTS[name].search(msgstr) and not SCRIPTS[name].search(msgid)
    ]


@pytest.mark.parametrize("lang", sorted(FOREIGN))
def test_every_entry_is_in_its_languages_script(lang: str) -> None:
    wrong = [
        f"{msgid!r} -> {msgstr!r} ({', '.join(found)})"
        for msgid, msgstr in build.translations(build.read_catalog(lang)).items()
        if (found := foreign_scripts(lang, msgid, msgstr))
    ]
    assert wrong == [], f"{lang} entries in a foreign script:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("lang", "msgstr", "found"),
    [
        ("ko", "対局へ移動", ["kana"]),
        ("fr", "対局へ移動", ["kana", "han"]),
        ("ja", "대국으로 이동", ["hangul"]),
        ("ko", "대국으로 이동", []),
        ("fr", "Aller à la partie", []),
        ("de", "Zur Partie springen", []),
    ],
)
def test_the_check_sees_a_foreign_script(lang: str, msgstr: str, found: list[str]) -> None:
    assert foreign_scripts(lang, "Skip to the game", msgstr) == found


# One word per language for the instant win, wherever it is said.
INSTANT_WIN = {
    "ja": "即勝ち",
    "ko": "즉승",
    "fr": r"victoires? immédiates?",
    "pt-BR": r"vitórias? imediatas?",
    "es": r"victorias? inmediatas?",
    "de": r"Sofortsiege?",
    "zh-Hant": "即勝",
}


@pytest.mark.parametrize("lang", sorted(INSTANT_WIN))
def test_the_instant_win_has_one_name_per_language(lang: str) -> None:
    term = INSTANT_WIN[lang]
    said = {
        msgid: msgstr
        for msgid, msgstr in build.translations(build.read_catalog(lang)).items()
        if re.search(r"\binstant wins?\b", msgid, re.IGNORECASE)
    }
    assert len(said) >= 5
    other = {msgid: msgstr for msgid, msgstr in said.items() if not re.search(term, msgstr, re.IGNORECASE)}
    assert other == {}, f"{lang}: the instant win is not called {term!r} in {other}"
