// HTTP calls to the server (docs/PROTOCOL.md): JSON in, JSON out, one-line errors said in the
// page's language.

import { serverText, t } from "./i18n.js";

/** An HTTP error with the server's one-line message, in the page's language. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status  the HTTP status, 0 when the server could not be reached
   * @param {number} [retryAfter]  the seconds the server asked to wait (Retry-After), 0 if none
   */
  constructor(message, status, retryAfter = 0) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** @type {Promise<string|null>|null} The player's CSRF token (docs/PROTOCOL.md, "Players"), once asked. */
let csrfToken = null;

/**
 * The player's CSRF token will be this (given by GET/POST /api/me): POSTs wait for it.
 * @param {Promise<string|null>} token
 */
export function setCsrf(token) {
  csrfToken = token;
}

/** Forget the token (it is asked again before the next POST). */
export function forgetCsrf() {
  csrfToken = null;
}

/**
 * The CSRF token every POST carries: the player cookie's, from GET /api/me (null: no player yet).
 * @returns {Promise<string|null>}
 */
function csrf() {
  csrfToken ||= fetch("/api/me", { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : { csrf: null }))
    .then((d) => (d && typeof d.csrf === "string" ? d.csrf : null))
    .catch(() => null);
  return csrfToken;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the JSON the server answered
 */
async function call(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET") headers["X-CSRF-Token"] = (await csrf()) || "new";
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ApiError(t("the server cannot be reached ({reason})", { reason }), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && serverText(data)) || `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status, Number(response.headers.get("Retry-After")) || 0);
  }
  return data;
}

/**
 * The websocket address of `path` (from `/ws/`) on this page's server.
 * @param {string} path
 */
export function socketUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

/**
 * The declared answer of `route` (wire.d.ts `Answers`, from the schema's `http_answers`), asked at
 * `path` with the route's method (and `body` as JSON, if any); an ApiError as `call` raises.
 * @template {keyof import("./wire").Answers} R
 * @param {R} route  the method and route as the schema names them, e.g. "GET /api/rooms/{room}"
 * @param {string} path  the address asked, the route's parameters filled in
 * @param {unknown} [body]
 * @returns {Promise<import("./wire").Answers[R]>}
 */
export function ask(route, path, body) {
  return call(route.slice(0, route.indexOf(" ")), path, body);
}

/** @type {Promise<import("./wire").PresetEntry[]> | null} */
let presetsPromise = null;
/** @type {Promise<import("./wire").BotEntry[]> | null} */
let botsPromise = null;

/** GET /api/presets, cached. @returns {Promise<import("./wire").PresetEntry[]>} */
export function presets() {
  presetsPromise ||= ask("GET /api/presets", "/api/presets").then((d) => d.presets);
  return presetsPromise;
}

/** GET /api/bots, cached. @returns {Promise<import("./wire").BotEntry[]>} */
export function bots() {
  botsPromise ||= ask("GET /api/bots", "/api/bots").then((d) => d.bots);
  return botsPromise;
}

/**
 * The rule options of a room or record, whatever shape the server sent:
 * {preset, options}, a bare options object with "preset", or just a preset name.
 * Returns {preset, options}; options may be looked up from /api/presets.
 * @param {string | import("./types.js").RulesInfo | import("./types.js").RuleOptions | null | undefined} rules
 * @returns {Promise<import("./types.js").RulesInfo>}
 */
export async function resolveRules(rules) {
  if (!rules) return { preset: "classic", options: await presetOptions("classic") };
  if (typeof rules === "string") return { preset: rules, options: await presetOptions(rules) };
  if (rules.options && typeof rules.options === "object") {
    return { preset: rules.preset || "house", options: rules.options };
  }
  if ("yaku" in rules || "target" in rules) return { preset: rules.preset || "house", options: rules };
  if (rules.preset) return { preset: rules.preset, options: await presetOptions(rules.preset) };
  return { preset: "classic", options: await presetOptions("classic") };
}

/** @param {string} name @returns {Promise<import("./types.js").RuleOptions>} */
async function presetOptions(name) {
  const list = await presets();
  const found = list.find((p) => p.name === name);
  return found ? found.options : {};
}
