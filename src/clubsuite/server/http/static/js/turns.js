// @ts-check
// "Your turn" (/your-turn): the signed-in player's turn-based tables (GET /turns), those waiting for their move first
// (the soonest clock first), then the others (the latest move first). Each says whose move it is and the time left
// in words ("5 h 20 min left"; "clock stopped: night" while the clock of the player to act stands still), or that the
// match is adjourned (with Resume) or was lost on time; the moves made since the player last looked; the table's pace
// and what happens when a clock runs out; a link to the table; and the player's auto-play switch (a move with one
// legal choice played for them at once). The list is read again every 30 seconds and at each "turn" notice, drawn
// with patch() so that a switch being used keeps the focus.

import {account, api, byId, fill, h, pageTitle} from "./dom.js";
import {loadWords, t, tableName, tn} from "./i18n.js";
import {patch} from "./patch.js";
import {applyColours, bar} from "./people.js";
import {leftWords, onTurnNotice, paceWords, pausedWords, secondsLeftNow, showCount, timeoutWords} from "./turnwords.js";

const app = byId("app");
const REFRESH_MS = 30000;
let told = Date.now(); // when the list was read: a running clock counts down from then
let latest = null;
const problems = new Map(); // table -> a refusal of the player's last action there, in words

async function start() {
  applyColours();
  await loadWords();
  pageTitle("turns");
  const me = await account();
  const head = await bar(t("Your turn"));
  if (!me) {
    fill(app, head, h("main", {class: "people turns"},
      h("p", {id: "turns-signed-out"}, t("Turn-based tables are played with an account: sign in, or create one, to see yours here."))));
    return;
  }
  const main = h("main", {class: "people turns", id: "turns"});
  fill(app, head, main);
  await refresh();
  setInterval(refresh, REFRESH_MS);
  onTurnNotice(() => refresh());
}

/** Read the list again and draw it. */
async function refresh() {
  try {
    latest = await api("/turns");
    told = Date.now();
  } catch (err) {
    patch(byId("turns"), [h("p", {class: "error", role: "alert", dataset: {key: "problem"}}, err.message)]);
    return;
  }
  showCount(latest.waiting);
  draw();
}

function draw() {
  const entries = latest.tables;
  const mine = entries.filter((e) => e.mine);
  const others = entries.filter((e) => !e.mine);
  const parts = [];
  if (!entries.length) {
    parts.push(h("div", {class: "panel turns-empty", dataset: {key: "empty"}},
      h("p", {}, t("You have no turn-based table yet.")),
      h("p", {}, t("Make one in the lobby: under New table, choose Turn-based, then invite your friends. Each move may take hours or days, and your clock stops at night and on vacation.")),
      h("a", {href: "/", class: "button-link primary"}, t("Go to the lobby"))));
  } else {
    parts.push(h("section", {"aria-labelledby": "waiting-title", dataset: {key: "waiting"}},
      h("h2", {id: "waiting-title"}, mine.length ? tn("Your move at {n} table", "Your move at {n} tables", mine.length) : t("No table waits for your move")),
      mine.length ? h("ul", {class: "turn-list", id: "turns-mine"}, mine.map(entryView)) : null));
    if (others.length) {
      parts.push(h("section", {"aria-labelledby": "others-title", dataset: {key: "others"}},
        h("h2", {id: "others-title"}, t("Your other turn-based tables")),
        h("ul", {class: "turn-list", id: "turns-others"}, others.map(entryView))));
    }
  }
  parts.push(h("p", {class: "muted", dataset: {key: "about"}},
    t("Each clock counts only during its player's playing hours, and stops on vacation: set them under Turn-based play on your own profile page.")));
  patch(byId("turns"), parts);
}

/** A seat's name as the list shows it. */
function seatWords(entry, seat) {
  const s = entry.seats.find((x) => x.seat === seat);
  if (seat === entry.my_seat) return t("you");
  // a seat nobody took yet: named by its number (the list says "seat 2" in English: worded here)
  if (!s || s.name === null || s.name === undefined || s.name === `seat ${seat + 1}`) return t("Seat {number}", {number: seat + 1});
  return s.name;
}

/** Where the match stands, in words: whose move, and the time left on their clock ("Your turn", "5 h 20 min left").
 * Returns the two parts (the second "" where no clock runs). */
function standing(entry) {
  if (entry.ended && typeof entry.ended.lost === "number") {
    return [entry.ended.lost === entry.my_seat ? t("You lost on time.") : t("{name} lost on time.", {name: seatWords(entry, entry.ended.lost)}), ""];
  }
  if (entry.over) return [t("The match is over."), ""];
  if (entry.adjourned) return [t("Adjourned: the match waits until a player resumes it."), ""];
  const left = secondsLeftNow(entry.seconds_left, told, entry.paused);
  const clock = entry.paused ? pausedWords(entry.paused) : left !== null ? leftWords(left) : "";
  if (entry.mine) return [t("Your turn"), clock];
  if (entry.to_act === null || entry.to_act === undefined) return [t("Waiting for the next move."), ""];
  return [t("{name} to play", {name: seatWords(entry, entry.to_act)}), clock];
}

/** How the player finished a match that is over ("You won.", "Your place: 2 of 3."). */
function placeWords(entry) {
  return entry.won ? t("You won.") : t("Your place: {place} of {of}.", {place: entry.place, of: entry.of});
}

function entryView(entry) {
  const id = entry.id;
  const problem = problems.get(id);
  const [who, clock] = standing(entry);
  const players = entry.seats.map((s) => (s.kind === "bot" ? t("{name} (bot)", {name: seatWords(entry, s.seat)}) : seatWords(entry, s.seat)));
  const autoplay = h("input", {type: "checkbox", id: `autoplay-${id}`, checked: entry.autoplay, onchange: (e) => setAutoplay(entry, e.currentTarget)});
  autoplay.checked = Boolean(entry.autoplay);
  const lost = entry.ended && typeof entry.ended.lost === "number";
  const state = entry.mine ? "mine" : lost ? "lost" : entry.over ? "over" : entry.adjourned ? "adjourned" : entry.paused ? "paused" : "waiting";
  return h("li", {class: `turn-entry ${state}`, dataset: {key: id, table: id, state}},
    h("h3", {}, h("a", {href: `/table/${encodeURIComponent(id)}`}, tableName(entry))),
    h("p", {class: "turn-state"}, h("span", {class: "turn-who"}, who), clock ? [" \u00b7 ", h("span", {class: "turn-left"}, clock)] : null,
      entry.place ? [" \u00b7 ", h("span", {class: "turn-place"}, placeWords(entry))] : null),
    entry.unseen > 0 ? h("p", {class: "turn-unseen"}, tn("{n} new move since you last looked", "{n} new moves since you last looked", entry.unseen)) : null,
    h("p", {class: "muted turn-seats"}, t("Players: {names}", {names: players.join(", ")})),
    entry.pace ? h("p", {class: "muted turn-pace"}, `${paceWords(entry.pace)} \u00b7 ${timeoutWords(entry.on_timeout)}`) : null,
    h("div", {class: "turn-actions"},
      h("a", {href: `/table/${encodeURIComponent(id)}`, class: `button-link${entry.mine ? " primary" : ""}`}, entry.mine ? t("Play your move") : t("Open the table")),
      entry.adjourned && !entry.over ? h("button", {type: "button", class: "primary", dataset: {action: "resume"}, onclick: () => resume(entry)}, t("Resume the match")) : null,
      entry.over ? null : h("div", {class: "field check turn-autoplay"}, autoplay,
        h("label", {for: `autoplay-${id}`}, t("Auto-play: a move with only one choice is made for me at once")))),
    problem ? h("p", {class: "error", role: "alert"}, problem) : null);
}

async function resume(entry) {
  problems.delete(entry.id);
  try {
    await api(`/tables/${encodeURIComponent(entry.id)}/turn/resume`, {});
  } catch (err) {
    problems.set(entry.id, err.message);
  }
  await refresh();
}

async function setAutoplay(entry, box) {
  problems.delete(entry.id);
  const on = box.checked;
  try {
    await api(`/tables/${encodeURIComponent(entry.id)}/turn/autoplay`, {on});
    entry.autoplay = on;
  } catch (err) {
    problems.set(entry.id, err.message);
  }
  draw();
}

start();
