// The installed app around the pages: the service worker (/sw.js: the client and the offline
// engine kept in the browser), the notice that a new version is ready, and whether the server
// can be reached (offline, the page says so and what is still there: #/offline).

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

/** @type {boolean | null} whether the server answered the last probe (null: not asked yet) */
let reachable = null;
/** @type {Set<() => void>} */
const watchers = new Set();

/** Whether the page is offline: the browser says so, or the server did not answer. */
export function isOffline() {
  return !navigator.onLine || reachable === false;
}

/**
 * Call `fn` whenever the page goes offline or comes back.
 * @param {() => void} fn
 */
export function onConnectivity(fn) {
  watchers.add(fn);
}

/** Ask the server whether it is there (a health check the service worker never answers itself). */
export async function probe() {
  const before = isOffline();
  if (!navigator.onLine) reachable = false;
  else {
    try {
      const res = await fetch("/healthz", { cache: "no-store" });
      reachable = res.ok || res.status < 500;
    } catch {
      reachable = false;
    }
  }
  drawBanner();
  if (before !== isOffline()) for (const fn of watchers) fn();
  return !isOffline();
}

/** What is there without a network, in one sentence. */
export function availableOffline() {
  return t(
    "Available without a network: games against bots (2 or 3 players, random to master) with hints and the round's review, the guided first game, the scoring calculator, the rules, and your saved games and their replays.",
  );
}

function drawBanner() {
  let banner = document.getElementById("offline-banner");
  if (!isOffline()) {
    if (banner) banner.remove();
    return;
  }
  if (!banner) {
    banner = h("div", { id: "offline-banner", class: "app-banner offline-banner", role: "status" });
    document.body.prepend(banner);
  }
  replaceChildren(
    banner,
    h("strong", {}, navigator.onLine ? t("The server cannot be reached.") : t("You are offline.")),
    " ",
    availableOffline(),
    " ",
    h("a", { href: "/#/offline" }, t("Play offline")),
  );
}

/** How often the page asks the waiting worker again to take over, once the player asked (ms). */
const ASK_AGAIN_MS = 2000;

/**
 * Show that a new version of the client is ready; its button asks the waiting worker to take
 * over (the page reloads when it has: startApp), and asks again every ASK_AGAIN_MS until it has,
 * of whichever worker is waiting by then: a message to a worker the browser was still starting
 * is not lost, and a newer version found meanwhile is the one taken.
 * @param {ServiceWorkerRegistration} reg
 */
function offerUpdate(reg) {
  if (document.getElementById("update-banner")) return;
  /** @type {ReturnType<typeof setInterval> | null} */
  let again = null;
  const ask = () => {
    if (reg.waiting) reg.waiting.postMessage({ type: "skip-waiting" });
  };
  const button = h(
    "button",
    {
      type: "button",
      class: "primary",
      id: "update-reload",
      onclick: () => {
        ask();
        again ||= setInterval(ask, ASK_AGAIN_MS);
      },
    },
    t("Reload"),
  );
  document.body.prepend(
    h("div", { id: "update-banner", class: "app-banner update-banner", role: "status" }, t("A new version is ready."), " ", button),
  );
}

/** Register the service worker and watch for new versions and for the network. */
export async function startApp() {
  window.addEventListener("online", () => probe());
  window.addEventListener("offline", () => probe());
  probe();
  if (!("serviceWorker" in navigator)) return;
  const hadController = !!navigator.serviceWorker.controller;
  let reloading = false;
  // a new version took over (after the player asked for it here or in another tab): the page
  // reloads in it, so that it never runs half old and half new (on the first install: no reload)
  const reload = () => {
    if (reloading || !hadController) return;
    reloading = true;
    location.reload();
  };
  navigator.serviceWorker.addEventListener("controllerchange", reload);
  try {
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const watch = (/** @type {ServiceWorker | null} */ worker) => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(reg);
        if (worker.state === "activated") reload();
      });
    };
    if (reg.waiting && navigator.serviceWorker.controller) {
      offerUpdate(reg);
      watch(reg.waiting);
    }
    watch(reg.installing);
    reg.addEventListener("updatefound", () => watch(reg.installing));
  } catch {
    // no service worker (a private window, an old browser): the site works online as before
  }
}
