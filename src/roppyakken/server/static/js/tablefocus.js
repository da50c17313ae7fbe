// Where the keyboard focus goes at the table: to the decision that is this seat's (the hand for a
// play, the first answer otherwise), and back into the table when the focused control is redrawn
// away; never taken from a place of the player's own choosing (a side panel, the header).

export class TableFocus {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
  }

  /**
   * A decision is this seat's: bring the keyboard focus to it (the hand for a play, the first
   * answer for a lucky hand, a redeal call or a turned-up card's target), unless the focus is
   * somewhere of the player's own choosing (a side panel, the header).
   * @returns {void}
   */
  decision() {
    const game = this.game;
    const active = document.activeElement;
    if (active && active !== document.body && !game.main.contains(active)) return;
    if (game.view?.phase === "play") {
      if (!game.hand.el.contains(active)) game.hand.focus(true);
      return;
    }
    const prompt = game.prompt.el;
    const first = prompt.querySelector(".prompt-actions button.act");
    if (first instanceof HTMLElement && !prompt.contains(active)) first.focus({ preventScroll: true });
  }

  /**
   * The control that had the keyboard focus was redrawn away (a card played, a prompt replaced):
   * the focus goes to the decision at hand if there is one, else stays in the hand, never on the
   * page's body.
   */
  keep() {
    const game = this.game;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const v = game.view;
    if (v && v.legal.length && !game.pending && !game.spectator) this.decision();
    if (!game.main.contains(document.activeElement)) game.hand.focus(true);
    if (!game.main.contains(document.activeElement)) {
      const control = game.main.querySelector(".prompt button, .game-over a");
      if (control instanceof HTMLElement) control.focus({ preventScroll: true });
    }
  }
}
