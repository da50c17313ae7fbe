// The browser's language: chosen in the header (remembered in localStorage), else the
// browser's preferred languages, else English.  t() translates an English message and
// fills its {named} fields; the translations come from the generated catalog.js.

import { LANGUAGES, LANGUAGE_NAMES, MESSAGES } from "./catalog.js";
import { particles } from "./korean.js";

const KEY = "roppyakken-lang";

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The supported language a code names ("ja-JP" is "ja"), or null. @param {unknown} code @returns {string | null} */
export function normalize(code) {
  const base = String(code || "").toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(base) ? base : null;
}

function choose() {
  const saved = normalize(stored());
  if (saved) return saved;
  for (const code of navigator.languages || [navigator.language]) {
    const found = normalize(code);
    if (found) return found;
  }
  return "en";
}

/** The language of this page. */
export const LANG = choose();
const TABLE = MESSAGES[LANG] || {};
document.documentElement.lang = LANG;

export { LANGUAGES, LANGUAGE_NAMES };

/**
 * `message` in the page's language, its {named} fields filled from `fields` (in Korean, each
 * particle's form chosen by the word it follows: korean.js).
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 * @returns {string}
 */
export function t(message, fields) {
  const text = TABLE[message] || message;
  if (!fields) return text;
  const filled = text.replace(/\{(\w+)\}/g, (/** @type {string} */ whole, /** @type {string} */ name) => (name in fields ? String(fields[name]) : whole));
  return LANG === "ko" ? particles(filled) : filled;
}

/** Switch to `lang`, remember it and reload the page in it. @param {string} lang */
export function setLanguage(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // a browser without storage: the choice lasts for this page only
  }
  location.reload();
}
