// Play offline (#/offline): a game against bots in this browser, on the real table, with the
// engine and bots of the server run by the offline engine (offlineengine.js: Pyodide in a Web
// Worker); hints and the round's review as online.  Each finished game's record is saved in the
// browser (offlinestore.js), to replay it (#/replay?saved=<id>) and, back online, to upload it to
// the player's profile (POST /api/me/offline-games; offline games are never rated).

import T, { botDescription, botName, playerNames, presetName } from "./text.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ask, presets, resolveRules } from "./api.js";
import { usePreset } from "./decks.js";
import { t } from "./i18n.js";
import { getName, setName } from "./store.js";
import { GameView } from "./table.js";
import { playersChooser, rulesChooser, seedInput } from "./lobby.js";
import { ensurePlayer } from "./lobbylive.js";
import { availableOffline, isOffline, onConnectivity, probe } from "./appshell.js";
import { OfflineSource, engine, offlineInfo } from "./offlineengine.js";
import { deleteSaved, markUploaded, saveRecord, savedGames } from "./offlinestore.js";

/** @typedef {import("./offlinestore.js").SavedGame} SavedGame */

const LEVELS = ["random", "greedy", "expert", "master"];

/**
 * A record as a file to download.
 * @param {import("./types.js").Json} record
 */
function recordHref(record) {
  return URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" }));
}

/**
 * Upload a saved game to the player's profile; the server's answer.
 * @param {SavedGame} saved
 * @returns {Promise<{id: string, profile: string}>}
 */
export async function uploadSaved(saved) {
  await ensurePlayer(getName() || T.defaultName);
  const answer = await ask("POST /api/me/offline-games", "/api/me/offline-games", { record: saved.record });
  if (saved.id !== undefined) await markUploaded(saved.id, answer);
  return answer;
}

/**
 * The list of the games saved in this browser, with their replay, download and upload.
 * @param {HTMLElement} host
 */
async function drawSaved(host) {
  let list;
  try {
    list = await savedGames();
  } catch (err) {
    replaceChildren(host, h("p", { class: "error" }, T.errorPrefix + errorText(err)));
    return;
  }
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const items = list.map((saved) => {
    const record = saved.record;
    const names = playerNames(record.players, { withLevel: true });
    const when = new Date(saved.saved_at).toLocaleString(document.documentElement.lang);
    const winner = record.winner !== null && record.winner !== undefined ? T.evGameEnded(playerNames(record.players)[record.winner]) : "";
    const upload = saved.uploaded
      ? h("a", { href: saved.uploaded.profile, class: "uploaded" }, t("Uploaded: see it on your profile"))
      : h(
          "button",
          {
            type: "button",
            class: "upload",
            disabled: isOffline(),
            onclick: async () => {
              showError(error, "");
              try {
                await uploadSaved(saved);
                await drawSaved(host);
              } catch (err) {
                showError(error, errorText(err));
              }
            },
          },
          t("Upload to your profile"),
        );
    return h(
      "li",
      { class: "saved-game", dataset: { saved: String(saved.id) } },
      h("span", {}, `${presetName(record.rules.preset)} · ${names.join(" · ")}`),
      winner ? h("span", { class: "muted" }, ` — ${winner}`) : "",
      h("span", { class: "muted" }, ` (${when})`),
      " ",
      h("a", { href: `/#/replay?saved=${saved.id}`, class: "button" }, t("Replay")),
      " ",
      h("a", { href: recordHref(record), download: `roppyakken-offline-${saved.id}.json`, class: "button" }, T.downloadRecord),
      " ",
      upload,
      " ",
      h(
        "button",
        {
          type: "button",
          class: "delete",
          onclick: async () => {
            if (saved.id === undefined) return;
            await deleteSaved(saved.id);
            await drawSaved(host);
          },
        },
        t("Delete"),
      ),
    );
  });
  replaceChildren(
    host,
    h("h2", {}, t("Saved games")),
    items.length ? h("ul", { class: "game-list saved-games", id: "saved-games" }, items) : h("p", { class: "muted" }, t("No saved games yet.")),
    error,
  );
}

/**
 * Draw the offline page.
 * @param {HTMLElement} root
 * @param {URLSearchParams} [params]  `seed`: the first game's seed (tests and benchmarks)
 */
export async function offlinePage(root, params = new URLSearchParams()) {
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  await probe();
  const status = h("p", { id: "offline-status", role: "status" });
  const drawStatus = () => {
    replaceChildren(
      status,
      isOffline() ? h("strong", {}, navigator.onLine ? t("The server cannot be reached.") : t("You are offline.")) : "",
      isOffline() ? " " : "",
      availableOffline(),
    );
  };
  drawStatus();
  const saved = h("section", { class: "card-panel", id: "offline-saved" });
  onConnectivity(() => {
    drawStatus();
    drawSaved(saved);
  });
  let presetList;
  try {
    presetList = await presets();
  } catch (err) {
    replaceChildren(root, h("p", { class: "error", role: "alert" }, T.errorPrefix + errorText(err)));
    return;
  }
  const error = h("p", { class: "error", role: "alert", hidden: true });
  /** @type {2 | 3} */
  let players = 2;
  const rules = rulesChooser("offline", presetList);
  const seats = h("div", { class: "bot-seats" });
  const drawSeats = () => {
    replaceChildren(
      seats,
      Array.from({ length: players - 1 }, (_, i) => {
        const id = `offline-bot-${i + 1}`;
        const select = h(
          "select",
          { id, name: id },
          LEVELS.map((level) => h("option", { value: level, title: botDescription(level, "") }, botName(level))),
        );
        select.value = "expert";
        return h("div", { class: "field-row" }, h("label", { for: id }, T.botLevel(i + 1)), select);
      }),
    );
  };
  drawSeats();
  const seed = seedInput("offline-seed");
  if (params.get("seed")) seed.value = String(params.get("seed"));
  const start = h("button", { type: "submit", class: "primary", id: "offline-start" }, T.startGame);
  const form = h(
    "form",
    {
      class: "card-panel",
      id: "offline-form",
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        showError(error, "");
        /** @type {Record<string, string>} */
        const bots = {};
        seats.querySelectorAll("select").forEach((s, i) => {
          bots[String(i + 1)] = s.value;
        });
        const chosen = seed.value !== "" ? Number(seed.value) : crypto.getRandomValues(new Uint32Array(1))[0];
        start.disabled = true;
        start.textContent = t("Starting the offline engine…");
        try {
          await playOffline(root, { rules: rules.value(), players, seat: 0, bots, seed: chosen, name: getName() || T.defaultName });
        } catch (err) {
          start.disabled = false;
          start.textContent = T.startGame;
          showError(error, errorText(err));
        }
      },
    },
    h("h2", {}, T.playBots),
    h("p", { class: "muted" }, t("The game runs in this browser, with the same engine and bots as the server.")),
    playersChooser("offline", (n) => {
      players = n;
      rules.setPlayers(n);
      drawSeats();
    }),
    rules.el,
    seats,
    h("details", {}, h("summary", {}, T.seed), seed),
    error,
    h("div", { class: "form-actions" }, start),
  );
  replaceChildren(
    root,
    h("section", { class: "card-panel offline-page", id: "offline-page" }, h("h1", {}, t("Play offline")), status),
    form,
    saved,
  );
  try {
    const info = await offlineInfo();
    if (!info.runtime) {
      start.disabled = true;
      showError(error, t("Offline play is not installed on this server: its Pyodide runtime is missing."));
    } else {
      // the engine starts while the player chooses (Pyodide takes seconds): Start is then quick
      engine()
        .start()
        .catch(() => {});
    }
  } catch (err) {
    showError(error, T.errorPrefix + errorText(err));
  }
  await drawSaved(saved);
}

/**
 * Play one game against bots on the table, fed by the offline engine; save its record at the end.
 * @param {HTMLElement} root
 * @param {{rules: import("./types.js").Json, players: number, seat: number, bots: Record<string, string>,
 *   seed: number, name: string}} request
 */
export async function playOffline(root, request) {
  const offline = engine();
  await offline.start();
  setName(request.name);
  const host = h("div", { class: "offline-table", id: "offline-table" });
  /** @type {GameView | null} */
  let game = null;
  /** @type {number | null} */
  let savedId = null;
  /** @type {string | null} */
  let download = null;
  const point = () => {
    // the end's links: this browser's record and its replay (no server holds this game)
    for (const a of host.querySelectorAll(".over-actions a")) {
      if (!(a instanceof HTMLAnchorElement)) continue;
      if (a.hasAttribute("download") && download) a.href = download;
      else if (a.getAttribute("href")?.startsWith("/#/replay") && savedId !== null) a.href = `/#/replay?saved=${savedId}`;
    }
  };
  new MutationObserver(point).observe(host, { childList: true, subtree: true });
  const source = new OfflineSource(
    offline,
    async (msg) => {
      if (!game) return;
      await game.receive(msg);
      if (msg.type === "game_end") {
        const record = await offline.call({ op: "record" });
        savedId = await saveRecord(record);
        download = recordHref(record);
        host.dataset.saved = String(savedId);
        point();
      }
    },
    (message) => game && game.onError(message),
  );
  const resolved = await resolveRules(request.rules.toml ? null : request.rules);
  usePreset(resolved.preset);
  replaceChildren(root, host);
  game = new GameView(host, { room: "offline", seat: request.seat, conn: source, rules: resolved, description: "" });
  const info = await source.start(request);
  game.setRoomInfo(info);
  // the rules the engine plays by (house rules are read by it): the table shows those
  game.rules = /** @type {import("./types.js").RulesInfo} */ (info.rules);
}
