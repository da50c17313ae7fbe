// The yaku-progress panel: for every player, each enabled yaku with its cards held, missing,
// or gone (captured by someone else, so the yaku is impossible).  States are shown by icon,
// text and pattern as well as colour (colour-blind safe).  Yaku under way come first; those
// not started and those made impossible are folded away.

import { cardName, cardUrl } from "./deck.js";
import T, { yakuName } from "./text.js";
import { h } from "./dom.js";
import { sortedProgress, yakuProgress } from "./yaku.js";

/** @type {Record<string, string>} */
const STATE_TEXT = { held: T.progressHeld, missing: T.progressMissing, gone: T.progressGone };

/** @param {import("./yaku.js").CardState} card */
function chip(card) {
  const label = T.labelled(cardName(card.slug), STATE_TEXT[card.state]);
  return h(
    "span",
    { class: `chip ${card.state}`, title: label },
    h("img", { src: cardUrl(card.slug), alt: label }),
  );
}

/** @param {import("./yaku.js").ProgressEntry} e */
function entry(e) {
  const status = e.done ? "done" : e.impossible ? "impossible" : "open";
  const icon = e.done ? "✓" : e.impossible ? "✗" : `${e.held}/${e.need}`;
  let label = `${e.held}/${e.need}`;
  if (e.done) label = T.progressDone;
  else if (e.impossible) label = T.progressImpossible;
  else if (e.count) label = T.ribbonsCount(e.held, e.need);
  return h(
    "li",
    { class: `yaku-entry ${status}`, dataset: { yaku: e.slug } },
    h(
      "span",
      { class: "yaku-icon", title: label },
      h("span", { "aria-hidden": "true" }, icon),
      h("span", { class: "sr-only" }, label),
    ),
    h("span", { class: "yaku-name" }, yakuName(e.slug)),
    h("span", { class: "yaku-points" }, e.points),
    h("span", { class: "yaku-chips" }, e.cards.map(chip)),
  );
}

/**
 * A folded group of entries whose open/closed state survives redraws (kept in `openState`).
 * @param {string} title
 * @param {string} cls
 * @param {import("./yaku.js").ProgressEntry[]} entries
 * @param {string} key
 * @param {Record<string, boolean>} openState
 * @param {boolean} [openByDefault]
 */
function group(title, cls, entries, key, openState, openByDefault = false) {
  if (!entries.length) return null;
  const el = h(
    "details",
    { class: cls },
    h("summary", {}, `${title} (${entries.length})`),
    h("ul", { class: "yaku-list" }, entries.map(entry)),
  );
  el.open = key in openState ? openState[key] : openByDefault;
  el.addEventListener("toggle", () => {
    openState[key] = el.open;
  });
  return el;
}

/**
 * Render the panel.  `openSeat` is the player whose list is open at first (the viewer's own).
 * @param {import("./types.js").RuleOptions} options   rule options (yaku table and R-8.4 options)
 * @param {string[][]} captures  slugs per seat
 * @param {string[]} names  the players' display names
 * @param {number | null} openSeat
 * @param {Record<string, boolean>} [openState]  which sections are open, kept by the caller across redraws
 */
export function renderProgress(options, captures, names, openSeat, openState = {}) {
  const sections = captures.map((_, seat) => {
    const entries = sortedProgress(yakuProgress(options, captures, seat));
    const live = entries.filter((e) => e.done || (!e.impossible && e.held > 0));
    const idle = entries.filter((e) => !e.impossible && e.held === 0);
    const dead = entries.filter((e) => e.impossible && !e.done);
    const done = entries.filter((e) => e.done).length;
    const summary = `${live.length - done} ${T.progressUnderway}` + (done ? ` · ✓ ${done}` : "");
    return seatSection(seat, names, summary, live, idle, dead, openState, seat === openSeat);
  });
  return h("div", { class: "progress" }, sections);
}

/**
 * @param {number} seat
 * @param {string[]} names
 * @param {string} summary
 * @param {import("./yaku.js").ProgressEntry[]} live
 * @param {import("./yaku.js").ProgressEntry[]} idle
 * @param {import("./yaku.js").ProgressEntry[]} dead
 * @param {Record<string, boolean>} openState
 * @param {boolean} openByDefault
 */
function seatSection(seat, names, summary, live, idle, dead, openState, openByDefault) {
  const key = String(seat);
  const el = h(
    "details",
    { class: "progress-seat", dataset: { seat: key } },
    h(
      "summary",
      {},
      h("span", { class: "ps-name" }, names[seat] || T.seatN(seat)),
      h("span", { class: "ps-count muted" }, ` — ${summary}`),
    ),
    live.length
      ? h("ul", { class: "yaku-list" }, live.map(entry))
      : h("p", { class: "muted ps-none" }, T.progressNone),
    group(T.progressNotStarted, "progress-idle", idle, `${key}:idle`, openState),
    group(T.progressImpossible, "progress-dead", dead, `${key}:dead`, openState),
  );
  el.open = key in openState ? openState[key] : openByDefault;
  el.addEventListener("toggle", () => {
    openState[key] = el.open;
  });
  return el;
}
