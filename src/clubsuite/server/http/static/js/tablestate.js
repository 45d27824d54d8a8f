// @ts-check
// The table page's state: what the server last said (the view, the legal actions, the seats, the log) and what the
// player has chosen on this page (cards selected, a drawer open), in one object, with the reducer that takes each
// message from the server into it and the words that follow from it alone (whose turn it is, what a refusal says).
// Nothing here draws or listens: tableview.js draws from this state, tableinput.js changes it from clicks and keys,
// and table.js carries the messages between the socket and here. The server is authoritative: this keeps what it
// was sent, and works out only which of the legal actions a click or a choice of cards means.

import {OFFLINE, api, store} from "./dom.js";
import {cardShort, parseCard, parseCards, readAction} from "./cards.js";
import {eventWords, seatName, shownOf, shownWords} from "./board.js";
import {language, listWords, reasonWords, t} from "./i18n.js";

export const params = new URLSearchParams(location.search);
/** The table's id: the last part of a server's ``/table/{id}``, or the offline app's ``table.html?local={id}``. */
export const tableId = OFFLINE ? params.get("local") || ""
  : decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

export const state = {
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
  turn: null, // a turn-based table's clock, as the last state or update said it (null at a live table)
  turnTold: 0, // when it was said (this device's milliseconds): a running clock counts down from then
  turnProblem: null, // a refusal of resuming the match or of the auto-play switch, in words
  awayNew: false, // "While you were away" was just put in the log: the side column shows it once drawn
  hands: [],
  log: [],
  selection: new Set(),
  wild: new Map(),
  pending: false,
  error: null,
  errorRule: null,
  hint: null,
  summary: null,
  lastWon: null,
  showLast: false,
  connected: false,
  closedForGood: false,
  socket: null,
  retry: 0,
  reclaims: 0, // the times this page asked for its seat back (a few at most: two tabs never take turns for ever)
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
export const prefs = {
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
export function inviteCode() {
  return params.get("invite") || store.get(`invite.${tableId}`) || null;
}

/** ``path`` with the invite code a private table's address needs (a public table's needs none). */
export function withInvite(path) {
  const code = state.table && state.table.settings.public === false ? inviteCode() : null;
  return code ? `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(code)}` : path;
}

/** The table's rules spec (a game's name and its options): the words follow its options. */
export function spec() {
  return state.table ? state.table.game : state.view ? state.view.game : "";
}

/** A seat's name inside a sentence: "you" for the page's own seat. */
export function nameIn(seat) {
  return seat === state.seat && seat !== null ? t("you") : name(seat);
}

/** A seat's name at the start of a sentence: "You" for the page's own seat, "nobody" for no seat. */
export function name(seat) {
  if (seat === null || seat === undefined) return t("nobody");
  const info = state.table ? state.table.seats[seat] : null;
  if (seat === state.seat) return t("You");
  return seatName(info, seat);
}

// -- the play log: kept for this tab, so that a reload shows it whole ---------------------------------------------
const LOG_KEY = `clubs.log.${tableId}`;

let logTrimmed = 0; // the lines taken off the log's head so far: a place in the log counts from the first line ever

export function say(text) {
  if (!text) return;
  state.log.push(text);
  if (state.log.length > 200) {
    logTrimmed += state.log.length - 200;
    state.log.splice(0, state.log.length - 200);
  }
}

/** A heading line of the log (not a line of play): it begins with this mark, then the version it heads, the mark
 * again and its words. */
export const LOG_HEADING = "\u0001";

/** A heading's words, or null for a line of play. */
export function headingOf(line) {
  return line.startsWith(LOG_HEADING) ? line.slice(line.indexOf(LOG_HEADING, 1) + 1) : null;
}

// The moves told by the last catchup, by version: where in the log their lines begin (counted from the log's first
// line ever), so that the moves made while the player was away (a state's ``away``) are headed where they begin.
let caughtUp = new Map();
let loggedTo = null; // the last version whose moves are in the log

export function keepLog() {
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

/** The log kept for ``seat`` on this tab, taken back: the hello then asks for what happened since. */
export function resumeLog(seat) {
  const kept = keptLog();
  if (kept && kept.seat === seat) {
    state.log = kept.lines.filter((l) => typeof l === "string").slice(-200);
    state.version = kept.version; // the hello asks for what happened since: the log goes on where it stopped
    loggedTo = kept.version;
  }
}

// -- the server's messages ---------------------------------------------------------------------------------------
/** Take a message from the server into the state (``welcome``, ``state``, ``update``, ``catchup``, ``presence``,
 * ``hint``, a refusal, ``bye``; the chat's and a dead seat's are table.js's). Returns what else the page does about
 * it: ``lines``, the events' lines of the log (read out), ``moved``, whether the table moved on (a new version),
 * ``mine``, whether it was the page's own action, ``trick``, a trick just finished (finishedTrick), ``put``, whether
 * a card was laid. */
export function reduce(msg) {
  const out = {lines: [], moved: false, mine: false, trick: null, put: false};
  switch (msg.type) {
    case "welcome":
      state.connected = true;
      state.retry = 0;
      state.seat = msg.seat;
      state.role = msg.role;
      break;
    case "state":
      out.moved = takeState(msg);
      state.hands = msg.hands;
      state.summary = null;
      state.linger = null;
      for (const {version, ev} of state.heldCatchup) { // told before the names and the game were known
        if (!caughtUp.has(version)) caughtUp.set(version, logTrimmed + state.log.length);
        noteEvent(ev);
      }
      state.heldCatchup = [];
      if (msg.resync && state.log.length) say(t("(you were away: the table is shown as it is now)"));
      if (msg.away) awayLines(msg.away);
      loggedTo = msg.version;
      caughtUp = new Map();
      break;
    case "update": {
      const before = state.view;
      out.lines = msg.events.map(noteEvent); // every event at the table
      loggedTo = msg.version;
      out.mine = Boolean(msg.by && msg.by.seat === state.seat && state.seat !== null);
      out.moved = takeState(msg);
      if (msg.seats) state.table.seats = msg.seats;
      if (typeof msg.waiting === "boolean") state.table.waiting = msg.waiting;
      if (msg.scored) {
        state.hands.push(msg.scored);
        state.summary = {index: state.hands.length - 1};
      } else if (msg.by && state.summary) {
        // the next hand's first action: the account leaves the table in play for the head of the side column
        state.summary = {...state.summary, aside: true};
      }
      out.trick = finishedTrick(before, msg.events);
      out.put = msg.events.some((e) => kindOf(e) === "put");
      break;
    }
    case "catchup":
      for (const u of msg.updates) {
        if (state.view && state.table) caughtUp.set(u.version, logTrimmed + state.log.length);
        for (const ev of u.events) {
          if (state.view && state.table) noteEvent(ev);
          else state.heldCatchup.push({version: u.version, ev});
        }
      }
      break;
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
      state.pending = false;
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
      break;
    default:
      break;
  }
  return out;
}

/** Why the server closed the connection, in the reader's language (the server words it in English). */
export function byeWords(reason) {
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

/** Take a state or an update's view; returns whether the table moved on (a new version), which ends what was asked
 * of the old one (a hint, a refusal, a choice of cards no longer in hand). */
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
  if ("turn" in msg) {
    state.turn = msg.turn ?? null;
    state.turnTold = Date.now();
  }
  if (before === msg.version) return false;
  state.pending = false;
  state.hint = null;
  state.error = null;
  state.whyOpen = false;
  state.selection = new Set([...state.selection].filter((c) => ownCards().some((o) => o.text === c)));
  if (msg.to_act !== state.seat) state.selection.clear();
  state.wild.clear();
  return true;
}

/** What an event does to the table, in the words every game shares (``deal``, ``put``, ``trick``, ``scored``), or
 * "". */
export function kindOf(ev) {
  return ev && ev.said ? ev.said.kind : "";
}

/** The moves made while the player was away (a turn-based table's ``state``: ``{since, updates}``, each update's
 * events told as an update's are), in the log under the heading "While you were away": the lines the log would have
 * shown live. Those a catchup just put in the log are headed where they begin; the others are added under the
 * heading; a heading already in the log for the same moves is not said again. */
function awayLines(away) {
  const updates = (away.updates || []).filter((u) => u && Array.isArray(u.events));
  if (!updates.length) return;
  const mark = `${LOG_HEADING}${away.since}${LOG_HEADING}`;
  if (state.log.some((line) => line.startsWith(mark))) return;
  const heading = mark + t("While you were away");
  const told = updates.find((u) => caughtUp.has(u.version)); // the first of them a catchup just put in the log
  const fresh = updates.filter((u) => !caughtUp.has(u.version) && (loggedTo === null || u.version > loggedTo));
  const at = told ? caughtUp.get(told.version) - logTrimmed : -1;
  if (at >= 0 && at <= state.log.length) state.log.splice(at, 0, heading);
  else if (fresh.length) say(heading);
  else return; // every one of them is in the log already, its place there gone: no heading over nothing
  for (const u of fresh) for (const ev of u.events) noteEvent(ev);
  state.awayNew = true;
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

/** The trick an update's events finished, as it lay (from what lay on the table before and the cards the events
 * added): ``{finished: {plays, winner, phase, words} or null, onTable: whether cards lie on the table now}``. */
function finishedTrick(before, events) {
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
  return {finished, onTable: (state.view.trick || []).length > 0};
}

/** A refusal in the words a player reads: its ruling's id taken out (it goes behind "why?"), cards in symbols
 * ("KD" becomes "K\u2666"), seats by name. */
export function plainRefusal(text) {
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

// -- what the seat may do ----------------------------------------------------------------------------------------
export function ownCards() {
  const v = state.view;
  if (!v || !v.hand) return [];
  return parseCards(v.hand);
}

export function myTurn() {
  return state.seat !== null && state.toAct === state.seat && !state.over && Array.isArray(state.legal);
}

/** The legal actions sorted into: card actions of one card (played by a click), words (buttons), and actions of
 * several cards (chosen by selecting cards; where the game says so, every play is chosen so). */
export function legalParts() {
  if (!myTurn()) return {singles: new Map(), words: [], multis: []};
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
export function sameSize(actions) {
  const sizes = new Set(actions.map((a) => a.cards.length));
  return sizes.size === 1 ? [...sizes][0] : 0;
}

function keyOf(cards) {
  return cards.map((c) => c.text).sort().join(" ");
}

/** The selected cards' plays: those of exactly the chosen cards, and the wild 15s among them that may stand for
 * more than one value in those plays (a 15 may also count as itself: its meaning "self"). */
export function chosenPlay(parts) {
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
export function meaning(m, text) {
  const card = m.cards.find((c) => c.text === text);
  return card && card.as !== null ? card.as : "self";
}

/** Whether the cards chosen now go to the table (a play, a bid), so that a preview of them in the seat's place says
 * what will happen; cards passed or exchanged go to a hand, and are shown nowhere on the table. */
export function toTable() {
  return ["play", "auction"].includes(state.view.phase);
}

// -- words that follow from the state ----------------------------------------------------------------------------
/** What the page says of the turn: whose it is, or what the seat is asked, or that the match is over. */
export function turnText() {
  if (state.over) return t("The match is over.");
  if (state.table.waiting) return t("Waiting for every player to take a seat\u2026");
  if (state.toAct === null) return t("Dealing\u2026");
  if (myTurn()) return state.pending ? t("Sent\u2026") : askedText();
  return t("Waiting for {name}\u2026", {name: name(state.toAct)});
}

/** What the seat to act is asked, in words, as its game says it. */
export function askedText() {
  const asked = state.asked;
  const words = asked ? asked.words.map((r) => reasonWords(r, nameIn)).filter(Boolean) : [];
  return words.length ? words.join(" ") : t("Your turn.");
}

/** What the table says while nothing lies on it, as the game says (who opens the auction, that the leader plays
 * anything). */
export function tableMessage() {
  const says = shownOf(state.view).says;
  return says ? shownWords(says, nameIn) : null;
}

/** A legal action as its button says it (the server's label), or its notation where none came. */
export function labelOf(text) {
  const label = state.labels[text];
  return (label && reasonWords(label, nameIn)) || text;
}

/** What a legal play does, in words, where the game says (the server's note on it), or null. */
export function noteWords(play) {
  const note = play ? state.notes[play.text] : null;
  return note ? reasonWords(note, (n) => nameIn(n)) : null;
}

/** A ruling in plain words ({title, text}) by its id, as the game gives it, or null. */
export function rulingWords(id) {
  const ruling = id ? state.rulings[String(id).toUpperCase()] : null;
  return ruling ? {title: reasonWords(ruling.title), text: reasonWords(ruling.text)} : null;
}

/** The rule behind what is asked, for a "why?": ``{rule, title, text}`` (``rule`` null for a basic rule), or null. */
export function askedWhy() {
  const asked = state.asked;
  if (!asked) return null;
  const words = rulingWords(asked.rule);
  if (words) return {rule: asked.rule, ...words};
  return asked.why ? {rule: null, title: reasonWords(asked.why.title), text: reasonWords(asked.why.text)} : null;
}

/** "pointed" for a card of the choice the scripted first hand points at now (its lesson's step), else "". */
export function pointed(card) {
  return myTurn() && state.lesson && state.lesson.step && state.lesson.cards.includes(card) ? "pointed" : "";
}

/** "pointed" for the button of the action the scripted first hand points at now, else "". */
export function pointedAction(text) {
  return myTurn() && state.lesson && state.lesson.step && state.lesson.action === text ? "pointed" : "";
}

/** Who won the match, then the final totals: "Ann and you win. Final totals: Ann 12, You 12, Bob -3." */
export function winnersText() {
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
  return t("{names} win.", {names: listWords(who)});
}

// -- what the page reads besides the table's socket --------------------------------------------------------------
let resultsAsked = null;

/** Read the finished match's results (places, points, rating changes), as a spectator (the invite of a private
 * table) or a seated player (the seat's token: a guided hand's or a club night's table has no invite for them); then
 * ``done()``. The last action's commit writes them before anyone is told the match is over; a "not over" is asked
 * again a few times, anything else leaves the final totals to say it. */
export async function loadResults(matchNo, done) {
  if (resultsAsked === matchNo) return;
  resultsAsked = matchNo;
  const headers = state.token ? {"X-Seat-Token": state.token} : {};
  for (let tries = 0; tries < (OFFLINE ? 0 : 5); tries += 1) { // offline: no places nor ratings, the totals say it
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
      done();
      return;
    }
    if (response.status !== 409) break;
    await new Promise((ok) => setTimeout(ok, 500 * (tries + 1)));
  }
  if (state.table.match_no !== matchNo) return;
  state.results = {match: matchNo, rated: false, seats: null}; // not to be had: the totals above say it
  done();
}

/** Read the game in brief, which the coach opens with, once; then ``done()``. */
export function loadBrief(game, done) {
  if (state.brief !== undefined) return;
  state.brief = null;
  api(`/rules/${encodeURIComponent(String(game).split(/[-(]/)[0])}/brief?lang=${language()}`)
    .then((brief) => { state.brief = brief; done(); }).catch(() => {});
}
