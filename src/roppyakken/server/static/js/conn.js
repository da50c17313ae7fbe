// The websocket of one room (docs/PROTOCOL.md "Websocket /ws/<room>"): hello, automatic
// reconnection with back-off, keep-alive pings, and messages handled one at a time in order
// (so an animation can finish before the next state is drawn).

import { socketUrl } from "./api.js";
import { serverText, t } from "./i18n.js";

const PING_MS = 20000;
// Reconnection probes: quick at first, then every 1.5 s (a restarted server is found within ~2 s).
const BACKOFF_MS = [100, 250, 500, 1000];
const MAX_BACKOFF_MS = 1500;

export class Connection {
  /**
   * @param {string} room
   * @param {string|null} token  the seat token, or null for a spectator
   * @param {{onMessage: (msg: import("./types.js").ServerMessage, conn: Connection) => (void|Promise<void>),
   *          onStatus?: (status: string) => void,
   *          onRejected?: (message: string) => void,
   *          onAside?: (msg: import("./types.js").ServerMessage) => void}} handlers
   */
  constructor(room, token, handlers) {
    this.room = room;
    this.token = token;
    this.handlers = handlers;
    /** @type {import("./types.js").ServerMessage[]} */
    this.queue = [];
    this.busy = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.welcomed = false;
    this.closedByUs = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pingTimer = null;
    this.nextId = 1;
  }

  /** How many messages wait to be handled (animations shorten when this grows). */
  get backlog() {
    return this.queue.length;
  }

  connect() {
    this.closedByUs = false;
    this.welcomed = false;
    this.status("connecting");
    const ws = new WebSocket(socketUrl(`/ws/${encodeURIComponent(this.room)}`));
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", v: 1, token: this.token }));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.status("open");
        this.startPing();
      } else if (msg.type === "pong") {
        return;
      } else if (msg.type === "review" && this.handlers.onAside) {
        // A round's review fills the round-end dialog the queue is waiting on: not queued behind it.
        this.handlers.onAside(msg);
        return;
      } else if (msg.type === "error" && !this.welcomed) {
        // The hello was refused (an unknown room or a stale token): no point retrying it.
        this.closedByUs = true;
        ws.close();
        if (this.handlers.onRejected) this.handlers.onRejected(serverText(msg) || t("refused"));
        return;
      }
      this.queue.push(msg);
      this.drain();
    });
    ws.addEventListener("close", () => {
      this.stopPing();
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closedByUs) {
        this.status("closed");
        return;
      }
      this.status("lost");
      const delay = this.attempt < BACKOFF_MS.length ? BACKOFF_MS[this.attempt] : MAX_BACKOFF_MS;
      this.attempt += 1;
      setTimeout(() => {
        if (!this.closedByUs) this.connect();
      }, delay);
    });
  }

  /** Whether the server has welcomed this connection and it is open: a message sent now is delivered. */
  get open() {
    return Boolean(this.welcomed && this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** Send a message if the connection is open (see `open`); returns its id (echoed by the server in an error). */
  /** @param {import("./types.js").ClientMessage} msg @returns {string} */
  send(msg) {
    const id = String(this.nextId++);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ ...msg, id }));
    }
    return id;
  }

  close() {
    this.closedByUs = true;
    this.stopPing();
    if (this.ws) this.ws.close();
  }

  /** @param {string} s */
  status(s) {
    if (this.handlers.onStatus) this.handlers.onStatus(s);
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  stopPing() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  async drain() {
    if (this.busy) return;
    this.busy = true;
    try {
      while (this.queue.length) {
        const msg = /** @type {import("./types.js").ServerMessage} */ (this.queue.shift());
        try {
          await this.handlers.onMessage(msg, this);
        } catch (err) {
          console.error("roppyakken: message handling failed", msg.type, err);
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
