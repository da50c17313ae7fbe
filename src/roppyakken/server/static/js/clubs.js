// Clubs (docs/PROTOCOL.md, "Clubs"): #/clubs lists and searches them, shows your clubs and
// invitations and makes one; #/club/<id> is a club's page: its description, what you may do
// (join, ask, accept an invitation, leave), its members and their ratings, its tournaments, its leaderboards, the
// open requests and invitations for its owner and leaders, and its chat. The chat asks the server
// for the newest lines every few seconds while the page is shown (the database is the truth, so a
// line posted on any server of a cluster reaches every reader); lines are shown as text, never markup.

import { ask } from "./api.js";
import { errorText, h, openDialog, replaceChildren, showError } from "./dom.js";
import { LANGUAGES, LANGUAGE_NAMES, t } from "./i18n.js";
import { poolName, profileHref } from "./profiles.js";
import { reasons } from "./report.js";
import { describe, statusName, tournamentHref } from "./tournaments.js";

/**
 * @typedef {import("./wire").ClubSummary} ClubSummary
 * @typedef {import("./wire").ClubAnswer} ClubAnswer
 * @typedef {import("./wire").ClubMember} ClubMember
 * @typedef {import("./wire").ClubChatLine} ClubChatLine
 */

/** Seconds between two readings of a club's chat. */
const CHAT_EVERY = 3;

/** The address of a club's page. @param {string} id @returns {string} */
export function clubHref(id) {
  return `/#/club/${encodeURIComponent(id)}`;
}

/** How a club admits new members, in the reader's language. @param {string} admission */
function admissionText(admission) {
  if (admission === "request") return t("Join by request: a leader accepts");
  if (admission === "invitation") return t("Join by invitation only");
  return t("Open: anyone with an account joins");
}

/** A role's name. @param {string} role */
function roleText(role) {
  if (role === "owner") return t("Owner");
  if (role === "leader") return t("Leader");
  return t("Member");
}

/** The signed-in player's id, or null (a guest, or nobody). @returns {Promise<string|null>} */
async function signedIn() {
  try {
    const me = await ask("GET /api/me", "/api/me");
    return me.account && me.player ? me.player.id : null;
  } catch {
    return null;
  }
}

/**
 * A button that runs `action`, showing a failure in `error`.
 * @param {string} label
 * @param {() => Promise<void>} action
 * @param {HTMLElement} error  an element with role=alert
 * @param {Record<string, any>} [attrs]
 * @returns {HTMLButtonElement}
 */
function actionButton(label, action, error, attrs = {}) {
  const button = /** @type {HTMLButtonElement} */ (
    h("button", {
      type: "button",
      ...attrs,
      onclick: async () => {
        button.disabled = true;
        showError(error, "");
        try {
          await action();
        } catch (err) {
          showError(error, errorText(err));
        } finally {
          button.disabled = false;
        }
      },
    }, label)
  );
  return button;
}

/** One club in a list. @param {ClubSummary} c @returns {HTMLElement} */
function clubItem(c) {
  const facts = [t("Members: {count}", { count: c.members }), LANGUAGE_NAMES[c.language] || c.language, admissionText(c.admission)];
  if (c.private) facts.push(t("Private"));
  if (c.role) facts.push(roleText(c.role));
  return h(
    "li",
    { class: "club-item", dataset: { club: c.id } },
    h("a", { href: clubHref(c.id), class: "club-name" }, c.name),
    h("span", { class: "muted" }, ` · ${facts.join(" · ")}`),
    c.description ? h("p", { class: "club-description" }, c.description) : null,
  );
}

/**
 * A labelled field.
 * @param {string} id
 * @param {string} label
 * @param {HTMLElement} input
 * @returns {HTMLElement}
 */
function field(id, label, input) {
  input.id = id;
  return h("p", { class: "field" }, h("label", { for: id }, label), " ", input);
}

/**
 * The clubs page: search, your clubs and invitations, make a club.
 * @param {HTMLElement} root
 * @param {URLSearchParams} params  q: the search
 */
export async function clubsPage(root, params) {
  const query = (params.get("q") || "").slice(0, 64);
  replaceChildren(root, h("p", { class: "muted" }, t("Loading…")));
  const me = await signedIn();
  /** @type {import("./wire").ClubsAnswer} */
  let found;
  try {
    found = await ask("GET /api/clubs", `/api/clubs?q=${encodeURIComponent(query)}`);
  } catch (err) {
    replaceChildren(root, h("p", { class: "error", role: "alert" }, errorText(err)));
    return;
  }
  const search = /** @type {HTMLInputElement} */ (h("input", { type: "search", name: "q", value: query, maxlength: "64" }));
  const searchForm = h(
    "form",
    {
      role: "search",
      class: "club-search",
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        location.hash = `#/clubs?q=${encodeURIComponent(search.value.trim())}`;
      },
    },
    field("club-search", t("Search clubs by name"), search),
    h("button", { type: "submit" }, t("Search")),
  );
  const sections = [];
  if (me) {
    const error = h("p", { class: "error", role: "alert", hidden: true });
    if (found.invitations.length) {
      sections.push(
        h(
          "section",
          { class: "panel", "aria-labelledby": "club-invitations-title" },
          h("h2", { id: "club-invitations-title" }, t("Invitations")),
          h(
            "ul",
            { class: "club-list" },
            found.invitations.map((c) =>
              h(
                "li",
                { class: "club-item", dataset: { club: c.id } },
                h("a", { href: clubHref(c.id), class: "club-name" }, c.name),
                " ",
                actionButton(t("Accept the invitation"), async () => {
                  await ask("POST /api/clubs/{club}/join", `/api/clubs/${encodeURIComponent(c.id)}/join`);
                  location.hash = `#/club/${encodeURIComponent(c.id)}`;
                }, error, { class: "primary" }),
                " ",
                actionButton(t("Decline"), async () => {
                  await ask("POST /api/clubs/{club}/decline", `/api/clubs/${encodeURIComponent(c.id)}/decline`, { player: me });
                  clubsPage(root, params);
                }, error),
              ),
            ),
          ),
          error,
        ),
      );
    }
    sections.push(
      h(
        "section",
        { class: "panel", "aria-labelledby": "my-clubs-title" },
        h("h2", { id: "my-clubs-title" }, t("Your clubs")),
        found.mine.length ? h("ul", { class: "club-list" }, found.mine.map(clubItem)) : h("p", { class: "muted" }, t("You belong to no club yet.")),
      ),
    );
  } else {
    sections.push(
      h(
        "p",
        { class: "panel" },
        t("Clubs are for players with an account."),
        " ",
        h("a", { href: "/#/account" }, t("Sign in or make an account")),
      ),
    );
  }
  sections.push(
    h(
      "section",
      { class: "panel", "aria-labelledby": "club-results-title" },
      h("h2", { id: "club-results-title" }, query ? t("Clubs named like “{query}”", { query }) : t("Public clubs")),
      found.clubs.length ? h("ul", { class: "club-list", id: "club-results" }, found.clubs.map(clubItem)) : h("p", { class: "muted" }, t("No club found.")),
    ),
  );
  if (me) sections.push(createForm());
  replaceChildren(root, h("section", { class: "card-panel clubs" }, h("h1", {}, t("Clubs")), searchForm, ...sections));
}

/** The form that makes a club. @returns {HTMLElement} */
function createForm() {
  const name = /** @type {HTMLInputElement} */ (h("input", { required: true, minlength: "3", maxlength: "40", autocomplete: "off" }));
  const description = /** @type {HTMLTextAreaElement} */ (h("textarea", { maxlength: "1000", rows: "3" }));
  const language = /** @type {HTMLSelectElement} */ (
    h("select", {}, LANGUAGES.map((code) => h("option", { value: code, lang: code }, LANGUAGE_NAMES[code])))
  );
  language.value = document.documentElement.lang && LANGUAGES.includes(document.documentElement.lang) ? document.documentElement.lang : "en";
  const admission = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      {},
      ["open", "request", "invitation"].map((a) => h("option", { value: a }, admissionText(a))),
    )
  );
  const secret = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "club-private" }));
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const button = /** @type {HTMLButtonElement} */ (h("button", { type: "submit", class: "primary" }, t("Create the club")));
  const form = h(
    "form",
    { class: "panel club-create", id: "club-create", "aria-labelledby": "club-create-title" },
    h("h2", { id: "club-create-title" }, t("Create a club")),
    field("club-name", t("Name"), name),
    field("club-description", t("Description"), description),
    field("club-language", t("Language"), language),
    field("club-admission", t("Who may join"), admission),
    h("p", { class: "field" }, secret, " ", h("label", { for: "club-private" }, t("Private: shown to its members and those invited only"))),
    h("p", {}, button),
    error,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(error, "");
    button.disabled = true;
    try {
      const body = { name: name.value, description: description.value, language: language.value, admission: admission.value, private: secret.checked };
      const made = await ask("POST /api/clubs", "/api/clubs", body);
      location.hash = `#/club/${encodeURIComponent(made.club)}`;
    } catch (err) {
      showError(error, errorText(err));
      button.disabled = false;
    }
  });
  return form;
}

/**
 * A club's page.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function clubPage(root, id) {
  replaceChildren(root, h("p", { class: "muted" }, t("Loading…")));
  const me = await signedIn();
  const at = `/api/clubs/${encodeURIComponent(id)}`;
  /** @type {ClubAnswer} */
  let club;
  try {
    club = await ask("GET /api/clubs/{club}", at);
  } catch (err) {
    replaceChildren(root, h("section", { class: "card-panel club-page" }, h("h1", {}, t("Clubs")), h("p", { class: "error", role: "alert" }, errorText(err)), h("p", {}, h("a", { href: "/#/clubs" }, t("All clubs")))));
    return;
  }
  const redraw = () => clubPage(root, id);
  const role = club.club.role;
  const leads = role === "owner" || role === "leader";
  const error = h("p", { class: "error", role: "alert", hidden: true, id: "club-error" });
  /** @param {"join" | "leave" | "decline"} what @param {unknown} [body] */
  const change = async (what, body) => {
    await ask(/** @type {any} */ (`POST /api/clubs/{club}/${what}`), `${at}/${what}`, body);
    redraw();
  };

  const facts = [t("Members: {count}", { count: club.club.members }), LANGUAGE_NAMES[club.club.language] || club.club.language, admissionText(club.club.admission)];
  if (club.club.private) facts.push(t("Private"));
  /** @type {(HTMLElement|string)[]} */
  const actions = [];
  if (!me) {
    actions.push(h("a", { href: "/#/account" }, t("Sign in to an account to join this club.")));
  } else if (role) {
    const leave = async () => {
      // the owner's leaving hands the club over, or deletes it: asked first
      if (role === "owner" && !window.confirm(t("As its owner, you hand the club to its longest-standing leader (else member) when you leave; if you are its last member, the club is deleted. Leave it?"))) return;
      await change("leave");
    };
    actions.push(h("span", { id: "club-role" }, t("You are: {role}", { role: roleText(role) })), " ", actionButton(t("Leave the club"), leave, error, { id: "club-leave" }));
  } else if (club.club.pending === "invitation") {
    actions.push(
      actionButton(t("Accept the invitation"), () => change("join"), error, { class: "primary", id: "club-join" }),
      " ",
      actionButton(t("Decline"), () => change("decline", { player: me }), error),
    );
  } else if (club.club.pending === "request") {
    actions.push(h("span", { id: "club-requested" }, t("You asked to join; a leader will answer.")), " ", actionButton(t("Withdraw the request"), () => change("decline", { player: me }), error));
  } else if (club.club.admission === "open") {
    actions.push(actionButton(t("Join the club"), () => change("join"), error, { class: "primary", id: "club-join" }));
  } else if (club.club.admission === "request") {
    actions.push(actionButton(t("Ask to join"), () => change("join"), error, { class: "primary", id: "club-join" }));
  }

  const page = h(
    "section",
    { class: "card-panel club-page", dataset: { club: id } },
    h("p", {}, h("a", { href: "/#/clubs" }, t("All clubs"))),
    h("h1", {}, club.club.name),
    h("p", { class: "muted" }, facts.join(" · ")),
    club.club.description ? h("p", { class: "club-description" }, club.club.description) : null,
    h("p", { class: "club-actions" }, actions),
    error,
    leads ? pendingPanel(club, at, redraw) : null,
    leads ? settingsPanel(club.club, at, redraw) : null,
    membersPanel(club, at, me, redraw),
    tournamentsPanel(club, leads),
    boardsPanel(club),
    role ? chatPanel(at, leads, me) : null,
  );
  replaceChildren(root, page);
}

/**
 * The open requests and invitations, and the invite form (owner and leaders).
 * @param {ClubAnswer} club @param {string} at @param {() => void} redraw
 * @returns {HTMLElement}
 */
function pendingPanel(club, at, redraw) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const rows = club.pending.map((p) =>
    h(
      "li",
      { dataset: { player: p.player } },
      h("a", { href: profileHref(p.player) }, p.name || p.player),
      " ",
      h("span", { class: "muted" }, p.kind === "request" ? t("asks to join") : t("is invited")),
      " ",
      p.kind === "request"
        ? actionButton(t("Accept"), async () => {
            await ask("POST /api/clubs/{club}/accept", `${at}/accept`, { player: p.player });
            redraw();
          }, error, { class: "primary", "aria-label": t("Accept {name}", { name: p.name }) })
        : null,
      " ",
      actionButton(p.kind === "request" ? t("Decline") : t("Cancel the invitation"), async () => {
        await ask("POST /api/clubs/{club}/decline", `${at}/decline`, { player: p.player });
        redraw();
      }, error, { "aria-label": t("Decline {name}", { name: p.name }) }),
    ),
  );
  const invitee = /** @type {HTMLInputElement} */ (h("input", { autocomplete: "off", maxlength: "200" }));
  const invite = h(
    "form",
    {
      class: "club-invite",
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        showError(error, "");
        // a profile's address or a player's id
        const typed = invitee.value.trim();
        const player = (typed.match(/player\/([A-Za-z0-9]+)/) || [null, typed])[1];
        try {
          await ask("POST /api/clubs/{club}/invite", `${at}/invite`, { player });
          redraw();
        } catch (err) {
          showError(error, errorText(err));
        }
      },
    },
    field("club-invitee", t("Invite a player (their profile's address or id)"), invitee),
    h("button", { type: "submit" }, t("Invite")),
  );
  return h(
    "section",
    { class: "panel club-pending", "aria-labelledby": "club-pending-title" },
    h("h2", { id: "club-pending-title" }, t("Requests and invitations")),
    rows.length ? h("ul", { id: "club-pending-list" }, rows) : h("p", { class: "muted" }, t("Nobody is waiting.")),
    invite,
    error,
  );
}

/**
 * The club's settings (owner and leaders): description, language, admission, privacy; folded.
 * @param {ClubSummary} club @param {string} at @param {() => void} redraw
 * @returns {HTMLElement}
 */
function settingsPanel(club, at, redraw) {
  const description = /** @type {HTMLTextAreaElement} */ (h("textarea", { maxlength: "1000", rows: "3" }));
  description.value = club.description;
  const language = /** @type {HTMLSelectElement} */ (
    h("select", {}, LANGUAGES.map((code) => h("option", { value: code, lang: code }, LANGUAGE_NAMES[code])))
  );
  language.value = club.language;
  const admission = /** @type {HTMLSelectElement} */ (
    h("select", {}, ["open", "request", "invitation"].map((a) => h("option", { value: a }, admissionText(a))))
  );
  admission.value = club.admission;
  const secret = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: "club-settings-private", checked: club.private }));
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const button = /** @type {HTMLButtonElement} */ (h("button", { type: "submit", class: "primary" }, t("Save")));
  const form = h(
    "form",
    { class: "club-create", id: "club-settings" },
    field("club-settings-description", t("Description"), description),
    field("club-settings-language", t("Language"), language),
    field("club-settings-admission", t("Who may join"), admission),
    h("p", { class: "field" }, secret, " ", h("label", { for: "club-settings-private" }, t("Private: shown to its members and those invited only"))),
    h("p", {}, button),
    error,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(error, "");
    button.disabled = true;
    try {
      const body = { description: description.value, language: language.value, admission: admission.value, private: secret.checked };
      await ask("POST /api/clubs/{club}/settings", `${at}/settings`, body);
      redraw();
    } catch (err) {
      showError(error, errorText(err));
      button.disabled = false;
    }
  });
  return h("details", { class: "panel club-settings" }, h("summary", {}, t("Club settings")), form);
}

/**
 * The members, their roles and ratings, and the leaders' buttons.
 * @param {ClubAnswer} club @param {string} at @param {string|null} me @param {() => void} redraw
 * @returns {HTMLElement}
 */
function membersPanel(club, at, me, redraw) {
  const role = club.club.role;
  const error = h("p", { class: "error", role: "alert", hidden: true });
  /** @param {ClubMember} m */
  const controls = (m) => {
    if (m.player === me || m.role === "owner") return null;
    /** @type {HTMLElement[]} */
    const out = [];
    /** @param {string} label @param {string} path @param {unknown} body @param {string} aria */
    const act = (label, path, body, aria) =>
      out.push(
        actionButton(label, async () => {
          await ask(/** @type {any} */ (`POST /api/clubs/{club}/${path}`), `${at}/${path}`, body);
          redraw();
        }, error, { "aria-label": aria }),
      );
    if (role === "owner") {
      if (m.role === "member") act(t("Make leader"), "role", { player: m.player, role: "leader" }, t("Make {name} a leader", { name: m.name }));
      else act(t("Make member"), "role", { player: m.player, role: "member" }, t("Make {name} a member", { name: m.name }));
      act(t("Hand the club over"), "role", { player: m.player, role: "owner" }, t("Hand the club over to {name}", { name: m.name }));
    }
    if (role === "owner" || (role === "leader" && m.role === "member")) {
      act(t("Remove"), "remove", { player: m.player }, t("Remove {name} from the club", { name: m.name }));
    }
    return out.length ? h("td", { class: "club-controls" }, out) : h("td", {});
  };
  const leads = role === "owner" || role === "leader";
  const rows = club.members.map((m) =>
    h(
      "tr",
      { dataset: { player: m.player } },
      h("td", {}, h("a", { href: profileHref(m.player) }, m.name || m.player)),
      h("td", {}, roleText(m.role)),
      h("td", {}, Object.entries(m.ratings).map(([pool, rating]) => h("span", { class: "club-rating" }, `${poolName(pool)}: ${rating}`))),
      leads ? controls(m) || h("td", {}) : null,
    ),
  );
  return h(
    "section",
    { class: "panel", "aria-labelledby": "club-members-title" },
    h("h2", { id: "club-members-title" }, t("Members")),
    h(
      "div",
      { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": "club-members-title" },
      h(
        "table",
        { class: "board club-members" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("Player")),
            h("th", { scope: "col" }, t("Role")),
            h("th", { scope: "col" }, t("Ratings")),
            leads ? h("th", { scope: "col" }, t("Actions")) : null,
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
    error,
  );
}

/**
 * The club's tournaments (those not over first), and for its owner and leaders the way to make one.
 * @param {ClubAnswer} club @param {boolean} leads @returns {HTMLElement}
 */
function tournamentsPanel(club, leads) {
  const make = `/#/tournaments?club=${encodeURIComponent(club.club.id)}`;
  return h(
    "section",
    { class: "panel club-tournaments", "aria-labelledby": "club-tournaments-title" },
    h("h2", { id: "club-tournaments-title" }, t("Club tournaments")),
    club.tournaments.length
      ? h(
          "ul",
          { class: "plain-list" },
          club.tournaments.map((s) =>
            h(
              "li",
              { dataset: { tournament: s.id } },
              h("a", { href: tournamentHref(s.id) }, s.name),
              " ",
              h("span", { class: "muted" }, `${statusName(s.status)} · ${describe(s)} · ${t("{count} players", { count: s.entries })}`),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("No club tournament yet.")),
    leads ? h("p", {}, h("a", { href: make, class: "button", id: "club-make-tournament" }, t("Make a club tournament"))) : null,
  );
}

/** The club's leaderboards, one table per pool. @param {ClubAnswer} club @returns {HTMLElement} */
function boardsPanel(club) {
  return h(
    "section",
    { class: "panel", "aria-labelledby": "club-boards-title" },
    h("h2", { id: "club-boards-title" }, t("Club leaderboards")),
    club.leaderboards.length
      ? club.leaderboards.map((board) =>
          h(
            "table",
            { class: "board club-board", dataset: { pool: board.pool } },
            h("caption", {}, poolName(board.pool)),
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
            h(
              "tbody",
              {},
              board.players.map((e) =>
                h(
                  "tr",
                  {},
                  h("td", { class: "num" }, e.rank),
                  h("td", {}, h("a", { href: profileHref(e.player) }, e.name || e.player)),
                  h("td", { class: "num" }, e.rating, h("span", { class: "muted" }, ` ±${e.uncertainty}`)),
                  h("td", { class: "num" }, e.games),
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("No member has played a rated game yet.")),
  );
}

/**
 * The club's chat (members): the newest lines, read again every few seconds while shown.
 * @param {string} at @param {boolean} leads @param {string|null} me
 * @returns {HTMLElement}
 */
function chatPanel(at, leads, me) {
  const list = h("ol", { class: "club-chat-lines", id: "club-chat-lines" });
  // the log scrolls: focusable, so that the keyboard scrolls it too
  const log = h("div", { class: "club-chat-log", role: "log", tabindex: "0", "aria-live": "polite", "aria-label": t("Club chat") }, list);
  const error = h("p", { class: "error", role: "alert", hidden: true });
  let shown = "";
  const read = async () => {
    /** @type {ClubChatLine[]} */
    let lines;
    try {
      lines = (await ask("GET /api/clubs/{club}/chat", `${at}/chat`)).lines;
    } catch (err) {
      showError(error, errorText(err));
      return;
    }
    const key = lines.map((l) => l.id).join(",");
    if (key === shown) return;
    shown = key;
    replaceChildren(list, lines.map((line) => chatLine(line, at, leads, me, read, error)));
    log.scrollTop = log.scrollHeight; // the newest line in view
  };
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "club-chat-text", maxlength: "200", autocomplete: "off" }));
  const form = h(
    "form",
    {
      class: "club-chat-form",
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        if (!input.value.trim()) return;
        showError(error, "");
        try {
          await ask("POST /api/clubs/{club}/chat", `${at}/chat`, { text: input.value });
          input.value = "";
          await read();
        } catch (err) {
          showError(error, errorText(err));
        }
      },
    },
    h("label", { for: "club-chat-text" }, t("Message")),
    " ",
    input,
    " ",
    h("button", { type: "submit" }, t("Send")),
  );
  const panel = h("section", { class: "panel club-chat", "aria-labelledby": "club-chat-title" }, h("h2", { id: "club-chat-title" }, t("Club chat")), log, form, error);
  read();
  const timer = setInterval(() => {
    if (!panel.isConnected) clearInterval(timer);
    else if (!document.hidden) read();
  }, CHAT_EVERY * 1000);
  return panel;
}

/**
 * One chat line, with Hide (leaders) or Report (others' lines).
 * @param {ClubChatLine} line @param {string} at @param {boolean} leads @param {string|null} me
 * @param {() => Promise<void>} reread @param {HTMLElement} error
 * @returns {HTMLElement}
 */
function chatLine(line, at, leads, me, reread, error) {
  const said = h("span", { class: "chat-text" });
  said.textContent = line.text; // plain text, never markup
  const time = new Date(line.at * 1000).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  return h(
    "li",
    { dataset: { line: String(line.id) } },
    h("span", { class: "muted" }, `${time} `),
    h("a", { href: profileHref(line.player), class: "chat-name" }, line.name || line.player),
    ": ",
    said,
    " ",
    leads
      ? actionButton(t("Hide"), async () => {
          await ask("POST /api/clubs/{club}/chat/{line}/hide", `${at}/chat/${line.id}/hide`);
          await reread();
        }, error, { class: "link-button club-hide", "aria-label": t("Hide the message of {name}", { name: line.name }) })
      : null,
    line.player !== me ? h("button", { type: "button", class: "link-button club-report", "aria-label": t("Report the message of {name}", { name: line.name }), onclick: () => reportLine(at, line) }, t("Report")) : null,
  );
}

/** The report dialog for a club chat line. @param {string} at @param {ClubChatLine} line */
function reportLine(at, line) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { id: "club-report-reason" }, Object.entries(reasons()).map(([value, label]) => h("option", { value }, label))));
  const quoted = h("blockquote", { class: "report-what" });
  quoted.textContent = line.text;
  const status = h("p", { role: "status" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const send = actionButton(t("Send the report"), async () => {
    await ask("POST /api/clubs/{club}/chat/{line}/report", `${at}/chat/${line.id}/report`, { reason: select.value });
    status.textContent = t("Thank you: a moderator will read your report.");
  }, error, { class: "primary" });
  openDialog(t("Report this message"), h("div", {}, quoted, h("label", { for: "club-report-reason" }, t("Why?")), " ", select, " ", send, status, error), { className: "report-dialog" });
}
