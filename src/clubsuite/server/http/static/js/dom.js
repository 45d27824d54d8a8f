// @ts-check
// Small DOM helpers. Every text goes in as a text node (never as markup), so a name or a message from the server
// cannot become HTML. Their few words are in the reader's language (i18n.js), looked up when they are drawn.

import {t} from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Whether this page is the offline app's (its ``<html data-app="offline">``): it plays against the rules running
 * in the page (a Web Worker, the app's offline.js), not against a server. */
export const OFFLINE = document.documentElement.dataset.app === "offline";

/** The offline app's hands (set by its offline.js before a page starts): ``api(path, body)`` answers the requests a
 * page would make of a server, ``socket(tableId)`` opens a table as a WebSocket would (the same messages), and
 * ``download(tableId, matchNo)`` saves a finished match's record. */
let local = null;

/** Let the offline app answer this page's requests (see ``local``). */
export function useLocal(hooks) {
  local = hooks;
}

/** The table's socket: a WebSocket to the server, or the offline app's table in the page (the same messages). */
export function openTableSocket(tableId) {
  if (local) return local.socket(tableId);
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(`${scheme}//${location.host}/tables/${encodeURIComponent(tableId)}/ws`);
}

/** Save the record of match ``matchNo`` of the offline table ``tableId`` as a file (the offline app only). */
export function downloadLocal(tableId, matchNo) {
  if (local) local.download(tableId, matchNo);
}

/** Where a page of the site is: the server's path, or the offline app's page for it (the lobby, a table). */
export function here(path) {
  if (!OFFLINE) return path;
  if (path === "/") return "./";
  const table = /^\/table\/([^/?#]+)$/.exec(path);
  if (table) return `table.html?local=${table[1]}`;
  const rules = /^\/rules\/([a-z]+)\?lang=([a-z]+)[^#]*(#.*)?$/.exec(path); // the app keeps each game's page in each language
  return rules ? `rules/${rules[1]}-${rules[2]}.html${rules[3] || ""}` : path;
}

/** An element: h("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, the same way. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** The listeners h() put on each element, by event: what patch() (patch.js) moves onto the element it keeps. */
const LISTENERS = new WeakMap();

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/** Listen to ``type`` on ``el`` as h()'s ``on...`` attributes do: a drawing that keeps the element (patch.js) moves the
 * listener too. */
export function listen(el, type, listener) {
  el.addEventListener(type, listener);
  if (!LISTENERS.has(el)) LISTENERS.set(el, new Map());
  LISTENERS.get(el).set(type, listener);
}

/** Give ``el`` the listeners h() put on ``from`` instead of its own (an element kept by a new drawing acts as the
 * drawing's element would: its handlers see the state it was drawn from). */
export function takeListeners(el, from) {
  const before = LISTENERS.get(el);
  if (before) for (const [type, listener] of before) el.removeEventListener(type, listener);
  LISTENERS.delete(el);
  const after = LISTENERS.get(from);
  if (after) for (const [type, listener] of after) listen(el, type, listener);
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** The element with this id (it must exist). */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return el;
}

let csrf;  // the session's CSRF token: undefined until asked, null when signed out
/** @type {Promise<any> | null} */
let asked = null; // the last asking of the server: the parts of a page that ask at once share its answer

/** The signed-in account (with its CSRF token), or null; asked of the server once per page (``again``: once more),
 * however many of the page's parts ask before the answer comes. */
export function account(again = false) {
  if (asked && !again) return asked;
  if (OFFLINE) return (asked = Promise.resolve(null)); // no accounts in the offline app
  /** @type {Promise<any>} */
  const asking = (async () => {
    let seen = null;
    try {
      const response = await fetch("/account");
      const answer = response.ok ? await response.json() : null;
      seen = answer && answer.signed_in ? answer : null;
    } catch {
      seen = null;
    }
    if (asked === asking) csrf = seen ? seen.csrf : null; // an answer overtaken by a later asking sets nothing
    return seen;
  })();
  asked = asking;
  return asking;
}

/** JSON over HTTP: the decoded answer, or an Error carrying the server's message. A request that changes something
 * (a body: POST, or ``method``, PUT) carries the session's CSRF token when the browser is signed in (the server
 * refuses it otherwise). */
export async function api(path, body = undefined, method = "POST") {
  if (local) return local.api(path, body); // the offline app: the rules in the page answer
  if (body !== undefined) await account();
  const init = body === undefined ? {} : {
    method,
    headers: csrf ? {"content-type": "application/json", "x-csrf-token": csrf} : {"content-type": "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new Error(t("the server cannot be reached: is it running?"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && typeof data.message === "string" ? data.message
      : data && Array.isArray(data.detail) ? data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ")
        : t("the server answered {status}", {status: response.status});
    /** @type {Error & {code?: string, status?: number, retryAfter?: number | null}} */
    const err = new Error(accountWords(data && data.code, response.status) || detail);
    err.code = data && data.code;
    err.status = response.status;
    err.retryAfter = Number(response.headers.get("retry-after")) || null; // seconds, where the server says when to ask again
    throw err;
  }
  return data;
}

/** A refusal of signing up or in, of a password or a passkey, in the reader's language by its code (null for
 * another: the server's own words are shown then). */
function accountWords(code, status) {
  switch (code) {
    case "bad_login": return t("That name and password do not match an account.");
    case "login_wait": return t("Too many wrong passwords for this account lately: wait a while, or ask the server's operator.");
    case "name_taken": return t("An account with that name, or one that looks the same, exists: choose another.");
    case "bad_name": return t("A name has 1 to 24 letters, digits, spaces and - _ . ' (the letters of one alphabet).");
    case "unwelcome_name": return t("That name holds a word this site does not accept: choose another.");
    case "bad_password": return status === 403 ? t("That is not this account's password.")
      : t("A password has 8 to 256 characters and is not the name.");
    case "bad_csrf": return t("This page is out of date: reload it and try again.");
    case "signed_out": return t("Sign in first.");
    case "busy": return t("The server is busy just now: try again in a moment.");
    case "bad_passkey": return status === 401 ? t("That passkey does not open an account here.")
      : t("The passkey's answer was refused: try again, or with another passkey.");
    case "bad_ticket": return t("This passkey request has expired or was already used: try again.");
    case "no_passkeys": return t("Passkeys need this server reached by a name (localhost, or its name over HTTPS), not by an IP address.");
    case "too_many_passkeys": return t("An account holds at most 10 passkeys: remove one first.");
    default: return null;
  }
}

/** Stored preferences and seat tokens (this browser only). */
export const store = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem(`clubs.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      if (value === null) localStorage.removeItem(`clubs.${key}`);
      else localStorage.setItem(`clubs.${key}`, JSON.stringify(value));
    } catch {
      // storage may be switched off: the page still works, a reload just forgets
    }
  },
};

/** The page's title in the reader's language, for the page ``page`` ("lobby", "table", "replay", "player",
 * "leaderboard", "clubnight", "tournament", "moderation", "review", "puzzles" or "turns"), once its words
 * are loaded (the HTML's own title is the English one). */
export function pageTitle(page) {
  switch (page) {
    case "lobby":
      document.title = t("Clubs: play online");
      break;
    case "table":
      document.title = t("Clubs: a table");
      break;
    case "replay":
      document.title = t("Clubs: replay");
      break;
    case "player":
      document.title = t("Clubs: a player");
      break;
    case "leaderboard":
      document.title = t("Clubs: leaderboards");
      break;
    case "clubnight":
      document.title = t("Clubs: club night");
      break;
    case "tournament":
      document.title = t("Clubs: tournaments");
      break;
    case "moderation":
      document.title = t("Clubs: moderation");
      break;
    case "review":
      document.title = t("Clubs: a review");
      break;
    case "puzzles":
      document.title = t("Clubs: puzzles");
      break;
    case "turns":
      document.title = t("Clubs: your turn");
      break;
    default:
      document.title = t("Clubs");
  }
}

/** Apply the colour preference (four colours for the four suits, for colour-blind players) to the page. */
export function applyColours() {
  document.documentElement.classList.toggle("four-colour", store.get("fourColour", false) === true);
}

/** A checkbox that switches the four-colour deck on and off (remembered: ``clubs.fourColour``). */
export function colourToggle() {
  const box = h("input", {type: "checkbox", id: "four-colour"});
  box.checked = store.get("fourColour", false) === true;
  box.addEventListener("change", () => {
    store.set("fourColour", box.checked);
    applyColours();
  });
  return h("label", {class: "toggle"}, box, " ", t("Four-colour deck"),
    h("small", {class: "toggle-note"}, t("four-colour suits: clubs green, diamonds blue")));
}

// -- what a screen reader says ------------------------------------------------------------------------------------
let liveRegion = null;

/** The page's polite live region: one element for the life of the page, outside what is drawn again (a region
 * made anew with each drawing would not be read out), hidden from the eye. Made when the page starts, so that it is
 * there before its first announcement. */
export function announcer() {
  if (!liveRegion || !liveRegion.isConnected) {
    liveRegion = h("div", {id: "announcer", class: "announcer", role: "log", "aria-live": "polite", "aria-relevant": "additions text", "aria-label": t("Announcements")});
    document.body.append(liveRegion);
  }
  return liveRegion;
}

/** Have screen readers say ``text`` (politely: after what they are saying); each announcement is a line of its own,
 * the last few kept. */
export function announce(text) {
  if (!text) return;
  const region = announcer();
  region.append(h("p", {}, text));
  while (region.childElementCount > 30) region.firstElementChild.remove();
}
