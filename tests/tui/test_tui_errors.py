"""Errors in the reader's language: the command line's one-line errors and the new-game form's."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from tests.harness.support import require_module, run_cli

BAD_CARD = json.dumps({"players": [{"captures": ["maple-chaff"]}, {}]})


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ja", ("エラー", "プレイヤー1", "存在しない")),
        ("ko", ("오류", "플레이어 1", "알 수 없는 패")),
        ("fr", ("erreur", "joueur 1", "carte inconnue")),
        ("de", ("Fehler", "Spieler 1", "unbekannte Karte")),
    ],
)
def test_cli_errors_are_in_the_language(lang: str, words: tuple[str, ...], tmp_path: Path) -> None:
    code, _, err = run_cli(["score", "--lang", lang], BAD_CARD)
    assert code == 2 and err.count("\n") == 1
    assert all(w in err for w in words), err
    assert "maple-chaff-1" in err  # the slugs stay as typed
    for argv in (["rules", "nope"], ["rules", "--rules-file", str(tmp_path / "none.toml")]):
        code, _, err = run_cli([*argv, "--lang", lang])
        assert code == 2 and err.count("\n") == 1
        assert not any(english in err for english in ("unknown preset", "not found", "error:")), err


def test_english_errors_are_unchanged() -> None:
    code, _, err = run_cli(["score"], BAD_CARD)
    assert code == 2 and err == (
        "roppyakken: error: player 1 captures: unknown card 'maple-chaff' "
        "(did you mean maple-chaff-1 or maple-chaff-2?)\n"
    )


def test_the_new_game_form_says_its_errors_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_module("textual", "pip install 'roppyakken[tui]'")
    from textual.widgets import Input, Static

    from roppyakken.i18n import set_language
    from roppyakken.tui.app import RoppyakkenApp
    from roppyakken.tui.screens.newgame import NewGameScreen
    from roppyakken.tui.testing import wait_until

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def main() -> str:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            screen = app.screen
            assert isinstance(screen, NewGameScreen)
            screen.query_one("#rules-file", Input).value = str(tmp_path / "none.toml")
            screen.action_start()
            await pilot.pause()
            return str(screen.query_one("#error", Static).render())

    set_language("ja")
    try:
        shown = asyncio.run(main())
    finally:
        set_language("en")
    assert "ルールファイル" in shown and "見つからない" in shown, shown


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "--bots", "nobody", "--lang", "ko"], ("오류", "알 수 없는 상대")),
        (["simulate", "--games", "0", "--lang", "fr"], ("erreur", "doit valoir au moins 1")),
        (["arena", "--bots", "random", "--lang", "ja"], ("エラー", "対戦場は2体か3体")),
        (["simulate", "--games", "0", "--lang", "de"], ("Fehler", "muss mindestens 1 sein")),
    ],
)
def test_command_option_errors_are_in_the_language(argv: list[str], words: tuple[str, ...]) -> None:
    if argv[0] == "play":
        require_module("textual", "pip install 'roppyakken[tui]'")
    code, _, err = run_cli(argv)
    assert code == 2 and err.count("\n") == 1
    assert all(w in err for w in words), err


# Each case: a command line (``{records}``: a directory of good records, ``{bad}``: a record
# spoiled by ``SPOIL``) and the words its error names in every language (fields, not prose).
SPOIL: dict[str, tuple[str, object]] = {
    "missing": ("", None),
    "not-json": ("", "{\n"),
    "format": ("format", "other/1"),
    "winner": ("winner", None),
    "totals": ("totals", [1, 2]),
    "card": ("card", "maple-chaff"),
    "turn": ("turn", None),
}
RECORD_ERRORS: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("missing", ["replay", "{bad}"], ("missing.json",)),
    ("not-json", ["replay", "{bad}"], ("not-json.json", "2")),
    ("format", ["replay", "{bad}"], ("roppyakken-record/1", "'other/1'")),
    ("winner", ["replay", "{bad}"], ("bot:greedy", "1", "2")),
    ("totals", ["replay", "{bad}"], ("[1, 2]",)),
    ("card", ["replay", "{bad}"], ("1", "'maple-chaff'", "maple-chaff-1", "maple-chaff-2")),
    ("turn", ["replay", "{bad}"], ("1", "2")),
]
OPTION_ERRORS: list[tuple[list[str], tuple[str, ...]]] = [
    (["arena", "--bots", "master:foo=1,random"], ("master", "'foo'", "ms, iters, infer")),
    (["arena", "--bots", "master:ms=x,random"], ("ms='x'",)),
    (["arena", "--bots", "master:infer=-1,random"], ("infer='-1'", "0")),
    (["simulate", "--bots", "random:x=1"], ("'random'",)),
    (["simulate", "--bots", "random:x"], ("'random:x'", "'x'", "key=value")),
    (["simulate", "--bots", "nobody"], ("'nobody'", "random, greedy, expert, master")),
    (["arena", "--bots", "random,greedy", "--jobs", "0"], ("--jobs", "1")),
    (["arena", "--bots", "random,greedy", "--jobs", "2", "--ray", "auto"], ("--jobs", "--ray")),
    (["ladder", "--levels", "random,random"], ()),
    (["ladder", "--levels", "random,greedy", "--games", "1"], ("--games", "2")),
    (["arena", "--bots", "random,greedy", "--ray", "127.0.0.1:1"], ("--ray",)),
]
SERVE_ERRORS: list[tuple[list[str], tuple[str, ...]]] = [
    (["serve", "--port", "70000"], ("--port", "0", "65535")),
    (["serve", "--bot-delay", "-1"], ("--bot-delay",)),
    (["serve", "--max-connections", "0"], ("--max-connections", "0")),
    (["serve", "--database", "mysql://x"], ("'mysql://x'", "postgresql://…")),
    (["serve", "--trusted-proxy", "nope"], ("--trusted-proxy", "'nope'", "127.0.0.1", "10.0.0.0/24")),
    (["serve", "--redis", "redis://127.0.0.1:1/0"], ("--redis", "--database", "SQLite")),
]
PREFIX = {
    "ja": "roppyakken: エラー: ",
    "ko": "roppyakken: 오류: ",
    "fr": "roppyakken : erreur : ",
    "de": "roppyakken: Fehler: ",
    "zh-Hant": "roppyakken：錯誤：",
}
SCRIPT = {
    "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7a3]"),
    "zh-Hant": re.compile(r"[\u4e00-\u9fff]"),
}
FALLBACKS = ("(가)", "(이)", "(를)", "(을)", "(는)", "(은)", "(과)", "(와)", "(으)로")


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game's record, and copies spoiled in each way of ``SPOIL``."""
    where = tmp_path_factory.mktemp("records")
    code, _, err = run_cli(
        ["simulate", "--games", "1", "--seed", "3", "--bots", "greedy", "--records", str(where)]
    )
    assert code == 0, err
    good = json.loads((where / "game-000000.json").read_text(encoding="utf-8"))
    for name, (key, value) in SPOIL.items():
        record = json.loads(json.dumps(good))
        if key == "format":
            record["format"] = value
        elif key == "winner":
            record["winner"] = 1 - (record["winner"] or 0)
        elif key == "totals":
            record["rounds"][0]["totals"] = value
        elif key == "card":
            record["rounds"][0]["hands"][0][0] = value
        elif key == "turn":
            record["rounds"][0]["dealer"] = 1 - record["rounds"][0]["dealer"]
        if name == "not-json":
            (where / f"{name}.json").write_text(str(value), encoding="utf-8")
        elif name != "missing":
            (where / f"{name}.json").write_text(json.dumps(record), encoding="utf-8")
    return where


def _trigrams(line: str, fields: tuple[str, ...]) -> set[tuple[str, ...]]:
    for field in sorted(fields, key=len, reverse=True):
        line = line.replace(field, " ")
    words = re.findall(r"[a-z]+", line.lower())
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


def _assert_translated(argv: list[str], fields: tuple[str, ...]) -> None:
    """The error of ``argv`` is one line in each language, naming ``fields``, with no English prose."""
    code, _, english = run_cli(argv)
    assert code == 2 and english.count("\n") == 1, english
    assert english.startswith("roppyakken: error: ") and all(f in english for f in fields), english
    prose = _trigrams(english.removeprefix("roppyakken: error: "), fields)
    for lang, prefix in PREFIX.items():
        code, _, err = run_cli([*argv, "--lang", lang])
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith(prefix) and all(f in err for f in fields), (lang, err)
        message = err.removeprefix(prefix)
        if lang in SCRIPT:
            assert SCRIPT[lang].search(message), (lang, err)
        assert not prose & _trigrams(message, fields), (lang, english, err)  # no English left
        assert not any(form in err for form in FALLBACKS), err


@pytest.mark.parametrize(("name", "argv", "fields"), RECORD_ERRORS, ids=[c[0] for c in RECORD_ERRORS])
def test_record_errors_are_in_the_language(
    name: str, argv: list[str], fields: tuple[str, ...], records: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(records)  # the file is named as typed, without the temporary directory's words
    _assert_translated([a.replace("{bad}", f"{name}.json") for a in argv], fields)


@pytest.mark.parametrize(("argv", "fields"), OPTION_ERRORS, ids=[" ".join(c[0]) for c in OPTION_ERRORS])
def test_bot_and_batch_errors_are_in_the_language(argv: list[str], fields: tuple[str, ...]) -> None:
    _assert_translated(argv, fields)


@pytest.mark.parametrize(("argv", "fields"), SERVE_ERRORS, ids=[" ".join(c[0]) for c in SERVE_ERRORS])
def test_serve_errors_are_in_the_language(argv: list[str], fields: tuple[str, ...]) -> None:
    require_module("uvicorn", "pip install 'roppyakken[web]'")
    _assert_translated(argv, fields)


def test_a_records_round_is_named_in_the_language(records: Path) -> None:
    bad = str(records / "totals.json")
    assert run_cli(["replay", bad, "--lang", "ja"])[2].startswith("roppyakken: エラー: 第1回：")
    assert run_cli(["replay", bad, "--lang", "ko"])[2].startswith("roppyakken: 오류: 1판: ")
    assert run_cli(["replay", bad, "--lang", "fr"])[2].startswith("roppyakken : erreur : manche 1 : ")


@pytest.mark.parametrize(
    ("lang", "words"), [("ja", "観戦者"), ("ko", "관전자"), ("fr", "spectateur"), ("de", "Zuschauer")]
)
def test_a_hint_refused_says_why_in_the_language(lang: str, words: str) -> None:
    """The hint panel shows ``error.translated()``: a hint nobody can have, refused in the language."""
    from roppyakken.ai.hint import hint
    from roppyakken.engine import Game
    from roppyakken.errors import RoppyakkenError
    from roppyakken.i18n import set_language
    from roppyakken.rules import preset
    from roppyakken.view import view_of

    game = Game(preset("classic"), 2, 1)
    with pytest.raises(RoppyakkenError) as refused:
        hint(view_of(game, None))
    set_language(lang)
    try:
        shown = refused.value.translated()
    finally:
        set_language("en")
    assert words in shown and "spectator" not in shown, shown


SEED_AND_OPTION_ERRORS: list[tuple[list[str], tuple[str, ...]]] = [
    (["--bogus"], ("--bogus",)),
    (["--bogus=3", "score"], ("--bogus=3",)),
    (["simulate", "--seed", "-1"], ("--seed", "-1", "9223372036854775807")),
    (
        ["arena", "--bots", "random,greedy", "--seed", "12345678901234567890123"],
        ("--seed", "9223372036854775807"),
    ),
    (["simulate", "--seed", "9223372036854775808"], ("--seed", "9223372036854775808")),
]


@pytest.mark.parametrize(
    ("argv", "fields"), SEED_AND_OPTION_ERRORS, ids=[" ".join(c[0]) for c in SEED_AND_OPTION_ERRORS]
)
def test_unknown_options_and_out_of_range_seeds_are_named(argv: list[str], fields: tuple[str, ...]) -> None:
    """``roppyakken --bogus`` names the option (not a missing command); a seed outside 0 to 2**63-1
    (what a random game's seed and the server's database hold) is refused, naming the bound."""
    _assert_translated(argv, fields)


def test_the_largest_seed_is_taken() -> None:
    code, out, err = run_cli(["simulate", "--games", "1", "--seed", "9223372036854775807"])
    assert code == 0, err
    assert out.startswith("1 game, ")  # one game: the singular


def test_file_errors_say_the_reason_and_the_place_in_the_language(tmp_path: Path) -> None:
    """The operating system's and the TOML parser's messages are translated, the place kept; JSON
    errors say "at" once and call standard input by a translated word."""
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "classic"\nfoo = bar\n', encoding="utf-8")
    record = tmp_path / "open.json"
    record.write_text('{\n "format": "roppyakken-record/1", "players": ["a\n', encoding="utf-8")
    cases = [
        (["simulate", "--rules-file", str(toml)], "", ("2", "7")),
        (["simulate", "--rules-file", str(tmp_path)], "", ()),
        (["replay", str(tmp_path)], "", ()),
        (["replay", str(record)], "", ("2",)),
        (["score"], '{"players": [\n  "abc', ("2", "3")),
    ]
    english = [run_cli(argv, stdin)[2] for argv, stdin, _ in cases]
    assert "invalid value (at line 2, column 7)" in english[0], english[0]
    assert english[1].endswith(": it is a directory\n") and english[2].endswith(": it is a directory\n")
    assert " at at " not in english[3] and " at at " not in english[4], english[3:]
    for lang in ("ja", "ko", "fr", "de", "zh-Hant"):
        for (argv, stdin, fields), said in zip(cases, english, strict=True):
            code, _, err = run_cli([*argv, "--lang", lang], stdin)
            assert code == 2 and err.count("\n") == 1 and err.startswith(PREFIX[lang]), err
            assert all(f in err for f in fields), (lang, err)
            words = _trigrams(said.removeprefix("roppyakken: error: "), (str(tmp_path), *fields))
            assert not words & _trigrams(err, (str(tmp_path), *fields)), (lang, said, err)
            for english_word in ("input", "Invalid", "directory", "Unterminated", "Expecting"):
                assert english_word not in err.replace(str(tmp_path), ""), (lang, err)
