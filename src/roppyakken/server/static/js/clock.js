// Clocks in the browser: the time control chosen when a room is made, and, at the table, every
// seat's clock counting down from what the server last said (docs/PROTOCOL.md, "Clocks").  The
// server decides every timeout; this page only shows the time, warns the player whose time runs
// out, tells who was played for or handed to a bot, and offers to hand an absent friend's seat to
// a bot in a room without a clock.  In a turn-based game the page title and, when allowed, a
// notification say it is your move while the tab is in the background.

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {{control: string, kind: "realtime"|"turn"|"none", per_move: number, banks: number[],
 *   turn: number|null, remaining: number|null, away: boolean[], abandoned: boolean[]}} ClockView
 * @typedef {{name: string|null, kind: string, connected: boolean}} SeatInfo
 * @typedef {{seats: SeatInfo[], clock?: string, status: string}} RoomInfo
 * @typedef {{send: (message: import("./types.js").ClientMessage) => unknown}} Sender
 */

/** The time controls a room may be made with (server/clocks.py CONTROLS), "none" first. */
export const CONTROLS = ["none", "15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"];

/**
 * Seconds left below which the player to move is warned, by family.
 * @type {Record<string, number>}
 */
const WARN_BELOW = { realtime: 10, turn: 3600, none: 0 };

/**
 * A time control's label in the page's language.
 * @param {string} control
 * @returns {string}
 */
export function controlName(control) {
  if (control === "none") return t("No clock");
  const days = /^(\d+)d$/.exec(control);
  if (days) return days[1] === "1" ? t("1 day a move") : t("{days} days a move", { days: days[1] });
  const [move, bank] = control.split("+");
  return t("{move} s a move + {bank} s bank", { move, bank });
}

/**
 * The online form's choices: the time control and whether the finished game is listed publicly.
 * @returns {{el: HTMLElement, value: () => {clock: string, public: boolean}}}
 */
export function clockChooser() {
  const select = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "online-clock", name: "clock" },
      CONTROLS.map((c) => h("option", { value: c }, controlName(c))),
    )
  );
  const listed = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "online-public" }));
  const el = h(
    "div",
    { class: "clock-choice" },
    h("label", { for: "online-clock" }, t("Time control")),
    select,
    h("label", { class: "inline" }, listed, " ", t("List the finished game for everyone")),
  );
  return { el, value: () => ({ clock: select.value, public: listed.checked }) };
}

/**
 * Seconds as the clock shows them: m:ss in real time, days and hours or hours and minutes otherwise.
 * @param {number} seconds
 * @returns {string}
 */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return t("{days} d {hours} h", { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
  if (s >= 3600) return t("{hours} h {minutes} min", { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Every seat's clock at the table, counting down; notices of timeouts and hand-overs. */
export class ClockBar {
  /**
   * @param {string} room
   * @param {Sender} conn
   * @param {() => void} [onLow] told once a turn when this player's time starts running out (a sound)
   */
  constructor(room, conn, onLow = () => {}) {
    this.room = room;
    this.conn = conn;
    this.onLow = onLow;
    /** The turn (its end time) already warned of. */
    this.warned = 0;
    /** @type {number|null} */
    this.seat = null;
    /** @type {ClockView|null} */
    this.clock = null;
    /** @type {string[]} */
    this.names = [];
    /** @type {RoomInfo|null} */
    this.info = null;
    /** When the running clock reaches 0, on this page's clock (ms, performance.now()). */
    this.endsAt = 0;
    this.notice = "";
    this.title = document.title;
    this.notified = -1;
    this.el = h("aside", { class: "clock-bar", "aria-label": t("Clocks"), hidden: true });
    this.live = h("p", { class: "clock-notice", role: "status", "aria-live": "polite" });
    document.body.append(this.el);
    this.timer = window.setInterval(() => this.tick(), 200);
    document.addEventListener("visibilitychange", () => this.tick());
  }

  /** @param {number|null} seat */
  setSeat(seat) {
    this.seat = seat;
  }

  /** @param {RoomInfo} info */
  setRoom(info) {
    this.info = info;
    this.render();
  }

  /**
   * A new state: its clock (absent in a room without one) and the players' names.
   * @param {ClockView|undefined} clock
   * @param {string[]} names
   */
  update(clock, names) {
    this.clock = clock || null;
    this.names = names || this.names;
    this.endsAt = clock && clock.remaining !== null ? performance.now() + clock.remaining * 1000 : 0;
    this.render();
  }

  /** @param {import("./types.js").ServerMessage} msg a ``timeout``: {seat, abandoned} */
  onTimeout(msg) {
    const name = this.names[msg.seat] || t("Seat {n}", { n: msg.seat });
    this.notice = msg.abandoned
      ? t("{name} ran out of time again: a bot plays their seat to the end", { name })
      : t("{name} ran out of time: the expert bot played for them", { name });
    this.render();
  }

  /** @param {import("./types.js").ServerMessage} msg a ``handed``: {seat, votes, done} */
  onHanded(msg) {
    const name = this.names[msg.seat] || t("Seat {n}", { n: msg.seat });
    this.notice = msg.done
      ? t("A bot plays {name}'s seat from now on", { name })
      : t("Handing {name}'s seat to a bot: {count} agreed so far", { name, count: msg.votes.length });
    this.render();
  }

  /** Seconds left on the running clock now (null: none runs). */
  left() {
    if (!this.clock || this.clock.turn === null || !this.endsAt) return null;
    return Math.max(0, (this.endsAt - performance.now()) / 1000);
  }

  render() {
    const clock = this.clock;
    const info = this.info;
    const rows = [];
    const seats = info ? info.seats : this.names.map(() => null);
    const timed = clock && clock.kind !== "none";
    for (let i = 0; i < seats.length; i++) {
      const seatInfo = seats[i];
      const name = this.names[i] || (seatInfo && seatInfo.name) || t("Seat {n}", { n: i });
      const badges = [];
      if (clock && clock.abandoned[i]) badges.push(h("span", { class: "badge bot" }, t("bot")));
      else if (clock && clock.away[i]) badges.push(h("span", { class: "badge offline" }, t("away")));
      const running = timed && clock && clock.turn === i;
      const time = timed && clock ? h("span", { class: "clock-time" }, this.shownTime(i)) : null;
      const canHand =
        !timed &&
        info &&
        info.status === "playing" &&
        this.seat !== null &&
        i !== this.seat &&
        seatInfo &&
        seatInfo.kind === "human" &&
        !seatInfo.connected &&
        !(clock && clock.abandoned[i]);
      rows.push(
        h(
          "li",
          { class: `clock-seat${running ? " running" : ""}${i === this.seat ? " mine" : ""}`, dataset: { seat: String(i) } },
          h("span", { class: "clock-name" }, name),
          badges,
          time,
          canHand
            ? h(
                "button",
                { type: "button", class: "hand-over", onclick: () => this.conn.send({ type: "hand_over", seat: i }) },
                t("Hand to a bot"),
              )
            : null,
        ),
      );
    }
    this.live.textContent = this.notice;
    const show = Boolean(timed || (clock && clock.abandoned.some(Boolean)) || rows.some((r) => r.querySelector("button")) || this.notice);
    this.el.hidden = !show;
    replaceChildren(this.el, timed && clock ? h("p", { class: "clock-control muted" }, controlName(clock.control)) : null, h("ol", {}, rows), this.live);
    this.tick();
  }

  /**
   * What seat `i`'s clock shows: the running one counts down, the others show their bank.
   * @param {number} i
   * @returns {string}
   */
  shownTime(i) {
    const clock = this.clock;
    if (!clock) return "";
    if (clock.turn === i) return formatClock(this.left() || 0);
    return clock.kind === "realtime" ? formatClock(clock.per_move + clock.banks[i]) : formatClock(clock.per_move);
  }

  tick() {
    const clock = this.clock;
    const left = this.left();
    if (clock && clock.turn !== null && left !== null) {
      const running = this.el.querySelector(`li[data-seat="${clock.turn}"] .clock-time`);
      if (running) running.textContent = formatClock(left);
      const mine = clock.turn === this.seat;
      const low = mine && left <= (WARN_BELOW[clock.kind] || 10);
      this.el.classList.toggle("clock-low", low);
      const warning = this.el.querySelector(".clock-warning");
      if (low && !warning) this.el.prepend(h("p", { class: "clock-warning", role: "alert" }, t("Your time is running out!")));
      if (low && this.warned !== this.endsAt) {
        this.warned = this.endsAt;
        this.onLow();
      }
      else if (!low && warning) warning.remove();
      this.remind(mine && clock.kind === "turn");
    } else {
      this.el.classList.remove("clock-low");
      this.remind(false);
    }
  }

  /**
   * In a turn-based game, while the tab is hidden: the title and a notification say it is your move.
   * @param {boolean} yourMove
   */
  remind(yourMove) {
    if (!yourMove || !document.hidden) {
      if (document.title !== this.title && !yourMove) document.title = this.title;
      return;
    }
    document.title = t("Your move — Roppyakken");
    const move = this.clock ? this.clock.turn : -1;
    if (this.notified === this.endsAt || typeof Notification === "undefined") return;
    this.notified = this.endsAt;
    if (Notification.permission === "granted") {
      new Notification(t("Roppyakken"), { body: t("It is your move"), tag: `roppyakken-${this.room}-${move}` });
    }
  }

  /** Ask once (on a click) whether notifications may say it is your move. */
  static askNotifications() {
    if (typeof Notification !== "undefined" && Notification.permission === "default") {
      Notification.requestPermission().catch(() => {});
    }
  }

  /** Remove the bar (the page changes). */
  close() {
    window.clearInterval(this.timer);
    this.el.remove();
    document.title = this.title;
  }
}
