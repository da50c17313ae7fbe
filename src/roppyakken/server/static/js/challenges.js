// Direct challenges on every page of the site (docs/WEB.md, "Friends"): a challenge to the tab's
// player is shown in a panel at the foot of the screen, first in the keyboard's order (just after
// the skip link), with Accept and Decline; accepting goes to the table.  It listens to the tab's
// one lobby connection (lobbylink.js).  Not during a game the player sits in: on a room page the
// connection waits until the game is over (or the page only watches), and the challenges waiting
// are shown then.  On #/friends the page's own list answers them, so the panel is hidden; a
// challenger whose challenge is accepted is taken to the table from any page but a game.

import { errorText, h, replaceChildren } from "./dom.js";
import { ask } from "./api.js";
import { t } from "./i18n.js";
import { PLAYER_EVENT, onLobby } from "./lobbylink.js";
import { gameText, goToRoom, takeHeldToken } from "./friends.js";

/** @typedef {import("./wire").ChallengeInfo} Challenge */

/** Most challenges the panel lists at once (the rest on #/friends). */
const SHOWN = 3;

/** Whether the tab shows a game the player sits in, not over (room.js says: body[data-game]). */
function inGame() {
  const game = document.body.dataset.game;
  return location.pathname.startsWith("/r/") && (game === undefined || game === "playing");
}

/** The challenges panel of every page; started once by main.js. */
export function challengePanel() {
  /** @type {Map<string, Challenge>} */
  const incoming = new Map();
  /** @type {string|null} */
  let me = null;
  let listening = false;
  const said = h("p", { class: "challenge-said", role: "status", "aria-live": "polite" });
  const list = h("ul", { class: "challenge-list" });
  const panel = h(
    "section",
    { class: "challenge-panel", id: "challenge-panel", "aria-labelledby": "challenge-panel-title", hidden: true },
    h("h2", { id: "challenge-panel-title", class: "sr-only" }, t("Challenges to you")),
    list,
    said,
  );
  document.querySelector(".skip-link")?.after(panel);

  const draw = () => {
    const shown = [...incoming.values()].slice(0, SHOWN);
    panel.hidden = shown.length === 0 || location.hash.startsWith("#/friends");
    replaceChildren(
      list,
      shown.map((c) =>
        h(
          "li",
          { dataset: { challenge: c.id } },
          h("p", {}, h("strong", {}, t("{name} challenges you.", { name: c.challenger.name })), " ", h("span", { class: "muted" }, gameText(c))),
          h(
            "div",
            { class: "form-actions" },
            h("button", { type: "button", class: "primary accept", onclick: () => accept(c) }, t("Accept")),
            h("button", { type: "button", class: "decline", onclick: () => decline(c) }, t("Decline")),
          ),
        ),
      ),
    );
    if (incoming.size > SHOWN)
      list.append(h("li", {}, h("a", { href: "/#/friends" }, t("All your challenges"))));
  };

  /** @param {Challenge} c */
  const accept = async (c) => {
    try {
      const made = await ask("POST /api/challenges/{challenge}/accept", `/api/challenges/${c.id}/accept`);
      goToRoom(made.room, made.token);
    } catch (err) {
      incoming.delete(c.id);
      draw();
      said.textContent = errorText(err);
    }
  };

  /** @param {Challenge} c */
  const decline = async (c) => {
    incoming.delete(c.id);
    draw();
    try {
      await ask("POST /api/challenges/{challenge}/decline", `/api/challenges/${c.id}/decline`);
      said.textContent = t("Challenge declined.");
    } catch (err) {
      said.textContent = errorText(err);
    }
  };

  /** @param {import("./wire").LobbyServerMessage} msg */
  const receive = (msg) => {
    if (msg.type === "lobby") me = msg.player ? msg.player.id : null;
    if (msg.type !== "challenge" || me === null) return;
    const c = msg.challenge;
    if (c.challenged.id === me) {
      if (c.status === "pending") {
        if (!incoming.has(c.id)) said.textContent = t("{name} challenges you.", { name: c.challenger.name });
        incoming.set(c.id, c);
      } else incoming.delete(c.id);
      draw();
    } else if (c.challenger.id === me && c.status === "accepted" && c.room && !location.hash.startsWith("#/friends")) {
      const token = takeHeldToken(c.id); // the challenger's seat: go to the table
      if (token) goToRoom(c.room, token);
    }
  };

  let player = false;
  const listen = () => {
    if (listening || !player || inGame()) return;
    listening = true;
    onLobby(receive);
  };
  window.addEventListener("hashchange", draw);
  // room.js marks the game's state: the panel listens once the player's game is over
  new MutationObserver(listen).observe(document.body, { attributes: true, attributeFilter: ["data-game"] });
  // only a player can be challenged: a visitor without one opens no connection for it
  const becomes = () => {
    player = true;
    listen();
  };
  window.addEventListener(PLAYER_EVENT, becomes);
  ask("GET /api/me", "/api/me")
    .then((answer) => {
      if (answer.player) becomes();
    })
    .catch(() => {});
}
