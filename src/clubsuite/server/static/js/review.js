// The review of one seat's decisions in a finished match (/review?table=&match=&seat=[&invite=]): each decision with
// what was done and what the search from the seat's own view would have done, the share of a win it cost, and, in
// the trick games' card play, the tricks it cost with every hand known. Costly decisions are marked; each hand's
// sums come first. The server works it out (GET /tables/{id}/review) in a worker process, which takes a while.

import {api, byId, fill, h, pageTitle} from "./dom.js";
import {said} from "./cards.js";
import {actionLabel} from "./games.js";
import {loadWords, t, tn} from "./i18n.js";
import {applyColours, bar} from "./people.js";

const app = byId("app");
const params = new URLSearchParams(location.search);

let game = "";

/** An action as the table's button says it ("Keep my hand", "Play Q♠"), its cards also read out in words. */
function actionWords(action, phase) {
  return said(actionLabel(game, action, {phase, stage: phase}));
}

function percent(x) {
  return `${Math.round(x * 1000) / 10} %`;
}

function decisionRow(d) {
  const best = d.view.best_action;
  const costly = Boolean(d.mark);
  return h("li", {class: costly ? "decision costly" : "decision"},
    costly ? h("strong", {class: "mark"}, t("Costly:")) : null, " ",
    t("you chose"), " ", h("b", {}, actionWords(d.action, d.phase)),
    best && best !== d.action && d.view.cost > 0 ? [" · ", t("the search prefers"), " ", h("b", {}, actionWords(best, d.phase)),
      " ", h("span", {class: "muted"}, t("({cost} of a win)", {cost: percent(d.view.cost)}))] : [" · ", t("the search agrees")],
    d.double_dummy && d.double_dummy.loss > 0
      ? [" · ", tn("with every hand known: {n} trick lost", "with every hand known: {n} tricks lost", d.double_dummy.loss)] : null);
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("review");
  const table = params.get("table");
  const seat = params.get("seat");
  const query = new URLSearchParams({seat: seat ?? "0"});
  if (params.get("match") !== null) query.set("match", params.get("match"));
  if (params.get("invite")) query.set("invite", params.get("invite"));
  const main = h("main", {class: "people", id: "review", "aria-busy": "true"},
    h("p", {class: "muted", id: "working"}, t("The search is looking at every decision: this takes a little while…")));
  fill(app, await bar(t("Review")), main);
  let review;
  try {
    review = await api(`/tables/${encodeURIComponent(table ?? "")}/review?${query}`);
  } catch (err) {
    fill(main, h("p", {role: "alert"}, err.message));
    main.removeAttribute("aria-busy");
    return;
  }
  game = review.game;
  const byHand = new Map();
  for (const d of review.decisions) {
    if (!byHand.has(d.hand)) byHand.set(d.hand, []);
    byHand.get(d.hand).push(d);
  }
  const replay = `/replay?${new URLSearchParams([...params].filter(([k]) => k !== "seat"))}`;
  fill(main,
    h("p", {}, t("Marked: a decision that cost more than {share} of a win by the search's estimate.", {share: percent(review.threshold)}), " ",
      h("a", {href: replay}, t("Replay the match"))),
    review.hands.map((sums) => h("section", {class: "hand-review"},
      h("h2", {}, t("Hand {number}", {number: sums.hand + 1}), " ",
        h("span", {class: "muted"}, tn("{n} costly decision", "{n} costly decisions", sums.mistakes))),
      h("ol", {}, (byHand.get(sums.hand) || []).map(decisionRow)))));
  main.removeAttribute("aria-busy");
}

start();
