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
from roppyakken.engine import Game, RoundLog, deal_sizes, deck_from_deal, seeded_deck
from roppyakken.errors import IllegalActionError, RecordError, RoppyakkenError
from roppyakken.rules import Rules, from_options

FORMAT: Final = "roppyakken-record/1"
COMMITMENT_SCHEME: Final = "roppyakken-deal/1"
"""What a deal commitment hashes: ``roppyakken-deal/1:<seed>:<salt>`` (docs/FORMATS-EXTENSIONS.md)."""
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_SALT: Final = re.compile(r"[0-9a-f]{32,64}")


def deal_commitment(seed: int, salt: str) -> str:
    """The SHA-256 commitment (lowercase hex) to a game's seed, shown before the game and checked after."""
    return hashlib.sha256(f"{COMMITMENT_SCHEME}:{seed}:{salt}".encode()).hexdigest()


def record_of(game: Game, names: Sequence[str] | None = None, *, salt: str | None = None) -> dict[str, Any]:
    """The record of ``game`` so far (complete if it is over; ``winner`` null if not).

    With ``salt`` (a game whose deals were committed to), the record also holds
    ``commitment`` and reveals ``salt``, so anyone can check every deal.
    """
    if not game.log:
        raise RoppyakkenError("this game keeps no log, so it has no record")
    if names is None:
        names = [f"seat {i}" for i in range(game.players)]
    if len(names) != game.players:
        raise RoppyakkenError(f"{len(names)} player names for {game.players} players")
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
        raise RecordError(f"record {str(p)!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"record {str(p)!r} cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record {str(p)!r} is not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise RecordError(f"record {str(p)!r} is not a JSON object")
    return data


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise RecordError(f"{where}: missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"{where}: {key!r} has the wrong type")
    return value


def rules_of(record: dict[str, Any]) -> Rules:
    """The rules a record was played under."""
    rules = _field(record, "rules", dict, "record")
    preset = _field(rules, "preset", str, "record rules")
    options = _field(rules, "options", dict, "record rules")
    try:
        return from_options(preset, options)
    except RoppyakkenError as exc:
        raise RecordError(f"record rules: {exc}") from None


def replay(record: dict[str, Any]) -> tuple[Game, list[str]]:
    """Replay a record through the engine, checking it; return the game and player names.

    Raises :class:`RecordError` naming the first thing that is malformed or disagrees.
    """
    if record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format is {record.get('format')!r})")
    rules = rules_of(record)
    seed = _field(record, "seed", int, "record")
    names = _field(record, "players", list, "record")
    if not all(isinstance(n, str) for n in names):
        raise RecordError("record: 'players' must be a list of names")
    n = len(names)
    try:
        rules.check_players(n)
    except RoppyakkenError as exc:
        raise RecordError(f"record: {exc}") from None
    rounds = _field(record, "rounds", list, "record")
    if not rounds:
        raise RecordError("record: no rounds")
    if "winner" not in record:
        raise RecordError("record: missing 'winner'")
    decks = [_deck_of(rules, n, r, i) for i, r in enumerate(rounds)]

    def deck_source(index: int, attempt: int) -> list[int]:
        if index < len(decks):
            if attempt:
                raise RecordError(f"round {index + 1}: the recorded deal would be redealt")
            return decks[index]
        return seeded_deck(seed, index, attempt)

    try:
        game = Game(rules, n, seed, deck_source=deck_source, first_dealer=rounds[0]["dealer"])
        for index, rnd in enumerate(rounds):
            last = index == len(rounds) - 1
            if not _replay_round(game, index, rnd, last):
                break
    except IllegalActionError as exc:
        raise RecordError(f"record disagrees with the rules: {exc}") from None
    winner = record["winner"]
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise RecordError("record: 'winner' must be a seat number or null")
    if winner != game.winner:
        raise RecordError(f"record says the winner is {winner}, the replay says {game.winner}")
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
        raise RecordError("record: 'commitment' must be 64 lowercase hex digits (SHA-256)")
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        raise RecordError("record: the commitment's 'salt' is missing or not 32 to 64 lowercase hex digits")
    if deal_commitment(seed, salt) != commitment:
        raise RecordError(
            "record: the revealed seed and salt do not match the commitment: the deals are not proven"
        )
    rounds = record["rounds"]
    try:
        game = Game(rules, n, seed)
    except RoppyakkenError as exc:
        raise RecordError(f"record: {exc}") from None
    if game.dealer != rounds[0]["dealer"]:
        raise RecordError(
            f"round 1: dealer {rounds[0]['dealer']} is not the one the seed draws ({game.dealer})"
        )
    try:
        for index, rnd in enumerate(rounds):
            last = index == len(rounds) - 1
            deal = _deal_of(rnd, index)
            while game.phase == REDEAL:
                game.apply(CallRedeal(_dealt(game.history[-1]) != deal))
            if _dealt(game.history[-1]) != deal:
                raise RecordError(f"round {index + 1}: the deal is not the one the revealed seed gives")
            if not _replay_round(game, index, rnd, last):
                break
    except IllegalActionError as exc:
        raise RecordError(f"record disagrees with the seed's deals: {exc}") from None


def _dealt(log: RoundLog) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    return tuple(log.hands), log.table, tuple(log.pile)


def _deal_of(rnd: dict[str, Any], index: int) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    where = f"round {index + 1}"  # numbered from 1, as the replay shows rounds
    hands = tuple(mask_of(parse_cards(h, f"{where} hand")) for h in rnd["hands"])
    return hands, mask_of(parse_cards(rnd["table"], f"{where} table")), tuple(parse_cards(rnd["pile"], where))


def _deck_of(rules: Rules, n: int, rnd: Any, index: int) -> list[int]:
    """Rebuild a deck that deals exactly the recorded hands, table and pile."""
    where = f"round {index + 1}"  # numbered from 1, as the replay shows rounds
    if not isinstance(rnd, dict):
        raise RecordError(f"{where}: not an object")
    dealer = _field(rnd, "dealer", int, where)
    if not 0 <= dealer < n:
        raise RecordError(f"{where}: dealer {dealer} is not a seat")
    hands_json = _field(rnd, "hands", list, where)
    if len(hands_json) != n:
        raise RecordError(f"{where}: {len(hands_json)} hands for {n} players")
    try:
        hands = [parse_cards(h if isinstance(h, list) else [h], f"{where} hand") for h in hands_json]
        table = parse_cards(_field(rnd, "table", list, where), f"{where} table")
        pile = parse_cards(_field(rnd, "pile", list, where), f"{where} pile")
    except RoppyakkenError as exc:
        raise RecordError(str(exc)) from None
    everything = [c for h in hands for c in h] + table + pile
    if len(everything) != NUM_CARDS or len(set(everything)) != NUM_CARDS:
        raise RecordError(f"{where}: the deal does not hold each of the 48 cards once")
    hand_size, table_size = deal_sizes(rules, n)
    if any(len(h) != hand_size for h in hands) or len(table) != table_size:
        raise RecordError(f"{where}: the deal sizes do not match the rules (R-3.1)")
    return deck_from_deal(rules, n, dealer, hands, table, pile)


def _replay_round(game: Game, index: int, rnd: dict[str, Any], last: bool) -> bool:
    """Replay one recorded round; return False if the record stops inside it."""
    where = f"round {index + 1}"  # numbered from 1, as the replay shows rounds
    if game.over:
        raise RecordError(f"{where}: the game was already over")
    if game.round != index:
        raise RecordError(f"{where}: the replay is at round {game.round + 1}")
    if game.dealer != rnd["dealer"]:
        raise RecordError(f"{where}: dealer is {rnd['dealer']}, the rules say {game.dealer}")
    declared = _field(rnd, "lucky_hands", list, where)
    if len(declared) != game.players:
        raise RecordError(f"{where}: 'lucky_hands' needs one entry per seat")
    events = _field(rnd, "events", list, where)
    while game.phase == REDEAL:
        game.apply(CallRedeal(False))  # the recorded deal was the one played
    while game.phase == DECLARE:
        seat = game.to_act
        choice = declared[seat]
        if choice is None:
            if not last or events:
                raise RecordError(f"{where}: seat {seat}'s lucky hands are missing")
            return False
        if not isinstance(choice, list) or not all(isinstance(s, str) for s in choice):
            raise RecordError(f"{where}: seat {seat}'s lucky hands must be a list of slugs")
        game.apply(Declare(tuple(choice)))
    for seat in range(game.players):
        if declared[seat] is not None and list(declared[seat]) != game.declared[seat]:
            raise RecordError(
                f"{where}: seat {seat} declared {declared[seat]}, the replay has {game.declared[seat]}"
            )
    log = game.history[index]
    for i, event in enumerate(events):
        _replay_event(game, f"{where} event {i}", event)
        if len(log.plays) <= i:
            raise RecordError(f"{where} event {i}: the replay did not reach this play")
        expected = _event_tuple(event, f"{where} event {i}")
        if log.plays[i] != expected:
            seat, source, card, taken = log.plays[i]
            raise RecordError(
                f"{where} event {i}: the replay has seat {seat} {source} {SLUGS[card]} "
                f"taking {slugs_of(taken)}"
            )
    if len(log.plays) > len(events) and not (last and log.score is None):
        raise RecordError(f"{where}: the record lists fewer plays than were made")
    scores = rnd.get("scores")
    if scores is None:
        if not last:
            raise RecordError(f"{where}: scores are missing")
        if log.score is not None:
            raise RecordError(f"{where}: the round is over but its scores are missing")
        return False
    if log.score is None:
        raise RecordError(f"{where}: the record scores a round that is not over")
    mine = [p.to_json() for p in log.score.players]
    if scores != mine:
        for seat, (theirs, ours) in enumerate(zip(scores, mine, strict=False)):
            if theirs != ours:
                raise RecordError(f"{where}: seat {seat} scores {theirs}, the replay scores {ours}")
        raise RecordError(f"{where}: the scores do not match the replay")
    if rnd.get("totals") != log.totals:
        raise RecordError(f"{where}: totals {rnd.get('totals')} but the replay has {log.totals}")
    return True


def _event_tuple(event: Any, where: str) -> tuple[int, str, int, int]:
    if not isinstance(event, dict):
        raise RecordError(f"{where}: not an object")
    seat = _field(event, "seat", int, where)
    source = _field(event, "source", str, where)
    if source not in ("hand", "pile"):
        raise RecordError(f"{where}: source must be 'hand' or 'pile'")
    try:
        (card,) = parse_cards([_field(event, "card", str, where)], where)
        taken = mask_of(parse_cards(_field(event, "captured", list, where), where))
    except RoppyakkenError as exc:
        raise RecordError(str(exc)) from None
    return seat, source, card, taken


def _replay_event(game: Game, where: str, event: Any) -> None:
    seat, source, card, taken = _event_tuple(event, where)
    if source == "hand":
        if game.phase != PLAY or game.to_act != seat:
            raise RecordError(f"{where}: seat {seat} plays from hand out of turn")
        game.apply(Play(card, taken), seat)
    elif game.phase == TAKE:
        if game.turned != card or game.to_act != seat:
            raise RecordError(f"{where}: the turned-up card is {SLUGS[game.turned]}, not {SLUGS[card]}")
        game.apply(Take(taken), seat)
