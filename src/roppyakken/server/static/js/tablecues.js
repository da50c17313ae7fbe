// The table's sounds: your turn to play, a yaku just completed by anyone, a card placed or
// capturing, a clock running out (none while the table catches up on a backlog).

import { yakuProgress } from "./yaku.js";
import { Sounds } from "./sound.js";

/** @typedef {import("./types.js").SeatView} SeatView */

export class TableCues {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.sounds = new Sounds(game.spectator);
    /** @type {Set<string> | null} the yaku complete at the last state, by "seat:slug" */
    this.yakuDone = null;
  }

  /**
   * The sounds of a new state: your turn to play, a yaku just completed by anyone.
   * @param {SeatView | null} prev  the state before
   * @param {SeatView} view
   */
  state(prev, view) {
    const game = this.game;
    /** @type {Set<string>} */
    const done = new Set();
    (view.captures || []).forEach((_, seat) => {
      for (const e of yakuProgress(game.rules.options || {}, view.captures, seat)) if (e.done) done.add(`${seat}:${e.slug}`);
    });
    const sameRound = prev && prev.round === view.round && prev.leg === view.leg;
    const before = this.yakuDone;
    const fresh = before && sameRound ? [...done].filter((k) => !before.has(k)) : [];
    this.yakuDone = done;
    if (game.fast()) return;
    if (fresh.length) this.sounds.play("yaku");
    const mine = !game.spectator && view.legal.length > 0 && view.phase === "play";
    const wasMine = prev && prev.legal.length > 0 && prev.phase === "play";
    if (mine && !wasMine) this.sounds.play("turn");
  }

  /** @param {import("./types.js").GameEvent} ev */
  event(ev) {
    if (ev.type === "played" && !this.game.fast()) this.sounds.play(ev.captured.length ? "capture" : "place");
  }

  clockRunningOut() {
    this.sounds.play("clock");
  }
}
