// The table's log: a line for each public event of the game (the latest 150 shown, 300 kept so
// that the lines can be redrawn once the players' names are known).

import { cardGender, cardName, cardNames } from "./deck.js";
import { listText } from "./i18n.js";
import T, { MONTH_NAMES, yakuName } from "./text.js";
import { h, replaceChildren } from "./dom.js";

/** @typedef {import("./types.js").GameEvent} GameEvent */

export class LogView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    // Focusable, so that the keyboard can scroll it.
    this.list = h("ol", { class: "log", tabindex: "0", "aria-label": T.log });
    /** @type {GameEvent[]} */
    this.events = [];
  }

  /**
   * Start again from the game's events so far.
   * @param {GameEvent[]} events
   */
  reset(events) {
    this.events = events.slice(-300);
    this.render();
  }

  /** @param {GameEvent} ev */
  add(ev) {
    const prev = this.events[this.events.length - 1];
    this.events.push(ev);
    if (this.events.length > 300) this.events.shift();
    const line = this.text(ev, prev);
    if (!line) return;
    this.list.append(h("li", { class: `ev-${ev.type}` }, line));
    while (this.list.firstElementChild && this.list.children.length > 150) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  /** Redraw the whole log (once the players' names are known). */
  render() {
    /** @type {HTMLElement[]} */
    const lines = [];
    this.events.forEach((ev, i) => {
      const line = this.text(ev, this.events[i - 1]);
      if (line) lines.push(h("li", { class: `ev-${ev.type}` }, line));
    });
    replaceChildren(this.list, lines.slice(-150));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /**
   * @param {GameEvent} ev
   * @param {GameEvent | undefined} prev
   * @returns {string | null}
   */
  text(ev, prev) {
    /** @param {number} s */
    const n = (s) => this.game.name(s);
    switch (ev.type) {
      case "first-dealer":
        return T.evFirstDealer(n(ev.dealer));
      case "round-started":
        return T.evRoundStarted(ev.round, n(ev.dealer));
      case "redeal":
        return T.evRedeal(
          ev.seat === null || ev.seat === undefined
            ? T.evRedealTable(MONTH_NAMES[ev.month - 1])
            : T.evRedealHand(MONTH_NAMES[ev.month - 1], n(ev.seat)),
        );
      case "dealer-took-four":
        return T.evDealerTook(n(ev.seat), cardNames(ev.cards));
      case "declared":
        return T.evDeclared(n(ev.seat), listText(ev.hands.map((x) => `${yakuName(x.slug)} (${x.points})`)));
      case "turned":
        return T.evTurned(n(ev.seat), cardName(ev.card));
      case "played":
        if (ev.source === "pile" && prev && prev.type === "turned" && prev.card === ev.card && ev.captured.length)
          return T.evTurnedTakes(n(ev.seat), cardName(ev.card), cardNames(ev.captured));
        return ev.captured.length
          ? T.evPlayedTaking(n(ev.seat), cardName(ev.card), cardNames(ev.captured), ev.source === "pile")
          : T.evPlayedToTable(n(ev.seat), cardName(ev.card), ev.source === "pile", cardGender(ev.card));
      case "round-ended":
        return T.evRoundEnded(ev.round);
      case "leg-won":
        return T.evLegWon(n(ev.seat));
      case "game-ended":
        return T.evGameEnded(n(ev.winner));
      default:
        return null;
    }
  }
}
