// The account page (#/account), docs/PROTOCOL.md "Accounts": signed out, sign in, make an account
// (the guest's games on this device become the account's; its recovery codes are shown once) or get
// back in with a recovery code; signed in, your games, your sessions (end one, sign out, sign out
// everywhere), a new password, new recovery codes, your data as JSON, and deleting the account.
// The page #/reset/<token> sets a new password with a reset link the server's operator gave.

import T from "./text.js";
import { t } from "./i18n.js";
import { errorText, h, replaceChildren, showError } from "./dom.js";
import { ApiError, ask, forgetCsrf, setCsrf } from "./api.js";
import { setName } from "./store.js";

/**
 * The account's answers, as the protocol declares them (wire.d.ts).
 * @typedef {import("./wire").AccountInfo} Account
 * @typedef {import("./wire").PlayerGame} AccountGame
 * @typedef {import("./wire").SessionEntry} AccountSession
 */

/**
 * The line to show for a failed account request, in the page's language where the status says
 * what happened (the server's own lines are English: the protocol's).
 * @param {unknown} err
 * @param {"sign-in" | "create" | "password" | "recover"} what
 * @returns {string}
 */
function failure(err, what) {
  if (err instanceof ApiError) {
    if (err.status === 429) {
      const minutes = Math.max(1, Math.ceil((err.retryAfter || 60) / 60));
      return t("Too many sign-in attempts: try again in {minutes} min.", { minutes });
    }
    if (err.status === 401 && what === "sign-in") return t("Wrong sign-in name or password.");
    if (err.status === 401 && what === "recover") return t("Wrong sign-in name or recovery code.");
    if (err.status === 409 && what === "create") return t("This sign-in name is taken: choose another.");
    if (err.status === 403 && what === "password") return t("Wrong password.");
    if (err.status === 400 && what === "create") {
      return t("A sign-in name has 3 to 32 letters, digits, dots, hyphens or underscores; a password at least 8 characters.");
    }
  }
  return T.errorPrefix + errorText(err);
}

/** A date and time in the page's language. @param {string|null} iso @returns {string} */
function when(iso) {
  return iso ? new Date(iso).toLocaleString(document.documentElement.lang || undefined) : "";
}

/**
 * A labelled text field.
 * @param {string} id
 * @param {string} label
 * @param {Record<string, any>} attrs
 * @returns {HTMLElement[]}
 */
function field(id, label, attrs) {
  return [h("label", { for: id }, label), h("input", { id, name: id, required: true, ...attrs })];
}

/** @param {HTMLFormElement} form @param {string} id @returns {string} */
function value(form, id) {
  const input = form.querySelector(`#${id}`);
  return input instanceof HTMLInputElement ? input.value : "";
}

/**
 * Draw the account page.
 * @param {HTMLElement} root
 */
export async function accountPage(root) {
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  /** @type {import("./wire").AccountAnswer | null} */
  let mine = null;
  try {
    // Asked only with a session (GET /api/me names the account or null): a signed-out visit
    // gets no 401 for the console to log.
    const me = await ask("GET /api/me", "/api/me");
    if (me && me.account) mine = await ask("GET /api/account", "/api/account");
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) {
      replaceChildren(root, h("p", { class: "error", role: "alert" }, T.errorPrefix + errorText(err)));
      return;
    }
  }
  const redraw = () => accountPage(root);
  /** @param {HTMLElement} el */
  const show = (el) => replaceChildren(root, h("section", { class: "account" }, h("h1", {}, t("Your account")), el));
  if (mine) replaceChildren(root, await signedIn(mine, redraw, show));
  else replaceChildren(root, signedOut(redraw, show));
}

/**
 * Recovery codes, shown this once.
 * @param {string[]} codes
 * @param {() => void} done
 * @returns {HTMLElement}
 */
function codesPanel(codes, done) {
  const button = h("button", { type: "button", class: "primary", id: "recovery-codes-done", onclick: done }, t("I have saved them"));
  const panel = h(
    "section",
    { class: "panel recovery-codes", id: "recovery-codes", "aria-labelledby": "recovery-codes-title" },
    h("h2", { id: "recovery-codes-title" }, t("Your recovery codes")),
    h("p", {}, t("Each code lets you in once if you forget your password, and sets a new one. Write them down or keep them somewhere safe: they are shown only now.")),
    h("ol", { class: "recovery-code-list", translate: "no" }, codes.map((c) => h("li", {}, h("code", {}, c)))),
    h("p", {}, button),
  );
  queueMicrotask(() => button.focus());
  return panel;
}

/**
 * The page #/reset/<token>: a new password with a reset link (the token leaves the address bar).
 * @param {HTMLElement} root
 * @param {string} token
 */
export function resetPage(root, token) {
  history.replaceState(null, "", "/#/reset");
  const form = accountForm(
    "reset-password",
    t("Set a new password"),
    [
      h("p", { class: "muted" }, t("This link from the site's operator works once: every device signed in to the account is signed out.")),
      ...field("reset-new-password", t("New password"), { type: "password", autocomplete: "new-password", minlength: "8" }),
    ],
    t("Set the password"),
    async (f) => {
      adopt(await ask("POST /api/account/reset", "/api/account/reset", { token, new_password: value(f, "reset-new-password") }));
      location.hash = "#/account";
    },
    "password",
  );
  replaceChildren(root, h("section", { class: "account" }, h("h1", {}, t("Your account")), form));
}

/**
 * The browser is now signed in (or out): the CSRF token and the lobby's name follow.
 * @param {import("./wire").MeAnswer | null} me  an answer that signs in, or null: signed out
 */
function adopt(me) {
  if (me && me.csrf) setCsrf(Promise.resolve(me.csrf));
  else forgetCsrf();
  if (me && me.player) setName(me.player.name);
}

/**
 * A form that runs `action` on submit and shows its one-line error under it.
 * @param {string} id
 * @param {string} title
 * @param {HTMLElement[]} fields
 * @param {string} submit
 * @param {(form: HTMLFormElement) => Promise<void>} action
 * @param {"sign-in" | "create" | "password" | "recover"} what
 * @returns {HTMLFormElement}
 */
function accountForm(id, title, fields, submit, action, what) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const button = h("button", { type: "submit", class: "primary" }, submit);
  const form = h("form", { id, class: "panel account-form", "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), ...fields, h("p", {}, button), error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(error, "");
    button.disabled = true;
    try {
      await action(form);
    } catch (err) {
      showError(error, failure(err, what));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/**
 * Signed out: sign in, make an account, or get back in with a recovery code.
 * @param {() => void} redraw
 * @param {(el: HTMLElement) => void} show
 * @returns {HTMLElement}
 */
function signedOut(redraw, show) {
  const signIn = accountForm(
    "sign-in",
    t("Sign in"),
    [
      ...field("sign-in-login", t("Sign-in name"), { autocomplete: "username" }),
      ...field("sign-in-password", t("Password"), { type: "password", autocomplete: "current-password" }),
    ],
    t("Sign in"),
    async (form) => {
      adopt(await ask("POST /api/session", "/api/session", { login: value(form, "sign-in-login"), password: value(form, "sign-in-password") }));
      redraw();
    },
    "sign-in",
  );
  const create = accountForm(
    "make-account",
    t("Make an account"),
    [
      h("p", { class: "muted" }, t("Keep your name and your games on every device: the games you played on this device become the account's.")),
      ...field("make-login", t("Sign-in name"), { autocomplete: "username", minlength: "3", maxlength: "32" }),
      ...field("make-password", t("Password"), { type: "password", autocomplete: "new-password", minlength: "8" }),
    ],
    t("Make an account"),
    async (form) => {
      const made = await ask("POST /api/account", "/api/account", { login: value(form, "make-login"), password: value(form, "make-password") });
      adopt(made);
      show(codesPanel(made.recovery_codes || [], redraw));
    },
    "create",
  );
  const recover = accountForm(
    "recover",
    t("Forgot your password?"),
    [
      h("p", { class: "muted" }, t("Sign in with one of your recovery codes and choose a new password.")),
      ...field("recover-login", t("Sign-in name"), { autocomplete: "username" }),
      ...field("recover-code", t("Recovery code"), { autocomplete: "off", spellcheck: "false" }),
      ...field("recover-password", t("New password"), { type: "password", autocomplete: "new-password", minlength: "8" }),
    ],
    t("Get back in"),
    async (form) => {
      adopt(
        await ask("POST /api/account/recover", "/api/account/recover", {
          login: value(form, "recover-login"),
          code: value(form, "recover-code"),
          new_password: value(form, "recover-password"),
        }),
      );
      redraw();
    },
    "recover",
  );
  const passkey = h("p", {}, h("a", { href: "/#/signin", id: "account-passkeys" }, t("Sign in with a passkey")));
  return h("section", { class: "account" }, h("h1", {}, t("Your account")), signIn, passkey, create, recover);
}

/**
 * Signed in: who, your games, your sessions, a new password, your data, deleting the account.
 * @param {{account: Account, player: {id: string, name: string}, games: AccountGame[]}} mine
 * @param {() => void} redraw
 * @param {(el: HTMLElement) => void} show
 * @returns {Promise<HTMLElement>}
 */
async function signedIn(mine, redraw, show) {
  /** @type {AccountSession[]} */
  const list = (await ask("GET /api/sessions", "/api/sessions")).sessions;
  const status = h("p", { class: "error", role: "alert", hidden: true });
  /** @param {() => Promise<unknown>} work */
  const act = async (work) => {
    showError(status, "");
    try {
      await work();
      redraw();
    } catch (err) {
      showError(status, T.errorPrefix + errorText(err));
    }
  };
  const signOut = h("button", { type: "button", id: "sign-out", onclick: () => act(async () => { await ask("DELETE /api/session", "/api/session"); adopt(null); }) }, t("Sign out"));
  const everywhere = h(
    "button",
    { type: "button", id: "sign-out-everywhere", onclick: () => act(async () => { await ask("DELETE /api/sessions", "/api/sessions"); adopt(null); }) },
    t("Sign out everywhere"),
  );
  const games = mine.games.length
    ? h(
        "ul",
        { class: "account-games" },
        mine.games.map((g) =>
          h("li", {}, h("a", { href: g.link }, g.room), " ", h("span", { class: "muted" }, when(g.finished_at || g.created_at))),
        ),
      )
    : h("p", { class: "muted" }, t("No games yet."));
  const sessions = h(
    "table",
    { class: "account-sessions" },
    h("caption", {}, t("Where you are signed in")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Since")), h("th", { scope: "col" }, t("Last seen")), h("th", { scope: "col" }, t("Address")), h("th", { scope: "col" }, t("Browser")), h("th", { scope: "col" }, t("Sign out")))),
    h(
      "tbody",
      {},
      list.map((s) =>
        h(
          "tr",
          { dataset: { session: s.id } },
          h("td", {}, when(s.created_at)),
          h("td", {}, when(s.seen_at)),
          h("td", {}, s.address || ""),
          h("td", {}, s.agent || ""),
          h(
            "td",
            { class: "session-end" },
            s.current
              ? t("This device")
              : h("button", { type: "button", class: "end-session", onclick: () => act(() => ask("DELETE /api/sessions/{session}", `/api/sessions/${encodeURIComponent(s.id)}`)) }, t("End")),
          ),
        ),
      ),
    ),
  );
  const password = accountForm(
    "new-password",
    t("Change your password"),
    [
      ...field("current-password", t("Current password"), { type: "password", autocomplete: "current-password", required: mine.account.password }),
      ...field("fresh-password", t("New password"), { type: "password", autocomplete: "new-password", minlength: "8" }),
    ],
    t("Change the password"),
    async (form) => {
      await ask("POST /api/account/password", "/api/account/password", { password: value(form, "current-password"), new_password: value(form, "fresh-password") });
      redraw();
    },
    "password",
  );
  const codes = accountForm(
    "new-codes",
    t("Recovery codes"),
    [
      h("p", { id: "recovery-codes-left" }, t("Unused recovery codes: {count}. New ones replace them all.", { count: mine.account.recovery_codes })),
      ...(mine.account.password ? field("codes-password", t("Password"), { type: "password", autocomplete: "current-password" }) : []),
    ],
    t("Make new recovery codes"),
    async (form) => {
      const made = await ask("POST /api/account/recovery-codes", "/api/account/recovery-codes", { password: value(form, "codes-password") });
      show(codesPanel(made.recovery_codes, redraw));
    },
    "password",
  );
  const remove = accountForm(
    "delete-account",
    t("Delete your account"),
    [
      h("p", {}, t("Your account, its sessions and your chat lines are erased; your name in your games becomes an anonymous label, so the games' records stay valid. This cannot be undone.")),
      ...(mine.account.password ? field("delete-password", t("Password"), { type: "password", autocomplete: "current-password" }) : []),
      h("label", { class: "inline" }, h("input", { type: "checkbox", id: "delete-confirm", required: true }), " ", t("I understand: delete my account for ever")),
    ],
    t("Delete my account"),
    async (form) => {
      await ask("DELETE /api/account", "/api/account", { password: value(form, "delete-password") });
      adopt(null);
      replaceChildren(/** @type {HTMLElement} */ (form.closest("section")), h("h1", {}, t("Your account")), h("p", { role: "status", id: "account-deleted" }, t("Your account is deleted.")));
    },
    "password",
  );
  return h(
    "section",
    { class: "account" },
    h("h1", {}, t("Your account")),
    h("p", { id: "signed-in-as" }, t("Signed in as {login} (you play as {name}).", { login: mine.account.login || "", name: mine.player.name })),
    h("p", {}, signOut, " ", everywhere),
    h("p", {}, h("a", { href: "/#/signin", id: "account-passkeys" }, t("Your passkeys"))),
    status,
    h("section", { class: "panel", "aria-labelledby": "account-games-title" }, h("h2", { id: "account-games-title" }, t("Your games")), games),
    h("section", { class: "panel", "aria-labelledby": "account-sessions-title" }, h("h2", { id: "account-sessions-title" }, t("Your sessions")), sessions),
    password,
    mine.account.login ? codes : null,
    h(
      "section",
      { class: "panel", "aria-labelledby": "account-data-title" },
      h("h2", { id: "account-data-title" }, t("Your data")),
      h("p", {}, h("a", { href: "/api/account/export", download: "", id: "account-export" }, t("Download everything the server holds about you (JSON)"))),
    ),
    remove,
  );
}
