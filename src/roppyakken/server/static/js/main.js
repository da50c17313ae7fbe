// Entry point: the header and the router.  /r/<room> is a room (waiting room or game);
// on / the hash picks the page: #/ start page, #/calc, #/replay[?room=…], #/rules[?preset=…],
// #/learn (the guided first game), #/account (your account: password sign-in, sessions, your data),
// #/signin (passkeys, reached from #/account: passkeys.js), #/reset/<token> (a password-reset link),
// #/leaders[?pool=…&page=…], #/player/<id>, #/tournaments, #/tournament/<id>, #/clubs[?q=…] and
// #/club/<id> (clubs.js), #/friends (follows, blocks, challenges: friends.js); on every page the
// challenges to the player (challenges.js).

import T from "./text.js";
import { LANG, LANGUAGES, LANGUAGE_NAMES, setLanguage, t } from "./i18n.js";
import { h, replaceChildren } from "./dom.js";
import { lobbyPage } from "./lobby.js";
import { roomPage } from "./room.js";
import { calcPage } from "./calc.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rulespage.js";
import { deckSwitch, deckUrl } from "./decks.js";
import { tutorialPage } from "./tutorial.js";
import { accountPage, resetPage } from "./account.js";
import { signinPage } from "./passkeys.js";
import { leadersPage, playerPage } from "./profiles.js";
import { isOffline, onConnectivity, startApp } from "./appshell.js";
import { offlinePage } from "./offlinepage.js";
import { tournamentPage, tournamentsPage } from "./tournaments.js";
import { clubPage, clubsPage } from "./clubs.js";
import { friendsPage } from "./friends.js";
import { challengePanel } from "./challenges.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));

/** The language switcher: the choice is remembered (localStorage) and the page reloads in it. */
function languageSwitch() {
  const select = h(
    "select",
    { id: "lang-select", "aria-label": t("Language"), onchange: (/** @type {Event} */ e) => setLanguage(/** @type {HTMLSelectElement} */ (e.target).value) },
    LANGUAGES.map((code) => h("option", { value: code, lang: code }, LANGUAGE_NAMES[code])),
  );
  select.value = LANG;
  return h("span", { class: "lang-switch" }, select);
}

function header() {
  const skip = document.querySelector(".skip-link");
  if (skip) skip.textContent = t("Skip to the game");
  const nav = h(
    "nav",
    { class: "top-nav", "aria-label": t("Main") },
    h(
      "a",
      { href: "/", class: "brand" },
      h("img", { src: deckUrl("pine-crane"), alt: "", class: "brand-card", "data-card": "pine-crane" }),
      h("span", { class: "brand-name" }, T.appName),
    ),
    // On a phone the links are one row of their own (scrolling sideways if they must), under the
    // brand and the two switches: the header takes two rows.
    h(
      "div",
      { class: "nav-links" },
      h("a", { href: "/#/" }, T.navHome),
      h("a", { href: "/#/calc" }, T.navCalc),
      h("a", { href: "/#/replay" }, T.navReplay),
      h("a", { href: "/#/offline" }, t("Offline")),
      h("a", { href: "/#/rules" }, T.navRules),
      h("a", { href: "/#/leaders" }, t("Leaderboards")),
      h("a", { href: "/#/tournaments" }, t("Tournaments")),
      h("a", { href: "/#/clubs" }, t("Clubs")),
      h("a", { href: "/#/friends" }, t("Friends")),
      h("a", { href: "/#/account", id: "nav-account" }, t("Account")),
    ),
    languageSwitch(),
    deckSwitch(),
  );
  replaceChildren(/** @type {HTMLElement} */ (document.getElementById("top")), nav);
}

function route() {
  const room = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  document.body.dataset.page = room ? "room" : "home";
  if (room) {
    roomPage(root, decodeURIComponent(room[1]));
    return;
  }
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const player = page.match(/^player\/([^/]+)$/);
  const reset = page.match(/^reset\/([A-Za-z0-9_-]+)$/);
  const tournament = page.match(/^tournament\/([A-Za-z0-9_-]+)$/);
  const club = page.match(/^club\/([^/]+)$/);
  document.body.dataset.page = player
    ? "player"
    : reset
      ? "reset"
      : tournament
        ? "tournament"
        : club
          ? "club"
          : page || "home";
  if (player) playerPage(root, decodeURIComponent(player[1]));
  else if (tournament) tournamentPage(root, tournament[1]);
  else if (page === "tournaments") tournamentsPage(root, params);
  else if (club) clubPage(root, decodeURIComponent(club[1]));
  else if (page === "clubs") clubsPage(root, params);
  else if (page === "leaders") leadersPage(root, params);
  else if (page === "calc") calcPage(root);
  else if (page === "replay") replayPage(root, params);
  else if (page === "rules") rulesPage(root, params);
  else if (page === "learn") tutorialPage(root);
  else if (page === "account") accountPage(root);
  else if (reset) resetPage(root, reset[1]);
  else if (page === "signin") signinPage(root);
  else if (page === "offline") offlinePage(root, params);
  else if (page === "friends") friendsPage(root);
  else if (isOffline()) offlinePage(root, params); // the start page needs the server: what works without it
  else lobbyPage(root);
  for (const a of document.querySelectorAll(".top-nav a")) {
    const target = (a.getAttribute("href") ?? "").replace(/^\/#\/?/, "");
    a.toggleAttribute("aria-current", target === (page || "") && a.classList.contains("brand") === false);
  }
}

header();
challengePanel(); // a challenge to the player, on every page
startApp();
// the start page becomes the offline page when the server goes (and back when it returns)
onConnectivity(() => {
  const page = location.hash.replace(/^#\/?/, "").split("?")[0];
  if (!location.pathname.startsWith("/r/") && (page === "" || page === "/")) route();
});
window.addEventListener("hashchange", () => {
  if (!location.pathname.startsWith("/r/")) route();
});
route();
