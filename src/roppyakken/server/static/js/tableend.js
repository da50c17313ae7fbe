// The ends at the table: the dialog of a round's end (its score, broken down, and the round's
// review), and the game's end (the winner, the final standings, the record and the replay).

import T, { reasonText } from "./text.js";
import { h, openDialog, replaceChildren } from "./dom.js";
import { renderBreakdown } from "./breakdown.js";

/**
 * The round-end dialog; settles once it is closed.
 * @param {import("./table.js").GameView} game
 * @param {import("./wire").RoundEndMessage} msg
 * @returns {Promise<void>}
 */
export function showRoundEnd(game, msg) {
  const body = renderBreakdown(msg.score, {
    names: game.shownNames,
    captures: msg.captures,
    totals: msg.totals,
    options: game.rules.options,
  });
  game.review.close();
  if (game.hintsAllowed) body.append(game.review.open(msg.round));
  return new Promise((resolve) => {
    openDialog(T.roundOver(msg.round), body, {
      className: "round-end",
      onClose: () => {
        game.review.close();
        resolve();
      },
      closeText: T.continue,
    });
  });
}

export class GameOver {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.box = h("div", { class: "game-over", hidden: true, role: "region", "aria-label": T.gameOver });
  }

  render() {
    const game = this.game;
    const v = game.view;
    const over = game.over;
    const winner = over ? over.winner : v && v.phase === "over" ? v.winner : null;
    if (winner === null || winner === undefined) {
      this.box.hidden = true;
      return;
    }
    const reason = over ? reasonText(over.reason) : "";
    const room = game.room;
    const url = (over && over.record_url) || `/api/games/${encodeURIComponent(room)}/record`;
    const title =
      winner === game.seat ? T.youWin : reason ? T.wins(game.name(winner), reason) : T.evGameEnded(game.name(winner));
    const back = game.tournament.ended(); // a tournament's table: the way back to it comes first
    replaceChildren(
      this.box,
      h("h2", {}, T.gameOver),
      h("p", { class: "winner" }, title, winner === game.seat && reason ? ` (${reason})` : ""),
      back,
      this.standings(winner),
      h(
        "div",
        { class: "over-actions" },
        h("a", { class: "button", href: url, download: `roppyakken-${room}.json` }, T.downloadRecord),
        h("a", { class: "button", href: `/#/replay?room=${encodeURIComponent(room)}` }, T.watchReplay),
        h("a", { class: back ? "button" : "button primary", href: "/" }, T.newGame),
      ),
    );
    this.box.hidden = false;
  }

  /**
   * The final standings: the winner first, then by games won (in a match) and total; equal
   * players share a place.
   * @param {number} winner
   * @returns {HTMLElement | null}
   */
  standings(winner) {
    const game = this.game;
    const v = game.view;
    if (!v || !v.totals) return null;
    const options = game.rules.options || {};
    const match = Boolean(options.match && options.match !== "single" && v.legs);
    /** @param {number} s */
    const key = (s) => [s === winner ? 1 : 0, match ? v.legs[s] : 0, v.totals[s]];
    const seats = v.totals.map((_, s) => s);
    seats.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    /** @type {number[]} */
    const places = [];
    seats.forEach((s, i) => {
      const prev = seats[i - 1];
      places.push(i > 0 && key(prev).join() === key(s).join() ? places[i - 1] : i + 1);
    });
    const column = (/** @type {string} */ text, num = false) => h("th", { scope: "col", class: num ? "num" : null }, text);
    return h(
      "table",
      { class: "standings" },
      h("caption", {}, T.standings),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          column(T.standingsPlace),
          column(T.standingsPlayer),
          match ? column(T.standingsLegs, true) : null,
          column(T.standingsTotal, true),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((s, i) =>
          h(
            "tr",
            { dataset: { seat: String(s) }, class: s === game.seat ? "mine" : "" },
            h("td", { class: "place" }, String(places[i])),
            h("th", { scope: "row" }, game.name(s)),
            match ? h("td", { class: "num" }, String(v.legs[s])) : null,
            h("td", { class: "num" }, String(v.totals[s])),
          ),
        ),
      ),
    );
  }
}
