// The page of one room, /r/<room>: join by the invite link (or watch), the waiting room
// (seats, bots, the host's start button), then the game table.  The seat token is kept in
// localStorage, so a reload or a lost connection gets the seat and the game back.

import T, { botName, playerNames, presetDescription, presetName } from "./text.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ApiError, ask, bots, presets, resolveRules } from "./api.js";
import { usePreset } from "./decks.js";
import { dropToken, getName, getToken, setName, setToken } from "./store.js";
import { Connection } from "./conn.js";
import { GameView } from "./table.js";
import { renderRules } from "./ruleshelp.js";
import { fairText } from "./fairdeal.js";
import { serverText, t } from "./i18n.js";
import { ClockBar } from "./clock.js";
import { ChatPanel } from "./chat.js";

/** @typedef {import("./wire").RoomInfo} RoomInfo */

/**
 * Show the room page for `room` in `root`.
 * @param {HTMLElement} root
 * @param {string} room
 * @param {string} [notice]
 */
export async function roomPage(root, room, notice = "") {
  const token = getToken(room);
  if (token) {
    connect(root, room, token);
    return;
  }
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  /** @type {RoomInfo} */
  let info;
  try {
    info = await ask("GET /api/rooms/{room}", `/api/rooms/${encodeURIComponent(room)}`);
  } catch (err) {
    const msg = err instanceof ApiError && err.status === 404 ? T.roomNotFound : T.errorPrefix + errorText(err);
    replaceChildren(
      root,
      h(
        "section",
        { class: "card-panel" },
        h("p", { role: "alert" }, msg),
        h("a", { href: "/" }, T.backHome),
      ),
    );
    return;
  }
  const open = info.status === "waiting" && info.seats.some((s) => s.kind === "empty");
  if (!open) {
    // Someone opening the invite link of a full or running room watches: say why.
    /** @type {Record<string, string>} */
    const why = { waiting: T.roomFull, playing: T.startedRoomNotice, over: T.overRoomNotice };
    connect(root, room, null, why[info.status] || T.roomFull);
    return;
  }
  /** @type {import("./types.js").RulesInfo | null} */
  let rules = null;
  let description = "";
  try {
    const resolved = await resolveRules(info.rules);
    rules = resolved;
    const p = (await presets()).find((x) => x.name === resolved.preset);
    description = p ? presetDescription(p.name, p.description) : "";
  } catch {
    rules = null; // the form still lets the invited player join; the table's rules help has them
  }
  joinForm(root, room, info, notice, rules, description);
}

/**
 * What an invited player should know before joining: the rules (their summary, the whole help
 * folded away), whether hints are on, and the server's commitment to a fair deal.
 * @param {RoomInfo} info  the room's info (GET /api/rooms/<room>)
 * @param {{preset: string, options: any} | null} rules
 * @param {string} description
 * @returns {HTMLElement}
 */
function tableTerms(info, rules, description) {
  return h(
    "section",
    { class: "join-terms", "aria-label": T.joinTerms },
    h(
      "p",
      { class: "join-rules" },
      `${T.playersN(info.players)} · `,
      h("strong", {}, rules ? presetName(rules.preset) : ""),
      description ? ` — ${description}` : "",
    ),
    rules
      ? h("details", { class: "join-rules-help" }, h("summary", {}, T.showRules), renderRules({ ...rules, description }))
      : null,
    h(
      "p",
      { class: "hints-note" },
      info.hints
        ? [h("span", { class: "badge hints-on" }, T.hintsOn), " ", T.hintsOnTitle]
        : T.hintsOffNote,
    ),
    info.commitment ? h("p", { class: "muted commitment", title: info.commitment }, fairText(t).committed(info.commitment)) : null,
  );
}

/**
 * @param {HTMLElement} root
 * @param {string} room
 * @param {RoomInfo} info
 * @param {string} notice
 * @param {import("./types.js").RulesInfo | null} [rules]
 * @param {string} [description]
 */
function joinForm(root, room, info, notice, rules = null, description = "") {
  const name = h("input", {
    id: "join-name",
    name: "name",
    required: true,
    maxlength: "24",
    autocomplete: "nickname",
    value: getName() || "",
  });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const form = h(
    "form",
    {
      class: "card-panel join",
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        const who = name.value.trim() || T.defaultName;
        setName(who);
        try {
          const res = await ask("POST /api/rooms/{room}/join", `/api/rooms/${encodeURIComponent(room)}/join`, { name: who });
          setToken(room, res.token);
          connect(root, room, res.token);
        } catch (err) {
          showError(error, errorText(err));
        }
      },
    },
    h("h1", {}, T.joinRoom),
    notice ? h("p", { class: "notice" }, notice) : null,
    tableTerms(info, rules, description),
    seatList(info, null),
    h("label", { for: "join-name" }, T.yourName),
    name,
    error,
    h(
      "div",
      { class: "form-actions" },
      h("button", { type: "submit", class: "primary" }, T.joinAs),
      h("button", { type: "button", onclick: () => connect(root, room, null) }, T.watch),
    ),
  );
  replaceChildren(root, form);
  name.focus();
}

/**
 * @param {RoomInfo} info
 * @param {number | null} mySeat
 * @param {boolean} [host]
 * @param {Connection | null} [conn]
 * @param {import("./wire").BotEntry[]} [levels]  the bot levels (GET /api/bots)
 * @returns {HTMLElement}
 */
function seatList(info, mySeat, host = false, conn = null, levels = []) {
  const shown = playerNames(info.seats.map((s) => s.name));
  return h(
    "ol",
    { class: "seats" },
    info.seats.map((s, i) => {
      let what;
      if (s.kind === "empty") what = h("span", { class: "muted" }, T.seatEmpty);
      else if (s.kind === "bot")
        what = h("span", {}, shown[i], " ", h("span", { class: "badge bot" }, T.seatBot(s.level || "")));
      else {
        what = h(
          "span",
          {},
          s.name || T.seatHuman,
          " ",
          h(
            "span",
            { class: `badge ${s.connected ? "online" : "offline"}` },
            s.connected ? T.connected : T.disconnected,
          ),
        );
      }
      const tags = [];
      if (i === 0) tags.push(h("span", { class: "badge host" }, T.host));
      if (i === mySeat) tags.push(h("span", { class: "badge you" }, T.you));
      const controls = [];
      if (host && i !== 0 && info.status === "waiting" && conn) {
        if (s.kind === "empty") {
          const select = h(
            "select",
            { "aria-label": T.botLevel(i), class: "bot-level" },
            levels.map((b) => h("option", { value: b.level }, botName(b.level))),
          );
          controls.push(
            select,
            h(
              "button",
              {
                type: "button",
                class: "fill-bot",
                onclick: () => conn?.send({ type: "seat", seat: i, kind: "bot", level: select.value }),
              },
              T.fillBot,
            ),
          );
        } else if (s.kind === "bot") {
          controls.push(
            h(
              "button",
              {
                type: "button",
                class: "free-seat",
                onclick: () => conn?.send({ type: "seat", seat: i, kind: "empty" }),
              },
              T.emptySeat,
            ),
          );
        }
      }
      return h(
        "li",
        { class: `seat seat-${s.kind}`, dataset: { seat: String(i) } },
        h("span", { class: "seat-no" }, T.seatN(i)),
        tags,
        what,
        h("span", { class: "spacer" }),
        controls,
      );
    }),
  );
}

/**
 * @param {HTMLElement} root
 * @param {string} room
 * @param {string | null} token
 * @param {string} [notice]
 * @returns {Connection}
 */
function connect(root, room, token, notice = "") {
  /**
   * @type {{seat: number | null, info: RoomInfo | null, game: GameView | null,
   *   rules: import("./types.js").RulesInfo | null, description: string, levels: import("./wire").BotEntry[]}}
   */
  const state = { seat: null, info: null, game: null, rules: null, description: "", levels: [] };
  /** The page's game for the rest of the site (challenges.js waits while it is "playing"). @param {string} status */
  const markGame = (status) => {
    if (document.body.dataset.game === "over") return;
    document.body.dataset.game = state.seat === null ? "watching" : status;
  };
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const statusLine = h("p", { class: "conn-line muted", role: "status" }, T.connecting);
  replaceChildren(root, statusLine);
  const clockBar = new ClockBar(
    room,
    { send: (message) => conn.send(message) },
    () => state.game && state.game.clockRunningOut(),
  );
  const chat = new ChatPanel((message) => conn.send(message), room);

  bots()
    .then((list) => {
      state.levels = list;
      if (state.info && !state.game) drawWaiting();
    })
    .catch(() => {});

  /** @param {RoomInfo | null} info */
  const ensureRules = async (info) => {
    if (state.rules) return;
    const rules = await resolveRules(info?.rules);
    state.rules = rules;
    try {
      const list = await presets();
      const p = list.find((x) => x.name === rules.preset);
      state.description = p ? presetDescription(p.name, p.description) : "";
    } catch {
      state.description = "";
    }
    usePreset(state.rules.preset); // the Korean presets are dealt in hwatu (decks.js)
  };

  const drawWaiting = () => {
    const info = state.info;
    if (!info) return;
    const host = state.seat === 0;
    const invite = `${location.origin}/r/${encodeURIComponent(room)}`;
    const inviteInput = h("input", {
      class: "invite-link",
      readonly: true,
      value: invite,
      "aria-label": T.inviteLink,
      onfocus: (/** @type {FocusEvent} */ ev) => /** @type {HTMLInputElement} */ (ev.target).select(),
    });
    const copyBtn = h(
      "button",
      {
        type: "button",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(invite);
          } catch {
            inviteInput.select();
            document.execCommand && document.execCommand("copy");
          }
          copyBtn.textContent = T.copied;
        },
      },
      T.copy,
    );
    const full = info.seats.every((s) => s.kind !== "empty");
    const startBtn = host
      ? h(
          "button",
          {
            type: "button",
            class: "primary start",
            disabled: !full,
            onclick: () => conn.send({ type: "start" }),
          },
          T.start,
        )
      : null;
    replaceChildren(
      root,
      h(
        "section",
        { class: "card-panel waiting-room" },
        h("h1", {}, `${T.room} ${room}`),
        h("p", { class: "muted" }, `${T.playersN(info.players)} · ${state.rules ? presetName(state.rules.preset) : ""}`),
        notice && state.seat === null ? h("p", { class: "notice", role: "status" }, notice) : null,
        info.hints
          ? h("p", { class: "hints-note" }, h("span", { class: "badge hints-on" }, T.hintsOn), " ", T.hintsOnTitle)
          : null,
        h("h2", {}, T.inviteLink),
        h("p", {}, T.inviteHint),
        h("div", { class: "invite-row" }, inviteInput, copyBtn),
        h("h2", {}, T.seats),
        seatList(info, state.seat, host, conn, state.levels),
        info.commitment ? h("p", { class: "muted commitment", title: info.commitment }, fairText(t).committed(info.commitment)) : null,
        errorBox,
        host
          ? h(
              "div",
              { class: "form-actions" },
              startBtn,
              full ? null : h("span", { class: "muted" }, T.startHint),
            )
          : h("p", { class: "waiting" }, state.seat === null ? T.spectating : T.waitingHost),
        statusLine,
      ),
    );
  };

  /** @returns {GameView} */
  const ensureGame = () => {
    if (state.game) return state.game;
    state.game = new GameView(root, {
      room,
      seat: state.seat,
      conn,
      rules: /** @type {import("./types.js").RulesInfo} */ (state.rules),
      description: state.description,
      roomInfo: state.info,
      notice: state.seat === null ? notice : "",
      clocks: clockBar,
    });
    return state.game;
  };

  const conn = new Connection(room, token, {
    onStatus: (s) => {
      statusLine.textContent =
        s === "open" ? "" : s === "lost" ? T.reconnecting : s === "connecting" ? T.connecting : "";
      if (state.game) state.game.setConnection(s);
    },
    onRejected: (message) => {
      // A stale or unknown seat token: forget it and offer to join or watch again.
      if (token) {
        dropToken(room);
        roomPage(root, room, message);
      } else {
        replaceChildren(
          root,
          h(
            "section",
            { class: "card-panel" },
            h("p", { role: "alert" }, message),
            h("a", { href: "/" }, T.backHome),
          ),
        );
      }
    },
    onAside: (msg) => {
      if (state.game) state.game.receive(msg);
    },
    onMessage: async (msg) => {
      switch (msg.type) {
        case "welcome":
          state.seat = msg.seat === undefined ? null : msg.seat;
          state.info = msg.room_info;
          markGame(msg.room_info.status);
          clockBar.setSeat(state.seat);
          clockBar.setRoom(msg.room_info);
          chat.welcome(state.seat);
          chat.setSeats(msg.room_info.seats || []);
          if (/^\d+d$/.test(msg.room_info.clock || "") && state.seat !== null)
            document.addEventListener("click", ClockBar.askNotifications, { once: true });
          await ensureRules(msg.room_info);
          if (state.game) {
            state.game.seat = state.seat;
            state.game.setRoomInfo(msg.room_info);
          } else if (msg.room_info.status === "waiting") drawWaiting();
          break;
        case "room":
          state.info = msg.room_info;
          markGame(msg.room_info.status);
          chat.setSeats(msg.room_info.seats || []);
          clockBar.setRoom(msg.room_info);
          await ensureRules(msg.room_info);
          if (state.game) state.game.setRoomInfo(msg.room_info);
          else if (state.info?.status === "waiting") drawWaiting();
          break;
        case "history":
          if (!state.rules) await ensureRules(state.info);
          await ensureGame().receive(msg);
          break;
        case "state":
          if (!state.rules) await ensureRules(state.info);
          await ensureGame().receive(msg);
          if (msg.view.phase === "over") {
            clockBar.end();
            markGame("over");
          }
          else clockBar.update(msg.clock, msg.names);
          break;
        case "events":
          if (!state.rules) await ensureRules(state.info);
          await ensureGame().receive(msg);
          break;
        case "round_end":
          await ensureGame().receive(msg);
          break;
        case "game_end":
          clockBar.end();
          markGame("over");
          await ensureGame().receive(msg);
          break;
        case "hint":
          if (state.game) await state.game.receive(msg);
          break;
        case "timeout":
          clockBar.onTimeout(msg);
          break;
        case "handed":
          clockBar.onHanded(msg);
          break;
        case "chat":
          chat.onLine(msg);
          break;
        case "chat_history":
          chat.onHistory(msg);
          break;
        case "muted":
          chat.onMuted(msg);
          break;

        case "error":
          if (state.game) state.game.onError(serverText(msg));
          else showError(errorBox, serverText(msg));
          break;
        default:
          break;
      }
    },
  });
  conn.connect();
  window.addEventListener(
    "pagehide",
    () => {
      conn.close();
      clockBar.close();
      chat.close();
    },
    { once: true },
  );
  return conn;
}
