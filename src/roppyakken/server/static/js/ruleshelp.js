// Rules help for the chosen preset or house rules: how to play, card values, the yaku with
// their cards and values, lucky hands, and every option with what it means.

import { cardElement } from "./deck.js";
import T, { optionValueName, presetName, SEVEN_RIBBONS_NOTE, LUCKY_HAND_RULES, OPTION_DESCRIPTIONS, RULES_SUMMARY, yakuName } from "./text.js";
import { h } from "./dom.js";
import { enabledYaku, sevenRibbonCards, yakuCards } from "./yaku.js";

/**
 * An option's value for people: yes/no, a list, or a word in the page's language with the
 * identifier a house-rules file uses after it ("なし (off)").
 * @param {unknown} value
 * @returns {string}
 */
function showValue(value) {
  if (typeof value === "boolean") return value ? T.yes : T.no;
  if (Array.isArray(value)) return value.length ? value.map((v) => showValue(v)).join(", ") : T.none;
  if (value && typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => `${k} ${v}`);
    return parts.length ? parts.join(", ") : T.none;
  }
  const text = String(value);
  if (yakuName(text) !== text) return `${yakuName(text)} (${text})`;
  const word = optionValueName(text);
  return word && word !== text ? `${word} (${text})` : text;
}

/**
 * The rules help for {preset, options}, with the preset's description if known.
 * @param {{preset: string, options: import("./types.js").RuleOptions, description?: string}} rules
 * @returns {HTMLElement}
 */
export function renderRules({ preset, options, description = "" }) {
  const yaku = enabledYaku(options).map(({ slug, points }) => {
    const cards = slug === "seven-ribbons" ? sevenRibbonCards(options) : yakuCards(slug, options);
    const mode = options.seven_ribbons_willow || "any";
    const note = slug === "seven-ribbons" ? ` — ${SEVEN_RIBBONS_NOTE[mode] || SEVEN_RIBBONS_NOTE.any}` : "";
    return h(
      "tr",
      { dataset: { yaku: slug } },
      h("th", { scope: "row" }, yakuName(slug), note),
      h("td", { class: "num" }, points),
      h(
        "td",
        {},
        h(
          "div",
          { class: "rules-cards" },
          cards.map((s) => cardElement(s, { size: "xs" })),
        ),
      ),
    );
  });
  const lucky = Object.entries(options.lucky_hands || {}).map(([slug, points]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, yakuName(slug)),
      h("td", { class: "num" }, points),
      h("td", {}, LUCKY_HAND_RULES[slug] || ""),
    ),
  );
  const opts = Object.entries(options)
    .filter(([name]) => name !== "yaku" && name !== "lucky_hands")
    .map(([name, value]) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, h("code", {}, name)),
        h("td", {}, showValue(value)),
        h("td", {}, OPTION_DESCRIPTIONS[name] || ""),
      ),
    );
  const values = [
    "pine-crane",
    "plum-warbler",
    "willow-swallow",
    "maple-ribbon",
    "paulownia-yellow",
    "pine-chaff-1",
  ];
  return h(
    "div",
    { class: "rules-help" },
    h("p", { class: "rules-desc" }, h("strong", {}, presetName(preset)), description ? ` — ${description}` : ""),
    h("h3", {}, T.rulesHowTo),
    h(
      "ul",
      {},
      RULES_SUMMARY.map((line) => h("li", {}, line)),
    ),
    h(
      "div",
      { class: "rules-values", role: "group", "aria-label": T.rulesCardValues },
      values.map((s) => cardElement(s, { size: "sm" })),
    ),
    h("h3", {}, T.rulesYaku),
    h("table", { class: "rules-table" }, h("tbody", {}, yaku)),
    h("h3", {}, T.rulesLuckyHands),
    lucky.length ? h("table", { class: "rules-table" }, h("tbody", {}, lucky)) : h("p", {}, T.rulesNoLucky),
    h(
      "details",
      {},
      h("summary", {}, T.rulesOptions),
      h("table", { class: "rules-table options" }, h("tbody", {}, opts)),
    ),
  );
}
