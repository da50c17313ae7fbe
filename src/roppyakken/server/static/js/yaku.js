// Yaku card lists (RULES.md) and each player's progress towards them.

import { SET_YAKU, YAKU_ORDER as YAKU_SLUGS } from "./catalog.js";
import { KINDS, SLUGS, kindOf } from "./deck.js";

/** the cards of every yaku that is "these cards, all captured" (from roppyakken.yaku). */
export { SET_YAKU };

/** Every yaku in display order (the engine's YAKU_SLUGS). */
export const YAKU_ORDER = YAKU_SLUGS;

/**
 * A card of a yaku and where it is: "held" (captured by this seat), "gone" (captured by
 * someone else) or "missing".
 * @typedef {{slug: string, state: "held" | "gone" | "missing"}} CardState
 */

/**
 * A seat's progress towards one yaku.
 * @typedef {{slug: string, points: number, cards: CardState[], held: number, need: number,
 *   count: boolean, done: boolean, impossible: boolean}} ProgressEntry
 */

export const RIBBONS = SLUGS.filter((s) => kindOf(s) === "ribbon");

/**
 * The cards a yaku needs under these options (R-8.4: the warbler may join Four Brights).
 * @param {string} slug
 * @param {import("./types.js").RuleOptions | null | undefined} options
 * @returns {string[]}
 */
export function yakuCards(slug, options) {
  if (slug === "seven-ribbons") return sevenRibbonCards(options);
  const cards = SET_YAKU[slug] || [];
  if (slug === "four-brights" && options && options.four_brights_needs_warbler) {
    return [...cards.slice(0, 1), "plum-warbler", ...cards.slice(1)];
  }
  return cards;
}

/**
 * The ribbons that count towards Seven Ribbons (R-8.4 seven_ribbons_willow).
 * @param {import("./types.js").RuleOptions | null | undefined} options
 * @returns {string[]}
 */
export function sevenRibbonCards(options) {
  const mode = (options && options.seven_ribbons_willow) || "any";
  return mode === "exclude" ? RIBBONS.filter((s) => s !== "willow-ribbon") : RIBBONS;
}

/**
 * The enabled yaku with their values, in display order.
 * @param {import("./types.js").RuleOptions | null | undefined} options
 * @returns {{slug: string, points: number}[]}
 */
export function enabledYaku(options) {
  const table = (options && options.yaku) || {};
  return YAKU_ORDER.filter((slug) => slug in table).map((slug) => ({ slug, points: table[slug] }));
}

/**
 * Progress of `seat` towards every enabled yaku.
 * `captures` is one list of slugs per seat.  Each entry has the cards with a state —
 * "held" (captured by this seat), "gone" (captured by someone else) or "missing" — and
 * `done` / `impossible` flags.
 * @param {import("./types.js").RuleOptions} options
 * @param {string[][]} captures
 * @param {number} seat
 * @returns {ProgressEntry[]}
 */
export function yakuProgress(options, captures, seat) {
  const mine = new Set(captures[seat] || []);
  /** @type {Set<string>} */
  const others = new Set();
  captures.forEach((list, i) => {
    if (i !== seat) for (const s of list) others.add(s);
  });
  /** @param {string} s @returns {CardState["state"]} */
  const state = (s) => (mine.has(s) ? "held" : others.has(s) ? "gone" : "missing");
  /** @type {ProgressEntry[]} */
  const out = [];
  for (const { slug, points } of enabledYaku(options)) {
    if (slug === "seven-ribbons") {
      const eligible = sevenRibbonCards(options);
      const cards = eligible.map((s) => ({ slug: s, state: state(s) }));
      const held = cards.filter((c) => c.state === "held").length;
      const open = cards.filter((c) => c.state === "missing").length;
      const requireWillow = options.seven_ribbons_willow === "require";
      const willowGone = requireWillow && others.has("willow-ribbon");
      const willowHeld = !requireWillow || mine.has("willow-ribbon");
      out.push({
        slug,
        points,
        cards,
        held,
        need: 7,
        count: true,
        done: held >= 7 && willowHeld,
        impossible: held + open < 7 || willowGone,
      });
      continue;
    }
    const cards = yakuCards(slug, options).map((s) => ({ slug: s, state: state(s) }));
    const held = cards.filter((c) => c.state === "held").length;
    out.push({
      slug,
      points,
      cards,
      held,
      need: cards.length,
      count: false,
      done: held === cards.length,
      impossible: cards.some((c) => c.state === "gone"),
    });
  }
  return out;
}

/**
 * Progress entries ordered for display: complete, then possible by share held, then impossible.
 * @param {ProgressEntry[]} entries
 * @returns {ProgressEntry[]}
 */
export function sortedProgress(entries) {
  /** @param {ProgressEntry} e */
  const rank = (e) => (e.done ? 0 : e.impossible ? 2 : 1);
  return [...entries].sort((a, b) => rank(a) - rank(b) || b.held / b.need - a.held / a.need);
}

/**
 * Captured cards grouped by kind, in capture order within each kind.
 * @param {Iterable<string>} slugs
 * @returns {Record<string, string[]>}
 */
export function byKind(slugs) {
  /** @type {Record<string, string[]>} */
  const groups = Object.fromEntries(KINDS.map((k) => [k, []]));
  for (const s of slugs) groups[kindOf(s)].push(s);
  return groups;
}
