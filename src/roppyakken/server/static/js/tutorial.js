// The guided first game (#/learn): one scripted round on the real table, one step at a time.
//
// The script is /static/tutorial.json, generated from roppyakken.tutorial by
// roppyakken.devtools.tutorialjson: the steps (what to do, the moves that do it, what it
// taught) and, for each answer to the lucky-hand question, the server messages the table
// receives after each move.  The table (table.js) is driven through a stand-in connection:
// a move a step accepts brings the next messages and the step's explanation; any other
// move is refused with a word on what the step asks for, and changes nothing.

import { resolveRules } from "./api.js";
import { usePreset } from "./decks.js";
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { getName } from "./store.js";
import { GameView } from "./table.js";

/**
 * @typedef {import("./wire").ServerMessage[]} Batch  The server's messages of one change (tutorial.json).
 * @typedef {{id: string, message: string, explanation: string, accepts: object[], cards: string[]}} Step
 * @typedef {{preset: string, learner: number, steps: Step[], paths: Record<string, Batch[][]>}} Script
 */

const SCRIPT_URL = "/static/tutorial.json";

/** The invitation on the start page. @returns {HTMLElement} */
export function tutorialInvite() {
  return h(
    "p",
    { class: "tutorial-invite" },
    h("strong", {}, t("New to Roppyakken?")),
    " ",
    h("a", { href: "/#/learn", id: "tutorial-link" }, t("Learn it in a guided first game")),
  );
}

/**
 * Whether two actions are the same move (their JSON, as the server writes it).
 * @param {object} a
 * @param {object} b
 */
function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Draw the tutorial page.
 * @param {HTMLElement} root
 */
export async function tutorialPage(root) {
  replaceChildren(root, h("p", { class: "muted" }, t("Loading…")));
  /** @type {Script} */
  let script;
  /** @type {{preset: string, options: object}} */
  let rules;
  try {
    const res = await fetch(SCRIPT_URL);
    if (!res.ok) throw new Error(`${res.status}`);
    script = await res.json();
    rules = await resolveRules({ preset: script.preset });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    replaceChildren(root, h("p", { class: "error", role: "alert" }, t("Error: ") + message));
    return;
  }
  usePreset(script.preset);
  new Tutorial(root, script, rules).start();
}

class Tutorial {
  /**
   * @param {HTMLElement} root
   * @param {Script} script
   * @param {{preset: string, options: object}} rules
   */
  constructor(root, script, rules) {
    this.root = root;
    this.script = script;
    this.steps = script.steps;
    /** The way through the script, chosen by the answer to the lucky-hand question. */
    this.path = script.paths.keep;
    this.index = 0;
    this.moves = 0;
    /** Whether the current step's move was made (its explanation is shown). */
    this.done = false;
    this.busy = false;
    this.names = [getName() || t("Player"), t("Teacher")];

    this.counter = h("p", { class: "tutorial-counter muted" });
    this.message = h("p", { class: "tutorial-message" });
    this.explanation = h("p", { class: "tutorial-explanation", hidden: true });
    this.feedback = h("p", { class: "tutorial-feedback", role: "alert", hidden: true });
    this.next = h("button", { type: "button", class: "primary tutorial-next", onclick: () => this.advance() });
    this.finish = h("p", { class: "tutorial-finish", hidden: true });
    this.panel = h(
      "section",
      { class: "tutorial-panel card-panel", "aria-label": t("Guided first game"), id: "tutorial-panel" },
      h("h1", {}, t("Guided first game")),
      this.counter,
      h("div", { "aria-live": "polite" }, this.message, this.explanation),
      this.feedback,
      h("div", { class: "tutorial-actions" }, this.next),
      this.finish,
    );
    const host = h("div", { class: "tutorial-table" });
    replaceChildren(root, h("div", { class: "tutorial" }, this.panel, host));
    const conn = {
      open: true,
      backlog: 0,
      /** @param {import("./wire").ClientMessage} msg */
      send: (msg) => this.onSend(msg),
    };
    this.game = new GameView(host, { room: "tutorial", seat: script.learner, conn, rules, description: "" });
    this.pointer = new MutationObserver(() => this.point());
    this.pointer.observe(host, { childList: true, subtree: true });
  }

  async start() {
    for (const batch of this.path[0]) await this.deliver(batch);
    this.show();
  }

  /** @returns {Step | undefined} */
  get step() {
    return this.steps[this.index];
  }

  /** Draw the current step: what to do, or (a step that is only read) what to know. */
  show() {
    const step = this.step;
    if (!step) return;
    const waits = step.accepts.length > 0;
    this.done = !waits;
    this.counter.textContent = t("Step {n} of {total}", { n: this.index + 1, total: this.steps.length });
    this.message.textContent = t(step.message);
    this.explanation.textContent = waits ? "" : t(step.explanation);
    this.explanation.hidden = waits;
    this.feedback.hidden = true;
    this.next.textContent = this.index === this.steps.length - 1 ? t("Finish") : t("Next");
    this.next.hidden = waits;
    this.panel.dataset.step = step.id;
    this.panel.dataset.waiting = waits ? "move" : "next";
    this.point();
    if (!waits) this.next.focus();
    else this.focusMove();
  }

  /** Put the keyboard where the step's move is made: the prompt's buttons, or the hand. */
  focusMove() {
    const where = this.root.querySelector(
      ".tutorial-table .prompt-actions button.act, .tutorial-table .hand button.card[tabindex='0']",
    );
    if (where instanceof HTMLElement) where.focus();
  }

  /** Mark the cards the step is about (and drop the record and replay links: the lesson has none). */
  point() {
    for (const a of this.root.querySelectorAll(".over-actions a:not(.primary)")) a.remove();
    const wanted = new Set(this.step ? this.step.cards : []);
    for (const el of this.root.querySelectorAll(".tutorial-table .card[data-slug]")) {
      if (!(el instanceof HTMLElement)) continue;
      const on = wanted.has(el.dataset.slug || "");
      if (el.classList.contains("tutorial-point") !== on) el.classList.toggle("tutorial-point", on);
    }
  }

  /** The Next button: past a step that is read, or past a move's explanation. */
  advance() {
    if (this.busy || !this.done) return;
    this.index += 1;
    if (this.index >= this.steps.length) {
      this.end();
      return;
    }
    this.show();
  }

  end() {
    this.pointer.disconnect();
    this.counter.textContent = "";
    this.message.textContent = t("That was the whole tutorial. You know enough to play a real game.");
    this.explanation.hidden = true;
    this.next.hidden = true;
    this.panel.dataset.step = "end";
    this.panel.dataset.waiting = "";
    replaceChildren(
      this.finish,
      h("a", { class: "button primary", href: "/", id: "tutorial-play" }, t("Play a game against a bot")),
      " ",
      h("a", { class: "button", href: "/#/learn", onclick: () => location.reload() }, t("Start the tutorial again")),
    );
    this.finish.hidden = false;
    const play = this.finish.querySelector("a");
    if (play) play.focus({ preventScroll: true });
  }

  /**
   * A message from the table: a move (anything else, such as a hint request, is ignored).
   * @param {import("./wire").ClientMessage} msg
   */
  onSend(msg) {
    if (msg.type !== "act" || this.busy) return;
    const accepts = (/** @type {Step | undefined} */ s) => !!s && s.accepts.some((a) => sameAction(a, msg.action));
    if (this.done && accepts(this.steps[this.index + 1])) {
      // The next step's move, made before pressing Next: go on to that step and take it.
      this.index += 1;
      this.show();
    }
    const step = this.step;
    if (!step || this.done || !accepts(step)) {
      const why = step && !this.done ? t(step.message) : t("Press Next to go on.");
      this.feedback.textContent = t("Not this move, in this lesson. {why}", { why });
      this.feedback.hidden = false;
      this.game.onError(t("Not this move, in this lesson."));
      return;
    }
    this.busy = true;
    this.feedback.hidden = true;
    if (msg.action.type === "declare") {
      this.path = msg.action.hands?.length ? this.script.paths.declare : this.script.paths.keep;
    }
    this.moves += 1;
    const batches = this.path[this.moves];
    // Answered after the table has finished sending (as the server's reply would be).
    setTimeout(async () => {
      for (const batch of batches) await this.deliver(batch);
      this.busy = false;
      this.done = true;
      this.explanation.textContent = t(step.explanation);
      this.explanation.hidden = false;
      this.panel.dataset.waiting = "next";
      this.next.hidden = false;
      this.next.focus();
    }, 0);
  }

  /**
   * Hand one change's messages to the table, as the room page does with the server's.
   * @param {Batch} batch
   */
  async deliver(batch) {
    // The players are named on this page (the learner's own name), not by the script.
    for (const msg of batch) await this.game.receive(msg.type === "state" ? { ...msg, names: this.names } : msg);
    this.point();
  }
}
