// The table's status line: the round (and leg, and target), the preset, the clock, the
// connection, the hints badge, the sound switch and the rules.

import T, { presetName } from "./text.js";
import { h, openDialog, replaceChildren } from "./dom.js";
import { renderRules } from "./ruleshelp.js";

export class StatusBar {
  /** @param {import("./table.js").GameView} game */
  constructor(game) {
    this.game = game;
    this.el = h("div", { class: "status-bar" });
  }

  render() {
    const game = this.game;
    const v = /** @type {import("./types.js").SeatView} */ (game.view);
    const o = game.rules.options || {};
    const parts = [T.round(v.round)];
    if (o.match && o.match !== "single") parts.push(T.leg(v.leg));
    if (o.target) parts.push(T.targetIs(o.target));
    const conn =
      game.connStatus && game.connStatus !== "open"
        ? h(
            "span",
            { class: "conn-status", role: "alert" },
            game.connStatus === "lost" ? T.reconnecting : T.connecting,
          )
        : null;
    replaceChildren(
      this.el,
      h("span", { class: "round-info" }, parts.join(" · ")),
      h("span", { class: "preset-name" }, presetName(game.rules.preset)),
      game.tournament.link(),
      game.clocks ? game.clocks.statusElement() : null,
      conn,
      game.roomInfo && game.roomInfo.hints
        ? h("span", { class: "badge hints-on", title: T.hintsOnTitle }, T.hintsOn)
        : null,
      h("span", { class: "spacer" }),
      this.soundSwitch(),
      h("button", { type: "button", class: "link-button", onclick: () => this.showRules() }, T.showRules),
    );
  }

  /**
   * The mute switch: a toggle button (aria-pressed) whose choice is remembered.
   * @returns {HTMLButtonElement}
   */
  soundSwitch() {
    const sounds = this.game.cues.sounds;
    return h(
      "button",
      {
        type: "button",
        class: "link-button sound-toggle",
        "aria-pressed": sounds.on ? "true" : "false",
        title: T.soundTitle,
        onclick: () => {
          sounds.set(!sounds.on);
          this.render();
          const again = this.el.querySelector(".sound-toggle");
          if (again instanceof HTMLElement) again.focus();
        },
      },
      h("span", { class: "sound-icon", "aria-hidden": "true" }, "♪"),
      " ",
      T.sound,
    );
  }

  showRules() {
    const game = this.game;
    openDialog(T.rulesTitle(game.rules.preset), renderRules({ ...game.rules, description: game.description }), {
      className: "rules-dialog",
      closeText: T.close,
    });
  }
}
