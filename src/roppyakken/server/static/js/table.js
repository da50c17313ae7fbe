// The game table: every player's area (hand, shown cards, captures by kind, total), the
// table and the pile, the viewer's hand, the prompt for the decision at hand, the yaku
// progress panel and the log.  It draws the seat's view (SeatView.to_json()) sent by the
// server and sends actions chosen among the view's legal actions.

import {
  KINDS,
  backElement,
  cardElement,
  cardGender,
  cardName,
  cardNames,
  monthOf,
  pointsOf,
  pointsOfAll,
  sortCards,
} from "./deck.js";
import { listText } from "./i18n.js";
import T, { KIND_PLURALS, MONTH_NAMES, distinctNames, presetName, reasonText, yakuName } from "./text.js";
import { h, openDialog, replaceChildren } from "./dom.js";
import { byKind, yakuProgress } from "./yaku.js";
import { renderProgress } from "./progress.js";
import { renderBreakdown } from "./breakdown.js";
import { renderRules } from "./ruleshelp.js";
import { flip, ghost, snapshot } from "./animate.js";
import { Sounds } from "./sound.js";
import { REVEAL_COST, expertDeclares } from "./declare.js";

// Expected points to the point: card points come in tens, a decimal would be noise.
/** @param {number | null | undefined} x */
const fmtPoints = (x) => (x === null || x === undefined ? "?" : Math.round(x).toString());

/** @typedef {import("./types.js").Json} Json */
/** A legal action as the server sent it (docs/PROTOCOL.md "act"). @typedef {Json} Action */

/**
 * What a table needs: its room, the viewer's seat (null for a spectator), the room's
 * connection, the rules, the preset's description, the room's info, a notice to show and the
 * room's clocks (drawn beside each player's name and in the status line).
 * @typedef {{room: string, seat: number | null, conn: import("./types.js").TableConnection,
 *   rules: import("./types.js").RulesInfo, description?: string, roomInfo?: Json | null,
 *   notice?: string, clocks?: import("./clock.js").ClockBar}} TableContext
 */

export class GameView {
  // The table's parts, made by build().
  /** @type {HTMLElement} */ statusBar;
  /** @type {HTMLElement} */ opponents;
  /** @type {HTMLElement} */ pile;
  /** @type {HTMLElement} */ turnedSlot;
  /** @type {HTMLElement} */ tableCards;
  /** @type {HTMLElement} */ meArea;
  /** @type {HTMLElement} */ prompt;
  /** @type {HTMLElement} */ hand;
  /** @type {HTMLElement} */ overBox;
  /** @type {HTMLElement} */ progressHost;
  /** @type {HTMLElement} */ logList;
  /** @type {HTMLElement} */ main;
  /** @type {HTMLElement} */ side;
  /** @type {HTMLElement} */ el;
  /** @type {HTMLElement} */ handLegend;
  /** @type {HTMLElement} */ hintHost;
  /** @type {MediaQueryList} */ narrow;
  /** @type {string} */ connStatus = "";
  /** @type {number} */ reviewRound = -1;
  /** @type {string} */ autoNote = "";

  /**
   * @param {HTMLElement} root
   * @param {TableContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.room = ctx.room;
    this.seat = ctx.seat;
    this.conn = ctx.conn;
    this.rules = ctx.rules;
    this.description = ctx.description || "";
    this.roomInfo = ctx.roomInfo || null;
    this.notice = ctx.notice || "";
    this.clocks = ctx.clocks || null;
    /** @type {Json | null} the seat's view of the game (docs/PROTOCOL.md "state") */
    this.view = null;
    this.seq = -1;
    /** @type {Json[]} what each legal action gives, when the server sent it */
    this.choices = [];
    /** @type {{action: Action, seq: number} | null} a move sent and not yet answered */
    this.unsent = null;
    /** @type {string[]} */
    this.names = [];
    /** @type {string[]} */
    this.shownNames = [];
    /** @type {string | null} the hand card chosen, waiting for its target */
    this.selected = null;
    this.pending = false;
    this.error = "";
    /** @type {Json | null} the game_end message */
    this.over = null;
    /** @type {Map<string, DOMRect>} */
    this.origins = new Map();
    /** @type {Record<string, boolean>} */
    this.progressOpen = {};
    this.handFocus = 0;
    /** @type {Json[]} */
    this.logEvents = [];
    /** @type {Json | null} */
    this.hint = null;
    this.hintAsked = -1;
    this.hintClosed = -1;
    this.declareHint = -1;
    /** @type {Json | null} */
    this.review = null;
    /** @type {HTMLElement | null} */
    this.reviewBox = null;
    this.sounds = new Sounds(this.spectator);
    /** @type {Set<string> | null} the yaku complete at the last state, by "seat:slug" */
    this.yakuDone = null;
    /** @type {Json[]} the events since the last state */
    this.sinceState = [];
    /** @type {number | null} */
    this.roundOver = null;
    this.build();
  }

  get me() {
    return this.seat === null || this.seat === undefined ? 0 : this.seat;
  }

  get spectator() {
    return this.seat === null || this.seat === undefined;
  }

  /** Whether this seat may ask for hints: alone against bots, or in a room made with hints on. */
  get hintsAllowed() {
    if (this.spectator || !this.roomInfo) return false;
    if (this.roomInfo.hints) return true;
    const seats = this.roomInfo.seats || [];
    return seats.length > 0 && seats.every((/** @type {Json} */ s, /** @type {number} */ i) => i === this.seat || s.kind === "bot");
  }

  build() {
    this.statusBar = h("div", { class: "status-bar" });
    this.opponents = h("div", { class: "opponents" });
    this.pile = h("div", { class: "pile", role: "group", "aria-label": T.pile });
    this.turnedSlot = h("div", { class: "turned-slot", role: "group", "aria-label": T.turnedUp });
    this.tableCards = h("div", { class: "table-cards", role: "group", "aria-label": T.tableLabel });
    this.meArea = h("div", { class: "me-area" });
    this.prompt = h("div", { class: "prompt", role: "status", "aria-live": "polite" });
    this.hand = h("div", { class: "hand", role: "toolbar", "aria-label": T.yourHand });
    this.handLegend = h("p", { class: "hand-legend", hidden: true }, h("span", { class: "legend-mark", "aria-hidden": "true" }, "◆"), " ", T.captureLegend);
    this.overBox = h("div", { class: "game-over", hidden: true, role: "region", "aria-label": T.gameOver });
    this.progressHost = h("div", { class: "progress-host" });
    // Focusable, so that the keyboard can scroll it.
    this.logList = h("ol", { class: "log", tabindex: "0", "aria-label": T.log });
    this.main = h(
      "div",
      { class: "game-main" },
      this.statusBar,
      this.opponents,
      h(
        "div",
        { class: "field" },
        h("div", { class: "pile-area" }, this.pile, this.turnedSlot),
        this.tableCards,
      ),
      this.meArea,
      this.overBox,
      this.prompt,
      this.hand,
      this.handLegend,
    );
    // The hint panel sits beside the table; on a narrow screen under the hand (placeHint), so that
    // it covers nothing and the hand stays where it is.
    this.hintHost = h("div", { class: "hint-host" });
    this.side = h(
      "aside",
      { class: "game-side" },
      this.hintHost,
      h("section", { class: "panel" }, h("h2", {}, T.progress), this.progressHost),
      h("section", { class: "panel" }, h("h2", {}, T.log), this.logList),
    );
    this.el = h("div", { class: "game" }, this.main, this.side);
    replaceChildren(this.root, this.el);
    this.narrow = window.matchMedia("(max-width: 900px)");
    this.narrow.addEventListener("change", () => this.placeHint());
    this.placeHint();
    this.hand.addEventListener("keydown", (ev) => this.onHandKey(ev));
    this.el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.selected) {
        this.selected = null;
        this.render();
        this.focusHand();
      }
    });
  }

  // ------------------------------------------------------------------ messages

  /** @param {Json} info */
  setRoomInfo(info) {
    this.roomInfo = info;
    if (this.view) this.renderPlayers();
  }

  /** @param {string} status */
  setConnection(status) {
    this.connStatus = status;
    if (this.view) {
      this.renderStatus();
      this.renderPrompt();
    }
  }

  /**
   * The game's public events so far (a `history` message, on connect): the log is rebuilt from them.
   * @param {Json[]} events
   */
  onHistory(events) {
    this.logEvents = events.slice(-300);
    this.renderLog();
  }

  /**
   * A move chosen when the server had the state `seq`: still unanswered when a state comes.
   * The same `seq` again means the server never applied it (the connection was lost):
   * send it again if it is still legal, or say that it was not made.
   * @param {Json} view
   * @param {number} seq
   * @returns {boolean}
   */
  settleUnsent(view, seq) {
    const move = this.unsent;
    if (!move) return false;
    if (seq !== move.seq || !view.legal.length) {
      this.unsent = null;
      if (this.notice === T.moveResent) this.notice = "";
      return false;
    }
    const wanted = JSON.stringify(move.action);
    const still = view.legal.find((/** @type {Action} */ a) => JSON.stringify(a) === wanted);
    if (!still || !this.conn.open) {
      this.unsent = null;
      this.notice = T.moveOutdated;
      return false;
    }
    // With the state's seq: should the first one have been made after all, the server refuses this one.
    this.conn.send({ type: "act", action: still, seq: move.seq });
    this.notice = T.moveResent;
    return true;
  }

  /**
   * @param {Json} view
   * @param {string[]} names
   * @param {number} [seq]
   * @param {Json[]} [choices]
   */
  async onState(view, names, seq = -1, choices = []) {
    const prev = this.view;
    const before = snapshot(this.main);
    this.view = view;
    this.seq = seq;
    this.sinceState = [];
    this.roundOver = null;
    this.choices = choices.length === view.legal.length ? choices : [];
    if (names && names.join("\n") !== this.names.join("\n")) {
      this.names = names;
      this.shownNames = distinctNames(names);
      this.renderLog();
    }
    this.pending = this.settleUnsent(view, seq);
    this.error = "";
    if (this.hint && this.hint.seq !== seq) this.hint = null;
    if (this.hintAsked !== seq) this.hintAsked = -1;
    if (this.selected && (!view.hand.includes(this.selected) || !view.legal.length)) this.selected = null;
    this.el.dataset.players = String(view.players);
    this.soundCues(prev, view);
    this.render();
    // The focus goes to the decision at once, while the cards still glide into place.
    if (view.legal.length && !this.selected && !this.spectator) this.focusDecision();
    const sameRound = prev && prev.round === view.round && prev.leg === view.leg;
    if (sameRound && !this.fast()) await flip(this.main, before, this.origins);
    this.origins.clear();
    this.autoTake();
  }

  /**
   * A decision is this seat's: bring the keyboard focus to it (the hand for a play, the first
   * answer for a lucky hand, a redeal call or a turned-up card's target), unless the focus is
   * somewhere of the player's own choosing (a side panel, the header).
   * @returns {void}
   */
  focusDecision() {
    const active = document.activeElement;
    if (active && active !== document.body && !this.main.contains(active)) return;
    if (this.view?.phase === "play") {
      if (!this.hand.contains(active)) this.focusHand(true);
      return;
    }
    const first = this.prompt.querySelector(".prompt-actions button.act");
    if (first instanceof HTMLElement && !this.prompt.contains(active)) first.focus({ preventScroll: true });
  }

  /**
   * The sounds of a new state: your turn to play, a yaku just completed by anyone.
   * @param {any} prev  the state before, or null
   * @param {any} view
   */
  soundCues(prev, view) {
    /** @type {Set<string>} */
    const done = new Set();
    (view.captures || []).forEach((/** @type {unknown} */ _, /** @type {number} */ seat) => {
      for (const e of yakuProgress(this.rules.options || {}, view.captures, seat)) if (e.done) done.add(`${seat}:${e.slug}`);
    });
    const sameRound = prev && prev.round === view.round && prev.leg === view.leg;
    const before = this.yakuDone;
    const fresh = before && sameRound ? [...done].filter((k) => !before.has(k)) : [];
    this.yakuDone = done;
    if (this.fast()) return;
    if (fresh.length) this.sounds.play("yaku");
    const mine = !this.spectator && view.legal.length > 0 && view.phase === "play";
    const wasMine = prev && prev.legal.length > 0 && prev.phase === "play";
    if (mine && !wasMine) this.sounds.play("turn");
  }

  /**
   * The hook of a game clock: call it when this seat's time is running out (a warning sound).
   * @returns {void}
   */
  clockRunningOut() {
    this.sounds.play("clock");
  }

  /** @param {Json[]} events */
  async onEvents(events) {
    for (const ev of events) {
      this.logEvent(ev);
      this.sinceState.push(ev);
      if (ev.type === "played" && !this.fast()) this.sounds.play(ev.captured.length ? "capture" : "place");
      if (this.fast() || !this.view) continue;
      if (ev.type === "played") await this.animatePlayed(ev);
      else if (ev.type === "turned") await this.animateTurned(ev);
    }
  }

  /**
   * The table as the round ended: the last plays (whose state never comes, the next state being
   * the next deal) applied to the last state, the captures and totals from the round's end,
   * nobody to act and no move in flight.
   * @param {Json} msg
   */
  settleRoundEnd(msg) {
    if (!this.view) return;
    const v = JSON.parse(JSON.stringify(this.view));
    /** @param {string[]} list @param {string} card */
    const drop = (list, card) => list.filter((s) => s !== card);
    for (const ev of this.sinceState) {
      if (ev.type === "turned") {
        v.turned = ev.card;
        v.pile_count = Math.max(0, v.pile_count - 1);
      } else if (ev.type === "played") {
        if (ev.source === "pile") v.turned = null;
        else {
          v.hand = ev.seat === this.seat ? drop(v.hand, ev.card) : v.hand;
          v.hand_sizes[ev.seat] = Math.max(0, v.hand_sizes[ev.seat] - 1);
          v.revealed[ev.seat] = drop(v.revealed[ev.seat] || [], ev.card);
        }
        if (ev.captured.length) v.table = v.table.filter((/** @type {string} */ s) => !ev.captured.includes(s));
        else v.table = [...v.table, ev.card];
      }
    }
    if (msg.captures && msg.captures.length === v.players) v.captures = msg.captures;
    if (msg.totals && msg.totals.length === v.players) v.totals = msg.totals;
    v.legal = [];
    v.to_act = -1;
    this.sinceState = [];
    this.view = v;
    this.roundOver = msg.round;
    this.pending = false;
    this.unsent = null;
    this.selected = null;
    this.hint = null;
    this.render();
  }

  /**
   * @param {Json} msg
   * @returns {Promise<void>}
   */
  onRoundEnd(msg) {
    this.settleRoundEnd(msg);
    const options = this.rules.options;
    const body = renderBreakdown(msg.score, {
      names: this.shownNames,
      captures: msg.captures,
      totals: msg.totals,
      options,
    });
    this.reviewBox = null;
    if (this.hintsAllowed) {
      this.reviewBox = h("section", { class: "review", "aria-live": "polite" });
      this.reviewRound = msg.round;
      const early = this.review && this.review.round === msg.round ? this.review : null;
      this.fillReview(early);
      body.append(this.reviewBox);
    }
    return new Promise((resolve) => {
      openDialog(T.roundOver(msg.round), body, {
        className: "round-end",
        onClose: () => {
          this.reviewBox = null;
          resolve();
        },
        closeText: T.continue,
      });
    });
  }

  /**
   * `review`: what the master would have played at the turns of the round where this seat gave up most.
   * @param {Json} msg
   */
  onReview(msg) {
    this.review = msg;
    if (this.reviewBox && msg.round === this.reviewRound) this.fillReview(msg);
  }

  /** @param {Json | null} msg */
  fillReview(msg) {
    if (!this.reviewBox) return;
    // A turn that gave up nothing that shows (0 points, under 1% of the chance to win) is no lesson.
    const items = (msg ? msg.reviews || [] : []).filter(
      (/** @type {Json} */ r) => Math.round(r.points_lost) > 0 || Math.round(r.win_chance_lost * 100) > 0,
    );
    replaceChildren(
      this.reviewBox,
      h("h3", {}, T.reviewTitle),
      !msg
        ? h("p", { class: "muted" }, T.reviewWorking)
        : !items.length
          ? h("p", {}, T.reviewNone)
          : h(
              "ol",
              { class: "review-list" },
              items.map((/** @type {Json} */ r) =>
                h(
                  "li",
                  { dataset: { turn: String(r.turn) } },
                  h("strong", {}, T.reviewTurn(r.turn)),
                  h("div", {}, T.reviewPlayed(this.hintPlayText(r.played))),
                  h("div", { class: "review-best" }, T.reviewBest(this.hintPlayText(r.best))),
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

  // ------------------------------------------------------------------ hints

  askHint() {
    if (!this.conn || this.hintAsked === this.seq) return;
    this.hintAsked = this.seq;
    this.error = "";
    this.conn.send({ type: "hint" });
    this.renderPrompt();
  }

  /**
   * `hint`: the expert's best plays for the decision at hand (dropped if the game moved on).
   * @param {Json} msg
   */
  onHint(msg) {
    if (msg.seq !== this.seq) return;
    this.hint = msg;
    this.render();
  }

  /**
   * @param {Json} m  a hinted or reviewed move: its card and what it takes
   * @returns {string}
   */
  hintPlayText(m) {
    const card = cardName(m.card);
    return m.target && m.target.length ? T.hintPlayTakes(card, cardNames(m.target)) : T.hintPlayTo(card);
  }

  renderHint() {
    const msg = /** @type {Json} */ (this.hint);
    // The expert's choice first, as the heading says; the others by their chance to win.
    const moves = [...(msg.moves || [])].sort(
      (/** @type {Json} */ a, /** @type {Json} */ b) => Number(b.expert_choice) - Number(a.expert_choice),
    );
    const legal = /** @type {Json} */ (this.view).legal.map((/** @type {Action} */ a) => JSON.stringify(a));
    return h(
      "section",
      { class: "hint-panel", "aria-label": T.hintTitle },
      h("h3", {}, T.hintTitle),
      h(
        "ol",
        { class: "hint-moves" },
        moves.map((/** @type {Json} */ m) => {
          const top = (m.yaku_chances || [])[0];
          const playable = legal.includes(JSON.stringify(m.action));
          return h(
            "li",
            { class: `hint-move${m.expert_choice ? " expert" : ""}`, dataset: { card: m.card } },
            h(
              "div",
              { class: "hint-head" },
              h("strong", {}, this.hintPlayText(m)),
              m.expert_choice ? h("span", { class: "badge expert-choice" }, T.hintExpertChoice) : null,
            ),
            h(
              "ul",
              { class: "hint-facts" },
              h("li", {}, T.hintPointsNow(m.points_now)),
              m.yaku_now && m.yaku_now.length
                ? h("li", {}, T.hintYakuNow(listText(m.yaku_now.map((/** @type {string} */ y) => yakuName(y)))))
                : null,
              h("li", {}, T.hintExpected(fmtPoints(m.expected_score), fmtPoints(m.score_ci95))),
              top ? h("li", {}, T.hintYakuChance(yakuName(top.yaku), Math.round(top.chance * 100))) : null,
              h("li", {}, T.hintRisk(fmtPoints(m.risk))),
              h("li", {}, T.hintWinChance(Math.round((m.win_chance || 0) * 100))),
            ),
            playable
              ? h(
                  "button",
                  { type: "button", class: "act hint-play", onclick: () => this.act(m.action) },
                  T.hintPlayThis,
                )
              : null,
          );
        }),
      ),
      h("p", { class: "muted hint-note" }, T.hintNote(msg.worlds)),
      h(
        "button",
        {
          type: "button",
          class: "hint-close",
          onclick: () => {
            this.hintClosed = this.seq;
            replaceChildren(this.hintHost);
            this.focusHand();
          },
        },
        T.close,
      ),
    );
  }

  /**
   * The hint for declaring: what the expert declares, and why.
   * @returns {HTMLElement}
   */
  renderDeclareHint() {
    /** @type {{slug: string, points: number, cards?: string[]}[]} */
    const held = this.view?.lucky_hands || [];
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
  markHint() {
    for (const el of this.main.querySelectorAll(".hinted")) el.classList.remove("hinted");
    if (!this.hint) return;
    const best = (this.hint.moves || []).find((/** @type {Json} */ m) => m.expert_choice);
    if (!best) return;
    for (const slug of [best.card, ...(best.target || [])]) {
      for (const el of this.main.querySelectorAll(`.hand [data-slug="${CSS.escape(slug)}"],
          .table-cards [data-slug="${CSS.escape(slug)}"], .turned-slot [data-slug="${CSS.escape(slug)}"]`))
        el.classList.add("hinted");
    }
  }

  /** @param {Json} msg */
  onGameEnd(msg) {
    this.over = msg;
    this.renderOver();
  }

  /** @param {string} message */
  onError(message) {
    this.pending = false;
    this.hintAsked = -1;
    this.unsent = null;
    this.error = message;
    this.renderPrompt();
  }

  fast() {
    return this.conn && this.conn.backlog > 2;
  }

  // ------------------------------------------------------------------ animation

  /**
   * @param {number} seat
   * @returns {DOMRect | null}
   */
  seatHandRect(seat) {
    const el = this.main.querySelector(`.player[data-seat="${seat}"] .phand`);
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

  /** @param {Json} ev */
  async animatePlayed(ev) {
    let from = null;
    if (ev.source === "pile") {
      from = this.cardRect(this.turnedSlot, ev.card) || this.pile.getBoundingClientRect();
    } else if (ev.seat === this.seat) {
      from = this.cardRect(this.hand, ev.card);
    } else {
      from = this.cardRect(this.main, ev.card) || this.seatHandRect(ev.seat);
    }
    let to = ev.captured.length ? this.cardRect(this.tableCards, ev.captured[0]) : null;
    if (!to) {
      const box = this.tableCards.getBoundingClientRect();
      const w = this.tableCardWidth();
      to = new DOMRect(box.right - w - 8, box.top + 8, w, w * 1.5);
      if (!ev.captured.length) to = new DOMRect(to.left, to.top, w, w * 1.5);
    } else {
      to = new DOMRect(to.left + to.width * 0.3, to.top + to.height * 0.15, to.width, to.height);
    }
    if (!from) return;
    await ghost(ev.card, from, to);
    this.origins.set(ev.card, to);
  }

  /** @param {Json} ev */
  async animateTurned(ev) {
    const from = this.pile.getBoundingClientRect();
    const slot = this.turnedSlot.getBoundingClientRect();
    const w = this.tableCardWidth();
    const to = new DOMRect(slot.left, slot.top, w, w * 1.5);
    await ghost(ev.card, from, to, { hold: 80 });
    this.origins.set(ev.card, to);
  }

  tableCardWidth() {
    const any = this.tableCards.querySelector(".card") || this.pile.querySelector(".card");
    return any ? any.getBoundingClientRect().width : 60;
  }

  // ------------------------------------------------------------------ log

  /**
   * @param {number} seat
   * @returns {string}
   */
  name(seat) {
    return this.shownNames[seat] || T.seatN(seat);
  }

  /** @param {Json} ev */
  logEvent(ev) {
    const prev = this.logEvents[this.logEvents.length - 1];
    this.logEvents.push(ev);
    if (this.logEvents.length > 300) this.logEvents.shift();
    const line = this.eventText(ev, prev);
    if (!line) return;
    this.logList.append(h("li", { class: `ev-${ev.type}` }, line));
    while (this.logList.firstElementChild && this.logList.children.length > 150) this.logList.firstElementChild.remove();
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /** Redraw the whole log (once the players' names are known). */
  renderLog() {
    /** @type {HTMLElement[]} */
    const lines = [];
    this.logEvents.forEach((ev, i) => {
      const line = this.eventText(ev, this.logEvents[i - 1]);
      if (line) lines.push(h("li", { class: `ev-${ev.type}` }, line));
    });
    replaceChildren(this.logList, lines.slice(-150));
    this.logList.scrollTop = this.logList.scrollHeight;
  }

  /**
   * @param {Json} ev
   * @param {Json | undefined} prev
   * @returns {string | null}
   */
  eventText(ev, prev) {
    /** @param {number} s */
    const n = (s) => this.name(s);
    let text = null;
    switch (ev.type) {
      case "first-dealer":
        text = T.evFirstDealer(n(ev.dealer));
        break;
      case "round-started":
        text = T.evRoundStarted(ev.round, n(ev.dealer));
        break;
      case "redeal":
        text = T.evRedeal(
          ev.seat === null || ev.seat === undefined
            ? T.evRedealTable(MONTH_NAMES[ev.month - 1])
            : T.evRedealHand(MONTH_NAMES[ev.month - 1], n(ev.seat)),
        );
        break;
      case "dealer-took-four":
        text = T.evDealerTook(n(ev.seat), cardNames(ev.cards));
        break;
      case "declared":
        text = T.evDeclared(n(ev.seat), listText(ev.hands.map((/** @type {Json} */ x) => `${yakuName(x.slug)} (${x.points})`)));
        break;
      case "turned":
        text = T.evTurned(n(ev.seat), cardName(ev.card));
        break;
      case "played":
        if (
          ev.source === "pile" &&
          prev &&
          prev.type === "turned" &&
          prev.card === ev.card &&
          ev.captured.length
        ) {
          text = T.evTurnedTakes(n(ev.seat), cardName(ev.card), cardNames(ev.captured));
          break;
        }
        text = ev.captured.length
          ? T.evPlayedTaking(n(ev.seat), cardName(ev.card), cardNames(ev.captured), ev.source === "pile")
          : T.evPlayedToTable(n(ev.seat), cardName(ev.card), ev.source === "pile", cardGender(ev.card));
        break;
      case "round-ended":
        text = T.evRoundEnded(ev.round);
        break;
      case "leg-won":
        text = T.evLegWon(n(ev.seat));
        break;
      case "game-ended":
        text = T.evGameEnded(n(ev.winner));
        break;
      default:
        text = null;
    }
    return text;
  }

  // ------------------------------------------------------------------ rendering

  render() {
    if (!this.view) return;
    const focused = this.main.contains(document.activeElement);
    this.renderStatus();
    this.renderPlayers();
    this.renderField();
    this.renderHand();
    this.renderPrompt();
    this.renderProgress();
    this.renderOver();
    this.markHint();
    if (focused) this.keepFocus();
  }

  /**
   * The control that had the keyboard focus was redrawn away (a card played, a prompt replaced):
   * the focus goes to the decision at hand if there is one, else stays in the hand, never on the
   * page's body.
   */
  keepFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const v = this.view;
    if (v && v.legal.length && !this.pending && !this.spectator) this.focusDecision();
    if (!this.main.contains(document.activeElement)) this.focusHand(true);
    if (!this.main.contains(document.activeElement)) {
      const control = this.main.querySelector(".prompt button, .game-over a");
      if (control instanceof HTMLElement) control.focus({ preventScroll: true });
    }
  }

  renderStatus() {
    const v = /** @type {Json} */ (this.view);
    const o = this.rules.options || {};
    const parts = [T.round(v.round)];
    if (o.match && o.match !== "single") parts.push(T.leg(v.leg));
    if (o.target) parts.push(T.targetIs(o.target));
    const conn =
      this.connStatus && this.connStatus !== "open"
        ? h(
            "span",
            { class: "conn-status", role: "alert" },
            this.connStatus === "lost" ? T.reconnecting : T.connecting,
          )
        : null;
    replaceChildren(
      this.statusBar,
      h("span", { class: "round-info" }, parts.join(" · ")),
      h("span", { class: "preset-name" }, presetName(this.rules.preset)),
      this.clocks ? this.clocks.statusElement() : null,
      conn,
      this.roomInfo && this.roomInfo.hints
        ? h("span", { class: "badge hints-on", title: T.hintsOnTitle }, T.hintsOn)
        : null,
      h("span", { class: "spacer" }),
      this.soundSwitch(),
      h("button", { type: "button", class: "link-button", onclick: () => this.showRules() }, T.showRules),
    );
  }

  /**
   * The mute switch: a toggle button (aria-pressed) whose choice is remembered.
   * @returns {HTMLButtonElement}
   */
  soundSwitch() {
    const on = this.sounds.on;
    return h(
      "button",
      {
        type: "button",
        class: "link-button sound-toggle",
        "aria-pressed": on ? "true" : "false",
        title: T.soundTitle,
        onclick: () => {
          this.sounds.set(!this.sounds.on);
          this.renderStatus();
          const again = this.statusBar.querySelector(".sound-toggle");
          if (again instanceof HTMLElement) again.focus();
        },
      },
      h("span", { class: "sound-icon", "aria-hidden": "true" }, "♪"),
      " ",
      T.sound,
    );
  }

  showRules() {
    openDialog(
      T.rulesTitle(this.rules.preset),
      renderRules({ ...this.rules, description: this.description }),
      {
        className: "rules-dialog",
        closeText: T.close,
      },
    );
  }

  /**
   * @param {number} seat
   * @returns {Json | null}
   */
  seatKind(seat) {
    const s = this.roomInfo && this.roomInfo.seats && this.roomInfo.seats[seat];
    return s || null;
  }

  /**
   * @param {number} seat
   * @param {{showHand: boolean}} options
   * @returns {HTMLElement}
   */
  playerPanel(seat, { showHand }) {
    const v = /** @type {Json} */ (this.view);
    const kind = this.seatKind(seat);
    const badges = [];
    if (seat === this.seat) badges.push(h("span", { class: "badge you" }, T.you));
    if (v.dealer === seat) badges.push(h("span", { class: "badge dealer" }, T.dealer));
    if (v.to_act === seat && v.phase !== "over")
      badges.push(h("span", { class: "badge to-act" }, `▶ ${T.toAct}`));
    if (kind && kind.kind === "bot")
      badges.push(h("span", { class: "badge bot" }, T.seatBot(kind.level || "")));
    if (kind && kind.kind === "human" && kind.connected === false)
      badges.push(h("span", { class: "badge offline" }, T.disconnected));
    const legs =
      (this.rules.options || {}).match && this.rules.options.match !== "single"
        ? h("span", { class: "plegs" }, T.legsN(v.legs[seat]))
        : null;
    const header = h(
      "header",
      { class: "pheader" },
      h("span", { class: "pname" }, this.name(seat)),
      this.clocks ? this.clocks.seatElement(seat) : null,
      badges,
      h("span", { class: "spacer" }),
      legs,
      h("span", { class: "ptotal", title: T.total }, T.totalN(v.totals[seat])),
    );
    const caps = v.captures[seat] || [];
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
    const capturesBox = h(
      "div",
      { class: "pcaptures", role: "group", "aria-label": T.captures },
      capEls.length ? capEls : h("span", { class: "muted" }, T.noCaptures),
      h("span", { class: "cpoints" }, T.cardPoints(pointsOfAll(caps))),
    );
    let handBox = null;
    if (showHand) {
      const revealed = sortCards(v.revealed[seat] || []);
      const hidden = Math.max(0, v.hand_sizes[seat] - revealed.length);
      const backs = [];
      for (let i = 0; i < hidden; i++) backs.push(backElement());
      handBox = h(
        "div",
        {
          class: "phand",
          role: "group",
          "aria-label": T.labelled(T.handOf(this.name(seat)), T.cardsInHand(v.hand_sizes[seat])),
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
    const declared = (v.declared[seat] || []).length
      ? h("div", { class: "pdeclared" }, T.labelled(T.declaredHands, listText(v.declared[seat].map(yakuName))))
      : null;
    const classes = ["player"];
    if (seat === this.seat) classes.push("me");
    if (v.to_act === seat && v.phase !== "over") classes.push("acting");
    return h(
      "section",
      { class: classes.join(" "), dataset: { seat: String(seat) }, "aria-label": this.name(seat) },
      header,
      handBox,
      declared,
      capturesBox,
    );
  }

  renderPlayers() {
    const v = /** @type {Json} */ (this.view);
    const others = [];
    for (let i = 1; i < v.players; i++) others.push((this.me + i) % v.players);
    replaceChildren(
      this.opponents,
      others.map((s) => this.playerPanel(s, { showHand: true })),
    );
    replaceChildren(this.meArea, this.playerPanel(this.me, { showHand: this.spectator }));
  }

  /** The capture targets to highlight now: [{target: [slugs], action}] @returns {{target: string[], action: Action}[]} */
  activeTargets() {
    const v = /** @type {Json} */ (this.view);
    if (!v || !v.legal.length || this.pending) return [];
    if (v.phase === "take")
      return v.legal
        .filter((/** @type {Action} */ a) => a.type === "take")
        .map((/** @type {Action} */ a) => ({ target: a.target, action: a }));
    if (v.phase === "play" && this.selected) {
      return v.legal
        .filter((/** @type {Action} */ a) => a.type === "play" && a.card === this.selected && a.target.length)
        .map((/** @type {Action} */ a) => ({ target: a.target, action: a }));
    }
    return [];
  }

  /**
   * @param {string} slug
   * @returns {Action[]}
   */
  playsOf(slug) {
    return /** @type {Json} */ (this.view).legal.filter((/** @type {Action} */ a) => a.type === "play" && a.card === slug);
  }

  /**
   * The choice (roppyakken.choices, sent with the state) of a legal action, or null.
   * @param {Action} action
   * @returns {Json | null}
   */
  choiceOf(action) {
    const i = /** @type {Json} */ (this.view).legal.indexOf(action);
    return i >= 0 && this.choices[i] ? this.choices[i] : null;
  }

  /**
   * The actions that differ: an action equivalent to an earlier one (same points and yaku progress) is left out.
   * @param {Action[]} actions
   * @returns {Action[]}
   */
  distinct(actions) {
    return actions.filter((a) => {
      const c = this.choiceOf(a);
      return !c || c.same_as === null || c.same_as === undefined;
    });
  }

  /**
   * What a choice gives, when choices differ: "+10 card points · Blue Ribbons (Aotan) 2/3".
   * @param {Action} action
   * @returns {string}
   */
  choiceText(action) {
    const c = this.choiceOf(action);
    if (!c) return "";
    const parts = [c.points ? T.choiceGives(c.points) : T.choiceNothing];
    for (const y of c.yaku || []) parts.push(T.choiceYaku(yakuName(y.slug), y.after, y.needed));
    return parts.join(" · ");
  }

  /** A turned-up card whose targets are all equivalent takes one of them without asking. */
  autoTake() {
    const v = /** @type {Json} */ (this.view);
    if (this.pending || this.spectator || v.phase !== "take" || v.legal.length < 2) return false;
    const takes = this.distinct(v.legal.filter((/** @type {Action} */ a) => a.type === "take"));
    if (takes.length !== 1 || takes.length === v.legal.length) return false;
    this.autoNote = T.autoTaken(cardName(v.turned), cardNames(takes[0].target));
    this.act(takes[0]);
    this.notice = this.autoNote;
    this.autoNote = "";
    this.renderPrompt();
    return true;
  }

  renderField() {
    const v = /** @type {Json} */ (this.view);
    const targets = this.activeTargets();
    const actor = v.phase === "take" ? v.turned : this.selected;
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
          el.addEventListener("click", () => this.act(t.action));
          el.addEventListener("mouseenter", () => this.hoverTarget(t.target, true));
          el.addEventListener("mouseleave", () => this.hoverTarget(t.target, false));
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
  hoverTarget(target, on) {
    for (const s of target) {
      const el = this.tableCards.querySelector(`[data-slug="${CSS.escape(s)}"]`);
      if (el) el.classList.toggle("hover", on);
    }
  }

  renderHand() {
    const v = /** @type {Json} */ (this.view);
    if (this.spectator) {
      this.hand.hidden = true;
      this.handLegend.hidden = true;
      return;
    }
    this.hand.hidden = false;
    const canPlay = v.phase === "play" && v.legal.length > 0 && !this.pending;
    const cards = sortCards(v.hand);
    const lucky = new Set(
      v.phase === "declare" && v.legal.length ? (v.lucky_hands || []).flatMap((/** @type {Json} */ x) => x.cards || []) : [],
    );
    this.handFocus = Math.min(this.handFocus, Math.max(0, cards.length - 1));
    if (this.selected) this.handFocus = Math.max(0, cards.indexOf(this.selected));
    const els = cards.map((s, i) => {
      const plays = canPlay ? this.playsOf(s) : [];
      const captures = plays.some((a) => a.target.length);
      const classes = [];
      if (s === this.selected) classes.push("selected");
      if (captures) classes.push("can-capture");
      if (lucky.has(s)) classes.push("lucky");
      const el = cardElement(s, { button: true, extraClass: classes.join(" ") });
      el.tabIndex = i === this.handFocus ? 0 : -1;
      el.setAttribute("aria-pressed", s === this.selected ? "true" : "false");
      if (captures) el.append(h("span", { class: "capture-mark", "aria-hidden": "true" }, "◆"));
      el.setAttribute("aria-label", `${el.title}${captures ? ` — ${T.canCapture}` : ""}`);
      if (!canPlay) el.setAttribute("aria-disabled", "true");
      el.addEventListener("click", (ev) => this.onHandClick(s, ev));
      el.addEventListener("dblclick", () => {
        const p = canPlay ? this.distinct(this.playsOf(s)) : [];
        if (p.length === 1) this.act(p[0]);
      });
      el.addEventListener("focus", () => {
        this.handFocus = i;
      });
      return el;
    });
    replaceChildren(this.hand, els);
    this.hand.classList.toggle("active", canPlay);
    this.handLegend.hidden = !els.some((el) => el.classList.contains("can-capture"));
  }

  /**
   * @param {string} slug
   * @param {MouseEvent} ev
   */
  onHandClick(slug, ev) {
    const v = /** @type {Json} */ (this.view);
    if (!(v.phase === "play" && v.legal.length && !this.pending)) return;
    const plays = this.distinct(this.playsOf(slug));
    if (this.selected === slug && plays.length === 1) {
      this.act(plays[0]);
      return;
    }
    this.selected = slug;
    this.renderField();
    this.renderHand();
    this.renderPrompt();
    const keyboard = ev && ev.detail === 0;
    if (keyboard) {
      const first = this.prompt.querySelector("button");
      if (first) first.focus();
    } else {
      this.focusHand();
    }
  }

  /** @param {KeyboardEvent} ev */
  onHandKey(ev) {
    const buttons = /** @type {HTMLElement[]} */ ([...this.hand.querySelectorAll("button.card")]);
    if (!buttons.length) return;
    let i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (i < 0) i = this.handFocus;
    let next = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = (i + 1) % buttons.length;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = (i - 1 + buttons.length) % buttons.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = buttons.length - 1;
    if (next === null) return;
    ev.preventDefault();
    buttons.forEach((b, j) => (b.tabIndex = j === next ? 0 : -1));
    this.handFocus = next;
    buttons[next].focus();
  }

  /** @param {boolean} [force] */
  focusHand(force = true) {
    const el = this.hand.querySelector(`button.card[tabindex="0"]`);
    if (!(el instanceof HTMLElement)) return;
    if (force || document.activeElement === document.body) el.focus({ preventScroll: true });
  }

  /** @param {Action} action */
  act(action) {
    if (this.pending) return;
    this.pending = true;
    this.selected = null;
    this.error = "";
    this.notice = "";
    // Kept until the server answers: a move made while the connection is down is sent once it is back.
    this.unsent = { action, seq: this.seq };
    const message = this.seq >= 0 ? { type: "act", action, seq: this.seq } : { type: "act", action };
    if (this.conn.open) this.conn.send(message);
    const focused = this.main.contains(document.activeElement) || this.hintHost.contains(document.activeElement);
    this.renderField();
    this.renderHand();
    this.renderPrompt();
    if (focused) this.keepFocus();
  }

  renderPrompt() {
    const v = /** @type {Json} */ (this.view);
    const parts = [];
    replaceChildren(this.hintHost);
    const buttons = [];
    if (this.error) parts.push(h("p", { class: "error", role: "alert" }, this.error));
    if (v.phase === "over" || this.over) {
      replaceChildren(this.prompt, parts);
      return;
    }
    const mine = v.legal.length > 0 && !this.pending;
    const offline = this.connStatus && this.connStatus !== "open";
    if (this.notice) parts.push(h("p", { class: "notice", role: "status" }, this.notice));
    if (this.spectator) parts.push(h("p", {}, T.spectating));
    if (this.roundOver !== null) {
      parts.push(h("p", { class: "round-over" }, T.roundOverNote(this.roundOver)));
      replaceChildren(this.prompt, parts);
      this.prompt.dataset.state = "round-over";
      return;
    }
    if (!mine) {
      if (this.pending && this.unsent && offline)
        parts.push(h("p", { class: "move-held", role: "alert" }, T.moveHeldOffline));
      else if (this.pending) parts.push(h("p", { class: "sending" }, T.sendingMove));
      else parts.push(h("p", { class: "waiting" }, T.waitingFor(this.name(v.to_act))));
      replaceChildren(this.prompt, parts);
      this.prompt.dataset.state = "waiting";
      return;
    }
    this.prompt.dataset.state = v.phase;
    if (v.phase === "redeal") {
      parts.push(h("p", {}, T.redealPrompt));
      for (const a of v.legal)
        buttons.push(this.actionButton(a.call ? T.redealCall : T.redealNo, a, a.call ? "" : "primary"));
    } else if (v.phase === "declare") {
      parts.push(h("p", {}, T.declarePrompt));
      parts.push(h("p", { class: "declare-why" }, T.declareWhy));
      parts.push(
        h(
          "ul",
          { class: "lucky-list" },
          (v.lucky_hands || []).map((/** @type {Json} */ x) =>
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
      const held = new Map((v.lucky_hands || []).map((/** @type {Json} */ x) => [x.slug, x.points]));
      const sorted = [...v.legal].sort((a, b) => b.hands.length - a.hands.length);
      for (const a of sorted) {
        const label = a.hands.length
          ? T.declareHands(a.hands.map((/** @type {string} */ s) => `${yakuName(s)} (${held.get(s) ?? ""})`).join(" + "))
          : T.declareNothing;
        buttons.push(this.actionButton(label, a, a.hands.length ? "primary" : ""));
      }
    } else if (v.phase === "take") {
      parts.push(h("p", {}, T.takeTurned(cardName(v.turned))));
      for (const a of this.distinct(v.legal))
        buttons.push(this.actionButton(T.playCapture(cardNames(a.target)), a, "primary", this.choiceText(a)));
    } else if (v.phase === "play") {
      if (!this.selected) {
        parts.push(h("p", { class: "your-turn" }, T.yourTurnPlay));
      } else {
        const plays = this.distinct(this.playsOf(this.selected));
        parts.push(
          h(
            "p",
            {},
            h("strong", {}, cardName(this.selected)),
            " — ",
            plays.length > 1 ? T.chooseTarget : T.playAgainHint,
          ),
        );
        for (const a of plays) {
          const label = a.target.length ? T.playCapture(cardNames(a.target)) : T.playToTable;
          const gives = plays.length > 1 && a.target.length ? this.choiceText(a) : "";
          buttons.push(this.actionButton(label, a, "primary", gives));
        }
        buttons.push(
          h(
            "button",
            {
              type: "button",
              class: "cancel",
              onclick: () => {
                this.selected = null;
                this.render();
                this.focusHand();
              },
            },
            T.cancel,
          ),
        );
      }
    }
    if (v.phase === "declare" && this.hintsAllowed) {
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "hint-button",
            "aria-expanded": this.declareHint === this.seq ? "true" : "false",
            onclick: () => {
              this.declareHint = this.declareHint === this.seq ? -1 : this.seq;
              this.renderPrompt();
            },
          },
          T.hintButton,
        ),
      );
    }
    const cardTurn = v.legal.some((/** @type {Action} */ a) => a.type === "play" || a.type === "take");
    if (cardTurn && this.hintsAllowed) {
      const asked = this.hintAsked === this.seq && !this.hint;
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "hint-button",
            disabled: asked || (!!this.hint && this.hintClosed !== this.seq),
            onclick: () => {
              if (this.hint) {
                this.hintClosed = -1; // shown again
                this.renderPrompt();
              } else this.askHint();
            },
          },
          asked ? T.hintWorking : T.hintButton,
        ),
      );
    }
    replaceChildren(
      this.prompt,
      parts,
      buttons.length ? h("div", { class: "prompt-actions" }, buttons) : null,
    );
    const hintShown = cardTurn && this.hint && this.hintClosed !== this.seq;
    const declareShown = v.phase === "declare" && this.hintsAllowed && this.declareHint === this.seq;
    const wasEmpty = !this.hintHost.firstChild;
    replaceChildren(this.hintHost, hintShown ? this.renderHint() : declareShown ? this.renderDeclareHint() : null);
    if (wasEmpty && this.hintHost.firstChild && this.narrow.matches)
      this.hintHost.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  /** The hint panel's place: first beside the table, under the hand on a narrow screen. */
  placeHint() {
    if (this.narrow.matches) {
      if (this.hintHost.previousElementSibling !== this.handLegend) this.handLegend.after(this.hintHost);
    } else if (this.side.firstElementChild !== this.hintHost) this.side.prepend(this.hintHost);
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
      { type: "button", class: `act ${cls}`.trim(), onclick: () => this.act(action) },
      label,
      gives ? h("small", { class: "gives" }, gives) : null,
    );
  }

  renderProgress() {
    const v = /** @type {Json} */ (this.view);
    replaceChildren(
      this.progressHost,
      renderProgress(this.rules.options || {}, v.captures, this.shownNames, this.me, this.progressOpen),
    );
  }

  /**
   * The final standings: the winner first, then by games won (in a match) and total; equal
   * players share a place.
   * @param {number} winner
   * @returns {HTMLElement | null}
   */
  standings(winner) {
    const v = this.view;
    if (!v || !v.totals) return null;
    const match = Boolean((this.rules.options || {}).match && this.rules.options.match !== "single" && v.legs);
    /** @param {number} s */
    const key = (s) => [s === winner ? 1 : 0, match ? v.legs[s] : 0, v.totals[s]];
    /** @type {number[]} */
    const seats = v.totals.map((/** @type {number} */ _, /** @type {number} */ s) => s);
    seats.sort((/** @type {number} */ a, /** @type {number} */ b) => {
      const [x, y] = [key(a), key(b)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    /** @type {number[]} */
    const places = [];
    seats.forEach((s, i) => {
      const prev = seats[i - 1];
      places.push(i > 0 && key(prev).join() === key(s).join() ? places[i - 1] : i + 1);
    });
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
          h("th", { scope: "col" }, T.standingsPlace),
          h("th", { scope: "col" }, T.standingsPlayer),
          match ? h("th", { scope: "col", class: "num" }, T.standingsLegs) : null,
          h("th", { scope: "col", class: "num" }, T.standingsTotal),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((s, i) =>
          h(
            "tr",
            { dataset: { seat: String(s) }, class: s === this.seat ? "mine" : "" },
            h("td", { class: "place" }, String(places[i])),
            h("th", { scope: "row" }, this.name(s)),
            match ? h("td", { class: "num" }, String(v.legs[s])) : null,
            h("td", { class: "num" }, String(v.totals[s])),
          ),
        ),
      ),
    );
  }

  renderOver() {
    const v = /** @type {Json} */ (this.view);
    const winner = this.over ? this.over.winner : v && v.phase === "over" ? v.winner : null;
    if (winner === null || winner === undefined) {
      this.overBox.hidden = true;
      return;
    }
    const reason = this.over ? reasonText(this.over.reason) : "";
    const url = (this.over && this.over.record_url) || `/api/games/${encodeURIComponent(this.room)}/record`;
    const title =
      winner === this.seat
        ? T.youWin
        : reason
          ? T.wins(this.name(winner), reason)
          : T.evGameEnded(this.name(winner));
    replaceChildren(
      this.overBox,
      h("h2", {}, T.gameOver),
      h("p", { class: "winner" }, title, winner === this.seat && reason ? ` (${reason})` : ""),
      this.standings(winner),
      h(
        "div",
        { class: "over-actions" },
        h("a", { class: "button", href: url, download: `roppyakken-${this.room}.json` }, T.downloadRecord),
        h("a", { class: "button", href: `/#/replay?room=${encodeURIComponent(this.room)}` }, T.watchReplay),
        h("a", { class: "button primary", href: "/" }, T.newGame),
      ),
    );
    this.overBox.hidden = false;
  }
}
