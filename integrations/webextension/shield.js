// The shield page: says which site is paused, offers the host's task, and
// relays the answer through the background (which holds the native port).
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const text = (key, substitutions) => api.i18n.getMessage(key, substitutions) || "";
const element = (id) => document.getElementById(id);
const site = new URLSearchParams(location.search).get("site") ?? "";

/** The task shown now, or null. */
let puzzleID = null;
/** The port to the background, or null while it restarts. */
let background = null;
/** Whether a task was asked for on this connection of the host. */
let asked = false;
/** Whether the page is done: solved or unlocked (going back), or used up (nothing to offer). */
let finished = false;
/** The app's name, once the background has told it. */
let appName = null;

function show(app) {
  appName = app ?? appName;
  app = appName;
  const summary = app ? text("shield_summary", [app]) : text("shield_summary_no_app");
  document.title = summary;
  element("summary").textContent = summary;
  element("site").textContent = site;
}

function setStatus(message) {
  element("status").textContent = message ?? "";
}

/** The countdown of the rule's pause, while it runs. */
let countdown = null;

/** Shows the pause's texts one a second (the host rendered them, plural forms and all), then clears them. */
function startCountdown(texts) {
  if (countdown !== null) clearInterval(countdown);
  countdown = null;
  if (!Array.isArray(texts) || texts.length === 0) return;
  let index = 0;
  setStatus(String(texts[0]));
  countdown = setInterval(() => {
    index += 1;
    if (index >= texts.length || finished) {
      clearInterval(countdown);
      countdown = null;
      if (!finished) setStatus("");
      return;
    }
    setStatus(String(texts[index]));
  }, 1000);
}

/** The way out, offered first: the host counts it, and the page stays a plain paused page. */
function takeWayOut() {
  if (!background || finished) return;
  background.postMessage({ type: "wayOut" });
}

/** The plain paused page: the summary and the site, nothing to click. */
function showPaused() {
  finished = true;
  startCountdown(null);
  puzzleID = null;
  element("task").hidden = true;
  element("start").hidden = true;
  element("way-out").hidden = true;
  element("prompt").textContent = "";
  setStatus("");
}

/** "Show the week": the host writes the report's page of the site's rule and opens it with xdg-open. */
function showWeek() {
  if (!background) return;
  background.postMessage({ type: "week" });
}

function askForTask() {
  if (!background || finished) return;
  asked = true;
  element("start").hidden = true;
  background.postMessage({ type: "puzzle" });
}

function onMessage(message) {
  switch (message.type) {
    case "info":
      show(message.app);
      if (message.connected && !asked) askForTask();
      break;
    case "hostGone":
      // The background reconnects; offer to ask again once it can.
      asked = false;
      puzzleID = null;
      element("task").hidden = true;
      element("start").hidden = finished;
      break;
    case "puzzle":
      puzzleID = message.puzzle;
      element("prompt").textContent = String(message.prompt ?? "");
      element("question").textContent = String(message.text ?? "");
      element("task").hidden = false;
      element("answer").value = "";
      element("answer").focus();
      // The rule's pause: the answer is taken only after it (the host answers an early one with the time left).
      startCountdown(message.waitTexts);
      break;
    case "backedOut":
      showPaused();
      break;
    case "usedUp":
    case "notAtLimit":
    case "downtime":
      // No task: the text says why (used up today, the limit not reached yet, or downtime until a time).
      element("way-out").hidden = true;
      finished = true;
      puzzleID = null;
      element("task").hidden = true;
      element("start").hidden = true;
      element("prompt").textContent = "";
      setStatus(String(message.text ?? ""));
      break;
    case "unlocked":
      // The rule was unlocked (here, in a notification or in a terminal): the background goes back soon.
      finished = true;
      puzzleID = null;
      element("task").hidden = true;
      element("start").hidden = true;
      element("way-out").hidden = true;
      element("prompt").textContent = "";
      if (typeof message.app === "string" && message.app !== "") appName = message.app;
      setStatus(appName ? text("shield_unlocked", [appName]) : text("shield_unlocked_no_app"));
      break;
    case "noService":
      // No service counts now: the page says so; a task still records its grant in the ledger.
      setStatus(message.text ?? text("service_missing"));
      break;
    case "answer":
      setStatus(String(message.text ?? ""));
      if (message.result === "solved") {
        finished = true;
        puzzleID = null;
        element("task").hidden = true;
        element("way-out").hidden = true;
      } else if (message.result === "blank") {
        element("answer").focus();
      }
      break;
    default:
      break;
  }
}

function connectBackground() {
  background = api.runtime.connect({ name: "shield" });
  background.onMessage.addListener(onMessage);
  background.onDisconnect.addListener(() => {
    background = null;
    asked = false;
    setTimeout(connectBackground, 1000);
  });
  background.postMessage({ type: "hello", site });
}

document.documentElement.lang = text("@@ui_locale").replace("_", "-");
document.documentElement.dir = text("@@bidi_dir") || "ltr";
element("title").textContent = text("puzzle_title");
element("answer-label").textContent = text("puzzle_prompt");
element("answer").placeholder = text("puzzle_reply_placeholder");
element("submit").setAttribute("aria-label", text("action_puzzle"));
element("start").textContent = text("action_puzzle");
element("start").addEventListener("click", askForTask);
element("way-out").textContent = text("action_way_out_no_app");
element("way-out").addEventListener("click", takeWayOut);
element("week").textContent = text("week_show");
element("week").addEventListener("click", showWeek);
element("task").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!background || puzzleID === null) return;
  background.postMessage({ type: "answer", puzzle: puzzleID, answer: element("answer").value });
});
show(null);
connectBackground();
