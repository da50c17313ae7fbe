// The two card decks the pages can show: Japanese hanafuda and Korean hwatu (both drawn by
// roppyakken.devtools.cardart), which one is in use, and the kind marks written on the faces.
//
// The deck in use is the player's choice (the switch in the header, remembered in
// localStorage), else hwatu for the Korean presets or a Korean page, else hanafuda.
// Card images carry data-card, so a change of deck or of rules redraws them in place.

import { LANG, t } from "./i18n.js";

/** @typedef {"hanafuda" | "hwatu"} Deck */
/** @typedef {"auto" | Deck} DeckChoice */

/** @type {readonly Deck[]} */
export const DECKS = ["hanafuda", "hwatu"];

/** The presets Korean players play with hwatu cards. */
export const KOREAN_PRESETS = new Set(["yukbaek", "sambong", "korean-high"]);

/** @type {Record<Deck, string>} */
const FOLDER = { hanafuda: "/static/cards", hwatu: "/static/cards-hwatu" };

const KEY = "roppyakken-deck";

/** The preset of the game on the page, if any. @type {string | null} */
let preset = null;

/** @returns {DeckChoice} */
function stored() {
  try {
    const value = localStorage.getItem(KEY);
    return value === "hanafuda" || value === "hwatu" ? value : "auto";
  } catch {
    return "auto"; // storage disabled: the automatic choice
  }
}

/** What the player chose in the switch: a deck, or "auto". @returns {DeckChoice} */
export function deckChoice() {
  return stored();
}

/**
 * The deck the page shows now.
 * @returns {Deck}
 */
export function currentDeck() {
  const chosen = stored();
  if (chosen !== "auto") return chosen;
  return LANG === "ko" || (preset !== null && KOREAN_PRESETS.has(preset)) ? "hwatu" : "hanafuda";
}

/**
 * The address of a card face (or of the back with slug "back") in the deck in use.
 * @param {string} slug
 * @returns {string}
 */
export function deckUrl(slug) {
  return `${FOLDER[currentDeck()]}/${slug}.svg`;
}

/** Point every card image on the page at the deck in use. */
export function refreshCards() {
  document.documentElement.dataset.deck = currentDeck();
  for (const img of document.querySelectorAll("img[data-card]")) {
    if (img instanceof HTMLImageElement && img.dataset.card) {
      const url = deckUrl(img.dataset.card);
      if (img.getAttribute("src") !== url) img.src = url;
    }
  }
  const select = document.getElementById("deck-select");
  if (select instanceof HTMLSelectElement) {
    select.value = stored();
    const auto = select.querySelector("option[value='auto']");
    if (auto) auto.textContent = autoLabel();
  }
}

/** The automatic choice's label, naming the deck it gives now. */
function autoLabel() {
  const name = currentDeck() === "hwatu" ? t("hwatu") : t("hanafuda");
  return t("Cards: automatic ({deck})", { deck: name });
}

/**
 * Tell the decks which preset the game on the page plays (the Korean ones default to hwatu).
 * @param {string | null | undefined} name
 */
export function usePreset(name) {
  preset = name || null;
  refreshCards();
}

/**
 * Choose a deck (or "auto"), remember it, and redraw the cards.
 * @param {string} choice
 */
export function chooseDeck(choice) {
  try {
    if (choice === "hanafuda" || choice === "hwatu") localStorage.setItem(KEY, choice);
    else localStorage.removeItem(KEY);
  } catch {
    // no storage: the choice lasts for this page only
  }
  refreshCards();
}

/**
 * The mark of a kind in the page's language: B A R C, 光 種 短 カス, 광 열끗 띠 피, L A R I.
 * @param {string} kind
 * @returns {string}
 */
export function kindMark(kind) {
  /** @type {Record<string, string>} */
  const marks = { bright: t("B"), animal: t("A"), ribbon: t("R"), chaff: t("C") };
  return marks[kind] || "";
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * The kind's mark laid over a card face, on the badge the art leaves blank (viewBox units of
 * roppyakken.devtools.cardart: the badge is centred at 28,70 on a 200×300 face).
 * @param {string} kind
 * @returns {SVGSVGElement}
 */
export function kindMarkElement(kind) {
  const mark = kindMark(kind);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 200 300");
  svg.setAttribute("class", "kind-mark");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const text = document.createElementNS(SVG, "text");
  text.setAttribute("x", "28");
  text.setAttribute("y", "70");
  text.setAttribute("text-anchor", "middle");
  text.setAttribute("dominant-baseline", "central");
  text.setAttribute("font-size", [...mark].length > 1 ? "14" : "20");
  text.textContent = mark;
  svg.append(text);
  return svg;
}

/**
 * The deck switch for the header: automatic (by rules and language), hanafuda or hwatu.
 * @returns {HTMLElement}
 */
export function deckSwitch() {
  const select = document.createElement("select");
  select.id = "deck-select";
  select.setAttribute("aria-label", t("Card style"));
  /** @type {[DeckChoice, string][]} */
  const options = [
    ["auto", autoLabel()],
    ["hanafuda", t("Hanafuda (Japanese cards)")],
    ["hwatu", t("Hwatu (Korean cards)")],
  ];
  for (const [value, label] of options) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.append(option);
  }
  select.value = stored();
  select.addEventListener("change", () => chooseDeck(select.value));
  const wrap = document.createElement("span");
  wrap.className = "deck-switch";
  wrap.append(select);
  document.documentElement.dataset.deck = currentDeck();
  return wrap;
}
