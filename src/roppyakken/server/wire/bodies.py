"""The HTTP request bodies of docs/PROTOCOL.md as pydantic models; one clear line for anything wrong.

Each body is a model (:class:`CreateRoomBody`, :class:`JoinRoomBody`,
:class:`ScoreBody`); :func:`check` validates a parsed JSON object against one and
turns the first problem pydantic finds into the same one-line messages the server
has always given.  The models' JSON Schema is published at ``/api/schema``.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.nesting import nesting_depth
from roppyakken.rules import MAX_TOML_NESTING, PRESETS, Rules, preset, rules_from_mapping
from roppyakken.server.wire import text
from roppyakken.server.wire.protocol import Refused, what

T = TypeVar("T")

MAX_NAME: Final = 24
MAX_TOML: Final = 16_384
MAX_SEED: Final = 2**63 - 1
BLANK_LOOKING: Final = frozenset("\u115f\u1160\u2800\u3164\uffa0\u180e\u2028\u2029")
"""Characters that print as nothing although Unicode does not call them spaces."""
BOT_PREFIX: Final = re.compile(r"\s*bot\s*:", re.IGNORECASE)


class RequestError(RoppyakkenError):
    """A malformed request body (HTTP 400)."""

    @classmethod
    def of(cls, error: RoppyakkenError) -> RequestError:
        """``error`` (a field's problem) refusing the body, with its template and fields."""
        return cls(error.template, **error.fields)


def _refusing(check: Callable[[Any], T]) -> Callable[[Any], T]:
    """``check`` as a pydantic validator: its one-line RoppyakkenError becomes the cause pydantic keeps."""

    def validator(value: Any) -> T:
        try:
            return check(value)
        except RoppyakkenError as exc:
            raise Refused(exc) from None

    return validator


@dataclass(frozen=True, slots=True)
class CreateRoom:
    """``POST /api/rooms``: the creator's name, the table and the bots of other seats."""

    name: str
    players: int
    rules: Rules
    seed: int | None
    bots: dict[int, str]
    hints: bool = False
    """Hints for every player (a game alone against bots has them anyway)."""
    clock: str = "none"
    """The time control (server/play/clocks.py ``CONTROLS``), or ``none``."""
    public: bool = False
    """Whether the finished game is listed for everyone (else only its players and the link know it)."""
    token_hash: str | None = None
    """The hash of a seat token the creator already holds (quick pairing); None: a new token."""
    rated: bool = False
    """Whether the game's result moves the players' ratings (server/club/ratings)."""
    linked: Callable[[Any, str], None] | None = None
    """More to store in the transaction that inserts the room, given its id (a tournament's table
    takes the room there, or the room is never made)."""
    seated: tuple[tuple[str, str], ...] = ()
    """Players seated with the creator in seats 1, 2, …: each one's name and seat-token hash (a
    tournament's table: the room is inserted with every seat taken, started, so that nobody who
    learns of it finds a seat not yet theirs)."""


def player_name(value: Any) -> str:
    """A player's name: 1 to 24 printable characters, trimmed, not blank-looking, not a bot's."""
    if not isinstance(value, str):
        raise RequestError(text.NAME_RULE, max=MAX_NAME)
    name = " ".join(value.split())
    if not 0 < len(name) <= MAX_NAME or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise RequestError(text.NAME_RULE, max=MAX_NAME)
    visible = [
        ch
        for ch in name
        if not ch.isspace() and ch not in BLANK_LOOKING and unicodedata.category(ch) not in ("Mn", "Me", "Zs")
    ]
    if not visible:
        raise RequestError(text.NAME_RULE, max=MAX_NAME)
    if BOT_PREFIX.match(name):
        raise RequestError(text.NAME_NOT_BOT)
    return name


def rules_of(value: Any) -> Rules:
    """``{"preset": NAME}`` or ``{"toml": HOUSE_RULES}`` as rules (RULES.md R-10)."""
    if not isinstance(value, dict) or len(value) != 1:
        raise RequestError(text.RULES_FORM)
    if "preset" in value:
        if not isinstance(value["preset"], str):
            raise RequestError(text.RULES_FORM)
        return preset(value["preset"])
    if "toml" in value:
        source = value["toml"]
        if not isinstance(source, str):
            raise RequestError(text.RULES_FORM)
        if len(source) > MAX_TOML:
            raise RequestError(text.TOML_TOO_LARGE)
        if nesting_depth(source) > MAX_TOML_NESTING:
            raise RequestError(text.TOML_TOO_DEEP)
        try:
            data = tomllib.loads(source)
        except tomllib.TOMLDecodeError as exc:
            raise RequestError(text.TOML_INVALID, reason=str(exc)) from None
        except (RecursionError, ValueError):
            raise RequestError(text.TOML_TOO_DEEP) from None
        return rules_from_mapping(data)
    raise RequestError(text.RULES_FORM)


def _bot_seat(key: str) -> str:
    if not re.fullmatch(r"[0-9]{1,2}", key):
        raise RequestError(text.BOT_SEAT, seat=key, last="n-1")
    return key


def _bot_level(value: str) -> str:
    if value not in BOT_LEVELS:
        raise RequestError(text.UNKNOWN_BOT, level=value, known=", ".join(BOT_LEVELS))
    return value


PlayerName = Annotated[
    str,
    AfterValidator(_refusing(player_name)),
    Field(description="1 to 24 characters; not blank, not 'bot:…'"),
]
RulesChoice = Annotated[
    dict[str, str],
    Field(
        min_length=1,
        max_length=1,
        description='{"preset": NAME} or {"toml": HOUSE_RULES} (at most 16 KiB); checked by rules_of',
    ),
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateRoomBody(_Body):
    """``POST /api/rooms``."""

    name: PlayerName
    players: Literal[2, 3] = 2
    rules: RulesChoice = Field(default_factory=lambda: {"preset": "classic"})
    seed: int | None = Field(
        default=None, ge=0, le=MAX_SEED, description="solo games only: every other seat a bot"
    )
    bots: dict[
        Annotated[str, AfterValidator(_refusing(_bot_seat))],
        Annotated[str, AfterValidator(_refusing(_bot_level))],
    ] = Field(default_factory=dict, description='seat number (1..n-1) to bot level, e.g. {"1": "expert"}')
    hints: bool = Field(
        default=False, description="hints for every player (a game alone against bots has them anyway)"
    )
    clock: Literal["none", "15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"] = Field(
        default="none",
        description="the time control: seconds a move + bank (real time), days a move, or none",
    )
    public: bool = Field(
        default=False, description="list the finished game for everyone (default: only its players see it)"
    )
    rated: bool = Field(
        default=False,
        description="the result moves the players' ratings: public, with a clock, a preset's rules, no bots",
    )


class JoinRoomBody(_Body):
    """``POST /api/rooms/<room>/join``."""

    name: PlayerName


class MeBody(_Body):
    """``POST /api/me``: the player's (new) name."""

    name: PlayerName


MAX_MY_GAMES: Final = 100
"""The most rooms one ``POST /api/my-games`` asks about."""


class MyGamesBody(_Body):
    """``POST /api/my-games``: the rooms whose seat tokens this client holds."""

    rooms: dict[
        Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")],
        Annotated[str, Field(min_length=1, max_length=128)],
    ] = Field(max_length=MAX_MY_GAMES, description="room id to the seat token this client holds there")


class ScorePlayer(BaseModel):
    """One player of a FORMATS.md §1 scoring input."""

    model_config = ConfigDict(extra="allow")
    captures: list[str]
    lucky_hands: list[str] = Field(default_factory=list)


class ScoreBody(BaseModel):
    """``POST /api/score``: FORMATS.md §1 input plus ``rules`` (the input's own checks are the scorer's)."""

    model_config = ConfigDict(extra="allow")
    rules: RulesChoice = Field(default_factory=lambda: {"preset": "classic"})


_MESSAGES: Final[dict[str, RoppyakkenError]] = {
    "name": RoppyakkenError(text.NAME_RULE, max=MAX_NAME),
    "players": RoppyakkenError(text.PLAYERS_RULE),
    "rules": RoppyakkenError(text.RULES_FORM),
    "seed": RoppyakkenError(text.SEED_RULE),
    "hints": RoppyakkenError(text.FIELD_TYPE, field="hints", what=Phrase(N_("true or false"))),
    "bots": RoppyakkenError(text.FIELD_TYPE, field="bots", what=Phrase(N_('an object like {"1": "random"}'))),
    "clock": RoppyakkenError(
        text.FIELD_TYPE, field="clock", what=Phrase(N_("none, 15+60, 30+120, 60+300, 1d, 2d, 3d or 7d"))
    ),
    "public": RoppyakkenError(text.FIELD_TYPE, field="public", what=Phrase(N_("true or false"))),
    "rated": RoppyakkenError(text.FIELD_TYPE, field="rated", what=Phrase(N_("true or false"))),
    "rooms": RoppyakkenError(
        text.FIELD_TYPE,
        field="rooms",
        what=Phrase(
            N_("an object of at most {max} room ids to seat tokens, {example}"),
            max=MAX_MY_GAMES,
            example='{"<room>": "<token>"}',
        ),
    ),
}
"""The one line for a field of a body that is wrong, as a template with fields."""

M = TypeVar("M", bound=BaseModel)


def one_line(
    exc: ValidationError, messages: dict[str, RoppyakkenError | str] | None = None
) -> RoppyakkenError:
    """The first problem of a validation error as the server's one-line message (template and fields)."""
    first = exc.errors(include_url=False)[0]
    loc = first.get("loc", ())
    field = str(loc[0]) if loc else ""
    if first["type"] == "extra_forbidden":
        return RoppyakkenError(text.UNKNOWN_FIELD, field=field)
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, Refused):
        return cause.said
    table: dict[str, RoppyakkenError | str] = dict(_MESSAGES) if messages is None else messages
    if field in table:
        found = table[field]
        return found if isinstance(found, RoppyakkenError) else RoppyakkenError(found)
    return RoppyakkenError(text.FIELD_TYPE, field=field or "body", what=what(field, {}))


def check(model: type[M], data: dict[str, Any]) -> M:
    """``data`` validated as ``model``; :class:`RequestError` with one line if it is not."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestError.of(one_line(exc)) from None


def create_room(data: dict[str, Any]) -> CreateRoom:
    """Check a ``POST /api/rooms`` body."""
    body = check(CreateRoomBody, data)
    rules = rules_of(body.rules)
    rules.check_players(body.players)
    bots: dict[int, str] = {}
    for key, level in body.bots.items():
        seat = int(key)
        if not 1 <= seat < body.players:
            raise RequestError(text.BOT_SEAT, seat=key, last=body.players - 1)
        bots[seat] = level
    if body.seed is not None and len(bots) != body.players - 1:
        raise RequestError(text.SEED_SOLO_ONLY)
    if body.rated:
        if not body.public or body.clock == "none":
            raise RequestError(text.RATED_NEEDS_PUBLIC_CLOCK)
        if bots or body.seed is not None:
            raise RequestError(text.RATED_PEOPLE_ONLY)
        if "preset" not in body.rules:
            raise RequestError(text.RATED_PRESET_ONLY)
    return CreateRoom(
        body.name,
        body.players,
        rules,
        body.seed,
        bots,
        body.hints,
        body.clock,
        body.public,
        rated=body.rated,
    )


def join_room(data: dict[str, Any]) -> str:
    """Check a ``POST /api/rooms/<room>/join`` body; the player's name."""
    return check(JoinRoomBody, data).name


def me(data: dict[str, Any]) -> str:
    """Check a ``POST /api/me`` body; the player's name."""
    return check(MeBody, data).name


def my_games(data: dict[str, Any]) -> dict[str, str]:
    """Check a ``POST /api/my-games`` body: room id to seat token."""
    return check(MyGamesBody, data).rooms


def score_request(data: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """Split a ``POST /api/score`` body into the rules and the FORMATS.md §1 input."""
    rules = rules_of(data.get("rules", {"preset": "classic"}))
    return rules, {k: v for k, v in data.items() if k != "rules"}


def schemas() -> dict[str, Any]:
    """The JSON Schema of each request body, by endpoint."""
    return {
        "POST /api/rooms": CreateRoomBody.model_json_schema(),
        "POST /api/rooms/<room>/join": JoinRoomBody.model_json_schema(),
        "POST /api/score": ScoreBody.model_json_schema(),
        "POST /api/my-games": MyGamesBody.model_json_schema(),
        "POST /api/me": MeBody.model_json_schema(),
        "POST /api/rooms/<room>/report": ReportBody.model_json_schema(),
        "POST /api/tournaments": CreateTournamentBody.model_json_schema(),
        "POST /api/tournaments/<id>/pause": PauseTournamentBody.model_json_schema(),
        **club_schemas(),
        "POST /api/follows": PlayerBody.model_json_schema(),
        "POST /api/blocks": PlayerBody.model_json_schema(),
        "POST /api/challenges": ChallengeBody.model_json_schema(),
    }


# --- fair play and moderation: reports ---------------------------------------------------------


class ReportBody(_Body):
    """``POST /api/rooms/<room>/report``: a chat line (its channel's number) or a seat, and why."""

    message: int | None = Field(default=None, ge=0, le=2**31 - 1, description="the chat line's idx")
    seat: int | None = Field(default=None, ge=0, le=2, description="the reported player's seat")
    reason: Literal["abuse", "spam", "cheating", "other"] = "abuse"
    token: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="the reporter's seat token, if it holds a seat",
    )


_REPORT_MESSAGES: Final[dict[str, RoppyakkenError | str]] = {
    "message": RoppyakkenError(
        text.FIELD_TYPE, field="message", what=Phrase(N_("a chat line's idx (a whole number)"))
    ),
    "seat": RoppyakkenError(text.FIELD_TYPE, field="seat", what=Phrase(N_("0, 1 or 2"))),
    "reason": RoppyakkenError(
        text.FIELD_TYPE, field="reason", what=Phrase(N_("abuse, spam, cheating or other"))
    ),
    "token": RoppyakkenError(text.FIELD_TYPE, field="token", what=Phrase(N_("the seat token (a string)"))),
}


def report(data: dict[str, Any]) -> ReportBody:
    """Check a ``POST /api/rooms/<room>/report`` body: exactly one of ``message`` and ``seat``."""
    try:
        body = ReportBody.model_validate(data)
    except ValidationError as exc:
        raise RequestError.of(one_line(exc, _REPORT_MESSAGES)) from None
    if (body.message is None) == (body.seat is None):
        raise RequestError(text.REPORT_WHAT)
    return body


# --- tournaments (server/web/tournament_routes.py) ---------------------------------------------

MAX_TOURNAMENT_NAME: Final = 48
MAX_TOURNAMENT_START: Final = 30 * 86_400.0
"""The latest start a tournament may be given (seconds from now)."""
MAX_ARENA_MINUTES: Final = 24 * 60
MAX_SWISS_ROUNDS: Final = 30


class CreateTournamentBody(_Body):
    """``POST /api/tournaments``: what the tournament is and when it starts."""

    name: PlayerName = Field(description=f"at most {MAX_NAME} characters")
    format: Literal["arena", "swiss", "round_robin"]
    preset: str = Field(default="classic", max_length=64, description="a preset with a rating pool")
    players: Literal[2, 3] = Field(default=2, description="players a table")
    clock: Literal["15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"] = Field(
        description="the time control of every game (required)"
    )
    rated: bool = True
    visibility: Literal["public", "club", "private"] = Field(
        default="public", description="private: only those given its link find it"
    )
    club: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_-]{1,32}$",
        description="club-only: the club whose members may join",
    )
    starts_in: float = Field(ge=0, le=MAX_TOURNAMENT_START, description="seconds from now to its start")
    minutes: float | None = Field(default=None, gt=0, le=MAX_ARENA_MINUTES, description="an arena's duration")
    rounds: int | None = Field(
        default=None, ge=1, le=MAX_SWISS_ROUNDS, description="a Swiss tournament's rounds"
    )


_TOURNAMENT_MESSAGES: Final[dict[str, RoppyakkenError | str]] = {
    "name": RoppyakkenError(text.NAME_RULE, max=MAX_NAME),
    "players": RoppyakkenError(text.PLAYERS_RULE),
    "rated": RoppyakkenError(text.FIELD_TYPE, field="rated", what=Phrase(N_("true or false"))),
    "minutes": RoppyakkenError(text.TOURNAMENT_SHAPE),
    "rounds": RoppyakkenError(text.TOURNAMENT_SHAPE),
}


def create_tournament(data: dict[str, Any]) -> CreateTournamentBody:
    """Check a ``POST /api/tournaments`` body: an arena has ``minutes``, a Swiss ``rounds``, a round
    robin neither (its rounds follow from its players; the route checks the preset)."""
    try:
        body = CreateTournamentBody.model_validate(data)
    except ValidationError as exc:
        raise RequestError.of(one_line(exc, _TOURNAMENT_MESSAGES)) from None
    shapes = {"arena": (True, False), "swiss": (False, True), "round_robin": (False, False)}
    if shapes[body.format] != (body.minutes is not None, body.rounds is not None):
        raise RequestError(text.TOURNAMENT_SHAPE)
    return body


class PauseTournamentBody(_Body):
    """``POST /api/tournaments/<id>/pause``: pause (or come back to) an arena."""

    paused: bool


def pause_tournament(data: dict[str, Any]) -> bool:
    """Check a ``POST /api/tournaments/<id>/pause`` body; whether to pause."""
    try:
        return PauseTournamentBody.model_validate(data).paused
    except ValidationError as exc:
        messages: dict[str, RoppyakkenError | str] = {
            "paused": RoppyakkenError(text.FIELD_TYPE, field="paused", what=Phrase(N_("true or false")))
        }
        raise RequestError.of(one_line(exc, messages)) from None


# --- clubs (server/club/clubs.py) ----------------------------------------------------------------

CLUB_NAME_MIN: Final = 3
CLUB_NAME_MAX: Final = 40
CLUB_DESCRIPTION_MAX: Final = 1_000
CLUB_LANGUAGES: Final = ("en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant")
"""The languages a club may say it speaks: the client's (roppyakken.i18n.LANGUAGES)."""
CLUB_CHAT_MAX: Final = 200
"""Characters of a club's chat line: a room's chat's (server/wire/client.py ``CHAT_MAX``)."""


def _no_controls(value: str) -> bool:
    return not any(unicodedata.category(ch).startswith("C") for ch in value)


def club_name(value: Any) -> str:
    """A club's name: 3 to 40 printable characters, spaces collapsed, not blank-looking."""
    if not isinstance(value, str):
        raise RequestError(text.CLUB_NAME_RULE, min=CLUB_NAME_MIN, max=CLUB_NAME_MAX)
    name = " ".join(value.split())
    visible = [ch for ch in name if not ch.isspace() and ch not in BLANK_LOOKING]
    if (
        not CLUB_NAME_MIN <= len(name) <= CLUB_NAME_MAX
        or not _no_controls(name)
        or len(visible) < CLUB_NAME_MIN
    ):
        raise RequestError(text.CLUB_NAME_RULE, min=CLUB_NAME_MIN, max=CLUB_NAME_MAX)
    return name


def club_description(value: Any) -> str:
    """A club's description: at most 1000 characters, line breaks kept, no other control characters."""
    if not isinstance(value, str):
        raise RequestError(text.CLUB_DESCRIPTION_RULE, max=CLUB_DESCRIPTION_MAX)
    kept = value.replace("\r\n", "\n").strip()
    if len(kept) > CLUB_DESCRIPTION_MAX or not _no_controls(kept.replace("\n", "")):
        raise RequestError(text.CLUB_DESCRIPTION_RULE, max=CLUB_DESCRIPTION_MAX)
    return kept


def club_line(value: Any) -> str:
    """A club chat line: a room's chat line's rule (spaces collapsed, 1 to 200 characters, no control
    or format characters)."""
    line = " ".join(value.split()) if isinstance(value, str) else ""
    if not line or len(line) > CLUB_CHAT_MAX or not _no_controls(line):
        raise RequestError(text.CHAT_TEXT_RULE, max=CLUB_CHAT_MAX)
    return line


_PLAYER_ID: Final = r"^[A-Za-z0-9]{1,32}$"


class CreateClubBody(_Body):
    """``POST /api/clubs``."""

    name: Annotated[
        str,
        AfterValidator(_refusing(club_name)),
        Field(description="3 to 40 characters, unique (alike names too)"),
    ]
    description: Annotated[
        str, AfterValidator(_refusing(club_description)), Field(description="at most 1000 characters")
    ] = ""
    language: Literal["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"] = "en"
    admission: Literal["open", "request", "invitation"] = Field(
        default="open", description="open: anyone joins; request: a leader accepts; invitation only"
    )
    private: bool = Field(default=False, description="shown to its members and those invited only")


class ClubSettingsBody(_Body):
    """``POST /api/clubs/<club>/settings``: what changes (the name stays)."""

    description: (
        Annotated[
            str, AfterValidator(_refusing(club_description)), Field(description="at most 1000 characters")
        ]
        | None
    ) = None
    language: Literal["en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"] | None = None
    admission: Literal["open", "request", "invitation"] | None = None
    private: bool | None = None


class ClubPlayerBody(_Body):
    """``POST /api/clubs/<club>/invite``, ``accept``, ``decline``, ``remove``: the player concerned."""

    player: str = Field(pattern=_PLAYER_ID, description="the player's id (its profile's)")


class ClubRoleBody(_Body):
    """``POST /api/clubs/<club>/role``: a member's new role (owner: the club is handed over)."""

    player: str = Field(pattern=_PLAYER_ID, description="the member's player id")
    role: Literal["owner", "leader", "member"]


class ClubChatBody(_Body):
    """``POST /api/clubs/<club>/chat``."""

    text: Annotated[str, AfterValidator(_refusing(club_line)), Field(description="1 to 200 characters")]


class ClubReportBody(_Body):
    """``POST /api/clubs/<club>/chat/<line>/report``."""

    reason: Literal["abuse", "spam", "cheating", "other"] = "abuse"


_CLUB_MESSAGES: Final[dict[str, RoppyakkenError | str]] = {
    "name": RoppyakkenError(text.CLUB_NAME_RULE, min=CLUB_NAME_MIN, max=CLUB_NAME_MAX),
    "description": RoppyakkenError(text.CLUB_DESCRIPTION_RULE, max=CLUB_DESCRIPTION_MAX),
    "language": RoppyakkenError(text.FIELD_TYPE, field="language", what=", ".join(CLUB_LANGUAGES)),
    "admission": RoppyakkenError(
        text.FIELD_TYPE, field="admission", what=Phrase(N_("open, request or invitation"))
    ),
    "private": RoppyakkenError(text.FIELD_TYPE, field="private", what=Phrase(N_("true or false"))),
    "player": RoppyakkenError(text.FIELD_TYPE, field="player", what=Phrase(N_("a player's id"))),
    "role": RoppyakkenError(text.FIELD_TYPE, field="role", what=Phrase(N_("owner, leader or member"))),
    "text": RoppyakkenError(text.CHAT_TEXT_RULE, max=CLUB_CHAT_MAX),
    "reason": RoppyakkenError(
        text.FIELD_TYPE, field="reason", what=Phrase(N_("abuse, spam, cheating or other"))
    ),
}

CB = TypeVar("CB", bound=BaseModel)


def club_body(model: type[CB], data: dict[str, Any]) -> CB:
    """``data`` checked as one of the clubs' bodies; :class:`RequestError` with one line if it is not."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestError.of(one_line(exc, _CLUB_MESSAGES)) from None


def club_schemas() -> dict[str, Any]:
    """The JSON Schema of the clubs' request bodies, by endpoint."""
    player = ClubPlayerBody.model_json_schema()
    return {
        "POST /api/clubs": CreateClubBody.model_json_schema(),
        "POST /api/clubs/<club>/invite": player,
        "POST /api/clubs/<club>/accept": player,
        "POST /api/clubs/<club>/decline": player,
        "POST /api/clubs/<club>/remove": player,
        "POST /api/clubs/<club>/role": ClubRoleBody.model_json_schema(),
        "POST /api/clubs/<club>/settings": ClubSettingsBody.model_json_schema(),
        "POST /api/clubs/<club>/chat": ClubChatBody.model_json_schema(),
        "POST /api/clubs/<club>/chat/<line>/report": ClubReportBody.model_json_schema(),
    }


# --- friends: follows, blocks, challenges (server/web/friend_routes.py) --------------------------

PlayerId = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,32}$", description="a player's id")]


class PlayerBody(_Body):
    """``POST /api/follows``, ``POST /api/blocks``: the player to follow or block."""

    player: PlayerId


class ChallengeBody(_Body):
    """``POST /api/challenges``: whom to challenge, and to what game."""

    player: PlayerId
    preset: str = Field(default="classic", max_length=64, description="a preset's name")
    players: Literal[2] = Field(default=2, description="a challenge is a game of two players")
    clock: Literal["none", "15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"] = "none"
    rated: bool = False


_FRIEND_MESSAGES: Final[dict[str, RoppyakkenError | str]] = {
    "player": RoppyakkenError(text.FIELD_TYPE, field="player", what=Phrase(N_("a player's id"))),
    "preset": RoppyakkenError(text.FIELD_TYPE, field="preset", what=Phrase(N_("a preset name"))),
    "players": RoppyakkenError(text.CHALLENGE_TWO_PLAYERS),
    "clock": _MESSAGES["clock"],
    "rated": _MESSAGES["rated"],
}


def player_body(data: dict[str, Any]) -> str:
    """Check a ``POST /api/follows`` or ``POST /api/blocks`` body; the player's id."""
    try:
        return PlayerBody.model_validate(data).player
    except ValidationError as exc:
        raise RequestError.of(one_line(exc, _FRIEND_MESSAGES)) from None


def challenge(data: dict[str, Any]) -> ChallengeBody:
    """Check a ``POST /api/challenges`` body (its preset must be one for two players)."""
    try:
        body = ChallengeBody.model_validate(data)
    except ValidationError as exc:
        raise RequestError.of(one_line(exc, _FRIEND_MESSAGES)) from None
    if body.preset not in PRESETS:
        raise RequestError(text.FIELD_TYPE, field="preset", what=Phrase(N_("a preset name")))
    preset(body.preset).check_players(body.players)
    return body
