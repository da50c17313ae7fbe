"""Passwords, hashed with argon2id (``argon2-cffi``'s :class:`~argon2.PasswordHasher`).

Production uses the library's defaults, RFC 9106's low-memory profile (t=3,
m=64 MiB, p=4: about 0.1 s a hash on one core).  Tests set the environment
variable ``ROPPYAKKEN_ARGON2=cheap`` (t=1, m=8 KiB, p=1), read when the hasher is
first used, so that hundreds of hashes stay fast; nothing else reads it.  A stored
hash made with other parameters still verifies, and :func:`check` says when it
should be made again with the current ones.

:func:`check` spends the same work whether or not there is a stored hash: for an
unknown sign-in name it verifies against a dummy hash made with the current
parameters, so a wrong name and a wrong password cost the same time.
"""

from __future__ import annotations

import os
import secrets
from enum import Enum
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

SETTING: Final = "ROPPYAKKEN_ARGON2"
"""The environment variable that selects the cheap parameters (value ``cheap``): tests only."""
MIN_LENGTH: Final = 8
MAX_LENGTH: Final = 1024


class Checked(Enum):
    """What :func:`check` found."""

    WRONG = "wrong"
    RIGHT = "right"
    RIGHT_REHASH = "right-rehash"
    """Right, and the stored hash should be replaced (its parameters are not the current ones)."""


@cache
def hasher() -> PasswordHasher:
    """The hasher of this process (argon2id; cheap parameters only under ``ROPPYAKKEN_ARGON2=cheap``)."""
    if os.environ.get(SETTING) == "cheap":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher()


@cache
def dummy_hash() -> str:
    """A hash of a random password made with the current parameters (verified for unknown names)."""
    return hasher().hash(secrets.token_urlsafe(16))


def make(password: str) -> str:
    """The stored form of a new password (argon2id, a fresh salt)."""
    return hasher().hash(password)


def check(stored: str | None, password: str) -> Checked:
    """Whether ``password`` matches ``stored`` (None: no such account or no password: always
    WRONG, after the same work as a real verification)."""
    ph = hasher()
    too_long = len(password) > MAX_LENGTH  # no stored password is: wrong, after the same work
    try:
        ph.verify(dummy_hash() if stored is None or too_long else stored, password[:MAX_LENGTH])
    except (VerificationError, InvalidHashError):
        return Checked.WRONG
    if stored is None or too_long:  # the dummy's password is random and forgotten: never reached
        return Checked.WRONG
    return Checked.RIGHT_REHASH if ph.check_needs_rehash(stored) else Checked.RIGHT


def acceptable(password: str) -> bool:
    """Whether a new password is long enough (and not absurdly long)."""
    return MIN_LENGTH <= len(password) <= MAX_LENGTH
