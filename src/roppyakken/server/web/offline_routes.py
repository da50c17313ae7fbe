"""The installable, offline client: the core's source as one zip, the service worker, the app's version.

Offline play runs the core and the bots on Pyodide in a Web Worker
(``static/js/offline/worker.js``).  This module serves what that needs:

* ``GET /offline/core-<digest>.zip``: the pure-Python core and :mod:`roppyakken.ai`, zipped
  from the installed package's own source files (the very source this server runs, never a
  copy), with no compiled module; the digest in its address is its content's, so a new
  source is a new address and caches never keep an old one;
* ``GET /api/offline``: where the runtime and the zip are, whether the Pyodide runtime is
  installed (``./scripts/offline-runtime`` copies it into ``static/offline/pyodide/``), and
  the client's version;
* ``GET /static/offline/pyodide/<file>``: the Pyodide runtime, gzipped for browsers that take
  it when ``./scripts/offline-runtime`` made the ``.gz`` copies (the WebAssembly is a third
  of its size so), as any static file otherwise;
* ``GET /sw.js``: the service worker (``static/sw.js``), at the site's root so that its scope
  is the whole site, with the client's version and the list of what it precaches written in;
  the version is a digest of every file it caches, so a new server is a new cache.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

import roppyakken
from roppyakken.ai.base import BOT_LEVELS
from roppyakken.ai.offline import OFFLINE_LEVELS

PACKAGE: Final = Path(roppyakken.__file__).resolve().parent
"""The installed package: its source is what the server runs, and what the zip holds."""
STATIC: Final = PACKAGE / "server" / "static"
RUNTIME_DIR: Final = STATIC / "offline" / "pyodide"
RUNTIME_URL: Final = "/static/offline/pyodide/"
RUNTIME_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The Pyodide files the worker loads (the core runtime; no package: the engine is stdlib-only)."""
CORE_FOLDERS: Final = ("", "ai")
"""The package folders zipped for the browser: the core (stdlib only) and the bots."""
LEFT_OUT: Final = frozenset({"ai/ray_backend.py"})
"""Modules of those folders that cannot run in a browser and are not needed there."""
PRECACHED_FOLDERS: Final = ("js", "cards", "cards-hwatu", "icons")
PRECACHED_SUFFIXES: Final = (".js", ".css", ".svg", ".png", ".json", ".webmanifest")
PRECACHED_API: Final = ("/api/presets", "/api/bots", "/api/offline")
"""Answers the offline page reads as it reads them online (they change only with the server)."""
VERSION_PLACEHOLDER: Final = '"__ROPPYAKKEN_VERSION__"'
PRECACHE_PLACEHOLDER: Final = '["__ROPPYAKKEN_PRECACHE__"]'


def core_sources() -> list[tuple[str, Path]]:
    """The modules the zip holds, as (path in the zip, file): pure Python only, in a fixed order.

    The compiled modules (``*.so``) and the copies they are built from (``_*_c.py``) are left
    out: the browser runs the pure modules, which the compiled ones must equal."""
    out: list[tuple[str, Path]] = []
    for folder in CORE_FOLDERS:
        where = PACKAGE / folder if folder else PACKAGE
        for path in sorted(where.glob("*.py")):
            inside = f"{folder}/{path.name}" if folder else path.name
            if inside in LEFT_OUT or (path.name.startswith("_") and path.name.endswith("_c.py")):
                continue
            out.append((f"roppyakken/{inside}", path))
    return out


def build_core_zip() -> bytes:
    """The zip of :func:`core_sources`: the same bytes for the same sources (fixed times and order)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in core_sources():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


@dataclass(frozen=True)
class ClientBuild:
    """What the offline client is made of, worked out once per server: the core's zip and its
    digest, what the service worker precaches and the version that names its cache."""

    core_zip: bytes
    core_digest: str
    runtime: bool
    precache: tuple[str, ...]
    version: str

    @property
    def core_url(self) -> str:
        """The zip's address (its digest in it)."""
        return f"/offline/core-{self.core_digest}.zip"


def _static_files() -> list[Path]:
    files = [STATIC / "index.html"]
    files.extend(p for p in sorted(STATIC.glob("*")) if p.is_file() and p.suffix in PRECACHED_SUFFIXES)
    for folder in PRECACHED_FOLDERS:
        files.extend(
            p for p in sorted((STATIC / folder).rglob("*")) if p.is_file() and p.suffix in PRECACHED_SUFFIXES
        )
    return files


def build_client(extra: str = "") -> ClientBuild:
    """The client as this server serves it now (``extra``: more to hash into the version)."""
    core = build_core_zip()
    core_digest = hashlib.sha256(core).hexdigest()[:20]
    runtime = all((RUNTIME_DIR / name).is_file() for name in RUNTIME_FILES)
    digest = hashlib.sha256()
    digest.update(f"{roppyakken.__version__}\0{core_digest}\0{extra}\0".encode())
    urls = ["/"]
    for path in _static_files():
        relative = path.relative_to(STATIC).as_posix()
        if relative in ("index.html", "sw.js"):  # served at / and /sw.js (sw.js: never cached)
            digest.update(f"{relative}\0".encode())
            digest.update(path.read_bytes())
            continue
        digest.update(f"{relative}\0".encode())
        digest.update(path.read_bytes())
        urls.append(f"/static/{relative}")
    if runtime:
        for name in RUNTIME_FILES:
            digest.update(f"pyodide/{name}\0".encode())
            digest.update(hashlib.sha256((RUNTIME_DIR / name).read_bytes()).digest())
            urls.append(RUNTIME_URL + name)
    urls.append(f"/offline/core-{core_digest}.zip")
    urls.extend(PRECACHED_API)
    return ClientBuild(core, core_digest, runtime, tuple(urls), digest.hexdigest()[:16])


class Client:
    """The server's :class:`ClientBuild`, built on first use; :meth:`rebuild` makes a new one."""

    def __init__(self) -> None:
        self._build: ClientBuild | None = None
        self.extra = ""
        """More to hash into the version: a new value is a new client (tests of the update)."""

    def get(self) -> ClientBuild:
        """The build (made on first use)."""
        if self._build is None:
            self._build = build_client(self.extra)
        return self._build

    def rebuild(self, extra: str | None = None) -> ClientBuild:
        """Build again (after the files changed; ``extra``: a new version salt)."""
        if extra is not None:
            self.extra = extra
        self._build = None
        return self.get()


CLIENT: Final = Client()
"""This server's offline client."""


async def offline_info(request: Request) -> Response:
    """``GET /api/offline``: the runtime's and the core's addresses, whether the runtime is there,
    the bot levels offline play offers and the client's version."""
    build = CLIENT.get()
    return JSONResponse(
        {
            "runtime": build.runtime,
            "pyodide": RUNTIME_URL,
            "core": build.core_url,
            "levels": [lv for lv in OFFLINE_LEVELS if lv in BOT_LEVELS],
            "version": build.version,
        },
        headers={"Cache-Control": "no-cache"},
    )


async def core_zip(request: Request) -> Response:
    """``GET /offline/core-<digest>.zip``: the core's source (404 for any other digest)."""
    build = CLIENT.get()
    if str(request.path_params["digest"]) != build.core_digest:
        return JSONResponse({"error": "not found"}, status_code=404)
    return Response(
        build.core_zip,
        media_type="application/zip",
        headers={"Cache-Control": "public, max-age=31536000, immutable", "ETag": f'"{build.core_digest}"'},
    )


RUNTIME_TYPES: Final = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".zip": "application/zip",
}


async def runtime_file(request: Request) -> Response:
    """``GET /static/offline/pyodide/<file>``: a runtime file, its gzip copy if the browser takes gzip."""
    name = str(request.path_params["name"])
    if name not in RUNTIME_FILES or not (RUNTIME_DIR / name).is_file():
        return JSONResponse({"error": "not found"}, status_code=404)
    media = RUNTIME_TYPES.get(Path(name).suffix, "application/octet-stream")
    packed = RUNTIME_DIR / f"{name}.gz"
    takes_gzip = "gzip" in request.headers.get("accept-encoding", "").lower()
    if takes_gzip and packed.is_file():
        return FileResponse(
            packed, media_type=media, headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        )
    return FileResponse(RUNTIME_DIR / name, media_type=media, headers={"Vary": "Accept-Encoding"})


async def service_worker(request: Request) -> Response:
    """``GET /sw.js``: the service worker with this client's version and precache list written in."""
    source = STATIC / "sw.js"
    if not source.is_file():
        return Response(status_code=404)
    build = CLIENT.get()
    script = (
        source.read_text(encoding="utf-8")
        .replace(VERSION_PLACEHOLDER, json.dumps(build.version))
        .replace(PRECACHE_PLACEHOLDER, json.dumps(list(build.precache)))
    )
    return Response(
        script,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


def routes() -> list[BaseRoute]:
    """The routes of this module, mounted before the pages' catch-all."""
    return [
        Route("/api/offline", offline_info, methods=["GET"]),
        Route("/offline/core-{digest}.zip", core_zip, methods=["GET"]),
        Route("/sw.js", service_worker, methods=["GET"]),
        Route(RUNTIME_URL + "{name}", runtime_file, methods=["GET"]),
    ]
