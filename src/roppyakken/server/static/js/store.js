// What the browser keeps between visits: seat tokens per room and the player's name.

const PREFIX = "roppyakken:";

/**
 * @template T
 * @param {() => T} fn
 * @param {T | null} [fallback]
 * @returns {T | null}
 */
function safe(fn, fallback = null) {
  try {
    return fn();
  } catch {
    return fallback; // storage disabled (private mode): play on without persistence
  }
}

/** The seat token kept for a room (docs/PROTOCOL.md: localStorage key roppyakken:<room>). @param {string} room */
export function getToken(room) {
  return safe(() => localStorage.getItem(PREFIX + room));
}

/** Keep the seat token of a room. @param {string} room @param {string} token */
export function setToken(room, token) {
  safe(() => localStorage.setItem(PREFIX + room, token));
}

/** Forget the seat token of a room. @param {string} room */
export function dropToken(room) {
  safe(() => localStorage.removeItem(PREFIX + room));
}

/** The player's name, remembered for the next game. */
export function getName() {
  return safe(() => localStorage.getItem("roppyakken-name")) || "";
}

/** Remember the player's name. @param {string} name */
export function setName(name) {
  safe(() => localStorage.setItem("roppyakken-name", name));
}
