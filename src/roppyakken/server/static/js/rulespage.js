// The rules page (#/rules?preset=…): pick a preset and read its rules help.

import T, { presetDescription, presetName } from "./text.js";
import { errorText, h, replaceChildren } from "./dom.js";
import { presets } from "./api.js";
import { renderRules } from "./ruleshelp.js";

/**
 * Draw the rules page.
 * @param {HTMLElement} root
 * @param {URLSearchParams} params
 */
export async function rulesPage(root, params) {
  replaceChildren(root, h("p", { class: "muted" }, T.loading));
  let list;
  try {
    list = await presets();
  } catch (err) {
    replaceChildren(root, h("p", { class: "error", role: "alert" }, T.errorPrefix + errorText(err)));
    return;
  }
  const select = h(
    "select",
    { id: "rules-preset" },
    list.map((p) => h("option", { value: p.name }, presetName(p.name))),
  );
  const body = h("div");
  const draw = () => {
    const p = list.find((x) => x.name === select.value) || list[0];
    replaceChildren(body, renderRules({ preset: p.name, options: p.options, description: presetDescription(p.name, p.description) }));
  };
  const wanted = params.get("preset");
  if (wanted && list.some((p) => p.name === wanted)) select.value = wanted;
  select.addEventListener("change", () => {
    history.replaceState(null, "", `/#/rules?preset=${encodeURIComponent(select.value)}`);
    draw();
  });
  draw();
  replaceChildren(
    root,
    h(
      "section",
      { class: "card-panel rules-page" },
      h("h1", {}, T.navRules),
      h("div", { class: "field-row" }, h("label", { for: "rules-preset" }, T.preset), select),
      body,
    ),
  );
}
