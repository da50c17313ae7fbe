"""The guided first game: a scripted deal and the steps that walk a newcomer through it.

One round of the ``classic`` preset for two players, dealt from a fixed deck through the
engine's own API (:func:`roppyakken.engine.deck_from_deal`).  The learner is seat 0 and
deals, so plays first; the opponent's decisions are scripted too.  The round teaches, in
order: a lucky hand and whether to declare it, matching a month, choosing a capture, the
turned-up card, yaku building, the joker, a card that matches nothing, the end of the round
and its score, and an instant win (Four Brights, completed with the joker, wins the game at
the end of the round).

Front ends drive a :class:`Lesson`: show :attr:`Lesson.step`'s message, wait for one of its
accepted actions (:meth:`Lesson.attempt`; a step that accepts none is read and
:meth:`Lesson.acknowledge`-d), show its explanation, and go on.  Messages are English
gettext message ids (translated with :func:`roppyakken.i18n._`); each names its cards in
words, so that every language may phrase them naturally.  :func:`tutorial_json` is the
whole script for a browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from roppyakken.actions import Action, Declare, Play, Take
from roppyakken.cards import card_id, mask_of
from roppyakken.engine import Game, deck_from_deal
from roppyakken.errors import IllegalActionError
from roppyakken.events import Event
from roppyakken.i18n import N_
from roppyakken.rules import preset

PRESET: Final = "classic"
"""The rules the tutorial is played under."""
PLAYERS: Final = 2
LEARNER: Final = 0
"""The learner's seat; they deal, so they declare and play first."""
OPPONENT: Final = 1


def _cards(*slugs: str) -> list[int]:
    return [card_id(s) for s in slugs]


def _play(card: str, *target: str) -> Play:
    return Play(card_id(card), mask_of(_cards(*target)))


def _take(*target: str) -> Take:
    return Take(mask_of(_cards(*target)))


HANDS: Final[tuple[tuple[str, ...], ...]] = (
    (
        "peony-ribbon",
        "peony-chaff-1",
        "peony-chaff-2",
        "pampas-chaff-1",
        "cherry-chaff-1",
        "willow-rainman",
        "clover-chaff-1",
        "iris-chaff-1",
    ),
    (
        "wisteria-cuckoo",
        "wisteria-chaff-1",
        "iris-chaff-2",
        "maple-chaff-1",
        "maple-ribbon",
        "chrysanthemum-chaff-1",
        "plum-chaff-1",
        "willow-swallow",
    ),
)
"""The hands dealt, by seat."""

TABLE: Final[tuple[str, ...]] = (
    "pine-crane",
    "pine-ribbon",
    "cherry-curtain",
    "cherry-ribbon",
    "peony-butterflies",
    "clover-boar",
    "pampas-moon",
    "paulownia-phoenix",
)
"""The eight cards dealt face up to the table."""

PILE: Final[tuple[str, ...]] = (
    "plum-chaff-2",
    "maple-chaff-2",
    "pine-chaff-2",
    "wisteria-chaff-2",
    "chrysanthemum-chaff-2",
    "iris-ribbon",
    "paulownia-chaff-1",
    "pampas-geese",
    "chrysanthemum-sake",
    "clover-chaff-2",
    "wisteria-ribbon",
    "maple-deer",
    "iris-bridge",
    "clover-ribbon",
    "pampas-chaff-2",
    "plum-ribbon",
    "pine-chaff-1",
    "plum-warbler",
    "cherry-chaff-2",
    "chrysanthemum-ribbon",
    "willow-ribbon",
    "willow-lightning",
    "paulownia-yellow",
    "paulownia-chaff-2",
)
"""The draw pile, top first: the first sixteen are turned up, one a turn; the last eight are
never seen."""

OPPONENT_MOVES: Final[tuple[Action, ...]] = (
    _play("wisteria-chaff-1"),
    _play("wisteria-cuckoo", "wisteria-chaff-1"),
    _play("chrysanthemum-chaff-1", "chrysanthemum-chaff-2"),
    _play("plum-chaff-1", "plum-chaff-2"),
    _play("maple-chaff-1", "maple-chaff-2"),
    _play("maple-ribbon"),
    _play("iris-chaff-2", "iris-bridge"),
    _play("willow-swallow"),
)
"""The opponent's decisions, in order (it holds no lucky hand, so it only plays)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the tutorial.

    ``message`` says what to do and why (a gettext message id); ``accepts`` lists the
    learner's actions that complete the step (any one of them; empty: the step is read and
    acknowledged); ``explanation`` is shown once it is done.  ``cards`` names the cards the
    step is about (slugs), for a front end to point at.
    """

    id: str
    message: str
    accepts: tuple[Action, ...]
    explanation: str
    cards: tuple[str, ...] = ()

    def accepted(self, action: Action) -> bool:
        """Whether ``action`` completes this step."""
        return action in self.accepts


STEPS: Final[tuple[Step, ...]] = (
    Step(
        "welcome",
        N_(
            "Welcome to Roppyakken! You play the bottom hand against one opponent. The 48 "
            "cards come in twelve months of four, each month with its own plant; a card "
            "captures a card of the same month. Captured cards score their points, and sets "
            "of them, the yaku, score more. You deal this round, so you start."
        ),
        (),
        N_(
            "Brights and the Plum Warbler are worth 50 points, the other animals and the "
            "ribbons 10, chaff nothing except the Paulownia yellow chaff (10)."
        ),
    ),
    Step(
        "lucky-hand",
        N_(
            "Before the first card, look at your hand: three Peony cards. Three cards of one "
            "month are a lucky hand, Hand Three, worth 200 points. Declaring it scores them at "
            "the end of the round, but shows your three Peony cards to your opponent. Declare "
            "it, or keep it secret: both are allowed."
        ),
        (Declare(("hand-three",)), Declare(())),
        N_(
            "Declared, Hand Three adds 200 points to your round score; kept secret, it scores "
            "nothing, but your opponent does not learn your cards."
        ),
        ("peony-ribbon", "peony-chaff-1", "peony-chaff-2"),
    ),
    Step(
        "match-month",
        N_(
            "Your turn. Your Pampas chaff matches the Pampas Moon on the table, a bright "
            "worth 50 points: play the Pampas chaff to capture the Moon."
        ),
        (_play("pampas-chaff-1", "pampas-moon"),),
        N_(
            "Both cards are yours now. Then the top card of the pile was turned up and played "
            "the same way: the Plum chaff matched nothing on the table, so it stayed there. "
            "Your opponent has played; your turn again."
        ),
        ("pampas-chaff-1", "pampas-moon"),
    ),
    Step(
        "choose-capture",
        N_(
            "Two Cherry cards lie on the table, so your Cherry chaff may take either: you "
            "choose. Play it and take the Cherry Curtain, a bright worth 50, rather than the "
            "Cherry poem ribbon, worth 10."
        ),
        (_play("cherry-chaff-1", "cherry-curtain"),),
        N_("The Cherry poem ribbon stays on the table. Now the top card of the pile is turned up."),
        ("cherry-chaff-1", "cherry-curtain", "cherry-ribbon"),
    ),
    Step(
        "turned-up",
        N_(
            "The turned-up card is the Pine chaff, and two Pine cards lie on the table: you "
            "choose for it too. Take the Pine Crane, another bright."
        ),
        (_take("pine-crane"),),
        N_(
            "The turned-up card and what it took are yours. You hold three brights now: the "
            "Crane, the Curtain and the Moon."
        ),
        ("pine-chaff-2", "pine-crane", "pine-ribbon"),
    ),
    Step(
        "yaku",
        N_(
            "Yaku are sets of captured cards that score at the end of the round. The Crane, "
            "the Curtain, the Moon and the Paulownia Phoenix make Four Brights, worth 600. The "
            "Phoenix is on the table, but you hold no Paulownia card to take it."
        ),
        (),
        N_("A yaku counts only when all its cards are among your captures at the end of the round."),
        ("paulownia-phoenix",),
    ),
    Step(
        "joker",
        N_(
            "Your Willow Rain Man is the joker: besides Willow cards, it may take any single "
            "card on the table worth more than 0 points. Play it and take the Paulownia Phoenix."
        ),
        (_play("willow-rainman", "paulownia-phoenix"),),
        N_(
            "Four Brights is complete, and with it Crane, Moon, Phoenix (150 points): the Crane, "
            "the Moon and the Phoenix are a yaku of their own."
        ),
        ("willow-rainman", "paulownia-phoenix"),
    ),
    Step(
        "keep-capturing",
        N_("Keep capturing: your Peony ribbon takes the Peony Butterflies, an animal worth 10 points."),
        (_play("peony-ribbon", "peony-butterflies"),),
        N_("The Butterflies are one of the three animals of Boar, Deer, Butterflies (300 points)."),
        ("peony-ribbon", "peony-butterflies"),
    ),
    Step(
        "build-yaku",
        N_("Your Bush clover chaff takes the Bush clover Boar: two of Boar, Deer, Butterflies."),
        (_play("clover-chaff-1", "clover-boar"),),
        N_(
            "Only the Maple Deer is missing. Your opponent sees your captures too, and will "
            "try to take it first."
        ),
        ("clover-chaff-1", "clover-boar", "maple-deer"),
    ),
    Step(
        "turned-up-helps",
        N_("Your Iris chaff takes the Iris red ribbon."),
        (_play("iris-chaff-1", "iris-ribbon"),),
        N_(
            "Your turned-up card, the Wisteria red ribbon, took the Wisteria chaff for you. "
            "Meanwhile your opponent's turned-up card took the Maple Deer: no Boar, Deer, "
            "Butterflies for you this round."
        ),
        ("iris-chaff-1", "iris-ribbon"),
    ),
    Step(
        "no-match",
        N_(
            "Nothing on the table matches your Peony chaff, but a card must be played every "
            "turn: play it, and it is added to the table."
        ),
        (_play("peony-chaff-1"),),
        N_("The Peony chaff lies on the table now, where a Peony card can take it."),
        ("peony-chaff-1",),
    ),
    Step(
        "last-card",
        N_("Your last card, the other Peony chaff, takes the one you left on the table."),
        (_play("peony-chaff-2", "peony-chaff-1"),),
        N_(
            "Your turned-up Pampas chaff took the Pampas Geese: all four Pampas cards are yours, "
            "the month yaku Four Pampas (50 points)."
        ),
        ("peony-chaff-2", "peony-chaff-1"),
    ),
    Step(
        "round-end",
        N_(
            "Every hand is empty: the round is over. Each player scores the points of the cards "
            "they captured, their yaku and their declared lucky hands; cards left on the table "
            "score for nobody."
        ),
        (),
        N_(
            "Round scores add up to each player's total, and new rounds are dealt until "
            "someone's total reaches 600."
        ),
    ),
    Step(
        "instant-win",
        N_(
            "But you completed Four Brights: an instant win. At the end of the round it wins "
            "the whole game at once, whatever the totals; Seven Ribbons, any seven ribbons, "
            "does the same."
        ),
        (),
        N_("You won your first game of Roppyakken. Now try a whole game against a bot."),
    ),
)
"""The steps, in order."""


def deck() -> list[int]:
    """The scripted deck (card ids, first dealt first) that deals :data:`HANDS`, :data:`TABLE`
    and :data:`PILE` with the learner dealing."""
    rules = preset(PRESET)
    hands = [_cards(*hand) for hand in HANDS]
    return deck_from_deal(rules, PLAYERS, LEARNER, hands, _cards(*TABLE), _cards(*PILE))


def new_game() -> Game:
    """The tutorial's game, dealt and waiting for the learner's declaration."""
    cards = deck()
    return Game(
        preset(PRESET), PLAYERS, seed=0, deck_source=lambda _round, _attempt: cards, first_dealer=LEARNER
    )


class Lesson:
    """The tutorial in progress: its game, the learner's current step and the opponent's script.

    Every action goes through the engine (:meth:`Game.apply`); the opponent's scripted
    decisions are applied as soon as it is to act, so the game always waits for the learner
    (or is over).
    """

    def __init__(self) -> None:
        self.game = new_game()
        self.index = 0
        """The index of the current step in :data:`STEPS` (``len(STEPS)`` when done)."""
        self._moves = 0
        self.events: list[Event] = list(self.game.events)
        """Every event so far, the deal's included."""

    @property
    def step(self) -> Step | None:
        """The step the learner is at (None once the tutorial is finished)."""
        return STEPS[self.index] if self.index < len(STEPS) else None

    @property
    def done(self) -> bool:
        """Whether every step is done."""
        return self.index >= len(STEPS)

    def attempt(self, action: Action) -> list[Event] | None:
        """Play ``action`` if the current step accepts it: the events it and the opponent's
        replies caused; None (nothing changes) if the step wants something else."""
        step = self.step
        if step is None or not step.accepted(action):
            return None
        events = self.game.apply(action, LEARNER)
        events += self._opponent()
        self.events += events
        self.index += 1
        return events

    def acknowledge(self) -> bool:
        """Go past a step that only asks to be read; False (nothing changes) on a step that
        waits for an action."""
        step = self.step
        if step is None or step.accepts:
            return False
        self.index += 1
        return True

    def _opponent(self) -> list[Event]:
        game = self.game
        events: list[Event] = []
        while not game.over and game.to_act == OPPONENT:
            if self._moves >= len(OPPONENT_MOVES):
                raise IllegalActionError("the tutorial's opponent has no scripted move left")
            events += game.apply(OPPONENT_MOVES[self._moves], OPPONENT)
            self._moves += 1
        return events


def tutorial_json() -> dict[str, Any]:
    """The whole script as JSON: the preset, the seats, the deck (slugs, first dealt first),
    the opponent's decisions and the steps (message ids, accepted actions, cards)."""
    from roppyakken.cards import SLUGS

    return {
        "preset": PRESET,
        "players": PLAYERS,
        "learner": LEARNER,
        "dealer": LEARNER,
        "deck": [SLUGS[c] for c in deck()],
        "opponent": [a.to_json() for a in OPPONENT_MOVES],
        "steps": [
            {
                "id": s.id,
                "message": s.message,
                "accepts": [a.to_json() for a in s.accepts],
                "explanation": s.explanation,
                "cards": list(s.cards),
            }
            for s in STEPS
        ],
    }


__all__ = [
    "HANDS",
    "LEARNER",
    "OPPONENT",
    "OPPONENT_MOVES",
    "PILE",
    "PLAYERS",
    "PRESET",
    "STEPS",
    "TABLE",
    "Lesson",
    "Step",
    "deck",
    "new_game",
    "tutorial_json",
]
