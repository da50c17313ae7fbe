// Passkeys (WebAuthn, docs/PROTOCOL.md "Passkeys"): the guest of this browser makes an account with a
// passkey and keeps their games on every device; "Sign in with a passkey" on another device makes it act
// as the same player. The page #/signin shows the panel, and once signed in the account's passkeys and
// its games as the server knows them (GET /api/me/games).

import { h, replaceChildren, showError, errorText } from "./dom.js";
import { t } from "./i18n.js";
import { ask, setCsrf } from "./api.js";
import { ensurePlayer } from "./lobbylive.js";
import { getName, setName } from "./store.js";
import T, { playerNames } from "./text.js";

/**
 * The passkey answers, as the protocol declares them (wire.d.ts).
 * @typedef {import("./wire").PublicPlayer} Me
 * @typedef {import("./wire").PasskeySignedIn} SignedIn
 * @typedef {import("./wire").PasskeyEntry} Passkey
 * @typedef {import("./wire").PlayerGame} HistoryGame
 * @typedef {import("./wire").PasskeyOptions} Options
 */

/**
 * The bytes of a base64url string (padding optional).
 * @param {string} text
 * @returns {ArrayBuffer}
 */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/**
 * base64url without padding, as the server reads binary fields.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string}
 */
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/**
 * The server's registration options as navigator.credentials.create takes them.
 * @param {any} json
 * @returns {PublicKeyCredentialCreationOptions}
 */
function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((/** @type {any} */ c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/**
 * The server's sign-in options as navigator.credentials.get takes them.
 * @param {any} json
 * @returns {PublicKeyCredentialRequestOptions}
 */
function requestOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((/** @type {any} */ c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/** How a passkey is attached (WebAuthn's two values). @typedef {"platform" | "cross-platform" | undefined} Attachment */

/**
 * What the server reads of any credential: who it is, of which kind, on which authenticator.
 * @param {PublicKeyCredential} credential
 * @returns {Omit<import("./wire").RegistrationCredential, "response">}
 */
function credentialJSON(credential) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: "public-key",
    authenticatorAttachment: /** @type {Attachment} */ (credential.authenticatorAttachment || undefined),
    clientExtensionResults: {},
  };
}

/**
 * What the server reads of a new credential.
 * @param {PublicKeyCredential} credential
 * @returns {import("./wire").RegistrationCredential}
 */
function registrationJSON(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  const transports = typeof response.getTransports === "function" ? response.getTransports() : [];
  return {
    ...credentialJSON(credential),
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports,
    },
  };
}

/**
 * What the server reads of a credential's signature.
 * @param {PublicKeyCredential} credential
 * @returns {import("./wire").AuthenticationCredential}
 */
function assertionJSON(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return {
    ...credentialJSON(credential),
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
    },
  };
}

/**
 * The browser acts as the signed-in account from now on: its CSRF token and the name the pages use.
 * @param {SignedIn} answer
 */
function adopt(answer) {
  setCsrf(Promise.resolve(answer.csrf ?? null));
  if (answer.player) setName(answer.player.name);
}

/**
 * A passkey made by this browser's authenticator: a new account for this browser's guest (made first
 * if there is none), or another passkey of the signed-in account.
 * @param {string|null} label the passkey's name, if the person gave one
 * @returns {Promise<SignedIn>}
 */
export async function registerPasskey(label) {
  const me = await ask("GET /api/me", "/api/me");
  if (!me.player) await ensurePlayer(getName() || T.defaultName);
  /** @type {Options} */
  const options = await ask("POST /api/passkeys/register/options", "/api/passkeys/register/options", label ? { name: label } : {});
  const credential = /** @type {PublicKeyCredential|null} */ (
    await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) })
  );
  if (!credential) throw new Error(t("No passkey was made."));
  const answer = await ask("POST /api/passkeys/register/verify", "/api/passkeys/register/verify", { ceremony: options.ceremony, credential: registrationJSON(credential) });
  if (answer.csrf) adopt(answer);
  return answer;
}

/**
 * Sign in with a passkey: any of this site's (the browser offers them), or one of `login`'s account.
 * @param {string|null} login
 * @returns {Promise<SignedIn>}
 */
export async function signInWithPasskey(login) {
  /** @type {Options} */
  const options = await ask("POST /api/passkeys/signin/options", "/api/passkeys/signin/options", login ? { login } : {});
  const credential = /** @type {PublicKeyCredential|null} */ (
    await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) })
  );
  if (!credential) throw new Error(t("No passkey was chosen."));
  /** @type {SignedIn} */
  const answer = await ask("POST /api/passkeys/signin/verify", "/api/passkeys/signin/verify", { ceremony: options.ceremony, credential: assertionJSON(credential) });
  adopt(answer);
  return answer;
}

/**
 * When something happened, in the page's language.
 * @param {number|string|null} when epoch seconds or ISO 8601
 */
function shownTime(when) {
  if (when === null || when === undefined) return "";
  return new Date(typeof when === "number" ? when * 1000 : when).toLocaleString(document.documentElement.lang || undefined);
}

/**
 * The account's games, as the server knows them (the same on every device).
 * @param {HistoryGame[]} games
 */
function historyList(games) {
  if (!games.length) return h("p", { class: "muted" }, t("No games yet."));
  const items = games.map((g) => {
    const shown = playerNames(g.players, { withLevel: true });
    const over = g.status === "over";
    const href = over ? `/#/replay?room=${encodeURIComponent(g.room)}` : `/r/${encodeURIComponent(g.room)}`;
    const state = over
      ? g.winner === null || g.winner === undefined
        ? t("finished")
        : t("{name} won", { name: shown[g.winner] })
      : g.status === "waiting"
        ? t("waiting for players")
        : t("being played");
    return h(
      "li",
      { dataset: { room: g.room } },
      h("a", { href }, shown.join(" · ")),
      h("span", { class: "spacer" }),
      h("span", { class: "muted history-state" }, state),
      g.finished_at ? h("span", { class: "muted" }, ` ${shownTime(g.finished_at)}`) : null,
    );
  });
  return h("ul", { class: "game-list history-games" }, items);
}

/**
 * The signed-in part: who, the passkeys (remove one, add one) and the games.
 * @param {HTMLElement} panel
 * @param {Me} player
 * @param {Passkey[]} keys
 */
async function drawSignedIn(panel, player, keys) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const rows = keys.map((k) =>
    h(
      "li",
      { dataset: { passkey: k.id } },
      h("span", {}, k.name || t("Passkey")),
      h("span", { class: "muted" }, ` ${t("made {when}", { when: shownTime(k.created_at) })}`),
      k.last_used_at ? h("span", { class: "muted" }, ` · ${t("last used {when}", { when: shownTime(k.last_used_at) })}`) : null,
      h("span", { class: "spacer" }),
      h(
        "button",
        {
          type: "button",
          class: "passkey-remove",
          onclick: async () => {
            showError(error, "");
            try {
              await ask("POST /api/passkeys/remove", "/api/passkeys/remove", { id: k.id });
              await drawPanel(panel);
            } catch (err) {
              showError(error, errorText(err));
            }
          },
        },
        t("Remove"),
      ),
    ),
  );
  const add = h(
    "button",
    {
      type: "button",
      id: "passkey-add",
      onclick: async () => {
        showError(error, "");
        add.disabled = true;
        try {
          await registerPasskey(null);
          await drawPanel(panel);
        } catch (err) {
          showError(error, errorText(err));
          add.disabled = false;
        }
      },
    },
    t("Add a passkey"),
  );
  const games = h("div", { class: "history-slot" }, h("p", { class: "muted" }, T.loading));
  replaceChildren(
    panel,
    h("h2", {}, t("Your account")),
    h("p", { class: "signed-in-as" }, t("Signed in as {name}.", { name: player.name })),
    h("h3", {}, t("Your passkeys")),
    h("ul", { class: "game-list passkey-list" }, rows),
    error,
    h("div", { class: "form-actions" }, add),
    h("h3", {}, t("Your games on every device")),
    games,
  );
  try {
    const answer = await ask("GET /api/me/games", "/api/me/games");
    replaceChildren(games, historyList(answer.games || []));
  } catch (err) {
    replaceChildren(games, h("p", { class: "error" }, errorText(err)));
  }
}

/**
 * The guest's part: make an account, or sign in (with an optional login).
 * @param {HTMLElement} panel
 */
function drawGuest(panel) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const supported = passkeysSupported();
  const login = h("input", { id: "passkey-login", name: "login", maxlength: "64", autocomplete: "username webauthn" });
  /**
   * @param {HTMLButtonElement} button
   * @param {() => Promise<unknown>} work
   */
  const run = async (button, work) => {
    showError(error, "");
    button.disabled = true;
    try {
      await work();
      await drawPanel(panel);
    } catch (err) {
      const cancelled = err instanceof DOMException && err.name === "NotAllowedError";
      showError(error, cancelled ? t("The passkey request was cancelled or timed out.") : errorText(err));
      button.disabled = false;
    }
  };
  const make = h("button", { type: "button", id: "passkey-register", class: "primary", disabled: !supported }, t("Make an account with a passkey"));
  make.addEventListener("click", () => run(make, () => registerPasskey(null)));
  const signIn = h("button", { type: "button", id: "passkey-signin", disabled: !supported }, t("Sign in with a passkey"));
  signIn.addEventListener("click", () => run(signIn, () => signInWithPasskey(login.value.trim() || null)));
  replaceChildren(
    panel,
    h("h2", {}, t("Your account")),
    h(
      "p",
      { class: "muted" },
      t("Keep your games on every device: make an account with a passkey (your device's screen lock or security key), no password needed. The games you played here become the account's."),
    ),
    supported ? null : h("p", { class: "notice" }, t("This browser cannot use passkeys.")),
    h("div", { class: "form-actions" }, make),
    h("h3", {}, t("Already have an account?")),
    h("div", { class: "field-row" }, h("label", { for: "passkey-login" }, t("Login (optional)")), login),
    h("div", { class: "form-actions" }, signIn),
    error,
  );
}

/**
 * Fill the panel for this browser: signed in, or a guest.
 * @param {HTMLElement} panel
 */
async function drawPanel(panel) {
  try {
    const state = await ask("GET /api/passkeys", "/api/passkeys");
    if (state.signed_in && state.player) await drawSignedIn(panel, state.player, state.passkeys || []);
    else drawGuest(panel);
  } catch (err) {
    replaceChildren(panel, h("p", { class: "error", role: "alert" }, errorText(err)));
  }
}

/**
 * The passkey panel, an element of its own (it draws itself).
 * @returns {HTMLElement}
 */
export function passkeyPanel() {
  const panel = h("section", { class: "card-panel passkey-panel", id: "passkey-panel" }, h("p", { class: "muted" }, T.loading));
  drawPanel(panel);
  return panel;
}

/**
 * The page #/signin: the passkey panel.
 * @param {HTMLElement} root
 */
export function signinPage(root) {
  replaceChildren(root, passkeyPanel());
}
