// Hints at the table: the buttons that ask for them, the panel of the expert's best plays for
// the decision at hand (or, for lucky hands, what the expert declares and why), the cards of the
// expert's choice highlighted, and the panel's place (beside the table; under the hand on a
// narrow screen, so that it covers nothing and the hand stays where it is).

import { cardName, cardNames } from "./deck.js";
import { listText } from "./i18n.js";
import T, { yakuName } from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { REVEAL_COST, expertDeclares } from "./declare.js";

/** @typedef {import("./wire").HintMove} HintMove */

// Expected points to the point: card points come in tens, a decimal would be noise.
/** @param {number | null | undefined} x */
export const fmtPoints = (x) => (x === null || x === undefined ? "?" : Math.round(x).toString());

/**
 * A hinted or reviewed move: its card and what it takes.
 * @param {{card: string, target?: string[]}} m
 * @returns {string}
 */
export function moveText(m) {
  const card = cardName(m.card);
  return m.target && m.target.length ? T.hintPlayTakes(card, cardNames(m.target)) : T.hintPlayTo(card);
}

export class HintsView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.host = h("div", { class: "hint-host" });
    /** @type {import("./wire").HintMessage | null} the hint for the state at hand */
    this.hint = null;
    /** The state a hint was asked for (-1: none waits). */
    this.asked = -1;
    /** The state whose hint panel was closed. */
    this.closed = -1;
    /** The state whose declaring hint is open. */
    this.declareOpen = -1;
  }

  /**
   * A new state: a hint (or a request) for another one is dropped.
   * @param {number} seq
   */
  newState(seq) {
    if (this.hint && this.hint.seq !== seq) this.hint = null;
    if (this.asked !== seq) this.asked = -1;
  }

  ask() {
    const game = this.game;
    if (!game.source || this.asked === game.seq) return;
    this.asked = game.seq;
    game.error = "";
    game.source.send({ type: "hint" });
    game.prompt.render();
  }

  /**
   * `hint`: the expert's best plays for the decision at hand (dropped if the game moved on).
   * @param {import("./wire").HintMessage} msg
   */
  onHint(msg) {
    if (msg.seq !== this.game.seq) return;
    this.hint = msg;
    this.game.render();
  }

  /**
   * The prompt's hint buttons for this decision.
   * @param {boolean} cardTurn  a card to play or take
   * @returns {HTMLElement[]}
   */
  buttons(cardTurn) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const buttons = [];
    if (v.phase === "declare" && game.hintsAllowed) {
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "hint-button",
            "aria-expanded": this.declareOpen === game.seq ? "true" : "false",
            onclick: () => {
              this.declareOpen = this.declareOpen === game.seq ? -1 : game.seq;
              game.prompt.render();
            },
          },
          T.hintButton,
        ),
      );
    }
    if (cardTurn && game.hintsAllowed) {
      const asked = this.asked === game.seq && !this.hint;
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "hint-button",
            disabled: asked || (!!this.hint && this.closed !== game.seq),
            onclick: () => {
              if (this.hint) {
                this.closed = -1; // shown again
                game.prompt.render();
              } else this.ask();
            },
          },
          asked ? T.hintWorking : T.hintButton,
        ),
      );
    }
    return buttons;
  }

  /** Empty the panel (the prompt is redrawn). */
  clear() {
    replaceChildren(this.host);
  }

  /**
   * Show the panel the decision at hand has open, if any.
   * @param {boolean} cardTurn  a card to play or take
   */
  show(cardTurn) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const hintShown = cardTurn && this.hint && this.closed !== game.seq;
    const declareShown = v.phase === "declare" && game.hintsAllowed && this.declareOpen === game.seq;
    const wasEmpty = !this.host.firstChild;
    replaceChildren(this.host, hintShown ? this.panel() : declareShown ? this.declarePanel() : null);
    if (wasEmpty && this.host.firstChild && game.narrow.matches)
      this.host.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  /** The panel of the expert's best plays. @returns {HTMLElement} */
  panel() {
    const game = this.game;
    const msg = /** @type {import("./wire").HintMessage} */ (this.hint);
    // The expert's choice first, as the heading says; the others by their chance to win.
    const moves = [...(msg.moves || [])].sort((a, b) => Number(b.expert_choice) - Number(a.expert_choice));
    const legal = /** @type {import("./types.js").SeatView} */ (game.view).legal.map((a) => JSON.stringify(a));
    return h(
      "section",
      { class: "hint-panel", "aria-label": T.hintTitle },
      h("h3", {}, T.hintTitle),
      h(
        "ol",
        { class: "hint-moves" },
        moves.map((m) => this.move(m, legal.includes(JSON.stringify(m.action)))),
      ),
      h("p", { class: "muted hint-note" }, T.hintNote(msg.worlds)),
      h(
        "button",
        {
          type: "button",
          class: "hint-close",
          onclick: () => {
            this.closed = game.seq;
            replaceChildren(this.host);
            game.focusHand();
          },
        },
        T.close,
      ),
    );
  }

  /**
   * One move of the hint: what it takes, what it is expected to bring, a button to play it.
   * @param {HintMove} m
   * @param {boolean} playable  one of the legal actions at hand
   * @returns {HTMLElement}
   */
  move(m, playable) {
    const top = (m.yaku_chances || [])[0];
    // A hint's action is one of the seat's legal actions (the schema leaves its shape open).
    const action = /** @type {import("./types.js").Action} */ (/** @type {unknown} */ (m.action));
    return h(
      "li",
      { class: `hint-move${m.expert_choice ? " expert" : ""}`, dataset: { card: m.card } },
      h(
        "div",
        { class: "hint-head" },
        h("strong", {}, moveText(m)),
        m.expert_choice ? h("span", { class: "badge expert-choice" }, T.hintExpertChoice) : null,
      ),
      h(
        "ul",
        { class: "hint-facts" },
        h("li", {}, T.hintPointsNow(m.points_now)),
        m.yaku_now && m.yaku_now.length ? h("li", {}, T.hintYakuNow(listText(m.yaku_now.map((y) => yakuName(y))))) : null,
        h("li", {}, T.hintExpected(fmtPoints(m.expected_score), fmtPoints(m.score_ci95))),
        top ? h("li", {}, T.hintYakuChance(yakuName(top.yaku), Math.round(top.chance * 100))) : null,
        h("li", {}, T.hintRisk(fmtPoints(m.risk))),
        h("li", {}, T.hintWinChance(Math.round((m.win_chance || 0) * 100))),
      ),
      playable
        ? h("button", { type: "button", class: "act hint-play", onclick: () => this.game.moves.act(action) }, T.hintPlayThis)
        : null,
    );
  }

  /**
   * The hint for declaring: what the expert declares, and why.
   * @returns {HTMLElement}
   */
  declarePanel() {
    const held = this.game.view?.lucky_hands || [];
    const chosen = expertDeclares(held);
    /** @param {string[]} slugs */
    const names = (slugs) => slugs.map((s) => yakuName(s)).join(" + ");
    const kept = held.filter((x) => !chosen.includes(x.slug)).map((x) => x.slug);
    return h(
      "section",
      { class: "hint-panel declare-hint", "aria-label": T.hintDeclareTitle },
      h("h3", {}, T.hintDeclareTitle),
      h(
        "p",
        { class: "expert" },
        h("span", { class: "badge expert-choice" }, T.hintExpertChoice),
        " ",
        chosen.length ? T.declareHands(names(chosen)) : T.declareNothing,
      ),
      chosen.length ? h("p", {}, T.hintDeclareYes(REVEAL_COST)) : null,
      kept.length ? h("p", {}, T.hintDeclareNo(names(kept), REVEAL_COST)) : null,
    );
  }

  /** Highlight the cards of the expert's choice (the card played and what it takes). */
  mark() {
    const main = this.game.main;
    for (const el of main.querySelectorAll(".hinted")) el.classList.remove("hinted");
    if (!this.hint) return;
    const best = (this.hint.moves || []).find((m) => m.expert_choice);
    if (!best) return;
    for (const slug of [best.card, ...(best.target || [])]) {
      for (const el of main.querySelectorAll(`.hand [data-slug="${CSS.escape(slug)}"],
          .table-cards [data-slug="${CSS.escape(slug)}"], .turned-slot [data-slug="${CSS.escape(slug)}"]`))
        el.classList.add("hinted");
    }
  }

  /** The panel's place: first beside the table, under the hand on a narrow screen. */
  place() {
    const game = this.game;
    if (game.narrow.matches) {
      if (this.host.previousElementSibling !== game.hand.legend) game.hand.legend.after(this.host);
    } else if (game.side.firstElementChild !== this.host) game.side.prepend(this.host);
  }
}
