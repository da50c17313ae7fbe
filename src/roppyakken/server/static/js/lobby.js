// The start page: your name, play against bots (the game starts at once), create a room to
// play online with friends, and the finished games (replay, download).

import T, { botName, botDescription, playerNames, presetDescription, presetName } from "./text.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ask, bots, presets } from "./api.js";
import { clockChooser } from "./clock.js";
import { t } from "./i18n.js";
import { myGames, showRunning } from "./mygames.js";
import { getName, setName, setToken } from "./store.js";
import { tutorialInvite } from "./tutorial.js";
import { linkedNames, profileHref } from "./profiles.js";
import { ensurePlayer, lobbyLive } from "./lobbylive.js";
import { upcomingTournaments } from "./tournaments.js";

/**
 * What rulesChooser() returns: its element, the chosen rules ({preset} or {toml}), the
 * chosen preset's name, and a way to say how many players there are.
 * @typedef {{el: HTMLElement, value: () => {preset?: string, toml?: string}, presetName: () => string,
 *   setPlayers: (n: number) => void}} RulesChooser
 */

/**
 * A rules chooser: a preset select with its description, or house rules in TOML.
 * Returns {el, value(): {preset}|{toml}, setPlayers(n)}.
 * @param {string} prefix
 * @param {import("./wire").PresetEntry[]} list
 * @param {() => void} [onChange]
 * @returns {RulesChooser}
 */
export function rulesChooser(prefix, list, onChange = () => {}) {
  const select = h("select", { id: `${prefix}-preset`, name: "preset" });
  const desc = h("p", { class: "preset-desc muted" });
  const house = h("input", { type: "checkbox", id: `${prefix}-house` });
  const toml = h(
    "textarea",
    { id: `${prefix}-toml`, rows: "4", spellcheck: false, hidden: true },
    'preset = "classic"\ntarget = 600\n',
  );
  let players = 2;
  let ready = false;
  const fill = () => {
    const keep = select.value;
    replaceChildren(
      select,
      list
        .filter((p) => !p.players || p.players.includes(players))
        .map((p) => h("option", { value: p.name }, presetName(p.name))),
    );
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
    describe();
  };
  const describe = () => {
    const p = list.find((x) => x.name === select.value);
    desc.textContent = p ? presetDescription(p.name, p.description) : "";
    if (ready) onChange();
  };
  select.addEventListener("change", describe);
  house.addEventListener("change", () => {
    toml.hidden = !house.checked;
    select.disabled = house.checked;
    if (house.checked && !toml.dataset.edited) toml.value = `preset = "${select.value}"\n`;
    onChange();
  });
  toml.addEventListener("input", () => {
    toml.dataset.edited = "1";
  });
  fill();
  ready = true;
  const el = h(
    "fieldset",
    { class: "rules-chooser" },
    h("legend", {}, T.rules),
    h("label", { for: select.id }, T.preset),
    select,
    desc,
    h("label", { class: "inline" }, house, ` ${T.useHouseRules}`),
    toml,
    h("p", { class: "hint muted", hidden: true }, T.houseRulesHint),
  );
  house.addEventListener("change", () => {
    const hint = el.querySelector(".hint");
    if (hint instanceof HTMLElement) hint.hidden = !house.checked;
  });
  return {
    el,
    value: () => (house.checked ? { toml: toml.value } : { preset: select.value }),
    presetName: () => select.value,
    /** @param {number} n */
    setPlayers(n) {
      players = n;
      fill();
    },
  };
}

/**
 * @param {string} prefix
 * @param {(n: 2 | 3) => void} onChange
 * @returns {HTMLElement}
 */
export function playersChooser(prefix, onChange) {
  const radios = /** @type {(2 | 3)[]} */ ([2, 3]).map((n) =>
    h(
      "label",
      { class: "inline" },
      h("input", {
        type: "radio",
        name: `${prefix}-players`,
        value: String(n),
        checked: n === 2,
        onchange: () => onChange(n),
      }),
      ` ${n}`,
    ),
  );
  return h("fieldset", { class: "players-chooser" }, h("legend", {}, T.players), radios);
}

function nameInput() {
  const input = h("input", {
    id: "player-name",
    name: "name",
    maxlength: "24",
    autocomplete: "nickname",
    value: getName() || "",
    placeholder: T.defaultName,
  });
  input.addEventListener("change", () => setName(input.value.trim()));
  return input;
}

/**
 * Draw the start page.
 * @param {HTMLElement} root
 */
export async function lobbyPage(root) {
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  let presetList;
  let botList;
  try {
    [presetList, botList] = await Promise.all([presets(), bots()]);
  } catch (err) {
    replaceChildren(root, h("p", { class: "error", role: "alert" }, T.errorPrefix + errorText(err)));
    return;
  }
  const name = nameInput();
  const currentName = () => {
    const n = name.value.trim() || T.defaultName;
    setName(n);
    return n;
  };
  // the player's name on the server follows the one typed here (a visitor is a player at once)
  const named = () => ensurePlayer(currentName()).catch(() => null);
  name.addEventListener("change", named);
  const playerReady = named();
  // the player's own profile, once the page knows who the player is
  const profileLink = h("a", { href: "/#/leaders", class: "my-profile", hidden: true }, t("Your profile"));
  playerReady.then((me) => {
    if (me && me.id) {
      profileLink.href = profileHref(me.id);
      profileLink.hidden = false;
    }
  });

  // Play against bots.
  /** @type {2 | 3} */
  let botPlayers = 2;
  const botRules = rulesChooser("bots", presetList);
  const botSeats = h("div", { class: "bot-seats" });
  const drawBotSeats = () => {
    const keep = [...botSeats.querySelectorAll("select")].map((s) => s.value);
    const preferred = botList.find((b) => b.level !== "random") || botList[0];
    replaceChildren(
      botSeats,
      Array.from({ length: botPlayers - 1 }, (_, i) => {
        const seat = i + 1;
        const id = `bot-seat-${seat}`;
        // The drop-down names the level; its description is a line below (whole in every language).
        const desc = h("p", { class: "bot-desc muted", id: `${id}-desc` });
        const select = h(
          "select",
          { id, name: id, "aria-describedby": desc.id },
          botList.map((b) =>
            h("option", { value: b.level, title: botDescription(b.level, b.description) }, botName(b.level)),
          ),
        );
        const describe = () => {
          const b = botList.find((x) => x.level === select.value);
          desc.textContent = b ? botDescription(b.level, b.description) : "";
        };
        select.addEventListener("change", describe);
        select.value = keep[i] || (preferred ? preferred.level : "");
        describe();
        return h(
          "div",
          { class: "bot-seat" },
          h("div", { class: "field-row" }, h("label", { for: id }, T.botLevel(seat)), select),
          desc,
        );
      }),
    );
  };
  drawBotSeats();
  const seed = seedInput("bots-seed");
  const botError = h("p", { class: "error", role: "alert", hidden: true });
  const botForm = h(
    "form",
    {
      class: "card-panel",
      id: "play-bots",
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        /** @type {Record<string, string>} */
        const levels = {};
        /** @type {import("./wire").CreateRoomBody} */
        const body = { name: currentName(), players: botPlayers, rules: botRules.value(), bots: levels };
        botSeats.querySelectorAll("select").forEach((s, i) => {
          levels[String(i + 1)] = s.value;
        });
        if (seed.value !== "") body.seed = Number(seed.value);
        await createRoom(body, botError, botForm);
      },
    },
    h("h2", {}, T.playBots),
    h("p", { class: "muted" }, T.playBotsIntro),
    playersChooser("bots", (n) => {
      botPlayers = n;
      botRules.setPlayers(n);
      drawBotSeats();
    }),
    botRules.el,
    botSeats,
    h("details", {}, h("summary", {}, T.seed), seed),
    botError,
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, T.startGame)),
  );

  // Play online.
  /** @type {2 | 3} */
  let onlinePlayers = 2;
  const onlineRules = rulesChooser("online", presetList);
  const onlineError = h("p", { class: "error", role: "alert", hidden: true });
  const onlineHints = h("input", { type: "checkbox", id: "online-hints" });
  const onlineClock = clockChooser();
  const onlineRated = h("input", { type: "checkbox", id: "online-rated" });
  const onlineForm = h(
    "form",
    {
      class: "card-panel",
      id: "play-online",
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        /** @type {import("./wire").CreateRoomBody} */
        const body = { name: currentName(), players: onlinePlayers, rules: onlineRules.value() };
        if (onlineHints.checked) body.hints = true;
        Object.assign(body, onlineClock.value());
        // a rated game is public (the server asks for a clock and a preset's rules too)
        if (onlineRated.checked) Object.assign(body, { rated: true, public: true });
        // No seed: with other people at the table the server draws the deal and commits to it.
        await createRoom(body, onlineError, onlineForm);
      },
    },
    h("h2", {}, T.playOnline),
    h("p", { class: "muted" }, T.playOnlineIntro),
    playersChooser("online", (n) => {
      onlinePlayers = n;
      onlineRules.setPlayers(n);
    }),
    onlineRules.el,
    h("label", { class: "inline" }, onlineHints, ` ${T.hintRoomOption}`),
    onlineClock.el,
    h("label", { class: "inline" }, onlineRated, " ", t("Rated: the result moves the players' ratings (public, with a clock)")),
    onlineError,
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, T.createRoom)),
  );

  const running = h("div", { class: "my-games-slot" });
  const games = h(
    "section",
    { class: "card-panel games" },
    h("h2", {}, T.finishedGames),
    h("p", { class: "muted" }, T.loading),
  );
  replaceChildren(
    root,
    h(
      "section",
      { class: "intro" },
      h("p", { class: "tagline" }, T.tagline),
      tutorialInvite(),
      h("div", { class: "field-row name-row" }, h("label", { for: "player-name" }, T.yourName), name, profileLink),
    ),
    h("div", { class: "lobby-grid" }, botForm, onlineForm),
    lobbyLive(presetList, currentName, playerReady),
    upcomingTournaments(),
    running,
    games,
  );
  drawGames(games, running);
}

/**
 * A seed field: the same seed deals the same game.
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export function seedInput(id) {
  return h("input", { id, type: "number", min: "0", step: "1", inputmode: "numeric", "aria-label": T.seed });
}

/**
 * @param {import("./wire").CreateRoomBody} body
 * @param {HTMLElement} errorEl
 * @param {HTMLFormElement} form
 */
async function createRoom(body, errorEl, form) {
  showError(errorEl, "");
  const submit = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  submit.disabled = true;
  try {
    const res = await ask("POST /api/rooms", "/api/rooms", body);
    setToken(res.room, res.token);
    location.assign(res.invite || `/r/${encodeURIComponent(res.room)}`);
  } catch (err) {
    showError(errorEl, errorText(err));
    submit.disabled = false;
  }
}

/**
 * @param {HTMLElement} section
 * @param {HTMLElement} running
 */
async function drawGames(section, running) {
  /** @type {(import("./wire").FinishedGame | import("./wire").HeldGame)[]} */
  let list;
  const mine = myGames();
  try {
    list = (await ask("GET /api/games", "/api/games")).games;
  } catch (err) {
    replaceChildren(section, h("h2", {}, T.finishedGames), h("p", { class: "error" }, errorText(err)));
    return;
  }
  // private games are listed only to their players: this browser's own finished games join the public ones
  const own = await mine;
  showRunning(running, own);
  const listed = new Set(list.map((g) => g.room));
  const finished = own.filter((g) => g.status === "over" && g.finished_at && !listed.has(g.room));
  list = [...list, ...finished].sort((a, b) => String(b.finished_at).localeCompare(String(a.finished_at)));
  const items = list.slice(0, 20).map((g) => {
    const shown = playerNames(g.players);
    const winner = g.winner === null || g.winner === undefined ? "" : shown[g.winner];
    const when = g.finished_at
      ? new Date(typeof g.finished_at === "number" ? g.finished_at * 1000 : g.finished_at).toLocaleString(document.documentElement.lang || undefined)
      : "";
    return h(
      "li",
      {},
      h("span", { class: "g-players" }, linkedNames(playerNames(g.players, { withLevel: true }), "player_ids" in g ? g.player_ids : undefined)),
      winner ? h("span", { class: "g-winner" }, ` — ${T.evGameEnded(winner)}`) : null,
      h("span", { class: "muted g-when" }, ` ${when}`),
      h("span", { class: "spacer" }),
      h("a", { href: `/#/replay?room=${encodeURIComponent(g.room)}` }, T.watchReplay),
      " ",
      h(
        "a",
        { href: `/api/games/${encodeURIComponent(g.room)}/record`, download: `roppyakken-${g.room}.json` },
        T.download,
      ),
    );
  });
  replaceChildren(
    section,
    h("h2", {}, T.finishedGames),
    items.length ? h("ul", { class: "game-list" }, items) : h("p", { class: "muted" }, T.noFinishedGames),
  );
}
