"""Korean particles follow the sound of the word before them (roppyakken.korean).

The same cases run through the browser's static/js/korean.js in test_web_newcomer_browser.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from roppyakken import i18n
from roppyakken.korean import last_sound, particles
from tests.harness.korean_cases import CASES


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_particles_follow_the_last_sound(text: str, expected: str) -> None:
    assert particles(text) == expected


def test_last_sound() -> None:
    assert [last_sound(w) for w in ("가", "각", "갈", "Kenji", "Tom", "Bill", "7", "9", "花", "")] == [
        "vowel",
        "final",
        "rieul",
        "vowel",
        "final",
        "rieul",
        "rieul",
        "vowel",
        None,
        None,
    ]


def test_korean_lines_of_the_game_choose_their_particles() -> None:
    i18n.set_language("ko")
    line = i18n.fill("{name} declares nothing.", name="민수")
    assert line == "민수는 선언하지 않음.", line
    line = i18n.fill("{name} plays {card} and takes {taken}.", name="Kenji", card="송학", taken="피")
    assert "(" not in line and line.startswith("Kenji가 송학을"), line
    i18n.set_language("en")
    assert i18n.fill("{name} declares nothing.", name="Tom") == "Tom declares nothing."


def test_the_terminal_log_chooses_its_particles() -> None:
    from roppyakken.tui import text as t

    i18n.set_language("ko")
    line = t.say(i18n._("{name} plays {card} and takes {taken}."), "민수", card="송학", taken="피")
    assert line == "민수가 송학을 내어 피를 먹음.", line


def test_the_terminals_templates_choose_their_particles_when_filled() -> None:
    from roppyakken.tui import text as t

    i18n.set_language("ko")
    assert t.GAME_OVER_TITLE.format(name="민수") == "민수가 대국에서 승리!"
    assert t.GAME_OVER_TITLE.format(name="지훈") == "지훈이 대국에서 승리!"
    i18n.set_language("en")
    assert t.GAME_OVER_TITLE.format(name="Tom") == "Tom wins the game!"


def _korean_catalog() -> list[tuple[str, str]]:
    from babel.messages.pofile import read_po

    from roppyakken.devtools.i18n import po_path

    with po_path("ko").open("rb") as f:
        catalog = read_po(f, locale="ko")
    return [(m.id, m.string) for m in catalog if isinstance(m.id, str) and m.id and isinstance(m.string, str)]


# A Hangul word, maybe a parenthesis after it (the particle still belongs to the word), then a
# particle whose form depends on that word, ending the word group.  이/가, 은/는 and (으)로 also
# end ordinary words (차이, 참가, 없는, 경로), so only the unambiguous pairs are checked after
# any word; after a name of the game (a card, a yaku, a month...) every particle is checked.
_ASIDE = r"(?:\((?!으\))[^()]*\))?"  # a parenthesis, not the (으) of (으)로
_ANY_WORD = re.compile(
    r"(?<![\uac00-\ud7a3])([\uac00-\ud7a3]+)" + _ASIDE + r"(을|를|과|와)(?![\uac00-\ud7a3(])"
)
_AFTER_NAME = _ASIDE + r"(이나|나|으로|로|을|를|과|와|이|가|은|는)(?![\uac00-\ud7a3(])"
_FITS = {
    "을": "final", "를": "vowel", "과": "final", "와": "vowel", "이": "final", "가": "vowel",
    "은": "final", "는": "vowel", "이나": "final", "나": "vowel", "으로": "final", "로": "vowel",
}  # fmt: skip


def _fits(word: str, particle: str) -> bool:
    sound = last_sound(word)
    if sound is None:
        return True
    if particle in ("으로", "로"):
        return (sound == "final") == (particle == "으로")
    return (sound != "vowel") == (_FITS[particle] == "final")


def _korean_names() -> set[str]:
    from roppyakken import text

    i18n.set_language("ko")
    names = {
        *(i18n._(n) for n in text.CARD_NAMES.values()),
        *(i18n._(n) for n in text.YAKU_NAMES.values()),
        *(i18n._(n) for n in text.LUCKY_HAND_NAMES.values()),
        *(i18n._(n) for n in text.MONTH_NAMES),
        *(i18n._(n) for n in text.KIND_NAMES.values()),
        *(i18n._(n) for n in text.PRESET_NAMES.values()),
        i18n._("Roppyakken"),
    }
    return {n for n in names if re.fullmatch(r"[\uac00-\ud7a3 ]+", n)}


def test_the_korean_catalog_has_no_particle_that_misfits_its_word(english_after: None) -> None:
    names = sorted(_korean_names(), key=len, reverse=True)
    assert "욘코" in names and "송학 광" in names
    after_name = re.compile(r"(?<![\uac00-\ud7a3])(" + "|".join(map(re.escape, names)) + ")" + _AFTER_NAME)
    wrong = []
    for msgid, msgstr in _korean_catalog():
        for found in (*_ANY_WORD.finditer(msgstr), *after_name.finditer(msgstr)):
            if not _fits(found.group(1), found.group(2)):
                wrong.append(f"{found.group(0)!r} in {msgid!r}")
    assert not wrong, wrong


def test_the_korean_catalog_fills_no_name_before_a_fixed_particle() -> None:
    # A name filled into {field} needs the two-form particle (이(가), 을(를)...) that the chooser resolves.
    fixed = re.compile(r"\{\w+\}(이나|나|으로|로|을|를|과|와|이|가|은|는)(?![\uac00-\ud7a3(])")
    wrong = [msgstr for _msgid, msgstr in _korean_catalog() if fixed.search(msgstr)]
    assert not wrong, wrong


def test_the_korean_game_has_one_name() -> None:
    # Korean players and Korean Wikipedia's 육백 article call the game 육백 (六百).
    wrong = [msgstr for _msgid, msgstr in _korean_catalog() if "육백간" in msgstr]
    assert not wrong, wrong


def test_the_pronouns_take_their_subject_form() -> None:
    # 나 (the terminal game's "You" in Korean) with 이(가) is 내가, not 나가; a name ending in 나 is not.
    assert particles("나이(가) 욘코(으)로 즉승") == "내가 욘코로 즉승"
    assert particles("판: 나이(가) 이김") == "판: 내가 이김"
    assert particles("하나이(가) 이김") == "하나가 이김"
    assert particles("나은(는) 이김") == "나는 이김"
