// Friends (#/friends): whom you follow (online, playing), your followers, the players you block, and
// your challenges in and out, accepted or declined here.  Live over the tab's lobby connection
// (lobbylink.js: its `challenge` and `friends` messages, docs/PROTOCOL.md "Friends"); the profile
// page's Follow, Block and Challenge buttons are `relationButtons`; every other page shows the
// challenges to you in the panel of challenges.js.

import { errorText, h, replaceChildren } from "./dom.js";
import { ask, presets } from "./api.js";
import { t } from "./i18n.js";
import { setToken } from "./store.js";
import { controlName } from "./clock.js";
import { presetName } from "./text.js";
import { onLobby } from "./lobbylink.js";

/**
 * @typedef {import("./wire").FriendsAnswer} Friends
 * @typedef {import("./wire").ChallengeInfo} Challenge
 * @typedef {import("./wire").FriendEntry} FriendEntry
 */

/** The time controls a challenge offers (server/play/clocks.py CONTROLS, and none). */
const CONTROLS = ["none", "15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"];
const KEY = "roppyakken-challenge:";

/** The seat token the challenger holds for challenge `id` (kept until the room is made). @param {string} id */
function heldToken(id) {
  try {
    return localStorage.getItem(KEY + id);
  } catch {
    return null;
  }
}

/** The held seat token of challenge `id`, forgotten here (its room is made). @param {string} id */
export function takeHeldToken(id) {
  const token = heldToken(id);
  try {
    localStorage.removeItem(KEY + id);
  } catch {
    // storage disabled
  }
  return token;
}

/** @param {string} id @param {string} token */
function holdToken(id, token) {
  try {
    localStorage.setItem(KEY + id, token);
  } catch {
    // storage disabled: the challenger's seat is lost, the accepter still plays (the clock decides)
  }
}

/** Go to an accepted challenge's room with the seat token. @param {string} room @param {string} token */
export function goToRoom(room, token) {
  setToken(room, token);
  location.assign(`/r/${encodeURIComponent(room)}`);
}

/** A challenge's game in words. @param {Challenge} c @returns {string} */
export function gameText(c) {
  const rated = c.rated ? t("rated") : t("casual");
  return `${presetName(c.preset)} · ${controlName(c.clock)} · ${rated}`;
}

/** What became of a challenge, in words. @param {string} status @returns {string} */
function statusText(status) {
  /** @type {Record<string, string>} */
  const words = {
    pending: t("waiting for an answer"),
    accepted: t("accepted"),
    declined: t("declined"),
    cancelled: t("cancelled"),
    expired: t("expired"),
  };
  return words[status] || status;
}

/**
 * The round robins a block made the player leave, in words (docs/TOURNAMENTS.md "Blocked pairs").
 * @param {string[] | undefined} left
 * @returns {string | undefined}
 */
function leftText(left) {
  if (!left || !left.length) return undefined;
  return t("You left the round robins you were both in ({count}): every pair meets in a round robin.", { count: left.length });
}

/**
 * The challenge form for player `id`: preset, clock, rated; sends the challenge and keeps its token.
 * @param {string} id
 * @param {string} name
 * @param {(message: string) => void} said  where the outcome is said
 * @returns {HTMLFormElement}
 */
export function challengeForm(id, name, said) {
  const prefix = `challenge-${id}`;
  const preset = /** @type {HTMLSelectElement} */ (h("select", { id: `${prefix}-preset`, name: "preset" }));
  presets().then((list) => {
    replaceChildren(
      preset,
      list.filter((p) => !p.players || p.players.includes(2)).map((p) => h("option", { value: p.name }, presetName(p.name))),
    );
    preset.value = "classic";
  });
  const clock = /** @type {HTMLSelectElement} */ (
    h("select", { id: `${prefix}-clock`, name: "clock" }, CONTROLS.map((c) => h("option", { value: c }, controlName(c))))
  );
  clock.value = "15+60";
  const rated = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id: `${prefix}-rated`, name: "rated" }));
  const form = /** @type {HTMLFormElement} */ (
    h(
      "form",
      { class: "challenge-form", "aria-label": t("Challenge {name}", { name }) },
      h("div", { class: "field-row" }, h("label", { for: preset.id }, t("Rules")), preset),
      h("div", { class: "field-row" }, h("label", { for: clock.id }, t("Clock")), clock),
      h("label", { class: "inline", for: rated.id }, rated, " ", t("Rated (both players signed in to an account)")),
      h("div", { class: "form-actions" }, h("button", { type: "submit", class: "primary" }, t("Send the challenge"))),
    )
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const sent = await ask("POST /api/challenges", "/api/challenges", {
        player: id,
        preset: preset.value || "classic",
        clock: clock.value,
        rated: rated.checked,
      });
      holdToken(sent.challenge.id, sent.token);
      said(t("Challenge sent to {name}: you will go to the table when they accept.", { name }));
      if (!location.hash.startsWith("#/friends")) location.assign("/#/friends");
    } catch (err) {
      said(errorText(err));
    }
  });
  return form;
}

/**
 * The profile page's Follow/Unfollow, Block/Unblock and Challenge buttons for player `id`.
 * @param {string} id
 * @param {string} name
 * @returns {Promise<HTMLElement | null>}  null on your own profile, or without a player
 */
export async function relationButtons(id, name) {
  /** @type {Friends} */
  let friends;
  /** @type {string|null} */
  let me = null;
  try {
    me = (await ask("GET /api/me", "/api/me")).player?.id ?? null;
    friends = await ask("GET /api/friends", "/api/friends");
  } catch {
    return null;
  }
  if (me === null || me === id) return null;
  const status = h("p", { class: "muted relation-status", role: "status", "aria-live": "polite" });
  const box = h("div", { class: "relation-buttons" });
  const area = h("div", { class: "relation" }, box, status);
  const said = (/** @type {string} */ message) => {
    status.textContent = message;
  };
  let following = friends.following.some((f) => f.id === id);
  let blocking = friends.blocked.some((b) => b.id === id);
  /** @param {() => Promise<unknown>} work @param {string} done */
  const act = async (work, done) => {
    try {
      const more = await work();
      said(typeof more === "string" ? `${done} ${more}` : done);
      draw();
    } catch (err) {
      said(errorText(err));
    }
  };
  const draw = () => {
    const follow = following
      ? h("button", { type: "button", id: "unfollow", onclick: () => act(async () => { await ask("DELETE /api/follows/{player}", `/api/follows/${encodeURIComponent(id)}`); following = false; }, t("You no longer follow {name}.", { name })) }, t("Unfollow"))
      : h("button", { type: "button", id: "follow", disabled: blocking, onclick: () => act(async () => { await ask("POST /api/follows", "/api/follows", { player: id }); following = true; }, t("You follow {name}.", { name })) }, t("Follow"));
    const block = blocking
      ? h("button", { type: "button", id: "unblock", onclick: () => act(async () => { await ask("DELETE /api/blocks/{player}", `/api/blocks/${encodeURIComponent(id)}`); blocking = false; }, t("You no longer block {name}.", { name })) }, t("Unblock"))
      : h("button", { type: "button", id: "block", onclick: () => act(async () => { const made = await ask("POST /api/blocks", "/api/blocks", { player: id }); blocking = true; following = false; return leftText(made.left); }, t("You block {name}: they cannot follow or challenge you, nor be paired with you.", { name })) }, t("Block"));
    const details = h(
      "details",
      { class: "challenge-details" },
      h("summary", { id: "challenge" }, t("Challenge")),
      challengeForm(id, name, said),
    );
    replaceChildren(box, follow, block, blocking ? null : details);
  };
  draw();
  return area;
}

/**
 * The friends page.
 * @param {HTMLElement} root
 */
export function friendsPage(root) {
  const status = h("p", { class: "muted", role: "status", "aria-live": "polite", id: "friends-status" });
  const body = h("div", { class: "friends-body" }, h("p", { class: "muted" }, t("Loading…")));
  const section = h("section", { class: "card-panel friends" }, h("h1", {}, t("Friends")), status, body);
  replaceChildren(root, section);
  const said = (/** @type {string} */ message) => {
    status.textContent = message;
  };
  let drawing = Promise.resolve();

  /** @param {() => Promise<unknown>} work @param {string} [done] */
  const act = async (work, done) => {
    try {
      await work();
      if (done) said(done);
    } catch (err) {
      said(errorText(err));
    }
    refresh();
  };

  /** A player's name as a link to their profile. @param {{id: string, name: string}} p */
  const who = (p) => h("a", { href: `/#/player/${encodeURIComponent(p.id)}` }, p.name);

  /** @param {string} title @param {string} id @param {Node[]} items @param {string} empty */
  const list = (title, id, items, empty) =>
    h(
      "section",
      { class: "friends-list", "aria-labelledby": `${id}-title` },
      h("h2", { id: `${id}-title` }, title),
      items.length ? h("ul", { class: "game-list", id }, items) : h("p", { class: "muted", id }, empty),
    );

  /** @param {Friends} f */
  const draw = (f) => {
    const incoming = f.incoming.map((c) =>
      h(
        "li",
        { dataset: { challenge: c.id } },
        h("span", {}, who(c.challenger), " ", h("span", { class: "muted" }, gameText(c))),
        h("span", { class: "spacer" }),
        h("button", { type: "button", class: "primary accept", onclick: () => accept(c) }, t("Accept")),
        h(
          "button",
          { type: "button", class: "decline", onclick: () => act(() => ask("POST /api/challenges/{challenge}/decline", `/api/challenges/${c.id}/decline`), t("Challenge declined.")) },
          t("Decline"),
        ),
      ),
    );
    const outgoing = f.outgoing.map((c) =>
      h(
        "li",
        { dataset: { challenge: c.id, status: c.status } },
        h("span", {}, who(c.challenged), " ", h("span", { class: "muted" }, `${gameText(c)} · ${statusText(c.status)}`)),
        h("span", { class: "spacer" }),
        c.status === "pending"
          ? h(
              "button",
              { type: "button", class: "cancel", onclick: () => act(() => ask("POST /api/challenges/{challenge}/cancel", `/api/challenges/${c.id}/cancel`), t("Challenge cancelled.")) },
              t("Cancel"),
            )
          : null,
      ),
    );
    const playing = (/** @type {FriendEntry} */ p) =>
      p.playing ? t("playing") : p.online ? t("online") : t("offline");
    const following = f.following.map((p) =>
      h(
        "li",
        { dataset: { player: p.id, online: String(p.online), playing: String(p.playing) } },
        h("span", {}, who(p), " ", h("span", { class: `muted presence${p.online || p.playing ? " on" : ""}` }, playing(p))),
        h("span", { class: "spacer" }),
        p.room ? h("a", { href: `/r/${encodeURIComponent(p.room)}` }, t("Watch")) : null,
        h(
          "details",
          { class: "challenge-details" },
          h("summary", {}, t("Challenge")),
          challengeForm(p.id, p.name, said),
        ),
        h(
          "button",
          { type: "button", class: "unfollow", onclick: () => act(() => ask("DELETE /api/follows/{player}", `/api/follows/${encodeURIComponent(p.id)}`)) },
          t("Unfollow"),
        ),
      ),
    );
    const online = f.following.filter((p) => p.online || p.playing).map((p) =>
      h(
        "li",
        { dataset: { player: p.id } },
        who(p),
        " ",
        h("span", { class: "muted" }, playing(p)),
        h("span", { class: "spacer" }),
        p.room ? h("a", { href: `/r/${encodeURIComponent(p.room)}` }, t("Watch")) : null,
      ),
    );
    const followers = f.followers.map((p) => h("li", { dataset: { player: p.id } }, who(p)));
    const blocked = f.blocked.map((p) =>
      h(
        "li",
        { dataset: { player: p.id } },
        who(p),
        h("span", { class: "spacer" }),
        h(
          "button",
          { type: "button", class: "unblock", onclick: () => act(() => ask("DELETE /api/blocks/{player}", `/api/blocks/${encodeURIComponent(p.id)}`)) },
          t("Unblock"),
        ),
      ),
    );
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.id : "";
    replaceChildren(
      body,
      list(t("Challenges to you"), "challenges-in", incoming, t("No challenge waiting.")),
      list(t("Your challenges"), "challenges-out", outgoing, t("You have not challenged anyone lately.")),
      list(t("Online now"), "friends-online", online, t("Nobody you follow is online.")),
      list(t("Following"), "following", following, t("You follow nobody yet: follow players from their profile.")),
      list(t("Followers ({count})", { count: f.followers_count }), "followers", followers, t("Nobody follows you yet.")),
      list(t("Blocked"), "blocked", blocked, t("You block nobody.")),
    );
    if (focused) document.getElementById(focused)?.focus();
  };

  /** @param {Challenge} c */
  const accept = async (c) => {
    try {
      const made = await ask("POST /api/challenges/{challenge}/accept", `/api/challenges/${c.id}/accept`);
      goToRoom(made.room, made.token);
    } catch (err) {
      said(errorText(err));
      refresh();
    }
  };

  const refresh = () => {
    drawing = drawing.then(async () => {
      try {
        const f = await ask("GET /api/friends", "/api/friends");
        if (!section.isConnected) return;
        for (const c of f.outgoing) {
          if (c.status === "accepted" && c.room && heldToken(c.id)) {
            goToRoom(c.room, /** @type {string} */ (takeHeldToken(c.id)));
            return;
          }
        }
        draw(f);
      } catch (err) {
        said(errorText(err));
      }
    });
  };

  const stop = onLobby((msg) => {
    if (!section.isConnected) {
      stop();
      return;
    }
    if (msg.type === "challenge") {
      if (msg.challenge.status === "pending" && msg.challenge.challenged.id !== msg.challenge.challenger.id) {
        const mine = heldToken(msg.challenge.id);
        if (!mine) said(t("{name} challenges you.", { name: msg.challenge.challenger.name }));
      }
      refresh();
    } else if (msg.type === "friends") refresh();
  });
  refresh();
}
