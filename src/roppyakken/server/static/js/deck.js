// The 48-card deck (RULES.md R-1): slugs in id order, months, kinds, points, and card elements.

import { KIND_NAMES, MONTH_NAMES, SUBJECT_NAMES } from "./text.js";

const DECK = [
  ["pine-crane", "bright"],
  ["pine-ribbon", "ribbon"],
  ["pine-chaff-1", "chaff"],
  ["pine-chaff-2", "chaff"],
  ["plum-warbler", "animal"],
  ["plum-ribbon", "ribbon"],
  ["plum-chaff-1", "chaff"],
  ["plum-chaff-2", "chaff"],
  ["cherry-curtain", "bright"],
  ["cherry-ribbon", "ribbon"],
  ["cherry-chaff-1", "chaff"],
  ["cherry-chaff-2", "chaff"],
  ["wisteria-cuckoo", "animal"],
  ["wisteria-ribbon", "ribbon"],
  ["wisteria-chaff-1", "chaff"],
  ["wisteria-chaff-2", "chaff"],
  ["iris-bridge", "animal"],
  ["iris-ribbon", "ribbon"],
  ["iris-chaff-1", "chaff"],
  ["iris-chaff-2", "chaff"],
  ["peony-butterflies", "animal"],
  ["peony-ribbon", "ribbon"],
  ["peony-chaff-1", "chaff"],
  ["peony-chaff-2", "chaff"],
  ["clover-boar", "animal"],
  ["clover-ribbon", "ribbon"],
  ["clover-chaff-1", "chaff"],
  ["clover-chaff-2", "chaff"],
  ["pampas-moon", "bright"],
  ["pampas-geese", "animal"],
  ["pampas-chaff-1", "chaff"],
  ["pampas-chaff-2", "chaff"],
  ["chrysanthemum-sake", "animal"],
  ["chrysanthemum-ribbon", "ribbon"],
  ["chrysanthemum-chaff-1", "chaff"],
  ["chrysanthemum-chaff-2", "chaff"],
  ["maple-deer", "animal"],
  ["maple-ribbon", "ribbon"],
  ["maple-chaff-1", "chaff"],
  ["maple-chaff-2", "chaff"],
  ["willow-rainman", "bright"],
  ["willow-swallow", "animal"],
  ["willow-ribbon", "ribbon"],
  ["willow-lightning", "chaff"],
  ["paulownia-phoenix", "bright"],
  ["paulownia-yellow", "chaff"],
  ["paulownia-chaff-1", "chaff"],
  ["paulownia-chaff-2", "chaff"],
];

export const SLUGS = DECK.map(([slug]) => slug);
export const KINDS = ["bright", "animal", "ribbon", "chaff"];
const ID = new Map(SLUGS.map((s, i) => [s, i]));
const KIND = new Map(DECK);

/** The card id (0..47) of a slug, or -1. */
export function cardId(slug) {
  return ID.has(slug) ? ID.get(slug) : -1;
}

/** The month (1..12) of a card slug. */
export function monthOf(slug) {
  return Math.floor(cardId(slug) / 4) + 1;
}

/** The kind of a card slug: bright, animal, ribbon or chaff. */
export function kindOf(slug) {
  return KIND.get(slug);
}

/** card points. */
export function pointsOf(slug) {
  const kind = kindOf(slug);
  if (kind === "bright" || slug === "plum-warbler") return 50;
  if (kind === "animal" || kind === "ribbon" || slug === "paulownia-yellow") return 10;
  return 0;
}

/** Total card points of a list of slugs. */
export function pointsOfAll(slugs) {
  return slugs.reduce((sum, s) => sum + pointsOf(s), 0);
}

/** Slugs of one month (1..12). */
export function monthCards(month) {
  return SLUGS.slice((month - 1) * 4, month * 4);
}

/** Sort slugs in card-id order. */
export function sortCards(slugs) {
  return [...slugs].sort((a, b) => cardId(a) - cardId(b));
}

/** A short readable card name: "Pine crane". */
export function cardName(slug) {
  const month = monthOf(slug);
  const prefix = SLUGS[(month - 1) * 4].split("-")[0];
  const rest = slug.slice(prefix.length + 1);
  return `${MONTH_NAMES[month - 1]} ${SUBJECT_NAMES[rest] || rest}`;
}

/** A longer card description: "Pine crane (bright, 50 points)". */
export function cardLabel(slug) {
  return `${cardName(slug)} (${KIND_NAMES[kindOf(slug)]}, ${pointsOf(slug)} points)`;
}

/** A list of card names joined for text. */
export function cardNames(slugs) {
  return slugs.map(cardName).join(", ");
}

/** The URL of a card face (or the back with slug "back"). */
export function cardUrl(slug) {
  return `/static/cards/${slug}.svg`;
}

/**
 * A card element: an <img> with alt text, inside a <button> when `button` is set.
 * The element carries data-slug so animations and tests can find it.
 */
export function cardElement(slug, { button = false, size = "", extraClass = "" } = {}) {
  const img = document.createElement("img");
  img.src = cardUrl(slug);
  img.alt = cardLabel(slug);
  img.draggable = false;
  img.decoding = "async";
  const wrap = document.createElement(button ? "button" : "span");
  if (button) wrap.type = "button";
  wrap.className = `card ${size} ${extraClass}`.trim();
  wrap.dataset.slug = slug;
  wrap.title = cardLabel(slug);
  wrap.appendChild(img);
  return wrap;
}

/** A face-down card element. */
export function backElement(size = "") {
  const img = document.createElement("img");
  img.src = cardUrl("back");
  img.alt = "";
  img.draggable = false;
  const wrap = document.createElement("span");
  wrap.className = `card back ${size}`.trim();
  wrap.appendChild(img);
  return wrap;
}
