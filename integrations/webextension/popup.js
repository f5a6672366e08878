// The toolbar popup: the site in front, the rule that counts it and today's
// use ("4 min of 5 min today"), and for a site no rule counts, "Limit this
// site" with a choice of rule. It talks to the background, which holds the
// native port (docs/using/websites.md); nothing is stored.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const text = (key, substitutions) => api.i18n.getMessage(key, substitutions) || "";
const element = (id) => document.getElementById(id);

/** The port to the background. */
const background = api.runtime.connect({ name: "popup" });
/** The site the popup is about (the background's front), or null. */
let site = null;
/** The configured rules' names, once the host has told them. */
let rules = null;
/** The last state the host gave for the site, or null. */
let state = null;
/** Whether the site was added from here (then the status says so). */
let added = false;
/** Whether the background has said which site is in front (until then nothing is shown). */
let known = false;

function minutes(seconds) {
  return String(Math.floor(Math.max(0, Number(seconds) || 0) / 60));
}

function render() {
  element("site").textContent = site ?? "";
  element("rule").textContent = "";
  element("usage").textContent = "";
  element("limit").hidden = true;
  if (!known) return;
  if (site === null) {
    element("rule").textContent = text("popup_no_site");
    return;
  }
  if (state && state.site === site && state.covered === true) {
    element("rule").textContent = typeof state.rule === "string" ? text("popup_rule", [state.rule]) : "";
    if (Number.isFinite(state.limitSeconds)) {
      element("usage").textContent = text("popup_usage", [minutes(state.usedSeconds), minutes(state.limitSeconds)]);
    }
    return;
  }
  if (added || !state || state.site !== site) return;
  element("rule").textContent = text("popup_uncovered");
  if (rules === null) return;
  if (rules.length === 0) {
    element("usage").textContent = text("popup_no_rule", ["shieldbridge setup"]);
    return;
  }
  const select = element("rules");
  const chosen = select.value;
  select.replaceChildren(
    ...rules.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      return option;
    }),
  );
  if (rules.includes(chosen)) select.value = chosen;
  element("limit").hidden = false;
}

background.onMessage.addListener((message) => {
  if (!message || typeof message !== "object") return;
  switch (message.type) {
    case "front":
      site = typeof message.site === "string" ? message.site : null;
      state = message.state && typeof message.state === "object" ? message.state : null;
      known = true;
      break;
    case "state":
      if (message.site === site) state = message;
      break;
    case "rules":
      rules = Array.isArray(message.rules) ? message.rules.filter((name) => typeof name === "string") : [];
      break;
    case "siteLimited":
      if (message.site !== site) return;
      added = true;
      element("status").textContent = text("popup_limited", [String(message.rule ?? "")]);
      break;
    case "limitRefused":
      if (message.site !== site) return;
      element("add").disabled = false;
      // The reason is the configuration reader's own message.
      element("status").textContent = String(message.message ?? "");
      break;
    case "noService":
    case "hostGone":
      element("status").textContent = message.text ?? text("service_missing");
      break;
    default:
      return;
  }
  render();
});

document.documentElement.lang = text("@@ui_locale").replace("_", "-");
document.documentElement.dir = text("@@bidi_dir") || "ltr";
document.title = text("popup_limit_site");
element("add").textContent = text("popup_limit_site");
element("limit").addEventListener("submit", (event) => {
  event.preventDefault();
  const rule = element("rules").value;
  if (site === null || !rule) return;
  element("add").disabled = true;
  element("status").textContent = "";
  background.postMessage({ type: "limitSite", site, rule });
});
background.postMessage({ type: "hello" });
render();
