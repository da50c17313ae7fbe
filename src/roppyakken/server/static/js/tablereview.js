// The round's review, in the round-end dialog of a seat that may have hints: what the master
// would have played at the turns where this seat gave up most (a `review` message, which may
// come before or after the dialog opens).

import T from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { fmtPoints, moveText } from "./tablehints.js";

export class ReviewBox {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    /** @type {import("./wire").ReviewMessage | null} the latest review */
    this.review = null;
    /** @type {HTMLElement | null} the review's place in the open round-end dialog */
    this.box = null;
    /** The round the open dialog is for. */
    this.round = -1;
  }

  /**
   * The review's section for the dialog of round `round` (filled now if its review came first).
   * @param {number} round
   * @returns {HTMLElement}
   */
  open(round) {
    this.box = h("section", { class: "review", "aria-live": "polite" });
    this.round = round;
    this.fill(this.review && this.review.round === round ? this.review : null);
    return this.box;
  }

  /** The dialog closed. */
  close() {
    this.box = null;
  }

  /**
   * `review`: what the master would have played at the turns of the round where this seat gave up most.
   * @param {import("./wire").ReviewMessage} msg
   */
  onReview(msg) {
    this.review = msg;
    if (this.box && msg.round === this.round) this.fill(msg);
  }

  /** @param {import("./wire").ReviewMessage | null} msg */
  fill(msg) {
    if (!this.box) return;
    // A turn that gave up nothing that shows (0 points, under 1% of the chance to win) is no lesson.
    const items = (msg ? msg.reviews || [] : []).filter(
      (r) => Math.round(r.points_lost) > 0 || Math.round(r.win_chance_lost * 100) > 0,
    );
    replaceChildren(
      this.box,
      h("h3", {}, T.reviewTitle),
      !msg
        ? h("p", { class: "muted" }, T.reviewWorking)
        : !items.length
          ? h("p", {}, T.reviewNone)
          : h(
              "ol",
              { class: "review-list" },
              items.map((r) =>
                h(
                  "li",
                  { dataset: { turn: String(r.turn) } },
                  h("strong", {}, T.reviewTurn(r.turn)),
                  h("div", {}, T.reviewPlayed(moveText(r.played))),
                  h("div", { class: "review-best" }, T.reviewBest(moveText(r.best))),
                  h(
                    "div",
                    { class: "review-lost" },
                    T.reviewLost(fmtPoints(Math.max(0, r.points_lost)), Math.round(r.win_chance_lost * 100)),
                  ),
                ),
              ),
            ),
    );
  }
}
