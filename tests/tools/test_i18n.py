"""Languages and the one catalog.

Every catalog has every message and keeps every placeholder; the generated
files (.pot, .po, .mo and the browser's catalog.js) are not stale; the browser's
deck and yaku come from the engine; the command line speaks the language asked
for by ``--lang`` or the locale.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from roppyakken import cards, i18n, text, yaku
from roppyakken.devtools import i18n as build
from roppyakken.errors import Phrase, RoppyakkenError
from tests.harness.support import ROOT, run_cli

STATIC_JS = ROOT / "src" / "roppyakken" / "server" / "static" / "js"
REBUILD = "python -m roppyakken.devtools.i18n"
FORMAT_FIELD = re.compile(r"\{(\w*)\}")
PERCENT_FIELD = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[sdrif%]")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test leaves the process in English, as it found it."""
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return build.extract()


def _placeholders(message: str) -> tuple[list[str], list[str]]:
    return sorted(FORMAT_FIELD.findall(message)), sorted(m.group(0) for m in PERCENT_FIELD.finditer(message))


_run = run_cli


# ---------------------------------------------------------------- catalogs


def test_the_template_holds_the_names_and_the_browser_strings(template: Catalog) -> None:
    ids = {m.id for m in template if m.id}
    for names in (text.CARD_NAMES, text.YAKU_NAMES, text.LUCKY_HAND_NAMES, text.PRESET_DESCRIPTIONS):
        assert set(names.values()) <= ids
    assert set(text.MONTH_NAMES) <= ids
    assert "{who} plays {card}, taking {taken}." in ids  # from static/js/text.js
    assert "show this help message and exit" in ids  # argparse's own words


@pytest.mark.parametrize("lang", build.TRANSLATED)
def test_every_catalog_translates_every_message(lang: str, template: Catalog) -> None:
    catalog = build.read_catalog(lang)
    found = {**build.translations(catalog), **build.plural_translations(catalog)}
    missing = [build.message_key(m) for m in template if m.id and build.message_key(m) not in found]
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]} (run {REBUILD})"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy translations {fuzzy[:3]}"
    problems = [(message.id, errors) for message, errors in catalog.check()]
    assert not problems, f"{lang}: {problems[:3]}"


@pytest.mark.parametrize("lang", build.TRANSLATED)
def test_no_placeholder_is_lost_or_invented(lang: str) -> None:
    catalog = build.read_catalog(lang)
    for msgid, msgstr in build.translations(catalog).items():
        assert _placeholders(msgid) == _placeholders(msgstr), f"{lang}: {msgid!r} -> {msgstr!r}"
    plural = {m.id[0]: m.id[1] for m in catalog if isinstance(m.id, tuple | list)}
    for singular, forms in build.plural_translations(catalog).items():
        for form in forms:  # every form fills the same fields as the English plural
            assert _placeholders(plural[singular]) == _placeholders(form), f"{lang}: {singular!r} -> {form!r}"


def test_a_count_chooses_the_form_of_its_language() -> None:
    """Messages with a count take the form for it: one or several in English and French (0 and 1
    are singular in French), one form in Japanese."""
    one, many = "{n} game", "{n} games"
    assert [i18n.nfill(one, many, n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    i18n.set_language("fr")
    assert [i18n.nfill(one, many, n) for n in (0, 1, 2)] == ["0 partie", "1 partie", "2 parties"]
    i18n.set_language("ja")
    assert i18n.nfill(one, many, 1) == i18n.nfill(one, many, 2).replace("2", "1")


def test_the_terminal_says_counts_in_their_form() -> None:
    from roppyakken.tui import text as t

    assert t.REVIEW_LOST.format(points="1", pct=5).strip().startswith("1 point given up")
    assert t.REVIEW_LOST.format(points="12", pct=5).strip().startswith("12 points given up")
    assert [t.STRIP_POINTS.format(n=n) for n in (1, 50)] == ["1 pt", "50 pts"]
    i18n.set_language("fr")
    match = t.RULES_MATCH["first-to"]
    assert "**1** partie gagne" in match.format(count=1) and "**3** parties gagne" in match.format(count=3)


def test_placeholders_are_named_so_translations_may_reorder_them(template: Catalog) -> None:
    for m in template:
        if m.id and isinstance(m.id, str):
            assert "" not in FORMAT_FIELD.findall(m.id), f"positional field in {m.id!r}"


def test_generated_files_are_not_stale() -> None:
    old = build.stale()
    assert not old, f"stale: {[str(p.relative_to(ROOT)) for p in old]}; run {REBUILD}"


def test_the_staleness_check_sees_a_changed_translation() -> None:
    files = build.build()
    po = build.po_path("ja")
    changed = {po: files[po] + b"\n# edited\n"}
    assert build.stale(changed) == [po]


def test_mo_files_are_what_the_game_reads() -> None:
    i18n.set_language("ja")
    assert text.card_name("pine-crane") == "松に鶴"
    assert text.month_name(11) == "柳"
    i18n.set_language("ko")
    assert text.card_name("pine-crane").startswith("송학")
    assert text.kind_name("chaff") == "피"
    i18n.set_language("fr")
    assert text.yaku_name("four-brights").startswith("Quatre Lumières")
    i18n.set_language("en")
    assert text.card_name("pine-crane") == "Pine Crane"


# ---------------------------------------------------------------- the browser's copy


def _catalog_js() -> dict[str, object]:
    source = (STATIC_JS / "catalog.js").read_text()
    found: dict[str, object] = {}
    for match in re.finditer(r"^export const (\w+) = (.*?);$", source, flags=re.M | re.S):
        found[match.group(1)] = json.loads(match.group(2))
    return found


def test_browser_deck_and_yaku_order_are_the_engines() -> None:
    js = _catalog_js()
    assert js["DECK"] == [[s, k] for s, k in zip(cards.SLUGS, cards.KIND, strict=True)]
    assert js["YAKU_ORDER"] == list(yaku.YAKU_SLUGS)
    assert js["LUCKY_HAND_ORDER"] == list(yaku.LUCKY_HAND_SLUGS)
    set_yaku = js["SET_YAKU"]
    assert isinstance(set_yaku, dict)
    assert {s: cards.mask_of(cards.card_id(c) for c in cs) for s, cs in set_yaku.items()} == yaku.SET_YAKU
    names = js["NAMES"]
    assert isinstance(names, dict)
    assert names["cards"] == text.CARD_NAMES and names["luckyConditions"] == text.LUCKY_HAND_CONDITIONS
    assert js["LANGUAGES"] == list(i18n.LANGUAGES)


def test_browser_modules_keep_no_copy_of_the_deck_or_the_names() -> None:
    for name in ("deck.js", "yaku.js", "text.js"):
        source = (STATIC_JS / name).read_text()
        assert "pine-chaff-1" not in source and "paulownia-yellow" not in source, name
        assert "Four Brights (Shik" not in source and "Bush clover" not in source, name


def test_browser_sentences_are_whole_templates() -> None:
    """No English words in template literals or string concatenation in text.js: t() everywhere."""
    source = (STATIC_JS / "text.js").read_text()
    for literal in re.findall(r"`([^`]*)`", source):
        words = re.sub(r"\$\{[^}]*\}", "", literal)
        assert not re.search(r"[A-Za-z]{2,}", words), f"sentence built in a template literal: `{literal}`"
    assert not re.search(r"\"\s*\+\s*\"|t\([^)]*\)\s*\+\s*\"", source)


def test_python_sentences_are_not_concatenated() -> None:
    for name in build.PYTHON_SOURCES:
        source = (ROOT / "src" / "roppyakken" / name).read_text()
        assert not re.search(r"(?:_|fill)\([^()]*\)\s*\+\s*[\"'_]", source), name


# ---------------------------------------------------------------- language choice


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANGUAGE": "zh_HK"}, "zh-Hant"),
        ({"LANG": "sv_SE.UTF-8"}, "en"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANG": "pt_PT.UTF-8"}, "pt-BR"),
        ({"LANG": "es_MX.UTF-8"}, "es"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "sv:ja"}, "ja"),
        ({"LC_ALL": "C", "LANGUAGE": "ja"}, "en"),
    ],
)
def test_language_from_the_locale(env: dict[str, str], expected: str) -> None:
    assert i18n.language_from_env(env) == expected


def test_an_unknown_language_is_refused_clearly() -> None:
    with pytest.raises(RoppyakkenError, match="unknown language 'xx'"):
        i18n.set_language("xx")
    code, out, err = _run(["rules", "--lang", "xx"])
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown language 'xx'" in err


BRIGHTS = json.dumps(
    {
        "players": [
            {"captures": ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix", "maple-deer"]},
            {"captures": ["clover-boar"]},
        ]
    }
)


def test_score_explain_in_japanese() -> None:
    code, out, _ = _run(["score", "--explain", "--lang", "ja"], BRIGHTS)
    assert code == 0
    assert "松に鶴 50" in out and "紅葉に鹿 10" in out and "四光" in out and "即勝ち" in out
    assert "round score" not in out and "Instant win" not in out and "Pine" not in out


def test_rules_in_korean_and_french() -> None:
    code, out, _ = _run(["rules", "--lang", "ko"])
    assert code == 0 and "비광이 조커" in out and "standard" not in out
    code, out, _ = _run(["--lang=fr", "rules", "classic"])
    assert code == 0 and "Classique" in out and "nombres de joueurs" in out


def test_help_in_japanese_with_argparse_words() -> None:
    code, out, _ = _run(["score", "--help", "--lang", "ja"])
    assert code == 0 and "使い方" in out and "読みやすい内訳" in out and "show this help" not in out


def test_language_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    code, out, _ = _run(["score", "--explain"], BRIGHTS, monkeypatch)
    assert code == 0 and "Grue du Pin 50" in out and "Victoire immédiate" in out
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, _ = _run(["score", "--explain"], BRIGHTS, monkeypatch)
    assert code == 0 and "Pine Crane 50" in out and "Instant win" in out


def test_list_phrase_follows_the_language() -> None:
    assert text.list_phrase(["a", "b", "c"]) == "a, b and c"
    i18n.set_language("ja")
    assert text.list_phrase(["a", "b", "c"]) == "a、bとc"
    assert text.list_phrase([]) == "なし"


def test_the_game_reads_catalogs_without_babel() -> None:
    """Babel builds the catalogs; the game reads the compiled ones with the standard library."""
    import subprocess

    code = (
        "import sys; from roppyakken.cli import main; from roppyakken import text, i18n; "
        "i18n.set_language('ja'); assert text.card_name(0) == '松に鶴'; "
        "main(['rules', '--lang', 'ko']); assert 'babel' not in sys.modules, 'babel imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "비광이 조커" in done.stdout


def test_replay_and_simulate_in_japanese(tmp_path: Path) -> None:
    code, _, _ = _run(["simulate", "--games", "1", "--records", str(tmp_path), "--lang", "ja"])
    assert code == 0
    code, out, _ = _run(["replay", str(tmp_path / "game-000000.json"), "--lang", "ja"])
    assert code == 0 and "第1回" in out and "検証済み" in out and "を取る" in out
    assert not re.search(r"\b(plays|turns up|takes|declares|totals|verified)\b", out)
    code, out, _ = _run(["simulate", "--games", "2", "--lang", "ko"])
    assert code == 0 and "2국" in out and "판 평균 점수" in out
    # the preset by its name, seats numbered from 1
    code, out, _ = _run(["simulate", "--games", "1", "--lang", "ja"])
    assert code == 0 and "ルール 標準" in out and "classic" not in out and "0番席" not in out


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ja", ("山札からめくる", "取らなければならない")),
        ("fr", ("retournée de la pioche", "elle doit prendre")),
    ],
)
def test_targets_explain_and_cards_speak_the_language(lang: str, words: tuple[str, str]) -> None:
    """``--lang`` works on every command (README): ``targets --explain`` and ``cards`` too."""
    doc = {"table": ["pine-crane", "pine-chaff-1", "pine-chaff-2"], "card": "pine-ribbon", "source": "pile"}
    code, out, _ = _run(["targets", "--explain", "--lang", lang], json.dumps(doc))
    assert code == 0 and all(w in out for w in words)
    assert "pine-crane + pine-chaff-1 + pine-chaff-2" in out  # cards by slug, as the documents name them
    assert not re.search(r"\b(turned up|must take|table of)\b", out)
    code, out, _ = _run(["cards", "--lang", lang])
    first = out.splitlines()[0]
    assert code == 0 and len(out.splitlines()) == 48 and first.startswith("pine-crane ")
    assert ("松に鶴" in first and "光" in first) if lang == "ja" else "lumière" in first
    assert "Pine" not in out and "bright" not in out
    code, out, _ = _run(["cards", "--help", "--lang", lang])
    assert code == 0 and "print the cards as JSON" not in out


def test_arena_and_ladder_tables_speak_the_language() -> None:
    """The arena's and the ladder's tables (and the levels' descriptions) under ``--lang``."""
    code, out, err = _run(["arena", "--bots", "greedy,random", "--games", "2", "--seed", "1", "--lang", "ja"])
    assert code == 0 and "勝率" in out and "回平均点差" in out and "判断時間" in out
    assert "2/2局、経過" in err and "elapsed" not in err  # the progress line too
    assert not re.search(r"\b(games|deals|win rate|margin/round|decision time)\b", out)
    code, out, _ = _run(["ladder", "--levels", "random,greedy", "--games", "2", "--lang", "fr"])
    assert code == 0 and "classement" in out and "Prend le plus de points" in out and "contre" in out
    assert not re.search(r"\b(rating|pairs|Grabs|games per pair)\b", out)


KOREAN_FALLBACKS = ("(가)", "(이)", "(를)", "(을)", "(는)", "(은)", "(과)", "(와)", "(으)로")


def test_korean_commands_choose_every_particle(tmp_path: Path) -> None:
    """Every Korean line of ``replay``, ``score``/``targets --explain``, ``rules`` and an error keeps
    one form of each particle, chosen by the word before it (a name ending in a vowel, a consonant)."""
    code, _, _ = _run(
        ["simulate", "--games", "1", "--seed", "3", "--bots", "greedy", "--records", str(tmp_path)]
    )
    assert code == 0
    record = json.loads((tmp_path / "game-000000.json").read_text(encoding="utf-8"))
    record["players"] = ["민수", "지훈"]  # 민수 ends in a vowel, 지훈 in a consonant
    named = tmp_path / "named.json"
    named.write_text(json.dumps(record), encoding="utf-8")
    one_target = {"table": ["pine-chaff-1", "plum-chaff-1"], "card": "pine-crane"}
    two_targets = {"table": ["pine-chaff-1", "pine-chaff-2"], "card": "pine-ribbon", "source": "pile"}
    runs = [
        (["replay", str(named)], ""),
        (["score", "--explain"], BRIGHTS),
        (["targets", "--explain"], json.dumps(one_target)),
        (["targets", "--explain"], json.dumps(two_targets)),
        (["rules"], ""),
        (["rules", "korean-high"], ""),
        (["replay", str(tmp_path / "none.json")], ""),
    ]
    shown = []
    for argv, stdin in runs:
        _, out, err = _run([*argv, "--lang", "ko"], stdin)
        shown.append(out + err)
        for line in (out + err).splitlines():
            assert not any(form in line for form in KOREAN_FALLBACKS), (argv, line)
    assert "민수가 " in shown[0] and "지훈이 " in shown[0]
    assert (
        "송학 광 [pine-crane]을 " in shown[2] and "송학 피 [pine-chaff-1]를 " in shown[2]
    )  # names, not slugs
    assert "none.json'을 찾을 수 없습니다" in shown[6]


def test_an_errors_korean_particles_are_chosen_wherever_it_is_shown() -> None:
    """The new-game form and the hint show ``error.translated()``: its particles are chosen too."""
    i18n.set_language("ko")
    shown = RoppyakkenError(i18n.N_("rules file '{path}' not found"), path="house.toml").translated()
    assert shown == "규칙 파일 'house.toml'을 찾을 수 없습니다"
    phrase = Phrase(i18n.N_("{where} captures"), where=Phrase(i18n.N_("player {n}"), n=2)).translated()
    assert not any(form in phrase for form in KOREAN_FALLBACKS), phrase


@pytest.mark.parametrize("lang", build.TRANSLATED)
def test_every_card_name_has_its_grammatical_gender(lang: str) -> None:
    """The browser makes a message agree with a card (French "posé"/"posée"): each card name's gender
    is a message of the catalog, one of the known values, and never "none" in French."""
    found = build.translations(build.read_catalog(lang))
    genders = {name: found.get(f"{build.GENDER}\x04{name}") for name in text.CARD_NAMES.values()}
    assert set(genders.values()) <= set(build.GENDERS), genders
    if lang == "fr":
        assert "none" not in genders.values()
        assert genders["Cherry Curtain"] == "masculine" and genders["Pine Crane"] == "feminine"


def test_french_browser_text_keeps_french_typography(template: Catalog) -> None:
    """In the browser's own French messages: a narrow no-break space before : ; ! ? and %, and the
    typographic apostrophe ’ (never a straight ')."""
    js = {p.relative_to(build.PACKAGE).as_posix() for p in build.js_sources()}
    browser_only = {
        build.message_key(m)
        for m in template
        if m.id and m.locations and all(where in js for where, _ in m.locations)
    }
    found = build.translations(build.read_catalog("fr"))
    wrong = [
        (key, msgstr)
        for key, msgstr in found.items()
        if key in browser_only
        and (
            re.search(r"\w'\w", msgstr)
            or re.search(r"(?:[ \u00a0]|(?<=[^\s\u202f]))[:;!?%](?=\s|$|\))", msgstr)
        )
    ]
    assert wrong == [], wrong[:5]


@pytest.mark.parametrize(
    ("lang", "shown"), [("en", "A, B, C"), ("ja", "A、B、C"), ("zh-Hant", "A、B、C"), ("de", "A, B, C")]
)
def test_a_list_of_names_takes_the_languages_separator(lang: str, shown: str) -> None:
    """The terminal's lists of cards and yaku (the log, the dialogs, the hints) are enumerated with
    the language's own separator: Japanese and Chinese write 、."""
    from roppyakken.text import enumeration

    try:
        i18n.set_language(lang)
        assert enumeration(["A", "B", "C"]) == shown and enumeration(["A"]) == "A" and enumeration([]) == ""
    finally:
        i18n.set_language("en")
