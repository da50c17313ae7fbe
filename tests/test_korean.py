"""Korean particles follow the sound of the word before them (roppyakken.korean).

The same cases run through the browser's static/js/korean.js in test_web_newcomer_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from roppyakken import i18n
from roppyakken.korean import last_sound, particles

# (filled template, expected): names ending in a consonant, a vowel, ㄹ, Latin letters, digits.
CASES = [
    ("지훈이(가) 송학을(를) 냄.", "지훈이 송학을 냄."),
    ("민수이(가) 피을(를) 냄.", "민수가 피를 냄."),
    ("하늘이(가) 뒤집은 매조(으)로 피을(를) 먹음.", "하늘이 뒤집은 매조로 피를 먹음."),
    ("민수은(는) 선언하지 않음.", "민수는 선언하지 않음."),
    ("지훈은(는) 선언하지 않음.", "지훈은 선언하지 않음."),
    ("송학과(와) 피", "송학과 피"),
    ("매조과(와) 피", "매조와 피"),
    ("솔(으)로", "솔로"),
    ("송학(으)로", "송학으로"),
    ("Kenji이(가)", "Kenji가"),
    ("Alice이(가)", "Alice가"),
    ("Tom이(가)", "Tom이"),
    ("Bill(으)로", "Bill로"),
    ("AI이(가)", "AI가"),
    ("LLM이(가)", "LLM이"),
    ("Player 2이(가)", "Player 2가"),
    ("Player 3이(가)", "Player 3이"),
    ("P1(으)로", "P1로"),
    ("10을(를)", "10을"),
    ("민수(선)이(가)", "민수(선)이"),
    ("송학 광 [pine-crane]을(를) 냄", "송학 광 [pine-crane]을 냄"),  # a slug gloss is not read
    ("송학 피 [pine-chaff-1]을(를) 먹음", "송학 피 [pine-chaff-1]를 먹음"),
    ("[pine-crane]을(를)", "[pine-crane]를"),  # a slug alone is read
    ("수 1: []을(를) 먹음", "수 1: []을(를) 먹음"),  # an empty list has no reading
    ("花子이(가)", "花子이(가)"),  # no Korean reading known: both forms stay
    ("(없음)", "(없음)"),  # an ordinary parenthesis is not a particle
]


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
