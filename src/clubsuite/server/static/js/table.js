// The table page: take a seat (or watch), then play over the table's WebSocket. The server is authoritative: this
// page shows the view it is sent and sends actions in the game's notation; the legal ones come from the server.

import {api, applyColours, byId, colourToggle, fill, h, store} from "./dom.js";
import {cardButton, cardRow, cardShort, cardView, parseCard, parseCards, playShort, sortCards} from "./cards.js";
import {narrate, prompt, readAction, wordLabel} from "./games.js";
import {factList, lastTrick, scoreSheet, seatName, seatOrder, seatPanel, tableCenter} from "./board.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const params = new URLSearchParams(location.search);
const app = byId("app");

const state = {
  token: null,
  seat: null,
  role: null,
  version: null,
  table: null,
  view: null,
  legal: null,
  toAct: null,
  over: false,
  result: null,
  clock: null,
  hands: [],
  log: [],
  selection: new Set(),
  pending: false,
  error: null,
  hint: null,
  summary: null,
  lastWon: null,
  showLast: false,
  connected: false,
  closedForGood: false,
  socket: null,
  retry: 0,
};

/** A private table's invite code, where this page knows it (its link, or kept when the table was made or joined). */
function inviteCode() {
  return params.get("invite") || store.get(`invite.${tableId}`) || null;
}

/** ``path`` with the invite code a private table's address needs (a public table's needs none). */
function withInvite(path) {
  const code = state.table && state.table.settings.public === false ? inviteCode() : null;
  return code ? `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(code)}` : path;
}

function name(seat) {
  if (seat === null || seat === undefined) return "nobody";
  const info = state.table ? state.table.seats[seat] : null;
  if (seat === state.seat) return "You";
  return seatName(info, seat);
}

function say(text) {
  if (!text) return;
  state.log.push(text);
  if (state.log.length > 200) state.log.splice(0, state.log.length - 200);
}

// -- joining -------------------------------------------------------------------------------------------------------
async function start() {
  applyColours();
  const saved = store.get(`seat.${tableId}`);
  if (saved && typeof saved.token === "string") {
    state.token = saved.token;
    connect();
    return;
  }
  if (params.get("watch") === "1") {
    connect();
    return;
  }
  await showJoin();
}

async function showJoin(message = null) {
  let info;
  const invite = inviteCode();
  try {
    info = await api(invite ? `/invites/${encodeURIComponent(invite)}` : `/tables/${encodeURIComponent(tableId)}`);
  } catch (err) {
    fill(app, h("main", {class: "panel"}, h("h1", {}, "No such table"), h("p", {role: "alert"}, err.message),
      h("p", {}, h("a", {href: "/"}, "Back to the lobby"))));
    return;
  }
  const nameInput = h("input", {id: "join-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname", value: store.get("name", "")});
  const seatSelect = h("select", {id: "join-seat", name: "seat"},
    h("option", {value: ""}, "any free seat"),
    info.free_seats.map((s) => h("option", {value: String(s)}, `seat ${s + 1}`)));
  const problem = h("p", {class: "error", role: "alert"}, message ?? "");
  const form = h("form", {class: "panel join", "aria-labelledby": "join-title"},
    h("h1", {id: "join-title"}, `${info.title}: take a seat`),
    h("p", {}, `Table ${info.id} \u00b7 ${info.game}`),
    h("ul", {class: "seat-list"}, info.seats.map((s) => h("li", {}, `Seat ${s.seat + 1}: ${s.kind === "bot" ? `${s.name} (bot)` : s.taken ? s.name : "free"}`))),
    info.free_seats.length || invite ? [
      h("label", {for: "join-name"}, "Your name"), nameInput,
      h("label", {for: "join-seat"}, "Seat"), seatSelect,
      h("button", {type: "submit", class: "primary"}, "Take the seat"),
    ] : h("p", {}, "Every seat is taken."),
    info.settings.spectators ? h("button", {type: "button", id: "watch", onclick: () => { fill(app); connect(); }}, "Watch the table") : null,
    problem,
    h("p", {}, h("a", {href: "/"}, "Back to the lobby")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {name: nameInput.value.trim(), seat: seatSelect.value === "" ? null : Number(seatSelect.value)};
    try {
      const path = invite ? `/invites/${encodeURIComponent(invite)}/join` : `/tables/${encodeURIComponent(tableId)}/join`;
      const joined = await api(path, body);
      store.set("name", body.name);
      store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
      if (invite) store.set(`invite.${joined.table}`, invite);
      if (joined.table !== tableId) {
        location.href = `/table/${encodeURIComponent(joined.table)}`;
        return;
      }
      state.token = joined.token;
      fill(app);
      connect();
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  fill(app, form);
  nameInput.focus();
}

// -- the connection --------------------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/tables/${encodeURIComponent(tableId)}/ws`);
  state.socket = ws;
  ws.addEventListener("open", () => {
    const hello = {type: "hello", protocol: 1, token: state.token, last_version: state.version};
    if (!state.token && inviteCode()) hello.invite = inviteCode();  // watching a private table takes its invite
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    state.connected = false;
    state.pending = false;
    if (state.closedForGood) return;
    const wait = Math.min(5000, 300 * 2 ** state.retry);
    state.retry += 1;
    render();
    setTimeout(connect, wait);
  });
}

function send(msg) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

setInterval(() => send({type: "ping"}), 25000);

function receive(msg) {
  switch (msg.type) {
    case "welcome":
      state.connected = true;
      state.retry = 0;
      state.seat = msg.seat;
      state.role = msg.role;
      break;
    case "state":
      takeState(msg);
      state.hands = msg.hands;
      state.summary = null;
      if (msg.resync) say("(you were away: the table is shown as it is now)");
      break;
    case "update":
      for (const ev of msg.events) noteEvent(ev);
      takeState(msg);
      if (msg.seats) state.table.seats = msg.seats;
      if (msg.scored) {
        state.hands.push(msg.scored);
        state.summary = {index: state.hands.length - 1};
      }
      break;
    case "catchup":
      for (const u of msg.updates) for (const ev of u.events) noteEvent(ev);
      break;
    case "presence":
      if (state.table) state.table.seats = msg.seats;
      break;
    case "hint":
      if (msg.version === state.version) state.hint = msg.action;
      break;
    case "error":
      state.pending = false;
      if (msg.code === "bad_token") {
        store.set(`seat.${tableId}`, null);
        state.closedForGood = true;
        state.socket.close();
        showJoin("That seat is no longer yours (it was given up): take a seat again, or watch.");
        return;
      }
      if (msg.code === "no_spectators") {
        state.closedForGood = true;
        fill(app, h("main", {class: "panel"}, h("h1", {}, "Watching is not allowed"), h("p", {role: "alert"}, msg.message), h("a", {href: "/"}, "Back to the lobby")));
        return;
      }
      state.error = msg.code === "stale" ? "The table moved on before your action arrived: look again." : msg.message;
      break;
    case "bye":
      if (msg.reason === "you left the seat") {
        state.closedForGood = true;
        store.set(`seat.${tableId}`, null);
      }
      say(msg.reason);
      break;
    default:
      return;
  }
  render();
}

function takeState(msg) {
  const before = state.version;
  state.version = msg.version;
  if (msg.table) state.table = msg.table;
  state.view = msg.view;
  state.legal = msg.legal;
  state.toAct = msg.to_act;
  state.over = msg.over;
  state.result = msg.result;
  state.clock = msg.clock;
  if (before !== msg.version) {
    state.pending = false;
    state.hint = null;
    state.error = null;
    state.selection = new Set([...state.selection].filter((c) => ownCards().some((o) => o.text === c)));
    if (msg.to_act !== state.seat) state.selection.clear();
  }
}

function noteEvent(ev) {
  if (ev.type === "TrickWon") state.lastWon = {seat: ev.seat, cards: ev.cards};
  if (ev.type === "HandStarted") state.lastWon = null;
  say(narrate(state.view ? state.view.game : "", ev, name));
}

// -- acting ----------------------------------------------------------------------------------------------------
function act(text) {
  if (state.pending || state.version === null) return;
  state.error = null;
  state.summary = null;
  if (send({type: "act", protocol: 1, action: text, version: state.version})) {
    state.pending = true;
    state.hint = null;
  } else {
    state.error = "Not connected: the action was not sent (reconnecting).";
  }
  render();
}

function ownCards() {
  const v = state.view;
  if (!v || !v.hand) return [];
  return parseCards(v.hand);
}

function myTurn() {
  return state.seat !== null && state.toAct === state.seat && !state.over && Array.isArray(state.legal);
}

/** The legal actions sorted into: card actions of one card (played by a click), words (buttons), and actions of
 * several cards (chosen by selecting cards; North Star's CLUBS plays are always chosen so). */
function legalParts() {
  const game = state.view.game;
  const singles = new Map();
  const words = [];
  const multis = [];
  for (const a of (state.legal || []).map(readAction)) {
    if (a.cards.length === 0) words.push(a);
    else if (a.cards.length === 1 && a.word === null && game !== "northstar") singles.set(a.cards[0].text, a.text);
    else multis.push(a);
  }
  return {singles, words, multis};
}

function keyOf(cards) {
  return cards.map((c) => c.text).sort().join(" ");
}

function toggle(card) {
  if (state.selection.has(card)) state.selection.delete(card);
  else state.selection.add(card);
  state.error = null;
  render();
}

// -- drawing -----------------------------------------------------------------------------------------------------
let lastFocus = null;

function render() {
  if (!state.view || !state.table) {
    fill(app, h("main", {class: "panel"}, h("p", {role: "status"}, state.connected ? "Loading the table\u2026" : "Connecting\u2026")));
    return;
  }
  const active = document.activeElement;
  if (active && app.contains(active) && active.dataset && (active.dataset.card || active.dataset.action)) {
    lastFocus = active.dataset.card ? `[data-card="${active.dataset.card}"]` : `[data-action="${CSS.escape(active.dataset.action)}"]`;
  }
  const game = state.view.game;
  const n = state.view.hand_sizes.length;
  const order = seatOrder(n, state.seat);
  const parts = myTurn() ? legalParts() : {singles: new Map(), words: [], multis: []};

  const header = h("header", {class: "bar"},
    h("a", {href: "/", class: "home"}, "Clubs"),
    h("h1", {}, state.table.title),
    h("span", {class: "muted"}, `${state.table.game} \u00b7 hand ${state.view.hand_number + 1}${state.table.match_no ? ` \u00b7 match ${state.table.match_no + 1}` : ""}`),
    h("span", {class: `conn ${state.connected ? "on" : "off"}`, role: "status"}, state.connected ? (state.seat === null ? "watching" : "connected") : "reconnecting\u2026"),
    colourToggle());

  const others = order.filter((s) => s !== state.seat);
  const seats = h("div", {class: `seats seats-${others.length}`},
    others.map((s) => seatPanel({game, view: state.view, seat: s, info: state.table.seats[s], me: state.seat, clock: state.clock})));

  const center = h("div", {class: "table-middle"},
    tableCenter({game, view: state.view, name, order}),
    handSummary(),
    state.showLast ? (lastTrick({game, view: state.view, name, lastWon: state.lastWon}) ?? h("p", {class: "muted"}, "No trick has been completed yet.")) : null);

  const status = h("div", {class: "status"},
    h("p", {id: "turn", "aria-live": "polite"}, turnText()),
    state.error ? h("p", {class: "error", role: "alert"}, state.error) : null,
    state.hint ? h("p", {class: "hint", role: "status"}, `Hint: ${playShort(state.hint)}`) : null);

  const mine = state.seat === null ? null : h("section", {class: "my-area", "aria-label": "your cards"},
    seatPanel({game, view: state.view, seat: state.seat, info: state.table.seats[state.seat], me: state.seat, clock: state.clock, cards: null}),
    extraRows(game, parts),
    handRow(parts),
    controls(game, parts));

  const side = h("aside", {class: "side"},
    h("div", {class: "side-buttons"},
      h("button", {type: "button", "aria-pressed": state.showLast ? "true" : "false", onclick: () => { state.showLast = !state.showLast; render(); }}, state.showLast ? "Hide the last trick" : "Show the last trick"),
      state.seat !== null ? h("button", {type: "button", onclick: leave}, "Leave the seat") : null,
      inviteBox()),
    factList(game, state.view, name),
    scoreSheet({game, view: state.view, hands: state.hands, name, n}),
    h("section", {class: "log", "aria-label": "what happened"}, h("h2", {}, "Play"),
      h("ol", {}, state.log.slice(-30).map((line) => h("li", {}, line)))));

  const summary = matchSummary(game, n);
  fill(app, header, h("main", {class: "table-page"}, h("div", {class: "board"}, seats, center, status, mine), side), summary);
  restoreFocus();
}

function restoreFocus() {
  let target = lastFocus ? app.querySelector(lastFocus) : null;
  if (target && target.disabled) target = null;
  if (!target && myTurn() && document.activeElement === document.body) {
    target = app.querySelector(".hand .playable, .controls button:not([disabled])");
  }
  if (target && document.activeElement !== target && (lastFocus || document.activeElement === document.body)) target.focus({preventScroll: true});
}

function turnText() {
  const v = state.view;
  if (state.over) return "The match is over.";
  if (state.table.waiting) return "Waiting for every player to take a seat\u2026";
  if (state.toAct === null) return "Dealing\u2026";
  if (myTurn()) return state.pending ? "Sent\u2026" : prompt(v.game, v);
  return `Waiting for ${name(state.toAct)}\u2026`;
}

function extraRows(game, parts) {
  const v = state.view;
  const rows = [];
  if (game === "free" && v.auction_hand) {
    const cards = sortCards(parseCards(v.auction_hand));
    rows.push(h("div", {class: "extra"}, h("h2", {}, "Your bid cards"),
      h("div", {class: "hand bid-cards"}, cards.map((c) => cardButton(c, {
        enabled: parts.singles.has(c.text) && !state.pending,
        onclick: () => act(parts.singles.get(c.text)),
      })))));
  }
  if (game === "free" && v.chest) rows.push(h("div", {class: "extra"}, h("h2", {}, "The treasure chest (now in your hand)"), cardRow(parseCards(v.chest))));
  if (game === "free" && v.discards) rows.push(h("div", {class: "extra"}, h("h2", {}, "Your discards"), cardRow(parseCards(v.discards))));
  if (game === "free" && v.pass_choice) rows.push(h("div", {class: "extra"}, h("h2", {}, "You pass to your right"), cardRow(parseCards(v.pass_choice))));
  if (game === "partnership" && v.given) rows.push(h("div", {class: "extra"}, h("h2", {}, "You passed"), cardRow(parseCards(v.given))));
  if (game === "partnership" && v.received) rows.push(h("div", {class: "extra"}, h("h2", {}, "You received"), cardRow(parseCards(v.received))));
  if (game === "whist" && v.known_cards && Object.keys(v.known_cards).length) {
    for (const [k, cards] of Object.entries(v.known_cards)) rows.push(h("div", {class: "extra"}, h("h2", {}, k === "bid" ? "The bid hand you left" : `Known: ${k}`), cardRow(parseCards(cards))));
  }
  return rows;
}

function handRow(parts) {
  const cards = sortCards(ownCards());
  const select = parts.multis.length > 0;
  const chosen = [...state.selection];
  const fits = (card) => parts.multis.some((m) => {
    const texts = new Set(m.cards.map((c) => c.text));
    return texts.has(card) && chosen.every((c) => texts.has(c));
  });
  const active = parts.singles.size > 0 || select;
  const hand = h("div", {class: `hand ${active ? "active" : ""}`.trim(), role: "group", "aria-label": `your hand, ${cards.length} cards`, onkeydown: arrowKeys},
    cards.map((c) => {
      if (select) {
        const on = state.selection.has(c.text);
        return cardButton(c, {enabled: !state.pending && (on || fits(c.text)), selected: on, onclick: () => toggle(c.text), extra: state.hint && readAction(state.hint).cards.some((x) => x.text === c.text) ? "hinted" : ""});
      }
      const action = parts.singles.get(c.text);
      return cardButton(c, {enabled: action !== undefined && !state.pending, onclick: () => act(action), extra: state.hint === c.text ? "hinted" : ""});
    }));
  return hand;
}

function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const buttons = [...event.currentTarget.querySelectorAll("button.card")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const next = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : at + (event.key === "ArrowLeft" ? -1 : 1);
  const target = buttons[Math.max(0, Math.min(buttons.length - 1, next))];
  target.focus();
  event.preventDefault();
}

function controls(game, parts) {
  const items = [];
  const disabled = state.pending;
  for (const w of parts.words) {
    items.push(h("button", {type: "button", class: "action", disabled, dataset: {action: w.text}, onclick: () => act(w.text)}, wordLabel(game, w.text, state.view)));
  }
  if (parts.multis.length) {
    const chosen = [...state.selection].map(parseCard);
    const key = keyOf(chosen);
    const matches = chosen.length ? parts.multis.filter((m) => keyOf(m.cards) === key) : [];
    for (const m of matches) {
      const label = m.word === "pass" ? `Pass ${m.cards.map(cardShort).join(" ")} to ${state.view.pass}` : `Play ${playShort(m.text)}`;
      const wild = m.cards.filter((c) => c.as !== null);
      const words = wild.length ? `${label} (${wild.map((c) => `${cardShort({...c, as: null})} as ${c.as}`).join(", ")})` : label;
      items.push(h("button", {type: "button", class: "action primary", disabled, dataset: {action: m.text}, onclick: () => { state.selection.clear(); act(m.text); }}, words));
    }
    if (chosen.length && !matches.length) items.push(h("span", {class: "muted"}, game === "partnership" ? `${chosen.length} of 3 chosen` : "Not a play yet: select more cards, or other ones."));
    if (chosen.length) items.push(h("button", {type: "button", dataset: {action: "clear"}, onclick: () => { state.selection.clear(); render(); }}, "Clear the selection"));
  }
  if (myTurn() && state.table.settings.hints) {
    items.push(h("button", {type: "button", dataset: {action: "hint"}, disabled, onclick: () => send({type: "hint", version: state.version})}, "Hint"));
  }
  if (myTurn()) items.push(typed());
  return h("div", {class: "controls", role: "group", "aria-label": "actions"}, items);
}

function typed() {
  const input = h("input", {id: "typed", name: "action", autocomplete: "off", spellcheck: "false", placeholder: "e.g. QH, pass, 7C 7H", "aria-label": "an action in notation"});
  const form = h("form", {class: "typed"}, h("label", {for: "typed", class: "sr-only"}, "Type an action"), input, h("button", {type: "submit"}, "Send"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) act(text);
  });
  return h("details", {class: "typed-box"}, h("summary", {}, "Type a move"), form);
}

function inviteBox() {
  const invite = store.get(`invite.${tableId}`);
  if (!invite) return null;
  const link = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
  return h("p", {class: "invite"}, "Invite code: ", h("code", {}, invite), " \u00b7 ", h("a", {href: link}, "invite link"));
}

async function leave() {
  if (!state.token) return;
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/leave`, {token: state.token});
  } catch (err) {
    state.error = err.message;
    render();
    return;
  }
  store.set(`seat.${tableId}`, null);
  state.closedForGood = true;
  if (state.socket) state.socket.close();
  location.href = "/";
}

function matchSummary(game, n) {
  const matchNo = state.table.match_no;
  if (state.over) {
    return h("section", {class: "summary match-summary", role: "dialog", "aria-labelledby": "match-over"},
      h("h2", {id: "match-over"}, "The match is over"),
      h("p", {}, winnersText()),
      scoreSheet({game, view: state.view, hands: state.hands, name, n}),
      h("p", {class: "summary-links"},
        h("a", {href: withInvite(`/tables/${encodeURIComponent(tableId)}/record.json?match=${matchNo}`), download: `clubs-${tableId}-${matchNo + 1}.json`}, "Download the record"),
        " \u00b7 ",
        h("a", {href: withInvite(`/replay?table=${encodeURIComponent(tableId)}&match=${matchNo}`)}, "Replay it with every hand"),
        state.token ? [" \u00b7 ", h("button", {type: "button", dataset: {action: "rematch"}, onclick: rematch}, "Play again")] : null));
  }
  return null;
}

/** The account of the hand just finished, over the middle of the table (never over the cards in hand). */
function handSummary() {
  if (state.summary && !state.over) {
    const hand = state.hands[state.summary.index];
    if (!hand) return null;
    return h("section", {class: "summary hand-summary", role: "dialog", "aria-labelledby": "hand-over"},
      h("h2", {id: "hand-over"}, `Hand ${state.summary.index + 1} is over`),
      h("ul", {}, hand.scores.map((v, s) => h("li", {}, `${name(s)}: ${v > 0 ? "+" : ""}${v} (total ${hand.totals[s]})`))),
      h("button", {type: "button", class: "primary", dataset: {action: "close-summary"}, onclick: () => { state.summary = null; render(); }}, "Go on"));
  }
  return null;
}

function winnersText() {
  const r = state.result;
  if (!r) return "";
  if (r.draw) return "A draw.";
  const who = r.winners.map(name);
  const verb = r.winners.length === 1 && r.winners[0] !== state.seat ? "wins" : "win";
  return `${who.join(" and ")} ${verb}. Final totals: ${r.totals.map((t, s) => `${name(s)} ${t}`).join(", ")}.`;
}

async function rematch() {
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/rematch`, {token: state.token});
    state.hands = [];
    state.summary = null;
  } catch (err) {
    state.error = err.message;
    render();
  }
}

setInterval(() => {
  for (const el of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, (Number(el.dataset.deadline) - Date.now()) / 1000);
    el.textContent = `${Math.ceil(left)} s`;
  }
}, 250);

start();
