// @ts-check
// Tournaments (/tournament): the list of arenas, Swiss tournaments and club nights (upcoming with a countdown,
// running, finished), kept up to date over the page's socket, and the form that makes one (signed in). One
// tournament (/tournament/{id}): its kind, game and times, joining and withdrawing, the host's start, your own line
// and your table, and the standings, pushed over the socket as they change (never polled), with the downloads.

import {account, api, byId, fill, h, pageTitle} from "./dom.js";
import {kept, patch} from "./patch.js";
import {loadWords, t, tn} from "./i18n.js";
import {applyColours, bar, gameLabel, when} from "./people.js";
import {followSeatsWhen, goToSeat, on, serverNow, startNotices, watch} from "./live.js";
import {inviteForm} from "./together.js";

const app = byId("app");
const tournamentId = decodeURIComponent(location.pathname.split("/")[2] || "");
let games = [];
let me = null;
let shown = null; // the tournament as last pushed
let mine = null; // the signed-in entrant's own line, as last pushed
let problemText = ""; // the last refusal, kept through redraws
let refusals = 0; // how many refusals the page has shown: each is said in an alert of its own, read aloud once
let invitingForm = null; // one form for the page's life: what is typed in it survives the pushes' redraws
let seatNow = null; // the signed-in entrant's table when the page was opened (a new one is pushed, and followed)

/** A tournament's refusal in the reader's language, by its code (the server's words for another). */
function refusalWords(err) {
  switch (err.code) {
    case "too_many_tournaments": return t("You have three tournaments that are not over, the most you may have.");
    case "already_entered": return t("You have entered this tournament already.");
    case "not_entered": return t("You are not playing in this tournament.");
    case "over": return t("This tournament is over.");
    case "last_round": return t("The last round has begun: entries are closed.");
    case "full": return t("This tournament is full.");
    case "not_host": return t("Only the tournament's host does that.");
    case "started": return t("This tournament has started already.");
    case "too_many_today": return t("You have made as many tournaments today as an account may: make the next one tomorrow.");
    case "too_many_tables": return t("Your address has as many tables and tournaments with searching bots as it may: choose a faster bot level.");
    default: return err.message;
  }
}

/** A kind of tournament in words. */
function kindWords(format) {
  switch (format) {
    case "arena": return t("Arena");
    case "swiss": return t("Swiss");
    case "clubnight": return t("Club night");
    default: return format;
  }
}

/** What each table of a tournament plays, in words. */
function unitWords(unit) {
  switch (unit) {
    case "hand": return t("one hand a table");
    case "short": return t("a short match a table");
    default: return t("a whole match a table");
  }
}

/** A length of time as h:mm:ss or m:ss. */
function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** Where a tournament stands, in words (a countdown ticks in the page). */
function statusWords(x) {
  const now = serverNow();
  if (x.status === "over") return x.cancelled ? t("Cancelled") : t("Over");
  if (x.finishing) return t("Time is up: the last tables are finishing");
  if (x.status === "open") {
    return x.starts_at ? t("Starts in {time}", {time: clock(x.starts_at - now)}) : t("Waiting for its host to start it");
  }
  if (x.format === "arena" && x.ends_at) return t("Ends in {time}", {time: clock(x.ends_at - now)});
  if (x.rounds) return t("Round {number} of {rounds}", {number: x.round, rounds: x.rounds});
  return t("Running");
}

function href(x) {
  return x.format === "clubnight" ? `/clubnight/${encodeURIComponent(x.id)}` : `/tournament/${encodeURIComponent(x.id)}`;
}

function listItem(x) {
  const what = [kindWords(x.format), gameLabel(games, x.game.split("(")[0])];
  if (x.format !== "clubnight") what.push(unitWords(x.unit));
  if (x.rated) what.push(t("rated"));
  return h("li", {class: "event", "data-key": x.id},
    h("a", {href: href(x)}, x.name), " ",
    h("span", {class: "muted"}, what.join(" · ")), " ",
    h("span", {class: "tag countdown", "data-id": x.id}, statusWords(x)), " ",
    h("span", {class: "muted"}, tn("{n} player", "{n} players", x.entrants)));
}

/** The list of tournaments: upcoming, running, finished. */
function listSection(list) {
  const groups = [
    [t("Running now"), list.filter((x) => x.status === "running")],
    [t("Upcoming"), list.filter((x) => x.status === "open")],
    [t("Finished"), list.filter((x) => x.status === "over")],
  ];
  return h("section", {class: "panel", id: "events", "aria-labelledby": "events-title"},
    h("h2", {id: "events-title"}, t("Tournaments")),
    list.length ? groups.filter(([, xs]) => xs.length).map(([title, xs]) => h("div", {"data-key": title},
      h("h3", {}, title), h("ul", {class: "events"}, xs.map(listItem))))
      : h("p", {class: "muted"}, t("No tournaments yet.")));
}

function createForm() {
  const kind = h("select", {id: "t-format"},
    h("option", {value: "arena"}, t("Arena: as many tables as you can in the time; whoever is free is seated again at once")),
    h("option", {value: "swiss"}, t("Swiss: everyone plays every round, against players of like score not met before")));
  const pick = h("select", {id: "t-game"}, games.map((g) => h("option", {value: g.name}, gameLabel(games, g.name))));
  const name = h("input", {id: "t-name", maxlength: "60", placeholder: t("optional")});
  const minutes = h("input", {id: "t-minutes", type: "number", min: "5", max: "240", value: "30"});
  const rounds = h("input", {id: "t-rounds", type: "number", min: "1", max: "15", value: "5"});
  const unit = h("select", {id: "t-unit"});
  const unitWarning = h("p", {class: "warning", id: "t-unit-warning", role: "status"});
  const unitsOf = () => (games.find((g) => g.name === pick.value) || {}).units || {match: 0};
  let unitChosen = false; // the maker's own choice is kept; until then the kind's default (an arena one hand)
  const rated = h("input", {id: "t-rated", type: "checkbox"});
  const showUnits = () => {
    const units = rated.checked ? {match: unitsOf().match || 0} : unitsOf(); // only a whole match is rated
    const wanted = unitChosen && unit.value in units ? unit.value
      : kind.value === "arena" && "hand" in units ? "hand" : "short" in units ? "short" : "match";
    fill(unit, ["hand", "short", "match"].filter((u) => u in units).map((u) =>
      h("option", {value: u, selected: u === wanted}, units[u] ? t("{unit} (about {n} min)", {unit: unitWords(u), n: units[u]}) : unitWords(u))));
    unit.value = wanted;
    const about = units[unit.value] || 0;
    unitWarning.textContent = [
      rated.checked ? t("A rated tournament's tables play whole matches: only a whole match is rated.") : "",
      kind.value === "arena" && Number(minutes.value) < about
        ? t("The arena is shorter than one table (about {n} minutes): each player would finish one table at most.", {n: about}) : "",
    ].filter(Boolean).join(" ");
  };
  rated.addEventListener("change", showUnits);
  unit.addEventListener("change", () => { unitChosen = true; showUnits(); });
  pick.addEventListener("change", showUnits);
  minutes.addEventListener("input", showUnits);
  const minutesField = h("div", {class: "field"}, h("label", {for: "t-minutes"}, t("Minutes")), minutes, h("small", {}, t("from 5 to 240")));
  const roundsField = h("div", {class: "field", hidden: true}, h("label", {for: "t-rounds"}, t("Rounds")), rounds, h("small", {}, t("from 1 to 15")));
  const bots = h("input", {id: "t-bots", type: "checkbox", checked: true});
  const startsAt = h("input", {id: "t-starts", type: "datetime-local"});
  const problem = h("p", {class: "error", role: "alert"});
  kind.addEventListener("change", () => {
    minutesField.hidden = kind.value !== "arena";
    roundsField.hidden = kind.value === "arena";
    showUnits();
  });
  showUnits();
  const form = h("form", {class: "panel", novalidate: true, "aria-labelledby": "t-title"},
    h("h2", {id: "t-title"}, t("Make a tournament")),
    h("div", {class: "field"}, h("label", {for: "t-format"}, t("Kind")), kind),
    h("div", {class: "field"}, h("label", {for: "t-game"}, t("Game")), pick),
    h("div", {class: "field"}, h("label", {for: "t-name"}, t("Name")), name),
    minutesField, roundsField,
    h("div", {class: "field"}, h("label", {for: "t-unit"}, t("Each table plays")), unit, unitWarning),
    h("div", {class: "field check"}, rated, h("label", {for: "t-rated"}, t("Rated"))),
    h("div", {class: "field check"}, bots, h("label", {for: "t-bots"}, t("Bots fill a table that would be short (their seats score for nobody)"))),
    h("div", {class: "field"}, h("label", {for: "t-starts"}, t("Starts at")), startsAt, h("small", {}, t("leave empty to start it yourself"))),
    h("button", {type: "submit", class: "primary"}, t("Make it")), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const body = {format: kind.value, game: pick.value, rated: rated.checked, bots: bots.checked, unit: unit.value};
    if (name.value.trim()) body.name = name.value.trim();
    if (kind.value === "arena") body.minutes = Number(minutes.value); else body.rounds = Number(rounds.value);
    if (startsAt.value) body.starts_at = new Date(startsAt.value).getTime() / 1000;
    try {
      const made = await api("/tournaments", body);
      location.href = `/tournament/${encodeURIComponent(made.id)}`;
    } catch (err) {
      problem.textContent = refusalWords(err);
    }
  });
  return form;
}

function standingsTable(x) {
  if (!x.standings.length) return h("p", {class: "muted", "data-key": "standings"}, t("No entrants yet."));
  const tie = x.format === "arena";
  // a region the keyboard reaches: on a phone the table may scroll sideways
  return h("div", {class: "scroll", "data-key": "standings", tabindex: "0", role: "region", "aria-labelledby": "standings-title"}, h("table", {class: "standings", id: "standings"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Place")), h("th", {scope: "col"}, t("Player")),
      h("th", {scope: "col"}, t("Points")), h("th", {scope: "col"}, t("Tables")), h("th", {scope: "col"}, t("Wins")),
      h("th", {scope: "col"}, tie ? t("Points per table") : t("Opponents' points")), h("th", {scope: "col"}, t("Rating")))),
    h("tbody", {}, x.standings.map((r) => h("tr", {class: r.active ? "" : "paused"},
      h("td", {}, r.place),
      h("th", {scope: "row"}, r.name, r.fire ? h("span", {class: "tag fire", title: t("On a streak: the next table counts double")}, t("streak")) : null,
        r.active ? null : h("span", {class: "muted"}, " ", t("(paused)"))),
      h("td", {}, r.points), h("td", {}, r.tables), h("td", {}, r.wins),
      h("td", {}, tie ? r.performance : r.buchholz), h("td", {}, r.rating))))));
}

async function act(path) {
  try {
    const now = await api(`/tournaments/${encodeURIComponent(tournamentId)}/${path}`, {});
    problemText = "";
    shown = now;
    mine = now.me || null;
    if (path !== "join") seatNow = null;
  } catch (err) {
    problemText = refusalWords(err);
    refusals += 1;
  }
  draw();
}

/** Follow a table seated while the page was opening. Its notice is pushed once, and a push that came before the
 * page's socket was open is only kept (shown as a link): so at the first push of the tournament to this entrant, at
 * a new round and once a table of theirs has ended, a page waiting for a table (or whose table ended) asks for its
 * seat again and goes to a new table as a pushed notice would have taken it. Never for an entrant who paused or
 * withdrew (their table in play stays theirs, and they chose to be away from it). */
let asking = false;
async function followIfSeated(ended) {
  const waiting = !(seatNow && seatNow.table);
  if (asking || !mine || !mine.active || !shown || shown.status !== "running" || !(waiting || ended)) return;
  asking = true;
  try {
    const seat = await api(`/tournaments/${encodeURIComponent(tournamentId)}/seat`);
    if (seat.table && seat.table !== (seatNow && seatNow.table)) {
      seatNow = seat;
      goToSeat(seat);
    }
  } catch { /* the kept notice still links to it */ } finally {
    asking = false;
  }
}

async function myPart(x) {
  if (!me) return h("p", {class: "muted"}, t("Sign in to play in a tournament (the bar above)."));
  const parts = [];
  if (x.status !== "over") {
    if (!mine || !mine.active) parts.push(h("button", {type: "button", class: "primary", id: "t-join", onclick: () => act("join")}, mine ? t("Come back") : t("Join")));
    else parts.push(h("button", {type: "button", id: "t-withdraw", onclick: () => act("withdraw")}, x.format === "arena" && x.status === "running" ? t("Pause") : t("Withdraw")));
    if (x.host && x.status === "open") parts.push(h("button", {type: "button", id: "t-start", onclick: () => act("start")}, t("Start now")));
  }
  let line = null;
  if (x.status === "over" && mine) {
    line = h("p", {id: "t-me"}, mine.tables
      ? [t("This tournament is over. You finished in place {place}.", {place: mine.place}), " ",
        tn("{n} point", "{n} points", mine.points), " \u00b7 ", tn("{n} table", "{n} tables", mine.tables)]
      : t("This tournament is over. You played no table in it."));
  } else if (mine && !mine.tables) {
    line = h("p", {id: "t-me"}, !mine.active ? t("You have withdrawn.")
      : x.status === "open" ? t("You have entered: you are seated when it starts.") : t("You have entered."));
  } else if (mine) {
    line = h("p", {id: "t-me"}, t("Your place: {place}.", {place: mine.place}), " ",
      tn("{n} point", "{n} points", mine.points), " \u00b7 ", tn("{n} table", "{n} tables", mine.tables),
      mine.fire ? h("span", {}, " ", t("On a streak: the next table counts double")) : null);
  }
  let table = null;
  if (mine && mine.active && x.status === "running") {
    const seat = seatNow || {table: null};
    table = seat.table
      ? h("p", {"data-key": "table"}, h("a", {href: `/table/${encodeURIComponent(seat.table)}`, class: "button-link primary", id: "t-table",
        onclick: (event) => { event.preventDefault(); goToSeat(seat); }}, t("Go to your table")))
      : h("p", {class: "muted", id: "t-waiting"}, t("Waiting for your next table…"));
  }
  return h("div", {class: "my-part"}, line, table, h("div", {class: "summary-actions"}, parts),
    h("p", {class: "error", "data-key": `problem-${refusals}`, role: "alert"}, problemText),
    x.status !== "over" && invitingForm ? kept(invitingForm) : null);
}

async function draw() {
  const x = shown;
  if (!x) return;
  const link = (kind) => `/tournaments/${encodeURIComponent(tournamentId)}/standings.${kind}`;
  const about = [kindWords(x.format), gameLabel(games, x.game.split("(")[0])];
  about.push(x.format === "arena" ? tn("{n} minute", "{n} minutes", x.minutes) : tn("{n} round", "{n} rounds", x.rounds));
  about.push(unitWords(x.unit));
  if (x.rated) about.push(t("rated"));
  if (x.bots) about.push(t("bots fill short tables"));
  // patched, not drawn anew: a push (in an arena, one whenever any table ends) keeps the buttons, links and form
  // under the reader's pointer and focus, so a click begun before it still lands
  patch(byId("tournament"), [
    h("h2", {"data-key": "name"}, x.name),
    h("p", {class: "lead", "data-key": "about"}, about.join(" · ")),
    h("p", {"data-key": "status"}, h("span", {class: "tag countdown", id: "t-status"}, statusWords(x)), " ",
      tn("{n} player", "{n} players", x.entrants),
      x.starts_at && x.status === "open" ? h("span", {class: "muted"}, " · ", when(x.starts_at)) : null),
    await myPart(x),
    h("h2", {id: "standings-title"}, x.status === "over" ? t("Final standings") : t("Standings")),
    standingsTable(x),
    h("p", {"data-key": "downloads"}, h("a", {href: link("csv"), download: `tournament-${tournamentId}.csv`}, t("Download (CSV)")), " ",
      h("a", {href: link("json"), download: `tournament-${tournamentId}.json`}, t("Download (JSON)")))]);
}

/** Keep the countdowns on the page ticking (the times themselves come with the tournament). */
function tick(find) {
  setInterval(() => {
    for (const el of document.querySelectorAll(".countdown")) {
      const x = find(el);
      if (x) el.textContent = statusWords(x);
    }
  }, 1000);
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("tournament");
  try {
    games = await api("/games");
  } catch (err) {
    fill(app, await bar(t("Tournaments")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message)));
    return;
  }
  me = await account();
  // a seat of this tournament is followed only while the entrant plays on (never once they paused or withdrew), as
  // the server says now (the page may not have heard of a pause made elsewhere while its socket was lost)
  followSeatsWhen(async (seat) => {
    if (seat.tournament !== tournamentId) return true;
    try {
      const now = await api(`/tournaments/${encodeURIComponent(tournamentId)}`);
      return Boolean(now.me && now.me.active);
    } catch {
      return false; // the notice stays a link
    }
  });
  startNotices();
  if (!tournamentId) {
    let list = [];
    const listBox = h("div", {id: "events-box"}, listSection(list));
    fill(app, await bar(t("Tournaments")), h("main", {class: "people"}, listBox,
      me ? createForm() : h("p", {class: "panel"}, t("Sign in to make a tournament (the bar above).")),
      h("p", {}, h("a", {href: "/clubnight", id: "host-clubnight"}, t("Host a club night")), " ",
        h("span", {class: "muted"}, t("(a duplicate tournament: every table plays the same deals)")))));
    on("tournaments", (msg) => { list = msg.tournaments; patch(listBox, [listSection(list)]); });
    watch("tournaments");
    tick((el) => list.find((x) => x.id === el.dataset.id));
    return;
  }
  fill(app, await bar(t("Tournaments")), h("main", {class: "people", id: "tournament"}, h("p", {class: "muted"}, t("Loading…"))));
  try {
    shown = await api(`/tournaments/${encodeURIComponent(tournamentId)}`);
    mine = shown.me || null;
    if (mine && shown.status === "running") seatNow = await api(`/tournaments/${encodeURIComponent(tournamentId)}/seat`);
  } catch (err) {
    fill(byId("tournament"), h("p", {role: "alert"}, err.message));
    return;
  }
  if (me) invitingForm = inviteForm({tournament: tournamentId});
  await draw();
  on("tournament", (msg) => {
    if (msg.topic !== `tournament:${tournamentId}`) return;
    const host = shown ? shown.host : false;
    shown = {...msg.tournament, host};
    draw();
  });
  let firstPush = true;
  let roundSeen = shown ? shown.round : null;
  on("tournament_me", (msg) => {
    if (msg.topic !== `tournament:${tournamentId}`) return;
    const ended = Boolean(mine && msg.me && msg.me.tables !== mine.tables);
    const round = shown ? shown.round : null; // the tournament's own push comes just before this one
    const newRound = round !== roundSeen;
    const first = firstPush;
    firstPush = false;
    roundSeen = round;
    mine = msg.me;
    draw();
    if (first || ended || newRound) followIfSeated(ended);
  });
  watch(`tournament:${tournamentId}`);
  tick(() => shown);
}

start();
