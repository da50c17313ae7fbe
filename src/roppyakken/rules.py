"""Rule options (RULES.md), the presets of R-10, and house-rules TOML files.

A :class:`Rules` is a frozen set of option values, checked when it is made: an
unknown option, a bad value or an impossible combination raises
:class:`~roppyakken.errors.RulesError` with one line naming the problem.  A
house rule is an option value, never code.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from roppyakken.cards import card_id
from roppyakken.errors import RulesError, shown
from roppyakken.i18n import N_, os_reason, toml_reason
from roppyakken.nesting import nesting_depth
from roppyakken.options import (
    CHOICES,
    Declare,
    Fuke,
    HandFour,
    InstantWin,
    Joker,
    JokerWild,
    MatchKind,
    NextDealer,
    RainOff,
    RoundScoring,
    SevenRibbonsWillow,
    TableFour,
    TopTie,
)
from roppyakken.yaku import LUCKY_HAND_SLUGS, YAKU_SLUGS, YakuTable

CLASSIC_YAKU: Final[dict[str, int]] = {
    "four-brights": 600,
    "matsu-kiri-bozu": 150,
    "great-three": 150,
    "seven-ribbons": 600,
    "red-poems": 100,
    "blue-ribbons": 100,
    "grass-ribbons": 100,
    "boar-deer-butterflies": 300,
    "cannon": 300,
    "flower-viewing": 100,
    "moon-viewing": 100,
    "four-willow": 200,
    "four-pine": 50,
    "four-plum": 50,
    "four-cherry": 50,
    "four-wisteria": 50,
    "four-pampas": 50,
    "four-maple": 50,
    "four-paulownia": 50,
}

CLASSIC_LUCKY_HANDS: Final[dict[str, int]] = {
    "all-chaff": 400,
    "hand-three": 200,
    "double-hand-three": 400,
}


MAX_MATCH_COUNT: Final = {"first-to": 20, "rounds": 100}
"""The longest matches allowed (a game must be able to end)."""
MAX_POINTS: Final = 10_000
"""The largest target, win margin, threshold or points value a house rule may set."""


class FrozenTable(dict[str, int]):
    """A table of slug = points that cannot be changed (the ``yaku`` and ``lucky_hands``
    options): a :class:`dict` for reading and JSON, hashable, refusing every change."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("rule options cannot be changed: make new Rules with with_options()")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenTable], tuple[dict[str, int]]]:
        return FrozenTable, (dict(self),)


@dataclass(frozen=True, slots=True)
class Match:
    """The parsed ``match`` option (R-9.3): ``single``, ``first-to K`` or ``rounds N``."""

    kind: MatchKind
    count: int

    @staticmethod
    def parse(text: str) -> Match:
        """Parse ``'single'``, ``'first-to 3'`` or ``'rounds 12'``."""
        words = text.split()
        if words == ["single"]:
            return Match("single", 1)
        if len(words) == 2 and words[0] in ("first-to", "rounds") and re.fullmatch(r"[0-9]+", words[1]):
            count = int(words[1]) if len(words[1]) < 10 else 10**9
            most = MAX_MATCH_COUNT[words[0]]
            if count > most:
                raise RulesError(
                    N_("option 'match': '{kind} N' allows N of at most {most}, got {count}"),
                    kind=words[0],
                    most=most,
                    count=count,
                )
            if count >= 1:
                return Match("first-to" if words[0] == "first-to" else "rounds", count)
        raise RulesError(
            N_("option 'match': expected 'single', 'first-to K' or 'rounds N', got {value}"), value=repr(text)
        )


@dataclass(frozen=True)
class Rules:
    """Every rule option of RULES.md, with its default (the ``classic`` preset)."""

    preset: str = "classic"
    players: tuple[int, ...] = (2, 3)
    next_dealer: NextDealer = "top-scorer"
    ten_card_deal: bool = False
    table_four: TableFour = "redeal"
    hand_four: HandFour = "redeal"
    lucky_hands: Mapping[str, int] = field(default_factory=lambda: FrozenTable(CLASSIC_LUCKY_HANDS))
    declare: Declare = "choose"
    joker: Joker = "willow-rainman"
    joker_wild_on_table: JokerWild = "any"
    auto_capture_higher: bool = False
    fuke: Fuke = "off"
    fuke_threshold: int = 30
    fuke_exempt: tuple[str, ...] = ("four-brights", "seven-ribbons")
    round_scoring: RoundScoring = "plain"
    yaku: Mapping[str, int] = field(default_factory=lambda: FrozenTable(CLASSIC_YAKU))
    viewing_exclusive: bool = True
    rain_off: RainOff = "off"
    seven_ribbons_willow: SevenRibbonsWillow = "any"
    four_brights_needs_warbler: bool = False
    seven_ribbons_extra: int = 0
    instant_win: InstantWin = "end-of-round"
    target: int = 600
    top_tie: TopTie = "another-round"
    win_margin: int = 0
    match: str = "single"
    table: YakuTable = field(init=False, repr=False, compare=False)
    match_rule: Match = field(init=False, repr=False, compare=False)
    joker_card: int = field(init=False, repr=False, compare=False)
    """The joker's card id, or -1 with ``joker = none`` (R-6.1)."""

    def __post_init__(self) -> None:
        for name in ("yaku", "lucky_hands"):
            if not isinstance(getattr(self, name), FrozenTable):
                object.__setattr__(self, name, FrozenTable(getattr(self, name)))
        _check(self)
        object.__setattr__(self, "table", YakuTable.compile(self))
        object.__setattr__(self, "match_rule", Match.parse(self.match))
        object.__setattr__(self, "joker_card", -1 if self.joker == "none" else card_id(self.joker))
        object.__setattr__(
            self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
        )

    def __hash__(self) -> int:
        """Rules are values: equal rules hash alike (caches are keyed by them)."""
        return self._hash  # type: ignore[attr-defined, no-any-return]

    def __reduce__(self) -> tuple[type[Rules], tuple[Any, ...]]:
        """Pickle and copy the options only: the derived attributes are rebuilt from them (the
        yaku table may be the compiled one, see :mod:`roppyakken.compiled`)."""
        return Rules, tuple(getattr(self, f.name) for f in fields(self) if f.init)

    def options(self) -> dict[str, Any]:
        """Every option's value as plain JSON data (records, ``rules`` command)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name in _DERIVED:
                continue
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            out[f.name] = value
        return out

    def with_options(self, options: Mapping[str, Any], *, preset: str | None = None) -> Rules:
        """A copy with some options replaced (values as in TOML or JSON), checked."""
        changes: dict[str, Any] = {}
        for name, value in options.items():
            changes[name] = _coerce(self, name, value)
        if preset is not None:
            changes["preset"] = preset
        return replace(self, **changes)

    def check_players(self, players: int) -> None:
        """Refuse a number of players these rules do not allow (R-2.1, R-3.1, R-10)."""
        if players not in (2, 3):
            raise RulesError(N_("Roppyakken is for 2 or 3 players, not {n}"), n=players)
        if players not in self.players:
            allowed = " or ".join(str(n) for n in self.players)
            if list(self.players) == PRESETS.get(self.preset, {}).get("players", [2, 3]):
                raise RulesError(
                    N_("preset '{preset}' is for {allowed} players only, not {n}"),
                    preset=self.preset,
                    allowed=allowed,
                    n=players,
                )
            raise RulesError(
                N_("option 'players' allows {allowed} players only, not {n}"), allowed=allowed, n=players
            )
        if players == 3 and self.ten_card_deal:
            raise RulesError(N_("ten_card_deal is for 2 players only"))


_DERIVED: Final = ("preset", "table", "match_rule", "joker_card")
_OPTION_NAMES: Final = tuple(f.name for f in fields(Rules) if f.name not in _DERIVED)


def _coerce(base: Rules, name: str, value: Any) -> Any:
    """Turn a TOML/JSON value for option ``name`` into the field's type, or refuse it."""
    if name not in _OPTION_NAMES:
        raise unknown_name(RulesError(N_("unknown rule option '{name}'"), name=name), name, _OPTION_NAMES)
    current = getattr(base, name)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RulesError(
                N_("option '{name}': expected true or false, got {value}"), name=name, value=shown(value)
            )
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(
                N_("option '{name}': expected a whole number, got {value}"), name=name, value=shown(value)
            )
        return value
    if isinstance(current, str):
        if not isinstance(value, str):
            raise RulesError(
                N_("option '{name}': expected a string, got {value}"), name=name, value=shown(value)
            )
        return value
    if isinstance(current, tuple):
        if not isinstance(value, list | tuple):
            raise RulesError(
                N_("option '{name}': expected a list, got {value}"), name=name, value=shown(value)
            )
        return tuple(value)
    if isinstance(current, dict):
        return _merge_table(name, current, value)
    raise RulesError(f"option {name!r} cannot be set")  # pragma: no cover


def _merge_table(name: str, current: Mapping[str, int], value: Any) -> dict[str, int]:
    """House rules for ``yaku`` / ``lucky_hands``: set values, ``false`` disables one.

    A ``"replace" = true`` entry starts from an empty table instead of the preset's.
    """
    if not isinstance(value, Mapping):
        raise RulesError(
            N_("option '{name}': expected a table of slug = points, got {value}"),
            name=name,
            value=shown(value),
        )
    merged = {} if value.get("replace") is True else dict(current)
    for slug, points in value.items():
        if slug == "replace":
            if not isinstance(points, bool):
                raise RulesError(N_("option '{name}': 'replace' must be true or false"), name=name)
            continue
        if points is False:
            merged.pop(slug, None)
        elif isinstance(points, bool) or not isinstance(points, int):
            raise RulesError(
                N_("option '{name}': '{slug}' must be points (a whole number) or false"), name=name, slug=slug
            )
        else:
            merged[slug] = points
    return merged


def _check(rules: Rules) -> None:
    """Refuse bad values and impossible combinations, one line naming the problem."""
    for name, allowed in CHOICES.items():
        value = getattr(rules, name)
        if value not in allowed:
            raise RulesError(
                N_("option '{name}': {value} is not one of {allowed}"),
                name=name,
                value=shown(value),
                allowed=", ".join(allowed),
            )
    if not rules.players or any(p not in (2, 3) for p in rules.players):
        raise RulesError(N_("option 'players': expected 2 and/or 3, got {value}"), value=list(rules.players))
    for slug, points in rules.yaku.items():
        if slug not in YAKU_SLUGS:
            raise unknown_name(
                RulesError(N_("option 'yaku': unknown yaku '{slug}'"), slug=slug), slug, YAKU_SLUGS
            )
        if points <= 0:
            raise RulesError(N_("option 'yaku': '{slug}' must be worth more than 0 points"), slug=slug)
    for slug, points in rules.lucky_hands.items():
        if slug not in LUCKY_HAND_SLUGS:
            raise unknown_name(
                RulesError(N_("option 'lucky_hands': unknown lucky hand '{slug}'"), slug=slug),
                slug,
                LUCKY_HAND_SLUGS,
            )
        if points <= 0:
            raise RulesError(N_("option 'lucky_hands': '{slug}' must be worth more than 0 points"), slug=slug)
    for slug in rules.fuke_exempt:
        if slug not in YAKU_SLUGS:
            raise unknown_name(
                RulesError(N_("option 'fuke_exempt': unknown yaku '{slug}'"), slug=slug), slug, YAKU_SLUGS
            )
    for name in ("fuke_threshold", "seven_ribbons_extra", "win_margin"):
        if getattr(rules, name) < 0:
            raise RulesError(N_("option '{name}' must not be negative"), name=name)
    if rules.target <= 0:
        raise RulesError(N_("option 'target' must be more than 0"))
    for name in ("target", "fuke_threshold", "seven_ribbons_extra", "win_margin"):
        if getattr(rules, name) > MAX_POINTS:
            raise RulesError(
                N_("option '{name}' must be at most {most}, so that a game can end"),
                name=name,
                most=MAX_POINTS,
            )
    for name in ("yaku", "lucky_hands"):
        for slug, points in getattr(rules, name).items():
            if points > MAX_POINTS:
                raise RulesError(
                    N_("option '{name}': '{slug}' must be worth at most {most} points"),
                    name=name,
                    slug=slug,
                    most=MAX_POINTS,
                )
    Match.parse(rules.match)


# each preset as the options that differ from classic.
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "online": {
        "fuke": "no-willow-paulownia",
        "fuke_threshold": 30,
        "rain_off": "ordered",
        "auto_capture_higher": True,
    },
    "wikipedia": {
        "lucky_hands": {"replace": True, "hand-three": 200, "all-chaff": 400},
        "win_margin": 31,
    },
    "fuke": {"fuke": "all"},
    "ten-card": {
        "players": [2],
        "ten_card_deal": True,
        "lucky_hands": {"triple-hand-three": 600},
    },
    "lightning": {"joker": "willow-lightning"},
    "marguerite": {
        "yaku": {"great-three": 100, "red-poems": 150, "blue-ribbons": 200},
        "lucky_hands": {"replace": True, "hand-three": 200, "all-chaff": 400},
        "declare": "auto",
        "rain_off": "end-of-round",
        "fuke": "cards-only",
        "fuke_threshold": 30,
        "fuke_exempt": ["four-brights"],
        "joker_wild_on_table": "turned-up",
        "next_dealer": "rotate",
        "top_tie": "play-order",
        "match": "first-to 3",
    },
    "no-instant-win": {"instant_win": "off"},
    "sanbyakuken": {"target": 300},
    "yamayaku": {
        "players": [2],
        "target": 300,
        "yaku": {
            "replace": True,
            "matsu-kiri-bozu": 150,
            "great-three": 100,
            "red-poems": 100,
            "blue-ribbons": 100,
            "grass-ribbons": 100,
            "boar-deer-butterflies": 300,
            "cannon": 300,
            "four-willow": 200,
        },
    },
    "changara": {
        "players": [2],
        "target": 300,
        "match": "first-to 3",
        "table_four": "dealer_takes",
        "yaku": {
            "replace": True,
            "matsu-kiri-bozu": 300,
            "red-poems": 150,
            "blue-ribbons": 100,
            "grass-ribbons": 100,
            "boar-deer-butterflies": 300,
            "cannon": 300,
            "flower-viewing": 100,
            "moon-viewing": 100,
            "four-willow": 200,
            "four-pine": 50,
            "four-plum": 50,
            "four-cherry": 50,
            "four-pampas": 50,
            "four-maple": 50,
            "four-paulownia": 50,
        },
    },
    "yukbaek": {
        "four_brights_needs_warbler": True,
        "seven_ribbons_willow": "require",
        "instant_win": "immediate",
        "round_scoring": "difference",
        "lucky_hands": {"replace": True},
        "fuke": "off",
        "target": 600,
    },
    "sambong": {
        "round_scoring": "round-up",
        "instant_win": "off",
        "yaku": {"four-brights": 600, "seven-ribbons": 700},
        "seven_ribbons_extra": 100,
        "lucky_hands": {"replace": True, "hand-three": 200, "hand-four": 300},
        "hand_four": "play",
    },
    "korean-high": {
        "yaku": {
            "matsu-kiri-bozu": 200,
            "great-three": 200,
            "red-poems": 200,
            "blue-ribbons": 200,
            "grass-ribbons": 200,
            "flower-viewing": 200,
            "moon-viewing": 200,
            "boar-deer-butterflies": 400,
            "cannon": 400,
            "four-willow": 300,
            "four-maple": 200,
            "ribbon-boar-deer-butterflies": 400,
            "ribbon-cannon": 400,
            "ribbon-flower-viewing": 200,
            "ribbon-moon-viewing": 200,
        },
        # hand-four values score only with hand_four = play, which the preset sets.
        "hand_four": "play",
        "lucky_hands": {
            "hand-three": 300,
            "iris-hand-three": 400,
            "hand-four": 500,
            "iris-hand-four": 600,
        },
    },
    "mocogame": {"match": "rounds 12"},
}


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known name a mistyped ``word`` most likely meant (``hand-thre``: ``hand-three``), or None."""
    found = difflib.get_close_matches(word.strip().lower(), list(known), n=1, cutoff=0.6)
    return found[0] if found else None


def unknown_name(error: RulesError, word: str, known: Iterable[str]) -> RulesError:
    """``error`` (an unknown name), with the name ``word`` most likely meant when one is near."""
    near = nearest(word, known)
    if near is None:
        return error
    return RulesError(N_("{error} (did you mean {near}?)"), error=error, near=near)


def preset(name: str) -> Rules:
    """The rules of preset ``name`` (R-10); raise a clear error if unknown."""
    try:
        overrides = PRESETS[name]
    except KeyError:
        near = nearest(name, PRESETS)
        if near is not None:
            raise RulesError(
                N_("unknown preset '{name}' (did you mean {near}?)"), name=name, near=near
            ) from None
        known = ", ".join(PRESETS)
        raise RulesError(N_("unknown preset '{name}' (known: {known})"), name=name, known=known) from None
    return Rules().with_options(overrides, preset=name)


def from_options(preset_name: str, options: Mapping[str, Any]) -> Rules:
    """Rules from a record's ``{"preset", "options"}`` (every option given)."""
    if not isinstance(options, Mapping):
        raise RulesError("rules: 'options' must be an object")
    base = preset(preset_name)
    fixed = {}
    for name, value in options.items():
        if name in ("yaku", "lucky_hands") and isinstance(value, Mapping):
            value = {"replace": True, **value}
        fixed[name] = value
    return base.with_options(fixed)


MAX_TOML_NESTING: Final = 16
"""How deeply house rules may nest arrays and inline tables (they need two levels)."""


def load_rules_file(path: str | Path) -> Rules:
    """Read a house-rules TOML file: ``preset = "..."`` then option overrides.

    ``[yaku]`` and ``[lucky_hands]`` tables change values of the preset's tables;
    ``slug = false`` disables one; ``replace = true`` starts from an empty table.
    """
    p = Path(path)
    try:
        source = p.read_text(encoding="utf-8")
        if nesting_depth(source) > MAX_TOML_NESTING:
            raise RecursionError
        data = tomllib.loads(source)
    except FileNotFoundError:
        raise RulesError(N_("rules file '{path}' not found"), path=str(p)) from None
    except OSError as exc:
        raise RulesError(N_("rules file '{path}': {error}"), path=str(p), error=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise RulesError(N_("rules file '{path}' is not UTF-8 text"), path=str(p)) from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(
            N_("rules file '{path}' is not valid TOML: {error}"), path=str(p), error=toml_reason(exc)
        ) from None
    except RecursionError:
        raise RulesError(N_("rules file '{path}' nests too deeply"), path=str(p)) from None
    return rules_from_mapping(data, source=str(p))


def rules_from_mapping(data: Mapping[str, Any], source: str = "house rules") -> Rules:
    """Rules from a parsed house-rules document (``preset`` key plus overrides)."""
    base_name = data.get("preset", "classic")
    if not isinstance(base_name, str):
        raise RulesError(N_("{source}: 'preset' must be a preset name"), source=source)
    base = preset(base_name)
    overrides = {k: v for k, v in data.items() if k != "preset"}
    try:
        rules = base.with_options(overrides)
    except RulesError as exc:
        raise RulesError(N_("{source}: {error}"), source=source, error=exc) from None
    if rules.ten_card_deal and 3 in rules.players and "players" in overrides:
        # A file that names its players must allow only games that can be dealt.
        raise RulesError(
            N_("{source}: option 'players': ten_card_deal is for 2 players only, not 3"), source=source
        )
    return rules


def resolve(preset_name: str | None = None, rules_file: str | Path | None = None) -> Rules:
    """The rules a command was asked for: a preset name or a house-rules file."""
    if rules_file is not None:
        if preset_name is not None:
            raise RulesError(N_("give --rules or --rules-file, not both"))
        return load_rules_file(rules_file)
    return preset(preset_name or "classic")
