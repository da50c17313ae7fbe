// The offline engine as the page sees it: the Web Worker that runs roppyakken's Python core and
// bots on Pyodide (offline/worker.js), called with JSON requests (roppyakken.ai.offline), and the
// move source that feeds a game table from it (OfflineSource: types.js MoveSource), so that an
// offline game is drawn by the very table online games are.

import { ask } from "./api.js";
import { serverText, t } from "./i18n.js";

/**
 * GET /api/offline: where the runtime and the core's zip are, and whether the runtime is there.
 * @typedef {import("./wire").OfflineInfo} OfflineInfo
 */

/** @type {Promise<OfflineInfo> | null} */
let infoPromise = null;

/** What the server says of its offline client (cached by the service worker for offline use). */
export function offlineInfo() {
  infoPromise ||= ask("GET /api/offline", "/api/offline");
  infoPromise.catch(() => {
    infoPromise = null;
  });
  return infoPromise;
}

/** An answer of the engine that refuses: the bridge's one line, said in the page's language. */
export class EngineError extends Error {
  /** @param {import("./types.js").Json} answer  the bridge's {error, text} */
  constructor(answer) {
    super(serverText(answer) || String(answer.error));
    this.answer = answer;
  }
}

/** The worker and the calls waiting for its answers. */
export class OfflineEngine {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.calls = new Map();
    this.next = 1;
    /** @type {Promise<void> | null} */
    this.ready = null;
    /** @type {Record<string, number> | null} how long each part of the worker's start took (ms) */
    this.took = null;
  }

  /** Start the worker and its runtime (once); rejects, saying why, if offline play is not installed. */
  start() {
    this.ready ||= (async () => {
      const info = await offlineInfo();
      if (!info.runtime) {
        throw new Error(t("Offline play is not installed on this server: its Pyodide runtime is missing."));
      }
      const worker = new Worker("/static/js/offline/worker.js", { type: "module" });
      worker.onmessage = (/** @type {MessageEvent} */ e) => this.answered(e.data);
      worker.onerror = (/** @type {ErrorEvent} */ e) => this.failAll(e.message || "worker error");
      this.worker = worker;
      const started = await this.post({ boot: { pyodide: info.pyodide, core: info.core } });
      this.took = started ? started.ok : null;
    })();
    this.ready.catch(() => {
      this.ready = null;
      if (this.worker) this.worker.terminate();
      this.worker = null;
    });
    return this.ready;
  }

  /** @param {{id: number, answer?: string, failure?: string}} data */
  answered(data) {
    const call = this.calls.get(data.id);
    if (!call) return;
    this.calls.delete(data.id);
    if (data.failure !== undefined) call.reject(new Error(data.failure));
    else call.resolve(JSON.parse(data.answer || "null"));
  }

  /** @param {string} reason */
  failAll(reason) {
    for (const call of this.calls.values()) call.reject(new Error(reason));
    this.calls.clear();
  }

  /**
   * @param {object} payload
   * @returns {Promise<any>}
   */
  post(payload) {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error("the offline engine is not running"));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      worker.postMessage({ id, ...payload });
    });
  }

  /**
   * One request to the bridge (roppyakken.ai.offline): its answer, or an EngineError.
   * @param {import("./types.js").Json} request
   * @returns {Promise<any>}
   */
  async call(request) {
    await this.start();
    const out = await this.post({ request });
    if (out && "ok" in out) return out.ok;
    throw new EngineError(out || {});
  }
}

/** @type {OfflineEngine | null} */
let shared = null;

/** The page's one offline engine. */
export function engine() {
  shared ||= new OfflineEngine();
  return shared;
}

/**
 * The scoring calculator's answer (POST /api/score's), worked out by the engine.
 * @param {import("./types.js").Json} body  POST /api/score's body
 */
export function scoreOffline(body) {
  return engine().call({ op: "score", rules: body.rules || { preset: "classic" }, body });
}

/**
 * A table's moves answered by the offline engine: each move (or hint request) goes to the
 * bridge, whose messages (the server's, for this seat) are handed to the table in order.
 */
export class OfflineSource {
  /**
   * @param {OfflineEngine} offline
   * @param {(msg: import("./types.js").ServerMessage) => Promise<void>} deliver  hands one message to the table
   * @param {(message: string) => void} refused  a move or a hint refused (the table's onError)
   */
  constructor(offline, deliver, refused) {
    this.engine = offline;
    this.deliver = deliver;
    this.refused = refused;
    this.open = true;
    this.backlog = 0;
    /** @type {Promise<void>} the messages handed so far (each batch waits for the one before) */
    this.queue = Promise.resolve();
  }

  /**
   * @param {import("./types.js").ClientMessage} msg
   * @returns {boolean}
   */
  send(msg) {
    if (msg.type === "act") this.run({ op: "act", action: msg.action });
    else if (msg.type === "hint") this.run({ op: "hint" });
    // nothing else (chat, pings, clocks) has a meaning against bots in this browser
    return true;
  }

  /**
   * Start a game; its opening messages go to the table.
   * @param {import("./types.js").Json} request  {rules, players, seat, bots, seed, name}
   * @returns {Promise<import("./wire").RoomInfo>}
   */
  async start(request) {
    const out = await this.engine.call({ op: "start", ...request });
    this.hand(out.messages);
    await this.queue;
    return out.room_info;
  }

  /** @param {import("./types.js").Json} request */
  run(request) {
    this.backlog += 1;
    const answer = this.engine.call(request);
    answer
      .then((out) => {
        // A round ended: the worker works out its review next, and it is handed to the table at
        // once, not after the messages before it (the round's end waits for its dialog to be
        // closed, and shows the review): as conn.js hands the server's `review` aside.
        if (out.messages.some((/** @type {{type: string}} */ m) => m.type === "round_end")) this.aside({ op: "reviews" });
      })
      .catch(() => {});
    this.queue = this.queue.then(async () => {
      try {
        const out = await answer;
        this.backlog += out.messages.length;
        for (const msg of out.messages) {
          this.backlog -= 1;
          await this.deliver(msg);
        }
      } catch (err) {
        this.refused(err instanceof Error ? err.message : String(err));
      } finally {
        this.backlog -= 1;
      }
    });
  }

  /**
   * A request whose messages go to the table as soon as they come (a round's review).
   * @param {import("./types.js").Json} request
   */
  aside(request) {
    this.engine
      .call(request)
      .then((out) => {
        for (const msg of out.messages) this.deliver(msg);
      })
      .catch(() => {});
  }

  /** @param {import("./types.js").ServerMessage[]} messages */
  hand(messages) {
    this.queue = this.queue.then(async () => {
      for (const msg of messages) await this.deliver(msg);
    });
  }
}
