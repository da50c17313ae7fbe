// The scoring calculator for games played with physical cards: tap the cards each player
// captured, tick declared lucky hands, and get the breakdown from POST /api/score (the same
// scoring as `roppyakken score`).

import { SLUGS, cardElement, cardName, pointsOfAll } from "./deck.js";
import T, { LUCKY_HAND_NAMES, MONTH_NAMES, yakuName } from "./text.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ApiError, ask, presets, resolveRules } from "./api.js";
import { isOffline } from "./appshell.js";
import { scoreOffline } from "./offlineengine.js";
import { usePreset } from "./decks.js";
import { rulesChooser } from "./lobby.js";
import { renderBreakdown } from "./breakdown.js";

/**
 * POST /api/score's answer: from the server, or, offline or when it cannot be reached, from the
 * offline engine (the same scoring, run in this browser).
 * @param {import("./types.js").Json} body
 */
async function scoreAnywhere(body) {
  if (isOffline()) return scoreOffline(body);
  try {
    return await ask("POST /api/score", "/api/score", body);
  } catch (err) {
    if (err instanceof ApiError && err.status === 0) return scoreOffline(body);
    throw err;
  }
}

/**
 * Draw the calculator page.
 * @param {HTMLElement} root
 */
export async function calcPage(root) {
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  let presetList;
  try {
    presetList = await presets();
  } catch (err) {
    replaceChildren(root, h("p", { class: "error", role: "alert" }, T.errorPrefix + errorText(err)));
    return;
  }
  /** @type {{players: number, active: number, captures: string[][], lucky: Set<string>[]}} */
  const state = { players: 2, active: 0, captures: [[], [], []], lucky: [new Set(), new Set(), new Set()] };
  /** @type {Map<string, number>} */
  const owner = new Map(); // slug -> seat

  const result = h("div", { class: "calc-result", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const tabs = h("div", { class: "calc-tabs", role: "radiogroup", "aria-label": T.calcCapturing });
  const summaries = h("div", { class: "calc-summaries" });
  const grid = h("div", { class: "calc-grid" });
  const rules = rulesChooser("calc", presetList, () => drawSummaries());
  usePreset(rules.presetName());
  rules.el.addEventListener("change", () => usePreset(rules.presetName()));

  const luckySlugs = () => {
    const p = presetList.find((x) => x.name === rules.presetName());
    const v = rules.value();
    if (v.toml !== undefined || !p) return Object.keys(LUCKY_HAND_NAMES);
    return Object.keys(p.options.lucky_hands || {});
  };

  /** @param {string} slug */
  const tap = (slug) => {
    const seat = state.active;
    const current = owner.get(slug);
    if (current !== undefined) {
      state.captures[current] = state.captures[current].filter((s) => s !== slug);
      owner.delete(slug);
    }
    if (current !== seat) {
      state.captures[seat].push(slug);
      owner.set(slug, seat);
    }
    drawGrid();
    drawSummaries();
  };

  const drawTabs = () => {
    replaceChildren(
      tabs,
      Array.from({ length: state.players }, (_, i) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            class: `calc-tab seat-${i}${i === state.active ? " active" : ""}`,
            "aria-checked": i === state.active ? "true" : "false",
            onclick: () => {
              state.active = i;
              drawTabs();
            },
          },
          T.calcPlayer(i),
        ),
      ),
    );
  };

  const drawGrid = () => {
    const rows = [];
    for (let m = 1; m <= 12; m++) {
      const cards = SLUGS.slice((m - 1) * 4, m * 4).map((slug) => {
        const seat = owner.get(slug);
        const el = cardElement(slug, {
          button: true,
          extraClass: seat !== undefined ? `owned seat-${seat}` : "",
        });
        el.setAttribute("aria-pressed", seat !== undefined ? "true" : "false");
        el.setAttribute(
          "aria-label",
          seat !== undefined ? T.labelled(cardName(slug), T.calcPlayer(seat)) : cardName(slug),
        );
        if (seat !== undefined)
          el.append(h("span", { class: "owner-badge", "aria-hidden": "true" }, T.calcOwner(seat)));
        el.addEventListener("click", () => tap(slug));
        return el;
      });
      rows.push(
        h("div", { class: "calc-month" }, h("span", { class: "calc-month-name" }, MONTH_NAMES[m - 1]), cards),
      );
    }
    replaceChildren(grid, rows);
  };

  const drawSummaries = () => {
    const slugs = luckySlugs();
    replaceChildren(
      summaries,
      Array.from({ length: state.players }, (_, i) => {
        for (const s of [...state.lucky[i]]) if (!slugs.includes(s)) state.lucky[i].delete(s);
        return h(
          "section",
          { class: `calc-player seat-${i}` },
          h(
            "h3",
            {},
            T.calcPlayer(i),
            " ",
            h(
              "span",
              { class: "muted" },
              T.calcCount(state.captures[i].length, pointsOfAll(state.captures[i])),
            ),
          ),
          h(
            "div",
            { class: "calc-caps" },
            state.captures[i].map((s) => cardElement(s, { size: "xs" })),
          ),
          slugs.length
            ? h(
                "fieldset",
                { class: "calc-lucky" },
                h("legend", {}, T.calcLucky),
                slugs.map((slug) =>
                  h(
                    "label",
                    { class: "inline" },
                    h("input", {
                      type: "checkbox",
                      value: slug,
                      checked: state.lucky[i].has(slug),
                      onchange: (/** @type {Event} */ ev) =>
                        /** @type {HTMLInputElement} */ (ev.target).checked ? state.lucky[i].add(slug) : state.lucky[i].delete(slug),
                    }),
                    ` ${yakuName(slug)}`,
                  ),
                ),
              )
            : null,
        );
      }),
    );
  };

  const players = h(
    "fieldset",
    { class: "players-chooser" },
    h("legend", {}, T.players),
    [2, 3].map((n) =>
      h(
        "label",
        { class: "inline" },
        h("input", {
          type: "radio",
          name: "calc-players",
          value: String(n),
          checked: n === 2,
          onchange: () => {
            state.players = n;
            rules.setPlayers(n);
            if (n === 2) {
              for (const s of state.captures[2]) owner.delete(s);
              state.captures[2] = [];
              state.lucky[2].clear();
              if (state.active === 2) state.active = 0;
            }
            drawTabs();
            drawGrid();
            drawSummaries();
          },
        }),
        ` ${n}`,
      ),
    ),
  );

  const score = async () => {
    showError(error, "");
    const body = {
      players: Array.from({ length: state.players }, (_, i) => ({
        captures: state.captures[i],
        lucky_hands: [...state.lucky[i]],
      })),
      rules: rules.value(),
    };
    try {
      const res = await scoreAnywhere(body);
      const names = Array.from({ length: state.players }, (_, i) => T.calcPlayer(i));
      let options = null;
      if (body.rules.preset) options = (await resolveRules({ preset: body.rules.preset })).options;
      replaceChildren(
        result,
        renderBreakdown(res, { names, captures: body.players.map((p) => p.captures), options }),
      );
      result.scrollIntoView({ behavior: "smooth", block: "start" });
    } catch (err) {
      showError(error, errorText(err));
    }
  };

  const clear = () => {
    owner.clear();
    state.captures = [[], [], []];
    state.lucky = [new Set(), new Set(), new Set()];
    replaceChildren(result);
    drawGrid();
    drawSummaries();
  };

  drawTabs();
  drawGrid();
  drawSummaries();
  replaceChildren(
    root,
    h(
      "section",
      { class: "card-panel calc" },
      h("h1", {}, T.calcTitle),
      h("p", { class: "muted" }, T.calcIntro),
      h("div", { class: "calc-setup" }, players, rules.el),
      h("div", { class: "calc-pick" }, h("span", {}, T.calcCapturing), tabs),
      grid,
      summaries,
      error,
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "button", class: "primary calc-score", onclick: score }, T.calcScore),
        h("button", { type: "button", onclick: clear }, T.calcClear),
      ),
      result,
    ),
  );
}
