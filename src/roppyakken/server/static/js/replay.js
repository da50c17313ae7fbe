// The replay viewer: open a game record (FORMATS.md §3, a file or a finished game of this
// server) and step forward and back through every deal, play and score.  A finished game has
// no hidden information left, so every hand is shown face up.

import {
  KINDS,
  SLUGS,
  cardElement,
  cardGender,
  cardName,
  cardNames,
  monthOf,
  pointsOf,
  pointsOfAll,
  sortCards,
} from "./deck.js";
import T, { KIND_PLURALS, distinctNames, playerNames, presetName, yakuName } from "./text.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ask, resolveRules } from "./api.js";
import { usePreset } from "./decks.js";
import { byKind } from "./yaku.js";
import { renderBreakdown } from "./breakdown.js";
import { fairText, verifyDeals } from "./fairdeal.js";
import { listText, t } from "./i18n.js";
import { myGames } from "./mygames.js";
import { savedGame } from "./offlinestore.js";

const FORMAT = "roppyakken-record/1";

/**
 * One step of a replay: where every card is after it, and what it was ("deal", "play" with
 * its record event, or "scores" with the round's scores and the totals before them).
 * @typedef {{round: number, dealer: number, hands: string[][], table: string[], captures: string[][],
 *   pile: number, declared: import("./types.js").GameRecord[], totals: number[], kind: "deal" | "play" | "scores",
 *   event?: import("./types.js").GameRecord, scores?: import("./types.js").ScoreDocument, before?: number[]}} ReplayStep
 */

/**
 * Every step of a record: the deal of each round, each card played, each round's scores.
 * @param {import("./types.js").GameRecord} record
 * @param {import("./types.js").RuleOptions | null | undefined} options
 * @returns {ReplayStep[]}
 */
export function buildSteps(record, options) {
  const n = record.players.length;
  /** @type {ReplayStep[]} */
  const steps = [];
  /** @type {number[]} */
  let totals = new Array(n).fill(0);
  record.rounds.forEach((/** @type {import("./types.js").GameRecord} */ rnd, /** @type {number} */ index) => {
    /** @type {string[][]} */
    const hands = rnd.hands.map((/** @type {string[]} */ hand) => [...hand]);
    /** @type {string[]} */
    const table = [...rnd.table];
    /** @type {string[][]} */
    const captures = Array.from({ length: n }, () => []);
    if (options && options.table_four === "dealer_takes") {
      for (let m = 1; m <= 12; m++) {
        const four = table.filter((s) => monthOf(s) === m);
        if (four.length === 4) {
          captures[rnd.dealer].push(...four);
          for (const s of four) table.splice(table.indexOf(s), 1);
        }
      }
    }
    let pile = rnd.pile.length;
    /** @param {Pick<ReplayStep, "kind"> & Partial<ReplayStep>} extra @returns {ReplayStep} */
    const snap = (extra) => ({
      round: index,
      dealer: rnd.dealer,
      hands: hands.map((x) => [...x]),
      table: [...table],
      captures: captures.map((x) => [...x]),
      pile,
      declared: rnd.lucky_hands || [],
      totals: [...totals],
      ...extra,
    });
    steps.push(snap({ kind: "deal" }));
    for (const ev of rnd.events || []) {
      if (ev.source === "hand") {
        const hand = hands[ev.seat];
        const i = hand.indexOf(ev.card);
        if (i >= 0) hand.splice(i, 1);
      } else {
        pile -= 1;
      }
      if (ev.captured && ev.captured.length) {
        for (const s of ev.captured) {
          const i = table.indexOf(s);
          if (i >= 0) table.splice(i, 1);
        }
        captures[ev.seat].push(ev.card, ...ev.captured);
      } else {
        table.push(ev.card);
      }
      steps.push(snap({ kind: "play", event: ev }));
    }
    if (rnd.scores) {
      const after = rnd.totals || totals;
      steps.push(snap({ kind: "scores", scores: rnd.scores, totals: [...after], before: [...totals] }));
      totals = [...after];
    }
  });
  return steps;
}

/**
 * Draw the replay page; `params` may name a finished game's room.
 * @param {HTMLElement} root
 * @param {URLSearchParams} params
 */
export async function replayPage(root, params) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const viewer = h("div", { class: "replay-viewer" });
  const file = h("input", { type: "file", accept: ".json,application/json", id: "replay-file" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    try {
      const record = JSON.parse(await f.text());
      await show(record);
    } catch {
      showError(error, T.replayBadFile);
    }
  });
  /** @param {import("./types.js").GameRecord} record */
  const show = async (record) => {
    if (
      !record ||
      record.format !== FORMAT ||
      !Array.isArray(record.rounds) ||
      !Array.isArray(record.players)
    ) {
      showError(error, T.replayBadFile);
      return;
    }
    showError(error, "");
    const rules = await resolveRules(record.rules);
    usePreset(rules.preset);
    mountViewer(viewer, record, rules);
    const fair = verifyDeals(record, SLUGS, fairText(t));
    if (fair) viewer.prepend(h("p", { class: fair.ok ? "fair-deal" : "fair-deal error" }, fair.message));
  };
  const games = h("ul", { class: "game-list" });
  replaceChildren(
    root,
    h(
      "section",
      { class: "card-panel replay" },
      h("h1", {}, T.replayTitle),
      h("p", { class: "muted" }, T.replayIntro),
      h("div", { class: "field-row" }, h("label", { for: "replay-file" }, T.replayOpen), file),
      games,
      error,
      viewer,
    ),
  );
  const room = params.get("room");
  const saved = params.get("saved");
  const uploaded = params.get("uploaded");
  if (saved) {
    // a game played offline, kept in this browser (offlinestore.js)
    const entry = await savedGame(Number(saved)).catch(() => undefined);
    if (entry) await show(entry.record);
    else showError(error, T.errorPrefix + t("This game is not saved in this browser."));
  } else if (uploaded) {
    try {
      await show(await ask("GET /api/offline-games/{game}/record", `/api/offline-games/${encodeURIComponent(uploaded)}/record`));
    } catch (err) {
      showError(error, T.errorPrefix + errorText(err));
    }
  } else if (room) {
    try {
      await show(await ask("GET /api/games/{room}/record", `/api/games/${encodeURIComponent(room)}/record`));
    } catch (err) {
      showError(error, T.errorPrefix + errorText(err));
    }
  } else {
    try {
      // the public games, and this browser's own (private games are listed only to their players)
      const [shared, own] = await Promise.all([ask("GET /api/games", "/api/games"), myGames()]);
      const sharedGames = shared.games;
      const listed = new Set(sharedGames.map((g) => g.room));
      const mine = own.filter((g) => g.status === "over" && !listed.has(g.room));
      const list = [...mine, ...sharedGames]
        .sort((a, b) => String(b.finished_at).localeCompare(String(a.finished_at)))
        .slice(0, 10);
      replaceChildren(
        games,
        list.map((g) =>
          h(
            "li",
            {},
            h(
              "a",
              { href: `/#/replay?room=${encodeURIComponent(g.room)}` },
              playerNames(g.players, { withLevel: true }).join(" · "),
            ),
            g.winner !== null && g.winner !== undefined
              ? ` — ${T.evGameEnded(playerNames(g.players)[g.winner])}`
              : "",
          ),
        ),
      );
    } catch {
      /* no list: a file can still be opened */
    }
  }
}

/**
 * @param {HTMLElement} viewer
 * @param {import("./types.js").GameRecord} record
 * @param {import("./types.js").RulesInfo} rules
 */
function mountViewer(viewer, record, rules) {
  const steps = buildSteps(record, rules.options);
  const names = distinctNames(record.players);
  let index = 0;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  const board = h("div", { class: "replay-board" });
  const caption = h("p", { class: "replay-caption", "aria-live": "polite" });
  const counter = h("span", { class: "replay-counter" });
  /** @param {number} i */
  const go = (i) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  /** @param {number} dir */
  const roundStart = (dir) => {
    const r = steps[index].round + dir;
    const first = steps.findIndex((s) => s.round === r);
    if (first >= 0) go(first);
    else go(dir < 0 ? 0 : steps.length - 1);
  };
  const playBtn = h("button", { type: "button", class: "replay-play" }, T.replayPlay);
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    playBtn.textContent = T.replayPlay;
  };
  playBtn.addEventListener("click", () => {
    if (timer) return stop();
    playBtn.textContent = T.replayPause;
    timer = setInterval(() => {
      if (index >= steps.length - 1) stop();
      else go(index + 1);
    }, 900);
  });
  /** @param {string} label @param {string} cls @param {() => void} fn */
  const btn = (label, cls, fn) =>
    h(
      "button",
      {
        type: "button",
        class: cls,
        "aria-label": label,
        title: label,
        onclick: () => {
          stop();
          fn();
        },
      },
      label,
    );
  const controls = h(
    "div",
    { class: "replay-controls", role: "toolbar", "aria-label": T.replayTitle },
    btn(T.replayStart, "replay-first", () => go(0)),
    btn(T.replayPrevRound, "replay-prev-round", () => roundStart(steps[index].kind === "deal" ? -1 : 0)),
    btn(T.replayBack, "replay-back", () => go(index - 1)),
    playBtn,
    btn(T.replayForward, "replay-forward", () => go(index + 1)),
    btn(T.replayNextRound, "replay-next-round", () => roundStart(1)),
    btn(T.replayEnd, "replay-last", () => go(steps.length - 1)),
    counter,
  );
  viewer.tabIndex = 0;
  viewer.onkeydown = (ev) => {
    if (ev.target instanceof HTMLInputElement) return;
    if (ev.key === "ArrowRight") go(index + 1);
    else if (ev.key === "ArrowLeft") go(index - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(steps.length - 1);
    else return;
    ev.preventDefault();
    stop();
  };
  const winner =
    record.winner === null || record.winner === undefined
      ? h("p", { class: "muted" }, T.replayUnfinished)
      : h("p", { class: "winner" }, T.replayWinner(names[record.winner]));
  replaceChildren(
    viewer,
    h("p", {}, h("strong", {}, names.join(" · ")), ` — ${presetName(rules.preset)}`),
    winner,
    controls,
    caption,
    board,
  );

  function draw() {
    const s = steps[index];
    counter.textContent = `${T.round(s.round)} · ${T.replayStep(index + 1, steps.length)}`;
    const ev = s.event;
    if (s.kind === "deal") {
      caption.textContent = T.labelled(T.round(s.round), `${T.replayDeal} — ${T.labelled(T.dealer, names[s.dealer])}`);
    } else if (s.kind === "scores" || !ev) {
      caption.textContent = T.replayScores;
    } else if (ev.captured.length) {
      caption.textContent = T.evPlayedTaking(
        names[ev.seat],
        cardName(ev.card),
        cardNames(ev.captured),
        ev.source === "pile",
      );
    } else {
      caption.textContent = T.evPlayedToTable(names[ev.seat], cardName(ev.card), ev.source === "pile", cardGender(ev.card));
    }
    const moved = new Set(ev ? [ev.card, ...ev.captured] : []);
    const seats = names.map((nm, seat) => {
      const groups = byKind(s.captures[seat]);
      const declared = listText((s.declared[seat] || []).map(yakuName));
      return h(
        "section",
        {
          class: `player replay-seat${ev && ev.seat === seat ? " acting" : ""}`,
          dataset: { seat: String(seat) },
        },
        h(
          "header",
          { class: "pheader" },
          h("span", { class: "pname" }, nm),
          s.dealer === seat ? h("span", { class: "badge dealer" }, T.dealer) : null,
          h("span", { class: "spacer" }),
          h("span", { class: "ptotal" }, T.totalN(s.totals[seat])),
        ),
        h(
          "div",
          { class: "replay-hand" },
          sortCards(s.hands[seat]).map((c) => cardElement(c, { size: "sm" })),
        ),
        declared ? h("div", { class: "pdeclared" }, T.labelled(T.declaredHands, declared)) : null,
        h(
          "div",
          { class: "pcaptures" },
          KINDS.filter((k) => groups[k].length).map((k) =>
            h(
              "div",
              { class: `cgroup kind-${k}` },
              h("span", { class: "klabel" }, KIND_PLURALS[k], h("b", {}, ` ${pointsOfAll(groups[k])}`)),
              h(
                "div",
                { class: "cstack" },
                groups[k].map((c) =>
                  cardElement(c, {
                    extraClass: `${pointsOf(c) ? "" : "zero"}${moved.has(c) ? " moved" : ""}`,
                  }),
                ),
              ),
            ),
          ),
          h("span", { class: "cpoints" }, T.cardPoints(pointsOfAll(s.captures[seat]))),
        ),
      );
    });
    const table = h(
      "div",
      { class: "field" },
      h(
        "div",
        { class: "pile-area" },
        h("div", { class: "pile" }, h("span", { class: "pile-count" }, T.pileCount(s.pile))),
      ),
      h(
        "div",
        { class: "table-cards", role: "group", "aria-label": T.tableLabel },
        sortCards(s.table).map((c) => cardElement(c, { extraClass: moved.has(c) ? "moved" : "" })),
      ),
    );
    const parts = [seats, table];
    if (s.kind === "scores") {
      parts.push(
        renderBreakdown(
          { players: s.scores, fuke: false, instant_win: null },
          { names, captures: s.captures, totals: s.totals, options: rules.options },
        ),
      );
    }
    replaceChildren(board, parts);
    if (index === steps.length - 1 && record.winner !== null && record.winner !== undefined) {
      board.append(h("p", { class: "winner" }, T.replayWinner(names[record.winner])));
    }
  }
  draw();
  viewer.focus({ preventScroll: true });
}
