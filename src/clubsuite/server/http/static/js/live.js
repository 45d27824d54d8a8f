// @ts-check
// The page's socket (/live, docs/protocol.md "The page's socket"): one per page, opened on first use. It brings
// what the page watches (the lobby's tournaments, a tournament's standings) and what is meant for this account alone
// (a tournament table ready for you), shown on any page as a notice, with a sound when sounds are on. Nothing is
// polled: the server pushes a topic again only when it has changed. A lost socket is opened again after a pause
// that grows, the topics watched again and the notices kept for this account read again (those pushed while it was
// closed are shown as if pushed then).

import {account, api, h, store} from "./dom.js";
import {t, tableName} from "./i18n.js";
import {play} from "./sound.js";

const handlers = new Map(); // message type -> set of functions
const topics = new Set();
let socket = null;
let wait = 1000;
let noticing = false;
// A socket is registered for this account's notices only once the server welcomes it: what is read over HTTP then
// and what is pushed after leave no notice out between them (one added before the welcome is in the read).
const welcomed = new Set(); // f(again) at each welcome: again, once a socket opened again after one was lost
const toldTables = new Map(); // table -> tournament, as the server said for a table page opened cold
let skew = 0; // the server's clock less this device's, in seconds, as the socket's welcome said
let firstWelcome = null; // the server's time when the page's first socket was welcomed: older notices are kept ones
/** @type {(seat: object) => Promise<boolean>} */
let mayFollow = async () => true; // whether the page may follow a seat notice by itself now (its own rule, if any)
const FOLLOW_SECONDS = 5; // a table page goes on to the next tournament table after this long

let retry = null; // the timer of the next attempt after the socket was lost: none is opened before it fires

function connect() {
  retry = null;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  // Each listener speaks to its own socket: the page's current one may already be a newer one, still connecting.
  const own = new WebSocket(`${scheme}//${location.host}/live`);
  socket = own;
  own.addEventListener("open", () => {
    wait = 1000;
    for (const topic of topics) own.send(JSON.stringify({type: "watch", topic}));
  });
  own.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "welcome" && typeof msg.now === "number") {
      skew = msg.now - Date.now() / 1000;
      const again = firstWelcome !== null;
      if (!again) firstWelcome = msg.now;
      for (const f of welcomed) f(again);
    }
    for (const f of handlers.get(msg.type) || []) f(msg);
  });
  own.addEventListener("close", () => {
    if (socket !== own) return;
    socket = null;
    retry = setTimeout(connect, wait);
    wait = Math.min(wait * 2, 30000);
  });
}

/** Open the socket if the page has none, unless an attempt is already waiting its turn (a countdown asking the time
 * every second must not open a second socket beside the one the wait will open). */
function ensure() {
  if (socket === null && retry === null) connect();
}

/** Call ``f(message)`` for every message of ``type`` ("tournaments", "tournament", "tournament_me", "notice"). */
export function on(type, f) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(f);
  ensure();
}

/** Watch ``topic`` ("tournaments", or "tournament:<id>"): its message now, and again at every change. */
export function watch(topic) {
  topics.add(topic);
  ensure();
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({type: "watch", topic}));
}

/** The server's time now, in seconds, as this device's clock and the socket's welcome make it: a countdown counts
 * with it, so a device whose clock is wrong still shows the time left. */
export function serverNow() {
  ensure();
  return Date.now() / 1000 + skew;
}

/** The page's rule for following a seat notice by itself: ``rule(seat)`` resolves to whether it may now (the
 * tournament's page: never for an entrant who paused or withdrew, whose table in play stays theirs, as the server
 * says then: a pause made on another device while this page's socket was lost is known). */
export function followSeatsWhen(rule) {
  mayFollow = rule;
}

/** The tournament a table was seated by, kept when a seat is handed over, or as the server said for a table page
 * opened cold (:func:`tableOfTournament`), so that its page goes on to the next. */
export function tournamentOf(table) {
  return store.get(`tournamentTable.${table}`) || toldTables.get(table);
}

/** The server said table ``table`` is tournament ``tournament``'s (a table page opened cold: nothing kept). */
export function tableOfTournament(table, tournament) {
  toldTables.set(table, tournament);
}

/** Open a tournament seat's table. Its page asks the table for a token of the seat the account holds there
 * (whichever server process serves it), as it does for any table the account sits at, so the link works as well
 * opened in a new tab or on another device. */
export function goToSeat(seat) {
  store.set(`tournamentTable.${seat.table}`, seat.tournament);
  location.href = `/table/${encodeURIComponent(seat.table)}`;
}

/** A notice in words, with what can be done about it. */
function noticeView(notice, remove) {
  const b = notice.body || {};
  const put = async (path) => {
    try { await api(`/notices/${encodeURIComponent(notice.id)}/${path}`, {}); } catch { /* gone already */ }
    remove();
  };
  const close = h("button", {type: "button", class: "notice-close", "aria-label": t("Close"), onclick: () => put("dismiss")}, "×");
  const until = b.until ? new Date(b.until * 1000).toLocaleString() : null;
  switch (notice.kind) {
    case "invite": {
      const target = b.kind === "tournament" ? `/tournament/${encodeURIComponent(b.tournament)}`
        : `/table/${encodeURIComponent(b.table)}${b.invite ? `?invite=${encodeURIComponent(b.invite)}` : ""}`;
      const go = h("a", {href: target, class: "button-link primary notice-join"}, b.kind === "tournament" ? t("Open it") : t("Join"));
      go.addEventListener("click", () => { api(`/notices/${encodeURIComponent(notice.id)}/dismiss`, {}).catch(() => null); });
      const decline = h("button", {type: "button", class: "notice-decline", onclick: () => put("decline")}, t("Decline"));
      const words = b.kind === "tournament" ? t("{name} invites you to the tournament {title}.", {name: b.from, title: b.name})
        : t("{name} invites you to a table.", {name: b.from});
      return h("div", {class: "notice", dataset: {kind: "invite"}}, h("p", {}, words), go, " ", decline, close);
    }
    case "turn": { // a turn-based table waits for this account's move
      const go = h("a", {href: `/table/${encodeURIComponent(b.table)}`, class: "button-link primary notice-join"}, t("Go to the table"));
      go.addEventListener("click", () => { api(`/notices/${encodeURIComponent(notice.id)}/dismiss`, {}).catch(() => null); });
      const title = tableName({name: b.title, name_words: b.name_words}); // in the reader's language where parts came
      return h("div", {class: "notice", dataset: {kind: "turn"}}, h("p", {}, t("Your turn at {title}.", {title})), go, close);
    }
    case "match_over": { // a turn-based match ended while this account was away
      const go = h("a", {href: `/table/${encodeURIComponent(b.table)}`, class: "button-link notice-join"}, t("See how it ended"));
      go.addEventListener("click", () => { api(`/notices/${encodeURIComponent(notice.id)}/dismiss`, {}).catch(() => null); });
      const title = tableName({name: b.title, name_words: b.name_words});
      const words = b.won ? t("You won the match at {title}.", {title})
        : t("The match at {title} is over. Your place: {place} of {of}.", {title, place: b.place, of: b.of});
      return h("div", {class: "notice", dataset: {kind: "match_over"}}, h("p", {}, words), go, close);
    }
    case "declined":
      return h("div", {class: "notice"}, h("p", {}, t("{name} declined your invitation.", {name: b.by})), close);
    case "warn":
      return h("div", {class: "notice warning"}, h("p", {}, t("A moderator warns you: {reason}", {reason: b.reason})), close);
    case "mute":
      return h("div", {class: "notice warning"}, h("p", {}, t("You may not chat until {when}: {reason}", {when: until, reason: b.reason})), close);
    case "chat_ban":
      return h("div", {class: "notice warning"}, h("p", {}, t("You may no longer chat on this site: {reason}", {reason: b.reason})), close);
    default:
      return null;
  }
}

/** Notices on this page: a tournament table ready goes straight to it from the tournament's own page; from the table
 * it follows, after a few seconds in which the player still sees how the table ended (or chooses to stay); elsewhere
 * it is a notice with a link, which stays until followed or closed. */
export function startNotices() {
  if (noticing) return;
  noticing = true;
  let box = document.getElementById("notices");
  if (!box) {
    box = h("div", {id: "notices", class: "notices", role: "status", "aria-live": "polite"});
    document.body.append(box);
  }
  const shown = new Set();
  const showNotice = (notice) => {
    if (shown.has(notice.id)) return;
    // your turn at the table this page shows, or on the page that lists them: the page says it already
    if (notice.kind === "turn" && (here[1] === "your-turn" || (here[1] === "table" && hereId === (notice.body || {}).table))) return;
    if (notice.kind === "match_over" && here[1] === "table" && hereId === (notice.body || {}).table) {
      api(`/notices/${encodeURIComponent(notice.id)}/dismiss`, {}).catch(() => null); // the table shows how it ended
      return;
    }
    const view = noticeView(notice, () => view.remove());
    if (!view) return;
    shown.add(notice.id);
    if (notice.kind === "invite" || notice.kind === "turn") play("turn");
    box.append(view);
  };
  const here = location.pathname.split("/");
  const hereId = decodeURIComponent(here[2] || "");
  // A tournament table ready: ``fresh`` when it was pushed now, or while the socket was closed (followed from the
  // tournament's page at once, from the table just ended after a pause); one kept from before the page opened is a
  // link, and none at all on that table's own page.
  const showSeat = async (notice, fresh) => {
    const seat = notice.body || {};
    if (shown.has(notice.id) || (here[1] === "table" && hereId === seat.table)) return;
    const follow = fresh && (await mayFollow(seat));
    if (shown.has(notice.id)) return; // shown meanwhile
    if (!follow && here[1] === "tournament" && hereId === seat.tournament) return; // the page has its own link
    shown.add(notice.id);
    for (const old of box.querySelectorAll(".notice[data-kind='seat']")) old.remove();
    const ownPage = follow && here[1] === "tournament" && hereId === seat.tournament;
    const followed = follow && here[1] === "table" && tournamentOf(hereId) === seat.tournament;
    if (fresh) play("turn");
    if (ownPage) {
      goToSeat(seat);
      return;
    }
    const link = h("a", {href: `/table/${encodeURIComponent(seat.table)}`, class: "button-link primary", id: "next-table"}, t("Go to your table"));
    link.addEventListener("click", (event) => { event.preventDefault(); goToSeat(seat); });
    const close = h("button", {type: "button", class: "notice-close", "aria-label": t("Close")}, "×");
    const view = h("div", {class: "notice", dataset: {kind: "seat"}}, h("p", {}, t("Your next tournament table is ready.")), link, close);
    let timer = null;
    close.addEventListener("click", () => {
      clearTimeout(timer);
      view.remove();
      api(`/notices/${encodeURIComponent(notice.id)}/dismiss`, {}).catch(() => null);
    });
    if (followed) {
      const stay = h("button", {type: "button", id: "stay-here"}, t("Stay here"));
      stay.addEventListener("click", () => { clearTimeout(timer); stay.remove(); });
      view.append(h("p", {class: "muted"}, t("Going there in {seconds} s.", {seconds: FOLLOW_SECONDS})), stay);
      timer = setTimeout(() => goToSeat(seat), FOLLOW_SECONDS * 1000);
    }
    box.append(view);
  };
  // The notices kept for this account: when the page opens (a seat among them is a link), and again each time the
  // socket opens again (those added while it was closed, never read or pushed here before, are shown as if pushed
  // then: a seat among them is followed).
  // Reads go one after another; until one has answered, none takes a notice as new (all of them are known then).
  const known = new Set(); // the ids of every notice read or pushed here, shown or not
  // A pushed notice read here already is not shown again. One added before the page first opened its socket (the
  // server may push such a notice of its last half-minute to a page that opens) is a kept one, not a new one: a seat
  // among them stays a link, so opening a tournament's page never takes its reader to the table they just left.
  on("notice", (msg) => {
    const notice = msg.notice;
    if (known.has(notice.id)) return;
    known.add(notice.id);
    const pushedNew = typeof notice.at !== "number" || firstWelcome === null || notice.at >= firstWelcome;
    if (notice.kind === "seat") showSeat(notice, pushedNew); else showNotice(notice);
  });
  let readOnce = false; // a read of the kept notices has answered
  let reads = Promise.resolve();
  const readKept = (fresh) => {
    reads = reads.then(async () => {
      if (!(await account())) return;
      let kept;
      try {
        kept = await api("/notices");
      } catch {
        return; // the page works without them
      }
      const asNew = fresh && readOnce;
      readOnce = true;
      for (const notice of kept.notices.slice().reverse()) {
        if (known.has(notice.id)) continue;
        known.add(notice.id);
        if (notice.kind === "seat") showSeat(notice, asNew);
        else showNotice(notice);
      }
    });
    return reads;
  };
  readKept(false); // at once, and again once the socket is welcomed (``known`` shows each notice once)
  welcomed.add((again) => readKept(again));
}
