// @ts-check
// The lobby: "Play now" (a seat at a table of a game at once, bots filling the rest), the open public tables (each
// named in words, with its host, game, rules, free seats and spectators, filtered by game), a new table made to
// measure, and joining by invite code. Every word a player reads comes from the server (GET /games: labels,
// defaults, choices, variants, bots; a table's name as its parts), in English, and is looked up in the reader's
// language (``worded``, ``tableName``); rule ids only behind a "why?". The server checks everything it is sent; the
// page checks what it can first, so that a value out of range gets a message naming the field, never silence.
// The page's own words are in the reader's language (i18n.js, loaded before the first drawing), with a language
// switch and a link to the rules in the bar.

import {account, api, applyColours, byId, colourToggle, fill, h, pageTitle, store} from "./dom.js";
import {accountBox, poolOf, ratingWords} from "./account.js";
import {levelWords} from "./board.js";
import {cardRow, parseCards} from "./cards.js";
import {language, languageSwitch, loadWords, ruleWords, serverWords, t, tableName, tn} from "./i18n.js";
import {on, serverNow, startNotices, watch} from "./live.js";
import {PACES, TIMEOUTS, paceChoice, paceWords, timeoutChoice} from "./turnwords.js";

const app = byId("app");
const REFRESH_MS = 5000;
const NAME_MAX = 24;
const QUEUE_POLL_MS = 1000;
let games = [];
let me = null;  // the signed-in account, or null
let botRatings = {};  // pool -> level -> rating (GET /ratings)

/** A game of GET /games with every word a person reads in the reader's language (the values stay the spec's). */
function worded(g) {
  const options = {};
  for (const [key, schema] of Object.entries(g.options)) {
    options[key] = {...schema, label: serverWords(schema.label), help: serverWords(schema.help),
      default_label: serverWords(schema.default_label),
      choices: schema.choices ? schema.choices.map((c) => ({...c, label: serverWords(c.label)})) : schema.choices};
  }
  return {...g, label: serverWords(g.label), summary: serverWords(g.summary), options,
    variant_choices: g.variant_choices.map((v) => ({...v, label: serverWords(v.label), description: serverWords(v.description)})),
    bot_choices: g.bot_choices.map((b) => ({...b, label: serverWords(b.label)}))};
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("lobby");
  try {
    games = (await api("/games")).map(worded);
    me = await account();
    botRatings = (await api("/ratings")).bots;
  } catch (err) {
    fill(app, h("main", {class: "panel"}, h("h1", {}, t("Clubs")), h("p", {role: "alert"}, err.message)));
    return;
  }
  const tables = openTables();
  fill(app,
    h("header", {class: "bar lobby-bar"}, h("a", {href: "/", class: "home"}, t("Clubs")), h("h1", {}, t("Play Clubs online")),
      h("a", {href: "/replay"}, t("Replay a record")),
      h("a", {href: "/leaderboard"}, t("Leaderboards")),
      h("a", {href: "/tournament"}, t("Tournaments")),
      h("a", {href: `/rules?lang=${encodeURIComponent(language())}`, class: "rules-link"}, t("How to play")),
      languageSwitch(h), colourToggle(), await accountBox()),
    h("main", {class: "lobby"},
      playNow(),
      me ? playRated() : null,
      h("div", {class: "lobby-side"}, eventsBox(), tables.box, inviteForm()),
      createForm()));
  startNotices();
  offerOffline();
  tables.refresh();
  showPresence();
  setInterval(() => { tables.refresh(); showPresence(); }, REFRESH_MS);
}

/** "Play offline" under "Play now", where this server serves the offline app (``clubs serve`` builds it at ``/app``:
 * GET /offline-app says). */
async function offerOffline() {
  try {
    if ((await api("/offline-app")).app) byId("offline-line").hidden = false;
  } catch { /* not said: no link */ }
}

/** The lobby's tournaments: those running and the next to start (a countdown each), pushed over the page's socket
 * as they change; all of them, and the form to make one, on the tournaments' page. */
function eventsBox() {
  const LISTED = 4;
  const list = h("ul", {class: "events", id: "lobby-events"});
  let shown = [];
  const words = (x) => {
    const now = serverNow();
    if (x.status === "open") return x.starts_at ? t("starts in {minutes} min", {minutes: Math.max(0, Math.ceil((x.starts_at - now) / 60))}) : t("open");
    if (x.format === "arena" && x.ends_at) return t("ends in {minutes} min", {minutes: Math.max(0, Math.ceil((x.ends_at - now) / 60))});
    return t("playing");
  };
  const draw = () => {
    const now = shown.filter((x) => x.status !== "over").slice(0, LISTED);
    fill(list, now.length ? now.map((x) => h("li", {},
      h("a", {href: x.format === "clubnight" ? `/clubnight/${encodeURIComponent(x.id)}` : `/tournament/${encodeURIComponent(x.id)}`}, x.name), " ",
      h("span", {class: "muted"}, words(x), " · ", tn("{n} player", "{n} players", x.entrants))))
      : h("li", {class: "muted"}, t("No tournament is on just now.")));
  };
  draw();
  on("tournaments", (msg) => { shown = msg.tournaments; draw(); });
  watch("tournaments");
  setInterval(draw, 30000);
  return h("section", {class: "panel events-box", "aria-labelledby": "events-title"},
    h("h2", {id: "events-title"}, t("Tournaments")), list,
    h("p", {}, h("a", {href: "/tournament"}, t("All tournaments, or make one"))));
}

/** How many people are at a table now, over the whole site (GET /presence), under "Play now"; where it cannot be
 * read, nothing is said. */
async function showPresence() {
  const line = document.getElementById("presence");
  if (!line) return;
  try {
    const {people} = await api("/presence");
    line.textContent = people > 0 ? tn("{n} person is playing now", "{n} people are playing now", people)
      : t("Nobody is playing right now: the bots are always ready.");
  } catch {
    line.textContent = "";
  }
}

const gameByName = (name) => games.find((g) => g.name === name);

/** The game's name of a table's rules spec (a canonical spec starts with it). */
const gameOf = (spec) => spec.split("(")[0].trim();

// -- names -----------------------------------------------------------------------------------------------------------
/** A "Your name" field. Every one on the page shows the same name (one person, one name), remembered by the
 * browser. */
function nameField(id) {
  if (me) {  // signed in: every seat is taken under the account's name
    const shown = h("input", {id, name: "name", class: "player-name", value: me.name, readonly: true});
    return h("div", {class: "field"}, h("label", {for: id}, t("Your name")), shown);
  }
  const input = h("input", {id, name: "name", class: "player-name", maxlength: String(NAME_MAX), autocomplete: "nickname", value: store.get("name", "")});
  input.addEventListener("input", () => {
    for (const other of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("input.player-name"))) if (other !== input) other.value = input.value;
  });
  return h("div", {class: "field"}, h("label", {for: id}, t("Your name")), input);
}

/** The problem with a display name, in words, or null. The server checks the letters. */
function nameProblem(name) {
  if (name.length < 1 || name.length > NAME_MAX) return t("Your name: give 1 to {max} letters, digits, spaces or - _ . '", {max: NAME_MAX});
  return null;
}

/** Show a problem in the form's alert, mark the field and take the focus to it (in a long form, ``beside``, say it
 * under the field too). A ruling's id in the server's words is left out: the page shows it only behind a "why?". */
function complain(problem, text, input = null, beside = false) {
  const words = text.replace(/\s*\([A-Z]{2}-\d+\)/g, "");
  problem.textContent = words;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    const field = input.closest(".field");
    if (field && beside) field.append(h("p", {class: "field-error"}, words)); // where the eye is
    const folded = input.closest("details");
    if (folded) folded.open = true; // a field folded away is unfolded to be put right
    input.focus();
  }
}

function clearComplaints(form, problem) {
  problem.textContent = "";
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  for (const el of form.querySelectorAll(".field-error")) el.remove();
}

/** Keep the seat and go to the table. */
function seatAndGo(joined, name) {
  store.set("name", name);
  store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
  location.href = `/table/${encodeURIComponent(joined.table)}`;
}

// -- play now --------------------------------------------------------------------------------------------------------
/** "Play now": a tile per game (its cards drawn, its name, one line about it), each with "Play now" (a seat at once:
 * people waiting, or bots) and "Learn to play" (the guided first hand); one name for them all above. */
function playNow() {
  const problem = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel quick", "aria-labelledby": "quick-title", novalidate: true},
    h("div", {class: "quick-head"}, h("h2", {id: "quick-title"}, t("Play now")), h("p", {class: "presence-line", id: "presence"})),
    h("p", {class: "lead"}, t("A seat at a table right away: you join people waiting for players, or bots fill the other seats.")),
    h("div", {class: "quick-name"}, nameField("quick-name")));
  form.append(
    h("ul", {class: "game-tiles"}, games.map((g) => gameTile(g, form, problem))),
    h("p", {class: "muted"}, t("New to the game? Learn to play: a first hand against easy bots, every step explained.")),
    h("p", {class: "puzzles-line"}, h("a", {href: "/puzzle", id: "puzzles-link"}, t("Puzzles")), " ",
      h("span", {class: "muted"}, t("Find the best play in positions from real matches: a puzzle of the day, streaks, themes."))),
    h("p", {class: "puzzles-line", id: "offline-line", hidden: true}, h("a", {href: "/app/", id: "offline-link"}, t("Play offline")), " ",
      h("span", {class: "muted"}, t("Every game against bots in this browser, with no network: it installs as an app."))),
    problem);
  form.addEventListener("submit", (event) => event.preventDefault()); // Enter in the name field: nothing to guess
  return form;
}

/** One game's tile: its showcase cards (from GET /games), its name and summary, and its two ways in. */
function gameTile(g, form, problem) {
  const play = h("button", {type: "button", class: "primary play"}, t("Play now"));
  const learn = h("button", {type: "button", class: "learn"}, t("Learn to play"));
  const go = (button, path) => async () => {
    clearComplaints(form, problem);
    const nameInput = /** @type {HTMLInputElement} */ (byId("quick-name"));
    const name = nameInput.value.trim();
    const wrong = nameProblem(name);
    if (wrong) return complain(problem, wrong, nameInput);
    button.disabled = true;
    try {
      seatAndGo(await api(path, {game: g.name, name}), name);
    } catch (err) {
      complain(problem, err.message);
      button.disabled = false;
    }
    return undefined;
  };
  play.addEventListener("click", go(play, "/quickplay"));
  learn.addEventListener("click", go(learn, "/tutorial"));
  const title = `tile-${g.name}`;
  return h("li", {class: "game-tile", dataset: {game: g.name}},
    h("div", {class: "tile-cards", "aria-hidden": "true"}, cardRow(parseCards((g.showcase || []).join(" ")))),
    h("h3", {id: title}, g.label),
    h("p", {class: "tile-about"}, g.summary),
    h("div", {class: "tile-actions", role: "group", "aria-labelledby": title}, play, learn));
}

/** A bot level in the seat list, with its rating in the game's pool when it has one: "hard bot, 1480". */
function botLabel(g, seats, b) {
  const rating = (botRatings[poolOf(g, seats)] || {})[b.value];
  return rating ? t("{bot}, {rating}", {bot: b.label, rating: rating.rating}) : b.label;
}

// -- play rated ------------------------------------------------------------------------------------------------------
/** "Play rated": wait for people of close rating; after a while, bots of the nearest rating fill the table. */
function playRated() {
  const pick = h("select", {id: "rated-game", name: "game"}, games.map((g) => h("option", {value: g.name}, g.label)));
  pick.value = store.get("ratedGame", games[0].name);
  if (!gameByName(pick.value)) pick.value = games[0].name;
  const status = h("p", {class: "muted", id: "rated-status", "aria-live": "polite"});
  const problem = h("p", {class: "error", role: "alert"});
  const button = h("button", {type: "submit", class: "primary", id: "play-rated"}, t("Play rated"));
  const stop = h("button", {type: "button", id: "stop-rated", hidden: true}, t("Stop looking"));
  let timer = null;
  const idle = () => { clearTimeout(timer); timer = null; button.disabled = false; stop.hidden = true; };
  const poll = async () => {
    let now;
    try {
      now = await api("/rated/queue");
    } catch (err) {
      problem.textContent = err.message;
      idle();
      return;
    }
    if (now.status === "seated") {
      status.textContent = t("A table is ready.");
      store.set(`seat.${now.table}`, {token: now.token, seat: now.seat});
      location.href = `/table/${encodeURIComponent(now.table)}`;
      return;
    }
    if (now.status === "failed") { problem.textContent = now.message; idle(); status.textContent = ""; return; }
    if (now.status !== "waiting") { idle(); status.textContent = ""; return; }
    status.textContent = now.bots_in > 0
      ? t("Looking for players near your rating ({rating}); bots fill the table in {seconds} s.", {rating: now.rating, seconds: Math.ceil(now.bots_in)})
      : t("Looking for players near your rating ({rating}); bots are filling the table.", {rating: now.rating});
    timer = setTimeout(poll, QUEUE_POLL_MS);
  };
  pick.addEventListener("change", () => store.set("ratedGame", pick.value));
  stop.addEventListener("click", async () => {
    idle();
    status.textContent = "";
    try { await api("/rated/queue/leave", {}); } catch (err) { problem.textContent = err.message; }
  });
  const form = h("form", {class: "panel rated", "aria-labelledby": "rated-title", novalidate: true},
    h("h2", {id: "rated-title"}, t("Play rated")),
    h("p", {class: "lead"}, t("A rated match against people of your strength; if nobody comes soon, against bots of your rating.")),
    h("div", {class: "quick-row"},
      h("div", {class: "field"}, h("label", {for: "rated-game"}, t("What to play")), pick), button, stop),
    status, problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    button.disabled = true;
    try {
      await api("/rated/queue", {game: pick.value});
      stop.hidden = false;
      poll();
    } catch (err) {
      problem.textContent = err.message;
      button.disabled = false;
    }
  });
  return form;
}

// -- the open tables -------------------------------------------------------------------------------------------------
/** A seat in words: "Ann", "Ada, hard bot", "free seat". */
function seatWords(s) {
  if (s.kind === "bot") {
    if (!s.level) return t("{name} (bot)", {name: s.name});
    return /\bbot$/.test(s.level) ? `${s.name}, ${levelWords(s.level)}` : t("{name}, {level} bot", {name: s.name, level: s.level});
  }
  if (!s.taken) return t("free seat");
  return s.bot_playing ? t("{name} (away)", {name: s.name}) : s.name;
}

function stateWords(table) {
  if (table.waiting) return t("Waiting for players");
  if (table.over) return t("The match is over");
  if (table.abandoned) return t("Nobody is playing: the bots finish the match unless someone takes a seat");
  return table.match_no > 0 ? t("Playing match {number}", {number: table.match_no + 1}) : t("Playing");
}

/** One table as a card: its name, then its facts, then Join and Watch. */
function tableCard(table) {
  const g = gameByName(gameOf(table.game));
  const titleId = `table-${table.id}`;
  const fact = (term, value) => h("div", {class: "fact"}, h("dt", {}, term), h("dd", {}, value));
  const free = table.free_seats.length;
  const links = [];
  if (free) links.push(h("a", {class: "button-link primary", href: `/table/${encodeURIComponent(table.id)}`, "aria-describedby": titleId, dataset: {action: "join"}}, tn("Join ({n} free)", "Join ({n} free)", free)));
  if (table.settings.spectators) links.push(h("a", {class: "button-link", href: `/table/${encodeURIComponent(table.id)}?watch=1`, "aria-describedby": titleId, dataset: {action: "watch"}}, t("Watch")));
  return h("li", {class: "table-card", dataset: {table: table.id, game: gameOf(table.game)}},
    h("h3", {id: titleId}, tableName(table)),
    h("dl", {class: "facts"},
      fact(t("Game"), g ? g.label : table.title),
      fact(t("Host"), table.host === null ? t("nobody yet") : table.host),
      fact(t("Free seats"), String(free)),
      table.settings.pace ? fact(t("Pace"), paceWords(Number(table.settings.pace))) : null,
      fact(t("Spectators"), table.settings.spectators ? String(table.spectators) : t("not allowed")),
      h("div", {class: "fact wide"}, h("dt", {}, t("Rules")), h("dd", {}, rulesOf(table).length ? rulesOf(table).join(", ") : t("the standard rules")))),
    h("p", {class: "state"}, stateWords(table)),
    h("ul", {class: "seat-chips", "aria-label": t("Seats")}, table.seats.map((s) => h("li", {class: s.kind === "bot" ? "bot" : s.taken ? "person" : "open"}, seatWords(s)))),
    links.length ? h("div", {class: "card-links"}, links) : null);
}

/** The rules of a table that differ from its game's defaults, in the reader's language. */
function rulesOf(table) {
  return table.name_words ? table.name_words.rules.map(ruleWords) : table.rules;
}

/** What a card shows, to tell whether it must be drawn again. */
function cardKey(table) {
  return JSON.stringify([table.name, table.host, table.rules, table.free_seats, table.spectators, table.settings.spectators, table.settings.pace, table.waiting, table.over, table.abandoned, table.match_no, table.seats.map(seatWords)]);
}

/** Run ``change`` on the list; if it took the keyboard focus away from a card's link, give it back. */
function keepingFocus(list, change) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const card = active && list.contains(active) ? /** @type {HTMLElement | null} */ (active.closest("[data-table]")) : null;
  const where = card ? {table: card.dataset.table, action: active.dataset.action} : null;
  change();
  if (where && !list.contains(document.activeElement)) {
    const again = list.querySelector(`[data-table="${CSS.escape(where.table)}"] [data-action="${CSS.escape(where.action || "")}"]`);
    if (again) again.focus({preventScroll: true});
  }
}

function openTables() {
  const filter = h("select", {id: "table-filter"},
    h("option", {value: ""}, t("every game")),
    games.map((g) => h("option", {value: g.name}, g.label)));
  filter.value = store.get("tableFilter", "");
  if (filter.value !== "" && !gameByName(filter.value)) filter.value = "";
  const count = h("p", {class: "muted", id: "table-count", "aria-live": "polite"});
  const list = h("ul", {class: "table-list", "aria-labelledby": "open-title"});
  const message = h("p", {class: "empty"}, t("Loading\u2026"));
  const problem = h("p", {class: "error", role: "alert"});
  const box = h("section", {class: "panel open-tables", "aria-labelledby": "open-title"},
    h("div", {class: "open-head"},
      h("h2", {id: "open-title"}, t("Open tables")),
      h("div", {class: "field filter"}, h("label", {for: "table-filter"}, t("Show tables of")), filter)),
    count, problem, message, list);
  const cards = new Map(); // table id -> {el, key}
  let latest = null;

  function draw() {
    if (latest === null) return;
    const open = latest.filter((table) => !table.over || table.free_seats.length);
    const shown = open.filter((table) => filter.value === "" || gameOf(table.game) === filter.value);
    keepingFocus(list, () => {
      const keep = new Set(shown.map((table) => table.id));
      for (const [id, entry] of cards) {
        if (!keep.has(id)) {
          entry.el.remove();
          cards.delete(id);
        }
      }
      shown.forEach((table, i) => {
        const key = cardKey(table);
        let entry = cards.get(table.id);
        if (!entry || entry.key !== key) {
          const el = tableCard(table);
          if (entry) entry.el.replaceWith(el);
          entry = {el, key};
          cards.set(table.id, entry);
        }
        if (list.children[i] !== entry.el) list.insertBefore(entry.el, list.children[i] || null);
      });
    });
    const words = open.length === 0 ? t("No public table is open: press Play now, or make one below.")
      : shown.length === 0 ? t("No open table of this game: press Play now to start one.")
        : "";
    if (message.textContent !== words) message.textContent = words;
    const all = tn("{n} open table", "{n} open tables", open.length);
    const counted = open.length && filter.value ? tn("{n} table of {all}", "{n} tables of {all}", shown.length, {all}) : open.length ? all : "";
    if (count.textContent !== counted) count.textContent = counted;
  }

  async function refresh() {
    try {
      latest = await api("/tables");
      if (problem.textContent) problem.textContent = "";
    } catch (err) {
      problem.textContent = err.message;
      return;
    }
    draw();
  }

  filter.addEventListener("change", () => {
    store.set("tableFilter", filter.value);
    draw();
  });
  return {box, refresh};
}

// -- making a table --------------------------------------------------------------------------------------------------
/** A number field's value checked against its range: the number, or the problem in words naming the field. */
function readNumber(input, label, {optional = false, whole = false} = {}) {
  const text = input.value.trim();
  if (text === "" && optional && !input.validity.badInput) return {value: null};
  const low = Number(input.min);
  const high = Number(input.max);
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || value < low || value > high || (whole && !Number.isInteger(value)) || input.validity.badInput) {
    const p = {label, low, high};
    if (whole) return {problem: optional ? t("{label}: give a whole number from {low} to {high}, or leave it empty", p) : t("{label}: give a whole number from {low} to {high}", p)};
    return {problem: optional ? t("{label}: give a number from {low} to {high}, or leave it empty", p) : t("{label}: give a number from {low} to {high}", p)};
  }
  return {value};
}

/** A "why?" button and the explanation it shows and hides: the option in a sentence, then the ruling it comes
 * from (the only place a ruling id is shown). */
function why(schema, id) {
  const ruling = schema.rule ? t("(ruling {rule})", {rule: schema.rule}) : null;
  const text = h("p", {class: "why-note", id: `why-${id}`, hidden: true}, schema.help, ruling ? ` ${ruling}` : "");
  const button = h("button", {type: "button", class: "why-toggle", "aria-expanded": "false", "aria-controls": `why-${id}`, "aria-label": t("Why: {label}", {label: schema.label})}, t("why?"));
  button.addEventListener("click", () => {
    text.hidden = !text.hidden;
    button.setAttribute("aria-expanded", String(!text.hidden));
  });
  return {button, text};
}

function createForm() {
  const gameSelect = h("select", {id: "game", name: "game"}, games.map((g) => h("option", {value: g.name}, g.label)));
  const gameAbout = h("p", {class: "muted game-about", id: "game-about"});
  gameSelect.setAttribute("aria-describedby", "game-about");
  const variantSelect = h("select", {id: "variant", name: "variant"});
  const variantAbout = h("p", {class: "muted", id: "variant-about"});
  variantSelect.setAttribute("aria-describedby", "variant-about");
  const optionsBox = h("fieldset", {class: "options"});
  const seatsBox = h("fieldset", {class: "seats-config"});
  const moreBots = h("input", {type: "checkbox", id: "more-bots"}); // the research bots in the seats' lists
  moreBots.addEventListener("change", () => { drawSeats(); moreBots.focus(); }); // drawn again: the focus stays on it
  const publicBox = h("input", {type: "checkbox", id: "public", checked: true});
  const watchBox = h("input", {type: "checkbox", id: "spectators", checked: true});
  const hintsBox = h("input", {type: "checkbox", id: "hints"});
  const ratedBox = h("input", {type: "checkbox", id: "rated", disabled: !me});
  ratedBox.addEventListener("change", () => {
    hintsBox.disabled = ratedBox.checked;  // a rated table gives no hints
    if (ratedBox.checked) hintsBox.checked = false;
  });
  const clockInput = h("input", {type: "number", id: "clock", min: "5", max: "3600", step: "any", inputmode: "decimal", placeholder: t("no clock")});
  const graceInput = h("input", {type: "number", id: "grace", min: "0", max: "3600", step: "any", inputmode: "decimal", value: "30"});
  const delayInput = h("input", {type: "number", id: "bot-delay", min: "0", max: "10", step: "any", inputmode: "decimal", value: "0.8"});
  const problem = h("p", {class: "error", role: "alert"});
  const labels = {
    clock: t("Seconds per decision"),
    grace: t("Seconds before a bot plays for an absent player"),
    delay: t("Seconds a bot waits before acting"),
  };

  const game = () => gameByName(gameSelect.value);

  function effectiveDefaults() {
    const g = game();
    const out = {};
    for (const [key, schema] of Object.entries(g.options)) out[key] = String(schema.default);
    const chosen = variantSelect.value ? g.variant_options[variantSelect.value] : {};
    return {...out, ...chosen};
  }

  function drawOptions() {
    const g = game();
    gameAbout.textContent = g.summary;
    fill(variantSelect, h("option", {value: ""}, t("The standard rules")),
      g.variant_choices.map((v) => h("option", {value: v.value}, v.label)));
    drawOptionFields();
  }

  function drawOptionFields() {
    const g = game();
    const chosen = g.variant_choices.find((v) => v.value === variantSelect.value);
    variantAbout.textContent = chosen ? chosen.description : t("as the rules are written");
    const defaults = effectiveDefaults();
    const fields = [];
    for (const [key, schema] of Object.entries(g.options)) {
      const id = `opt-${key}`;
      const text = t("{label} (default: {value})", {label: schema.label, value: schema.default_label});
      const explained = why(schema, key);
      const head = h("div", {class: "label-row"}, h("label", {for: id}, text), explained.button);
      let input;
      let field;
      if (schema.type === "boolean") {
        input = h("input", {type: "checkbox", id, dataset: {option: key, label: schema.label}});
        input.checked = defaults[key] === "true";
        field = h("div", {class: "field option"}, h("div", {class: "label-row check"}, input, h("label", {for: id}, text), explained.button), explained.text);
      } else if (schema.choices) {
        input = h("select", {id, dataset: {option: key, label: schema.label}}, schema.choices.map((c) => h("option", {value: String(c.value)}, c.label)));
        input.value = defaults[key];
        field = h("div", {class: "field option"}, head, explained.text, input);
      } else if (schema.type === "integer") {
        input = h("input", {type: "number", id, min: schema.minimum, max: schema.maximum, step: "1", inputmode: "numeric", value: defaults[key], dataset: {option: key, label: schema.label, whole: "1"}});
        const range = schema.minimum !== undefined ? h("small", {}, t("a whole number from {low} to {high}", {low: schema.minimum, high: schema.maximum})) : null;
        field = h("div", {class: "field option"}, head, explained.text, input, range);
      } else {
        continue; // a table of numbers (points per card): set it in a rules spec with the command line
      }
      input.addEventListener("change", () => {
        reconcile(input);
        drawSeats();
      });
      fields.push(field);
    }
    fill(optionsBox, h("legend", {}, t("Rules")),
      h("div", {class: "field"}, h("label", {for: "variant"}, t("Variant")), variantSelect, variantAbout), fields);
    drawSeats();
  }

  /** Keep the options together: a choice that needs other options at certain values (team play, its number of
   * players) sets them when chosen, and goes back to a choice that needs nothing when one of them is changed. */
  function reconcile(changed) {
    const input = (key) => optionsBox.querySelector(`[data-option="${CSS.escape(key)}"]`);
    for (const [key, schema] of Object.entries(game().options)) {
      const select = schema.choices ? input(key) : null;
      const pick = select ? schema.choices.find((c) => c.value === select.value) : null;
      if (!pick || !pick.sets) continue;
      if (changed === select) {
        for (const [other, value] of Object.entries(pick.sets)) if (input(other)) input(other).value = value;
      } else if (Object.entries(pick.sets).some(([other, value]) => input(other) && input(other).value !== value)) {
        const free = schema.choices.find((c) => !c.sets);
        if (free) select.value = free.value;
      }
    }
  }

  /** The options that differ from the chosen variant's (or the game's) settings, or a problem naming a field. */
  function chosenOptions() {
    const defaults = effectiveDefaults();
    const out = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      let value;
      if (input.type === "checkbox") value = String(input.checked);
      else if (input.dataset.whole) {
        const read = readNumber(input, input.dataset.label, {whole: true});
        if (read.problem) return {problem: read.problem, input};
        value = String(read.value);
      } else value = input.value;
      if (value !== defaults[input.dataset.option]) out[input.dataset.option] = value;
    }
    return {options: out};
  }

  function seatCount() {
    const g = game();
    const players = optionsBox.querySelector('[data-option="players"]');
    const n = players ? Number(players.value) : g.seats[0];
    return Number.isInteger(n) && g.seats.includes(n) ? n : g.seats[0];
  }

  function drawSeats() {
    const g = game();
    const n = seatCount();
    const before = [...seatsBox.querySelectorAll("[data-seat]")].map((sel) => sel.value);
    const levels = g.bot_choices.filter((b) => ["easy", "normal", "hard", "expert"].includes(b.value));
    // the research bots (random moves, the plain searches) are listed only when asked for, or already chosen
    const others = g.bot_choices.filter((b) => !levels.includes(b))
      .filter((b) => moreBots.checked || before.includes(`bot:${b.value}`));
    const rows = [];
    for (let s = 0; s < n; s += 1) {
      const select = h("select", {id: `seat-${s}`, dataset: {seat: String(s)}},
        h("option", {value: "you"}, t("You")),
        h("option", {value: "person"}, t("A friend (invite)")),
        h("optgroup", {label: t("Bots")}, levels.map((b) => h("option", {value: `bot:${b.value}`}, botLabel(g, n, b)))),
        others.length ? h("optgroup", {label: t("Other bots")}, others.map((b) => h("option", {value: `bot:${b.value}`}, b.label))) : null);
      const fallback = s === 0 ? "you" : g.bots.includes("normal") ? "bot:normal" : `bot:${g.bots[0]}`;
      select.value = before[s] || fallback;
      if (!select.value) select.value = fallback;
      select.addEventListener("change", () => {
        if (select.value !== "you") return;
        for (const other of seatsBox.querySelectorAll("[data-seat]")) if (other !== select && other.value === "you") other.value = "person";
      });
      rows.push(h("div", {class: "field seat-field"}, h("label", {for: `seat-${s}`}, t("Seat {number}", {number: s + 1})), select));
    }
    fill(seatsBox, h("legend", {}, t("Seats")),
      h("p", {class: "muted"}, t("You take the seat marked You; a friend takes theirs from the list or with the invite code.")),
      h("div", {class: "seat-grid"}, rows),
      g.bot_choices.length > levels.length ? h("div", {class: "field check"}, moreBots, h("label", {for: "more-bots"}, t("More bots (for research: random moves, plain searches)"))) : null);
  }

  gameSelect.addEventListener("change", drawOptions);
  variantSelect.addEventListener("change", drawOptionFields);

  // live, or turn-based (over days: a pace for each move, and what happens when a clock runs out; accounts only)
  const liveRadio = h("input", {type: "radio", name: "play-kind", id: "play-live", value: "live", checked: true});
  const turnRadio = h("input", {type: "radio", name: "play-kind", id: "play-turns", value: "turns", disabled: !me,
    "aria-describedby": "play-turns-note"});
  const paceSelect = h("select", {id: "pace"}, PACES.map((p) => h("option", {value: String(p)}, paceChoice(p))));
  paceSelect.value = "86400";
  const timeoutRadios = TIMEOUTS.map((value) => h("input", {type: "radio", name: "on-timeout", id: `on-timeout-${value}`, value, checked: value === "bot"}));
  const turnOptions = h("div", {class: "turn-options", id: "turn-options", hidden: true},
    h("div", {class: "field"}, h("label", {for: "pace"}, t("Time for each move")), paceSelect,
      h("small", {}, t("A player's clock stops at night, in their own time zone, and while they are on vacation."))),
    h("fieldset", {class: "on-timeout"}, h("legend", {}, t("When a player's time runs out")),
      timeoutRadios.map((radio) => h("div", {class: "field check"}, radio, h("label", {for: radio.id}, timeoutChoice(radio.value))))),
    h("p", {class: "muted"}, t("Bots in the seats move at once. Once the table is made, invite your friends from it, or from your friends list.")));
  const showKind = () => {
    turnOptions.hidden = !turnRadio.checked;
    clockInput.disabled = turnRadio.checked; // a turn-based table's clock is its pace
  };
  liveRadio.addEventListener("change", showKind);
  turnRadio.addEventListener("change", showKind);
  const kindBox = h("fieldset", {class: "play-kind"}, h("legend", {}, t("How you play")),
    h("div", {class: "field check"}, liveRadio, h("label", {for: "play-live"}, t("Live: everyone plays now, at the table together"))),
    h("div", {class: "field check"}, turnRadio, h("label", {for: "play-turns"}, t("Turn-based: a match with friends over days, each moving when they can"))),
    h("p", {class: "muted", id: "play-turns-note"}, me ? t("Every player at a turn-based table needs an account.")
      : t("Sign in to make a turn-based table: every player at one needs an account.")),
    turnOptions);

  const numberField = (input, label, hint) => h("div", {class: "field"}, h("label", {for: input.id}, label), input, h("small", {}, hint));
  const button = h("button", {type: "submit", class: "primary"}, t("Create the table"));
  const form = h("form", {class: "panel create", "aria-labelledby": "create-title", novalidate: true},
    h("h2", {id: "create-title"}, t("New table")),
    h("div", {class: "field"}, h("label", {for: "game"}, t("Game")), gameSelect, gameAbout),
    optionsBox, seatsBox, kindBox,
    h("div", {class: "field check"}, publicBox, h("label", {for: "public"}, t("Listed in the lobby (otherwise by invite only)"))),
    // what most tables leave as it is, folded: spectators, hints, rating, the clock and the bots' pace
    h("details", {class: "more-options", id: "more-options"}, h("summary", {}, t("More options")),
    h("fieldset", {class: "house"}, h("legend", {}, t("House rules")),
      h("div", {class: "field check"}, watchBox, h("label", {for: "spectators"}, t("Spectators may watch"))),
      h("div", {class: "field check"}, hintsBox, h("label", {for: "hints"}, t("Hints (the normal bot's suggestion)"))),
      h("div", {class: "field check"}, ratedBox, h("label", {for: "rated"},
        me ? t("Rated (the matches count for ratings; players need an account)") : t("Rated (sign in to make a rated table)"))),
      numberField(clockInput, t("Seconds per decision (empty: no clock)"), t("from 5 to 3600 seconds, or empty")),
      numberField(graceInput, labels.grace, t("from 0 to 3600 seconds (default: 30)")),
      numberField(delayInput, labels.delay, t("from 0 to 10 seconds, e.g. 0.15 (default: 0.8)")))),
    nameField("create-name"),
    button,
    problem);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearComplaints(form, problem);
    const g = game();
    const chosen = chosenOptions();
    if (chosen.problem) return complain(problem, chosen.problem, chosen.input, true);
    const numbers = {};
    for (const [key, input, label, optional] of [["clock", clockInput, labels.clock, true], ["grace", graceInput, labels.grace, false], ["bot_delay", delayInput, labels.delay, false]]) {
      const read = readNumber(input, label, {optional});
      if (read.problem) return complain(problem, read.problem, input, true);
      numbers[key] = read.value;
    }
    const picks = [...seatsBox.querySelectorAll("[data-seat]")].map((sel) => sel.value);
    const mine = picks.indexOf("you");
    const nameInput = /** @type {HTMLInputElement} */ (byId("create-name"));
    const name = nameInput.value.trim();
    if (mine >= 0) {
      const wrong = nameProblem(name);
      if (wrong) return complain(problem, wrong, nameInput, true);
    }
    const opts = chosen.options;
    const base = variantSelect.value || g.name;
    const spec = Object.keys(opts).length ? `${base}(${Object.entries(opts).map(([k, v]) => `${k}=${v}`).join(",")})` : base;
    const seats = picks.map((v) => (v.startsWith("bot:") ? {kind: "bot", bot: v.slice(4)} : {kind: "person"}));
    const body = {
      game: spec,
      seats,
      public: publicBox.checked,
      spectators: watchBox.checked,
      hints: hintsBox.checked,
      rated: ratedBox.checked,
      ...numbers,
    };
    if (turnRadio.checked) { // its pace is its clock
      Object.assign(body, {clock: null, pace: Number(paceSelect.value), on_timeout: (timeoutRadios.find((r) => r.checked) ?? timeoutRadios[0]).value});
    }
    button.disabled = true;
    try {
      const table = await api("/tables", body);
      store.set(`invite.${table.id}`, table.invite);
      if (mine >= 0) {
        // by its invite: the way in to a table of either kind (a private one has no other)
        seatAndGo(await api(`/invites/${encodeURIComponent(table.invite)}/join`, {name, seat: mine}), name);
      } else {
        location.href = `/table/${encodeURIComponent(table.id)}?watch=1`;
      }
    } catch (err) {
      complain(problem, err.message);
      button.disabled = false;
    }
    return undefined;
  });
  drawOptions();
  return form;
}

// -- joining by invite -----------------------------------------------------------------------------------------------
function inviteForm() {
  const code = h("input", {id: "invite-code", name: "code", autocomplete: "off"});
  const problem = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel invite-form", "aria-labelledby": "invite-title", novalidate: true},
    h("h2", {id: "invite-title"}, t("Join with an invite code")),
    h("div", {class: "field"}, h("label", {for: "invite-code"}, t("Invite code")), code),
    nameField("invite-name"),
    h("button", {type: "submit"}, t("Join")), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearComplaints(form, problem);
    const invite = code.value.trim();
    if (!invite) return complain(problem, t("Invite code: paste the code the table's creator gave you"), code);
    const nameInput = /** @type {HTMLInputElement} */ (byId("invite-name"));
    const name = nameInput.value.trim();
    const wrong = nameProblem(name);
    if (wrong) return complain(problem, wrong, nameInput);
    try {
      const joined = await api(`/invites/${encodeURIComponent(invite)}/join`, {name});
      store.set(`invite.${joined.table}`, invite); // a private table's record and replay need it
      seatAndGo(joined, name);
    } catch (err) {
      complain(problem, err.message);
    }
    return undefined;
  });
  return form;
}

start();
