// What the table derives from the seat's view (types.js SeatView): the plays of a hand card, the
// choices that differ (roppyakken.choices, sent beside the legal actions) and what they give, and
// the view as a round ended (its last plays applied). Pure functions: no page, no connection.

import T, { yakuName } from "./text.js";

/**
 * @typedef {import("./types.js").SeatView} SeatView
 * @typedef {import("./types.js").Action} Action
 * @typedef {import("./types.js").Choice} Choice
 * @typedef {import("./types.js").GameEvent} GameEvent
 * @typedef {Extract<Action, {type: "play"}>} PlayAction
 * @typedef {Extract<Action, {type: "take"}>} TakeAction
 */

/**
 * The legal plays of a hand card.
 * @param {SeatView} view
 * @param {string} slug
 * @returns {PlayAction[]}
 */
export function playsOf(view, slug) {
  return view.legal.filter(/** @returns {a is PlayAction} */ (a) => a.type === "play" && a.card === slug);
}

/**
 * The legal takes of the turned-up card.
 * @param {SeatView} view
 * @returns {TakeAction[]}
 */
export function takesOf(view) {
  return view.legal.filter(/** @returns {a is TakeAction} */ (a) => a.type === "take");
}

/**
 * The choice of a legal action (one of `view.legal`), or null.
 * @param {SeatView} view
 * @param {Choice[]} choices
 * @param {Action} action
 * @returns {Choice | null}
 */
export function choiceOf(view, choices, action) {
  const i = view.legal.indexOf(action);
  return i >= 0 && choices[i] ? choices[i] : null;
}

/**
 * The actions that differ: an action equivalent to an earlier one (same points and yaku progress) is left out.
 * @template {Action} A
 * @param {SeatView} view
 * @param {Choice[]} choices
 * @param {A[]} actions
 * @returns {A[]}
 */
export function distinct(view, choices, actions) {
  return actions.filter((a) => {
    const c = choiceOf(view, choices, a);
    return !c || c.same_as === null || c.same_as === undefined;
  });
}

/**
 * What a choice gives, when choices differ: "+10 card points · Blue Ribbons (Aotan) 2/3".
 * @param {SeatView} view
 * @param {Choice[]} choices
 * @param {Action} action
 * @returns {string}
 */
export function choiceText(view, choices, action) {
  const c = choiceOf(view, choices, action);
  if (!c) return "";
  const parts = [c.points ? T.choiceGives(c.points) : T.choiceNothing];
  for (const y of c.yaku || []) parts.push(T.choiceYaku(yakuName(y.slug), y.after, y.needed));
  return parts.join(" · ");
}

/**
 * The table as the round ended: the last plays (whose state never comes, the next state being
 * the next deal) applied to the last state, the captures and totals from the round's end, and
 * nobody to act.
 * @param {SeatView} view  the last state
 * @param {GameEvent[]} since  the events since that state
 * @param {number | null} seat  the viewer's seat
 * @param {{captures?: string[][], totals?: number[]}} end  the `round_end`
 * @returns {SeatView}
 */
export function viewAtRoundEnd(view, since, seat, end) {
  /** @type {SeatView} */
  const v = JSON.parse(JSON.stringify(view));
  /** @param {string[]} list @param {string} card */
  const drop = (list, card) => list.filter((s) => s !== card);
  for (const ev of since) {
    if (ev.type === "turned") {
      v.turned = ev.card;
      v.pile_count = Math.max(0, v.pile_count - 1);
    } else if (ev.type === "played") {
      if (ev.source === "pile") v.turned = null;
      else {
        v.hand = ev.seat === seat ? drop(v.hand, ev.card) : v.hand;
        v.hand_sizes[ev.seat] = Math.max(0, v.hand_sizes[ev.seat] - 1);
        v.revealed[ev.seat] = drop(v.revealed[ev.seat] || [], ev.card);
      }
      if (ev.captured.length) v.table = v.table.filter((s) => !ev.captured.includes(s));
      else v.table = [...v.table, ev.card];
    }
  }
  if (end.captures && end.captures.length === v.players) v.captures = end.captures;
  if (end.totals && end.totals.length === v.players) v.totals = end.totals;
  v.legal = [];
  v.to_act = -1;
  return v;
}
