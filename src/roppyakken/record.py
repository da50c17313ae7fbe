"""Game records (FORMATS.md §3, ``roppyakken-record/1``): save, load, replay, resume.

A record stores the rules, the seed, each round's deal and every decision.
:func:`replay` rebuilds the game from it through the engine, re-deriving every
capture, score and total, and raises :class:`RecordError` at the first
disagreement.  A record of an unfinished game replays to a game that can be
played on (resumed).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from roppyakken.actions import DECLARE, PLAY, REDEAL, TAKE, CallRedeal, Declare, Play, Take
from roppyakken.cards import NUM_CARDS, SLUGS, mask_of, parse_cards, slugs_of
from roppyakken.engine import Game, RoundLog, check_seed, deal_sizes, deck_from_deal, seeded_deck
from roppyakken.errors import IllegalActionError, Phrase, RecordError, RoppyakkenError, shown
from roppyakken.i18n import N_, json_reason, os_reason
from roppyakken.rules import Rules, from_options

FORMAT: Final = "roppyakken-record/1"
COMMITMENT_SCHEME: Final = "roppyakken-deal/1"
"""What a deal commitment hashes: ``roppyakken-deal/1:<seed>:<salt>`` (docs/FORMATS-EXTENSIONS.md)."""
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_SALT: Final = re.compile(r"[0-9a-f]{32,64}")
RECORD: Final = Phrase(N_("record"))
RECORD_RULES: Final = Phrase(N_("record rules"))


def _round(index: int) -> Phrase:
    """Where in a record: round ``index`` numbered from 1, as the replay shows rounds."""
    return Phrase(N_("round {number}"), number=index + 1)


def _event(index: int, event: int) -> Phrase:
    """Where in a record: event ``event`` of round ``index``."""
    return Phrase(N_("round {number} event {event}"), number=index + 1, event=event + 1)


def _shown(value: object) -> str:
    """A value of the record as the record writes it (JSON: ``null``, not Python's ``None``)."""
    return shown(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _seat(seat: int) -> int:
    """A seat as people number it, from 1 (records number seats from 0)."""
    return seat + 1


def _winner(names: Sequence[str], winner: int | None) -> Phrase:
    """Who a record or a replay says won, by name and seat numbered from 1."""
    if winner is None:
        return Phrase(N_("nobody has won yet"))
    if 0 <= winner < len(names):
        return Phrase(N_("{name} (seat {n}) wins"), name=names[winner], n=_seat(winner))
    return Phrase(N_("seat {n} wins"), n=_seat(winner))


def _restated(exc: RoppyakkenError) -> RecordError:
    """``exc`` as a record error, with its template and fields (so it is still translated)."""
    return RecordError(exc.template, **exc.fields)


def deal_commitment(seed: int, salt: str) -> str:
    """The SHA-256 commitment (lowercase hex) to a game's seed, shown before the game and checked after."""
    return hashlib.sha256(f"{COMMITMENT_SCHEME}:{seed}:{salt}".encode()).hexdigest()


def record_of(game: Game, names: Sequence[str] | None = None, *, salt: str | None = None) -> dict[str, Any]:
    """The record of ``game`` so far (complete if it is over; ``winner`` null if not).

    With ``salt`` (a game whose deals were committed to), the record also holds
    ``commitment`` and reveals ``salt``, so anyone can check every deal.
    """
    if not game.log:
        raise RoppyakkenError(N_("this game keeps no log, so it has no record"))
    if names is None:
        names = [f"seat {i}" for i in range(game.players)]
    if len(names) != game.players:
        raise RoppyakkenError(
            N_("{names} player names for {players} players"), names=len(names), players=game.players
        )
    return {
        "format": FORMAT,
        "rules": {"preset": game.rules.preset, "options": game.rules.options()},
        "seed": game.seed,
        **({} if salt is None else {"commitment": deal_commitment(game.seed, salt), "salt": salt}),
        "players": list(names),
        "rounds": [_round_json(r) for r in game.history],
        "winner": game.winner,
    }


def _round_json(log: RoundLog) -> dict[str, Any]:
    return {
        "dealer": log.dealer,
        "hands": [slugs_of(h) for h in log.hands],
        "table": slugs_of(log.table),
        "pile": [SLUGS[c] for c in log.pile],
        "lucky_hands": [None if d is None else list(d) for d in log.declared],
        "events": [
            {"seat": seat, "source": source, "card": SLUGS[card], "captured": slugs_of(taken)}
            for seat, source, card, taken in log.plays
        ],
        "scores": None if log.score is None else [p.to_json() for p in log.score.players],
        "totals": None if log.totals is None else list(log.totals),
    }


def dumps(record: dict[str, Any]) -> str:
    """A record as compact, stable JSON text (one round per line for readable diffs)."""
    head = {k: v for k, v in record.items() if k != "rounds"}
    rounds = ",\n  ".join(json.dumps(r, separators=(",", ":")) for r in record["rounds"])
    body = json.dumps(head, separators=(",", ":"))[:-1]
    return f'{body},"rounds":[\n  {rounds}\n]}}\n'


def save(path: str | Path, game: Game, names: Sequence[str] | None = None) -> None:
    """Write the record of ``game`` to ``path``."""
    Path(path).write_text(dumps(record_of(game, names)), encoding="utf-8")


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file as JSON (its content is checked by :func:`replay`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(N_("record '{path}' not found"), path=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(
            N_("record '{path}' cannot be read: {reason}"),
            path=str(p),
            reason=os_reason(exc) if isinstance(exc, OSError) else Phrase(N_("it is not UTF-8 text")),
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            N_("record '{path}' is not JSON: {reason} at line {line}"),
            path=str(p),
            reason=json_reason(exc.msg),
            line=exc.lineno,
        ) from None
    if not isinstance(data, dict):
        raise RecordError(N_("record '{path}' is not a JSON object"), path=str(p))
    return data


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: Phrase) -> Any:
    if key not in obj:
        raise RecordError(N_("{where}: missing '{key}'"), where=where, key=key)
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(N_("{where}: '{key}' has the wrong type"), where=where, key=key)
    return value


def rules_of(record: dict[str, Any]) -> Rules:
    """The rules a record was played under."""
    rules = _field(record, "rules", dict, RECORD)
    preset = _field(rules, "preset", str, RECORD_RULES)
    options = _field(rules, "options", dict, RECORD_RULES)
    try:
        return from_options(preset, options)
    except RoppyakkenError as exc:
        raise RecordError(N_("record rules: {error}"), error=exc) from None


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Replay a record through the engine, checking it; return the game and player names.

    Raises :class:`RecordError` naming the first thing that is malformed or disagrees.
    """
    if "format" not in record:
        raise RecordError(N_("not a {expected} record: it has no 'format'"), expected=FORMAT)
    if record.get("format") != FORMAT:
        raise RecordError(
            N_("not a {expected} record (format is {found})"),
            expected=FORMAT,
            found=_shown(record.get("format")),
        )
    rules = rules_of(record)
    seed = _field(record, "seed", int, RECORD)
    try:
        check_seed(seed)
    except RoppyakkenError as exc:
        raise RecordError(N_("record: {error}"), error=exc) from None
    names = _field(record, "players", list, RECORD)
    if not all(isinstance(n, str) for n in names):
        raise RecordError(N_("record: 'players' must be a list of names"))
    n = len(names)
    try:
        rules.check_players(n)
    except RoppyakkenError as exc:
        raise RecordError(N_("record: {error}"), error=exc) from None
    rounds = _field(record, "rounds", list, RECORD)
    if not rounds:
        raise RecordError(N_("record: no rounds"))
    if "winner" not in record:
        raise RecordError(N_("record: missing 'winner'"))
    decks = [_deck_of(rules, n, r, i) for i, r in enumerate(rounds)]

    def deck_source(index: int, attempt: int) -> list[int]:
        if index < len(decks):
            if attempt:
                raise RecordError(N_("{where}: the recorded deal would be redealt"), where=_round(index))
            return decks[index]
        return seeded_deck(seed, index, attempt)

    try:
        game = Game(rules, n, seed, deck_source=deck_source, first_dealer=rounds[0]["dealer"])
        for index, rnd in enumerate(rounds):
            last = index == len(rounds) - 1
            if not _replay_round(game, index, rnd, last):
                break
    except IllegalActionError as exc:
        raise RecordError(N_("record disagrees with the rules: {error}"), error=exc) from None
    winner = record["winner"]
    if winner is not None and (
        not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < n
    ):
        raise RecordError(
            N_("record: 'winner' must be a seat number (0 to {last}: records count seats from 0) or null"),
            last=n - 1,
        )
    if winner != game.winner:
        raise RecordError(
            N_("the record says {winner}, the replay says {replayed}"),
            winner=_winner(names, winner),
            replayed=_winner(names, game.winner),
        )
    if "commitment" in record:
        verify_deals(record, rules, n, seed)
    return game, list(names)


def committed(record: dict[str, Any]) -> str | None:
    """The record's deal commitment, or None for a record without one (older, or a chosen seed)."""
    value = record.get("commitment")
    return value if isinstance(value, str) else None


def verify_deals(record: dict[str, Any], rules: Rules, n: int, seed: int) -> None:
    """Check the commitment against the revealed seed and salt, and re-derive every deal from the seed.

    The first dealer and each round's deal must be the ones the seed gives
    (a round redealt on a player's call is followed to the deal that was played).
    Raises :class:`RecordError` at the first disagreement.
    """
    commitment = record.get("commitment")
    salt = record.get("salt")
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        raise RecordError(N_("record: 'commitment' must be 64 lowercase hex digits (SHA-256)"))
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        raise RecordError(
            N_("record: the commitment's 'salt' is missing or not 32 to 64 lowercase hex digits")
        )
    if deal_commitment(seed, salt) != commitment:
        raise RecordError(
            N_("record: the revealed seed and salt do not match the commitment: the deals are not proven")
        )
    rounds = record["rounds"]
    try:
        game = Game(rules, n, seed)
    except RoppyakkenError as exc:
        raise RecordError(N_("record: {error}"), error=exc) from None
    if game.dealer != rounds[0]["dealer"]:
        raise RecordError(
            N_("{where}: the dealer is seat {dealer}, the seed draws seat {drawn}"),
            where=_round(0),
            dealer=_seat(rounds[0]["dealer"]),
            drawn=_seat(game.dealer),
        )
    try:
        for index, rnd in enumerate(rounds):
            last = index == len(rounds) - 1
            deal = _deal_of(rnd, index)
            while game.phase == REDEAL:
                game.apply(CallRedeal(_dealt(game.history[-1]) != deal))
            if _dealt(game.history[-1]) != deal:
                raise RecordError(
                    N_("{where}: the deal is not the one the revealed seed gives"), where=_round(index)
                )
            if not _replay_round(game, index, rnd, last):
                break
    except IllegalActionError as exc:
        raise RecordError(N_("record disagrees with the seed's deals: {error}"), error=exc) from None


def _dealt(log: RoundLog) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    return tuple(log.hands), log.table, tuple(log.pile)


def _deal_of(rnd: dict[str, Any], index: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    where = _round(index)
    hands = tuple(mask_of(parse_cards(h, Phrase(N_("{where} hand"), where=where))) for h in rnd["hands"])
    table = mask_of(parse_cards(rnd["table"], Phrase(N_("{where} table"), where=where)))
    return hands, table, tuple(parse_cards(rnd["pile"], where))


def _deck_of(rules: Rules, n: int, rnd: Any, index: int) -> list[int]:
    """Rebuild a deck that deals exactly the recorded hands, table and pile."""
    where = _round(index)
    if not isinstance(rnd, dict):
        raise RecordError(N_("{where}: not an object"), where=where)
    dealer = _field(rnd, "dealer", int, where)
    if not 0 <= dealer < n:
        raise RecordError(
            N_("{where}: 'dealer' is {dealer}, not a seat (0 to {last}: records count seats from 0)"),
            where=where,
            dealer=dealer,
            last=n - 1,
        )
    hands_json = _field(rnd, "hands", list, where)
    if len(hands_json) != n:
        raise RecordError(
            N_("{where}: {hands} hands for {players} players"), where=where, hands=len(hands_json), players=n
        )
    try:
        hand = Phrase(N_("{where} hand"), where=where)
        hands = [parse_cards(h if isinstance(h, list) else [h], hand) for h in hands_json]
        table = parse_cards(_field(rnd, "table", list, where), Phrase(N_("{where} table"), where=where))
        pile = parse_cards(_field(rnd, "pile", list, where), Phrase(N_("{where} pile"), where=where))
    except RoppyakkenError as exc:
        raise _restated(exc) from None
    everything = [c for h in hands for c in h] + table + pile
    if len(everything) != NUM_CARDS or len(set(everything)) != NUM_CARDS:
        raise RecordError(N_("{where}: the deal does not hold each of the 48 cards once"), where=where)
    hand_size, table_size = deal_sizes(rules, n)
    if any(len(h) != hand_size for h in hands) or len(table) != table_size:
        raise RecordError(N_("{where}: the deal sizes do not match the rules (R-3.1)"), where=where)
    return deck_from_deal(rules, n, dealer, hands, table, pile)


def _replay_round(game: Game, index: int, rnd: dict[str, Any], last: bool) -> bool:
    """Replay one recorded round; return False if the record stops inside it."""
    where = _round(index)
    if game.over:
        raise RecordError(N_("{where}: the game was already over"), where=where)
    if game.round != index:
        raise RecordError(N_("{where}: the replay is at round {number}"), where=where, number=game.round + 1)
    if game.dealer != rnd["dealer"]:
        raise RecordError(
            N_("{where}: the dealer is seat {dealer}, the rules say seat {ruled}"),
            where=where,
            dealer=_seat(rnd["dealer"]),
            ruled=_seat(game.dealer),
        )
    declared = _field(rnd, "lucky_hands", list, where)
    if len(declared) != game.players:
        raise RecordError(N_("{where}: 'lucky_hands' needs one entry per seat"), where=where)
    events = _field(rnd, "events", list, where)
    while game.phase == REDEAL:
        game.apply(CallRedeal(False))  # the recorded deal was the one played
    while game.phase == DECLARE:
        seat = game.to_act
        choice = declared[seat]
        if choice is None:
            if not last or events:
                raise RecordError(
                    N_("{where}: seat {seat}'s lucky hands are missing"), where=where, seat=_seat(seat)
                )
            return False
        if not isinstance(choice, list) or not all(isinstance(s, str) for s in choice):
            raise RecordError(
                N_("{where}: seat {seat}'s lucky hands must be a list of slugs"),
                where=where,
                seat=_seat(seat),
            )
        game.apply(Declare(tuple(choice)))
    for seat in range(game.players):
        if declared[seat] is not None and list(declared[seat]) != game.declared[seat]:
            raise RecordError(
                N_("{where}: seat {seat} declared {declared}, the replay has {replayed}"),
                where=where,
                seat=_seat(seat),
                declared=_shown(declared[seat]),
                replayed=_shown(game.declared[seat]),
            )
    log = game.history[index]
    for i, event in enumerate(events):
        _replay_event(game, _event(index, i), event)
        if len(log.plays) <= i:
            raise RecordError(N_("{where}: the replay did not reach this play"), where=_event(index, i))
        expected = _event_tuple(event, _event(index, i))
        if log.plays[i] != expected:
            seat, source, card, taken = log.plays[i]
            raise RecordError(
                N_("{where}: in the replay seat {seat} plays {card} from the hand, taking {taken}")
                if source == "hand"
                else N_("{where}: in the replay seat {seat} turns up {card}, taking {taken}"),
                where=_event(index, i),
                seat=_seat(seat),
                card=SLUGS[card],
                taken=_shown(slugs_of(taken)),
            )
    if len(log.plays) > len(events) and not (last and log.score is None):
        raise RecordError(N_("{where}: the record lists fewer plays than were made"), where=where)
    scores = rnd.get("scores")
    if scores is None:
        if not last:
            raise RecordError(N_("{where}: scores are missing"), where=where)
        if log.score is not None:
            raise RecordError(N_("{where}: the round is over but its scores are missing"), where=where)
        return False
    if log.score is None:
        raise RecordError(N_("{where}: the record scores a round that is not over"), where=where)
    mine = [p.to_json() for p in log.score.players]
    if scores != mine:
        for seat, (theirs, ours) in enumerate(zip(scores, mine, strict=False)):
            if theirs != ours:
                raise RecordError(
                    N_("{where}: seat {seat} scores {theirs}, the replay scores {ours}"),
                    where=where,
                    seat=_seat(seat),
                    theirs=_shown(theirs),
                    ours=_shown(ours),
                )
        raise RecordError(N_("{where}: the scores do not match the replay"), where=where)
    if rnd.get("totals") != log.totals:
        raise RecordError(
            N_("{where}: totals {totals} but the replay has {replayed}"),
            where=where,
            totals=_shown(rnd.get("totals")),
            replayed=_shown(log.totals),
        )
    return True


def _event_tuple(event: Any, where: Phrase) -> tuple[int, str, int, int]:
    if not isinstance(event, dict):
        raise RecordError(N_("{where}: not an object"), where=where)
    seat = _field(event, "seat", int, where)
    source = _field(event, "source", str, where)
    if source not in ("hand", "pile"):
        raise RecordError(N_("{where}: source must be 'hand' or 'pile'"), where=where)
    try:
        (card,) = parse_cards([_field(event, "card", str, where)], where)
        taken = mask_of(parse_cards(_field(event, "captured", list, where), where))
    except RoppyakkenError as exc:
        raise _restated(exc) from None
    return seat, source, card, taken


def _replay_event(game: Game, where: Phrase, event: Any) -> None:
    seat, source, card, taken = _event_tuple(event, where)
    if source == "hand":
        if game.phase != PLAY or game.to_act != seat:
            raise RecordError(
                N_("{where}: seat {seat} plays from hand out of turn"), where=where, seat=_seat(seat)
            )
        game.apply(Play(card, taken), seat)
    elif game.phase == TAKE:
        if game.turned != card or game.to_act != seat:
            raise RecordError(
                N_("{where}: the turned-up card is {turned}, not {card}"),
                where=where,
                turned=SLUGS[game.turned],
                card=SLUGS[card],
            )
        game.apply(Take(taken), seat)
