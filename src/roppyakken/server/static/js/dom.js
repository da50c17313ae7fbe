// Small DOM helpers shared by every page.

import { t } from "./i18n.js";

/**
 * Create an element: h("div", {class: "x", onclick: fn}, child, "text", ...).
 * Attributes starting with "on" become listeners; `dataset` and `style` objects are merged;
 * null/undefined/false attributes and children are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "class") {
      el.className = value;
    } else if (key in el && typeof value !== "string") {
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : value);
    }
  }
  append(el, children);
  return el;
}

/**
 * A child of h(): a node, text, a number, nothing, or a list of them.
 * @typedef {Node | string | number | boolean | null | undefined | ChildList} Child
 * @typedef {Array<Child>} ChildList
 */

/** @param {Element} el @param {Child[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Replace every child of `el`.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function replaceChildren(el, ...children) {
  el.textContent = "";
  append(el, children);
  return el;
}

/** The one line to show for a caught error. @param {unknown} err @returns {string} */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

/** Show a one-line error (or clear it with an empty message) in an element with role=alert. */
/** @param {HTMLElement} el @param {string | null | undefined} message */
export function showError(el, message) {
  el.textContent = message || "";
  el.hidden = !message;
}

/**
 * A modal dialog built on <dialog>; returns the dialog element (removed from the page when closed).
 * @param {string} title
 * @param {Child} body
 * @param {{className?: string, onClose?: (() => void) | null, closeText?: string}} [options]
 * @returns {HTMLDialogElement}
 */
export function openDialog(title, body, { className = "", onClose = null, closeText = t("Close") } = {}) {
  const close = h("button", { class: "primary", value: "close" }, closeText);
  const dlg = h(
    "dialog",
    { class: `dialog ${className}`, "aria-label": title },
    h("h2", { tabindex: "-1" }, title),
    // Focusable, so that a body taller than the screen scrolls from the keyboard too.
    h("div", { class: "dialog-body", tabindex: "0" }, body),
    h(
      "form",
      { method: "dialog", class: "dialog-actions" },
      close,
    ),
  );
  dlg.addEventListener("close", () => {
    dlg.remove();
    if (onClose) onClose();
  });
  document.body.append(dlg);
  dlg.showModal();
  // The focus on the primary button: Enter or Space closes the dialog ("Continue") at once.
  close.focus({ preventScroll: true });
  dlg.scrollTop = 0;
  return dlg;
}
