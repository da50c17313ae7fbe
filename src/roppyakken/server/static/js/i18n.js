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

/** The one variant of a language spoken here, by its base code (i18n.py VARIANTS). */
const VARIANTS = /** @type {Record<string, string>} */ ({ pt: "pt-BR", zh: "zh-Hant" });

/**
 * The supported language a code names ("ja-JP" is "ja", "pt-PT" is "pt-BR", "zh-TW" is
 * "zh-Hant"), or null.
 * @param {unknown} code
 * @returns {string | null}
 */
export function normalize(code) {
  const base = String(code || "").toLowerCase().split(/[-_]/)[0];
  if (LANGUAGES.includes(base)) return base;
  const variant = VARIANTS[base];
  return variant && LANGUAGES.includes(variant) ? variant : null;
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
  return fill(typeset(TABLE[message] || message), fields);
}

/**
 * French typography on a translated template (never on the values filled into it): a narrow
 * no-break space before : ; ! ? and %, and the apostrophe ’.  The browser's own catalog entries
 * are written so; this also sets those it shares with the terminal (names, descriptions, errors).
 * @param {string} text
 * @returns {string}
 */
function typeset(text) {
  if (LANG !== "fr") return text;
  return text.replace(/(?<=\p{L})'(?=\p{L})/gu, "\u2019").replace(/(?<=\S)[ \u00a0]?([:;!?%])(?=\s|$|\))/gu, "\u202f$1");
}

/**
 * `message` in a context (its variant for a grammatical gender: `tc("feminine", …)`), else as `t`.
 * @param {string} context
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 * @returns {string}
 */
export function tc(context, message, fields) {
  return fill(typeset(TABLE[`${context}\u0004${message}`] || TABLE[message] || message), fields);
}

/**
 * The grammatical gender and number of a name (an English message id) in the page's language, as
 * the catalog says it: "masculine", "feminine", "masculine plural", "feminine plural" or "none".
 * @param {string} name
 * @returns {string}
 */
export function genderOf(name) {
  return TABLE[`grammatical gender\u0004${name}`] || "none";
}

/**
 * Items joined as a list is written in the page's language ("a, b and c", "a、b、c").
 * @param {readonly string[]} items
 * @returns {string}
 */
export function listText(items) {
  return new Intl.ListFormat(LANG, { style: "long", type: "conjunction" }).format(items);
}

/** The languages whose decimal mark is a comma (CLDR's decimal symbol: Spanish 12,5). */
const DECIMAL_COMMA = new Set(["es"]);

/**
 * A field's value as written in the page's language: a decimal number with the language's mark.
 * @param {unknown} value
 * @returns {string}
 */
function shown(value) {
  if (typeof value === "number" && !Number.isInteger(value) && DECIMAL_COMMA.has(LANG)) {
    return String(value).replace(".", ",");
  }
  return String(value);
}

/**
 * A translated text with its {named} fields filled (in Korean, each particle's form chosen).
 * @param {string} text
 * @param {Record<string, unknown>} [fields]
 * @returns {string}
 */
function fill(text, fields) {
  if (!fields) return text;
  const filled = text.replace(/\{(\w+)\}/g, (/** @type {string} */ whole, /** @type {string} */ name) => (name in fields ? shown(fields[name]) : whole));
  return LANG === "ko" ? particles(filled) : filled;
}

/**
 * A server message as data (docs/PROTOCOL.md "Errors in the reader's language"): an English
 * template of the catalogs and its fields, a field being a value or such a template itself.
 * @typedef {{template: string, fields?: Record<string, unknown>}} ServerWords
 */

/** Whether `value` is a template with fields. @param {unknown} value @returns {value is ServerWords} */
function isWords(value) {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (/** @type {{template?: unknown}} */ (value).template) === "string"
  );
}

/**
 * Whether the page can say `words` in its language: English, or a template (and each nested
 * one) the catalog translates.
 * @param {ServerWords} words
 * @returns {boolean}
 */
function known(words) {
  if (LANG !== "en" && !(words.template in TABLE)) return false;
  return Object.values(words.fields || {}).every((value) => !isWords(value) || known(value));
}

/** `words` translated and filled, nested templates first. @param {ServerWords} words @returns {string} */
function say(words) {
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [name, value] of Object.entries(words.fields || {})) fields[name] = isWords(value) ? say(value) : value;
  return t(words.template, fields);
}

/**
 * What the server said (an `error` message, an HTTP `{"error"}` answer, a `restarting` message)
 * in the page's language: its `text` template filled with its fields; the English line
 * (`message` or `error`) when the catalog does not know that template (or there is none).
 * @param {Record<string, unknown> | null | undefined} msg
 * @returns {string}
 */
export function serverText(msg) {
  const english = msg ? (typeof msg.message === "string" ? msg.message : typeof msg.error === "string" ? msg.error : "") : "";
  const words = msg ? msg.text : undefined;
  if (LANG === "en" || !isWords(words) || !known(words)) return english || (isWords(words) ? say(words) : "");
  return say(words);
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
