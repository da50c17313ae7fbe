// The start page's online part, live over /ws/lobby (docs/PROTOCOL.md, "The lobby"): the player
// (a cookie, no sign-up), quick pairing (preset, 2 or 3 players, a time control, Play), the open
// public tables (one click to join) and the public games being played (watch).

import { h, replaceChildren, showError } from "./dom.js";
import { serverText, t } from "./i18n.js";
import { ask, forgetCsrf, setCsrf } from "./api.js";
import { controlName } from "./clock.js";
import { botName, presetName } from "./text.js";
import { setToken } from "./store.js";
import { playbanText } from "./report.js";
import { lobbyReconnect, lobbySend, onLobby } from "./lobbylink.js";

/** The time controls quick pairing offers (a paired game always has a clock). */
const PAIRING_CONTROLS = ["15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"];

/**
 * @typedef {{id: string, name: string}} Me
 * @typedef {import("./wire").LobbyMessage} LobbyMessage
 */

/**
 * @param {string} method
 * @param {string} csrf
 * @param {object} [body]
 * @returns {Promise<any>}
 */
async function meCall(method, csrf, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = csrf;
  }
  const response = await fetch("/api/me", { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && serverText(data)) || `${response.status}`);
  return data;
}

/** @type {Promise<unknown>} The last ensurePlayer's work: the next one starts after it. */
let playerWork = Promise.resolve();

/**
 * Be a player: the cookie's, or a new one named `name`; its name is set to `name` if it differs.
 * Every POST of api.js waits for the CSRF token this gives.
 * @param {string} name
 * @returns {Promise<Me>}
 */
export function ensurePlayer(name) {
  // one at a time: a second call's GET must see the cookie the first call's POST made
  const before = playerWork.catch(() => null);
  const work = (async () => {
    await before;
    /** @type {{player: Me|null, csrf: string|null}} */
    const me = await meCall("GET", "");
    if (me.player && me.player.name === name) return me;
    /** @type {{player: Me, csrf: string}} */
    const made = await meCall("POST", me.csrf || "new", { name });
    if (made.player.id !== me.player?.id) lobbyReconnect(); // the lobby socket speaks for the player it opened as
    return made;
  })();
  playerWork = work;
  setCsrf(work.then((d) => d.csrf));
  work.catch(() => forgetCsrf());
  return work.then((d) => /** @type {Me} */ (d.player));
}

/**
 * The live lobby section.
 * @param {import("./wire").PresetEntry[]} presetList the presets (GET /api/presets: name, players)
 * @param {() => string} currentName the name the player chose on the page
 * @param {Promise<unknown>} playerReady settles once the page has made sure of its player
 * @returns {HTMLElement}
 */
export function lobbyLive(presetList, currentName, playerReady) {
  let players = 2;
  let seeking = false;
  /** @type {string|null} */
  let seekToken = null;
  /** @type {(() => void)|null} Stops listening to the tab's lobby connection (lobbylink.js). */
  let stop = null;
  /** @type {LobbyMessage|null} The latest lobby message (its ratings follow the chosen game). */
  let latest = null;

  const presetSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "pair-preset", name: "preset" }));
  const fillPresets = () => {
    const keep = presetSelect.value || "classic";
    replaceChildren(
      presetSelect,
      presetList
        .filter((p) => !p.players || p.players.includes(players))
        .map((p) => h("option", { value: p.name }, presetName(p.name))),
    );
    if ([...presetSelect.options].some((o) => o.value === keep)) presetSelect.value = keep;
  };
  fillPresets();
  const clockSelect = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "pair-clock", name: "clock" },
      PAIRING_CONTROLS.map((c) => h("option", { value: c }, controlName(c))),
    )
  );
  const playerRadios = [2, 3].map((n) =>
    h(
      "label",
      { class: "inline" },
      h("input", {
        type: "radio",
        name: "pair-players",
        value: String(n),
        checked: n === 2,
        onchange: () => {
          players = n;
          fillPresets();
          showRating();
        },
      }),
      ` ${n}`,
    ),
  );
  const status = h("p", { class: "pair-status", role: "status", "aria-live": "polite" });
  const counts = h("p", { class: "muted pair-counts" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const playban = h("p", { class: "playban-notice", role: "alert", hidden: true });
  /** Fair play: say why and for how long rated games are barred. @param {{seconds: number, recent: number}} ban */
  const showPlayban = (ban) => {
    playban.textContent = playbanText(ban);
    playban.hidden = false;
  };
  const play = /** @type {HTMLButtonElement} */ (
    h("button", { type: "submit", class: "primary", id: "pair-play" }, t("Play"))
  );
  const cancel = /** @type {HTMLButtonElement} */ (
    h("button", { type: "button", id: "pair-cancel", hidden: true, onclick: () => send({ type: "cancel" }) }, t("Cancel"))
  );
  const meanwhile = /** @type {HTMLButtonElement} */ (
    h(
      "button",
      {
        type: "button",
        id: "pair-bot",
        hidden: true,
        onclick: () => botGameMeanwhile(),
      },
      t("Play a bot while you wait"),
    )
  );
  const ratingText = h("p", { class: "pair-rating", id: "pair-rating" });
  const atLevel = /** @type {HTMLButtonElement} */ (
    h("button", { type: "button", id: "pair-bot-level", hidden: true, onclick: () => botAtLevel() }, t("Play a bot at your level"))
  );
  presetSelect.addEventListener("change", () => showRating());
  const tables = h("div", { class: "lobby-tables" });
  const games = h("div", { class: "lobby-games" });

  const form = h(
    "form",
    {
      class: "card-panel",
      id: "quick-pairing",
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        showError(error, "");
        let me;
        try {
          me = await ensurePlayer(currentName());
        } catch (err) {
          showError(error, /** @type {Error} */ (err).message);
          return;
        }
        if (!me) return;
        // ensurePlayer opened the tab's lobby connection again if it made a new player
        // The selects offer only the presets, sizes and clocks the schema allows.
        send(/** @type {import("./wire").SeekMessage} */ ({ type: "seek", preset: presetSelect.value, players, clock: clockSelect.value }));
      },
    },
    h("h2", {}, t("Quick pairing")),
    h("p", { class: "muted" }, t("Choose a game and press Play: the server pairs you with other people waiting for the same game.")),
    h("fieldset", { class: "players-chooser" }, h("legend", {}, t("Players")), playerRadios),
    h("div", { class: "field-row" }, h("label", { for: "pair-preset" }, t("Rules")), presetSelect),
    h("div", { class: "field-row" }, h("label", { for: "pair-clock" }, t("Time control")), clockSelect),
    ratingText,
    status,
    counts,
    playban,
    error,
    h("div", { class: "form-actions" }, play, cancel, meanwhile, atLevel),
  );
  const section = h(
    "section",
    { class: "lobby-live", id: "lobby-live" },
    form,
    h("section", { class: "card-panel" }, h("h2", {}, t("Open tables")), tables),
    h("section", { class: "card-panel" }, h("h2", {}, t("Games being played")), games),
  );

  /** @param {import("./wire").LobbyClientMessage} message */
  function send(message) {
    lobbySend(message);
  }

  function showSeeking() {
    play.hidden = seeking;
    cancel.hidden = !seeking;
    meanwhile.hidden = !seeking;
    status.textContent = seeking ? t("Waiting for other players…") : "";
  }

  /** The player's rating for the chosen game (its family and player count), and its nearest bot. */
  function currentRating() {
    const msg = latest;
    if (!msg || !msg.ratings || !msg.families) return null;
    const family = msg.families[presetSelect.value];
    return family ? msg.ratings[`${family}-${players}`] || null : null;
  }

  function showRating() {
    const rating = currentRating();
    atLevel.hidden = !rating || !rating.bot;
    if (!rating) {
      ratingText.textContent = "";
      return;
    }
    const parts = [];
    if (rating.rating === null) parts.push(t("Not rated yet in these games."));
    else {
      parts.push(t("Your rating here: {rating} ± {uncertainty}", { rating: rating.rating, uncertainty: rating.uncertainty ?? 0 }));
      if (rating.provisional) parts.push(t("(provisional)"));
    }
    // Only a rating that rests on enough rated games says whom the player plays like.
    if (rating.bot && rating.rating !== null && !rating.provisional)
      parts.push(t("You play like a bot of level {level}.", { level: botName(rating.bot) }));
    ratingText.textContent = parts.join(" ");
  }

  /** @param {LobbyMessage} msg */
  function draw(msg) {
    latest = msg;
    showRating();
    counts.textContent = t("{waiting} waiting, {playing} games being played", {
      waiting: msg.waiting,
      playing: msg.playing,
    });
    replaceChildren(
      tables,
      msg.tables.length
        ? h(
            "ul",
            { class: "game-list table-list" },
            msg.tables.map((table) =>
              h(
                "li",
                { "data-room": table.room },
                h("span", {}, presetName(table.preset), " · ", t("{n} players", { n: table.players })),
                h("span", { class: "muted" }, " · ", controlName(table.clock)),
                h("span", { class: "muted" }, " · ", table.rated ? t("rated: yes") : t("rated: no")),
                h("span", {}, " · ", t("{taken}/{players} seats taken", { taken: table.taken, players: table.players })),
                h("span", {}, " · ", t("host: {name}", { name: table.host || "" })),
                h("span", { class: "spacer" }),
                h("button", { type: "button", class: "join-table", onclick: () => joinTable(table.room) }, t("Join")),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("No open tables right now: create one, or use quick pairing.")),
    );
    replaceChildren(
      games,
      msg.games.length
        ? h(
            "ul",
            { class: "game-list" },
            msg.games.map((game) =>
              h(
                "li",
                {},
                h("span", {}, game.players.join(" · ")),
                h("span", { class: "muted" }, ` · ${presetName(game.preset)} · ${controlName(game.clock)}`),
                h("span", { class: "spacer" }),
                h("a", { href: `/r/${encodeURIComponent(game.room)}`, class: "button" }, t("Watch")),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("No public game is being played right now.")),
    );
  }

  /** A game against bots of the player's level (the nearest to their rating): in a new tab while
   * waiting in the pool, else here. */
  async function botAtLevel() {
    const rating = currentRating();
    if (!rating || !rating.bot) return;
    if (seeking) {
      await botGameMeanwhile(rating.bot);
      return;
    }
    showError(error, "");
    try {
      const body = { name: currentName(), players, rules: { preset: presetSelect.value }, bots: botSeats(players, rating.bot) };
      /** @type {{room: string, token: string}} */
      const res = await ask("POST /api/rooms", "/api/rooms", body);
      setToken(res.room, res.token);
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      showError(error, /** @type {Error} */ (err).message);
    }
  }

  /** A game against bots in a new tab: this page stays open, so the player stays in the pool.
   * @param {string} [level] the bots' level (expert if none) */
  async function botGameMeanwhile(level) {
    const tab = window.open("", "_blank");
    try {
      const body = { name: currentName(), players, rules: { preset: presetSelect.value }, bots: botSeats(players, level) };
      /** @type {{room: string, token: string}} */
      const res = await ask("POST /api/rooms", "/api/rooms", body);
      setToken(res.room, res.token);
      if (tab) tab.location.href = `/r/${encodeURIComponent(res.room)}`;
    } catch (err) {
      if (tab) tab.close();
      showError(error, /** @type {Error} */ (err).message);
    }
  }

  /** @param {string} room */
  async function joinTable(room) {
    showError(error, "");
    try {
      await ensurePlayer(currentName());
      /** @type {{room: string, token: string}} */
      const res = await ask("POST /api/rooms/{room}/join", `/api/rooms/${encodeURIComponent(room)}/join`, { name: currentName() });
      setToken(res.room, res.token);
      location.assign(`/r/${encodeURIComponent(res.room)}`);
    } catch (err) {
      showError(error, /** @type {Error} */ (err).message);
    }
  }

  /** @param {import("./wire").LobbyServerMessage} msg */
  function receive(msg) {
    if (!section.isConnected && section.dataset.drawn) {
      // the page moved on (another view of the app): leave the pool, stop listening
      if (seeking) send({ type: "cancel" });
      seeking = false;
      stop?.();
      return;
    }
    section.dataset.drawn = "1";
    if (msg.type === "lobby") draw(msg);
    else if (msg.type === "seeking") {
      seeking = true;
      seekToken = msg.token;
      showSeeking();
    } else if (msg.type === "cancelled") {
      seeking = false;
      seekToken = null;
      showSeeking();
    } else if (msg.type === "paired") {
      setToken(msg.room, /** @type {string} */ (msg.token || seekToken));
      stop?.();
      location.assign(`/r/${encodeURIComponent(msg.room)}`);
    } else if (msg.type === "playban") showPlayban(msg);
    else if (msg.type === "error") {
      if (msg.playban) showPlayban(msg.playban); // said once, in the notice
      showError(error, msg.playban ? "" : serverText(msg));
    }
  }

  // the pool forgets a closed connection (lobbylink.js opens it again): seek again by hand
  const dropped = () => {
    seeking = false;
    showSeeking();
  };
  playerReady.finally(() => {
    if (!stop) stop = onLobby(receive, dropped);
  });
  const left = () =>
    setTimeout(() => {
      if (section.isConnected || !section.dataset.drawn) return;
      window.removeEventListener("hashchange", left);
      if (seeking) send({ type: "cancel" }); // another view of the app: leave the pool
      seeking = false;
      stop?.();
    });
  window.addEventListener("hashchange", left);
  return section;
}

/**
 * Every other seat a bot of `level` (expert if none).
 * @param {number} players
 * @param {string} [level]
 * @returns {Record<string, string>}
 */
function botSeats(players, level = "expert") {
  /** @type {Record<string, string>} */
  const out = {};
  for (let seat = 1; seat < players; seat++) out[String(seat)] = level;
  return out;
}
