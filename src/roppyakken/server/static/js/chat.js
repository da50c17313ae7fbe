// The room's chat (docs/PROTOCOL.md, "Chat"): players and spectators each in their own channel,
// lines shown as plain text (textContent, never markup), quick phrases sent as ids and shown in this
// reader's language, and a mute button beside each author's lines; a report button sends a line, or
// a player of the room, to the server's moderators (report.js).

import { h, openDialog as openDialogOf, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { openReport } from "./report.js";

/** @typedef {import("./wire").ChatLine} ChatLine */

/** The quick phrases' ids and their text in this reader's language. */
export const PHRASES = {
  hello: t("Hello!"),
  good_luck: t("Good luck!"),
  good_game: t("Good game!"),
  thanks: t("Thanks!"),
  oops: t("Oops!"),
  well_played: t("Well played!"),
  bye: t("Bye!"),
};

const MAX_LINES = 200;

/** A chat panel docked at the bottom of the page. */
export class ChatPanel {
  /**
   * @param {(message: import("./types.js").ClientMessage) => void} send
   * @param {string} [room] the room's id (reports name it); none: no report buttons
   */
  constructor(send, room) {
    this.send = send;
    this.room = room || null;
    /** @type {{name: string|null, kind: string}[]} the room's seats, for reporting a player */
    this.seats = [];
    this.reportPlayer = /** @type {HTMLButtonElement} */ (
      h(
        "button",
        { type: "button", class: "chat-report-player", hidden: true, onclick: () => this.choosePlayer() },
        t("Report a player…"),
      )
    );
    /** @type {number|null} */
    this.seat = null;
    /** @type {Set<string>} */
    this.muted = new Set();
    /** @type {ChatLine[]} */
    this.lines = [];
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite" });
    this.input = /** @type {HTMLInputElement} */ (
      h("input", { id: "chat-text", maxlength: "200", autocomplete: "off", "aria-label": t("Message") })
    );
    this.title = h("span", {}, t("Chat"));
    const phrases = Object.entries(PHRASES).map(([id, label]) =>
      h("button", { type: "button", class: "chat-phrase", "data-phrase": id, onclick: () => this.say({ phrase: /** @type {keyof typeof PHRASES} */ (id) }) }, label),
    );
    this.el = /** @type {HTMLDetailsElement} */ (
      h(
        "details",
        { class: "chat-panel" },
        h("summary", {}, this.title),
        this.list,
        h("div", { class: "chat-phrases" }, phrases, this.reportPlayer),
        h(
          "form",
          {
            class: "chat-form",
            onsubmit: (/** @type {Event} */ ev) => {
              ev.preventDefault();
              const text = this.input.value.trim();
              if (text) this.say({ text });
              this.input.value = "";
            },
          },
          this.input,
          h("button", { type: "submit" }, t("Send")),
        ),
      )
    );
    document.body.append(this.el);
  }

  /**
   * The room's seats (from `welcome` and `room` messages): the players another may report.
   * @param {{name: string|null, kind: string}[]} seats
   */
  setSeats(seats) {
    this.seats = seats;
    this.reportPlayer.hidden = !this.room || !this.others().length;
    this.showIfSomeone();
  }

  /** A player alone with bots has nobody to talk to: the players' chat shows only with another person. */
  showIfSomeone() {
    const alone =
      this.seat !== null && this.seats.length > 0 && this.seats.every((s, i) => i === this.seat || s.kind === "bot");
    this.el.hidden = alone;
  }

  /** The human seats other than this client's: [seat, name]. @returns {[number, string][]} */
  others() {
    /** @type {[number, string][]} */
    const out = [];
    this.seats.forEach((s, i) => {
      if (s.kind === "human" && s.name && i !== this.seat) out.push([i, s.name]);
    });
    return out;
  }

  /** A dialog listing the other players, each with its report button. */
  choosePlayer() {
    const room = this.room;
    if (!room) return;
    const list = h(
      "ul",
      { class: "report-players" },
      this.others().map(([seat, name]) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              onclick: () => {
                dialog.close();
                openReport(room, { seat }, name);
              },
            },
            name,
          ),
        ),
      ),
    );
    const dialog = /** @type {HTMLDialogElement} */ (openDialogOf(t("Report a player…"), list));
  }

  /** @param {{text: string}|{phrase: import("./wire").ChatSayMessage["phrase"]}} line */
  say(line) {
    this.send({ type: "chat", ...line });
  }

  /**
   * After each welcome: this client's seat (null: a spectator), and the channel's recent lines.
   * @param {number|null} seat
   */
  welcome(seat) {
    this.seat = seat;
    this.title.textContent = seat === null ? t("Spectators' chat") : t("Players' chat");
    this.showIfSomeone();
    this.send({ type: "chat_history" });
  }

  /** @param {import("./wire").ChatHistoryAnswer} msg */
  onHistory(msg) {
    this.muted = new Set(msg.muted);
    this.lines = msg.lines.slice(-MAX_LINES);
    this.render();
  }

  /** @param {ChatLine} line */
  onLine(line) {
    if (this.muted.has(line.author)) return;
    this.lines.push(line);
    if (this.lines.length > MAX_LINES) this.lines.shift();
    this.render();
  }

  /** @param {import("./wire").MutedMessage} msg */
  onMuted(msg) {
    this.muted = new Set(msg.muted);
    this.lines = this.lines.filter((line) => !this.muted.has(line.author));
    this.render();
  }

  render() {
    const mine = this.seat === null ? null : `seat:${this.seat}`;
    replaceChildren(
      this.list,
      this.lines.map((line) => {
        const said =
          line.phrase !== null ? /** @type {Record<string, string>} */ (PHRASES)[line.phrase] || line.phrase : line.text || "";
        const who = h("b", { class: "chat-name" });
        who.textContent = line.name || t("Spectator");
        const body = h("span", { class: "chat-text" });
        body.textContent = said; // plain text, never markup
        const room = this.room;
        return h(
          "li",
          { "data-author": line.author },
          who,
          ": ",
          body,
          line.author === mine
            ? null
            : h(
                "button",
                {
                  type: "button",
                  class: "chat-mute",
                  title: t("Mute this person"),
                  onclick: () => this.send({ type: "mute", author: line.author, muted: true }),
                },
                t("Mute"),
              ),
          line.author === mine || !room
            ? null
            : h(
                "button",
                {
                  type: "button",
                  class: "chat-report",
                  title: t("Report this message"),
                  onclick: () => openReport(room, { message: line.idx }, `${who.textContent}: ${said}`),
                },
                t("Report"),
              ),
        );
      }),
    );
    this.list.scrollTop = this.list.scrollHeight;
  }

  close() {
    this.el.remove();
  }
}
