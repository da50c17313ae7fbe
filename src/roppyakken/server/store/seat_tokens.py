"""What is stored of a seat token (the secret a client holds to act for its seat): its SHA-256.

The room that gives a seat finds it by this hash, and so do whoever else must know
which seat a client holds (a report says which chat the reporter reads).
"""

from __future__ import annotations

import hashlib


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
