"""A player of the friends' API (follows, blocks, challenges) as a browser would use it: its cookie
and CSRF token on every change."""

from __future__ import annotations

from typing import Any

import httpx

from roppyakken.server.people.players import COOKIE
from tests.harness.lobby import CSRF


class Friend:
    """A player made over HTTP, with a client that keeps its cookie."""

    def __init__(self, base: str, name: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=10)
        made = self.client.post("/api/me", json={"name": name}, headers={CSRF: "new"})
        assert made.status_code == 201, made.text
        self.id: str = made.json()["player"]["id"]
        self.csrf: str = made.json()["csrf"]
        self.name = name

    @property
    def cookie(self) -> str:
        """The player cookie's value (for a websocket)."""
        return str(self.client.cookies[COOKIE])

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """POST with the CSRF token."""
        return self.client.post(path, json=body or {}, headers={CSRF: self.csrf})

    def delete(self, path: str) -> httpx.Response:
        """DELETE with the CSRF token."""
        return self.client.delete(path, headers={CSRF: self.csrf})

    def friends(self) -> dict[str, Any]:
        """``GET /api/friends``."""
        got = self.client.get("/api/friends")
        assert got.status_code == 200, got.text
        body: dict[str, Any] = got.json()
        return body

    def follow(self, other: Friend) -> httpx.Response:
        """Follow ``other``."""
        return self.post("/api/follows", {"player": other.id})

    def block(self, other: Friend) -> httpx.Response:
        """Block ``other``."""
        return self.post("/api/blocks", {"player": other.id})

    def challenge(self, other: Friend, **asked: Any) -> httpx.Response:
        """Challenge ``other`` (a casual classic game without a clock unless ``asked`` says)."""
        return self.post("/api/challenges", {"player": other.id, **asked})

    def sign_up(self, login: str) -> None:
        """Make this player an account (signed in from now on)."""
        made = self.post("/api/account", {"login": login, "password": "a long enough password"})
        assert made.status_code == 201, made.text
        self.csrf = made.json()["csrf"]

    def close(self) -> None:
        """Close the client."""
        self.client.close()
