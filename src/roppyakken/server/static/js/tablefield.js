// The table's field: the pile, the turned-up card and the table cards by month, the capture
// targets of the decision at hand (click one to take it), and the glide of a card played or
// turned up onto the field.

import { backElement, cardElement, cardNames, monthOf, sortCards } from "./deck.js";
import T from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { ghost } from "./animate.js";
import { playsOf, takesOf } from "./seatview.js";

/** @typedef {import("./types.js").Action} Action */

export class FieldView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.pile = h("div", { class: "pile", role: "group", "aria-label": T.pile });
    this.turnedSlot = h("div", { class: "turned-slot", role: "group", "aria-label": T.turnedUp });
    this.tableCards = h("div", { class: "table-cards", role: "group", "aria-label": T.tableLabel });
  }

  /** The capture targets to highlight now: [{target: [slugs], action}] @returns {{target: string[], action: Action}[]} */
  targets() {
    const game = this.game;
    const v = game.view;
    if (!v || !v.legal.length || game.pending) return [];
    if (v.phase === "take") return takesOf(v).map((a) => ({ target: a.target, action: a }));
    if (v.phase === "play" && game.selected) {
      return playsOf(v, game.selected)
        .filter((a) => a.target.length)
        .map((a) => ({ target: a.target, action: a }));
    }
    return [];
  }

  render() {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const targets = this.targets();
    const actor = v.phase === "take" ? v.turned : game.selected;
    const actorMonth = actor ? monthOf(actor) : 0;
    /** @type {Map<string, number>} */
    const targetOf = new Map();
    targets.forEach((t, i) => t.target.forEach((s) => targetOf.set(s, i)));
    /** @type {Map<number, string[]>} */
    const months = new Map();
    for (const s of sortCards(v.table)) {
      const m = monthOf(s);
      const list = months.get(m) ?? [];
      list.push(s);
      months.set(m, list);
    }
    const groups = [...months.entries()].map(([m, cards]) =>
      h(
        "div",
        { class: `month-group${cards.length === 3 ? " stack" : ""}`, dataset: { month: String(m) } },
        cards.map((s) => {
          if (!targetOf.has(s)) return cardElement(s, { extraClass: targets.length ? "dim" : "" });
          const t = targets[targetOf.get(s) ?? 0];
          const wild = monthOf(s) !== actorMonth;
          const el = cardElement(s, { button: true, extraClass: `target${wild ? " wild" : ""}` });
          el.setAttribute("aria-label", `${T.playCapture(cardNames(t.target))}${wild ? ` (${T.wild})` : ""}`);
          el.addEventListener("click", () => game.moves.act(t.action));
          el.addEventListener("mouseenter", () => this.hover(t.target, true));
          el.addEventListener("mouseleave", () => this.hover(t.target, false));
          return el;
        }),
      ),
    );
    replaceChildren(this.tableCards, groups.length ? groups : h("span", { class: "muted" }, "—"));
    replaceChildren(
      this.pile,
      v.pile_count ? backElement() : null,
      h("span", { class: "pile-count" }, T.pileCount(v.pile_count)),
    );
    replaceChildren(
      this.turnedSlot,
      v.turned
        ? cardElement(v.turned, {
            extraClass: `turned${v.phase === "take" && v.legal.length ? " actor" : ""}`,
          })
        : null,
    );
  }

  /**
   * @param {string[]} target
   * @param {boolean} on
   */
  hover(target, on) {
    for (const s of target) {
      const el = this.tableCards.querySelector(`[data-slug="${CSS.escape(s)}"]`);
      if (el) el.classList.toggle("hover", on);
    }
  }

  // ------------------------------------------------------------------ animation

  /**
   * @param {number} seat
   * @returns {DOMRect | null}
   */
  seatHandRect(seat) {
    const el = this.game.main.querySelector(`.player[data-seat="${seat}"] .phand`);
    return el ? el.getBoundingClientRect() : null;
  }

  /**
   * @param {ParentNode} container
   * @param {string} slug
   * @returns {DOMRect | null}
   */
  cardRect(container, slug) {
    const el = container.querySelector(`[data-slug="${CSS.escape(slug)}"]`);
    return el ? el.getBoundingClientRect() : null;
  }

  /** @param {Extract<import("./types.js").GameEvent, {type: "played"}>} ev */
  async animatePlayed(ev) {
    const game = this.game;
    let from = null;
    if (ev.source === "pile") {
      from = this.cardRect(this.turnedSlot, ev.card) || this.pile.getBoundingClientRect();
    } else if (ev.seat === game.seat) {
      from = this.cardRect(game.hand.el, ev.card);
    } else {
      from = this.cardRect(game.main, ev.card) || this.seatHandRect(ev.seat);
    }
    let to = ev.captured.length ? this.cardRect(this.tableCards, ev.captured[0]) : null;
    if (!to) {
      const box = this.tableCards.getBoundingClientRect();
      const w = this.cardWidth();
      to = new DOMRect(box.right - w - 8, box.top + 8, w, w * 1.5);
      if (!ev.captured.length) to = new DOMRect(to.left, to.top, w, w * 1.5);
    } else {
      to = new DOMRect(to.left + to.width * 0.3, to.top + to.height * 0.15, to.width, to.height);
    }
    if (!from) return;
    await ghost(ev.card, from, to);
    game.origins.set(ev.card, to);
  }

  /** @param {Extract<import("./types.js").GameEvent, {type: "turned"}>} ev */
  async animateTurned(ev) {
    const from = this.pile.getBoundingClientRect();
    const slot = this.turnedSlot.getBoundingClientRect();
    const w = this.cardWidth();
    const to = new DOMRect(slot.left, slot.top, w, w * 1.5);
    await ghost(ev.card, from, to, { hold: 80 });
    this.game.origins.set(ev.card, to);
  }

  cardWidth() {
    const any = this.tableCards.querySelector(".card") || this.pile.querySelector(".card");
    return any ? any.getBoundingClientRect().width : 60;
  }
}
