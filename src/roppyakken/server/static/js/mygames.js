// "Your games": the rooms whose seat tokens this browser keeps (store.js), asked of the server with
// POST /api/my-games: the running ones with whose move it is and the time left, and the finished
// ones for the list of finished games (private games are listed only to their players).

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { ask } from "./api.js";
import { playerNames } from "./text.js";
import { formatClock } from "./clock.js";

const PREFIX = "roppyakken:";
const MAX_ROOMS = 100;

/** A game of POST /api/my-games, as the protocol declares it (wire.d.ts). @typedef {import("./wire").HeldGame} MyGame */

/**
 * The seat tokens this browser keeps, by room (the newest 100 the storage lists).
 * @returns {Record<string, string>}
 */
export function heldTokens() {
  /** @type {Record<string, string>} */
  const out = {};
  try {
    for (let i = 0; i < localStorage.length && Object.keys(out).length < MAX_ROOMS; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PREFIX)) continue;
      const room = key.slice(PREFIX.length);
      const token = localStorage.getItem(key);
      if (token && /^[A-Za-z0-9_-]{1,32}$/.test(room)) out[room] = token;
    }
  } catch {
    // storage disabled: no games to list
  }
  return out;
}

/**
 * The games of this browser's seats (empty if it holds none, or on any error).
 * @returns {Promise<MyGame[]>}
 */
export async function myGames() {
  const rooms = heldTokens();
  if (!Object.keys(rooms).length) return [];
  try {
    const answer = await ask("POST /api/my-games", "/api/my-games", { rooms });
    return answer.games || [];
  } catch {
    return [];
  }
}

/**
 * The running games among `games`, as a section (null if there are none).
 * @param {MyGame[]} games
 * @returns {HTMLElement|null}
 */
export function runningSection(games) {
  const running = games.filter((g) => g.status !== "over");
  if (!running.length) return null;
  const items = running.map((g) => {
    const shown = playerNames(g.players);
    let whose = "";
    if (g.turn !== null && g.turn !== undefined) {
      whose = g.turn === g.seat ? t("your move") : t("{name}'s move", { name: shown[g.turn] });
      if (g.remaining !== null) whose += ` · ${formatClock(g.remaining)}`;
    } else if (g.status === "waiting") whose = t("waiting for players");
    return h(
      "li",
      { class: g.turn === g.seat ? "my-turn" : "", dataset: { room: g.room } },
      h("a", { href: `/r/${encodeURIComponent(g.room)}` }, shown.join(" · ")),
      h("span", { class: "spacer" }),
      h("span", { class: "muted my-whose" }, whose),
    );
  });
  return h("section", { class: "card-panel my-games" }, h("h2", {}, t("Your games")), h("ul", { class: "game-list" }, items));
}

/**
 * Fill `slot` with this browser's running games (nothing if there are none).
 * @param {HTMLElement} slot
 * @param {MyGame[]} games
 */
export function showRunning(slot, games) {
  const section = runningSection(games);
  replaceChildren(slot, section);
}
