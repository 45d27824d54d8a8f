// @ts-check
// Puzzles: /puzzle lists the games that have puzzles, today's puzzle and (signed in) the history of attempts;
// /puzzle/{pool} plays them: the board drawn as at a table for the seat to act, the goal in words, an answer judged by
// the server (a wrong one refused with what it gets, then try again or see the solution), the line stepped through.
// The page never holds an answer before it is given: the server sends the position only, and the line once solved.
// A signed-in player's first answer to each puzzle is rated; a guest plays unrated (the ids seen are kept here). In
// the offline app (puzzle.html?pool=...) the rules in the page answer instead of a server, and the player's rating
// is kept in this browser, rated as a server rates an account's (offline.js, clubsuite.offline.puzzles).

import {OFFLINE, account, announce, announcer, api, byId, colourToggle, fill, h, here, pageTitle, store} from "./dom.js";
import {cardButton, cardRow, parseCards, playShort, readAction, said, sortCards, spokenCards} from "./cards.js";
import {eventWords, factList, fan, felt, rankOf, shownOf, trickArea} from "./board.js";
import {gameWords, languageSwitch, loadWords, reasonWords, t, tc, tn} from "./i18n.js";
import {ratingWords} from "./account.js";
import {applyColours, bar, when} from "./people.js";

const app = byId("app");
const params = new URLSearchParams(location.search);
const pool = OFFLINE ? params.get("pool") || "" : (() => {
  try {
    return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  } catch {
    return location.pathname.split("/").filter(Boolean)[1] || ""; // a malformed address: the server refuses it
  }
})();
const SEEN_KEY = `puzzlesSeen.${pool}`;
const SEEN_MAX = 100;

/** The address of the puzzle pages: a server's ``/puzzle`` and ``/puzzle/{pool}?{query}``, or the offline app's one
 * page, ``puzzle.html``, which names the pool in its query (a static host has no page per pool). */
function puzzlePage(name = "", query = "") {
  if (OFFLINE) return `puzzle.html${name ? `?pool=${encodeURIComponent(name)}${query ? `&${query}` : ""}` : ""}`;
  return name ? `/puzzle/${encodeURIComponent(name)}${query ? `?${query}` : ""}` : "/puzzle";
}

/** The page's bar: a server's, or the offline app's (its lobby, the puzzles, the language and the colours: it has no
 * accounts, notices nor the site's other pages). */
async function topBar(title) {
  if (!OFFLINE) return bar(title);
  return h("header", {class: "bar"}, h("a", {href: here("/"), class: "home"}, t("Clubs")), h("h1", {}, title),
    h("a", {href: puzzlePage()}, t("Puzzles")), languageSwitch(h), colourToggle());
}

/** An exact puzzle's goal by its measure (the same words the terminal uses). */
function goalWords(p) {
  if (p.kind === "single_dummy") {
    return t("Only your own cards are shown. Find the play that wins clearly more often than any other, from what you can know.");
  }
  const n = p.goal;
  switch (p.measure) {
    case "tricks": return tn("Every hand is shown. Find the card that takes {n} trick in all this hand, however the others play.",
      "Every hand is shown. Find the card that takes {n} tricks in all this hand, however the others play.", n);
    case "fewest": return tn("Every hand is shown. Find the card that holds you to {n} trick in all this hand, however the others play.",
      "Every hand is shown. Find the card that holds you to {n} tricks in all this hand, however the others play.", n);
    case "points": return tn("Every hand is shown. Find the card that scores {n} point for your side this hand, however the others play.",
      "Every hand is shown. Find the card that scores {n} points for your side this hand, however the others play.", n);
    default: return tn("Every hand is shown. Find the play that scores you {n} point this round, however the others play.",
      "Every hand is shown. Find the play that scores you {n} points this round, however the others play.", n);
  }
}

/** What a wrong answer gets instead (the server's judgement of it). */
function wrongWords(answer, action) {
  if (answer.kind === "single_dummy") {
    return t("{action} wins {taken} of the time on the deals the answer was measured on; the answer wins {best}.",
      {action, taken: percent(answer.value), best: percent(answer.best)});
  }
  const n = Math.round(answer.value);
  const goal = answer.goal;
  switch (answer.measure) {
    case "tricks": return tn("{action} takes only {n} trick in all (the answer takes {goal}).", "{action} takes only {n} tricks in all (the answer takes {goal}).", n, {action, goal});
    case "fewest": return tn("{action} lets them give you {n} trick in all (the answer holds you to {goal}).", "{action} lets them give you {n} tricks in all (the answer holds you to {goal}).", n, {action, goal});
    case "points": return tn("{action} scores only {n} point for your side (the answer scores {goal}).", "{action} scores only {n} points for your side (the answer scores {goal}).", n, {action, goal});
    default: return tn("{action} scores you only {n} point this round (the answer scores {goal}).", "{action} scores you only {n} points this round (the answer scores {goal}).", n, {action, goal});
  }
}

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

const DIFFICULTIES = () => ({
  easiest: t("Easiest"), easier: t("Easier"), normal: t("Near my rating"), harder: t("Harder"), hardest: t("Hardest"),
});
const KINDS = () => ({
  double_dummy: t("Every hand shown"), endgame: t("Round endings, every hand shown"), single_dummy: t("Only your own hand"),
});

const state = {
  me: null, // the signed-in account, or null
  kept: false, // whether the player's rating and streak are kept: by the server for an account, by this browser offline
  info: null, // GET /puzzles/{pool}
  puzzle: null, // the position shown
  answers: [], // this puzzle's answers so far: {action, right, words}
  attempt: null, // the rated attempt's outcome (the server's), or null
  line: null, // once solved or given up: the solution and its steps
  step: -1, // the step of the line shown (-1: the puzzle's position; the steps are counted from 1 on the page)
  selection: new Set(), // the cards chosen for a play of several cards (or any play, where the game says so)
  solved: false,
  pending: false,
  error: null,
  mode: params.get("streak") !== null ? "streak" : "rated",
  streak: 0, // the streak now: a guest's is counted here, an account's comes from the server
  streakOver: false,
  theme: params.get("theme") || "",
  kind: params.get("kind") || "",
  difficulty: store.get("puzzleDifficulty", "normal"),
};

/** A seat's name at the puzzle's table: the player is "You". */
function name(seat) {
  if (!state.puzzle) return "";
  const who = state.puzzle.seats[seat];
  return who === null || who === undefined ? t("You") : who;
}

function seatInfo(seat) {
  // the others are imagined players of the position (a bot played them in the match it comes from)
  return {kind: "person", level: null, name: name(seat), taken: true, connected: true};
}

/** An action in words: its label as the game words it (a bid, a pass, a play of several cards), else its cards. */
function actionText(text) {
  const label = state.puzzle && state.puzzle.labels[text];
  const words = label ? reasonWords(label, name) : null;
  return words || playShort(text);
}

async function start() {
  applyColours();
  await loadWords();
  announcer();
  state.me = await account(); // null for a guest
  state.kept = state.me !== null || OFFLINE;
  if (!pool) {
    pageTitle("puzzles");
    await chooser();
    return;
  }
  pageTitle("puzzles");
  try {
    state.info = await api(`/puzzles/${encodeURIComponent(pool)}`);
  } catch (err) {
    fill(app, await topBar(t("Puzzles")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message), h("p", {}, h("a", {href: puzzlePage()}, t("Every game's puzzles")))));
    return;
  }
  if (state.kept && state.info.standing) state.streak = state.info.standing.streak;
  await load(state.mode === "streak" ? null : params.get("id"));
}

// -- the list of games ---------------------------------------------------------------------------------------------
async function chooser() {
  let list, daily, history = [], mine = [];
  try {
    list = await api("/puzzles");
    daily = await api("/daily-puzzle").catch(() => null);
    if (state.me) history = await api("/puzzles/history?limit=20");
    if (state.me) mine = await api("/puzzles/mine");
  } catch (err) {
    fill(app, await topBar(t("Puzzles")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message)));
    return;
  }
  const titleOf = (p) => gameWords(p.name_words);
  const byPool = new Map(list.pools.map((p) => [p.pool, p]));
  fill(app, await topBar(t("Puzzles")),
    h("main", {class: "people puzzles"},
      h("p", {}, t("Positions from real matches where one play is clearly best: find it. Each answer you give is rated against the puzzle, and the next puzzle is chosen near your rating.")),
      list.signed_in || OFFLINE ? null : h("p", {class: "muted", id: "guest-note"}, t("You play as a guest: your answers are not rated. Sign in to keep a puzzle rating.")),
      daily ? h("section", {class: "daily", "aria-labelledby": "daily-title"},
        h("h2", {id: "daily-title"}, t("Puzzle of the day")),
        h("p", {}, h("a", {href: puzzlePage(daily.pool, `id=${encodeURIComponent(daily.id)}`), id: "daily-link"},
          byPool.has(daily.pool) ? titleOf(byPool.get(daily.pool)) : daily.pool))) : null,
      h("h2", {}, t("Games")),
      h("ul", {class: "puzzle-pools"}, list.pools.map((p) => h("li", {dataset: {pool: p.pool}},
        h("a", {href: puzzlePage(p.pool)}, titleOf(p)), " ",
        h("span", {class: "muted"}, tn("{n} puzzle", "{n} puzzles", p.count)),
        p.standing ? h("span", {class: "muted"}, t("your rating {rating}", {rating: ratingWords(p.standing)})) : null,
        " ", h("a", {href: puzzlePage(p.pool, "streak=1"), class: "streak-link"}, t("Streak"))))),
      mine.length ? h("section", {"aria-labelledby": "mine-title"},
        h("h2", {id: "mine-title"}, t("Your own puzzles")),
        h("p", {class: "muted"}, t("Made of the decisions you missed in your matches (after a match, its review offers it). They are not rated; a shared one may be played by anyone with its link.")),
        h("ul", {class: "own-puzzles"}, mine.map((p) => h("li", {},
          h("a", {href: `/puzzle/${encodeURIComponent(p.pool)}?id=${encodeURIComponent(p.id)}`}, p.id), " \u00b7 ",
          byPool.has(p.pool) ? titleOf(byPool.get(p.pool)) : p.pool, " \u00b7 ", when(p.created_at), " ",
          h("label", {}, h("input", {type: "checkbox", checked: p.shared, dataset: {share: p.id}, onchange: (e) => share(p.id, e.target)}), " ", t("shared")))))) : null,
      history.length ? h("section", {"aria-labelledby": "history-title"},
        h("h2", {id: "history-title"}, t("Your last attempts")),
        h("ul", {class: "puzzle-history"}, history.map((a) => h("li", {},
          h("a", {href: `/puzzle/${encodeURIComponent(a.pool)}?id=${encodeURIComponent(a.puzzle)}`}, a.puzzle), " ",
          a.solved ? t("solved") : t("missed"), " \u00b7 ",
          byPool.has(a.pool) ? titleOf(byPool.get(a.pool)) : a.pool, " \u00b7 ", when(a.at),
          a.rated ? ` \u00b7 ${rated(a.rating_before, a.provisional_before)} \u2192 ${rated(a.rating_after, a.provisional_after)}` : "")))) : null));
}

async function share(id, box) {
  box.disabled = true; // one change at a time: the box shows what the server keeps
  try {
    await api(`/puzzles/mine/${encodeURIComponent(id)}/share`, {shared: box.checked});
  } catch (err) {
    box.checked = !box.checked;
    announce(err.message);
  }
  box.disabled = false;
}

// -- one puzzle ----------------------------------------------------------------------------------------------------
function seen() {
  const kept = store.get(SEEN_KEY, []);
  return Array.isArray(kept) ? kept.filter((x) => typeof x === "string" && /^[0-9a-f]{1,40}$/.test(x)).slice(-SEEN_MAX) : [];
}

function remember(id) {
  if (state.kept) return; // the server keeps an account's; offline, the rating this browser keeps (offline.js)
  store.set(SEEN_KEY, [...seen().filter((x) => x !== id), id].slice(-SEEN_MAX));
}

const BUSY_TRIES = 4;
const BUSY_WAIT_MAX = 5;

/** ``api(path)``, asked again where the server refuses for now (429: this address's last new puzzle is still being
 * worked out, or too many asked): after the seconds its Retry-After says (1 to 5), a few times at most. */
async function patiently(path) {
  for (let tries = 1; ; tries += 1) {
    try {
      return await api(path);
    } catch (err) {
      if (err.status !== 429 || tries >= BUSY_TRIES) throw err;
      const wait = Math.min(Math.max(err.retryAfter || 1, 1), BUSY_WAIT_MAX);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }
}

/** Why a puzzle could not be loaded, in the reader's language where the server's refusal is known. */
function loadError(err) {
  if (err.code === "all_solved") return t("Every puzzle asked for is solved.");
  if (err.status === 429) return t("Too many puzzles asked for at once: wait a moment and try again.");
  return err.message;
}

let loading = false;

async function load(id = null) {
  if (loading) return; // one at a time: a second "Next puzzle" waits for the first
  loading = true;
  state.pending = true;
  state.error = null;
  if (state.puzzle) draw();
  let puzzle;
  try {
    if (id) {
      puzzle = await patiently(`/puzzles/${encodeURIComponent(pool)}/${encodeURIComponent(id)}`);
    } else {
      const query = new URLSearchParams();
      if (state.theme) query.set("theme", state.theme);
      if (state.kind) query.set("kind", state.kind);
      if (state.mode === "streak") query.set("streak", String(state.streak));
      else query.set("difficulty", state.difficulty);
      if (!state.kept) query.set("seen", seen().join(","));
      puzzle = await patiently(`/puzzles/${encodeURIComponent(pool)}/next?${query}`);
    }
  } catch (err) {
    loading = false;
    state.pending = false;
    state.error = loadError(err);
    if (!state.puzzle) {
      fill(app, await topBar(t("Puzzles")), h("main", {class: "panel"}, h("p", {role: "alert"}, state.error), options(), h("p", {}, h("a", {href: puzzlePage()}, t("Every game's puzzles")))));
      return;
    }
    draw();
    return;
  }
  loading = false;
  Object.assign(state, {puzzle, answers: [], attempt: null, line: null, step: -1, solved: false, pending: false, streakOver: false, selection: new Set()});
  // the address names the puzzle (a reload shows it again, a link shares it) and the filters; a streak's names none:
  // a reload goes on with the streak's next puzzle
  const address = new URLSearchParams();
  if (state.mode === "streak") address.set("streak", "1");
  else address.set("id", puzzle.id);
  if (state.theme) address.set("theme", state.theme);
  if (state.kind) address.set("kind", state.kind);
  history.replaceState(null, "", puzzlePage(pool, String(address)));
  await drawAgain();
  announce(spokenCards(goalWords(puzzle)));
}

let header = null;

async function drawAgain() {
  header = await topBar(t("Puzzles"));
  draw();
}

async function answer(action) {
  if (state.pending || state.line) return;
  state.pending = true;
  draw();
  let got;
  try {
    got = await api(`/puzzles/${encodeURIComponent(pool)}/${encodeURIComponent(state.puzzle.id)}/attempt`, {action});
  } catch (err) {
    state.pending = false;
    state.error = err.message;
    draw();
    return;
  }
  state.pending = false;
  state.error = null;
  state.selection.clear();
  if (!state.attempt && got.attempt) state.attempt = got.attempt;
  const first = state.answers.length === 0;
  if (got.right) {
    state.answers.push({action, right: true, words: t("Right: {answer}.", {answer: actionText(action)})});
    state.solved = true;
    state.line = got.line;
    remember(state.puzzle.id);
    if (state.mode === "streak" && first && !state.kept) state.streak += 1;
  } else {
    state.answers.push({action, right: false, words: wrongWords(got, actionText(action))});
    if (state.mode === "streak") state.streakOver = true;
    if (first) remember(state.puzzle.id);
  }
  if (got.attempt && state.mode === "streak") state.streak = got.attempt.streak;
  if (got.attempt && got.attempt.rated) refreshStanding();
  draw();
  announce(spokenCards(state.answers[state.answers.length - 1].words));
}

async function giveUp() {
  if (state.pending) return;
  state.pending = true;
  draw();
  try {
    const got = await api(`/puzzles/${encodeURIComponent(pool)}/${encodeURIComponent(state.puzzle.id)}/solution`, {});
    if (!state.attempt && got.attempt) state.attempt = got.attempt;
    if (got.attempt && got.attempt.rated) refreshStanding();
    state.line = got.line;
    if (state.mode === "streak" && !state.solved) {
      state.streakOver = true;
      if (got.attempt) state.streak = got.attempt.streak;
    }
    remember(state.puzzle.id);
  } catch (err) {
    state.error = err.message;
  }
  state.pending = false;
  draw();
  if (state.line) announce(spokenCards(t("The answer: {answer}.", {answer: actionText(state.line.solution)})));
}

function next() {
  if (state.mode === "streak" && state.streakOver && !state.kept) state.streak = 0; // an account's: the server's
  load();
}

/** The account's standing asked again after a rated answer (the rating line of the next puzzle says the new one). */
function refreshStanding() {
  api(`/puzzles/${encodeURIComponent(pool)}`).then((info) => { state.info = info; }).catch(() => {});
}

function go(step) {
  if (!state.line) return;
  state.step = Math.max(-1, Math.min(state.line.steps.length - 1, step));
  draw();
  const at = state.line.steps[state.step];
  if (at) for (const w of stepWords(at)) announce(spokenCards(w));
}

function stepWords(step) {
  const words = step.events.map((ev) => eventWords(ev, state.puzzle.seat, name)).filter(Boolean);
  return words.length ? words : [`${name(step.seat)}: ${actionText(step.action)}`];
}

/** The legal actions sorted as the table sorts them: one card (played by a click on it), words (buttons), and plays
 * of several cards (chosen by selecting their cards, then their one button: where the game says so, every play is
 * chosen so). A hand's plays never stand as a wall of buttons: the page keeps to one screen. */
function legalParts() {
  const singles = new Map();
  const words = [];
  const multis = [];
  const select = shownOf(state.puzzle.view).select;
  for (const a of state.puzzle.legal.map(readAction)) {
    if (a.cards.length === 0 || a.word !== null) words.push(a.text);
    else if (a.cards.length === 1 && !select) singles.set(a.cards[0].text, a.text);
    else multis.push(a);
  }
  return {singles, words, multis};
}

const keyOf = (cards) => cards.map((c) => c.text).sort().join(" ");

/** The plays of exactly the chosen cards. */
function chosenPlays(parts) {
  const key = keyOf([...state.selection].map((text) => ({text})));
  return state.selection.size ? parts.multis.filter((m) => keyOf(m.cards) === key) : [];
}

function toggle(card) {
  if (state.selection.has(card)) state.selection.delete(card);
  else state.selection.add(card);
  draw();
}

function handRow(view, open) {
  const cards = sortCards(parseCards(view.hand || ""), {by: shownOf(view).sort, rank: rankOf(view)});
  const parts = open ? legalParts() : {singles: new Map(), words: [], multis: []};
  const wrong = new Set(state.answers.filter((a) => !a.right).map((a) => a.action));
  const wild = shownOf(view).wild;
  const chosen = [...state.selection];
  const fits = (card) => parts.multis.some((m) => {
    const texts = new Set(m.cards.map((c) => c.text));
    return texts.has(card) && chosen.every((c) => texts.has(c));
  });
  const buttons = cards.map((c) => {
    const action = parts.singles.get(c.text);
    if (action === undefined && parts.multis.length) {
      const on = state.selection.has(c.text);
      return cardButton(c, {enabled: !state.pending && (on || fits(c.text)), selected: on, onclick: () => toggle(c.text), wild});
    }
    return cardButton(c, {enabled: action !== undefined && !state.pending, onclick: () => answer(action), wild,
      extra: action !== undefined && wrong.has(action) ? "tried-wrong" : ""});
  });
  const active = parts.singles.size > 0 || parts.multis.length > 0;
  return h("div", {class: `hand ${active ? "active" : ""}`.trim(), role: "group", "aria-label": tn("your hand, {n} card", "your hand, {n} cards", cards.length)}, buttons);
}

function controls(open) {
  if (!open) return null;
  const parts = legalParts();
  const wrong = new Set(state.answers.filter((a) => !a.right).map((a) => a.action));
  const button = (text, primary) => h("button", {type: "button", class: `action ${primary ? "primary" : ""} ${wrong.has(text) ? "tried-wrong" : ""}`.replace(/\s+/g, " ").trim(),
    disabled: state.pending, dataset: {action: text}, onclick: () => answer(text)}, said(actionText(text)));
  const items = parts.words.map((text) => button(text, false));
  if (parts.multis.length) {
    const plays = chosenPlays(parts);
    items.push(...plays.map((m) => button(m.text, true)));
    if (!state.selection.size) items.push(h("span", {class: "muted choose-cards"}, t("Choose the cards of your play in your hand.")));
    else if (!plays.length) items.push(h("span", {class: "muted"}, t("Not a play yet: choose more cards, or other ones.")));
    if (state.selection.size) items.push(h("button", {type: "button", dataset: {action: "clear"}, onclick: () => { state.selection.clear(); draw(); }}, t("Clear the choice")));
  }
  return items.length ? h("div", {class: "controls", role: "group", "aria-label": t("actions")}, items) : null;
}

function draw() {
  const p = state.puzzle;
  const stepAt = state.line && state.step >= 0 ? state.line.steps[state.step] : null;
  const view = stepAt ? stepAt.view : p.view;
  const hands = stepAt ? stepAt.hands : p.hands;
  const open = !state.line && !stepAt && !(state.mode === "streak" && state.streakOver); // still to be found
  const game = p.game;
  const cardsOf = (s) => (hands ? cardRow(sortCards(parseCards(hands[s] || ""), {by: shownOf(view).sort, rank: rankOf(view)}), "open") : undefined);
  const last = state.answers[state.answers.length - 1];
  const board = h("div", {class: "board"},
    h("section", {class: "puzzle-goal", "aria-label": t("the puzzle")},
      h("p", {class: "goal", id: "goal"}, goalWords(p)),
      last ? h("p", {class: `verdict ${last.right ? "right" : "wrong"}`, id: "verdict"}, said(last.words)) : null,
      puzzleButtons()),
    felt({game, view, seats: p.seats.map((_, s) => seatInfo(s)), me: p.seat, name, clock: null,
      middle: trickArea({game, view, me: p.seat, name}), cardsOf}),
    h("section", {class: "my-area", "aria-label": t("your cards")}, handRow(view, open), controls(open)));
  const side = h("aside", {class: "side puzzle-panel"}, panel());
  const focus = focusKey(document.activeElement);
  fill(app, header, h("main", {class: "table-page puzzle-page", dataset: {puzzle: p.id, kind: p.kind}}, board, side));
  for (const hand of app.querySelectorAll(".my-area .hand")) fan(hand);
  restoreFocus(focus);
}

/** How to find the element that has the focus in the next drawing: its id, its action or its card (null: none of
 * the page's own, or nothing to find again). */
function focusKey(el) {
  if (!el || !app.contains(el) || el === document.body) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.dataset && el.dataset.action) return `[data-action="${CSS.escape(el.dataset.action)}"]`;
  if (el.dataset && el.dataset.card) return `[data-card="${CSS.escape(el.dataset.card)}"]`;
  return null;
}

/** The focus given back after a drawing: to the same control, or (gone, or disabled) to the puzzle's next step. */
function restoreFocus(key) {
  if (key === null) return;
  const again = app.querySelector(key);
  const target = again && !again.disabled ? again
    : app.querySelector('[data-action="forward"]:not([disabled]), [data-action="next"], [data-action="solution"]');
  if (target) target.focus({preventScroll: true});
}

/** What the player may do besides answering: see the solution (before it is shown), go on to the next puzzle. */
function puzzleButtons() {
  return h("div", {class: "puzzle-buttons"},
    state.line ? null : h("button", {type: "button", dataset: {action: "solution"}, disabled: state.pending, onclick: giveUp}, t("See the solution")),
    state.line || state.answers.length ? h("button", {type: "button", class: "primary", dataset: {action: "next"}, disabled: state.pending, onclick: next},
      state.mode === "streak" && state.streakOver ? t("Start a new streak") : t("Next puzzle")) : null);
}

/** A rating as moved by an answer: "1428?" while provisional (lichess's "?"), else the number. */
function rated(rating, provisional) {
  return provisional ? t("{rating}?", {rating}) : String(rating);
}

function ratingLine() {
  if (!state.kept) return h("p", {class: "muted", id: "rating"}, t("You play as a guest: your answers are not rated. Sign in to keep a puzzle rating."));
  const a = state.attempt;
  if (a && a.rated) {
    return h("p", {id: "rating", class: "rating-moved"},
      // no full stop after the ratings: "1428?." would read the "?" against it
      t("Your puzzle rating: {before} \u2192 {after}", {before: rated(a.rating.before, a.rating.provisional_before), after: rated(a.rating.after, a.rating.provisional_after)}), h("br"),
      h("span", {class: "muted"}, t("This puzzle's rating: {before} \u2192 {after}", {before: a.puzzle_rating.before, after: a.puzzle_rating.after})));
  }
  const p = state.puzzle;
  if (p.own) return h("p", {id: "rating", class: "muted"}, t("One of your own puzzles: it is not rated."));
  if (p.tried || (a && a.mode === "again")) return h("p", {id: "rating", class: "muted"}, t("You have tried this puzzle before: this time is not rated."));
  if (p.mode === "practice") return h("p", {id: "rating", class: "muted"}, t("Puzzles of a chosen theme are practice: they are not rated."));
  if (p.mode === "streak") return h("p", {id: "rating", class: "muted"}, t("A streak is not rated: it counts the puzzles you solve in a row."));
  const standing = state.info && state.info.standing;
  return standing ? h("p", {id: "rating"}, t("Your puzzle rating: {rating}", {rating: ratingWords(standing)})) : null;
}

function panel() {
  const p = state.puzzle;
  const last = state.answers[state.answers.length - 1];
  const mistake = p.mistake ? t("{name} has just played {action}, a mistake: find how to make it count.", {name: name(p.mistake.seat), action: actionText(p.mistake.action)}) : null;
  const asked = p.asked ? p.asked.words.map((r) => reasonWords(r, name)).filter(Boolean).join(" ") : "";
  const themes = state.line ? state.line.themes.map((id) => {
    const theme = (state.info.themes || []).find((x) => x.id === id);
    return theme ? tc("words", theme.name) : null;
  }).filter(Boolean) : [];
  const lineBox = state.line ? lineControls() : null;
  return [
    h("h2", {class: "puzzle-title"}, t("Puzzle {id}", {id: p.id}), " ", h("span", {class: "muted"}, t("puzzle rating {rating}", {rating: p.rating}))),
    state.mode === "streak" ? h("p", {class: "streak", id: "streak"}, t("Streak: {n} solved in a row", {n: state.streak}),
      state.attempt && state.attempt.best_streak ? h("span", {class: "muted"}, " \u00b7 ", t("best {n}", {n: state.attempt.best_streak})) : null) : null,
    mistake ? h("p", {class: "mistake"}, said(mistake)) : null,
    asked ? h("p", {class: "muted asked"}, said(asked)) : null,
    state.answers.length > 1 ? h("div", {class: "verdicts"}, h("p", {}, t("Your answers:")), h("ol", {}, state.answers.map((a) => h("li", {class: a.right ? "right" : "wrong"}, said(a.words))))) : null,
    state.error ? h("p", {class: "error", role: "alert"}, state.error) : null,
    ratingLine(),
    last && !last.right && !state.line ? h("p", {class: "muted"}, t("Try again, or see the solution.")) : null,
    lineBox,
    themes.length ? h("p", {class: "themes"}, t("Themes: {themes}", {themes: themes.join(", ")})) : null,
    options(),
    h("p", {}, h("a", {href: puzzlePage()}, t("Every game's puzzles"))),
  ];
}

function lineControls() {
  const line = state.line;
  const intro = h("p", {class: "answer"}, said(t("The answer: {answer}.", {answer: actionText(line.solution)})));
  if (!line.steps.length) {
    const w = line.worlds || {};
    return h("div", {class: "line"}, intro, w.worlds ? h("p", {}, said(t("In {better} of the {n} deals you cannot tell apart that it was measured on, {answer} does better than every other play; in {worse} another play does better.",
      {better: percent(w.better), n: w.worlds, answer: actionText(line.solution), worse: percent(w.worse)}))) : null);
  }
  const at = state.line.steps[state.step];
  return h("div", {class: "line"}, intro,
    h("p", {}, t("The line, the others playing against you:")),
    h("nav", {class: "replay-controls", "aria-label": t("steps")},
      h("button", {type: "button", dataset: {action: "back"}, disabled: state.step < 0, onclick: () => go(state.step - 1), "aria-label": t("step back")}, t("\u25c0 Back")),
      h("span", {class: "step-count"}, state.step < 0
        ? tn("The puzzle's position: {n} step follows", "The puzzle's position: {n} steps follow", line.steps.length)
        : t("Step {step} of {steps}", {step: state.step + 1, steps: line.steps.length})),
      h("button", {type: "button", dataset: {action: "forward"}, disabled: state.step >= line.steps.length - 1, onclick: () => go(state.step + 1), "aria-label": t("step forward")}, t("Forward \u25b6"))),
    at ? h("ol", {class: "step-words"}, stepWords(at).map((w) => h("li", {}, said(w)))) : null,
    at ? factList(state.puzzle.game, at.view, name) : null);
}

function options() {
  const info = state.info;
  if (!info) return null;
  const select = (id, label, value, choices, onchange) => h("div", {class: "field"},
    h("label", {for: id}, label),
    h("select", {id, onchange: (e) => onchange(e.target.value)}, choices.map(([v, words]) => h("option", {value: v, selected: v === value}, words))));
  return h("details", {class: "puzzle-options", open: state.error !== null},
    h("summary", {}, t("Choose puzzles")),
    select("mode", t("Mode"), state.mode, [["rated", t("Puzzles near my rating")], ["streak", t("Streak: harder and harder until a miss")]], (v) => {
      state.mode = v;
      if (!state.kept) state.streak = 0; // an account's streak is the server's (offline: this browser's)
      load();
    }),
    select("theme", t("Theme"), state.theme, [["", t("Any theme")], ...info.themes.map((x) => [x.id, `${tc("words", x.name)} (${x.count})`])], (v) => { state.theme = v; load(); }),
    select("kind", t("Kind"), state.kind, [["", t("Any kind")], ...Object.keys(info.kinds).map((k) => [k, KINDS()[k] ?? k])], (v) => { state.kind = v; load(); }),
    state.mode === "streak" ? null : select("difficulty", t("Difficulty"), state.difficulty, Object.entries(DIFFICULTIES()), (v) => { state.difficulty = v; store.set("puzzleDifficulty", v); load(); }));
}

document.addEventListener("keydown", (event) => {
  if (!state.line || !state.line.steps.length) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return; // the browser's own keys
  const target = event.target;
  if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
  if (target instanceof HTMLElement && target.isContentEditable) return;
  if (event.key === "ArrowRight") { go(state.step + 1); event.preventDefault(); }
  if (event.key === "ArrowLeft") { go(state.step - 1); event.preventDefault(); }
});

start();
