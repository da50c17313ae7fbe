// Reporting a chat line or a player to the server's moderators (docs/PROTOCOL.md, "Fair play and
// moderation"): a dialog that says what is reported, asks why, and sends POST /api/rooms/<room>/report.
// The playban notice of the lobby is here too: both say in the reader's language what the server's
// structured answer means.

import { ApiError, postJSON } from "./api.js";
import { h, openDialog, showError } from "./dom.js";
import { t } from "./i18n.js";

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
 * The line a refused report shows: the reader's words for the bounds, else the server's one line.
 * @param {unknown} err
 * @returns {string}
 */
export function reportError(err) {
  if (err instanceof ApiError && err.status === 429) return t("You made too many reports in the last hour; try again later.");
  if (err instanceof ApiError && err.status === 409) return t("You reported this already; a moderator will read it.");
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
            await postJSON(`/api/rooms/${encodeURIComponent(room)}/report`, { ...target, reason: select.value });
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
