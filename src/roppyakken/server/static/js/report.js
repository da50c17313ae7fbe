// Reporting a chat line or a player to the server's moderators (docs/PROTOCOL.md, "Fair play and
// moderation"): a dialog that says what is reported, asks why, and sends POST /api/rooms/<room>/report.
// The playban notice of the lobby is here too: both say in the reader's language what the server's
// structured answer means.

import { ApiError, ask, setCsrf } from "./api.js";
import { h, openDialog, showError } from "./dom.js";
import { t } from "./i18n.js";
import { getName, getToken } from "./store.js";

/**
 * Make sure this browser is a player (a report names its reporter): the cookie's, or a new one
 * under the page's name. Every POST of api.js then carries its CSRF token.
 * @returns {Promise<void>}
 */
async function havePlayer() {
  const asked = await fetch("/api/me", { headers: { Accept: "application/json" } });
  const me = asked.ok ? await asked.json() : { player: null, csrf: null };
  if (me.player) {
    setCsrf(Promise.resolve(me.csrf));
    return;
  }
  const made = await fetch("/api/me", {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRF-Token": "new" },
    body: JSON.stringify({ name: getName() || t("Player") }),
  });
  const data = await made.json().catch(() => null);
  if (!made.ok) throw new ApiError(data && data.error ? data.error : `${made.status}`, made.status);
  setCsrf(Promise.resolve(data.csrf));
}

/** @typedef {{message: number} | {seat: number}} ReportTarget */

/** The reasons a report may give, in the reader's language. */
export function reasons() {
  return {
    abuse: t("Insults or harassment"),
    spam: t("Spam"),
    cheating: t("Cheating"),
    other: t("Something else"),
  };
}

/**
 * The line a refused report shows: the server's, in the reader's language (api.js).
 * @param {unknown} err
 * @returns {string}
 */
export function reportError(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Open the report dialog for `target` in `room`; `what` describes it (a line's text, a name).
 * @param {string} room
 * @param {ReportTarget} target
 * @param {string} what
 * @returns {HTMLDialogElement}
 */
export function openReport(room, target, what) {
  const select = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "report-reason" },
      Object.entries(reasons()).map(([value, label]) => h("option", { value }, label)),
    )
  );
  const quoted = h("blockquote", { class: "report-what" });
  quoted.textContent = what; // plain text, never markup
  const status = h("p", { class: "report-status", role: "status" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const send = /** @type {HTMLButtonElement} */ (
    h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "report-send",
        onclick: async () => {
          send.disabled = true;
          showError(error, "");
          try {
            await havePlayer();
            const token = getToken(room);
            const body = { ...target, reason: select.value, ...(token ? { token } : {}) };
            await ask("POST /api/rooms/{room}/report", `/api/rooms/${encodeURIComponent(room)}/report`, body);
            status.textContent = t("Thank you: a moderator will read your report.");
          } catch (err) {
            showError(error, reportError(err));
            send.disabled = false;
          }
        },
      },
      t("Send the report"),
    )
  );
  const title = "message" in target ? t("Report this message") : t("Report this player");
  return /** @type {HTMLDialogElement} */ (
    openDialog(
      title,
      h(
        "div",
        {},
        quoted,
        h("label", { for: "report-reason" }, t("Why?")),
        " ",
        select,
        " ",
        send,
        status,
        error,
      ),
      { className: "report-dialog" },
    )
  );
}

/**
 * The playban notice: how long the player must wait before the next rated game, and why.
 * @param {{seconds: number, recent: number}} ban
 * @returns {string}
 */
export function playbanText(ban) {
  const minutes = Math.max(1, Math.ceil(ban.seconds / 60));
  return t("You left {count} rated games recently: you may play rated games again in {minutes} min.", {
    count: ban.recent,
    minutes,
  });
}
