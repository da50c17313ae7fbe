"""The research environment's core: fixed action ids, observation vectors, rewards, episodes.

Standard library only, like the engine.  See ``docs/RESEARCH.md`` for the layouts.

Action ids (:data:`NUM_ACTIONS` = 2530, the same for every rule set and player count):

* ``0 .. 2351`` play: ``49 * card + low`` where ``low`` is the lowest card of the target
  set taken from the table, or 48 for none (the card goes to the table).  The targets a
  card may take are disjoint sets of table cards, so the lowest card names one.
* ``2352 .. 2399`` take with the turned-up card: ``2352 + low`` (lowest card of the target).
* ``2400 .. 2527`` declare lucky hands: ``2400 + bits``, bit ``i`` set for
  ``LUCKY_HAND_SLUGS[i]`` (0: declare nothing).
* ``2528`` play on without a redeal, ``2529`` call a redeal.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Final

from roppyakken.actions import PLAY, TAKE, Action, Declare, Play, Take
from roppyakken.cards import BRIGHT, KIND, NUM_CARDS, RIBBON, SLUGS, iter_cards
from roppyakken.engine import Game
from roppyakken.env.kernel import card_play_ids, play_id
from roppyakken.errors import RoppyakkenError
from roppyakken.infoset import game_of, sample_world
from roppyakken.options import CHOICES
from roppyakken.phase import Phase
from roppyakken.rules import Rules, preset
from roppyakken.view import SeatView, view_of
from roppyakken.yaku import LUCKY_HAND_SLUGS

PLAY_BASE: Final = 0
"""First play id: ``PLAY_BASE + 49 * card + low`` (``low`` = 48 when nothing is taken)."""
NO_TARGET: Final = NUM_CARDS
"""The ``low`` of a play that takes nothing."""
TAKE_BASE: Final = PLAY_BASE + NUM_CARDS * (NUM_CARDS + 1)
"""First take id: ``TAKE_BASE + low``."""
DECLARE_BASE: Final = TAKE_BASE + NUM_CARDS
"""First declaration id: ``DECLARE_BASE + bits`` over :data:`LUCKY_HAND_SLUGS`."""
REDEAL_BASE: Final = DECLARE_BASE + (1 << len(LUCKY_HAND_SLUGS))
"""``REDEAL_BASE``: play on; ``REDEAL_BASE + 1``: call a redeal."""
NUM_ACTIONS: Final = REDEAL_BASE + 2
"""Size of the action space (2530)."""

_LUCKY_INDEX: Final = {slug: i for i, slug in enumerate(LUCKY_HAND_SLUGS)}
PHASES: Final = (Phase.REDEAL, Phase.DECLARE, Phase.PLAY, Phase.TAKE)
"""The decision phases, in the order of the observation's ``phase`` one-hot."""

EPISODES: Final = ("round", "match")
REWARDS: Final = ("score", "result")


def action_id(action: Action) -> int:
    """The integer id of ``action`` (see the module docstring)."""
    if isinstance(action, Play):
        low = (action.target & -action.target).bit_length() - 1 if action.target else NO_TARGET
        return PLAY_BASE + action.card * (NUM_CARDS + 1) + low
    if isinstance(action, Take):
        if not action.target:
            raise RoppyakkenError("take: the turned-up card always takes a target")
        return TAKE_BASE + (action.target & -action.target).bit_length() - 1
    if isinstance(action, Declare):
        bits = 0
        for slug in action.hands:
            if slug not in _LUCKY_INDEX:
                raise RoppyakkenError(f"declare: unknown lucky hand {slug!r}")
            bits |= 1 << _LUCKY_INDEX[slug]
        return DECLARE_BASE + bits
    return REDEAL_BASE + int(action.call)


def describe_action(aid: int) -> str:
    """A readable name of an action id, without a position (``play pine-crane taking 0``)."""
    if not 0 <= aid < NUM_ACTIONS:
        raise RoppyakkenError(f"action id {aid} is out of range 0..{NUM_ACTIONS - 1}")
    if aid < TAKE_BASE:
        card, low = divmod(aid - PLAY_BASE, NUM_CARDS + 1)
        if low == NO_TARGET:
            return f"play {SLUGS[card]} to the table"
        return f"play {SLUGS[card]} taking the target with {SLUGS[low]}"
    if aid < DECLARE_BASE:
        return f"take the target with {SLUGS[aid - TAKE_BASE]}"
    if aid < REDEAL_BASE:
        bits = aid - DECLARE_BASE
        hands = [s for i, s in enumerate(LUCKY_HAND_SLUGS) if bits >> i & 1]
        return f"declare {', '.join(hands)}" if hands else "declare nothing"
    return "call a redeal" if aid == REDEAL_BASE + 1 else "play on without a redeal"


def legal_ids(legal: Sequence[Action]) -> dict[int, Action]:
    """The legal actions by id (the ids are distinct: targets are disjoint)."""
    return {action_id(a): a for a in legal}


def decode(aid: int, legal: Sequence[Action]) -> Action:
    """The legal action with id ``aid``; a one-line error if it is not legal now."""
    for a in legal:
        if action_id(a) == aid:
            return a
    raise RoppyakkenError(f"action id {aid} ({describe_action(aid)}) is not legal now")


# ---------------------------------------------------------------- observations


def _rule_features(rules: Rules, players: int) -> list[float]:
    out = [1.0 if players == 3 else 0.0, rules.target / 1000.0]
    for option in ("hand_four", "declare", "joker", "joker_wild_on_table", "round_scoring", "instant_win"):
        value = getattr(rules, option)
        out.extend(1.0 if value == choice else 0.0 for choice in CHOICES[option])
    out.append(0.0 if rules.fuke == "off" else 1.0)
    match = rules.match_rule
    out.extend(1.0 if match.kind == k else 0.0 for k in ("single", "first-to", "rounds"))
    out.append(match.count / 10.0)
    out.extend(rules.lucky_hands.get(slug, 0) / 1000.0 for slug in LUCKY_HAND_SLUGS)
    return out


RULE_FEATURES: Final = len(_rule_features(Rules(), 2))
"""Length of the ``rules`` section of an observation."""


def observation_layout(players: int) -> list[tuple[str, int, int]]:
    """The sections of an observation for ``players``: ``(name, offset, size)`` in order.

    Seats are relative to the observer: index 0 is the observer, 1 the next seat in
    play order, and so on.  Card sections are 48 entries in card-id order (0 or 1).
    """
    n = players
    k = len(LUCKY_HAND_SLUGS)
    sizes = [
        ("hand", NUM_CARDS),
        ("table", NUM_CARDS),
        ("captures", n * NUM_CARDS),
        ("revealed", n * NUM_CARDS),
        ("unseen", NUM_CARDS),
        ("turned", NUM_CARDS),
        ("hand_sizes", n),
        ("pile_count", 1),
        ("declared", n * k),
        ("held", k),
        ("phase", len(PHASES)),
        ("to_act", n),
        ("dealer", n),
        ("totals", n),
        ("legs", n),
        ("round", 1),
        ("rules", RULE_FEATURES),
    ]
    out = []
    offset = 0
    for name, size in sizes:
        out.append((name, offset, size))
        offset += size
    return out


def observation_size(players: int) -> int:
    """Length of an observation vector for ``players``."""
    _name, offset, size = observation_layout(players)[-1]
    return offset + size


_BYTE_FLOATS: Final = tuple(tuple(float(b >> i & 1) for i in range(8)) for b in range(256))


def _cards(mask: int) -> list[float]:
    t = _BYTE_FLOATS
    return [
        *t[mask & 255],
        *t[mask >> 8 & 255],
        *t[mask >> 16 & 255],
        *t[mask >> 24 & 255],
        *t[mask >> 32 & 255],
        *t[mask >> 40 & 255],
    ]


_RULE_CACHE: dict[tuple[Rules, int], list[float]] = {}


def _cached_rule_features(rules: Rules, players: int) -> list[float]:
    key = (rules, players)  # Rules is frozen and hashable (its hash computed once)
    found = _RULE_CACHE.get(key)
    if found is None:
        if len(_RULE_CACHE) > 256:
            _RULE_CACHE.clear()
        found = _RULE_CACHE[key] = _rule_features(rules, players)
    return found


def observe_view(view: SeatView) -> list[float]:
    """The observation vector of a seat's view (layout: :func:`observation_layout`).

    Built from the :class:`SeatView` alone, so it holds nothing the seat may not see:
    cards are scaled 0/1, counts by 16 (hands) and 48 (pile), totals by the target,
    the round index by 10.
    """
    seat = view.seat
    if seat is None:
        raise RoppyakkenError("a spectator has no observation")
    n = view.players
    order = [(seat + i) % n for i in range(n)]
    k = len(LUCKY_HAND_SLUGS)
    obs = _cards(view.hand)
    obs += _cards(view.table)
    for s in order:
        obs += _cards(view.captures[s])
    for s in order:
        obs += _cards(view.revealed[s])
    obs += _cards(view.unseen)
    obs += _cards(1 << view.turned if view.turned >= 0 else 0)
    obs += [view.hand_sizes[s] / 16.0 for s in order]
    obs.append(view.pile_count / 48.0)
    for s in order:
        declared = [0.0] * k
        for slug in view.declared[s]:
            declared[_LUCKY_INDEX[slug]] = 1.0
        obs += declared
    held = [0.0] * k
    for h in view.lucky_hands:
        held[_LUCKY_INDEX[h.slug]] = 1.0
    obs += held
    obs += [1.0 if view.phase == p else 0.0 for p in PHASES]
    obs += [1.0 if view.to_act == s else 0.0 for s in order]
    obs += [1.0 if view.dealer == s else 0.0 for s in order]
    target = float(view.rules.target)
    obs += [view.totals[s] / target for s in order]
    obs += [float(view.legs[s]) for s in order]
    obs.append(view.round / 10.0)
    obs += _cached_rule_features(view.rules, n)
    return obs


# ---------------------------------------------------------------- the environment


def resolve_rules(rules: str | Rules) -> Rules:
    """A rule set from a preset name or a :class:`Rules`."""
    return preset(rules) if isinstance(rules, str) else rules


class RoppyakkenEnv:
    """A Roppyakken game for research: integer actions, observation vectors, rewards.

    ``episode``: ``"round"`` (one deal, the default) or ``"match"`` (to the game's end).
    ``reward``: ``"score"`` (at each round's end, each seat gets its final round points
    less the mean of the others') or ``"result"`` (at the episode's end: +1 for the winner,
    ``-1/(players-1)`` for the others, 0 for all on a draw; the winner of a round episode
    is its unique top scorer).  Rewards are zero-sum.  Chance is explicit: ``reset(seed)``
    fixes the first-dealer draw and every deck; without a seed, episodes follow one
    another from the ``seed`` given here.  The full state is :attr:`game` (a
    :class:`~roppyakken.engine.Game`); agents should only be given :meth:`observe`,
    :meth:`view`, :meth:`legal_actions` and :meth:`action_mask`.
    """

    def __init__(
        self,
        rules: str | Rules = "classic",
        players: int = 2,
        *,
        episode: str = "round",
        reward: str = "score",
        seed: int | None = None,
    ) -> None:
        if episode not in EPISODES:
            raise RoppyakkenError(f"episode: expected round or match, not {episode!r}")
        if reward not in REWARDS:
            raise RoppyakkenError(f"reward: expected score or result, not {reward!r}")
        self.rules = resolve_rules(rules)
        self.rules.check_players(players)
        self.players = players
        self.episode = episode
        self.reward = reward
        self._seeds = random.Random(f"roppyakken-env:{seed}")
        self.obs_size = observation_size(players)
        self.game = Game(self.rules, players, 0, log=False)
        self.done = True
        self.returns = [0.0] * players
        self._legal: dict[int, Action] | None = None
        self._moves: dict[int, tuple[int, int]] | None = None
        self.reset()

    # ------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (a new game from ``seed``, or the next seed of the env)."""
        if seed is None:
            seed = self._seeds.getrandbits(63)
        self.seed = seed
        self.game = Game(self.rules, self.players, seed, log=False)
        if self.episode == "round":
            self.game.stop_at_round_end = True
        self.done = False
        self.returns = [0.0] * self.players
        self._legal = None
        self._moves = None

    @property
    def current_player(self) -> int:
        """The seat to act (meaningless once :attr:`done`)."""
        return self.game.to_act

    def moves(self) -> dict[int, tuple[int, int]]:
        """The legal card-play decisions by id as the engine's ``(card, target)`` (phases
        ``play`` and ``take``; empty in the others and when done), kept until the next step:
        the ids without building the actions."""
        if self.done:
            return {}
        if self._moves is None:
            game = self.game
            phase = game.phase
            if phase != PLAY and phase != TAKE:
                self._moves = {}
            elif phase == PLAY:
                self._moves = {
                    card * (NUM_CARDS + 1) + ((t & -t).bit_length() - 1 if t else NO_TARGET): (card, t)
                    for card, t in game.moves()
                }
            else:
                self._moves = {TAKE_BASE + (t & -t).bit_length() - 1: (card, t) for card, t in game.moves()}
        return self._moves

    def legal_map(self) -> dict[int, Action]:
        """The legal actions of the seat to act by id (empty when done); kept until the next step."""
        if self._legal is None:
            self._legal = {} if self.done else legal_ids(self.game.legal_actions())
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, increasing (empty when done)."""
        return sorted(self.legal_map())

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to act, in the engine's order (empty when done)."""
        if self.done:
            return []
        ids = card_play_ids(self.game)
        return ids if ids else list(self.legal_map())

    def action_mask(self) -> list[int]:
        """A list of :data:`NUM_ACTIONS` 0/1 entries: 1 for each legal action id."""
        mask = [0] * NUM_ACTIONS
        for aid in self.legal_map():
            mask[aid] = 1
        return mask

    def action(self, aid: int) -> Action:
        """The engine action of a legal id (a one-line error if it is not legal)."""
        found = self.legal_map().get(aid)
        if found is None:
            if not 0 <= aid < NUM_ACTIONS:
                raise RoppyakkenError(f"action id {aid} is out of range 0..{NUM_ACTIONS - 1}")
            raise RoppyakkenError(f"action id {aid} ({describe_action(aid)}) is not legal now")
        return found

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now (hand, table, captures, counts; the legal actions on its turn)."""
        return view_of(self.game, seat)

    def observe(self, seat: int) -> list[float]:
        """The observation vector of ``seat`` (see :func:`observation_layout`)."""
        return observe_view(view_of(self.game, seat))

    def step(self, aid: int) -> list[float]:
        """Apply the legal action ``aid`` for the seat to act; return every seat's reward.

        An illegal id raises a one-line :class:`RoppyakkenError` and changes nothing.
        """
        if self.done:
            raise RoppyakkenError("the episode is over: reset the environment")
        if not isinstance(aid, int):
            try:
                aid = operator.index(aid)  # a numpy integer
            except TypeError:
                raise RoppyakkenError(f"action id {aid!r} is not an integer") from None
        game = self.game
        before = game.last_parts
        if play_id(game, aid):  # a card-play decision, played by the compiled path
            return self._after_step(before)
        return self.step_action(self.action(aid))

    def step_action(self, action: Action) -> list[float]:
        """:meth:`step` with the engine action itself (a bot's choice), not its id.

        An illegal action raises the engine's :class:`IllegalActionError` and changes nothing.
        """
        if self.done:
            raise RoppyakkenError("the episode is over: reset the environment")
        game = self.game
        before = game.last_parts
        game.apply(action)
        return self._after_step(before)

    def _after_step(self, before: object) -> list[float]:
        """The rewards of the step just made (``before``: the last score's parts before it)."""
        game = self.game
        self._legal = None
        self._moves = None
        rewards = [0.0] * self.players
        parts = game.last_parts
        if parts is None or parts is before:
            return rewards  # no round ended: nothing to reward
        finals = [seat.final for seat in parts.seats]  # (not the public score: built on demand)
        if self.reward == "score":
            rewards = _differences(finals)
        if self.episode == "round" or game.over:
            self.done = True
            if self.reward == "result":
                rewards = self._result(finals)
        for s in range(self.players):
            self.returns[s] += rewards[s]
        return rewards

    def _result(self, finals: Sequence[int]) -> list[float]:
        n = self.players
        winner = self.game.winner if self.episode == "match" else None
        if self.episode == "round":
            best = max(finals)
            top = [s for s in range(n) if finals[s] == best]
            winner = top[0] if len(top) == 1 else None
        if winner is None:
            return [0.0] * n
        return [1.0 if s == winner else -1.0 / (n - 1) for s in range(n)]

    # ------------------------------------------------------------ search

    def clone(self) -> RoppyakkenEnv:
        """An independent copy (same state, same seed sequence), for search."""
        env = RoppyakkenEnv.__new__(RoppyakkenEnv)
        env.rules = self.rules
        env.players = self.players
        env.episode = self.episode
        env.reward = self.reward
        env._seeds = random.Random()
        env._seeds.setstate(self._seeds.getstate())
        env.obs_size = self.obs_size
        env.seed = self.seed
        env.game = self.game.clone()
        env.done = self.done
        env.returns = list(self.returns)
        env._legal = None
        env._moves = None
        return env

    def sample(self, seat: int, rng: random.Random) -> RoppyakkenEnv:
        """A copy in a world drawn uniformly among those ``seat`` cannot tell from this one.

        The other hands (less their revealed cards) and the pile order are redrawn with
        :func:`roppyakken.infoset.sample_world`; card-play decisions only (phases
        ``play`` and ``take``).  Rounds after this one are dealt from fresh seeds.
        """
        view = view_of(self.game, seat)
        if not view.phase.card_play:
            raise RoppyakkenError(f"worlds are sampled at card play, not in phase {view.phase.value!r}")
        game = game_of(view, sample_world(view, rng), seed=rng.getrandbits(63))
        env = self.clone()
        game.stop_at_round_end = self.game.stop_at_round_end
        env.game = game
        return env

    # ------------------------------------------------------------ display

    def render(self, seat: int | None = None, ansi: bool = False) -> str:
        """The table as text: every hand (``seat=None``) or only what ``seat`` sees.

        ``ansi`` colours the cards by kind (brights yellow, animals red, ribbons
        magenta, chaff dim) with ANSI escape codes.
        """
        return render_game(self.game, seat, ansi)


def _differences(finals: Sequence[int]) -> list[float]:
    n = len(finals)
    total = sum(finals)
    return [f - (total - f) / (n - 1) for f in finals]


_COLOURS: Final = {BRIGHT: "\x1b[1;33m", "animal": "\x1b[31m", RIBBON: "\x1b[35m", "chaff": "\x1b[2m"}


def _names(mask: int, ansi: bool) -> str:
    if not mask:
        return "-"
    if not ansi:
        return " ".join(SLUGS[c] for c in iter_cards(mask))
    return " ".join(f"{_COLOURS[KIND[c]]}{SLUGS[c]}\x1b[0m" for c in iter_cards(mask))


def render_game(game: Game, seat: int | None = None, ansi: bool = False) -> str:
    """A text picture of ``game``: all hands, or only what ``seat`` may see (see ``render``)."""
    n = game.players
    lines = [
        f"round {game.round + 1}  dealer {game.dealer}  phase {game.phase}  to act {game.to_act}"
        f"  totals {' '.join(str(t) for t in game.totals)}",
        f"table: {_names(game.table, ansi)}",
    ]
    if game.turned >= 0:
        lines.append(f"turned up: {_names(1 << game.turned, ansi)}")
    lines.append(f"pile: {len(game.pile) - game.pile_pos} cards")
    for s in range(n):
        hand = game.hands[s]
        if seat is None or s == seat:
            shown = _names(hand, ansi)
        else:
            revealed = game.revealed[s] & hand
            shown = f"{hand.bit_count()} cards" + (f", shown {_names(revealed, ansi)}" if revealed else "")
        lines.append(f"seat {s} hand: {shown}")
        lines.append(f"seat {s} took: {_names(game.captures[s], ansi)}")
    return "\n".join(lines) + "\n"
