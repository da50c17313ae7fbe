// The 48-card deck (RULES.md R-1): slugs in id order, months, kinds, points, and card elements.

import { DECK, KINDS as DECK_KINDS, NAMES, POINTS } from "./catalog.js";
import { deckUrl, kindMarkElement } from "./decks.js";
import { genderOf, listText, t } from "./i18n.js";
import { CARD_NAMES, KIND_NAMES } from "./text.js";

// The deck itself (slugs in id order, with their kinds) is generated from roppyakken.cards.
export const SLUGS = DECK.map(([slug]) => slug);
export const KINDS = DECK_KINDS;
/** @type {Map<string, number>} */
const ID = new Map(SLUGS.map((s, i) => [s, i]));
/** @type {Map<string, string>} */
const KIND = new Map(DECK);

/**
 * The card id (0..47) of a slug, or -1.
 * @param {string} slug
 * @returns {number}
 */
export function cardId(slug) {
  return ID.get(slug) ?? -1;
}

/**
 * The month (1..12) of a card slug.
 * @param {string} slug
 * @returns {number}
 */
export function monthOf(slug) {
  return Math.floor(cardId(slug) / 4) + 1;
}

/**
 * The kind of a card slug: bright, animal, ribbon or chaff.
 * @param {string} slug
 * @returns {string}
 */
export function kindOf(slug) {
  return KIND.get(slug) ?? "";
}

/**
 * card points (generated from roppyakken.cards).
 * @param {string} slug
 * @returns {number}
 */
export function pointsOf(slug) {
  return POINTS[cardId(slug)] ?? 0;
}

/**
 * Total card points of a list of slugs.
 * @param {readonly string[]} slugs
 * @returns {number}
 */
export function pointsOfAll(slugs) {
  return slugs.reduce((sum, s) => sum + pointsOf(s), 0);
}

/**
 * Slugs of one month (1..12).
 * @param {number} month
 * @returns {string[]}
 */
export function monthCards(month) {
  return SLUGS.slice((month - 1) * 4, month * 4);
}

/**
 * Sort slugs in card-id order.
 * @param {Iterable<string>} slugs
 * @returns {string[]}
 */
export function sortCards(slugs) {
  return [...slugs].sort((a, b) => cardId(a) - cardId(b));
}

/**
 * A card's name in the page's language: "Pine Crane", "松に鶴".
 * @param {string} slug
 * @returns {string}
 */
export function cardName(slug) {
  return CARD_NAMES[slug] || slug;
}

/**
 * The grammatical gender and number of a card's name in the page's language (i18n.js `genderOf`):
 * a message that agrees with the card is its variant in that context.
 * @param {string} slug
 * @returns {string}
 */
export function cardGender(slug) {
  return genderOf(NAMES.cards[slug] || slug);
}

/**
 * A longer card description: "Pine Crane (bright, 50 points)".
 * @param {string} slug
 * @returns {string}
 */
export function cardLabel(slug) {
  return t("{card} ({kind}, {points} points)", {
    card: cardName(slug),
    kind: KIND_NAMES[kindOf(slug)],
    points: pointsOf(slug),
  });
}

/**
 * A list of card names joined as the page's language writes a list.
 * @param {readonly string[]} slugs
 * @returns {string}
 */
export function cardNames(slugs) {
  return listText(slugs.map(cardName));
}

/**
 * The URL of a card face (or the back with slug "back").
 * @param {string} slug
 * @returns {string}
 */
export function cardUrl(slug) {
  return deckUrl(slug);
}

/**
 * A card element: an <img> with alt text, inside a <button> when `button` is set.
 * The element carries data-slug so animations and tests can find it.
 * @param {string} slug
 * @param {{button?: boolean, size?: string, extraClass?: string}} [options]
 * @returns {HTMLElement}
 */
export function cardElement(slug, { button = false, size = "", extraClass = "" } = {}) {
  const img = document.createElement("img");
  img.src = cardUrl(slug);
  img.dataset.card = slug;
  img.alt = cardLabel(slug);
  img.draggable = false;
  img.decoding = "async";
  const wrap = document.createElement(button ? "button" : "span");
  if (wrap instanceof HTMLButtonElement) wrap.type = "button";
  wrap.className = `card ${size} ${extraClass}`.trim();
  wrap.dataset.slug = slug;
  wrap.title = cardLabel(slug);
  wrap.appendChild(img);
  wrap.appendChild(kindMarkElement(kindOf(slug)));
  return wrap;
}

/**
 * A face-down card element.
 * @param {string} [size]
 * @returns {HTMLElement}
 */
export function backElement(size = "") {
  const img = document.createElement("img");
  img.src = cardUrl("back");
  img.dataset.card = "back";
  img.alt = "";
  img.draggable = false;
  const wrap = document.createElement("span");
  wrap.className = `card back ${size}`.trim();
  wrap.appendChild(img);
  return wrap;
}
