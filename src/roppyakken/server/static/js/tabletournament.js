// A tournament's table (room_info.tournament, docs/PROTOCOL.md "Tournaments"): the link to the
// tournament in the table's status line and, at the game's end, "Back to the tournament" with the
// keyboard focus on it.  In an arena a player who saw the game end is taken back by themselves after
// BACK_SECONDS (said on screen, "Stay here" or Escape cancels; the bar that shrinks meanwhile is
// still under prefers-reduced-motion); back there, the live page takes them to their next table.  A
// Swiss or round-robin round's end says when the next round comes; its pairing arrives on the
// tournament's page.  An arena player who stays is offered a pause, and is told at once when they
// are paired again meanwhile (the page follows the tournament's socket), with the way to that table.

import { ask, socketUrl } from "./api.js";
import { errorText, h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { getToken, setToken } from "./store.js";

/** Seconds before an arena player is taken back to the tournament. */
export const BACK_SECONDS = 5;

/** @typedef {import("./wire").RoomTournament} RoomTournament */
/** @typedef {import("./wire").TournamentServerMessage} TournamentMessage */

/** Where the browser keeps the seat token a tournament gave the player. @param {string} id */
export const tournamentTokenKey = (id) => `tournament:${id}`;

/**
 * Give the tournament's table `room` the seat token the tournament gave this browser.
 * @param {string} id @param {string} room
 * @returns {boolean} whether the browser holds one
 */
export function takeSeat(id, room) {
  const token = getToken(tournamentTokenKey(id));
  if (token) setToken(room, token);
  return Boolean(token);
}

/** A tournament's page. @param {string} id */
const pageOf = (id) => `/#/tournament/${encodeURIComponent(id)}`;

/** Where this tab keeps the tournament's table whose game it saw end. @param {string} id */
const overKey = (id) => `roppyakken-table-over:${id}`;

/** Remember that this tab saw the game of the tournament's table `room` end. @param {string} id @param {string} room */
function rememberOver(id, room) {
  try {
    sessionStorage.setItem(overKey(id), room);
  } catch {
    // storage disabled: the tournament's page reads the table's end from the server as ever
  }
}

/**
 * The tournament's table whose game this tab last saw end (the tournament's page never takes the
 * player back to it), or null.
 * @param {string} id
 * @returns {string | null}
 */
export function tableOver(id) {
  try {
    return sessionStorage.getItem(overKey(id));
  } catch {
    return null;
  }
}

/** A format for people. @param {string} format */
function formatName(format) {
  /** @type {Record<string, string>} */
  const names = { arena: t("Arena"), swiss: t("Swiss"), round_robin: t("Round robin") };
  return names[format] || format;
}

export class TableTournament {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    /** Whether this page saw the game under way (a page opened on a finished game is not taken back). */
    this.sawPlay = false;
    /** @type {string | null} the room whose game end was shown (shown once) */
    this.shown = null;
    /** @type {number | null} */
    this.timer = null;
    this.left = 0;
    this.countdown = h("p", { class: "back-countdown", id: "back-countdown", "aria-live": "off", hidden: true });
    this.bar = h("div", { class: "back-bar", "aria-hidden": "true", hidden: true });
    this.stay = h(
      "button",
      { type: "button", class: "back-stay", hidden: true, onclick: () => this.cancel(true) },
      t("Stay here"),
    );
    this.back = h(
      "a",
      { class: "button primary back-to-tournament", href: "/", onclick: () => this.leaving() },
      t("Back to the tournament"),
    );
    this.next = h("p", { class: "next-round" });
    this.pause = h(
      "button",
      { type: "button", class: "back-pause", hidden: true, onclick: () => this.pauseHere() },
      t("Pause in the arena"),
    );
    /** What came of staying: a pause, or a new table (said politely; the new table's link gets the focus). */
    this.since = h("p", { class: "since-stay", role: "status" });
    /** @type {WebSocket | null} the tournament's socket while the player stays */
    this.socket = null;
    this.el = h(
      "section",
      {
        class: "tournament-back",
        "aria-label": t("Tournament"),
        onkeydown: (/** @type {KeyboardEvent} */ ev) => {
          if (ev.key === "Escape" && this.timer !== null) {
            ev.preventDefault();
            this.cancel(true);
          }
        },
      },
      this.next,
      h("div", { class: "back-actions" }, this.back, this.stay, this.pause),
      this.countdown,
      this.bar,
      this.since,
    );
  }

  /** @returns {RoomTournament | null} */
  get tournament() {
    return this.game.roomInfo?.tournament ?? null;
  }

  /**
   * The tournament's link for the status line (null: the room is no tournament's).
   * @returns {HTMLElement | null}
   */
  link() {
    const tt = this.tournament;
    if (!tt) return null;
    if (this.game.view && this.game.view.phase !== "over") this.sawPlay = true;
    const where =
      tt.round === null
        ? formatName(tt.format)
        : tt.rounds
          ? t("Round {round} of {rounds}", { round: tt.round, rounds: tt.rounds })
          : t("Round {round}", { round: tt.round });
    return h("a", { class: "tournament-link", href: pageOf(tt.id) }, `${tt.name} · ${where}`);
  }

  /**
   * The game's end at a tournament's table: the way back to the tournament (null: no tournament).
   * The first time, the keyboard focus goes to it and, in an arena, for a player who saw the game
   * end, the countdown starts.
   * @returns {HTMLElement | null}
   */
  ended() {
    const tt = this.tournament;
    if (!tt) return null;
    const game = this.game;
    this.back.setAttribute("href", pageOf(tt.id));
    replaceChildren(this.next, this.nextText(tt));
    if (this.shown === game.room) return this.el;
    this.shown = game.room;
    if (!game.spectator) rememberOver(tt.id, game.room);
    queueMicrotask(() => {
      if (!this.el.isConnected) return;
      this.back.focus({ preventScroll: false });
      if (tt.format === "arena" && !game.spectator && this.sawPlay) this.start();
    });
    return this.el;
  }

  /** @param {RoomTournament} tt */
  nextText(tt) {
    if (tt.format === "arena") {
      return this.game.spectator ? "" : t("The arena goes on: back on its page you are paired again at once.");
    }
    if (tt.rounds && tt.round !== null && tt.round >= tt.rounds) return t("That was the last round.");
    return t("The next round is paired once every game of round {round} has ended: its table comes on the tournament's page.", {
      round: tt.round ?? "?",
    });
  }

  /** The countdown back to the arena. */
  start() {
    this.left = BACK_SECONDS;
    this.countdown.hidden = false;
    this.stay.hidden = false;
    this.bar.hidden = false;
    this.back.setAttribute("aria-describedby", this.countdown.id);
    this.bar.style.animationDuration = `${BACK_SECONDS}s`;
    this.bar.classList.add("running");
    this.tick();
  }

  tick() {
    if (this.left <= 0) {
      this.timer = null;
      this.leaving();
      location.assign(this.back.getAttribute("href") || "/");
      return;
    }
    this.countdown.textContent = t("Back to the tournament in {seconds} s.", { seconds: this.left });
    this.left -= 1;
    this.timer = window.setTimeout(() => this.tick(), 1000);
  }

  /**
   * Stop the countdown (the player stays, or leaves by another way).
   * @param {boolean} [said]  say so on screen, the focus on the way back
   */
  cancel(said = false) {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
    this.stay.hidden = true;
    this.bar.hidden = true;
    this.bar.classList.remove("running");
    if (said) {
      this.countdown.setAttribute("aria-live", "polite");
      this.countdown.textContent = t("You stay here. You are still in the arena and may be paired again meanwhile: this page tells you, or pause.");
      this.pause.hidden = false;
      this.back.focus();
      this.follow();
    }
  }

  /** Follow the tournament while the player stays: a new table of theirs is said at once. */
  follow() {
    const tt = this.tournament;
    if (!tt || this.socket) return;
    const socket = new WebSocket(socketUrl(`/ws/tournament/${encodeURIComponent(tt.id)}`));
    this.socket = socket;
    socket.addEventListener("message", (ev) => {
      /** @type {TournamentMessage} */
      const msg = JSON.parse(String(ev.data));
      if (msg.type !== "tournament" || !this.el.isConnected) return;
      const me = msg.tournament.me;
      if (me.table && me.table.room !== this.game.room) this.paired(tt.id, me.table.room);
    });
    socket.addEventListener("close", () => {
      if (this.socket === socket) this.socket = null;
      if (this.el.isConnected && !this.since.querySelector("a")) setTimeout(() => this.follow(), 1000);
    });
  }

  /** The player, who stayed, was paired again at `room`. @param {string} id @param {string} room */
  paired(id, room) {
    this.socket?.close();
    this.socket = null;
    this.pause.hidden = true;
    const held = takeSeat(id, room);
    const go = h(
      "a",
      { class: "button primary next-table", href: `/r/${encodeURIComponent(room)}` },
      t("Go to your table"),
    );
    replaceChildren(
      this.since,
      held
        ? t("You are paired again: your next game has begun.")
        : t("You are paired, but this browser does not hold your seat: join again here."),
      " ",
      held ? go : h("a", { href: pageOf(id) }, t("Back to the tournament")),
    );
    if (held) go.focus();
  }

  /** Pause in the arena from here (not paired again until the player comes back on its page). */
  async pauseHere() {
    const tt = this.tournament;
    if (!tt) return;
    const path = `/api/tournaments/${encodeURIComponent(tt.id)}/pause`;
    try {
      await ask("POST /api/tournaments/{tournament}/pause", path, { paused: true });
      this.socket?.close();
      this.socket = null;
      this.pause.hidden = true;
      this.since.textContent = t("You are paused: you are not paired until you come back on the tournament's page.");
    } catch (err) {
      this.since.textContent = errorText(err);
    }
  }

  /** The player leaves for the tournament's page. */
  leaving() {
    this.cancel();
  }
}
