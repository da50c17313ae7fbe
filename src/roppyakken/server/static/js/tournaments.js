// Tournaments: the list and the form to make one (#/tournaments), a tournament's page
// (#/tournament/<id>: countdown, join / withdraw / pause, standings, games to watch, the player's
// table), and the lobby's list of those about to start.  The page is live over /ws/tournament/<id>;
// when the player is paired it says so and takes them to their table, as quick pairing does.

import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ask, socketUrl } from "./api.js";
import { t } from "./i18n.js";
import { presetName } from "./text.js";
import { getName, setToken } from "./store.js";
import { ensurePlayer } from "./lobbylive.js";
import { profileHref } from "./profiles.js";
import { tableOver, takeSeat, tournamentTokenKey } from "./tabletournament.js";

/**
 * @typedef {import("./wire").TournamentSummary} Summary
 * @typedef {import("./wire").TournamentAnswer} Answer
 * @typedef {import("./wire").TournamentServerMessage} Message
 */

const CLOCKS = ["15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"];
/** Presets a tournament may use (a rating pool's: server/club/ratings/pools.py FAMILIES). */
const PRESETS = ["classic", "online", "ten-card", "lightning", "yukbaek", "marguerite"];

/** A tournament's page. @param {string} id */
export const tournamentHref = (id) => `/#/tournament/${encodeURIComponent(id)}`;

/** A format for people. @param {string} format */
function formatName(format) {
  /** @type {Record<string, string>} */
  const names = { arena: t("Arena"), swiss: t("Swiss"), round_robin: t("Round robin") };
  return names[format] || format;
}

/** A status for people. @param {string} status */
export function statusName(status) {
  /** @type {Record<string, string>} */
  const names = { scheduled: t("Starts soon"), running: t("Under way"), finished: t("Finished"), cancelled: t("Cancelled") };
  return names[status] || status;
}

/** Seconds as m:ss (or h:mm:ss). @param {number} seconds */
function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** What a tournament is, in one line. @param {Summary} s */
export function describe(s) {
  const shape = s.format === "arena" ? "" : ` · ${t("{rounds} rounds", { rounds: s.rounds ?? "?" })}`;
  return `${formatName(s.format)} · ${presetName(s.preset)} · ${t("{players} a table", { players: s.players })} · ${s.clock}${
    s.rated ? ` · ${t("rated")}` : ""
  }${shape}`;
}

/** The line saying when: the countdown to the start or an arena's end, the round. @param {Summary} s @param {number} skew */
function countdown(s, skew) {
  const now = Date.now() / 1000 + skew;
  if (s.status === "scheduled") return t("Starts in {time}", { time: duration(s.starts_at - now) });
  if (s.status === "running" && s.ends_at !== null) return t("Ends in {time}", { time: duration(s.ends_at - now) });
  if (s.status === "running") return t("Round {round} of {rounds}", { round: s.round, rounds: s.rounds ?? "?" });
  return statusName(s.status);
}

/**
 * The tournaments about to start, for the lobby (nothing if there are none).
 * @returns {HTMLElement}
 */
export function upcomingTournaments() {
  const section = h("section", { class: "card-panel tournaments-soon", hidden: true, "aria-labelledby": "tournaments-soon-h" });
  ask("GET /api/tournaments", "/api/tournaments")
    .then((list) => {
      const soon = list.tournaments.filter((s) => s.status === "scheduled").slice(0, 5);
      if (!soon.length) return;
      replaceChildren(
        section,
        h("h2", { id: "tournaments-soon-h" }, t("Tournaments about to start")),
        h(
          "ul",
          { class: "plain-list" },
          soon.map((s) =>
            h(
              "li",
              {},
              h("a", { href: tournamentHref(s.id) }, s.name),
              " ",
              h("span", { class: "muted" }, `${describe(s)} · ${countdown(s, list.now - Date.now() / 1000)}`),
            ),
          ),
        ),
        h("p", {}, h("a", { href: "/#/tournaments" }, t("All tournaments"))),
      );
      section.hidden = false;
    })
    .catch(() => {});
  return section;
}

/**
 * The list of tournaments and the form to make one (``?club=<id>``: the form makes a club-only
 * tournament of that club, and comes first).
 * @param {HTMLElement} root
 * @param {URLSearchParams} [params]
 */
export async function tournamentsPage(root, params) {
  const listing = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, t("Loading…")));
  const club = params?.get("club") || null;
  const form = createForm(club);
  const all = h("section", { class: "card-panel tournaments" }, h("h1", {}, t("Tournaments")), listing);
  replaceChildren(root, ...(club ? [form, all] : [all, form]));
  if (club) /** @type {HTMLElement | null} */ (form.querySelector("#t-name"))?.focus();
  try {
    const list = await ask("GET /api/tournaments", "/api/tournaments");
    if (!list.tournaments.length) {
      replaceChildren(listing, h("p", {}, t("No tournament yet.")));
      return;
    }
    const skew = list.now - Date.now() / 1000;
    replaceChildren(
      listing,
      h(
        "ul",
        { class: "plain-list tournament-list" },
        list.tournaments.map((s) =>
          h(
            "li",
            { dataset: { tournament: s.id } },
            h("a", { href: tournamentHref(s.id) }, s.name),
            " ",
            h("span", { class: "muted" }, `${describe(s)} · ${countdown(s, skew)} · ${t("{count} players", { count: s.entries })}`),
          ),
        ),
      ),
    );
  } catch (err) {
    replaceChildren(listing, h("p", { class: "error", role: "alert" }, errorText(err)));
  }
}

/**
 * A labelled field.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 */
function field(id, label, input) {
  input.id = id;
  return h("div", { class: "field-row" }, h("label", { for: id }, label), input);
}

/** @param {string} name @param {[string, string][]} options */
function select(name, options) {
  return /** @type {HTMLSelectElement} */ (h("select", { name }, options.map(([value, label]) => h("option", { value }, label))));
}

/** @param {string} name @param {string} value @param {number} min @param {number} max */
function number(name, value, min, max) {
  return /** @type {HTMLInputElement} */ (h("input", { name, type: "number", value, min: String(min), max: String(max), inputmode: "numeric" }));
}

/**
 * The form that makes a tournament (signed-in accounts only: the server says so otherwise).
 * @param {string | null} club  a club's id: the tournament is for its members only
 */
function createForm(club) {
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "name", maxlength: "24", required: true, autocomplete: "off" }));
  const format = select("format", [["arena", formatName("arena")], ["swiss", formatName("swiss")], ["round_robin", formatName("round_robin")]]);
  const preset = select("preset", PRESETS.map((p) => [p, presetName(p)]));
  const players = select("players", [["2", "2"], ["3", "3"]]);
  const clock = select("clock", CLOCKS.map((c) => [c, c]));
  const startsIn = number("starts_in", "10", 0, 43200);
  startsIn.step = "any";
  const minutes = number("minutes", "60", 1, 1440);
  const rounds = number("rounds", "5", 1, 30);
  const rated = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", name: "rated", checked: true }));
  /** @type {[string, string][]} */
  const who = [["public", t("Public")], ["private", t("Private (with its link)")]];
  if (club) who.unshift(["club", t("Club members only")]);
  const visibility = select("visibility", who);
  const minutesRow = field("t-minutes", t("Duration (minutes)"), minutes);
  const roundsRow = field("t-rounds", t("Rounds"), rounds);
  const shape = () => {
    minutesRow.hidden = format.value !== "arena";
    roundsRow.hidden = format.value !== "swiss";
  };
  format.addEventListener("change", shape);
  shape();
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const form = h(
    "form",
    {
      class: "card-panel",
      id: "make-tournament",
      onsubmit: async (/** @type {SubmitEvent} */ ev) => {
        ev.preventDefault();
        showError(error, "");
        /** @type {Record<string, unknown>} */
        const body = {
          name: name.value.trim(),
          format: format.value,
          preset: preset.value,
          players: Number(players.value),
          clock: clock.value,
          rated: rated.checked,
          visibility: visibility.value,
          starts_in: Number(startsIn.value) * 60,
        };
        if (club && visibility.value === "club") body.club = club;
        if (format.value === "arena") body.minutes = Number(minutes.value);
        if (format.value === "swiss") body.rounds = Number(rounds.value);
        try {
          const made = await ask("POST /api/tournaments", "/api/tournaments", body);
          location.hash = made.page.replace(/^\/#/, "#");
        } catch (err) {
          showError(error, errorText(err));
        }
      },
    },
    h("h2", {}, club ? t("Make a club tournament") : t("Make a tournament")),
    club ? h("p", {}, h("a", { href: `/#/club/${encodeURIComponent(club)}` }, t("Back to the club"))) : null,
    h("p", { class: "muted" }, t("Players signed in to an account may make tournaments.")),
    field("t-name", t("Name"), name),
    field("t-format", t("Format"), format),
    field("t-preset", t("Rules"), preset),
    field("t-players", t("Players a table"), players),
    field("t-clock", t("Clock"), clock),
    field("t-starts", t("Starts in (minutes)"), startsIn),
    minutesRow,
    roundsRow,
    h("div", { class: "field-row" }, rated, h("label", { for: "t-rated" }, t("Rated"))),
    field("t-visibility", t("Who sees it"), visibility),
    error,
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, t("Make the tournament"))),
  );
  rated.id = "t-rated";
  return form;
}

/** Standings lines in a page (the socket's: docs/PROTOCOL.md). */
const STANDINGS_PAGE = 25;
/** Tables in a page (the socket's: docs/PROTOCOL.md). */
const TABLES_PAGE = 20;

/**
 * @typedef {{page: number, pages: number, tablesPage: number, tablesPages: number, playing: boolean}} At
 *   the pages of the standings and of the tables a socket's message holds
 */

/**
 * A pager: previous, "page n of m", next.
 * @param {string} label  its accessible name
 * @param {(step: number) => void} turn  told -1 or +1
 */
function pagerOf(label, turn) {
  const previous = /** @type {HTMLButtonElement} */ (h("button", { type: "button", onclick: () => turn(-1) }, t("Previous page")));
  const next = /** @type {HTMLButtonElement} */ (h("button", { type: "button", onclick: () => turn(1) }, t("Next page")));
  const says = h("span", { class: "muted", "aria-live": "polite" });
  const nav = h("nav", { class: "pager", "aria-label": label }, previous, says, next);
  /** @param {number} page @param {number} pages */
  const show = (page, pages) => {
    nav.hidden = pages < 2;
    previous.disabled = page <= 1;
    next.disabled = page >= pages;
    says.textContent = t("Page {page} of {pages}", { page, pages });
  };
  return { nav, show };
}

/**
 * A tournament's page, live.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function tournamentPage(root, id) {
  const title = h("h1", {}, t("Tournament"));
  const about = h("p", { class: "muted" });
  const ofClub = h("p", { class: "tournament-club", hidden: true });
  const when = h("p", { class: "countdown", "aria-live": "off" });
  const notice = h("p", { class: "notice", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const actions = h("div", { class: "form-actions" });
  const standings = h("div", {});
  const games = h("div", {});
  /** The page of the standings shown (the socket sends that page: PROTOCOL.md). */
  let page = 1;
  let pages = 1;
  /** The page of the tables shown, of those in play only or not (the socket sends that page). */
  let tablesPage = 1;
  let tablesPages = 1;
  let playing = false;
  /**
   * The socket asked for the page of the standings or of the tables shown (answered at once), or
   * without a socket the whole answer read again.
   * @param {{standings?: boolean, tables?: boolean}} which
   */
  const askPages = async (which) => {
    if (socket && socket.readyState === WebSocket.OPEN) {
      /** @type {import("./wire").TournamentStandingsPage} */
      const lines = { type: "standings", page };
      /** @type {import("./wire").TournamentTablesPage} */
      const tables = { type: "tables", page: tablesPage, playing };
      if (which.standings) socket.send(JSON.stringify(lines));
      if (which.tables) socket.send(JSON.stringify(tables));
      return;
    }
    try {
      await reload();
    } catch (err) {
      showError(error, errorText(err));
    }
  };
  const standingsPager = pagerOf(t("Pages"), (step) => {
    page = Math.min(Math.max(1, page + step), pages);
    void askPages({ standings: true });
  });
  const gamesPager = pagerOf(t("Pages of games"), (step) => {
    tablesPage = Math.min(Math.max(1, tablesPage + step), tablesPages);
    void askPages({ tables: true });
  });
  const playingOnly = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "games-playing" }));
  playingOnly.addEventListener("change", () => {
    playing = playingOnly.checked;
    tablesPage = 1;
    void askPages({ tables: true });
  });
  const playingRow = h("p", { class: "field-row" }, playingOnly, " ", h("label", { for: "games-playing" }, t("Games in progress only")));
  replaceChildren(
    root,
    h(
      "section",
      { class: "card-panel tournament", dataset: { tournament: id } },
      title,
      about,
      ofClub,
      when,
      notice,
      error,
      actions,
      h("h2", {}, t("Standings")),
      standings,
      standingsPager.nav,
      tieBreaksHelp(),
      h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(id)}/standings.csv`, download: "" }, t("Standings as CSV"))),
      h("h2", {}, t("Games")),
      playingRow,
      games,
      gamesPager.nav,
    ),
  );
  /** @type {Answer | null} */
  let last = null;
  let skew = 0;
  /** @type {string | null} */
  let seatedRoom = null;
  /** @type {WebSocket | null} */
  let socket = null;

  const tick = () => {
    if (!root.contains(when)) return;
    if (last) when.textContent = countdown(last.tournament, skew);
    setTimeout(tick, 1000);
  };

  /** @param {string} path @param {unknown} [body] */
  const act = async (path, body) => {
    showError(error, "");
    try {
      if (path.endsWith("/join")) {
        await ensurePlayer(getName() || t("Player"));
        const joined = await ask("POST /api/tournaments/{tournament}/join", path, body ?? {});
        setToken(tournamentTokenKey(id), joined.token);
        socket?.close(); // the socket says who the player is when it opens: a new player reconnects
      } else if (path.endsWith("/pause")) {
        await ask("POST /api/tournaments/{tournament}/pause", path, body);
      } else {
        await ask("POST /api/tournaments/{tournament}/withdraw", path, body ?? {});
      }
      await reload();
    } catch (err) {
      showError(error, errorText(err));
    }
  };

  /**
   * @param {Answer} answer
   * @param {At | null} at  the pages of the standings and of the tables a socket's message holds;
   *   null: the whole answer (the GET's), of which the pages shown are drawn
   */
  const draw = (answer, at) => {
    /** @type {Answer["tables"]} */
    let tables;
    if (at) {
      ({ page, pages, tablesPage, tablesPages, playing } = at);
      tables = answer.tables;
    } else {
      pages = Math.max(1, Math.ceil(answer.standings.length / STANDINGS_PAGE));
      page = Math.min(page, pages);
      const listing = playing ? answer.tables.filter((x) => x.places === null && x.room) : answer.tables;
      tablesPages = Math.max(1, Math.ceil(listing.length / TABLES_PAGE));
      tablesPage = Math.min(tablesPage, tablesPages);
      tables = listing.slice((tablesPage - 1) * TABLES_PAGE, tablesPage * TABLES_PAGE);
      // the player's open table after the page when it is not on it, as the socket sends it
      const mine = answer.me.table && answer.tables.find((x) => x.room === answer.me.table?.room);
      if (mine && !tables.includes(mine)) tables = [...tables, mine];
    }
    playingOnly.checked = playing;
    last = answer;
    skew = answer.now - Date.now() / 1000;
    const s = answer.tournament;
    title.textContent = s.name;
    about.textContent = describe(s);
    ofClub.hidden = !answer.club;
    if (answer.club) {
      const href = `/#/club/${encodeURIComponent(answer.club)}`;
      replaceChildren(ofClub, `${t("Club tournament")} · `, h("a", { href }, answer.club_name || t("the club's page")));
    }
    when.textContent = countdown(s, skew);
    const base = `/api/tournaments/${encodeURIComponent(id)}`;
    const me = answer.me;
    /** @type {HTMLElement[]} */
    const buttons = [];
    const open = s.status === "scheduled" || (s.status === "running" && s.format === "arena");
    if (open && (!me.entered || me.withdrawn)) buttons.push(h("button", { type: "button", class: "primary", onclick: () => act(`${base}/join`) }, t("Join")));
    if (me.entered && !me.withdrawn && s.status !== "finished" && s.status !== "cancelled") {
      if (s.format === "arena") {
        buttons.push(
          h("button", { type: "button", onclick: () => act(`${base}/pause`, { paused: !me.paused }) }, me.paused ? t("Come back") : t("Pause")),
        );
      }
      buttons.push(h("button", { type: "button", onclick: () => act(`${base}/withdraw`) }, t("Withdraw")));
    }
    if (me.table) {
      const href = `/r/${encodeURIComponent(me.table.room)}`;
      buttons.push(h("a", { href, class: "button primary", id: "tournament-table" }, t("Go to your table")));
    }
    replaceChildren(actions, buttons);
    // never back to the table whose game this tab saw end (a read a moment old may still list it)
    if (me.table && me.table.room !== seatedRoom && me.table.room !== tableOver(id)) {
      seatedRoom = me.table.room;
      if (takeSeat(id, me.table.room)) {
        notice.textContent = t("You are paired: to your table!");
        location.assign(`/r/${encodeURIComponent(me.table.room)}`);
      } else notice.textContent = t("You are paired, but this browser does not hold your seat: join again here.");
    }
    const lines = at ? answer.standings : answer.standings.slice((page - 1) * STANDINGS_PAGE, page * STANDINGS_PAGE);
    drawStandings(standings, { ...answer, standings: lines });
    standingsPager.show(page, pages);
    gamesPager.show(tablesPage, tablesPages);
    drawGames(games, { ...answer, tables }, playing);
  };

  /** The whole answer read again and drawn (the pages shown taken from it). */
  async function reload() {
    draw(await ask("GET /api/tournaments/{tournament}", `/api/tournaments/${encodeURIComponent(id)}`), null);
  }

  try {
    await reload();
  } catch (err) {
    showError(error, errorText(err));
    return;
  }
  tick();
  live(id, root, draw, (ws) => {
    socket = ws;
    ws.addEventListener("open", () => {
      // a socket opened again: the pages shown, not the first (nothing is asked for the first)
      void askPages({ standings: page > 1, tables: tablesPage > 1 || playing });
    });
  });
}

/**
 * Follow the tournament over its websocket while its page is shown (reconnecting after a drop).
 * @param {string} id
 * @param {HTMLElement} root
 * @param {(answer: Answer, at: At) => void} draw
 * @param {(socket: WebSocket) => void} opened  told each socket opened (closing it reconnects)
 */
function live(id, root, draw, opened) {
  const page = root.firstElementChild;
  const socket = new WebSocket(socketUrl(`/ws/tournament/${encodeURIComponent(id)}`));
  opened(socket);
  // a hidden page (another tab in front, the player at their table) is sent only what is theirs
  const visibility = () => {
    if (!page || !root.contains(page)) {
      document.removeEventListener("visibilitychange", visibility);
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    /** @type {import("./wire").TournamentVisible} */
    const said = { type: "visible", visible: document.visibilityState === "visible" };
    socket.send(JSON.stringify(said));
  };
  socket.addEventListener("open", visibility);
  document.addEventListener("visibilitychange", visibility);
  socket.addEventListener("message", (ev) => {
    if (!page || !root.contains(page)) {
      socket.close();
      return;
    }
    /** @type {Message} */
    const msg = JSON.parse(String(ev.data));
    if (msg.type === "tournament") {
      const at = { page: msg.page, pages: msg.pages, tablesPage: msg.tables_page, tablesPages: msg.tables_pages, playing: msg.playing };
      draw(msg.tournament, at);
    }
  });
  socket.addEventListener("close", () => {
    document.removeEventListener("visibilitychange", visibility);
    if (page && root.contains(page)) setTimeout(() => live(id, root, draw, opened), 500);
  });
}

/** @param {HTMLElement} el @param {Answer} answer */
function drawStandings(el, answer) {
  if (!answer.standings.length) {
    replaceChildren(el, h("p", { class: "muted" }, t("Nobody has joined yet.")));
    return;
  }
  const arena = answer.tournament.format === "arena";
  replaceChildren(
    el,
    h(
      "table",
      { class: "board standings" },
      h("caption", { class: "sr-only" }, t("Standings")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", class: "num" }, t("Rank")),
          h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col", class: "num" }, t("Points")),
          h("th", { scope: "col", class: "num" }, arena ? t("Games") : t("Buchholz")),
          arena ? "" : h("th", { scope: "col", class: "num" }, h("abbr", { title: t("Sonneborn–Berger") }, t("S-B"))),
          h("th", { scope: "col", class: "num" }, t("Wins")),
          h("th", { scope: "col" }, t("Tie-break")),
        ),
      ),
      h(
        "tbody",
        {},
        answer.standings.map((line, i) =>
          h(
            "tr",
            { dataset: { player: line.player } },
            h("td", { class: "num" }, line.rank),
            h(
              "td",
              {},
              h("a", { href: profileHref(line.player) }, line.name),
              line.streak ? ` 🔥` : "",
              line.withdrawn ? h("span", { class: "muted" }, ` (${t("withdrawn")})`) : line.paused ? h("span", { class: "muted" }, ` (${t("paused")})`) : "",
            ),
            h("td", { class: "num" }, line.points),
            h("td", { class: "num" }, arena ? line.games : line.buchholz),
            arena ? "" : h("td", { class: "num" }, line.sonneborn_berger),
            h("td", { class: "num" }, line.wins),
            h("td", { class: "tie-break" }, tieBreakNote(line, i ? answer.standings[i - 1] : null)),
          ),
        ),
      ),
    ),
  );
}

/**
 * What set a line apart from the one above: a tie-break's name, "tied" for a shared rank, nothing
 * when points did.
 * @param {Answer["standings"][number]} line
 * @param {Answer["standings"][number] | null} above
 */
export function tieBreakNote(line, above) {
  if (above && above.rank === line.rank) return t("tied");
  switch (line.tie_break) {
    case "buchholz":
      return t("Buchholz");
    case "sonneborn_berger":
      return t("Sonneborn–Berger");
    case "wins":
      return t("Wins");
    case "rating":
      return t("Rating");
    default:
      return "";
  }
}

/** How ties are broken, in order (docs/TOURNAMENTS.md "Standings and tie-breaks"). */
function tieBreaksHelp() {
  return h(
    "details",
    { class: "tie-breaks" },
    h("summary", {}, t("How ties are broken")),
    h("p", {}, t("Players equal on points are ordered by these, in turn; the Tie-break column names the one that set a player below the line above. Players equal on all of them share a rank.")),
    h(
      "ol",
      {},
      h("li", {}, t("Buchholz: the sum of the final points of every table-mate of every game.")),
      h("li", {}, t("Sonneborn–Berger: the final points of every table-mate finished below, half of them for a shared place.")),
      h("li", {}, t("Wins: the games finished first alone.")),
      h("li", {}, t("Rating: the rating on entry.")),
    ),
  );
}

/** @param {HTMLElement} el @param {Answer} answer @param {boolean} playing  the tables in play only */
function drawGames(el, answer, playing) {
  if (!answer.tables.length) {
    replaceChildren(el, h("p", { class: "muted" }, playing ? t("No game in progress.") : t("No game yet.")));
    return;
  }
  replaceChildren(
    el,
    h(
      "ul",
      { class: "plain-list tournament-games" },
      answer.tables.map((table) => {
        const names = table.names.join(" · ");
        const round = table.round ? `${t("Round {round}", { round: table.round })}: ` : "";
        if (table.places === null) {
          return h("li", { dataset: { room: table.room ?? "" } }, round, names, " ", table.watch ? h("a", { href: table.watch }, t("Watch")) : "");
        }
        const places = table.places;
        const result = table.names.map((n, i) => `${places[i]}. ${n}`).join(" · ");
        return h(
          "li",
          { dataset: { room: table.room ?? "" } },
          round,
          result,
          " ",
          table.room ? h("a", { href: `/#/replay?room=${encodeURIComponent(table.room)}` }, t("Replay")) : "",
        );
      }),
    ),
  );
}
