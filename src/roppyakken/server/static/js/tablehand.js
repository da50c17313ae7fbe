// The viewer's hand: its cards as buttons (a card that can capture marked ◆, the cards of a lucky
// hand marked), chosen by click, double click or the keyboard (arrows, Home, End; one tab stop).

import { cardElement, sortCards } from "./deck.js";
import T from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { distinct, playsOf } from "./seatview.js";

export class HandView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.el = h("div", { class: "hand", role: "toolbar", "aria-label": T.yourHand });
    this.legend = h(
      "p",
      { class: "hand-legend", hidden: true },
      h("span", { class: "legend-mark", "aria-hidden": "true" }, "◆"),
      " ",
      T.captureLegend,
    );
    /** The index of the card that has the hand's tab stop. */
    this.focusIndex = 0;
    this.el.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  render() {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    if (game.spectator) {
      this.el.hidden = true;
      this.legend.hidden = true;
      return;
    }
    this.el.hidden = false;
    const canPlay = v.phase === "play" && v.legal.length > 0 && !game.pending;
    const cards = sortCards(v.hand);
    const lucky = new Set(v.phase === "declare" && v.legal.length ? (v.lucky_hands || []).flatMap((x) => x.cards || []) : []);
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, cards.length - 1));
    if (game.selected) this.focusIndex = Math.max(0, cards.indexOf(game.selected));
    const els = cards.map((s, i) => {
      const plays = canPlay ? playsOf(v, s) : [];
      const captures = plays.some((a) => a.target.length);
      const classes = [];
      if (s === game.selected) classes.push("selected");
      if (captures) classes.push("can-capture");
      if (lucky.has(s)) classes.push("lucky");
      const el = cardElement(s, { button: true, extraClass: classes.join(" ") });
      el.tabIndex = i === this.focusIndex ? 0 : -1;
      el.setAttribute("aria-pressed", s === game.selected ? "true" : "false");
      if (captures) el.append(h("span", { class: "capture-mark", "aria-hidden": "true" }, "◆"));
      el.setAttribute("aria-label", `${el.title}${captures ? ` — ${T.canCapture}` : ""}`);
      if (!canPlay) el.setAttribute("aria-disabled", "true");
      el.addEventListener("click", (ev) => this.onClick(s, ev));
      el.addEventListener("dblclick", () => {
        const p = canPlay ? distinct(v, game.choices, playsOf(v, s)) : [];
        if (p.length === 1) game.moves.act(p[0]);
      });
      el.addEventListener("focus", () => {
        this.focusIndex = i;
      });
      return el;
    });
    replaceChildren(this.el, els);
    this.el.classList.toggle("active", canPlay);
    this.legend.hidden = !els.some((el) => el.classList.contains("can-capture"));
  }

  /**
   * @param {string} slug
   * @param {MouseEvent} ev
   */
  onClick(slug, ev) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    if (!(v.phase === "play" && v.legal.length && !game.pending)) return;
    const plays = distinct(v, game.choices, playsOf(v, slug));
    if (game.selected === slug && plays.length === 1) {
      game.moves.act(plays[0]);
      return;
    }
    game.selected = slug;
    game.field.render();
    this.render();
    game.prompt.render();
    const keyboard = ev && ev.detail === 0;
    if (keyboard) {
      const first = game.prompt.el.querySelector("button");
      if (first) first.focus();
    } else {
      this.focus();
    }
  }

  /** @param {KeyboardEvent} ev */
  onKey(ev) {
    const buttons = /** @type {HTMLElement[]} */ ([...this.el.querySelectorAll("button.card")]);
    if (!buttons.length) return;
    let i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (i < 0) i = this.focusIndex;
    let next = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = (i + 1) % buttons.length;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = (i - 1 + buttons.length) % buttons.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = buttons.length - 1;
    if (next === null) return;
    ev.preventDefault();
    buttons.forEach((b, j) => (b.tabIndex = j === next ? 0 : -1));
    this.focusIndex = next;
    buttons[next].focus();
  }

  /**
   * Put the keyboard focus on the hand's tab stop (unless `force` is false and the focus is somewhere).
   * @param {boolean} [force]
   */
  focus(force = true) {
    const el = this.el.querySelector(`button.card[tabindex="0"]`);
    if (!(el instanceof HTMLElement)) return;
    if (force || document.activeElement === document.body) el.focus({ preventScroll: true });
  }
}
