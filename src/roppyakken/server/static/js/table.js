// The game table's driver: it takes the messages of its move source (the room's websocket, the
// tutorial's script; types.js MoveSource), keeps the seat's view (SeatView.to_json()) and the
// flow of the game (a move in flight, the round's end, the game's end), sends the actions chosen
// among the view's legal actions, and has its views draw: the status line (tablestatus.js), the
// players (tableplayers.js), the field (tablefield.js), the hand (tablehand.js), the prompt
// (tableprompt.js), hints and the round's review (tablehints.js, tablereview.js), the log
// (tablelog.js), the round's end and the game's end (tableend.js).

import T, { distinctNames } from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { yakuProgress } from "./yaku.js";
import { renderProgress } from "./progress.js";
import { flip, snapshot } from "./animate.js";
import { Sounds } from "./sound.js";
import { distinct, takesOf, viewAtRoundEnd } from "./seatview.js";
import { cardName, cardNames } from "./deck.js";
import { StatusBar } from "./tablestatus.js";
import { PlayersView } from "./tableplayers.js";
import { FieldView } from "./tablefield.js";
import { HandView } from "./tablehand.js";
import { PromptView } from "./tableprompt.js";
import { HintsView } from "./tablehints.js";
import { ReviewBox } from "./tablereview.js";
import { LogView } from "./tablelog.js";
import { GameOver, showRoundEnd } from "./tableend.js";

/**
 * @typedef {import("./types.js").SeatView} SeatView
 * @typedef {import("./types.js").Action} Action
 * @typedef {import("./types.js").Choice} Choice
 * @typedef {import("./types.js").GameEvent} GameEvent
 * @typedef {import("./wire").RoomInfo} RoomInfo
 */

/**
 * What a table needs: its room, the viewer's seat (null for a spectator), its move source (`conn`:
 * the room's connection), the rules, the preset's description, the room's info, a notice to show
 * and the room's clocks (drawn beside each player's name and in the status line).
 * @typedef {{room: string, seat: number | null, conn: import("./types.js").MoveSource,
 *   rules: import("./types.js").RulesInfo, description?: string, roomInfo?: RoomInfo | null,
 *   notice?: string, clocks?: import("./clock.js").ClockBar}} TableContext
 */

export class GameView {
  /** @type {HTMLElement} the table's side of the decisions: everything but the side panels */ main;
  /** @type {HTMLElement} */ side;
  /** @type {HTMLElement} */ el;
  /** @type {HTMLElement} */ progressHost;
  /** @type {MediaQueryList} */ narrow;
  /** @type {string} */ connStatus = "";

  /**
   * @param {HTMLElement} root
   * @param {TableContext} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.room = ctx.room;
    this.seat = ctx.seat;
    this.source = ctx.conn;
    this.rules = ctx.rules;
    this.description = ctx.description || "";
    this.roomInfo = ctx.roomInfo || null;
    this.notice = ctx.notice || "";
    this.clocks = ctx.clocks || null;
    /** @type {SeatView | null} the seat's view of the game (docs/PROTOCOL.md "state") */
    this.view = null;
    this.seq = -1;
    /** @type {Choice[]} what each legal action gives, when the server sent it */
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
    /** @type {import("./wire").GameEndMessage | null} */
    this.over = null;
    /** @type {Map<string, DOMRect>} where cards that just moved were drawn (they glide from there) */
    this.origins = new Map();
    /** @type {Record<string, boolean>} */
    this.progressOpen = {};
    this.sounds = new Sounds(this.spectator);
    /** @type {Set<string> | null} the yaku complete at the last state, by "seat:slug" */
    this.yakuDone = null;
    /** @type {GameEvent[]} the events since the last state */
    this.sinceState = [];
    /** @type {number | null} */
    this.roundOver = null;
    this.status = new StatusBar(this);
    this.players = new PlayersView(this);
    this.field = new FieldView(this);
    this.hand = new HandView(this);
    this.prompt = new PromptView(this);
    this.hints = new HintsView(this);
    this.review = new ReviewBox(this);
    this.log = new LogView(this);
    this.gameOver = new GameOver(this);
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
    return seats.length > 0 && seats.every((s, i) => i === this.seat || s.kind === "bot");
  }

  build() {
    this.progressHost = h("div", { class: "progress-host" });
    this.main = h(
      "div",
      { class: "game-main" },
      this.status.el,
      this.players.opponents,
      h("div", { class: "field" }, h("div", { class: "pile-area" }, this.field.pile, this.field.turnedSlot), this.field.tableCards),
      this.players.meArea,
      this.gameOver.box,
      this.prompt.el,
      this.hand.el,
      this.hand.legend,
    );
    this.side = h(
      "aside",
      { class: "game-side" },
      this.hints.host,
      h("section", { class: "panel" }, h("h2", {}, T.progress), this.progressHost),
      h("section", { class: "panel" }, h("h2", {}, T.log), this.log.list),
    );
    this.el = h("div", { class: "game" }, this.main, this.side);
    replaceChildren(this.root, this.el);
    this.narrow = window.matchMedia("(max-width: 900px)");
    this.narrow.addEventListener("change", () => this.hints.place());
    this.hints.place();
    this.el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.selected) {
        this.selected = null;
        this.render();
        this.focusHand();
      }
    });
  }

  // ------------------------------------------------------------------ messages

  /**
   * A message of the move source that is the table's (the game's history, states, events, ends,
   * hints and reviews); the others are the room's, and left alone.
   * @param {import("./wire").ServerMessage} msg
   * @returns {Promise<void>}
   */
  async receive(msg) {
    // The schema leaves the view, the events and the choices open: their shapes are types.js's.
    switch (msg.type) {
      case "history":
        this.onHistory(/** @type {GameEvent[]} */ (msg.events || []));
        break;
      case "state":
        await this.onState(/** @type {SeatView} */ (msg.view), msg.names, msg.seq, /** @type {Choice[]} */ (msg.choices || []));
        break;
      case "events":
        await this.onEvents(/** @type {GameEvent[]} */ (msg.events || []));
        break;
      case "round_end":
        await this.onRoundEnd(msg);
        break;
      case "game_end":
        this.onGameEnd(msg);
        break;
      case "hint":
        this.onHint(msg);
        break;
      case "review":
        this.onReview(msg);
        break;
      default:
        break;
    }
  }

  /** @param {RoomInfo} info */
  setRoomInfo(info) {
    this.roomInfo = info;
    if (this.view) this.players.render();
  }

  /** @param {string} status */
  setConnection(status) {
    this.connStatus = status;
    if (this.view) {
      this.status.render();
      this.prompt.render();
    }
  }

  /**
   * The game's public events so far (a `history` message, on connect): the log is rebuilt from them.
   * @param {GameEvent[]} events
   */
  onHistory(events) {
    this.log.reset(events);
  }

  /**
   * A move chosen when the server had the state `seq`: still unanswered when a state comes.
   * The same `seq` again means the server never applied it (the connection was lost):
   * send it again if it is still legal, or say that it was not made.
   * @param {SeatView} view
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
    const still = view.legal.find((a) => JSON.stringify(a) === wanted);
    if (!still || !this.source.open) {
      this.unsent = null;
      this.notice = T.moveOutdated;
      return false;
    }
    // With the state's seq: should the first one have been made after all, the server refuses this one.
    this.source.send({ type: "act", action: still, seq: move.seq });
    this.notice = T.moveResent;
    return true;
  }

  /**
   * @param {SeatView} view
   * @param {string[]} names
   * @param {number} [seq]
   * @param {Choice[]} [choices]
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
      this.log.render();
    }
    this.pending = this.settleUnsent(view, seq);
    this.error = "";
    this.hints.newState(seq);
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
      if (!this.hand.el.contains(active)) this.focusHand(true);
      return;
    }
    const first = this.prompt.el.querySelector(".prompt-actions button.act");
    if (first instanceof HTMLElement && !this.prompt.el.contains(active)) first.focus({ preventScroll: true });
  }

  /**
   * The sounds of a new state: your turn to play, a yaku just completed by anyone.
   * @param {SeatView | null} prev  the state before
   * @param {SeatView} view
   */
  soundCues(prev, view) {
    /** @type {Set<string>} */
    const done = new Set();
    (view.captures || []).forEach((_, seat) => {
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

  /** @param {GameEvent[]} events */
  async onEvents(events) {
    for (const ev of events) {
      this.log.add(ev);
      this.sinceState.push(ev);
      if (ev.type === "played" && !this.fast()) this.sounds.play(ev.captured.length ? "capture" : "place");
      if (this.fast() || !this.view) continue;
      if (ev.type === "played") await this.field.animatePlayed(ev);
      else if (ev.type === "turned") await this.field.animateTurned(ev);
    }
  }

  /**
   * The table as the round ended (seatview.js viewAtRoundEnd), no move in flight.
   * @param {import("./wire").RoundEndMessage} msg
   */
  settleRoundEnd(msg) {
    if (!this.view) return;
    this.view = viewAtRoundEnd(this.view, this.sinceState, this.seat, msg);
    this.sinceState = [];
    this.roundOver = msg.round;
    this.pending = false;
    this.unsent = null;
    this.selected = null;
    this.hints.hint = null;
    this.render();
  }

  /**
   * @param {import("./wire").RoundEndMessage} msg
   * @returns {Promise<void>}
   */
  onRoundEnd(msg) {
    this.settleRoundEnd(msg);
    return showRoundEnd(this, msg);
  }

  /**
   * `hint`: the expert's best plays for the decision at hand (dropped if the game moved on).
   * @param {import("./wire").HintMessage} msg
   */
  onHint(msg) {
    this.hints.onHint(msg);
  }

  /**
   * `review`: what the master would have played where this seat gave up most in a round.
   * @param {import("./wire").ReviewMessage} msg
   */
  onReview(msg) {
    this.review.onReview(msg);
  }

  /** @param {import("./wire").GameEndMessage} msg */
  onGameEnd(msg) {
    this.over = msg;
    this.gameOver.render();
  }

  /** @param {string} message */
  onError(message) {
    this.pending = false;
    this.hints.asked = -1;
    this.unsent = null;
    this.error = message;
    this.prompt.render();
  }

  /** Whether messages pile up (then the table draws without animating). */
  fast() {
    return this.source && this.source.backlog > 2;
  }

  /**
   * @param {number} seat
   * @returns {string}
   */
  name(seat) {
    return this.shownNames[seat] || T.seatN(seat);
  }

  /**
   * The log's line for an event (null: none), `prev` the event before it.
   * @param {GameEvent} ev
   * @param {GameEvent | undefined} prev
   * @returns {string | null}
   */
  eventText(ev, prev) {
    return this.log.text(ev, prev);
  }

  // ------------------------------------------------------------------ moves

  /** @param {Action} action */
  act(action) {
    if (this.pending) return;
    this.pending = true;
    this.selected = null;
    this.error = "";
    this.notice = "";
    // Kept until the server answers: a move made while the connection is down is sent once it is back.
    this.unsent = { action, seq: this.seq };
    /** @type {import("./wire").ActMessage} */
    const message = this.seq >= 0 ? { type: "act", action, seq: this.seq } : { type: "act", action };
    if (this.source.open) this.source.send(message);
    const focused = this.main.contains(document.activeElement) || this.hints.host.contains(document.activeElement);
    this.field.render();
    this.hand.render();
    this.prompt.render();
    if (focused) this.keepFocus();
  }

  /** A turned-up card whose targets are all equivalent takes one of them without asking. */
  autoTake() {
    const v = /** @type {SeatView} */ (this.view);
    if (this.pending || this.spectator || v.phase !== "take" || v.legal.length < 2) return false;
    const takes = distinct(v, this.choices, takesOf(v));
    if (takes.length !== 1 || takes.length === v.legal.length) return false;
    const note = T.autoTaken(cardName(/** @type {string} */ (v.turned)), cardNames(takes[0].target));
    this.act(takes[0]);
    this.notice = note;
    this.prompt.render();
    return true;
  }

  // ------------------------------------------------------------------ drawing

  render() {
    if (!this.view) return;
    const focused = this.main.contains(document.activeElement);
    this.status.render();
    this.players.render();
    this.field.render();
    this.hand.render();
    this.prompt.render();
    this.renderProgress();
    this.gameOver.render();
    this.hints.mark();
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

  /** @param {boolean} [force] */
  focusHand(force = true) {
    this.hand.focus(force);
  }

  renderProgress() {
    const v = /** @type {SeatView} */ (this.view);
    replaceChildren(
      this.progressHost,
      renderProgress(this.rules.options || {}, v.captures, this.shownNames, this.me, this.progressOpen),
    );
  }
}
