// @ts-check
// A club night (/clubnight/{id}): a host's duplicate tournament. Without an id: the form that makes one (signed in).
// With one: who hosts it, the game, the entrants (and a form to enter before the first round), each round's tables
// (who sits where), the host's button for the next round, the entrant's way to their table, and the standings after
// every round (match points as a share of the most one could have had), with the CSV and JSON downloads.

import {account, api, byId, fill, h, pageTitle, store} from "./dom.js";
import {loadWords, t, tn} from "./i18n.js";
import {applyColours, bar, gameLabel} from "./people.js";
import {kept, patch} from "./patch.js";

const app = byId("app");
const REFRESH_MS = 3000;
const nightId = decodeURIComponent(location.pathname.split("/")[2] || "");
let games = [];
let me = null;
let hostProblem = ""; // the host's last refusal: kept through the page's refreshes until the next try
let hostBusy = false; // the host's last press is being sent: the buttons stay disabled through the refreshes
let hostRefusals = 0; // each refusal is said in an alert of its own, read aloud once
let entryForm = null; // the guest's entry form, made once: what is typed in it survives the page's refreshes

/** A club night's refusal in the reader's language, by its code (the server's words for another). */
function nightWords(err) {
  switch (err.code) {
    case "too_few": return t("A club night needs at least two entrants: add a bot, or wait for another player.");
    case "started": return t("This club night has begun: entries are closed.");
    case "full": return t("Every seat at this club night's tables is taken.");
    case "already_entered": return t("You have entered this club night already.");
    case "name_taken": return t("An entrant has that name, or one that looks the same: choose another.");
    case "not_host": return t("Only the club night's host does that.");
    case "round_in_play": return t("The round in play has not ended at every table yet.");
    case "over": return t("Every round of this club night has been played.");
    case "entries_changing": return t("People were entering while the round was seated: start it again.");
    default: return err.message;
  }
}

function createForm() {
  const pick = h("select", {id: "night-game"}, games.map((g) => h("option", {value: g.name}, gameLabel(games, g.name))));
  const tables = h("input", {id: "night-tables", type: "number", min: "2", max: "20", value: "2"});
  const rounds = h("input", {id: "night-rounds", type: "number", min: "1", max: "10", value: "1"});
  const pairing = h("select", {id: "night-pairing"},
    h("option", {value: "swiss"}, t("Swiss: from round 2, players of like results are compared")),
    h("option", {value: "random"}, t("A fresh draw each round")));
  const pace = h("input", {id: "night-pace", type: "number", min: "0", max: "10", step: "any", value: "0.5"});
  const problem = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel", novalidate: true, "aria-labelledby": "night-title"},
    h("h2", {id: "night-title"}, t("Host a club night")),
    h("p", {class: "lead"}, t("Every table plays the same deals in the same seats; each seat is compared with the same seat at the other tables, deal by deal, so the luck of the cards cancels out.")),
    h("div", {class: "field"}, h("label", {for: "night-game"}, t("Game")), pick),
    h("div", {class: "field"}, h("label", {for: "night-tables"}, t("Tables")), tables, h("small", {}, t("from 2 to 20"))),
    h("div", {class: "field"}, h("label", {for: "night-rounds"}, t("Rounds")), rounds, h("small", {}, t("from 1 to 10"))),
    h("div", {class: "field"}, h("label", {for: "night-pairing"}, t("Seating")), pairing),
    h("div", {class: "field"}, h("label", {for: "night-pace"}, t("Seconds a bot waits before acting")), pace),
    h("button", {type: "submit", class: "primary"}, t("Host it")), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    try {
      const night = await api("/clubnights", {game: pick.value, tables: Number(tables.value), rounds: Number(rounds.value), pairing: pairing.value, bot_delay: Number(pace.value)});
      location.href = `/clubnight/${encodeURIComponent(night.id)}`;
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  return form;
}

function standingsTable(night) {
  if (!night.standings.length) return h("p", {class: "muted"}, t("No entrants yet."));
  return h("div", {class: "scroll"}, h("table", {class: "standings", id: "standings"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Place")), h("th", {scope: "col"}, t("Player")),
      h("th", {scope: "col"}, t("Match points")), h("th", {scope: "col"}, t("Share")), h("th", {scope: "col"}, t("Points")))),
    h("tbody", {}, night.standings.map((r) => h("tr", {},
      h("td", {}, r.place), h("th", {scope: "row"}, r.name),
      h("td", {}, t("{got} of {most}", {got: r.match_points, most: r.most})),
      h("td", {}, `${Math.round(r.share * 1000) / 10} %`), h("td", {}, r.points))))));
}

/** The form that enters the club night, made once for the page's life: the page refreshes every few seconds, and a
 * name being typed keeps its letters and the focus through each refresh (patch.js puts it in place as it is). */
function entryFormOnce() {
  const name = h("input", {id: "entrant-name", maxlength: "24", value: me ? me.name : store.get("name", ""), readonly: Boolean(me)});
  let problem = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel", novalidate: true},
    h("div", {class: "field"}, h("label", {for: "entrant-name"}, t("Your name")), name),
    h("button", {type: "submit", class: "primary", id: "enter"}, t("Enter the club night")), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const entered = await api(`/clubnights/${encodeURIComponent(nightId)}/enter`, me ? {} : {name: name.value.trim()});
      store.set(`night.${nightId}`, entered);
      problem.textContent = "";
      draw();
    } catch (err) {
      // a new alert each time, so that the same refusal twice is read aloud twice
      const said = h("p", {class: "error", role: "alert"}, nightWords(err));
      problem.replaceWith(said);
      problem = said;
    }
  });
  return form;
}

async function seatPart(night) {
  const mine = store.get(`night.${nightId}`);
  if (!mine) {
    if (night.played.length) return null;
    if (!entryForm) entryForm = entryFormOnce();
    return kept(entryForm);
  }
  if (!night.played.length) return h("p", {id: "entered"}, t("You have entered. The host starts the first round."));
  const seat = await api(`/clubnights/${encodeURIComponent(nightId)}/seat`, {token: mine.token});
  if (!seat.table) return h("p", {class: "muted"}, t("You have no seat in this round."));
  store.set(`seat.${seat.table}`, {token: seat.token, seat: seat.seat});
  const round = night.played[night.played.length - 1];
  return round.done ? null : h("p", {}, h("a", {href: `/table/${encodeURIComponent(seat.table)}`, class: "button-link primary", id: "my-table"},
    t("Go to your table (round {number}, seat {seat})", {number: round.number, seat: seat.seat + 1})));
}

function hostPart(night) {
  if (!me || me.name !== night.host || night.over) return null;
  const last = night.played[night.played.length - 1];
  if (last && !last.done) return h("p", {class: "muted"}, t("Round {number} is being played.", {number: last.number}));
  // a refusal stays through the refreshes (patched in place: not announced again)
  const problem = h("p", {class: "error", "data-key": `host-problem-${hostRefusals}`, role: "alert"}, hostProblem);
  const few = night.entrants.length < night.least_entrants;
  const button = h("button", {type: "button", class: "primary", id: "next-round", disabled: few || hostBusy, "aria-describedby": few ? "too-few" : null,
    onclick: (e) => post("rounds", e.currentTarget)}, t("Start round {number}", {number: night.played.length + 1}));
  const post = async (path, what) => {
    if (hostBusy) return;
    hostBusy = true;
    what.disabled = true;
    try {
      await api(`/clubnights/${encodeURIComponent(nightId)}/${path}`, {});
      hostProblem = "";
    } catch (err) {
      hostProblem = nightWords(err);
      hostRefusals += 1;
    } finally {
      hostBusy = false;
      draw();
    }
  };
  const seats = night.seats_per_table * night.tables;
  const addBot = night.played.length || night.entrants.length >= seats ? null
    : h("button", {type: "button", id: "add-bot", disabled: hostBusy, onclick: (e) => post("bots", e.currentTarget)}, t("Add a bot"));
  return h("div", {class: "host-part"},
    few ? h("p", {id: "too-few", class: "muted"}, t("The first round can start once {n} have entered; you may add bots to play.", {n: night.least_entrants})) : null,
    h("div", {class: "summary-actions"}, button, addBot), problem);
}

async function draw() {
  let night;
  try {
    night = await api(`/clubnights/${encodeURIComponent(nightId)}`);
  } catch (err) {
    fill(byId("night"), h("p", {role: "alert"}, err.message));
    return;
  }
  const link = (kind) => `/clubnights/${encodeURIComponent(nightId)}/standings.${kind}`;
  // patched, not drawn anew, at each refresh: what is under the reader's pointer, focus or typing stays as it is
  patch(byId("night"), [
    h("p", {class: "lead"}, t("{host} hosts {game}.", {host: night.host, game: gameLabel(games, night.game.split("(")[0])}), " ",
      tn("{n} table", "{n} tables", night.tables), ", ", tn("{n} round", "{n} rounds", night.rounds), "."),
    h("p", {}, t("Share this page's address with the players."), " ",
      t("At least {n} entrants play; a seat nobody takes at a table is played by a bot.", {n: night.least_entrants})),
    h("h2", {}, t("Entrants")),
    h("p", {id: "entrants"}, night.entrants.length
      ? night.entrants.map((n) => (night.bots.includes(n) ? t("{name} (bot)", {name: n}) : n)).join(", ")
      : t("No entrants yet.")),
    await seatPart(night),
    hostPart(night),
    night.played.map((r) => h("section", {class: "round", "data-key": `round-${r.number}`}, h("h3", {}, t("Round {number}", {number: r.number}), " ",
      r.done ? h("span", {class: "tag"}, t("done")) : null),
      h("ol", {}, r.tables.map((seats) => h("li", {}, seats.map((n) => n || t("bot")).join(" · ")))))),
    h("h2", {}, night.over ? t("Final standings") : t("Standings")),
    standingsTable(night),
    h("p", {}, h("a", {href: link("csv"), download: `clubnight-${nightId}.csv`}, t("Download (CSV)")), " ",
      h("a", {href: link("json"), download: `clubnight-${nightId}.json`}, t("Download (JSON)")))]);
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("clubnight");
  try {
    games = await api("/games");
  } catch (err) {
    fill(app, await bar(t("Club night")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message)));
    return;
  }
  me = await account();
  if (!nightId) {
    fill(app, await bar(t("Club night")), h("main", {class: "people"},
      me ? createForm() : h("p", {class: "panel"}, t("Sign in to host a club night (the bar above); to enter one, open the address its host shares."))));
    return;
  }
  fill(app, await bar(t("Club night")), h("main", {class: "people", id: "night"}));
  await draw();
  setInterval(draw, REFRESH_MS);
}

start();
