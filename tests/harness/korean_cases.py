"""Korean words and phrases with the particle each takes, checked in Python and in the browser's script."""

from __future__ import annotations

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
