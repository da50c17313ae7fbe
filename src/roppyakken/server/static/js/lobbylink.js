// The tab's one connection to /ws/lobby (docs/PROTOCOL.md, "The lobby"), shared by every page that
// listens to it: the start page's live lobby (lobbylive.js), the friends page and the challenges
// shown on every page (friends.js, challenges.js).  It opens with the first listener, survives the
// moves between the app's pages, reopens 2 s after a drop while anyone listens, and is opened
// again when the tab's player changes (a new cookie: the socket speaks for the player it opened as).

import { socketUrl } from "./api.js";

/**
 * @typedef {import("./wire").LobbyServerMessage} LobbyServerMessage
 * @typedef {(message: LobbyServerMessage) => void} Listener
 */

/** @type {Set<Listener>} */
const listeners = new Set();
/** @type {Set<() => void>} */
const closers = new Set();
/** @type {WebSocket|null} */
let ws = null;
let leaving = false;
/** @type {LobbyServerMessage|null} The latest `lobby` message: a new listener is told it at once. */
let latest = null;
/** @type {LobbyServerMessage|null} The `playban` said on connecting, if any: told to new listeners too. */
let barred = null;

function open() {
  const socket = new WebSocket(socketUrl("/ws/lobby"));
  ws = socket;
  socket.addEventListener("message", (ev) => {
    /** @type {LobbyServerMessage} */
    const message = JSON.parse(String(ev.data));
    if (ws !== socket) return;
    if (message.type === "lobby") latest = message;
    else if (message.type === "playban") barred = message;
    for (const listener of [...listeners]) listener(message);
  });
  socket.addEventListener("close", () => {
    if (ws !== socket) return;
    ws = null;
    latest = barred = null;
    for (const closed of [...closers]) closed();
    setTimeout(() => {
      if (!ws && !leaving && listeners.size) open();
    }, 2000);
  });
}

/**
 * Listen to the lobby's messages (opening the connection if it is not); the function that stops.
 * @param {Listener} listener
 * @param {() => void} [closed]  called when the connection drops (the server forgot its seek)
 * @returns {() => void}
 */
export function onLobby(listener, closed) {
  listeners.add(listener);
  if (closed) closers.add(closed);
  if (!ws && !leaving) open();
  for (const known of [latest, barred]) if (known) queueMicrotask(() => listeners.has(listener) && listener(known));
  return () => {
    listeners.delete(listener);
    if (closed) closers.delete(closed);
  };
}

/**
 * Send a message once the connection is open (dropped if it closes first).
 * @param {import("./wire").LobbyClientMessage} message
 */
export function lobbySend(message) {
  if (!ws && !leaving && listeners.size) open();
  const socket = ws;
  if (!socket) return;
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else if (socket.readyState === WebSocket.CONNECTING)
    socket.addEventListener("open", () => socket.send(JSON.stringify(message)), { once: true });
}

/** The window's event when the tab's player changes (a new cookie). */
export const PLAYER_EVENT = "roppyakken-player";

/** Open the connection again (the tab's player changed); its listeners stay. */
export function lobbyReconnect() {
  window.dispatchEvent(new Event(PLAYER_EVENT));
  const old = ws;
  ws = null;
  latest = barred = null;
  if (old) old.close();
  if (!leaving && listeners.size) open();
}

window.addEventListener("pagehide", () => {
  leaving = true;
  ws?.close();
});
window.addEventListener("pageshow", (ev) => {
  if (!ev.persisted) return; // back from the cache: listen again
  leaving = false;
  if (!ws && listeners.size) open();
});
