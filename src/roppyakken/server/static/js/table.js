// The game table's driver: it takes the messages of its move source (the room's websocket, the
// tutorial's script; types.js MoveSource), keeps the seat's view (SeatView.to_json()) and the
// flow of the game (the round's end, the game's end), has the seat's moves sent (tablemoves.js)
// and its views draw: the status line (tablestatus.js), the players and the yaku progress
// (tableplayers.js), the field (tablefield.js), the hand (tablehand.js), the prompt
// (tableprompt.js), hints and the round's review (tablehints.js, tablereview.js), the log
// (tablelog.js), the round's end and the game's end (tableend.js), a tournament's table
// (tabletournament.js); with its sounds
// (tablecues.js) and the keyboard focus (tablefocus.js).

import T, { distinctNames } from "./text.js";
import { h, replaceChildren } from "./dom.js";
import { flip, snapshot } from "./animate.js";
import { viewAtRoundEnd } from "./seatview.js";
import { StatusBar } from "./tablestatus.js";
import { PlayersView, ProgressPanel } from "./tableplayers.js";
import { FieldView } from "./tablefield.js";
import { HandView } from "./tablehand.js";
import { PromptView } from "./tableprompt.js";
import { HintsView } from "./tablehints.js";
import { ReviewBox } from "./tablereview.js";
import { LogView } from "./tablelog.js";
import { GameOver, showRoundEnd } from "./tableend.js";
import { TableTournament } from "./tabletournament.js";
import { TableCues } from "./tablecues.js";
import { TableFocus } from "./tablefocus.js";
import { TableMoves } from "./tablemoves.js";

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
  /** @type {HTMLElement} the table itself: everything but the side panels */ main;
  /** @type {HTMLElement} */ side;
  /** @type {HTMLElement} */ el;
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
    this.tournament = new TableTournament(this);
    this.progress = new ProgressPanel(this);
    this.cues = new TableCues(this);
    this.focus = new TableFocus(this);
    this.moves = new TableMoves(this);
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
      h("section", { class: "panel" }, h("h2", {}, T.progress), this.progress.el),
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
    this.pending = this.moves.settle(view, seq);
    this.error = "";
    this.hints.newState(seq);
    if (this.selected && (!view.hand.includes(this.selected) || !view.legal.length)) this.selected = null;
    this.el.dataset.players = String(view.players);
    this.cues.state(prev, view);
    this.render();
    // The focus goes to the decision at once, while the cards still glide into place.
    if (view.legal.length && !this.selected && !this.spectator) this.focus.decision();
    const sameRound = prev && prev.round === view.round && prev.leg === view.leg;
    if (sameRound && !this.fast()) await flip(this.main, before, this.origins);
    this.origins.clear();
    this.moves.autoTake();
  }

  /**
   * The hook of a game clock: call it when this seat's time is running out (a warning sound).
   * @returns {void}
   */
  clockRunningOut() {
    this.cues.clockRunningOut();
  }

  /** @param {GameEvent[]} events */
  async onEvents(events) {
    for (const ev of events) {
      this.log.add(ev);
      this.sinceState.push(ev);
      this.cues.event(ev);
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

  // ------------------------------------------------------------------ drawing

  render() {
    if (!this.view) return;
    const focused = this.main.contains(document.activeElement);
    this.status.render();
    this.players.render();
    this.field.render();
    this.hand.render();
    this.prompt.render();
    this.progress.render();
    this.gameOver.render();
    this.hints.mark();
    if (focused) this.focus.keep();
  }

  /** @param {boolean} [force] */
  focusHand(force = true) {
    this.hand.focus(force);
  }
}
