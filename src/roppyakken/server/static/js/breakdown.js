// A scored round, player by player: cards by kind, yaku, lucky hands, what it adds.

import { KINDS, cardElement, pointsOf, pointsOfAll } from "./deck.js";
import T, { KIND_PLURALS, yakuName } from "./text.js";
import { h } from "./dom.js";
import { listText } from "./i18n.js";
import { byKind } from "./yaku.js";

/**
 * @param {import("./types.js").ScoreDocument} score   FORMATS.md §1 output
 * @param {{names: string[], captures?: string[][] | null, totals?: number[] | null,
 *   options?: import("./types.js").RuleOptions | null}} ctx  slugs per seat, totals per seat, rule options
 */
export function renderBreakdown(score, { names, captures = null, totals = null, options = null }) {
  const fukeOn = options && options.fuke && options.fuke !== "off";
  const players = score.players.map((/** @type {import("./types.js").ScoreDocument} */ p, /** @type {number} */ seat) => {
    /** @type {HTMLElement[]} */
    const rows = [];
    if (captures && captures[seat]) {
      const groups = byKind(captures[seat]);
      for (const kind of KINDS) {
        const cards = groups[kind];
        if (!cards.length) continue;
        rows.push(
          h(
            "tr",
            { class: "bd-kind" },
            h("th", { scope: "row" }, KIND_PLURALS[kind]),
            h("td", { class: "num" }, pointsOfAll(cards)),
            h(
              "td",
              {},
              h(
                "div",
                { class: "bd-cards" },
                cards.map((s) => cardElement(s, { size: "xs", extraClass: pointsOf(s) ? "" : "zero" })),
              ),
            ),
          ),
        );
      }
    }
    rows.push(
      h(
        "tr",
        { class: "bd-sum" },
        h("th", { scope: "row" }, T.breakdownCards),
        h("td", { class: "num" }, p.card_points),
        h("td"),
      ),
    );
    for (const y of p.yaku) {
      rows.push(
        h(
          "tr",
          { class: "bd-yaku" },
          h("th", { scope: "row" }, T.breakdownYaku),
          h("td", { class: "num" }, y.points),
          h("td", {}, yakuName(y.slug)),
        ),
      );
    }
    for (const l of p.lucky_hands) {
      rows.push(
        h(
          "tr",
          { class: "bd-lucky" },
          h("th", { scope: "row" }, T.breakdownLucky),
          h("td", { class: "num" }, l.points),
          h("td", {}, yakuName(l.slug)),
        ),
      );
    }
    rows.push(
      h(
        "tr",
        { class: "bd-total" },
        h("th", { scope: "row" }, T.roundScore),
        h("td", { class: "num" }, p.round_score),
        h("td", {}, fukeOn ? T.counted(p.counted) : ""),
      ),
    );
    rows.push(
      h(
        "tr",
        { class: "bd-final" },
        h("th", { scope: "row" }, T.adds),
        h("td", { class: "num" }, p.final),
        h("td", {}, totals ? T.labelled(T.totalAfter, totals[seat]) : ""),
      ),
    );
    return h(
      "section",
      { class: "bd-player", dataset: { seat: String(seat) } },
      h("h3", {}, names[seat] || T.calcPlayer(seat)),
      h("table", { class: "bd-table" }, h("tbody", {}, rows)),
    );
  });
  /** @type {HTMLElement[]} */
  const notes = [];
  if (score.fuke) notes.push(h("p", { class: "bd-note" }, T.fukeVoid));
  if (score.instant_win) {
    const w = score.instant_win;
    notes.push(
      h(
        "p",
        { class: "bd-note strong" },
        T.instantWin(names[w.seat] || T.calcPlayer(w.seat), yakuName(w.yaku)),
      ),
    );
  }
  const scoring = options ? options.round_scoring : null;
  if (scoring === "round-up") notes.push(h("p", { class: "bd-note bd-scoring" }, T.roundUp));
  if (scoring === "difference" && !score.fuke && score.players.length > 1) {
    const scores = score.players.map((/** @type {import("./types.js").ScoreDocument} */ p) => p.round_score);
    const [top, second] = [...scores].sort((a, b) => b - a);
    const leaders = scores.flatMap((/** @type {number} */ s, /** @type {number} */ seat) => (s === top ? [names[seat] || T.calcPlayer(seat)] : []));
    notes.push(
      h(
        "p",
        { class: "bd-note bd-scoring" },
        leaders.length > 1 ? T.differenceTie(listText(leaders), top) : T.differenceTop(leaders[0], top, second),
      ),
    );
  }
  return h("div", { class: "breakdown" }, h("div", { class: "bd-players" }, players), notes);
}
