// The table page: take a seat (or watch), then play over the table's WebSocket. The server is authoritative: this
// page shows the view it is sent and sends actions in the game's notation; the legal ones come from the server.
// What only moves on the page (a finished trick kept in view a moment, cards sliding) never holds back a message
// and never hides a card: a message is taken at once, and a card that arrives ends a trick still shown.
// Every word is in the reader's language (i18n.js, loaded before the first drawing): each sentence one message with
// its values as named placeholders, a sentence about the page's own seat a message of its own ("You take the
// trick." beside "{name} takes the trick."). What is made when this module loads (the typed move's field) gets its
// words when it is drawn.

import {account, announce, announcer, api, applyColours, byId, colourToggle, fill, h, pageTitle, store} from "./dom.js";
import {cardButton, cardRow, cardShort, parseCard, parseCards, playShort, readAction, said, sortCards, spokenCards} from "./cards.js";
import {eventWords, factList, fan, felt, handDetails, lastTrick, levelWords, rankOf, scoreSheet, seatName, seatPanel, shownOf, shownWords, trickArea} from "./board.js";
import {createChat} from "./chat.js"; // chat: the table's chat (its own module)
import {play as playSound, setSound, soundOn} from "./sound.js";
import {language, languageSwitch, loadWords, reasonWords, serverWords, t, tableName, tc, tn} from "./i18n.js";
import {ratingWords} from "./account.js";
import {coachPanel, rulesLink} from "./coach.js";
import {startNotices} from "./live.js";
import {atTournament, loadTournament, tournamentActions, tournamentBadge, tournamentMatchEnded} from "./tabletournament.js";

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
  notes: {}, // what a legal action does, by its notation, where the game says (a wild 15's readings)
  lesson: null, // the step of the scripted first hand ("Learn to play"): the choice pointed at, and why
  asked: null,
  labels: {},
  rulings: {},
  leaving: false, // "Leave the seat" was pressed during a match: asked once more
  toAct: null,
  over: false,
  result: null,
  clock: null,
  hands: [],
  log: [],
  selection: new Set(),
  wild: new Map(),
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
  linger: null,
  dealt: false,
  drawer: null,
  resultClosed: false,
  everyHandOpen: false, // the end-of-match dialog's "Every hand" unfolded
  scoreDetails: null, // the scores' details shown in a dialog: {hand: its index, or null for every hand}
  results: null, // the finished match's places and rating changes (GET /tables/{id}/results)
  whyOpen: false,
  heldCatchup: [],
  openExtras: new Set(), // the folded rows of known cards the player opened (kept open through the redrawings)
  brief: undefined, // the game in brief (GET /rules/{game}/brief), which the coach opens with; asked when first needed
};

/** The page's preferences (this browser only). */
const prefs = {
  get motion() { return store.get("motion", true) !== false; },
  /** The screen-reader mode: the typed move always shown, every card of the hand reachable by the keyboard. */
  get screenReader() { return store.get("screenReader", false) === true; },
  get pause() { const v = Number(store.get("trickPause", 1)); return Number.isFinite(v) && v >= 0 && v <= 5 ? v : 1; },
  /** How the hand is sorted, per game: as the game says unless the player chose (by suit where suits matter, by rank
   * where they never do). */
  get sort() {
    const game = state.view ? state.view.game : "";
    return store.get(`sort.${game}`, state.view && shownOf(state.view).sort === "rank" ? "rank-up" : "suit-up");
  },
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

/** The table's rules spec (a game's name and its options): the words follow its options. */
function spec() {
  return state.table ? state.table.game : state.view ? state.view.game : "";
}

/** A seat's name inside a sentence: "you" for the page's own seat. */
function nameIn(seat) {
  return seat === state.seat && seat !== null ? t("you") : name(seat);
}

/** A seat's name at the start of a sentence: "You" for the page's own seat, "nobody" for no seat. */
function name(seat) {
  if (seat === null || seat === undefined) return t("nobody");
  const info = state.table ? state.table.seats[seat] : null;
  if (seat === state.seat) return t("You");
  return seatName(info, seat);
}

// -- the play log: kept for this tab, so that a reload shows it whole ---------------------------------------------
const LOG_KEY = `clubs.log.${tableId}`;

function say(text) {
  if (!text) return;
  state.log.push(text);
  if (state.log.length > 200) state.log.splice(0, state.log.length - 200);
}

function keepLog() {
  try {
    sessionStorage.setItem(LOG_KEY, JSON.stringify({version: state.version, seat: state.seat, lines: state.log}));
  } catch {
    // storage switched off: a reload shows the log from then on
  }
}

function keptLog() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(LOG_KEY) || "null");
    if (kept && Array.isArray(kept.lines) && Number.isInteger(kept.version)) return kept;
  } catch {
    // unreadable: start afresh
  }
  return null;
}

// -- joining -------------------------------------------------------------------------------------------------------
async function start() {
  await loadWords();
  pageTitle("table");
  applyColours();
  applyMotion();
  announcer(); // the live region is there before anything is said in it
  startNotices(); // a tournament's next table, and what else is meant for this account
  loadTournament(tableId, () => { if (state.view) render(); }); // a tournament's table: its name, clock, your place
  const saved = store.get(`seat.${tableId}`);
  if (saved && typeof saved.token === "string") {
    state.token = saved.token;
    resumeLog(saved.seat);
    connect();
    return;
  }
  if (params.get("watch") === "1") {
    resumeLog(null);
    connect();
    return;
  }
  // a seat this account holds here (a tournament's, or one taken on another device) is handed a token again
  if (await reclaim()) return;
  await showJoin();
}

function resumeLog(seat) {
  const kept = keptLog();
  if (kept && kept.seat === seat) {
    state.log = kept.lines.filter((l) => typeof l === "string").slice(-200);
    state.version = kept.version; // the hello asks for what happened since: the log goes on where it stopped
  }
}

async function showJoin(message = null) {
  let info;
  const invite = inviteCode();
  try {
    info = await api(invite ? `/invites/${encodeURIComponent(invite)}` : `/tables/${encodeURIComponent(tableId)}`);
  } catch (err) {
    fill(app, h("main", {class: "panel"}, h("h1", {}, t("No such table")), h("p", {role: "alert"}, err.message),
      h("p", {}, h("a", {href: "/"}, t("Back to the lobby")))));
    return;
  }
  const me = await account(); // a signed-in player sits under the account's name
  const nameInput = h("input", {id: "join-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname",
    value: me ? me.name : store.get("name", ""), readonly: Boolean(me)});
  const seatSelect = h("select", {id: "join-seat", name: "seat"},
    h("option", {value: ""}, t("any free seat")),
    info.free_seats.map((s) => h("option", {value: String(s)}, tc("seat", "seat {n}", {n: s + 1}))));
  const problem = h("p", {class: "error", role: "alert"}, message ?? "");
  const form = h("form", {class: "panel join", "aria-labelledby": "join-title"},
    h("h1", {id: "join-title"}, t("{table}: take a seat", {table: tableName(info) ?? serverWords(info.title)})),
    h("ul", {class: "seat-list"}, info.seats.map((s) => h("li", {}, t("Seat {number}: {who}", {number: s.seat + 1, who: joinSeatWords(s)})))),
    info.free_seats.length || invite ? [
      h("label", {for: "join-name"}, t("Your name")), nameInput,
      h("label", {for: "join-seat"}, t("Seat")), seatSelect,
      h("button", {type: "submit", class: "primary"}, t("Take the seat")),
    ] : h("p", {}, t("Every seat is taken.")),
    info.settings.spectators ? h("button", {type: "button", id: "watch", onclick: () => { fill(app); connect(); }}, t("Watch the table")) : null,
    problem,
    h("p", {}, h("a", {href: "/"}, t("Back to the lobby"))));
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
  fill(app, h("main", {}, form));
  nameInput.focus();
}

/** Who sits in a seat, for the join form's list: "Ada, hard bot", "Ann", "free seat". */
function joinSeatWords(s) {
  if (s.kind === "bot") return t("{name}, {role}", {name: s.name, role: levelWords(s.level ?? "bot")});
  return s.taken ? s.name : t("free seat");
}

// -- the connection --------------------------------------------------------------------------------------------
let keptSeat = null; // the seat whose token was refused, asked for again by reclaim()

/** Whether the seat came back: a signed-in account that holds a seat here is handed a fresh token for it (none was
 * kept on this page, or the one kept was replaced from another tab or device). A server busy or moving the table is
 * asked again after a pause; a few times a page at most, so that two tabs never take turns for ever. */
async function reclaim() {
  if ((state.reclaims ?? 0) >= 3 || !(await account())) return false;
  state.reclaims = (state.reclaims ?? 0) + 1;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    try {
      const kept = store.get(`seat.${tableId}`) || keptSeat; // the seat this page played, where it holds two
      const got = await api(`/tables/${encodeURIComponent(tableId)}/seat`, {seat: kept && Number.isInteger(kept.seat) ? kept.seat : null});
      if (!got.token) return false; // the account holds no seat here
      store.set(`seat.${tableId}`, {token: got.token, seat: got.seat});
      state.token = got.token;
      state.closedForGood = false;
      resumeLog(got.seat);
      connect();
      return true;
    } catch (err) {
      if (err.code === "signed_out" || err.code === "bad_csrf") return false;
      await new Promise((done) => setTimeout(done, 1000 * 2 ** attempt)); // busy, moving, or unreachable
    }
  }
  return false;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/tables/${encodeURIComponent(tableId)}/ws`);
  state.socket = ws;
  ws.addEventListener("open", () => {
    // A page that has seen nothing asks for the table's recent events from the start (all public), so that a new
    // tab or another device shows the play so far; the server sends those it still keeps.
    const hello = {type: "hello", protocol: 1, token: state.token, last_version: state.version ?? 0};
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
    if (ws !== state.socket) return; // a socket replaced meanwhile (the seat taken back with a new token)
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

const chat = createChat({send, tableId, store}); // chat: kept across renders (its panel is one element)

function receive(msg) {
  const wasMyTurn = myTurn();
  switch (msg.type) {
    case "welcome":
      state.connected = true;
      state.retry = 0;
      state.seat = msg.seat;
      state.role = msg.role;
      break;
    case "state":
      takeState(msg);
      chat.load(msg, state.seat, state.table); // chat: the history the server keeps, for this receiver
      state.hands = msg.hands;
      state.summary = null;
      state.linger = null;
      for (const ev of state.heldCatchup) noteEvent(ev); // told before the names and the game were known
      state.heldCatchup = [];
      if (msg.resync && state.log.length) say(t("(you were away: the table is shown as it is now)"));
      break;
    case "update": {
      const before = state.view;
      for (const ev of msg.events) announce(spokenCards(noteEvent(ev))); // every event at the table, read out
      if (msg.by && msg.by.seat === state.seat && state.seat !== null) typedInput.value = ""; // your turn is done
      takeState(msg);
      if (msg.seats) state.table.seats = msg.seats;
      if (typeof msg.waiting === "boolean") state.table.waiting = msg.waiting;
      if (msg.scored) {
        state.hands.push(msg.scored);
        state.summary = {index: state.hands.length - 1};
      } else if (msg.by && state.summary) {
        // the next hand's first action: the account leaves the table in play for the head of the side column
        state.summary = {...state.summary, aside: true};
      }
      settleTrick(before, msg.events);
      if (msg.events.some((e) => kindOf(e) === "put")) playSound("card");
      break;
    }
    case "catchup":
      for (const u of msg.updates) {
        for (const ev of u.events) {
          if (state.view && state.table) noteEvent(ev);
          else state.heldCatchup.push(ev);
        }
      }
      break;
    case "chat": // chat: one message; nothing else on the page changes but the count on the phone's Chat tab
      chat.receive(msg);
      chatTab();
      return;
    case "presence":
      if (state.table) {
        state.table.seats = msg.seats;
        if (typeof msg.waiting === "boolean") state.table.waiting = msg.waiting; // the last seat taken ends the wait
      }
      break;
    case "hint":
      if (msg.version === state.version) state.hint = msg.action;
      break;
    case "error":
      if (chat.owns(msg)) { chat.refused(msg); return; } // chat: a refused message is told in the chat panel
      state.pending = false;
      if (msg.code === "bad_token") {
        keptSeat = store.get(`seat.${tableId}`);
        store.set(`seat.${tableId}`, null);
        state.token = null; // watching from the join form must not send the dead token again
        state.closedForGood = true;
        state.socket.close();
        reclaim().then((back) => {
          if (!back) showJoin(t("That seat is no longer yours (it was given up): take a seat again, or watch."));
        });
        return;
      }
      if (msg.code === "no_spectators") {
        state.closedForGood = true;
        fill(app, h("main", {class: "panel"}, h("h1", {}, t("Watching is not allowed")), h("p", {role: "alert"}, msg.message), h("a", {href: "/"}, t("Back to the lobby"))));
        return;
      }
      typedSent = null; // a typed action refused stays in its field, to be put right
      state.error = msg.code === "stale" ? t("The table moved on before your action arrived: look again.")
        : (msg.reason && reasonWords(msg.reason, (n) => nameIn(n))) || plainRefusal(msg.message);
      state.errorRule = msg.code === "stale" ? null : (msg.reason ? msg.reason.rule : ruleOf(msg.message));
      break;
    case "bye":
      if (msg.reason === "you left the seat") {
        state.closedForGood = true;
        store.set(`seat.${tableId}`, null);
      }
      if (msg.reason === "the tournament is over: this table was closed and its result not counted") {
        state.closedForGood = true; // nothing to reconnect to
      }
      say(byeWords(msg.reason));
      announce(byeWords(msg.reason));
      break;
    default:
      return;
  }
  if (!wasMyTurn && myTurn()) {
    playSound("turn");
    announce(spokenCards(turnText()));
  }
  keepLog();
  render();
}

/** Why the server closed the connection, in the reader's language (the server words it in English). */
function byeWords(reason) {
  switch (reason) {
    case "you left the seat":
      return t("you left the seat");
    case "the server is stopping: reconnect soon":
      return t("the server is stopping: reconnect soon");
    case "the table is moving to another server: reconnect soon":
      return t("the table is moving to another server: reconnect soon");
    case "the tournament is over: this table was closed and its result not counted":
      return t("the tournament is over: this table was closed and its result not counted");
    default:
      return reason;
  }
}

function takeState(msg) {
  const before = state.version;
  state.version = msg.version;
  if (msg.table) state.table = msg.table;
  if (msg.table && state.seat !== null) store.set("played", msg.table.pool); // the leaderboard opens on it
  state.view = msg.view;
  state.legal = msg.legal;
  state.notes = msg.notes ?? {};
  state.lesson = msg.lesson ?? null; // the scripted first hand's step: the choice pointed at, and why
  state.asked = msg.asked ?? null; // what the seat to act is asked, and the rule behind it, as its game words it
  state.labels = msg.labels ?? {}; // each legal action as its button says it
  if (msg.rulings) state.rulings = msg.rulings; // the game's rulings in plain words (in a state only)
  state.toAct = msg.to_act;
  if (msg.over && !state.over) {
    state.resultClosed = false;
    state.scoreDetails = null; // the end-of-match dialog takes its place
  }
  state.over = msg.over;
  state.result = msg.result;
  state.clock = msg.clock;
  if (before !== msg.version) {
    if (typedSent !== null && typedInput.value.trim() === typedSent) typedInput.value = ""; // the table moved on
    typedSent = null;
    state.pending = false;
    state.hint = null;
    state.error = null;
    state.whyOpen = false;
    state.selection = new Set([...state.selection].filter((c) => ownCards().some((o) => o.text === c)));
    if (msg.to_act !== state.seat) state.selection.clear();
    state.wild.clear();
  }
}

/** What an event does to the table, in the words every game shares (``deal``, ``put``, ``trick``, ``scored``), or
 * "". */
function kindOf(ev) {
  return ev && ev.said ? ev.said.kind : "";
}

/** Take note of an event: the log's line for it (also returned). */
function noteEvent(ev) {
  if (kindOf(ev) === "trick" && ev.said.cards) state.lastWon = {seat: ev.said.seat, cards: ev.said.cards};
  if (kindOf(ev) === "deal") {
    state.lastWon = null;
    state.dealt = true;
  }
  const line = eventWords(ev, state.seat, nameIn);
  say(line);
  return line;
}

// -- a finished trick stays in view a moment, then gathers toward its winner ------------------------------------
let lingerTimers = [];

/** After an update: when its events finished a trick, keep that trick on the table (from what lay there before and
 * the cards the events added) for the chosen pause; a new card on the table ends the pause at once. */
function settleTrick(before, events) {
  const n = state.view.hand_sizes.length;
  const plays = new Map();
  const previous = before && before.game === state.view.game && before.phase === "play" ? shownOf(before).front || [] : [];
  for (const put of previous) plays.set(put.seat, {cards: put.cards, note: null});
  let finished = null;
  const beat = shownOf(state.view).beat; // each play beats the one before: the latest is the one to beat
  let last = beat && previous.length ? previous[previous.length - 1].seat : null;
  for (const ev of events) {
    const kind = kindOf(ev);
    if (kind === "deal") plays.clear();
    if (kind === "put") {
      plays.set(ev.said.seat, {cards: ev.said.cards, note: null});
      if (beat) last = ev.said.seat;
    }
    if (kind === "trick") {
      const winner = ev.said.seat;
      if (last !== null && plays.has(last)) plays.set(last, {...plays.get(last), note: t("to beat"), toBeat: true});
      finished = {plays: new Map(plays), winner, phase: "show",
        words: winner === state.seat ? t("You take the trick.") : t("{name} takes the trick.", {name: name(winner)})};
      plays.clear();
      last = null;
    }
  }
  const onTable = (state.view.trick || []).length > 0;
  if (finished && !onTable && finished.plays.size > 0 && n > 0 && prefs.pause > 0) {
    showLinger(finished);
  } else if (onTable) {
    endLinger(false);
  }
}

function showLinger(linger) {
  endLinger(false);
  state.linger = linger;
  const pause = prefs.pause * 1000;
  lingerTimers.push(setTimeout(() => {
    if (state.linger !== linger) return;
    linger.phase = "gather";
    gather();
    lingerTimers.push(setTimeout(() => { if (state.linger === linger) endLinger(true); }, prefs.motion ? 380 : 0));
  }, pause));
}

function endLinger(draw) {
  for (const timer of lingerTimers) clearTimeout(timer);
  lingerTimers = [];
  if (state.linger === null) return;
  state.linger = null;
  if (draw) render();
}

/** Slide the finished trick's cards toward the place of its winner (on the page as drawn, without redrawing). */
function gather() {
  const area = app.querySelector(".trick-area");
  if (!area || !state.linger) return;
  const target = area.querySelector(`.place[data-seat="${state.linger.winner}"]`);
  if (!target) return;
  const to = target.getBoundingClientRect();
  for (const place of area.querySelectorAll(".place")) {
    place.classList.remove("lingering");
    place.classList.add("gather");
    const pile = place.querySelector(".pile");
    if (!pile) continue;
    const from = pile.getBoundingClientRect();
    pile.style.setProperty("--to-x", `${to.left + to.width / 2 - (from.left + from.width / 2)}px`);
    pile.style.setProperty("--to-y", `${to.top + to.height / 2 - (from.top + from.height / 2)}px`);
  }
}

/** A refusal in the words a player reads: its ruling's id taken out (it goes behind "why?"), cards in symbols
 * ("KD" becomes "K\u2666"), seats by name. */
function plainRefusal(text) {
  const own = (n) => Number(n) === state.seat;
  const words = String(text ?? "").replace(/\s*\(([A-Z]{2}-[0-9]+)\)/g, "")
    .replace(/\bseat ([0-9])'s(?= \w)/g, (_, n) => (own(n) ? "your" : `${name(Number(n))}'s`))
    .replace(/\bseat ([0-9])'s/g, (_, n) => (own(n) ? "yours" : `${name(Number(n))}'s`))
    .replace(/\bseat ([0-9]) (has|is|was)\b/g, (_, n, verb) => (own(n) ? `you ${{has: "have", is: "are", was: "were"}[verb]}` : `${name(Number(n))} ${verb}`))
    .replace(/\bseat ([0-9])\b/g, (_, n) => nameIn(Number(n)));
  return words.split(" ").map((w) => {
    const m = /^([(]?)([0-9A-Z=]+)([),.;:]*)$/.exec(w);
    const card = m ? parseCard(m[2]) : null;
    return card && m[2] !== "A" ? `${m[1]}${cardShort(card)}${m[3]}` : w;
  }).join(" ");
}

/** The ruling a refusal names, if it names one. */
function ruleOf(text) {
  const m = /\(([A-Z]{2}-[0-9]+)\)/.exec(String(text ?? ""));
  return m ? m[1] : null;
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
    state.error = t("Not connected: the action was not sent (reconnecting).");
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
 * several cards (chosen by selecting cards; where the game says so, every play is chosen so). */
function legalParts() {
  const select = shownOf(state.view).select; // a game whose plays are always chosen by selecting their cards
  const singles = new Map();
  const wordActions = [];
  const multis = [];
  for (const a of (state.legal || []).map(readAction)) {
    if (a.cards.length === 0 || (a.word !== null && a.word.startsWith("call"))) wordActions.push(a); // a misplay call names a card it does not hold
    else if (a.cards.length === 1 && a.word === null && !select) singles.set(a.cards[0].text, a.text);
    else multis.push(a);
  }
  return {singles, words: wordActions, multis};
}

/** The number of cards every one of ``actions`` takes, where they all take as many (a pass of three cards), else 0. */
function sameSize(actions) {
  const sizes = new Set(actions.map((a) => a.cards.length));
  return sizes.size === 1 ? [...sizes][0] : 0;
}

function keyOf(cards) {
  return cards.map((c) => c.text).sort().join(" ");
}

function toggle(card) {
  if (state.selection.has(card)) state.selection.delete(card);
  else state.selection.add(card);
  state.wild.clear();
  state.error = null;
  render();
}

/** The selected cards' plays: those of exactly the chosen cards, and the wild 15s among them that may stand for
 * more than one value in those plays (a 15 may also count as itself: its meaning "self"). */
function chosenPlay(parts) {
  const chosen = [...state.selection].map(parseCard);
  if (!chosen.length) return {chosen, matches: [], play: null, wilds: []};
  const key = keyOf(chosen);
  const matches = parts.multis.filter((m) => keyOf(m.cards) === key);
  const wilds = [...new Set(matches.flatMap((m) => m.cards.filter((c) => c.as !== null).map((c) => c.text)))]
    .filter((w) => new Set(matches.map((m) => meaning(m, w))).size > 1);
  // the first wild 15 may take every value it has in these plays; each later one, those that fit the picks before
  // it. Values come in the order the server offers the plays (the strongest reading first), and a pick that no
  // longer fits falls back to the first.
  const options = wilds.map((wild, at) => {
    const before = wilds.slice(0, at);
    const fits = matches.filter((m) => before.every((w) => state.wild.get(w) === meaning(m, w)));
    const values = [...new Set(fits.map((m) => meaning(m, wild)))];
    if (!values.includes(state.wild.get(wild))) state.wild.set(wild, values[0]);
    return {wild, values};
  });
  const play = matches.find((m) => wilds.every((w) => state.wild.get(w) === meaning(m, w))) ?? null;
  return {chosen, matches, wilds, options, play};
}

/** What the card ``text`` stands for in the play ``m``: its value, or "self" (a 15 played as a 15). */
function meaning(m, text) {
  const card = m.cards.find((c) => c.text === text);
  return card && card.as !== null ? card.as : "self";
}

// -- drawing -----------------------------------------------------------------------------------------------------
let lastFocus = null;
let shownPlays = new Set();

/** The coach's explanations, on a table with the coach on (the guided first hand). */
function coaching(game) {
  if (!state.table.settings || !state.table.settings.coach || state.seat === null) return null;
  if (state.brief === undefined) { // the game in brief, for the coach to open with: asked once
    state.brief = null;
    api(`/rules/${encodeURIComponent(String(game).split(/[-(]/)[0])}/brief?lang=${language()}`)
      .then((brief) => { state.brief = brief; render(); }).catch(() => {});
  }
  const introKey = `coachIntro.${tableId}`;
  return coachPanel({
    brief: store.get(introKey, false) === true ? null : state.brief,
    onIntroDone: () => { store.set(introKey, true); render(); },
    onRealMatch: newOpponents,
    game, spec: spec(), view: state.view, me: state.seat, asked: myTurn() ? askedText() : null, why: myTurn() ? askedWhy() : null,
    myTurn: myTurn(), toAct: state.toAct, error: state.error, lesson: state.lesson,
    errorRule: state.errorRule, hands: state.hands, name, over: state.over,
    folded: store.get("coachFolded", false) === true,
    onFold: () => { store.set("coachFolded", store.get("coachFolded", false) !== true); render(); },
  });
}

function render() {
  if (!state.view || !state.table) {
    fill(app, h("main", {class: "panel"}, h("p", {role: "status"}, state.connected ? t("Loading the table\u2026") : t("Connecting\u2026"))));
    return;
  }
  // the focus goes back to the same card or button when this drawing replaces the one that had it; elsewhere (the
  // chat's field, a link) it is left alone
  const active = document.activeElement;
  // the typed field is one element, moved into the new drawing (which takes the focus from it): it gets it back
  const typing = active === typedInput ? [typedInput.selectionStart, typedInput.selectionEnd] : null;
  lastFocus = null;
  if (active && app.contains(active) && active.dataset && (active.dataset.card || active.dataset.action)) {
    lastFocus = active.dataset.card ? `[data-card="${active.dataset.card}"]` : `[data-action="${CSS.escape(active.dataset.action)}"]`;
  }
  // the log keeps its newest line in view (in its list on a wide screen, in its drawer on a phone) unless the
  // player has scrolled back
  const scrolled = [".log", ".log ol"].map((sel) => {
    const el = app.querySelector(sel);
    return el ? {sel, top: el.scrollTop, atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 8} : {sel, top: 0, atEnd: true};
  });
  // a laptop's side column (and the table, where it ever scrolls) stays where the player scrolled it
  for (const sel of [".table-page > .side", ".table-page > .board"]) scrolled.push({sel, top: app.querySelector(sel)?.scrollTop ?? 0, atEnd: false});
  const game = state.view.game;
  const n = state.view.hand_sizes.length;
  const parts = myTurn() ? legalParts() : {singles: new Map(), words: [], multis: []};
  const choice = parts.multis.length ? chosenPlay(parts) : null;

  const header = h("header", {class: "bar table-bar"},
    h("a", {href: "/", class: "home"}, t("Clubs")),
    h("h1", {}, tableName(state.table) ?? serverWords(state.table.title)),
    tournamentBadge(),
    h("span", {class: "muted"}, state.table.match_no
      ? t("hand {number} \u00b7 match {match}", {number: state.view.hand_number + 1, match: state.table.match_no + 1})
      : t("hand {number}", {number: state.view.hand_number + 1})),
    h("span", {class: `conn ${state.connected ? "on" : "off"}`, role: "status"}, state.connected ? (state.seat === null ? t("watching") : t("connected")) : t("reconnecting\u2026")),
    h("a", {href: rulesLink(game, null, spec()), class: "rules-link", target: "_blank", rel: "noopener"},
      h("span", {class: "rules-mark", "aria-hidden": "true"}, "?"), h("span", {class: "rules-words"}, t("How to play"))),
    languageSwitch(h),
    settingsPanel());

  const fresh = new Set();
  const isFresh = (seat, cards) => {
    const key = `${seat}:${cards}`;
    fresh.add(key);
    return rendered && !shownPlays.has(key);
  };
  const middle = trickArea({
    game, view: state.view, me: state.seat, name, linger: state.linger, fresh: isFresh,
    preview: choice && toTable() && (choice.play || choice.matches.length === 1) ? previewOf(choice.play ?? choice.matches[0]) : null,
    message: tableMessage(),
  });
  const board = h("div", {class: "board", dataset: {version: String(state.version)}},
    felt({game, view: state.view, seats: state.table.seats, me: state.seat, name, clock: state.clock, middle}),
    state.summary && state.summary.aside ? null : handSummary(), // under the table, never over the last trick
    meBar(game),
    state.seat === null ? null : h("section", {class: "my-area", "aria-label": t("your cards")},
      extraRows(game, parts, true), // cards to play beside the hand (bid cards) above it ...
      handRow(parts),
      controls(game, parts, choice),
      extraRows(game, parts, false))); // ... what is only known (another hand, a pass) under the actions, never its caption

  const side = sidePanels(game, n);
  const summary = matchSummary(game, n) ?? scoreDialog(game, n);
  fill(app, header, h("main", {class: `table-page live drawer-${state.drawer ?? "none"}`}, board, side), summary);
  describePointed(app);
  sayRefusalOnce();
  // the end-of-match dialog: the page behind it out of reach (inert); it takes the focus when it opens, and keeps it
  // through a drawing (a chat line, the results read) that would leave it on nothing
  for (const el of app.querySelectorAll(":scope > header, :scope > main")) el.inert = summary !== null;
  if (summary && (!summaryFocused || !summary.contains(document.activeElement))) summary.querySelector("[role=dialog]").focus({preventScroll: true});
  summaryFocused = summary !== null;
  if (typing && typedInput.isConnected && document.activeElement !== typedInput) {
    typedInput.focus({preventScroll: true}); // the field is the same element, moved into the new drawing
    typedInput.setSelectionRange(...typing);
  }
  shownPlays = fresh;
  rendered = true;
  if (state.linger && state.linger.phase === "gather") gather(); // drawn again while gathering: still gathered
  state.dealt = false;
  layoutHand();
  for (const {sel, top, atEnd} of scrolled) {
    const el = app.querySelector(sel);
    if (el) el.scrollTop = atEnd ? el.scrollHeight : top;
  }
  restoreFocus();
}
let rendered = false;

/** Whether the cards chosen now go to the table (a play, a bid), so that a preview of them in the seat's place says
 * what will happen; cards passed or exchanged go to a hand, and are shown nowhere on the table. */
function toTable() {
  return ["play", "auction"].includes(state.view.phase);
}

function previewOf(action) {
  return {cards: action.cards.map((c) => (c.as === null ? c.text : `${c.text}=${c.as}`)).join(" "), words: spokenCards(playShort(action.text))};
}

/** What the table says while nothing lies on it, as the game says (who opens the auction, that the leader plays
 * anything). */
function tableMessage() {
  const says = shownOf(state.view).says;
  return says ? shownWords(says, nameIn) : null;
}

/** A "why?"'s last line: the ruling's id, linking to its paragraph of the game's rules page (which says what this
 * table plays at its top). */
function ruleLine(game, rule) {
  return h("p", {class: "rule-id"},
    h("a", {href: rulesLink(game, rule, spec()), target: "_blank", rel: "noopener"}, t("Ruling {rule}", {rule})));
}

/** The viewer's own line under the table: their seat, what they are asked, and the rule behind it. */
function meBar(game) {
  const rule = myTurn() ? askedWhy() : null;
  const asked = turnText();
  const more = promptParts(asked).length > 1 ? asked : null; // a phone shows the prompt's first sentence only
  const reason = rule || more ? {...(rule ?? {title: t("What to do"), text: ""}), said: more} : null;
  const mine = state.seat === null ? null
    : seatPanel({game, view: state.view, seat: state.seat, info: state.table.seats[state.seat], me: state.seat, clock: state.clock, cards: null, compact: true});
  return h("div", {class: "me-bar"},
    mine,
    h("div", {class: "status"},
      h("p", {id: "turn"}, ...promptParts(asked)), // read out by the page's live region when the turn comes
      reason ? h("button", {type: "button", class: "why-button", "aria-expanded": state.whyOpen ? "true" : "false", dataset: {action: "why"},
        onclick: () => { state.whyOpen = !state.whyOpen; render(); }}, t("why?")) : null,
      notes(game, reason),
      state.over && state.resultClosed ? h("button", {type: "button", dataset: {action: "show-result"}, onclick: () => { state.resultClosed = false; render(); }}, t("Show the result")) : null));
}

/** What is said under the prompt for a moment: the why, a refusal and its rule, a hint. On a laptop they float over
 * the foot of the felt (the table's height is fixed there, and the hand must stay in sight); on a phone they run on
 * under the prompt. */
function notes(game, reason) {
  const lines = [
    reason && state.whyOpen ? h("div", {class: "why", role: "note"},
      reason.said ? h("p", {class: "why-said"}, said(reason.said)) : null,
      reason.text ? [h("strong", {}, reason.title ?? t("The rule")), h("p", {}, reason.text)] : null,
      reason.rule ? ruleLine(game, reason.rule) : null) : null,
    state.error ? h("p", {class: "error", role: "alert", id: "refusal"}, said(state.error)) : null,
    state.error && state.errorRule && rulingWords(state.errorRule) ? h("details", {class: "why-refused"},
      h("summary", {}, t("why?")), h("strong", {}, rulingWords(state.errorRule).title), h("p", {}, rulingWords(state.errorRule).text),
      ruleLine(game, state.errorRule)) : null,
    state.hint ? h("p", {class: "hint", role: "status"}, said(t("Hint: {play}", {play: playShort(state.hint)}))) : null,
  ].filter(Boolean);
  return lines.length ? h("div", {class: "notes"}, lines) : null;
}

/** A refusal is said once on the screen: where the coach, open beside the table, says it (with its rule), the notes
 * under the prompt leave it and its "why?" out. */
function sayRefusalOnce() {
  const coachSays = [...app.querySelectorAll(".coach .coach-refused")].some((el) => el.getClientRects().length > 0);
  if (!coachSays) return;
  for (const el of app.querySelectorAll(".notes > #refusal, .notes > .why-refused")) el.remove();
  for (const el of app.querySelectorAll(".notes:empty")) el.remove();
  if (typedInput.getAttribute("aria-describedby") === "refusal") typedInput.removeAttribute("aria-describedby");
}

function restoreFocus() {
  let target = lastFocus ? app.querySelector(lastFocus) : null;
  if (target && target.disabled) target = null;
  if (!target && myTurn() && document.activeElement === document.body) {
    target = app.querySelector(".hand .playable, .controls button:not([disabled])");
  }
  if (target && document.activeElement !== target && (lastFocus || document.activeElement === document.body)) target.focus({preventScroll: true});
}

/** The prompt's first sentence, and the rest (what a phone leaves out: it is said again behind "why?"). */
function promptParts(text) {
  const m = /^(.+?[.?!])\s+(\S.*)$/s.exec(text);
  return m ? [said(m[1]), h("span", {class: "prompt-more"}, " ", said(m[2]))] : [said(text)];
}

function turnText() {
  const v = state.view;
  if (state.over) return t("The match is over.");
  if (state.table.waiting) return t("Waiting for every player to take a seat\u2026");
  if (state.toAct === null) return t("Dealing\u2026");
  if (myTurn()) return state.pending ? t("Sent\u2026") : askedText();
  return t("Waiting for {name}\u2026", {name: name(state.toAct)});
}

/** The cards beside the hand that the seat knows (the chest, its discards, what it passed or received, the bid hand
 * it left), small, in one line that wraps; a long one folds away. ``playable``: the rows played from (drawn above
 * the hand), or the rest (drawn under the actions, so that a row about another hand never reads as the hand's
 * caption). */
function extraRows(game, parts, playable) {
  const rows = extraParts(game, parts, playable);
  return rows.length ? h("div", {class: `extras ${playable ? "extras-play" : "extras-known"}`}, rows) : null;
}

function extraParts(game, parts, playable) {
  const rows = [];
  (shownOf(state.view).known || []).forEach((known, i) => {
    if (Boolean(known.playable) !== playable) return;
    const cards = sortHand(parseCards(known.cards));
    const title = shownWords(known.title, nameIn);
    if (known.playable) {
      rows.push(h("div", {class: "extra"}, h("h2", {}, title),
        h("div", {class: "hand bid-cards"}, cards.map((c) => cardButton(c, {
          enabled: parts.singles.has(c.text) && !state.pending, extra: pointed(c.text),
          onclick: () => act(parts.singles.get(c.text)),
        })))));
    } else if (known.folded) { // kept open through the redrawings once opened
      const key = `${known.title.code}:${i}`;
      const fold = h("details", {class: "extra", open: state.openExtras.has(key)},
        h("summary", {}, tn("{title} ({n} card)", "{title} ({n} cards)", cards.length, {title})), cardRow(cards, "small"));
      fold.addEventListener("toggle", () => { if (fold.open) state.openExtras.add(key); else state.openExtras.delete(key); });
      rows.push(fold);
    } else {
      rows.push(h("div", {class: "extra"}, h("h2", {}, title), cardRow(cards, "small")));
    }
  });
  return rows;
}

/** The hand sorted as this player likes it, by the game's own order of ranks. */
function sortHand(cards) {
  const [by, way] = prefs.sort.split("-");
  const order = state.view ? rankOf(state.view) : (c) => c.value;
  return sortCards(cards, {by: by === "rank" ? "rank" : "suit", dir: way === "down" ? -1 : 1, rank: order});
}

function handRow(parts) {
  const cards = sortHand(ownCards());
  const select = parts.multis.length > 0;
  const chosen = [...state.selection];
  const fits = (card) => parts.multis.some((m) => {
    const texts = new Set(m.cards.map((c) => c.text));
    return texts.has(card) && chosen.every((c) => texts.has(c));
  });
  const activeHand = parts.singles.size > 0 || select;
  const dealt = state.dealt && prefs.motion;
  const focusable = prefs.screenReader; // every card reachable by the keyboard, those not to play marked so
  const wild = shownOf(state.view).wild;
  const buttons = cards.map((c, i) => {
    let button;
    if (select) {
      const on = state.selection.has(c.text);
      button = cardButton(c, {enabled: !state.pending && (on || fits(c.text)), selected: on, onclick: () => toggle(c.text), focusable, wild,
        extra: `${state.hint && readAction(state.hint).cards.some((x) => x.text === c.text) ? "hinted" : ""} ${pointed(c.text)}`});
    } else {
      const action = parts.singles.get(c.text);
      button = cardButton(c, {enabled: action !== undefined && !state.pending, onclick: () => act(action), extra: `${state.hint === c.text ? "hinted" : ""} ${pointed(c.text)}`, focusable, wild});
      if (action !== undefined) {
        button.addEventListener("pointerenter", () => previewCard(c.text));
        button.addEventListener("pointerleave", () => previewCard(null));
        button.addEventListener("focus", () => previewCard(c.text));
        button.addEventListener("blur", () => previewCard(null));
      }
    }
    if (dealt) {
      button.classList.add("dealt");
      button.style.setProperty("--i", String(i));
    }
    return button;
  });
  return h("div", {class: `hand ${activeHand ? "active" : ""}`.trim(), role: "group", "aria-label": tn("your hand, {n} card", "your hand, {n} cards", cards.length), onkeydown: arrowKeys}, buttons);
}

/** Show the card a click would play in the viewer's place on the table, faded, until the pointer leaves it. */
function previewCard(text) {
  const place = app.querySelector(`.trick-area .place[data-seat="${state.seat}"]`);
  if (!place || state.linger || !toTable()) return;
  const old = place.querySelector(".pile.preview");
  if (old) old.remove();
  const empty = place.querySelector(".card.placeholder");
  if (text === null) {
    if (empty) empty.hidden = false;
    return;
  }
  if (!empty) return; // something lies there already
  empty.hidden = true;
  const card = parseCard(text);
  place.prepend(h("div", {class: "pile preview", "aria-hidden": "true"}, cardRow([card]).firstChild));
}

/** Lay the hand out as a fan that fits: one row where every card shows at least 44 px to tap, else two or more. */
function layoutHand() {
  for (const hand of app.querySelectorAll(".my-area .hand")) fan(hand);
}

function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const buttons = [...event.currentTarget.querySelectorAll("button.card:not([disabled])")]; // those the focus can take
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const next = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : at + (event.key === "ArrowLeft" ? -1 : 1);
  const target = buttons[Math.max(0, Math.min(buttons.length - 1, next))];
  target.focus();
  event.preventDefault();
}

/** A legal action as its button says it (the server's label), or its notation where none came. */
function labelOf(text) {
  const label = state.labels[text];
  return (label && reasonWords(label, nameIn)) || text;
}

function playLabel(m) {
  return labelOf(m.text);
}

/** What the seat to act is asked, in words, as its game says it. */
function askedText() {
  const asked = state.asked;
  const words = asked ? asked.words.map((r) => reasonWords(r, nameIn)).filter(Boolean) : [];
  return words.length ? words.join(" ") : t("Your turn.");
}

/** A ruling in plain words ({title, text}) by its id, as the game gives it, or null. */
function rulingWords(id) {
  const ruling = id ? state.rulings[String(id).toUpperCase()] : null;
  return ruling ? {title: reasonWords(ruling.title), text: reasonWords(ruling.text)} : null;
}

/** The rule behind what is asked, for a "why?": ``{rule, title, text}`` (``rule`` null for a basic rule), or null. */
function askedWhy() {
  const asked = state.asked;
  if (!asked) return null;
  const words = rulingWords(asked.rule);
  if (words) return {rule: asked.rule, ...words};
  return asked.why ? {rule: null, title: reasonWords(asked.why.title), text: reasonWords(asked.why.text)} : null;
}

function controls(game, parts, choice) {
  const items = [];
  const disabled = state.pending;
  for (const w of parts.words) {
    items.push(actionButton({class: `action ${pointedAction(w.text)}`.trim(), disabled, dataset: {action: w.text}, onclick: () => act(w.text)}, labelOf(w.text)));
  }
  if (choice) {
    const {chosen, matches, wilds} = choice;
    if (wilds.length && matches.length) {
      items.push(wildPicker(choice));
    } else {
      for (const m of matches) {
        items.push(actionButton({class: `action primary ${pointedAction(m.text)}`.trim(), disabled, dataset: {action: m.text}, onclick: () => { state.selection.clear(); act(m.text); }}, playLabel(m)));
      }
    }
    if (chosen.length && !matches.length) items.push(h("span", {class: "muted"}, sameSize(parts.multis) > 1 ? t("{count} of {size} chosen", {count: chosen.length, size: sameSize(parts.multis)}) : t("Not a play yet: choose more cards, or other ones.")));
    if (chosen.length) items.push(h("button", {type: "button", dataset: {action: "clear"}, onclick: () => { state.selection.clear(); state.wild.clear(); render(); }}, t("Clear the choice")));
  }
  if (myTurn() && state.table.settings.hints) {
    items.push(h("button", {type: "button", dataset: {action: "hint"}, disabled, onclick: () => send({type: "hint", version: state.version})}, t("Hint")));
  }
  if (myTurn() || (prefs.screenReader && !state.over)) items.push(typedBox());
  if (state.seat !== null && ownCards().length > 1) items.push(sortPicker());
  return h("div", {class: "controls", role: "group", "aria-label": t("actions")}, items);
}

/** What a legal play does, in words, where the game says (the server's note on it), or null. */
function noteWords(play) {
  const note = play ? state.notes[play.text] : null;
  return note ? reasonWords(note, (n) => nameIn(n)) : null;
}

/** One compact picker per wild 15 chosen: the values it may stand for in a legal play with the other cards as
 * chosen, the strongest first (the server's order); then one button for the play they make. What a play does is
 * said where the game says it: in each value of a lone picker, else beside the button. */
function wildPicker(choice) {
  const {options, play, matches} = choice;
  const lone = options.length === 1;
  const pickers = options.map(({wild, values}) => {
    const id = `wild-${wild}`;
    const valueWords = (v) => (v === "self" ? t("{value} (itself)", {value: parseCard(wild).value}) : String(v));
    const select = h("select", {id, dataset: {wild}},
      values.map((v) => {
        const does = lone ? noteWords(matches.find((m) => meaning(m, wild) === v)) : null;
        return h("option", {value: String(v)}, does ? t("{value}: {does}", {value: valueWords(v), does}) : valueWords(v));
      }));
    select.value = String(state.wild.get(wild));
    select.addEventListener("change", () => {
      state.wild.set(wild, select.value === "self" ? "self" : Number(select.value));
      render();
    });
    return h("span", {class: "wild-pick"}, h("label", {for: id}, said(t("{card} counts as", {card: cardShort(parseCard(wild))}))), select);
  });
  return h("span", {class: "wild-picker", role: "group", "aria-label": t("what the wild 15 stands for")},
    pickers,
    play ? actionButton({class: "action primary", disabled: state.pending, dataset: {action: play.text}, onclick: () => { state.selection.clear(); state.wild.clear(); act(play.text); }}, playLabel(play)) : null,
    play && !lone && noteWords(play) ? h("span", {class: "play-note"}, noteWords(play)) : null);
}

function sortPicker() {
  const choices = [["suit-up", t("by suit, low first")], ["suit-down", t("by suit, high first")], ["rank-up", t("by rank, low first")], ["rank-down", t("by rank, high first")]];
  const select = h("select", {id: "sort-hand", dataset: {action: "sort"}}, choices.map(([v, label]) => h("option", {value: v}, label)));
  select.value = prefs.sort;
  select.addEventListener("change", () => { store.set(`sort.${state.view.game}`, select.value); render(); });
  return h("span", {class: "sort-pick"}, h("label", {for: "sort-hand"}, t("Sort your hand")), select);
}

/** An action's button, named in words where its label shows cards in symbols ("Play Q\u2665": "Play queen of
 * hearts"). */
function actionButton(attrs, label) {
  const words = spokenCards(label);
  return h("button", {type: "button", ...attrs, "aria-label": words === label ? null : words}, label);
}

/** "pointed" for a card of the choice the scripted first hand points at now (its lesson's step), else "". */
function pointed(card) {
  return myTurn() && state.lesson && state.lesson.step && state.lesson.cards.includes(card) ? "pointed" : "";
}

/** "pointed" for the button of the action the scripted first hand points at now, else "". */
function pointedAction(text) {
  return myTurn() && state.lesson && state.lesson.step && state.lesson.action === text ? "pointed" : "";
}

/** A marked card or button is described by the coach's line on it (a screen reader hears why it is marked). */
function describePointed(root) {
  for (const el of root.querySelectorAll(".pointed")) {
    if (document.getElementById("coach-say")) el.setAttribute("aria-describedby", "coach-say");
  }
}

// -- typing a move in the game's notation, as in the terminal ("QH", "7C 7H", "pass") -------------------------------
// The field is one element for the life of the page, so that what is being typed and the focus survive a drawing;
// Enter sends it; the server's refusal of an illegal one is shown (an alert), and the text stays to be put right.
// Made when this module loads, before the language's words are: its words are put (again) each time it is drawn.
const typedInput = h("input", {id: "typed", name: "action", autocomplete: "off", autocapitalize: "characters", spellcheck: "false"});
const typedLabel = h("label", {for: "typed", class: "typed-label"});
const typedSend = h("button", {type: "submit"});
const typedForm = h("form", {class: "typed"}, typedLabel, typedInput, typedSend);
const typedSummary = h("summary", {});
const typedFold = h("details", {class: "typed-box"}, typedSummary);
let typedSent = null; // the typed action on its way, cleared from the field once the table has taken it

typedForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = typedInput.value.trim();
  if (!text || state.pending) return;
  typedSent = text;
  act(text);
});

/** The typed move: folded away behind "Type a move", or open and labelled in the screen-reader mode. A refusal
 * shown is the field's description. */
function typedBox() {
  typedInput.setAttribute("placeholder", t("e.g. QH, pass, 7C 7H"));
  typedLabel.textContent = t("Type an action in notation");
  typedSend.textContent = t("Send move");
  typedSummary.textContent = t("Type a move");
  if (state.error) typedInput.setAttribute("aria-describedby", "refusal");
  else typedInput.removeAttribute("aria-describedby");
  if (prefs.screenReader) return h("div", {class: "typed-box open"}, typedForm);
  typedFold.append(typedForm);
  return typedFold;
}

// -- the side: facts, scores, the log, chat (drawers on a phone) --------------------------------------------------
/** The side's drawers (tabs on a phone): key and label. */
function drawers() {
  return [["scores", t("Scores")], ["log", t("Play log")], ["chat", t("Chat")], ["facts", t("About this hand")]];
}

function sidePanels(game, n) {
  const tabs = h("nav", {class: "drawer-tabs", "aria-label": t("more about the table")},
    drawers().map(([key, label]) => h("button", {type: "button", "aria-expanded": state.drawer === key ? "true" : "false", dataset: {action: `drawer-${key}`},
      onclick: () => { state.drawer = state.drawer === key ? null : key; render(); }}, key === "chat" ? chatLabel() : label)));
  const close = () => h("button", {type: "button", class: "drawer-close", dataset: {action: "drawer-close"}, onclick: () => { state.drawer = null; render(); }}, t("Close"));
  return h("aside", {class: "side"},
    coaching(game), // at the head of the side column on a wide screen; under the hand on a narrow one
    state.summary && state.summary.aside ? handSummary() : null, // the last hand's account, once the next is played
    tabs,
    h("div", {class: "drawer", dataset: {drawer: "facts"}},
      h("h2", {class: "drawer-title"}, t("About this hand")),
      h("div", {class: "side-buttons"},
        h("button", {type: "button", "aria-pressed": state.showLast ? "true" : "false", onclick: () => { state.showLast = !state.showLast; render(); }}, state.showLast ? t("Hide the last trick") : t("Show the last trick")),
        inviteBox()),
      state.showLast ? h("div", {class: "last-box"}, lastTrick({game, view: state.view, name: nameIn, lastWon: state.lastWon}) ?? h("p", {class: "muted"}, t("No trick has been completed yet."))) : null,
      factList(game, state.view, name),
      leaveBox()),
    h("div", {class: "drawer", dataset: {drawer: "scores"}}, scoreSheet({game, view: state.view, hands: state.hands, name, n,
      onDetails: (hand) => { state.scoreDetails = {hand}; render(); }})),
    h("section", {class: "log drawer", dataset: {drawer: "log"}, "aria-label": t("what happened")}, h("h2", {}, t("Play")),
      // the list scrolls: the keyboard can take it (tabindex) to scroll it
      h("ol", {tabindex: "0", "aria-label": t("the play so far")}, state.log.map((line) => h("li", {}, said(line))))),
    h("div", {class: "drawer", dataset: {drawer: "chat"}}, chat.panel()), // chat: the same element every render (a message being typed survives)
    state.drawer ? h("div", {class: "drawer-bar"}, close()) : null);
}

function chatLabel() {
  const unread = chat.unread();
  return unread ? t("Chat ({count})", {count: unread}) : t("Chat");
}

/** The Chat tab's count brought up to date in place (a chat line never redraws the table). */
function chatTab() {
  const tab = app.querySelector('[data-action="drawer-chat"]');
  if (tab) tab.textContent = chatLabel();
}

// -- settings: colours, sound, motion, the trick's pause (remembered in this browser) -------------------------------
let settingsBox = null;

function settingsPanel() {
  if (settingsBox) return settingsBox;
  const sound = h("input", {type: "checkbox", id: "sound"});
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const motion = h("input", {type: "checkbox", id: "motion"});
  motion.checked = prefs.motion;
  motion.addEventListener("change", () => { store.set("motion", motion.checked); applyMotion(); });
  const pause = h("select", {id: "trick-pause"},
    [["0", t("not at all")], ["0.5", t("half a second")], ...[1, 2, 3].map((n) => [String(n), tn("{n} second", "{n} seconds", n)])]
      .map(([v, label]) => h("option", {value: v}, label)));
  pause.value = String(prefs.pause);
  pause.addEventListener("change", () => store.set("trickPause", Number(pause.value)));
  const reader = h("input", {type: "checkbox", id: "screen-reader"});
  reader.checked = prefs.screenReader;
  reader.addEventListener("change", () => { store.set("screenReader", reader.checked); render(); });
  settingsBox = h("details", {class: "settings"},
    h("summary", {}, h("span", {class: "settings-mark", "aria-hidden": "true"}, "\u2699\ufe0e"), h("span", {class: "settings-words"}, t("Settings"))),
    h("div", {class: "settings-body"},
      settingsLanguage(),
      colourToggle(),
      h("label", {class: "toggle"}, reader, " ", t("Screen reader mode"),
        h("small", {class: "toggle-note"}, t("a field to type your move, always shown; the keyboard reaches every card of your hand"))),
      h("label", {class: "toggle"}, sound, " ", t("Sounds (a card laid, your turn)")),
      h("label", {class: "toggle"}, motion, " ", t("Moving cards")),
      h("label", {for: "trick-pause"}, t("Keep a finished trick in view for")), pause));
  return settingsBox;
}

/** The language, in the settings: shown on a phone only, where the table's bar leaves it out to read the table's name
 * whole. */
function settingsLanguage() {
  const pick = languageSwitch(h);
  pick.className = "lang-pick";
  pick.removeAttribute("aria-label");
  pick.id = "settings-lang";
  return h("div", {class: "settings-lang"}, h("label", {for: "settings-lang"}, t("Language")), pick);
}

function applyMotion() {
  document.documentElement.classList.toggle("still", !prefs.motion);
}

function inviteBox() {
  const invite = store.get(`invite.${tableId}`);
  if (!invite) return null;
  const link = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
  return h("p", {class: "invite"}, t("Invite code:"), " ", h("code", {}, invite), " \u00b7 ", h("a", {href: link}, t("invite link")));
}

/** Leaving the seat, apart from the buttons used in play; while a match is on, it asks once more (a bot plays the
 * seat from then on). */
function leaveBox() {
  if (state.seat === null) return null;
  if (!state.leaving) {
    const ask = () => { state.leaving = true; render(); };
    return h("div", {class: "leave-box"},
      h("button", {type: "button", class: "leave", dataset: {action: "leave"}, onclick: state.over ? leave : ask}, t("Leave the seat")));
  }
  return h("div", {class: "leave-box", role: "group", "aria-labelledby": "leave-ask"},
    h("p", {id: "leave-ask"}, t("Leave this match? A bot plays your seat from now on, and the seat is free for anyone to take.")),
    h("button", {type: "button", class: "danger", dataset: {action: "leave-yes"}, onclick: leave}, t("Leave")),
    h("button", {type: "button", dataset: {action: "leave-no"}, onclick: () => { state.leaving = false; render(); }}, t("Stay")));
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

/** The end of the match, in a dialog over the page: who won, the places with points (and, at a rated table, each
 * rating's change), then Rematch, New opponents and Lobby (at a tournament's table, its way on); every hand's scores folded; the record, the replay and the
 * review. */
function matchSummary(game, n) {
  const matchNo = state.table.match_no;
  if (!state.over || state.resultClosed) return null;
  if (!state.results || state.results.match !== matchNo) loadResults(matchNo);
  const results = state.results && state.results.match === matchNo ? state.results : null;
  const close = closeResult;
  const actions = [];
  if (atTournament()) { // a tournament's table: the way on is the tournament's, chosen once it has been read again
    tournamentMatchEnded(matchNo);
    const way = tournamentActions(matchNo);
    if (way) actions.push(way);
  } else {
    if (state.token) actions.push(h("button", {type: "button", class: "primary", dataset: {action: "rematch"}, onclick: rematch}, t("Rematch")));
    if (state.seat !== null && state.seat !== undefined) actions.push(h("button", {type: "button", dataset: {action: "new-opponents"}, onclick: newOpponents}, t("New opponents")));
  }
  actions.push(h("a", {class: "button-link", href: "/", dataset: {action: "lobby"}}, t("Lobby")));
  return h("div", {class: "dialog-backdrop", onclick: (e) => { if (e.target === e.currentTarget) close(); }},
    h("section", {class: "summary match-summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "match-over", tabindex: "-1"},
      h("div", {class: "summary-head"},
        h("h2", {id: "match-over"}, t("The match is over")),
        h("button", {type: "button", class: "close", dataset: {action: "close-result"}, "aria-label": t("close the result"), onclick: close}, "\u00d7")),
      h("p", {}, winnersText()),
      placesTable(results),
      h("div", {class: "summary-actions"}, actions),
      h("details", {class: "every-hand", open: state.everyHandOpen ? "" : null, ontoggle: (e) => { state.everyHandOpen = e.currentTarget.open; }},
        h("summary", {}, t("Every hand")),
        scoreSheet({game, view: state.view, hands: state.hands, name, n, label: t("the match's scores")})),
      h("p", {class: "summary-links"},
        h("a", {href: withInvite(`/tables/${encodeURIComponent(tableId)}/record.json?match=${matchNo}`), download: `clubs-${tableId}-${matchNo + 1}.json`}, t("Download the record")),
        " \u00b7 ",
        h("a", {href: withInvite(`/replay?table=${encodeURIComponent(tableId)}&match=${matchNo}`)}, t("Replay it with every hand")),
        state.seat !== null && state.seat !== undefined ? [" \u00b7 ",
          h("a", {href: withInvite(`/review?table=${encodeURIComponent(tableId)}&match=${matchNo}&seat=${state.seat}`), class: "review-link"}, t("Review my play"))] : null)));
}

/** The places: each seat by its place, with its points and, at a rated table, its rating after the match and the
 * change ("1562 (+62)"); until the results are read, the final totals alone say it. */
function placesTable(results) {
  if (!results) return h("p", {class: "muted places-wait"}, t("Reading the results\u2026"));
  if (!results.seats) return null;
  const rows = [...results.seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
  const change = (r) => {
    const d = r.after.rating - r.before.rating;
    const signed = d > 0 ? "+" + String(d) : String(d);
    return t("{rating} ({change})", {rating: ratingWords(r.after), change: signed});
  };
  return h("table", {class: "places"},
    h("caption", {class: "sr-only"}, t("Places")),
    h("thead", {}, h("tr", {},
      h("th", {scope: "col"}, t("Place")), h("th", {scope: "col"}, t("Player")), h("th", {scope: "col"}, t("Points")),
      results.rated ? h("th", {scope: "col"}, t("Rating")) : null)),
    h("tbody", {}, rows.map((r) => h("tr", {class: r.seat === state.seat ? "mine" : null, dataset: {seat: String(r.seat)}},
      h("td", {}, String(r.place)),
      // the name the seat had at the end (a player who left is named, and marked, not the bot or whoever came after)
      h("th", {scope: "row"}, r.seat === state.seat && !r.left ? name(r.seat) : r.left ? t("{name} (left)", {name: r.name}) : r.name),
      h("td", {}, String(r.points)),
      results.rated ? h("td", {class: "rating-change"}, r.after && r.before ? change(r) : "") : null))));
}

/** Close the end-of-match dialog; the focus goes to "Show the result", which opens it again. */
function closeResult() {
  state.resultClosed = true;
  render();
  const again = app.querySelector('[data-action="show-result"]');
  if (again) again.focus({preventScroll: true});
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (state.over && !state.resultClosed && app.querySelector(".match-summary")) closeResult();
  else if (state.scoreDetails) closeScoreDetails();
});

/** The scores in detail, in a dialog: one hand's (from its number in the sheet) or every hand's. */
function scoreDialog(game, n) {
  const shown = state.scoreDetails;
  if (!shown) return null;
  const hand = shown.hand === null ? null : state.hands[shown.hand];
  if (shown.hand !== null && !hand) return null;
  const title = hand ? t("Hand {number}", {number: shown.hand + 1}) : t("Every hand");
  const body = hand ? handDetails({game, hand, name, n, me: state.seat})
    : scoreSheet({game, view: state.view, hands: state.hands, name, n, label: t("the match's scores")});
  return h("div", {class: "dialog-backdrop", onclick: (e) => { if (e.target === e.currentTarget) closeScoreDetails(); }},
    h("section", {class: "summary score-details", role: "dialog", "aria-modal": "true", "aria-labelledby": "score-details-title", tabindex: "-1"},
      h("div", {class: "summary-head"},
        h("h2", {id: "score-details-title"}, title),
        h("button", {type: "button", class: "close", dataset: {action: "close-details"}, "aria-label": t("close the details"), onclick: closeScoreDetails}, "\u00d7")),
      body));
}

/** Close the scores' details; the focus goes back to the sheet's button that opened them. */
function closeScoreDetails() {
  const from = state.scoreDetails;
  state.scoreDetails = null;
  render();
  const back = from && app.querySelector(`[data-action="hand-details-${from.hand === null ? "all" : from.hand}"]`);
  if (back) back.focus({preventScroll: true});
}

let resultsAsked = null;
let summaryFocused = false; // the end-of-match dialog has been given the focus since it opened

/** Read the finished match's results (places, points, rating changes), as a spectator (the invite of a private
 * table) or a seated player (the seat's token: a guided hand's or a club night's table has no invite for them). The
 * last action's commit writes them before anyone is told the match is over; a "not over" is asked again a few
 * times, anything else leaves the final totals to say it. */
async function loadResults(matchNo) {
  if (resultsAsked === matchNo) return;
  resultsAsked = matchNo;
  const headers = state.token ? {"X-Seat-Token": state.token} : {};
  for (let tries = 0; tries < 5; tries += 1) {
    let response;
    try {
      response = await fetch(withInvite(`/tables/${encodeURIComponent(tableId)}/results?match=${matchNo}`), {headers});
    } catch {
      break;
    }
    if (response.ok) {
      const got = await response.json();
      if (state.table.match_no !== matchNo) return;
      state.results = got;
      render();
      return;
    }
    if (response.status !== 409) break;
    await new Promise((ok) => setTimeout(ok, 500 * (tries + 1)));
  }
  if (state.table.match_no !== matchNo) return;
  state.results = {match: matchNo, rated: false, seats: null}; // not to be had: the totals above say it
  render();
}

/** New opponents: a fresh table of the same game (quick play; at a rated table, the lobby's rated queue). */
async function newOpponents() {
  if (state.table.settings.rated) {
    store.set("ratedGame", state.table.base);
    location.href = "/";
    return;
  }
  const me = state.table.seats[state.seat];
  const who = store.get("name") || (me && me.name) || t("Player");
  try {
    const joined = await api("/quickplay", {game: spec(), name: who}); // the same rules, other players
    store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
    location.href = `/table/${encodeURIComponent(joined.table)}`;
  } catch (err) {
    state.error = err.message;
    closeResult(); // the refusal shows at the table; the focus on "Show the result"
  }
}

function handSummary() {
  if (state.summary && !state.over) {
    const hand = state.hands[state.summary.index];
    if (!hand) return null;
    return h("section", {class: "summary hand-summary", role: "dialog", "aria-labelledby": "hand-over"},
      h("h2", {id: "hand-over"}, t("Hand {number} is over", {number: state.summary.index + 1})),
      h("ul", {}, hand.scores.map((v, s) => h("li", {}, t("{name}: {score} (total {total})", {name: name(s), score: `${v > 0 ? "+" : ""}${v}`, total: hand.totals[s]})))),
      h("button", {type: "button", class: "primary", dataset: {action: "close-summary"}, onclick: () => { state.summary = null; render(); }}, t("Go on")));
  }
  return null;
}

/** Who won the match, then the final totals: "Ann and you win. Final totals: Ann 12, You 12, Bob -3." */
function winnersText() {
  const r = state.result;
  if (!r) return "";
  if (r.draw) return t("A draw.");
  const totals = t("Final totals: {totals}.", {totals: r.totals.map((total, s) => `${name(s)} ${total}`).join(", ")});
  return `${winnersWords(r.winners)} ${totals}`;
}

/** The winners as a sentence: "You win.", "Ann wins.", "Ann and you win." */
function winnersWords(winners) {
  if (winners.length === 1) return winners[0] === state.seat ? t("You win.") : t("{name} wins.", {name: name(winners[0])});
  const who = winners.map((s, i) => (i === 0 ? name(s) : nameIn(s)));
  const names = t("{names} and {last}", {names: who.slice(0, -1).join(", "), last: who[who.length - 1]});
  return t("{names} win.", {names});
}

async function rematch() {
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/rematch`, {token: state.token});
    state.hands = [];
    state.summary = null;
    state.scoreDetails = null;
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

// the fan is laid out for the width it has: a turned phone or a resized window lays it out again
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (state.view && state.table) render(); }, 150);
});

// a click on the table while a finished trick is shown skips the pause
app.addEventListener("click", (event) => {
  if (state.linger && event.target instanceof Element && event.target.closest(".trick-area")) endLinger(true);
});

start();
