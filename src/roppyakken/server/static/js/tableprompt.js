// The prompt under the table: what happens now (waiting for a player, a move being sent, the
// round over) or, on this seat's turn, the decision at hand with a button for each answer: a
// redeal to call or not, lucky hands to declare or keep, a target for the turned-up card or for
// the chosen hand card; and the hint buttons.

import { cardName, cardNames, sortCards } from "./deck.js";
import T, { yakuName } from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { choiceText, distinct, playsOf, takesOf } from "./seatview.js";

/**
 * @typedef {import("./types.js").Action} Action
 * @typedef {import("./types.js").SeatView} SeatView
 * @typedef {import("./dom.js").Child} Child
 */

export class PromptView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.el = h("div", { class: "prompt", role: "status", "aria-live": "polite" });
  }

  render() {
    const game = this.game;
    const v = /** @type {SeatView} */ (game.view);
    /** @type {Child[]} */
    const parts = [];
    game.hints.clear();
    if (game.error) parts.push(h("p", { class: "error", role: "alert" }, game.error));
    if (v.phase === "over" || game.over) {
      replaceChildren(this.el, parts);
      return;
    }
    const mine = v.legal.length > 0 && !game.pending;
    if (game.notice) parts.push(h("p", { class: "notice", role: "status" }, game.notice));
    if (game.spectator) parts.push(h("p", {}, T.spectating));
    if (game.roundOver !== null) {
      parts.push(h("p", { class: "round-over" }, T.roundOverNote(game.roundOver)));
      replaceChildren(this.el, parts);
      this.el.dataset.state = "round-over";
      return;
    }
    if (!mine) {
      parts.push(this.waiting());
      replaceChildren(this.el, parts);
      this.el.dataset.state = "waiting";
      return;
    }
    this.el.dataset.state = v.phase;
    /** @type {HTMLElement[]} */
    const buttons = [];
    if (v.phase === "redeal") this.redeal(parts, buttons);
    else if (v.phase === "declare") this.declare(parts, buttons);
    else if (v.phase === "take") this.take(parts, buttons);
    else if (v.phase === "play") this.play(parts, buttons);
    const cardTurn = v.legal.some((a) => a.type === "play" || a.type === "take");
    buttons.push(...game.hints.buttons(cardTurn));
    replaceChildren(this.el, parts, buttons.length ? h("div", { class: "prompt-actions" }, buttons) : null);
    game.hints.show(cardTurn);
  }

  /** What the table waits for: a move held while offline, a move being sent, or another player. */
  waiting() {
    const game = this.game;
    const offline = game.connStatus && game.connStatus !== "open";
    if (game.pending && game.unsent && offline) return h("p", { class: "move-held", role: "alert" }, T.moveHeldOffline);
    if (game.pending) return h("p", { class: "sending" }, T.sendingMove);
    return h("p", { class: "waiting" }, T.waitingFor(game.name(/** @type {SeatView} */ (game.view).to_act)));
  }

  /**
   * Call a redeal or not.
   * @param {Child[]} parts
   * @param {HTMLElement[]} buttons
   */
  redeal(parts, buttons) {
    parts.push(h("p", {}, T.redealPrompt));
    for (const a of /** @type {SeatView} */ (this.game.view).legal)
      if (a.type === "redeal") buttons.push(this.actionButton(a.call ? T.redealCall : T.redealNo, a, a.call ? "" : "primary"));
  }

  /**
   * Declare lucky hands (which ones) or keep them.
   * @param {Child[]} parts
   * @param {HTMLElement[]} buttons
   */
  declare(parts, buttons) {
    const v = /** @type {SeatView} */ (this.game.view);
    const lucky = v.lucky_hands || [];
    parts.push(h("p", {}, T.declarePrompt));
    parts.push(h("p", { class: "declare-why" }, T.declareWhy));
    parts.push(
      h(
        "ul",
        { class: "lucky-list" },
        lucky.map((x) =>
          h(
            "li",
            { dataset: { slug: x.slug } },
            h("strong", {}, `${yakuName(x.slug)} (${x.points})`),
            " — ",
            T.luckyCards(cardNames(sortCards(x.cards || []))),
          ),
        ),
      ),
    );
    const held = new Map(lucky.map((x) => [x.slug, x.points]));
    const declares = v.legal.filter(/** @returns {a is Extract<Action, {type: "declare"}>} */ (a) => a.type === "declare");
    const sorted = [...declares].sort((a, b) => b.hands.length - a.hands.length);
    for (const a of sorted) {
      const label = a.hands.length
        ? T.declareHands(a.hands.map((s) => `${yakuName(s)} (${held.get(s) ?? ""})`).join(" + "))
        : T.declareNothing;
      buttons.push(this.actionButton(label, a, a.hands.length ? "primary" : ""));
    }
  }

  /**
   * Which target the turned-up card takes.
   * @param {Child[]} parts
   * @param {HTMLElement[]} buttons
   */
  take(parts, buttons) {
    const game = this.game;
    const v = /** @type {SeatView} */ (game.view);
    parts.push(h("p", {}, T.takeTurned(cardName(/** @type {string} */ (v.turned)))));
    for (const a of distinct(v, game.choices, takesOf(v)))
      buttons.push(this.actionButton(T.playCapture(cardNames(a.target)), a, "primary", choiceText(v, game.choices, a)));
  }

  /**
   * Choose a hand card, then what it takes (or lay it on the table).
   * @param {Child[]} parts
   * @param {HTMLElement[]} buttons
   */
  play(parts, buttons) {
    const game = this.game;
    const v = /** @type {SeatView} */ (game.view);
    if (!game.selected) {
      parts.push(h("p", { class: "your-turn" }, T.yourTurnPlay));
      return;
    }
    const plays = distinct(v, game.choices, playsOf(v, game.selected));
    parts.push(
      h("p", {}, h("strong", {}, cardName(game.selected)), " — ", plays.length > 1 ? T.chooseTarget : T.playAgainHint),
    );
    for (const a of plays) {
      const label = a.target.length ? T.playCapture(cardNames(a.target)) : T.playToTable;
      const gives = plays.length > 1 && a.target.length ? choiceText(v, game.choices, a) : "";
      buttons.push(this.actionButton(label, a, "primary", gives));
    }
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: "cancel",
          onclick: () => {
            game.selected = null;
            game.render();
            game.focusHand();
          },
        },
        T.cancel,
      ),
    );
  }

  /**
   * @param {string} label
   * @param {Action} action
   * @param {string} cls
   * @param {string} [gives]
   * @returns {HTMLElement}
   */
  actionButton(label, action, cls, gives = "") {
    return h(
      "button",
      { type: "button", class: `act ${cls}`.trim(), onclick: () => this.game.moves.act(action) },
      label,
      gives ? h("small", { class: "gives" }, gives) : null,
    );
  }
}
