"""Korean particles chosen by the sound they follow.

A Korean template cannot know the name or card it will hold, so the catalog writes both
forms of a particle: ``{name}이(가)``, ``{card}을(를)``, ``{name}은(는)``, ``{a}과(와)``,
``{card}(으)로``.  Once the template is filled, :func:`particles` keeps the one form that
fits the word before it: after a final consonant (batchim) 이, 을, 은, 과, 으로; after a
vowel 가, 를, 는, 와, 로; after a final ㄹ, 로.  Digits are read as Korean numbers, Latin
words by a rough English reading; after anything else both forms stay.  The pronouns 나,
너 and 저 with 가 make 내가, 네가, 제가.  The browser does the same in ``static/js/korean.js``
(but for the pronouns: the terminal game's "You", 나, is not the browser's).
"""

from __future__ import annotations

import re
from typing import Final

_PARTICLE: Final = re.compile(
    r"이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로"
)
# (after a final consonant, after a vowel)
_FORMS: Final = {
    "이(가)": ("이", "가"),
    "가(이)": ("이", "가"),
    "을(를)": ("을", "를"),
    "를(을)": ("을", "를"),
    "은(는)": ("은", "는"),
    "는(은)": ("은", "는"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
}
_SKIPPED: Final = set(" )]}」』\"'’”»›")
_RIEUL: Final = 8  # ㄹ among the 28 finals of a Hangul syllable (0: none)
# The last sound of a digit read in Korean: 영 일 이 삼 사 오 육 칠 팔 구 (and 십, 백, 천, 만).
_DIGIT: Final = {
    "0": "final",
    "1": "rieul",
    "2": "vowel",
    "3": "final",
    "4": "vowel",
    "5": "vowel",
    "6": "final",
    "7": "rieul",
    "8": "rieul",
    "9": "vowel",
}
_LATIN_TAIL: Final = re.compile(r"[A-Za-z]+$")
_GLOSS: Final = re.compile(r"(?<=[\uac00-\ud7a3])\s*\[[^\[\]]*\]\s*$")
"""A trailing ``[slug]`` beside a Korean name (``송학 광 [pine-crane]``): a gloss, not read aloud."""


def _latin(word: str) -> str:
    """The last sound of a Latin word as Korean reads it (initials by their letter names)."""
    if len(word) == 1 or word.isupper():
        last = word[-1].upper()  # 엘, 알 / 엠, 엔 / 에이, 비, 씨…
        return "rieul" if last in "LR" else "final" if last in "MN" else "vowel"
    lower = word.lower()
    if lower.endswith(("l", "le")):
        return "rieul"  # Bill 빌, Apple 애플
    if lower.endswith(("m", "n", "ng")):
        return "final"  # Tom 톰, Ryan 라이언, King 킹
    return "vowel"  # Kenji 켄지, Alice 앨리스, Mark 마크


def last_sound(text: str) -> str | None:
    """How ``text`` ends when read: "final" (a consonant), "rieul" (ㄹ), "vowel", or None if unknown.

    A bracketed gloss at the end (a card's slug after its name) is passed over.
    """
    gloss = _GLOSS.search(text)
    if gloss and gloss.start() > 0:
        text = text[: gloss.start()]
    end = len(text)
    while end and text[end - 1] in _SKIPPED:
        end -= 1
    if not end:
        return None
    ch = text[end - 1]
    if "\uac00" <= ch <= "\ud7a3":
        final = (ord(ch) - 0xAC00) % 28
        return "vowel" if final == 0 else "rieul" if final == _RIEUL else "final"
    if ch in _DIGIT:
        return _DIGIT[ch]
    latin = _LATIN_TAIL.search(text[:end])
    return _latin(latin.group(0)) if latin else None


def particle(before: str, pair: str) -> str:
    """The form of the particle ``pair`` (e.g. ``"이(가)"``) that fits after ``before``."""
    consonant, vowel = _FORMS[pair]
    sound = last_sound(before)
    if sound is None:
        return pair
    if pair == "(으)로":
        return consonant if sound == "final" else vowel
    return vowel if sound == "vowel" else consonant


_PRONOUN_SUBJECT: Final = {"나": "내", "너": "네", "저": "제"}
"""나, 너 and 저 before the subject particle 가 become 내가, 네가, 제가."""


def particles(text: str) -> str:
    """``text`` with every two-form particle resolved by the word before it."""
    out: list[str] = []
    done = 0
    for found in _PARTICLE.finditer(text):
        before = text[done : found.start()]
        form = particle(text[: found.start()], found.group(0))
        pronoun = before[-1:]
        if form == "가" and pronoun in _PRONOUN_SUBJECT and not text[: found.start() - 1][-1:].isalnum():
            before = before[:-1] + _PRONOUN_SUBJECT[pronoun]
        out.append(before)
        out.append(form)
        done = found.end()
    out.append(text[done:])
    return "".join(out)


class Template(str):
    """A Korean template whose :meth:`format` fits each particle to the words filled in."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        """Fill the template, then resolve its particles."""
        return particles(str.format(self, *args, **kwargs))
