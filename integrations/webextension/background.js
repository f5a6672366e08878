// ShieldBridge's background: tells the native host which site the browser
// shows, and obeys the state it answers.
//
// What leaves the extension is the registrable domain of the active tab of the
// last focused browser window that is not minimized (or null), and whether that
// window says it has the focus; never an address or a title. A browser window
// is any of FRONT_WINDOW_TYPES: a popup or an app window shows a site as a
// normal window does. The desktop is the authority on which window is in
// front: the service counts the site while the desktop says this browser is
// in front, and this script's own focus decides only where the service sees
// no focus (docs/using/websites.md).
// Nothing is stored: the address a shielded tab came from lives in this
// script's memory only, to go back to it, and is lost when the browser ends.
"use strict";

// Chromium runs this file as a service worker (one file, so it pulls the
// table in itself); Firefox runs it as a background script after domain.js.
if (typeof importScripts === "function") importScripts("domain.js");

const api = globalThis.browser ?? globalThis.chrome;
const HOST_NAME = "org.shieldbridge.shieldbridge";
const SHIELD_PAGE = api.runtime.getURL("shield.html");
const POPUP_PAGE = api.runtime.getURL("popup.html");
// The windows whose tab is the site in front: every kind that shows a page in a
// tab (window.open's popups, app windows, Firefox's panels), not only normal
// ones. A detached DevTools window is left out: it shows no site, and while it
// is in front the site of the window it came from stays the front, so its time
// counts as that site's.
const FRONT_WINDOW_TYPES = ["normal", "popup", "app", "panel"];
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 60000;
// While the host is connected, the front is looked at again this often, whatever
// it was: a focus change, a switch of window, a minimize or a restore without
// an event (Chromium on Xfce fires windows.onFocusChanged for few of them,
// headless Chromium minimizes without one) is seen within this time, so no
// state can stick. It costs two lookups in the browser; the host hears only
// of changes.
const RECHECK_MS = 5000;
// A shield page whose rule was unlocked says so this long before it goes back
// to the site, so that the person sees why the page changes.
const UNLOCKED_MS = 3000;
// After a site was added to a rule, the front is reported again this much later, so
// that the state of the service, which has read config.json by then, reaches the popup.
const RESTATE_MS = 3000;

/** The native port, or null while the host is gone. */
let host = null;
/** Whether the host has answered on this connection (then it is working). */
let hostAnswered = false;
let retryDelay = FIRST_RETRY_MS;
let retryTimer = null;
/** The site and focus last sent on this connection ("site|focused"); undefined when none was sent yet. */
let reported;
/** What the browser shows: the tab, its site (null when none) and whether its window is focused. */
let front = { tabId: null, site: null, url: null, focused: false };
/** Shielded tabs: tab id → { site, app, rule, url } (the address to go back to). */
const shielded = new Map();
/** The shield pages open: their ports, each with its tab id. */
const pages = new Set();
/** The shield page that asked for the current task. */
let asker = null;
/** Counts front computations, so that only the latest one reports. */
let generation = 0;
/** The next look at the front while the host is connected, or null. */
let recheckTimer = null;
/** The last state the host gave (for the site it names), or null. */
let lastState = null;
/** The toolbar popups open: their ports. */
const popups = new Set();

// MARK: The host

function connect() {
  if (host) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  let port;
  try {
    port = api.runtime.connectNative(HOST_NAME);
  } catch (error) {
    console.warn("ShieldBridge: cannot start the native host:", String(error));
    scheduleReconnect();
    return;
  }
  host = port;
  hostAnswered = false;
  reported = undefined;
  port.onMessage.addListener((message) => {
    if (host !== port) return;
    if (!hostAnswered) {
      hostAnswered = true;
      retryDelay = FIRST_RETRY_MS;
      broadcast(pageInfoFor(null));
    }
    onHostMessage(message);
  });
  port.onDisconnect.addListener(() => {
    // Reading lastError marks it as seen, so the browser does not log it twice.
    const error = api.runtime.lastError;
    if (host !== port) return;
    host = null;
    hostAnswered = false;
    reported = undefined;
    console.warn("ShieldBridge: the native host went away:", error ? error.message : "closed");
    broadcast({ type: "hostGone" });
    toPopups({ type: "hostGone" });
    scheduleReconnect();
  });
  sendToHost({ type: "hello", version: 1, language: api.i18n.getUILanguage() });
  update();
}

function scheduleReconnect() {
  if (retryTimer !== null) return;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    connect();
  }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, LAST_RETRY_MS);
}

function sendToHost(message) {
  if (!host) return false;
  try {
    host.postMessage(message);
    return true;
  } catch (error) {
    // The port closed under us; onDisconnect reconnects.
    return false;
  }
}

function onHostMessage(message) {
  if (!message || typeof message !== "object") return;
  switch (message.type) {
    case "state":
      onState(message);
      toPopups(message);
      break;
    case "rules":
    case "limitRefused":
      toPopups(message);
      break;
    case "siteLimited":
      toPopups(message);
      // The service reloads its file and counts the site from then on: ask again for its state.
      setTimeout(() => {
        reported = undefined;
        update();
      }, RESTATE_MS);
      break;
    case "puzzle":
    case "usedUp":
    case "notAtLimit":
    case "downtime":
    case "backedOut":
      learnRule(message);
      toAsker(message);
      break;
    case "answer":
      toAsker(message);
      // The page shows the host's text for the solved task; it goes back after it.
      if (message.result === "solved" && asker) release(asker.tabId, false);
      break;
    case "unlocked":
      onUnlocked(message);
      break;
    case "error":
      console.warn("ShieldBridge: the host could not take a message:", String(message.message));
      break;
    case "noService":
      // No service runs, so nothing is counted: the shield pages say so plainly.
      console.warn("ShieldBridge: no service counts:", String(message.message));
      broadcast({ type: "noService", text: stringOrNull(message.text) });
      toPopups({ type: "noService", text: stringOrNull(message.text) });
      break;
    default:
      break;
  }
}

function onState(state) {
  if (typeof state.site !== "string") return;
  lastState = state;
  if (state.shielded === true) {
    if (front.tabId !== null && front.site === state.site) shield(front.tabId, state);
    return;
  }
  // Unshielded (a task solved here or elsewhere): every tab paused for this site goes back.
  for (const [tabId, entry] of shielded) {
    if (entry.site === state.site) release(tabId, true);
  }
}

/** The service lifted a rule (a task solved here, in a notification or in a terminal). */
function onUnlocked(message) {
  if (typeof message.rule !== "string") return;
  for (const [tabId, entry] of shielded) {
    if (entry.rule === message.rule) release(tabId, true);
  }
}

// MARK: Shielding

function shield(tabId, state) {
  if (!shielded.has(tabId)) {
    shielded.set(tabId, {
      site: state.site,
      app: stringOrNull(state.app),
      rule: stringOrNull(state.rule),
      url: front.url,
    });
  }
  const address = SHIELD_PAGE + "?site=" + encodeURIComponent(state.site);
  // A refused update (the tab closed, or a navigation under way) forgets the
  // tab only when it does not show the shield page: a page shown must hear of its unlock.
  api.tabs.update(tabId, { url: address }).catch(() =>
    api.tabs
      .get(tabId)
      .then((tab) => {
        if (!String(tab.url ?? "").startsWith(SHIELD_PAGE)) shielded.delete(tabId);
      })
      .catch(() => shielded.delete(tabId)),
  );
}

/**
 * The host named the rule of the asking page's site: a tab the background
 * knew only by its page's address (after a restart of this script) now waits
 * for that rule's unlock.
 */
function learnRule(message) {
  const entry = asker ? shielded.get(asker.tabId) : undefined;
  if (entry && entry.rule === null && typeof message.rule === "string") entry.rule = message.rule;
}

/**
 * The tab's rule is unlocked: its shield page says so (`tell`; a page whose
 * own task was solved shows the host's text already), and after
 * UNLOCKED_MS the tab goes back to the address it had, if it still shows
 * the shield page.
 */
function release(tabId, tell) {
  const entry = shielded.get(tabId);
  if (!entry) return;
  shielded.delete(tabId);
  if (tell) {
    for (const page of pages) {
      if (page.tabId === tabId) page.port.postMessage({ type: "unlocked", app: entry.app });
    }
  }
  setTimeout(() => goBack(tabId, entry), UNLOCKED_MS);
}

function goBack(tabId, entry) {
  const address = entry.url ?? "https://" + entry.site + "/";
  api.tabs
    .get(tabId)
    .then((tab) => {
      // The person may have gone elsewhere meanwhile, or the tab was shielded again.
      if (!String(tab.url ?? "").startsWith(SHIELD_PAGE) || shielded.has(tabId)) return;
      return api.tabs.update(tabId, { url: address });
    })
    .catch(() => {});
}

function stringOrNull(value) {
  return typeof value === "string" && value !== "" ? value : null;
}

// MARK: What is in front

/** Recomputes the front and reports its site and focus when either changed. */
async function update() {
  const mine = ++generation;
  let next;
  try {
    next = await computeFront();
  } catch (error) {
    // A window or tab closed while we looked: no site.
    next = { tabId: null, site: null, url: null, focused: false };
  }
  if (mine !== generation) return;
  front = next;
  const key = next.site === null ? "null" : next.site + "|" + next.focused;
  if (host && key !== reported) {
    reported = key;
    sendToHost({ type: "focus", site: next.site, focused: next.site !== null && next.focused });
  }
  clearTimeout(recheckTimer);
  // Whatever was seen, look again: a state that changes without an event must not stick.
  recheckTimer = host ? setTimeout(update, RECHECK_MS) : null;
}

/**
 * The active tab of the last focused browser window (any of
 * FRONT_WINDOW_TYPES), unless that window is minimized, and whether the
 * window says it is focused. A blur does not take the site away: the desktop
 * decides whether the browser is in front.
 */
async function computeFront() {
  const none = { tabId: null, site: null, url: null, focused: false };
  const window = await api.windows.getLastFocused({ windowTypes: FRONT_WINDOW_TYPES });
  if (!window || window.state === "minimized") return none;
  const [tab] = await api.tabs.query({ active: true, windowId: window.id });
  if (!tab || typeof tab.url !== "string") return none;
  // Our own shield page is no site: the time in front of it counts for nothing.
  const site = shieldbridgeRegistrableDomain(tab.url);
  return { tabId: tab.id, site, url: tab.url, focused: window.focused === true };
}

api.windows.onFocusChanged.addListener(() => update());
api.tabs.onActivated.addListener(() => update());
api.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined || change.status !== undefined) update();
});
api.tabs.onRemoved.addListener((tabId) => {
  shielded.delete(tabId);
  update();
});
api.tabs.onReplaced?.addListener(() => update());
// Chromium tells of minimizing and restoring here; Firefox has no such event and
// reports a minimized window's focus loss through onFocusChanged.
api.windows.onBoundsChanged?.addListener(() => update());

// MARK: The shield pages

function pageInfoFor(entry) {
  return { type: "info", connected: host !== null && hostAnswered, site: entry?.site, app: entry?.app };
}

function broadcast(message) {
  for (const page of pages) {
    const entry = shielded.get(page.tabId);
    page.port.postMessage(message.type === "info" ? pageInfoFor(entry ?? { site: page.site }) : message);
  }
}

function toAsker(message) {
  if (asker && pages.has(asker)) asker.port.postMessage(message);
}

api.runtime.onConnect.addListener((port) => {
  if (port.name === "popup" && port.sender?.url?.startsWith(POPUP_PAGE)) {
    onPopupConnect(port);
    return;
  }
  if (port.name !== "shield" || !port.sender?.tab || !port.sender.url?.startsWith(SHIELD_PAGE)) {
    port.disconnect();
    return;
  }
  const page = { port, tabId: port.sender.tab.id, site: null };
  pages.add(page);
  port.onDisconnect.addListener(() => {
    pages.delete(page);
    if (asker === page) asker = null;
  });
  port.onMessage.addListener((message) => onPageMessage(page, message));
});

function onPageMessage(page, message) {
  if (!message || typeof message !== "object") return;
  switch (message.type) {
    case "hello": {
      // After a restart of this script the memory is empty: the page's address names the site.
      const site = shieldbridgeRegistrableDomain("https://" + String(message.site ?? "") + "/");
      if (site && !shielded.has(page.tabId)) shielded.set(page.tabId, { site, app: null, rule: null, url: null });
      page.site = shielded.get(page.tabId)?.site ?? site;
      page.port.postMessage(pageInfoFor(shielded.get(page.tabId) ?? { site: page.site }));
      break;
    }
    case "puzzle":
      asker = page;
      if (!page.site || !sendToHost({ type: "puzzle", site: page.site })) {
        page.port.postMessage({ type: "hostGone" });
      }
      break;
    case "answer":
      asker = page;
      if (!sendToHost({ type: "answer", puzzle: message.puzzle, answer: String(message.answer ?? "") })) {
        page.port.postMessage({ type: "hostGone" });
      }
      break;
    case "week":
      // The page's "Show the week": the host writes the rule's page and opens it; nothing changes here,
      // and the page asking a task (the asker) stays the same.
      if (!page.site || !sendToHost({ type: "week", site: page.site })) {
        page.port.postMessage({ type: "hostGone" });
      }
      break;
    case "wayOut":
      // The page's "Not now": counted by the host; the tab stays a plain paused page.
      asker = page;
      if (!page.site || !sendToHost({ type: "wayOut", site: page.site })) {
        page.port.postMessage({ type: "hostGone" });
      }
      break;
    default:
      break;
  }
}

// MARK: The toolbar popup

function toPopups(message) {
  for (const port of popups) port.postMessage(message);
}

/**
 * A popup (popup.html, in the toolbar or in a tab) is about the site in front:
 * the active tab of the last focused browser window, which the toolbar
 * popup's own view is not. It gets that site with the host's last state for it, and the
 * rules to choose from; "limitSite" goes to the host as it is.
 */
function onPopupConnect(port) {
  popups.add(port);
  port.onDisconnect.addListener(() => popups.delete(port));
  port.onMessage.addListener((message) => {
    if (!message || typeof message !== "object") return;
    switch (message.type) {
      case "hello": {
        const state = lastState && lastState.site === front.site ? lastState : null;
        port.postMessage({ type: "front", site: front.site, state });
        if (!sendToHost({ type: "rules" })) port.postMessage({ type: "hostGone" });
        break;
      }
      case "limitSite":
        if (typeof message.site !== "string" || typeof message.rule !== "string") return;
        if (!sendToHost({ type: "limitSite", site: message.site, rule: message.rule })) {
          port.postMessage({ type: "hostGone" });
        }
        break;
      default:
        break;
    }
  });
}

connect();
