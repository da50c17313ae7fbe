"""The answers of the HTTP API (docs/PROTOCOL.md): declared, one builder each where a route assembles one.

Like the websocket's messages (server/wire/server.py) each answer is a ``TypedDict``, so that
what a route sends is checked by mypy where it is built and its bytes are those of the plain
dict; :func:`schemas` publishes them at ``GET /api/schema`` (``http_answers``, by method and
route).  The rows inside an answer are built where they are read (server/club, server/people)
and typed with the declarations below.  Documents of their own format are referenced, not
declared again: a game record (FORMATS.md §3), a score (FORMATS.md §1), an account's export.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, NotRequired

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.server.wire.lobby import ChallengeInfo, FriendEntry, LobbyRating, PublicPlayer
from roppyakken.server.wire.server import RoomInfo, Wording

RuleOptions = Annotated[
    dict[str, Any],
    Field(description="every rule option's value by name (RULES.md; open: the options are the rules' data)"),
]
"""A rule set's options, open: their names and values are the rules' (RULES.md), not the protocol's."""

GameRecord = Annotated[
    dict[str, Any],
    Field(title="GameRecord", description="a game record, as FORMATS.md §3 defines it"),
]
"""A finished game's record: FORMATS.md §3's document, referenced rather than declared here."""

ScoreDocument = Annotated[
    dict[str, Any],
    Field(title="ScoreDocument", description="the scoring output, as FORMATS.md §1 defines it"),
]
"""``POST /api/score``'s answer: FORMATS.md §1's output document."""

ProtocolSchema = Annotated[
    dict[str, Any],
    Field(
        title="ProtocolSchema", description="the JSON Schema of every declared request, answer and message"
    ),
]
"""``GET /api/schema``'s answer: a JSON Schema document (server/web/schema.py)."""

AccountExport = Annotated[
    dict[str, Any],
    Field(
        title="AccountExport",
        description="everything the server holds about the account (server/people/erasure.py export)",
    ),
]
"""``GET /api/account/export``'s download: the account's data as the server holds it."""


class ErrorAnswer(TypedDict):
    """Every 4xx and 5xx answer: the error in English and as a template with its fields."""

    error: Annotated[str, Field(description="the error in English, one line")]
    text: Wording


# ------------------------------------------------------------------ presets, bots


class PresetEntry(TypedDict):
    """One preset of ``GET /api/presets``."""

    name: str
    description: str
    players: Annotated[list[int], Field(description="the numbers of players it allows")]
    options: RuleOptions


class PresetsAnswer(TypedDict):
    """``GET /api/presets``: every preset and its options."""

    presets: list[PresetEntry]


class BotEntry(TypedDict):
    """One bot level of ``GET /api/bots``."""

    level: str
    description: str


class BotsAnswer(TypedDict):
    """``GET /api/bots``: the bot levels."""

    bots: list[BotEntry]


# ------------------------------------------------------------------ rooms and games


class RoomCreated(TypedDict):
    """``POST /api/rooms`` (201): the new room, the creator's seat and its token."""

    room: str
    seat: int
    token: Annotated[str, Field(description="the seat's token: only this answer shows it")]
    invite: Annotated[str, Field(description="the address to share")]


class RoomJoined(TypedDict):
    """``POST /api/rooms/<room>/join``: the seat taken and its token."""

    room: str
    seat: int
    token: Annotated[str, Field(description="the seat's token: only this answer shows it")]


class FinishedGame(TypedDict):
    """One finished public game of ``GET /api/games``."""

    room: str
    players: Annotated[list[str], Field(description="every seat's name ('bot:<level>' for a bot)")]
    player_ids: Annotated[list[str | None], Field(description="each seat's player, for its profile")]
    winner: int | None
    finished_at: Annotated[str | None, Field(description="ISO 8601, UTC")]


class FinishedGames(TypedDict):
    """``GET /api/games``: finished public games, newest first."""

    games: list[FinishedGame]


class HeldGame(TypedDict):
    """One game of ``POST /api/my-games``: a seat whose token the client holds."""

    room: str
    seat: int
    players: list[str]
    status: Literal["waiting", "playing", "over"]
    winner: int | None
    finished_at: Annotated[str | None, Field(description="ISO 8601, UTC")]
    clock: Annotated[str, Field(description="the time control, or 'none'")]
    turn: Annotated[int | None, Field(description="the seat whose clock runs (a game being played)")]
    remaining: Annotated[float | None, Field(description="seconds left for that seat")]


class HeldGames(TypedDict):
    """``POST /api/my-games``: the games whose seat tokens the client sent, newest first."""

    games: list[HeldGame]


class PlayerGame(TypedDict):
    """One game a player took a seat in (``GET /api/me/games``, ``GET /api/account``)."""

    room: str
    seat: int
    player: Annotated[str, Field(description="the player who took the seat (an account's guest, maybe)")]
    name: Annotated[str | None, Field(description="that seat's name")]
    players: list[str]
    status: Literal["waiting", "playing", "over"]
    preset: str
    created_at: Annotated[str | None, Field(description="ISO 8601, UTC")]
    finished_at: Annotated[str | None, Field(description="ISO 8601, UTC")]
    winner: int | None
    link: Annotated[str, Field(description="where to open it: its table, or its replay")]
    record: Annotated[str | None, Field(description="its record's address (a finished game)")]


class PlayerGames(TypedDict):
    """``GET /api/me/games``: the games of this browser's player (and an account's guests)."""

    games: list[PlayerGame]


class ReportFiled(TypedDict):
    """``POST /api/rooms/<room>/report`` (201)."""

    report: Annotated[int, Field(description="the report's number")]


# ------------------------------------------------------------------ the player, accounts, sessions


class AccountRef(TypedDict):
    """The account signed in, as ``/api/me`` shows it."""

    id: str
    login: Annotated[str | None, Field(description="its sign-in name (null: passkeys only)")]


class MeAnswer(TypedDict):
    """``GET /api/me``, ``POST /api/me``, and a sign-in: the player, its CSRF token, the account."""

    player: PublicPlayer | None
    csrf: Annotated[str | None, Field(description="the X-CSRF-Token header every change sends")]
    account: AccountRef | None
    recovery_codes: NotRequired[
        Annotated[list[str], Field(description="POST /api/account only: the new account's recovery codes")]
    ]
    recovery_codes_left: NotRequired[
        Annotated[int, Field(description="POST /api/account/recover only: the codes left")]
    ]


class AccountInfo(TypedDict):
    """The account of ``GET /api/account``."""

    id: str
    login: str | None
    created_at: Annotated[str | None, Field(description="ISO 8601, UTC")]
    password: Annotated[bool, Field(description="it has a password")]
    recovery_codes: Annotated[int, Field(description="recovery codes left")]


class AccountAnswer(TypedDict):
    """``GET /api/account``: the account signed in, its player and its games."""

    account: AccountInfo
    player: PublicPlayer
    games: list[PlayerGame]


class PasswordChanged(TypedDict):
    """``POST /api/account/password``."""

    changed: bool


class RecoveryCodes(TypedDict):
    """``POST /api/account/recovery-codes``: the new codes (shown in this answer only)."""

    recovery_codes: list[str]


class AccountDeleted(TypedDict):
    """``DELETE /api/account``."""

    deleted: bool
    label: Annotated[str, Field(description="the anonymous label the account's games now show")]


class SignedOut(TypedDict):
    """``DELETE /api/session`` and ``DELETE /api/sessions``; the latter says how many sessions ended."""

    signed_in: Literal[False]
    ended: NotRequired[int]


class SessionEntry(TypedDict):
    """One session of ``GET /api/sessions``."""

    id: Annotated[str, Field(description="a prefix of the token's hash, never the token")]
    created_at: str | None
    seen_at: str | None
    expires_at: str | None
    address: str | None
    agent: str | None
    current: Annotated[bool, Field(description="this browser's session")]


class SessionsAnswer(TypedDict):
    """``GET /api/sessions``: the account's sessions, newest first."""

    sessions: list[SessionEntry]


class SessionEnded(TypedDict):
    """``DELETE /api/sessions/<id>``."""

    ended: int


# ------------------------------------------------------------------ passkeys


class PasskeyOptions(TypedDict):
    """``POST /api/passkeys/register/options`` and ``.../signin/options``."""

    ceremony: Annotated[str, Field(description="the ceremony's id, sent back with the credential")]
    publicKey: Annotated[
        dict[str, Any],
        Field(description="the WebAuthn options (W3C WebAuthn's PublicKeyCredential*OptionsJSON)"),
    ]


class PasskeySignedIn(TypedDict):
    """``POST /api/passkeys/register/verify`` (201) and ``.../signin/verify``: the browser is signed
    in (``player`` and ``csrf`` are absent when a passkey was added to an account signed in)."""

    player: NotRequired[PublicPlayer | None]
    csrf: NotRequired[str | None]
    signed_in: bool
    added: NotRequired[Annotated[bool, Field(description="register/verify only: the passkey was stored")]]


class PasskeyEntry(TypedDict):
    """One passkey of ``GET /api/passkeys``."""

    id: str
    name: str | None
    created_at: Annotated[float, Field(description="epoch seconds")]
    last_used_at: Annotated[float | None, Field(description="epoch seconds")]


class PasskeysAnswer(TypedDict):
    """``GET /api/passkeys``: whether this browser is signed in, and the account's passkeys."""

    signed_in: bool
    player: NotRequired[PublicPlayer]
    passkeys: list[PasskeyEntry]


class PasskeyRemoved(TypedDict):
    """``POST /api/passkeys/remove``."""

    removed: str


# ------------------------------------------------------------------ ratings, leaderboards, profiles


class RatingsAnswer(TypedDict):
    """``GET /api/me/ratings``: the player's rating in every pool, and each preset's rating family."""

    player: str | None
    ratings: dict[str, LobbyRating]
    families: Annotated[dict[str, str], Field(description="each preset's rating family")]


class BoardEntry(TypedDict):
    """One player of a leaderboard."""

    rank: int
    player: str
    name: str
    rating: int
    uncertainty: int
    games: int
    last_played: Annotated[str | None, Field(description="ISO 8601, UTC")]


class LeaderboardAnswer(TypedDict):
    """``GET /api/leaderboard/<pool>``: one page of a pool's leaderboard."""

    pool: str
    page: int
    size: int
    total: Annotated[int, Field(description="players on the board")]
    pages: int
    active_days: Annotated[int, Field(description="a player is listed who played within these days")]
    players: list[BoardEntry]


class RatingPoint(TypedDict):
    """A rating after one game."""

    seq: int
    rating: int
    uncertainty: int
    place: Annotated[int, Field(description="the player's place in that game, from 1")]


class ProfileRating(TypedDict):
    """A profile's rating in one pool, with its history (oldest point first)."""

    pool: str
    rating: int
    uncertainty: int
    provisional: bool
    games: int
    last_played: str | None
    history: list[RatingPoint]


class PointsInterval(TypedDict):
    """The mean points a round with its 95% interval (none under two rounds)."""

    rounds: int
    mean: float
    low: float | None
    high: float | None


class SlugCount(TypedDict):
    """A yaku or lucky hand and the rounds it was made in."""

    slug: str
    rounds: int


class RecentGame(TypedDict):
    """One recent game of a profile."""

    room: str
    finished_at: str | None
    preset: str
    seat: int
    players: list[str]
    player_ids: list[str | None]
    place: int | None
    points: int
    rated: bool
    public: bool
    replay: str


class ProfileAnswer(TypedDict):
    """``GET /api/players/<id>``: a player's profile as the asker may see it."""

    player: str
    name: str
    ratings: list[ProfileRating]
    games: int
    places: Annotated[dict[str, int], Field(description="games finished first, second, third")]
    points: PointsInterval | None
    yaku: list[SlugCount]
    lucky_hands: list[SlugCount]
    abandoned: int
    recent: list[RecentGame]


# ------------------------------------------------------------------ the server's health


class HealthAnswer(TypedDict):
    """``GET /healthz``, and ``GET /readyz`` (503 while stopping or without its database)."""

    status: Annotated[str, Field(description="ok, ready, stopping, database unreachable")]
    member: NotRequired[Annotated[str, Field(description="/healthz in a cluster: this member's id")]]


class OfflineInfo(TypedDict):
    """``GET /api/offline``: where the offline runtime and the core's zip are, whether the runtime is
    installed, the bot levels offline play offers and the client's version (server/web/offline_routes.py)."""

    runtime: bool
    pyodide: str
    core: str
    levels: list[str]
    version: str


class OfflineUploaded(TypedDict):
    """``POST /api/me/offline-games``: the uploaded game's id, the profile that shows it, its record."""

    id: str
    profile: str
    record: str


class OfflineGame(TypedDict):
    """One uploaded offline game of ``GET /api/players/<id>/offline-games`` (never rated)."""

    id: str
    uploaded_at: str
    preset: str
    players: int
    seat: int
    opponents: list[str]
    winner: int | None
    won: bool
    rounds: int
    totals: list[int]
    rated: Literal[False]
    record: str


class OfflineGames(TypedDict):
    """``GET /api/players/<id>/offline-games``: the player's latest uploaded offline games."""

    games: list[OfflineGame]


# ------------------------------------------------------------------ clubs (server/club/clubs.py)

ClubRole = Literal["owner", "leader", "member"]
ClubAdmission = Literal["open", "request", "invitation"]


class ClubSummary(TypedDict):
    """A club as a list shows it, with the asker's place in it."""

    id: str
    name: str
    description: str
    language: Annotated[
        str, Field(description="a client language code (en, ja, ko, fr, pt-BR, es, de, zh-Hant)")
    ]
    admission: Annotated[
        ClubAdmission,
        Field(description="open: anyone with an account joins; request: a leader accepts; invitation only"),
    ]
    private: Annotated[bool, Field(description="shown to its members (and those invited) only")]
    members: int
    created_at: str
    role: Annotated[ClubRole | None, Field(description="the asker's role in it; null: not a member")]
    pending: Annotated[
        Literal["request", "invitation"] | None,
        Field(description="the asker asked to join (request) or was invited (invitation); null: neither"),
    ]


class ClubsAnswer(TypedDict):
    """``GET /api/clubs[?q=…]``: public clubs (whose name contains ``q``), the asker's clubs and
    invitations."""

    clubs: list[ClubSummary]
    mine: list[ClubSummary]
    invitations: list[ClubSummary]


class ClubCreated(TypedDict):
    """``POST /api/clubs`` (201): the new club, owned by its creator."""

    club: str


class ClubMember(TypedDict):
    """A member of a club, with its display rating in each pool it has played rated games in."""

    player: str
    name: str
    role: ClubRole
    joined_at: str
    ratings: Annotated[dict[str, int], Field(description="pool to display rating (pools played only)")]


class ClubPendingEntry(TypedDict):
    """An open request to join a club, or an invitation (shown to its owner and leaders)."""

    player: str
    name: str
    kind: Literal["request", "invitation"]
    at: str


class ClubBoardEntry(TypedDict):
    """A member's place on the club's leaderboard of one pool."""

    rank: int
    player: str
    name: str
    rating: int
    uncertainty: int
    provisional: bool
    games: int


class ClubBoard(TypedDict):
    """The club's leaderboard of one rating pool: its rated members, best first."""

    pool: str
    players: list[ClubBoardEntry]


class ClubAnswer(TypedDict):
    """``GET /api/clubs/<club>``: the club's page."""

    club: ClubSummary
    members: list[ClubMember]
    pending: Annotated[list[ClubPendingEntry], Field(description="empty unless the asker leads the club")]
    leaderboards: Annotated[list[ClubBoard], Field(description="the pools some member is rated in")]
    tournaments: Annotated[
        list[TournamentSummary],
        Field(description="its club-only tournaments not over (soonest first), then the latest finished"),
    ]


class ClubChanged(TypedDict):
    """A change of a player's place in a club: what it is now."""

    club: str
    player: str
    status: Annotated[
        Literal["owner", "leader", "member", "requested", "invited", "none", "deleted"],
        Field(description="the player's role, an open request or invitation, none, or the club is gone"),
    ]


class ClubChatLine(TypedDict):
    """One line of a club's chat (plain text: shown as text, never markup)."""

    id: int
    player: str
    name: str
    text: str
    at: float


class ClubChat(TypedDict):
    """``GET /api/clubs/<club>/chat``: the newest lines, oldest first (hidden ones are gone)."""

    lines: list[ClubChatLine]


class ClubLineHidden(TypedDict):
    """``POST /api/clubs/<club>/chat/<line>/hide``."""

    hidden: int


# --- tournaments (server/web/tournament_routes.py) ------------------------------------------------


class TournamentSummary(TypedDict):
    """A tournament as lists show it (``GET /api/tournaments``, the lobby)."""

    id: str
    name: str
    format: Annotated[str, Field(description="arena, swiss or round_robin")]
    preset: str
    players: Annotated[int, Field(description="players a table: 2 or 3")]
    clock: str
    rated: bool
    visibility: Annotated[str, Field(description="public, club or private (only with its link)")]
    status: Annotated[str, Field(description="scheduled, running, finished or cancelled")]
    starts_at: Annotated[float, Field(description="epoch seconds")]
    ends_at: Annotated[float | None, Field(description="an arena's end of pairing (epoch seconds)")]
    rounds: Annotated[int | None, Field(description="Swiss and round robin: the rounds")]
    round: Annotated[int, Field(description="the round paired last (0: none yet, and in an arena)")]
    entries: int
    page: str


class TournamentList(TypedDict):
    """``GET /api/tournaments``: public tournaments not over (soonest first), then the latest finished."""

    tournaments: list[TournamentSummary]
    now: Annotated[float, Field(description="the server's time (epoch seconds), for countdowns")]


class TournamentCreated(TypedDict):
    """``POST /api/tournaments``: the new tournament's id and page (a private one's page is its link)."""

    id: str
    page: str


class TournamentStanding(TypedDict):
    """One line of a tournament's standings (server/club/tournaments/model.py ``Standing``)."""

    rank: int
    player: str
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    games: int
    byes: int
    streak: bool
    withdrawn: bool
    paused: bool
    tie_break: Annotated[str | None, Field(description="what set them apart from the line above")]


class TournamentTable(TypedDict):
    """A table a tournament paired: its room (to watch or play) and, once over, its places."""

    number: int
    round: int
    room: str | None
    players: list[str]
    names: list[str]
    places: list[int] | None
    abandoned: list[str]
    watch: Annotated[str | None, Field(description="the room's page")]
    record: Annotated[str | None, Field(description="the finished game's record")]


class TournamentBye(TypedDict):
    """A Swiss or round-robin round's bye."""

    round: int
    player: str


class TournamentSeat(TypedDict):
    """The player's table now: where to play."""

    room: str
    seat: int


class TournamentMe(TypedDict):
    """The asking player's part of a tournament."""

    entered: bool
    paused: bool
    withdrawn: bool
    abandonments: int
    table: TournamentSeat | None


class TournamentAnswer(TypedDict):
    """``GET /api/tournaments/<id>`` (and the ``tournament`` message of ``/ws/tournament/<id>``)."""

    tournament: TournamentSummary
    club: Annotated[str | None, Field(description="a club-only tournament's club (its page: /#/club/<id>)")]
    club_name: Annotated[str | None, Field(description="that club's name, unless the club is private")]
    standings: list[TournamentStanding]
    tables: list[TournamentTable]
    byes: list[TournamentBye]
    me: TournamentMe
    now: Annotated[float, Field(description="the server's time (epoch seconds), for countdowns")]


class TournamentJoined(TypedDict):
    """``POST /api/tournaments/<id>/join``: the seat token of every table the player gets (keep it)."""

    tournament: str
    token: str
    me: TournamentMe


class TournamentEntryAnswer(TypedDict):
    """``POST /api/tournaments/<id>/withdraw`` and ``/pause``: the player's entry now."""

    tournament: str
    me: TournamentMe


TOURNAMENT_ANSWERS: Final[dict[str, Any]] = {
    "GET /api/tournaments": TournamentList,
    "POST /api/tournaments": TournamentCreated,
    "GET /api/tournaments/{tournament}": TournamentAnswer,
    "POST /api/tournaments/{tournament}/join": TournamentJoined,
    "POST /api/tournaments/{tournament}/withdraw": TournamentEntryAnswer,
    "POST /api/tournaments/{tournament}/pause": TournamentEntryAnswer,
}
"""The tournaments' answers, by method and route (part of :data:`ANSWERS`)."""


# --- friends: follows, blocks, challenges (server/web/friend_routes.py) ---


class PlayerEntry(TypedDict):
    """A player in a list of followers or of blocked players, and since when."""

    id: str
    name: str
    since: float


class FriendsAnswer(TypedDict):
    """``GET /api/friends``: whom the player follows (online, playing), who follows them, whom they
    block, and their challenges."""

    following: list[FriendEntry]
    followers: list[PlayerEntry]
    followers_count: int
    blocked: list[PlayerEntry]
    incoming: Annotated[list[ChallengeInfo], Field(description="challenges to the player, pending")]
    outgoing: Annotated[
        list[ChallengeInfo], Field(description="challenges the player sent, pending or answered lately")
    ]


class FriendChanged(TypedDict):
    """A follow or block made or removed: whether it changed anything."""

    player: str
    changed: bool
    left: NotRequired[list[str]]
    """A block: the round robins both players were in, which the blocker left."""


class ChallengeSent(TypedDict):
    """``POST /api/challenges``: the challenge, and the seat token the challenger will hold (seat 0)."""

    challenge: ChallengeInfo
    token: str


class ChallengeAnswered(TypedDict):
    """A challenge declined or cancelled."""

    challenge: ChallengeInfo


class ChallengeAccepted(TypedDict):
    """``POST /api/challenges/<id>/accept``: the room made, the seat and its token."""

    challenge: ChallengeInfo
    room: str
    seat: int
    token: str


ANSWERS: Final[dict[str, Any]] = {
    "GET /api/presets": PresetsAnswer,
    "GET /api/bots": BotsAnswer,
    "POST /api/rooms": RoomCreated,
    "GET /api/rooms/{room}": RoomInfo,
    "POST /api/rooms/{room}/join": RoomJoined,
    "GET /api/games": FinishedGames,
    "POST /api/my-games": HeldGames,
    "GET /api/games/{room}/record": GameRecord,
    "POST /api/score": ScoreDocument,
    "GET /api/offline": OfflineInfo,
    "POST /api/me/offline-games": OfflineUploaded,
    "GET /api/players/{player}/offline-games": OfflineGames,
    "GET /api/offline-games/{game}/record": GameRecord,
    "GET /api/schema": ProtocolSchema,
    "GET /api/me": MeAnswer,
    "POST /api/me": MeAnswer,
    "GET /api/me/games": PlayerGames,
    "GET /api/account": AccountAnswer,
    "POST /api/account": MeAnswer,
    "DELETE /api/account": AccountDeleted,
    "GET /api/account/export": AccountExport,
    "POST /api/account/password": PasswordChanged,
    "POST /api/account/recovery-codes": RecoveryCodes,
    "POST /api/account/recover": MeAnswer,
    "POST /api/account/reset": MeAnswer,
    "POST /api/session": MeAnswer,
    "DELETE /api/session": SignedOut,
    "GET /api/sessions": SessionsAnswer,
    "DELETE /api/sessions": SignedOut,
    "DELETE /api/sessions/{session}": SessionEnded,
    "GET /api/passkeys": PasskeysAnswer,
    "POST /api/passkeys/register/options": PasskeyOptions,
    "POST /api/passkeys/register/verify": PasskeySignedIn,
    "POST /api/passkeys/signin/options": PasskeyOptions,
    "POST /api/passkeys/signin/verify": PasskeySignedIn,
    "POST /api/passkeys/remove": PasskeyRemoved,
    "POST /api/rooms/{room}/report": ReportFiled,
    "GET /api/me/ratings": RatingsAnswer,
    "GET /api/leaderboard/{pool}": LeaderboardAnswer,
    "GET /api/players/{player}": ProfileAnswer,
    "GET /healthz": HealthAnswer,
    "GET /readyz": HealthAnswer,
    **TOURNAMENT_ANSWERS,
    # clubs (server/web/club_routes.py)
    "GET /api/clubs": ClubsAnswer,
    "POST /api/clubs": ClubCreated,
    "GET /api/clubs/{club}": ClubAnswer,
    "POST /api/clubs/{club}/join": ClubChanged,
    "POST /api/clubs/{club}/leave": ClubChanged,
    "POST /api/clubs/{club}/invite": ClubChanged,
    "POST /api/clubs/{club}/accept": ClubChanged,
    "POST /api/clubs/{club}/decline": ClubChanged,
    "POST /api/clubs/{club}/remove": ClubChanged,
    "POST /api/clubs/{club}/role": ClubChanged,
    "POST /api/clubs/{club}/settings": ClubSummary,
    "GET /api/clubs/{club}/chat": ClubChat,
    "POST /api/clubs/{club}/chat": ClubChatLine,
    "POST /api/clubs/{club}/chat/{line}/hide": ClubLineHidden,
    "POST /api/clubs/{club}/chat/{line}/report": ReportFiled,
    # friends
    "GET /api/friends": FriendsAnswer,
    "POST /api/follows": FriendChanged,
    "DELETE /api/follows/{player}": FriendChanged,
    "POST /api/blocks": FriendChanged,
    "DELETE /api/blocks/{player}": FriendChanged,
    "POST /api/challenges": ChallengeSent,
    "POST /api/challenges/{challenge}/accept": ChallengeAccepted,
    "POST /api/challenges/{challenge}/decline": ChallengeAnswered,
    "POST /api/challenges/{challenge}/cancel": ChallengeAnswered,
}
"""Each JSON answer's declaration, by method and route (the routes of server/web/app.py)."""


def schemas() -> dict[str, Any]:
    """The JSON Schema of each HTTP answer, by method and route (published at ``/api/schema``)."""
    return {route: TypeAdapter(declared).json_schema() for route, declared in ANSWERS.items()}


def error_schema() -> dict[str, Any]:
    """The JSON Schema of every error answer (4xx, 5xx)."""
    return TypeAdapter(ErrorAnswer).json_schema()


# ------------------------------------------------------------------ one builder per answer


def presets(entries: list[PresetEntry]) -> PresetsAnswer:
    """``GET /api/presets``."""
    return PresetsAnswer(presets=entries)


def preset_entry(name: str, description: str, players: list[int], options: dict[str, Any]) -> PresetEntry:
    """One preset of ``GET /api/presets``."""
    return PresetEntry(name=name, description=description, players=players, options=options)


def bots(levels: list[tuple[str, str]]) -> BotsAnswer:
    """``GET /api/bots``: each level and its description."""
    return BotsAnswer(bots=[BotEntry(level=level, description=about) for level, about in levels])


def room_created(room: str, token: str) -> RoomCreated:
    """``POST /api/rooms``: the creator holds seat 0."""
    return RoomCreated(room=room, seat=0, token=token, invite=f"/r/{room}")


def room_joined(room: str, seat: int, token: str) -> RoomJoined:
    """``POST /api/rooms/<room>/join``."""
    return RoomJoined(room=room, seat=seat, token=token)


def finished_games(games: list[FinishedGame]) -> FinishedGames:
    """``GET /api/games``."""
    return FinishedGames(games=games)


def held_games(games: list[HeldGame]) -> HeldGames:
    """``POST /api/my-games``."""
    return HeldGames(games=games)


def player_games(games: list[PlayerGame]) -> PlayerGames:
    """``GET /api/me/games``."""
    return PlayerGames(games=games)


def report_filed(report: int) -> ReportFiled:
    """``POST /api/rooms/<room>/report``."""
    return ReportFiled(report=report)


def me(player: PublicPlayer | None, csrf: str | None, account_id: str | None, login: str | None) -> MeAnswer:
    """``/api/me``'s answer: the player (None: no cookie yet), its CSRF token, the account signed in."""
    if player is None:
        return MeAnswer(player=None, csrf=None, account=None)
    account = None if account_id is None else AccountRef(id=account_id, login=login)
    return MeAnswer(player=player, csrf=csrf, account=account)


def account(info: AccountInfo, player: PublicPlayer, games: list[PlayerGame]) -> AccountAnswer:
    """``GET /api/account``."""
    return AccountAnswer(account=info, player=player, games=games)


def password_changed() -> PasswordChanged:
    """``POST /api/account/password``."""
    return PasswordChanged(changed=True)


def recovery_codes(codes: list[str]) -> RecoveryCodes:
    """``POST /api/account/recovery-codes``."""
    return RecoveryCodes(recovery_codes=codes)


def account_deleted(label: str) -> AccountDeleted:
    """``DELETE /api/account``."""
    return AccountDeleted(deleted=True, label=label)


def signed_out(ended: int | None = None) -> SignedOut:
    """``DELETE /api/session`` (``ended`` None), ``DELETE /api/sessions`` (how many ended)."""
    out = SignedOut(signed_in=False)
    if ended is not None:
        out["ended"] = ended
    return out


def sessions(found: list[SessionEntry]) -> SessionsAnswer:
    """``GET /api/sessions``."""
    return SessionsAnswer(sessions=found)


def session_ended() -> SessionEnded:
    """``DELETE /api/sessions/<id>``: one session ended."""
    return SessionEnded(ended=1)


def passkey_options(ceremony: str, public_key: dict[str, Any]) -> PasskeyOptions:
    """The options of a passkey ceremony for the browser."""
    return PasskeyOptions(ceremony=ceremony, publicKey=public_key)


def passkey_signed_in(player: PublicPlayer | None, csrf: str | None) -> PasskeySignedIn:
    """A passkey signed the browser in: what ``/api/me`` now says of the player."""
    return PasskeySignedIn(player=player, csrf=csrf, signed_in=True)


def passkey_added() -> PasskeySignedIn:
    """``POST /api/passkeys/register/verify``: a passkey added to the account signed in."""
    return PasskeySignedIn(added=True, signed_in=True)


def passkeys(player: PublicPlayer | None, found: list[PasskeyEntry]) -> PasskeysAnswer:
    """``GET /api/passkeys``: ``player`` None when no account is signed in."""
    if player is None:
        return PasskeysAnswer(signed_in=False, passkeys=found)
    return PasskeysAnswer(signed_in=True, player=player, passkeys=found)


def passkey_removed(credential_id: str) -> PasskeyRemoved:
    """``POST /api/passkeys/remove``."""
    return PasskeyRemoved(removed=credential_id)


def ratings(player: str | None, standing: dict[str, LobbyRating], families: dict[str, str]) -> RatingsAnswer:
    """``GET /api/me/ratings``."""
    return RatingsAnswer(player=player, ratings=standing, families=families)


def health(status: str, member: str | None = None) -> HealthAnswer:
    """``GET /healthz`` (with the member's id in a cluster) and ``GET /readyz``."""
    out = HealthAnswer(status=status)
    if member is not None:
        out["member"] = member
    return out
