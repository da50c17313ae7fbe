// The seat's moves: an action chosen among the view's legal actions is sent to the move source
// with the state it was chosen at, kept until a state answers it (a move made while the
// connection is down is sent once it is back, or said to be outdated), and a turned-up card whose
// targets are all equivalent takes one of them without asking.

import T from "./text.js";
import { cardName, cardNames } from "./deck.js";
import { distinct, takesOf } from "./seatview.js";

/**
 * @typedef {import("./types.js").SeatView} SeatView
 * @typedef {import("./types.js").Action} Action
 */

export class TableMoves {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
  }

  /**
   * Send `action` (one of the view's legal actions) and draw the table as it waits for the answer.
   * @param {Action} action
   */
  act(action) {
    const game = this.game;
    if (game.pending) return;
    game.pending = true;
    game.selected = null;
    game.error = "";
    game.notice = "";
    // Kept until the server answers: a move made while the connection is down is sent once it is back.
    game.unsent = { action, seq: game.seq };
    /** @type {import("./wire").ActMessage} */
    const message = game.seq >= 0 ? { type: "act", action, seq: game.seq } : { type: "act", action };
    if (game.source.open) game.source.send(message);
    const focused = game.main.contains(document.activeElement) || game.hints.host.contains(document.activeElement);
    game.field.render();
    game.hand.render();
    game.prompt.render();
    if (focused) game.focus.keep();
  }

  /**
   * A move chosen when the server had the state `seq`: still unanswered when a state comes.
   * The same `seq` again means the server never applied it (the connection was lost):
   * send it again if it is still legal, or say that it was not made. True: sent again.
   * @param {SeatView} view
   * @param {number} seq
   * @returns {boolean}
   */
  settle(view, seq) {
    const game = this.game;
    const move = game.unsent;
    if (!move) return false;
    if (seq !== move.seq || !view.legal.length) {
      game.unsent = null;
      if (game.notice === T.moveResent) game.notice = "";
      return false;
    }
    const wanted = JSON.stringify(move.action);
    const still = view.legal.find((a) => JSON.stringify(a) === wanted);
    if (!still || !game.source.open) {
      game.unsent = null;
      game.notice = T.moveOutdated;
      return false;
    }
    // With the state's seq: should the first one have been made after all, the server refuses this one.
    game.source.send({ type: "act", action: still, seq: move.seq });
    game.notice = T.moveResent;
    return true;
  }

  /** A turned-up card whose targets are all equivalent takes one of them without asking. */
  autoTake() {
    const game = this.game;
    const v = /** @type {SeatView} */ (game.view);
    if (game.pending || game.spectator || v.phase !== "take" || v.legal.length < 2) return false;
    const takes = distinct(v, game.choices, takesOf(v));
    if (takes.length !== 1 || takes.length === v.legal.length) return false;
    const note = T.autoTaken(cardName(/** @type {string} */ (v.turned)), cardNames(takes[0].target));
    this.act(takes[0]);
    game.notice = note;
    game.prompt.render();
    return true;
  }
}
