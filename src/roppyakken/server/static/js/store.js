// What the browser keeps between visits: seat tokens per room and the player's name.

const PREFIX = "roppyakken:";

function safe(fn, fallback = null) {
  try {
    return fn();
  } catch {
    return fallback; // storage disabled (private mode): play on without persistence
  }
}

/** The seat token kept for a room (docs/PROTOCOL.md: localStorage key roppyakken:<room>). */
export function getToken(room) {
  return safe(() => localStorage.getItem(PREFIX + room));
}

export function setToken(room, token) {
  safe(() => localStorage.setItem(PREFIX + room, token));
}

export function dropToken(room) {
  safe(() => localStorage.removeItem(PREFIX + room));
}

/** The player's name, remembered for the next game. */
export function getName() {
  return safe(() => localStorage.getItem("roppyakken-name")) || "";
}

export function setName(name) {
  safe(() => localStorage.setItem("roppyakken-name", name));
}
