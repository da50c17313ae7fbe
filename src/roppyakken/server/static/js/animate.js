// Brief animations so a player can follow what the others did: a "ghost" card flies from
// where a card was played to what it takes, then every card glides from its old place to
// its new one (FLIP: first, last, invert, play).  Skipped when the user prefers reduced motion.

import { deckUrl } from "./decks.js";

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Whether animations run, and how fast.  localStorage "roppyakken-motion" = "off" turns them
 * off and "roppyakken-speed" = a number speeds them up (impatient players, automated tests).
 */
export const motion = { enabled: true, speed: 1 };
try {
  motion.enabled = localStorage.getItem("roppyakken-motion") !== "off";
  const speed = Number(localStorage.getItem("roppyakken-speed"));
  if (speed > 0) motion.speed = speed;
} catch {
  /* storage disabled: defaults */
}

/**
 * @param {number} duration
 * @returns {number}
 */
function ms(duration) {
  if (!motion.enabled || reduced()) return 0;
  return Math.round(duration / motion.speed);
}

/**
 * The page rectangle of every card element (by data-slug) under `root`.
 * @param {ParentNode} root
 * @returns {Map<string, DOMRect>}
 */
export function snapshot(root) {
  /** @type {Map<string, DOMRect>} */
  const rects = new Map();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-slug]"))) {
    const r = el.getBoundingClientRect();
    if (r.width > 0) rects.set(el.dataset.slug ?? "", r);
  }
  return rects;
}

/** @param {number} t */
const wait = (t) => new Promise((resolve) => setTimeout(resolve, t));

/**
 * Animate the cards now under `root` from their rectangles in `before` (or `origins`, for
 * cards that were not visible before) to where they are now.
 * @param {ParentNode} root
 * @param {Map<string, DOMRect>} before
 * @param {Map<string, DOMRect>} origins
 * @param {number} [duration]
 * @returns {Promise<void>}
 */
export async function flip(root, before, origins, duration = 320) {
  const t = ms(duration);
  if (!t) return;
  const anims = [];
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-slug]"))) {
    const now = el.getBoundingClientRect();
    if (!now.width) continue;
    const was = before.get(el.dataset.slug ?? "") || origins.get(el.dataset.slug ?? "");
    if (!was) continue;
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    const s = was.width / now.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(s - 1) < 0.02) continue;
    anims.push(
      el
        .animate(
          [
            { transform: `translate(${dx}px, ${dy}px) scale(${s})`, transformOrigin: "top left", zIndex: 50 },
            { transform: "none", transformOrigin: "top left", zIndex: 50 },
          ],
          { duration: t, easing: "cubic-bezier(.2,.7,.3,1)" },
        )
        .finished.catch(() => {}),
    );
  }
  await Promise.all(anims);
}

/**
 * Fly a face-up copy of `slug` from rectangle `from` to rectangle `to`, then hold briefly.
 * @param {string} slug
 * @param {DOMRect | null | undefined} from
 * @param {DOMRect | null | undefined} to
 * @param {{duration?: number, hold?: number}} [options]
 * @returns {Promise<void>}
 */
export async function ghost(slug, from, to, { duration = 340, hold = 160 } = {}) {
  const t = ms(duration);
  if (!t || !from || !to) return;
  const img = document.createElement("img");
  img.src = deckUrl(slug);
  img.alt = "";
  img.className = "ghost-card";
  Object.assign(img.style, {
    left: `${from.left}px`,
    top: `${from.top}px`,
    width: `${to.width || from.width}px`,
  });
  document.body.append(img);
  const dx = to.left - from.left;
  const dy = to.top - from.top;
  await img
    .animate([{ transform: "translate(0,0)" }, { transform: `translate(${dx}px, ${dy}px)` }], {
      duration: t,
      easing: "cubic-bezier(.2,.7,.3,1)",
      fill: "forwards",
    })
    .finished.catch(() => {});
  await wait(ms(hold));
  img.remove();
}

/**
 * Briefly mark an element (e.g. the player who just played).
 * @param {Element | null | undefined} el
 */
export function pulse(el) {
  if (!el || !ms(100)) return;
  el.animate([{ boxShadow: "0 0 0 0 var(--accent)" }, { boxShadow: "0 0 0 6px transparent" }], {
    duration: ms(600),
  });
}
