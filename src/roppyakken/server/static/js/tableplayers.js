// The players' areas of the table: each player's name, clock, badges (you, dealer, to act, bot,
// offline), games won and total, hand (backs and shown cards), declared hands and captures by kind;
// and the panel of the yaku those captures make or come near.

import { KINDS, backElement, cardElement, pointsOf, pointsOfAll, sortCards } from "./deck.js";
import { listText } from "./i18n.js";
import T, { KIND_PLURALS, yakuName } from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { byKind } from "./yaku.js";
import { renderProgress } from "./progress.js";

export class PlayersView {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.opponents = h("div", { class: "opponents" });
    this.meArea = h("div", { class: "me-area" });
  }

  render() {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const others = [];
    for (let i = 1; i < v.players; i++) others.push((game.me + i) % v.players);
    replaceChildren(
      this.opponents,
      others.map((s) => this.panel(s, { showHand: true })),
    );
    replaceChildren(this.meArea, this.panel(game.me, { showHand: game.spectator }));
  }

  /**
   * @param {number} seat
   * @returns {import("./wire").RoomSeat | null}
   */
  seatInfo(seat) {
    const info = this.game.roomInfo;
    const s = info && info.seats && info.seats[seat];
    return s || null;
  }

  /**
   * @param {number} seat
   * @param {{showHand: boolean}} options
   * @returns {HTMLElement}
   */
  panel(seat, { showHand }) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const caps = v.captures[seat] || [];
    const declared = (v.declared[seat] || []).length
      ? h("div", { class: "pdeclared" }, T.labelled(T.declaredHands, listText(v.declared[seat].map(yakuName))))
      : null;
    const classes = ["player"];
    if (seat === game.seat) classes.push("me");
    if (v.to_act === seat && v.phase !== "over") classes.push("acting");
    return h(
      "section",
      { class: classes.join(" "), dataset: { seat: String(seat) }, "aria-label": game.name(seat) },
      this.header(seat),
      showHand ? this.handBox(seat) : null,
      declared,
      h(
        "div",
        { class: "pcaptures", role: "group", "aria-label": T.captures },
        this.captureGroups(caps),
        h("span", { class: "cpoints" }, T.cardPoints(pointsOfAll(caps))),
      ),
    );
  }

  /**
   * The name, clock, badges, games won and total of a player.
   * @param {number} seat
   * @returns {HTMLElement}
   */
  header(seat) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const kind = this.seatInfo(seat);
    const badges = [];
    if (seat === game.seat) badges.push(h("span", { class: "badge you" }, T.you));
    if (v.dealer === seat) badges.push(h("span", { class: "badge dealer" }, T.dealer));
    if (v.to_act === seat && v.phase !== "over")
      badges.push(h("span", { class: "badge to-act" }, `▶ ${T.toAct}`));
    if (kind && kind.kind === "bot")
      badges.push(h("span", { class: "badge bot" }, T.seatBot(kind.level || "")));
    if (kind && kind.kind === "human" && kind.connected === false)
      badges.push(h("span", { class: "badge offline" }, T.disconnected));
    const options = game.rules.options || {};
    const legs = options.match && options.match !== "single" ? h("span", { class: "plegs" }, T.legsN(v.legs[seat])) : null;
    return h(
      "header",
      { class: "pheader" },
      h("span", { class: "pname" }, game.name(seat)),
      game.clocks ? game.clocks.seatElement(seat) : null,
      badges,
      h("span", { class: "spacer" }),
      legs,
      h("span", { class: "ptotal", title: T.total }, T.totalN(v.totals[seat])),
    );
  }

  /**
   * A player's captures, grouped by kind (or a dash of none).
   * @param {string[]} caps
   * @returns {HTMLElement | HTMLElement[]}
   */
  captureGroups(caps) {
    const groups = byKind(caps);
    const capEls = KINDS.filter((k) => groups[k].length).map((k) =>
      h(
        "div",
        { class: `cgroup kind-${k}`, role: "group", "aria-label": T.labelled(KIND_PLURALS[k], pointsOfAll(groups[k])) },
        h("span", { class: "klabel" }, KIND_PLURALS[k], h("b", {}, ` ${pointsOfAll(groups[k])}`)),
        h(
          "div",
          { class: "cstack" },
          groups[k].map((s) => cardElement(s, { extraClass: pointsOf(s) ? "" : "zero" })),
        ),
      ),
    );
    return capEls.length ? capEls : h("span", { class: "muted" }, T.noCaptures);
  }

  /**
   * Another player's hand: its backs, its count and the cards it shows.
   * @param {number} seat
   * @returns {HTMLElement}
   */
  handBox(seat) {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const revealed = sortCards(v.revealed[seat] || []);
    const hidden = Math.max(0, v.hand_sizes[seat] - revealed.length);
    const backs = [];
    for (let i = 0; i < hidden; i++) backs.push(backElement());
    return h(
      "div",
      {
        class: "phand",
        role: "group",
        "aria-label": T.labelled(T.handOf(game.name(seat)), T.cardsInHand(v.hand_sizes[seat])),
      },
      h("div", { class: "backs" }, backs),
      h("span", { class: "hand-count" }, T.cardsInHand(v.hand_sizes[seat])),
      revealed.length
        ? h(
            "div",
            { class: "revealed", role: "group", "aria-label": T.revealed },
            revealed.map((s) => cardElement(s)),
          )
        : null,
    );
  }
}

/** The yaku progress panel: for each player, how near each yaku is (its sections folded or not). */
export class ProgressPanel {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.el = h("div", { class: "progress-host" });
    /** @type {Record<string, boolean>} which sections are open, kept across redraws */
    this.open = {};
  }

  render() {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    replaceChildren(this.el, renderProgress(game.rules.options || {}, v.captures, game.shownNames, game.me, this.open));
  }
}
