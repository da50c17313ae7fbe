// Clocks in the browser: the time control chosen when a room is made, and, at the table, every
// seat's clock counting down from what the server last said (docs/PROTOCOL.md, "Clocks").  The
// server decides every timeout; this page only shows the time, warns the player whose time runs
// out, tells who was played for or handed to a bot, and offers to hand an absent friend's seat to
// a bot in a room without a clock.  In a turn-based game the page title and, when allowed, a
// notification say it is your move while the tab is in the background.

import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {import("./wire").ClockView} ClockView
 * @typedef {import("./wire").RoomInfo} RoomInfo
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

/**
 * Every seat's clock, shown beside that player's name on the table (`seatElement`), counting down;
 * the time control and the notices of timeouts and hand-overs in the table's status line
 * (`statusElement`).  `end()` takes them all away when the game is over.
 */
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
    /** @type {HTMLElement[]} each seat's clock, placed by the table beside the seat's name */
    this.seats = [];
    this.control = h("span", { class: "clock-control" });
    this.live = h("span", { class: "clock-notice", role: "status", "aria-live": "polite" });
    this.status = h("span", { class: "clock-status" }, this.control, this.live);
    this.timer = window.setInterval(() => this.tick(), 200);
    document.addEventListener("visibilitychange", () => this.tick());
  }

  /**
   * Seat `i`'s clock (time, "away" or "bot", "Hand to a bot"): the same element at every redraw.
   * @param {number} i
   * @returns {HTMLElement}
   */
  seatElement(i) {
    while (this.seats.length <= i)
      this.seats.push(h("span", { class: "clock-seat", hidden: true, dataset: { seat: String(this.seats.length) } }));
    return this.seats[i];
  }

  /** The time control and the latest notice, for the table's status line. @returns {HTMLElement} */
  statusElement() {
    return this.status;
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
   * @param {ClockView|null|undefined} clock
   * @param {string[]} names
   */
  update(clock, names) {
    this.clock = clock || null;
    this.names = names || this.names;
    this.endsAt = clock && clock.remaining !== null ? performance.now() + clock.remaining * 1000 : 0;
    this.render();
  }

  /** The game is over: no clock, badge, button or notice is left. */
  end() {
    this.clock = null;
    this.endsAt = 0;
    this.notice = "";
    this.info = null;
    this.render();
  }

  /** @param {import("./wire").TimeoutMessage} msg */
  onTimeout(msg) {
    const name = this.names[msg.seat] || t("Seat {n}", { n: msg.seat });
    this.notice = msg.abandoned
      ? t("{name} ran out of time again: a bot plays their seat to the end", { name })
      : t("{name} ran out of time: the expert bot played for them", { name });
    this.render();
  }

  /** @param {import("./wire").HandedMessage} msg */
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
    const count = info ? info.seats.length : clock ? clock.banks.length : 0;
    const timed = Boolean(clock && clock.kind !== "none");
    for (let i = 0; i < Math.max(count, this.seats.length); i++) {
      const el = this.seatElement(i);
      const seatInfo = info && info.seats[i];
      const parts = [];
      if (clock && clock.abandoned[i]) parts.push(h("span", { class: "badge bot" }, t("bot")));
      else if (clock && clock.away[i]) parts.push(h("span", { class: "badge offline" }, t("away")));
      if (timed && clock && i < count) {
        const name = this.names[i] || (seatInfo && seatInfo.name) || t("Seat {n}", { n: i });
        parts.push(
          h("span", { class: "clock-time", role: "timer", "aria-label": t("{name}'s clock", { name }) }, this.shownTime(i)),
        );
      }
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
      if (canHand)
        parts.push(
          h(
            "button",
            { type: "button", class: "hand-over", onclick: () => this.conn.send({ type: "hand_over", seat: i }) },
            t("Hand to a bot"),
          ),
        );
      const running = timed && clock && clock.turn === i;
      el.className = `clock-seat${running ? " running" : ""}${i === this.seat ? " mine" : ""}`;
      el.hidden = parts.length === 0;
      replaceChildren(el, parts);
    }
    this.control.textContent = timed && clock ? controlName(clock.control) : "";
    this.live.textContent = this.notice;
    this.status.hidden = !this.control.textContent && !this.notice;
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
    const mine = this.seat === null ? null : this.seats[this.seat] || null;
    if (clock && clock.turn !== null && left !== null) {
      const running = this.seats[clock.turn]?.querySelector(".clock-time");
      if (running) running.textContent = formatClock(left);
      const myTurn = clock.turn === this.seat;
      const low = myTurn && left <= (WARN_BELOW[clock.kind] || 10);
      const warning = mine && mine.querySelector(".clock-warning");
      if (mine) mine.classList.toggle("clock-low", low);
      if (low && mine && !warning) mine.append(h("span", { class: "clock-warning", role: "alert" }, t("Your time is running out!")));
      else if (!low && warning) warning.remove();
      if (low && this.warned !== this.endsAt) {
        this.warned = this.endsAt;
        this.onLow();
      }
      this.remind(myTurn && clock.kind === "turn");
    } else {
      if (mine) {
        mine.classList.remove("clock-low");
        mine.querySelector(".clock-warning")?.remove();
      }
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

  /** Stop and remove the clocks (the page changes). */
  close() {
    window.clearInterval(this.timer);
    for (const el of [...this.seats, this.status]) el.remove();
    document.title = this.title;
  }
}
