// The service worker: the client, its card art, catalogs, tutorial and the offline engine (Pyodide
// and the core's zip) precached in one cache per version, so the site opens and plays without a
// network.  A small worker of our own rather than Workbox: the site has no build step, and what
// it needs is a list of addresses and three rules (below), which fit on one page.
//
// The server writes in the version (a digest of everything listed) and the list when it serves
// this file at /sw.js (server/web/offline_routes.py): a new server is a new cache.  A new worker
// waits until the page says so (the page shows "a new version is ready" and a button to reload:
// appshell.js), so a page never runs half old and half new; once active it deletes the old caches.

const VERSION = "__ROPPYAKKEN_VERSION__";
const PRECACHE = ["__ROPPYAKKEN_PRECACHE__"];
const CACHE = `roppyakken-${VERSION}`;
const PREFIX = "roppyakken-";
/** Never from a cache: the live game, health checks and the worker itself. */
const NETWORK_ONLY = ["/ws/", "/healthz", "/readyz", "/metrics", "/sw.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.source) event.source.postMessage({ type: "version", version: VERSION });
});

/**
 * The network's answer, else the cached one (the server's own answers when it is reachable).
 * @param {Request} request
 * @param {string} [key]  the cached entry to fall back on (a page address falls back on "/")
 */
async function networkFirst(request, key) {
  try {
    return await fetch(request);
  } catch (err) {
    const cached = await caches.match(key || request, { cacheName: CACHE });
    if (cached) return cached;
    throw err;
  }
}

/** @param {Request} request */
async function cacheFirst(request) {
  const cached = await caches.match(request, { cacheName: CACHE });
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (NETWORK_ONLY.some((p) => url.pathname.startsWith(p))) return;
  if (request.mode === "navigate") {
    // every page address is the client's index.html: fresh when online, the cached one when not
    event.respondWith(networkFirst(request, "/"));
  } else if (url.pathname.startsWith("/api/")) {
    event.respondWith(networkFirst(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/offline/")) {
    event.respondWith(cacheFirst(request));
  }
});
