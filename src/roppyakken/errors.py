"""The project's exceptions: every user-facing failure is one of these, with a one-line message."""

from __future__ import annotations


class RoppyakkenError(Exception):
    """A problem with user input (a card, an option, a file, a message), said in one line."""


class RulesError(RoppyakkenError):
    """An unknown rule option, a bad value or an impossible combination (RULES.md R-10)."""


class IllegalActionError(RoppyakkenError):
    """An action that is not legal now; the game is left unchanged."""


class RecordError(RoppyakkenError):
    """A malformed game record, or one whose replay disagrees with what it states."""
