// Leaderboards (#/leaders?pool=…&page=…) and player profiles (#/player/<id>): GET /api/leaderboard/<pool>
// and GET /api/players/<id>.  The rating chart is an SVG drawn here, with no outside service.

import { errorText, h, replaceChildren } from "./dom.js";
import { ask } from "./api.js";
import { t } from "./i18n.js";
import { relationButtons } from "./friends.js";
import T, { LUCKY_HAND_NAMES, botName, playerNames, presetName, yakuName } from "./text.js";

const SVG = "http://www.w3.org/2000/svg";

/** The rating pools, in the server's order (server/profiles.py POOLS). */
export const POOLS = ["classic-2", "classic-3", "korean-2", "korean-3", "match-2", "match-3"];

/**
 * The leaderboard's and the profile's answers, as the protocol declares them (wire.d.ts).
 * @typedef {import("./wire").BoardEntry} BoardEntry
 * @typedef {import("./wire").LeaderboardAnswer} Board
 * @typedef {import("./wire").RatingPoint} HistoryPoint
 * @typedef {import("./wire").ProfileRating} PoolRating
 * @typedef {import("./wire").RecentGame} RecentGame
 * @typedef {import("./wire").ProfileAnswer} Profile
 */

/** A pool's name for people ("Classic, 2 players"). @param {string} pool @returns {string} */
export function poolName(pool) {
  const [family, players] = pool.split("-");
  /** @type {Record<string, string>} */
  const families = { classic: t("Classic"), korean: t("Korean"), match: t("Matches") };
  return t("{family}, {players} players", { family: families[family] || family, players });
}

/** The address of a player's profile. @param {string} id @returns {string} */
export function profileHref(id) {
  return `/#/player/${encodeURIComponent(id)}`;
}

/**
 * Names as links to their players' profiles where the seat's player is known (bots and unknown seats as text).
 * @param {string[]} names  the names as shown
 * @param {(string|null|undefined)[] | undefined} ids  each seat's player id
 * @returns {(Node|string)[]}
 */
export function linkedNames(names, ids) {
  /** @type {(Node|string)[]} */
  const out = [];
  names.forEach((name, seat) => {
    if (seat) out.push(" · ");
    const id = ids ? ids[seat] : null;
    out.push(id ? h("a", { href: profileHref(id), class: "player-link" }, name) : name);
  });
  return out;
}

/** A date for people, in the page's language. @param {string|null} iso @returns {string} */
function when(iso) {
  return iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined) : "";
}

/**
 * The leaderboard page.
 * @param {HTMLElement} root
 * @param {URLSearchParams} params  pool and page
 */
export async function leadersPage(root, params) {
  const pool = POOLS.includes(params.get("pool") || "") ? String(params.get("pool")) : POOLS[0];
  const page = Math.max(1, Math.min(100000, parseInt(params.get("page") || "1", 10) || 1));
  const tabs = h(
    "nav",
    { class: "pool-tabs", "aria-label": t("Rating pools") },
    POOLS.map((p) =>
      h("a", { href: `/#/leaders?pool=${p}`, "aria-current": p === pool ? "page" : null, dataset: { pool: p } }, poolName(p)),
    ),
  );
  const body = h("div", { class: "board-body", "aria-live": "polite" }, h("p", { class: "muted" }, t("Loading…")));
  replaceChildren(
    root,
    h("section", { class: "card-panel leaders" }, h("h1", {}, t("Leaderboards")), tabs, h("h2", {}, poolName(pool)), body),
  );
  /** @type {Board} */
  let board;
  try {
    board = await ask("GET /api/leaderboard/{pool}", `/api/leaderboard/${encodeURIComponent(pool)}?page=${page}`);
  } catch (err) {
    replaceChildren(body, h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  const note = h(
    "p",
    { class: "muted" },
    t("Players who played a rated game in the last {days} days and whose rating is no longer provisional.", {
      days: board.active_days,
    }),
  );
  if (!board.players.length) {
    replaceChildren(body, note, h("p", {}, t("Nobody is on this leaderboard yet.")));
    return;
  }
  const rows = board.players.map((e) =>
    h(
      "tr",
      { dataset: { player: e.player } },
      h("td", { class: "num" }, e.rank),
      h("td", {}, h("a", { href: profileHref(e.player) }, e.name || e.player)),
      h("td", { class: "num" }, e.rating, h("span", { class: "muted" }, ` ±${e.uncertainty}`)),
      h("td", { class: "num" }, e.games),
    ),
  );
  const table = h(
    "table",
    { class: "board" },
    h("caption", { class: "sr-only" }, t("Leaderboard: {pool}", { pool: poolName(pool) })),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", class: "num" }, t("Rank")),
        h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col", class: "num" }, t("Rating")),
        h("th", { scope: "col", class: "num" }, t("Games")),
      ),
    ),
    h("tbody", {}, rows),
  );
  const at = (/** @type {number} */ n) => `/#/leaders?pool=${pool}&page=${n}`;
  const pager = h(
    "nav",
    { class: "pager", "aria-label": t("Pages") },
    board.page > 1 ? h("a", { href: at(board.page - 1), rel: "prev" }, t("Previous page")) : null,
    h("span", { class: "muted" }, t("Page {page} of {pages}", { page: board.page, pages: board.pages })),
    board.page < board.pages ? h("a", { href: at(board.page + 1), rel: "next" }, t("Next page")) : null,
  );
  replaceChildren(body, note, table, pager);
}

/**
 * A rating history as an SVG line chart: the rating after each rated game, and a band of one
 * uncertainty either side.
 * @param {PoolRating} rating
 * @returns {SVGSVGElement}
 */
export function ratingChart(rating) {
  const width = 560;
  const height = 200;
  const pad = { left: 48, right: 12, top: 12, bottom: 28 };
  const points = rating.history;
  const label = points.length
    ? t("Rating history in {pool}: from {first} to {last} over {games} rated games", {
        pool: poolName(rating.pool),
        first: points[0].rating,
        last: points[points.length - 1].rating,
        games: points.length,
      })
    : t("Rating history in {pool}", { pool: poolName(rating.pool) });
  /** @param {string} tag @param {Record<string, string|number>} attrs @returns {SVGElement} */
  const el = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = /** @type {SVGSVGElement} */ (
    el("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img", "aria-label": label })
  );
  const title = el("title", {});
  title.textContent = label;
  svg.append(title);
  if (!points.length) return svg;
  const lows = points.map((p) => p.rating - p.uncertainty);
  const highs = points.map((p) => p.rating + p.uncertainty);
  let min = Math.min(...lows);
  let max = Math.max(...highs);
  if (max - min < 50) {
    const mid = (max + min) / 2;
    min = mid - 25;
    max = mid + 25;
  }
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (/** @type {number} */ i) => pad.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = (/** @type {number} */ v) => pad.top + ((max - v) * plotH) / (max - min);
  // the axes and three levels
  for (const v of [min, (min + max) / 2, max]) {
    svg.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    const tick = el("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    tick.textContent = String(Math.round(v));
    svg.append(tick);
  }
  const first = el("text", { x: pad.left, y: height - 8, "text-anchor": "start", class: "tick" });
  first.textContent = "1";
  const last = el("text", { x: width - pad.right, y: height - 8, "text-anchor": "end", class: "tick" });
  last.textContent = String(points.length);
  svg.append(first, last);
  const upper = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating + p.uncertainty).toFixed(1)}`);
  const lower = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating - p.uncertainty).toFixed(1)}`).reverse();
  svg.append(el("polygon", { points: [...upper, ...lower].join(" "), class: "band" }));
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  svg.append(el("polyline", { points: line, class: "line" }));
  points.forEach((p, i) => {
    svg.append(el("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: points.length > 60 ? 1.5 : 3, class: "dot" }));
  });
  return svg;
}

/** A place for people ("1st"). @param {number|null} place @returns {string} */
function placeText(place) {
  if (place === 1) return t("1st");
  if (place === 2) return t("2nd");
  if (place === 3) return t("3rd");
  return "—";
}

/**
 * The profile page.
 * @param {HTMLElement} root
 * @param {string} id  the player's id
 */
export async function playerPage(root, id) {
  const section = h("section", { class: "card-panel profile" }, h("p", { class: "muted" }, t("Loading…")));
  replaceChildren(root, section);
  /** @type {Profile} */
  let p;
  try {
    p = await ask("GET /api/players/{player}", `/api/players/${encodeURIComponent(id)}`);
  } catch (err) {
    replaceChildren(section, h("h1", {}, t("Player")), h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  const ratings = p.ratings.length
    ? p.ratings.map((r) =>
        h(
          "div",
          { class: "pool-rating", dataset: { pool: r.pool } },
          h(
            "h3",
            {},
            poolName(r.pool),
            " — ",
            h("span", { class: "rating-value" }, `${r.rating} ±${r.uncertainty}`),
            r.provisional ? h("span", { class: "badge provisional" }, t("provisional")) : null,
          ),
          h("p", { class: "muted" }, t("{games} rated games", { games: r.games })),
          ratingChart(r),
        ),
      )
    : [h("p", { class: "muted" }, t("No rating yet: ratings come from rated games."))];
  const pts = p.points;
  let pointsText = "—";
  if (pts) {
    pointsText =
      pts.low === null || pts.high === null
        ? t("{mean} over {rounds} rounds", { mean: pts.mean, rounds: pts.rounds })
        : t("{mean} ({low} to {high} at 95%) over {rounds} rounds", {
            mean: pts.mean,
            low: pts.low,
            high: pts.high,
            rounds: pts.rounds,
          });
  }
  /** @param {string} term @param {string|number} value @param {string} key */
  const stat = (term, value, key) => [h("dt", {}, term), h("dd", { dataset: { stat: key } }, value)];
  const stats = h(
    "dl",
    { class: "stats" },
    stat(t("Games played"), p.games, "games"),
    stat(t("First places"), p.places["1"] || 0, "first"),
    stat(t("Second places"), p.places["2"] || 0, "second"),
    stat(t("Third places"), p.places["3"] || 0, "third"),
    stat(t("Points a round"), pointsText, "points"),
    stat(t("Games left to a bot"), p.abandoned, "abandoned"),
  );
  /** @param {string} caption @param {{slug: string, rounds: number}[]} list @param {(s: string) => string} name */
  const counts = (caption, list, name) =>
    list.length
      ? h(
          "table",
          { class: "counts" },
          h("caption", {}, caption),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Name")), h("th", { scope: "col", class: "num" }, t("Rounds")))),
          h(
            "tbody",
            {},
            list.map((e) => h("tr", { dataset: { slug: e.slug } }, h("td", {}, name(e.slug)), h("td", { class: "num" }, e.rounds))),
          ),
        )
      : h("div", { class: "counts" }, h("h3", {}, caption), h("p", { class: "muted" }, t("None yet.")));
  const recent = p.recent.length
    ? h(
        "ul",
        { class: "game-list recent-games" },
        p.recent.map((g) =>
          h(
            "li",
            { dataset: { room: g.room } },
            h("span", { class: "g-players" }, linkedNames(playerNames(g.players, { withLevel: true }), g.player_ids)),
            h("span", { class: "muted" }, ` ${presetName(g.preset)} · ${placeText(g.place)} · ${when(g.finished_at)}`),
            h("span", { class: "spacer" }),
            h("a", { href: `/#/replay?room=${encodeURIComponent(g.room)}` }, T.watchReplay),
          ),
        ),
      )
    : h("p", { class: "muted" }, t("No finished game to show."));
  const offline = h("section", { class: "offline-games-section", id: "offline-games" });
  const relation = h("div", { class: "relation-host" });
  replaceChildren(
    section,
    h("h1", {}, p.name || p.player),
    relation,
    h("h2", {}, t("Ratings")),
    ratings,
    h("h2", {}, t("Games")),
    stats,
    h(
      "div",
      { class: "count-tables" },
      counts(t("Yaku made most"), p.yaku, yakuName),
      counts(t("Lucky hands"), p.lucky_hands, (s) => LUCKY_HAND_NAMES[s] || s),
    ),
    h("h2", {}, t("Recent games")),
    recent,
    offline,
  );
  drawOfflineGames(offline, id);
  relationButtons(id, p.name || p.player).then((buttons) => {
    if (buttons) replaceChildren(relation, buttons);
  });
}

/**
 * The player's games played offline against bots and uploaded (never rated).
 * @param {HTMLElement} host
 * @param {string} id  the player's id
 */
async function drawOfflineGames(host, id) {
  /** @type {import("./types.js").Json[]} */
  let games;
  try {
    games = (await ask("GET /api/players/{player}/offline-games", `/api/players/${encodeURIComponent(id)}/offline-games`)).games;
  } catch {
    return;
  }
  if (!games.length) return;
  replaceChildren(
    host,
    h("h2", {}, t("Offline games")),
    h("p", { class: "muted" }, t("Played in the browser against bots, without a network: never rated.")),
    h(
      "ul",
      { class: "game-list offline-games" },
      games.map((g) =>
        h(
          "li",
          { dataset: { offline: g.id } },
          h("span", {}, `${presetName(g.preset)} · ${g.opponents.map(botName).join(" · ")}`),
          h("span", { class: "muted" }, ` ${g.won ? t("won") : t("lost")} · ${when(g.uploaded_at)}`),
          h("span", { class: "spacer" }),
          h("a", { href: `/#/replay?uploaded=${encodeURIComponent(g.id)}` }, T.watchReplay),
        ),
      ),
    ),
  );
}
