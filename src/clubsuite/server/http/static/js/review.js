// @ts-check
// The review of one seat's decisions in a finished match (/review?table=&match=&seat=[&invite=]). Each decision
// is valued by the search from the seat's own view (its share of a win: the chance of winning the match after the
// action, and after the best action) and, in the trick games' card play, by the exact count with every hand known
// (tricks or points). The costliest decisions come first; a stepper goes through every decision like the replay
// viewer, the table drawn as it stood just before (the match is over, so every hand is shown). The server works the
// review out (GET /tables/{id}/review) in a worker process, which takes a while; the table comes from the replay.

import {OFFLINE, account, announce, announcer, api, byId, fill, h, pageTitle} from "./dom.js";
import {cardRow, parseCards, said, sortCards, spokenCards} from "./cards.js";
import {factList, felt, rankOf, shownOf, trickArea, wholeFrames} from "./board.js";
import {loadWords, reasonWords, t, tn} from "./i18n.js";
import {applyColours, bar} from "./people.js";

const app = byId("app");
const params = new URLSearchParams(location.search);
const COSTLIEST = 10;
/** The stepper's buttons, each with the one that takes the focus when it is disabled at an end. */
const STEPPER = {"first-decision": "decision-after", "decision-before": "decision-after",
  "decision-after": "decision-before", "last-decision": "decision-before"};

let review = null;
let replay = null;
let at = 0;
let main = null;

/** An action of decision ``d`` as the table's button says it ("Keep my hand", "Play Q♠"), as the game words it,
 * its cards also read out in words. */
function actionWords(action, d) {
  const label = (d.labels || {})[action];
  return said((label && reasonWords(label)) || action);
}

function percent(x) {
  return `${Math.round(x * 1000) / 10} %`;
}

/** A seat as the table showed it: a bot's with its level in words ("Cleo", "normal bot"). */
function seatInfo(seat) {
  const level = replay && Array.isArray(replay.levels) ? replay.levels[seat] : null;
  return {kind: level ? "bot" : "person", level, name: name(seat), taken: true, connected: true};
}

function name(seat) {
  const own = replay && replay.seats ? replay.seats[seat] : null;
  if (!own) return t("Seat {number}", {number: seat + 1});
  // a record may name several seats alike (three "random" bots): each is told apart by its seat
  return replay.seats.filter((n) => n === own).length > 1 ? t("{name} (seat {number})", {name: own, number: seat + 1}) : own;
}

/** Step to decision ``i`` from one of the lists, and bring the stepper into view (on a phone it is far below). */
function show(i) {
  go(i);
  byId("stepper").scrollIntoView({block: "start"});
}

/** What the exact count measures, in words, for a count of ``n``. */
function countWords(measure, n) {
  if (measure === "points") return tn("{n} point", "{n} points", n);
  return tn("{n} trick", "{n} tricks", n);
}

/** ``text`` (words already in the reader's language) with its placeholders that name ``nodes`` replaced by those
 * elements (cards drawn and read out), wherever the translation puts them. */
function withNodes(text, nodes) {
  return text.split(/(\{\w+\})/).filter((piece) => piece !== "").map((piece) => {
    const m = /^\{(\w+)\}$/.exec(piece);
    return m && nodes[m[1]] !== undefined ? nodes[m[1]] : piece;
  });
}

/** The exact judge's line: what the action taken makes with every hand known, and what the best card makes. */
function exactLine(d) {
  const dd = d.double_dummy;
  if (!dd) return null;
  const aim = dd.measure === "fewest" ? t("aiming to take as few tricks as possible") : dd.measure === "points"
    ? t("counting the hand's points") : t("aiming to take as many tricks as possible");
  const best = dd.best_actions.flatMap((a, i) => (i ? [", ", actionWords(a, d)] : [actionWords(a, d)]));
  return h("p", {class: "exact"},
    withNodes(t("With every hand known ({aim}): your choice makes {taken}; the best ({best}) makes {most}.",
      {aim, taken: countWords(dd.measure, dd.taken), most: countWords(dd.measure, dd.best), best: "{best}"}), {best}),
    dd.loss > 0 ? [" ", h("strong", {}, dd.measure === "points" ? tn("{n} point lost.", "{n} points lost.", dd.loss)
      : tn("{n} trick lost.", "{n} tricks lost.", dd.loss))] : null);
}

/** The current decision: what was chosen, its value and the best one's, and the table just before it. */
function detail(d) {
  const v = d.view;
  const agrees = !v.best_action || v.best_action === d.action || v.cost <= 0;
  return h("div", {class: d.mark ? "decision-detail costly" : "decision-detail", id: "decision-detail"},
    h("p", {}, t("You chose"), " ", h("b", {}, actionWords(d.action, d)), ": ",
      t("your chance of winning the match after it, by the search: {share}.", {share: percent(v.taken)})),
    agrees ? h("p", {}, t("The search agrees: nothing better was found."))
      : h("p", {}, t("The search prefers"), " ", h("b", {}, actionWords(v.best_action, d)), ": ",
        t("{share} after it, so your choice cost {cost} of a win.", {share: percent(v.best), cost: percent(v.cost)}),
        d.mark ? [" ", h("strong", {class: "mark"}, t("Costly."))] : null),
    exactLine(d));
}

/** The replay's frame just before decision ``d`` (after the first ``action_index`` actions of its hand), or null. */
function frameOf(d) {
  if (!replay) return null;
  const first = replay.frames.findIndex((f) => f.hand === d.hand);
  return first < 0 ? null : replay.frames[first + d.action_index] || null;
}

/** The table as it stood just before decision ``d``, with its facts (dealer, contract, scores so far). */
function board(d) {
  const frame = frameOf(d);
  if (!frame) return null;
  const view = frame.view;
  const n = frame.hands.length;
  return [felt({game: review.game, view, me: null, name, clock: null,
    seats: Array.from({length: n}, (_, s) => seatInfo(s)),
    middle: trickArea({game: review.game, view, me: null, name}),
    cardsOf: (s) => cardRow(sortCards(parseCards(frame.hands[s] || ""), {by: shownOf(view).sort, rank: rankOf(view)}), "open")}),
  factList(review.game, view, name)];
}

function go(i) {
  const was = at;
  at = Math.max(0, Math.min(review.decisions.length - 1, i));
  draw();
  if (at !== was) announce(spokenCards(byId("decision-detail").textContent));
}

function keys(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const moves = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: review.decisions.length - 1};
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
}

/** The costliest decisions, most costly first: each a button that steps to it. */
function costliest() {
  const costly = review.decisions.map((d, i) => ({d, i})).filter(({d}) => d.view.cost > 0)
    .sort((a, b) => b.d.view.cost - a.d.view.cost || a.i - b.i).slice(0, COSTLIEST);
  return h("section", {id: "costliest"},
    h("h2", {}, t("Costliest decisions first")),
    costly.length === 0 ? h("p", {}, t("The search found no decision that cost anything."))
      : h("ol", {}, costly.map(({d, i}) => h("li", {},
        h("button", {type: "button", class: "link-button costly-step", dataset: {step: String(i), cost: String(d.view.cost)}, onclick: () => show(i)},
          t("Hand {number}", {number: d.hand + 1}), ": ", actionWords(d.action, d), " \u2192 ", actionWords(d.view.best_action, d),
          " ", h("span", {class: "muted"}, t("({cost} of a win)", {cost: percent(d.view.cost)})))))));
}

/** A decision's line in its hand's list: what was chosen, what the search prefers and what it cost. */
function decisionLine(d, i) {
  const dd = d.double_dummy;
  const lost = dd && dd.loss > 0 ? [" \u00b7 ", dd.measure === "points"
    ? tn("with every hand known: {n} point lost", "with every hand known: {n} points lost", dd.loss)
    : tn("with every hand known: {n} trick lost", "with every hand known: {n} tricks lost", dd.loss)] : null;
  const search = d.view.cost > 0
    ? [" \u00b7 ", t("the search prefers"), " ", actionWords(d.view.best_action, d), " ",
      h("span", {class: "muted"}, t("({cost} of a win)", {cost: percent(d.view.cost)}))]
    : [" \u00b7 ", t("the search agrees")];
  const button = h("button", {type: "button", class: "link-button", "aria-current": i === at ? "step" : null, onclick: () => show(i)},
    d.mark ? h("strong", {class: "mark"}, t("Costly:")) : null, " ", actionWords(d.action, d), search, lost);
  return h("li", {class: d.mark ? "decision costly" : "decision"}, button);
}

/** Each hand's sums and its decisions in order, each a button that steps to it. */
function hands() {
  const byHand = new Map();
  review.decisions.forEach((d, i) => {
    if (!byHand.has(d.hand)) byHand.set(d.hand, []);
    byHand.get(d.hand).push(decisionLine(d, i));
  });
  return review.hands.map((sums) => h("section", {class: "hand-review"},
    h("h2", {}, t("Hand {number}", {number: sums.hand + 1}), " ",
      h("span", {class: "muted"}, tn("{n} costly decision", "{n} costly decisions", sums.mistakes), " \u00b7 ",
        t("{cost} of a win in all", {cost: percent(sums.cost)}))),
    h("ol", {}, byHand.get(sums.hand) || [])));
}

function draw() {
  const focused = document.activeElement && document.activeElement.id;
  const d = review.decisions[at];
  const last = review.decisions.length - 1;
  const replayLink = `${OFFLINE ? "replay.html" : "/replay"}?${new URLSearchParams([...params].filter(([k]) => k !== "seat"))}`;
  fill(main,
    h("p", {class: "reviewed"}, t("The decisions of {name}.", {name: name(review.seat)})),
    h("p", {}, t("Marked: a decision that cost more than {share} of a win by the search's estimate.", {share: percent(review.threshold)}), " ",
      h("a", {href: replayLink}, t("Replay the match"))),
    review.exact ? null : h("p", {class: "muted", id: "no-exact"},
      t("This is a climbing game: there is no exact count with every hand known, so each decision is valued by the search alone.")),
    costliest(),
    ownPuzzles(),
    h("section", {id: "stepper", "aria-label": t("every decision, one at a time")},
      h("nav", {class: "replay-controls", "aria-label": t("decisions")},
        h("button", {type: "button", onclick: () => go(0), disabled: at === 0, "aria-label": t("first decision"), id: "first-decision"}, t("\u00ab First")),
        h("button", {type: "button", onclick: () => go(at - 1), disabled: at === 0, "aria-label": t("decision before"), id: "decision-before"}, t("\u25c0 Back")),
        h("span", {class: "step-count", role: "status"}, t("Decision {step} of {steps} \u00b7 hand {number}", {step: at + 1, steps: last + 1, number: d.hand + 1})),
        h("button", {type: "button", onclick: () => go(at + 1), disabled: at === last, "aria-label": t("decision after"), id: "decision-after"}, t("Forward \u25b6")),
        h("button", {type: "button", onclick: () => go(last), disabled: at === last, "aria-label": t("last decision"), id: "last-decision"}, t("Last \u00bb"))),
      detail(d),
      h("div", {class: "board review-board"}, board(d))),
    hands());
  // the stepper is drawn again at each step: its button keeps the focus (or, disabled at an end, the other one)
  const other = STEPPER[focused];
  if (other) {
    const again = /** @type {HTMLButtonElement} */ (byId(focused));
    (again && !again.disabled ? again : byId(other))?.focus({preventScroll: true});
  }
}

let me = null; // the signed-in account: the player of the seat may make puzzles of its missed decisions
let made = null; // what making them answered: {puzzles}, or {error}
let making = false;

/** "Make puzzles of my mistakes": for a signed-in player, once the review is done (the server checks the seat is
 * theirs); then the puzzles made, each a link to play it. */
function ownPuzzles() {
  if (!me || params.get("match") === null) return null;
  const body = {seat: Number(params.get("seat") ?? "0"), match: Number(params.get("match"))};
  if (params.get("invite")) body.invite = params.get("invite");
  const ask = async () => {
    making = true;
    draw();
    try {
      made = await api(`/tables/${encodeURIComponent(params.get("table") ?? "")}/puzzles`, body);
    } catch (err) {
      made = {error: err.message};
    }
    making = false;
    draw();
    announce(byId("own-puzzles").textContent);
  };
  let result = null;
  if (made && made.error) result = h("p", {role: "alert"}, made.error);
  else if (made && !made.puzzles.length) result = h("p", {}, t("No puzzle: where you missed the best play, it was not clearly the best."));
  else if (made) {
    result = [h("p", {}, tn("{n} puzzle made of your mistakes, yours alone:", "{n} puzzles made of your mistakes, yours alone:", made.puzzles.length)),
      h("ul", {}, made.puzzles.map((p, i) => h("li", {}, h("a", {href: `/puzzle/${encodeURIComponent(p.pool)}?id=${encodeURIComponent(p.id)}`},
        t("Puzzle {number}", {number: i + 1})))))];
  }
  return h("section", {id: "own-puzzles", "aria-busy": making ? "true" : "false"},
    made && !made.error ? null : h("button", {type: "button", id: "make-puzzles", disabled: making, onclick: ask}, t("Make puzzles of my mistakes")),
    making ? h("p", {class: "muted"}, t("Looking at every decision you missed: this takes a little while…")) : null,
    result);
}

async function start() {
  applyColours();
  me = await account();
  await loadWords();
  pageTitle("review");
  announcer();
  const table = params.get("table");
  const query = new URLSearchParams({seat: params.get("seat") ?? "0"});
  const rest = new URLSearchParams();
  if (params.get("match") !== null) rest.set("match", params.get("match"));
  if (params.get("invite")) rest.set("invite", params.get("invite"));
  for (const [k, v] of rest) query.set(k, v);
  main = h("main", {class: "people review", id: "review", "aria-busy": "true"},
    h("p", {class: "muted", id: "working"}, t("The search is looking at every decision: this takes a little while…")));
  fill(app, await bar(t("Review")), main);
  const path = `/tables/${encodeURIComponent(table ?? "")}`;
  try {
    review = await api(`${path}/review?${query}`);
  } catch (err) {
    fill(main, h("p", {role: "alert"}, err.message));
    main.removeAttribute("aria-busy");
    return;
  }
  try {  // the table at each decision: asked once the review is done (one replay at a time for an address)
    replay = wholeFrames(await api(`${path}/replay${rest.toString() ? `?${rest}` : ""}`));
  } catch {
    replay = null;  // the review stands without the table drawn
  }
  if (review.decisions.length === 0) {
    fill(main, h("p", {}, t("This seat had no choice to make in this match.")));
  } else {
    document.addEventListener("keydown", keys);
    draw();
  }
  main.removeAttribute("aria-busy");
}

start();
