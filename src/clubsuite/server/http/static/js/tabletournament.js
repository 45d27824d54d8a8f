// @ts-check
// A tournament's table (the table page, /table/{id}, opened for a tournament seat): the tournament's name, its clock
// and the player's place in a link back to it, in the table's bar; and at the end of the table's match, the way on
// (your next round, or back to the tournament) in place of a rematch and new opponents. The page knows its
// tournament from the seat it followed (live.js) or, opened cold (a pasted link, another device, a cleared
// browser), from the server (GET /tournament-tables/{id}). A club night's table shows none: its page is the club
// night's own. The page reads the tournament (GET /tournaments/{id}) when it opens, when an arena's end time passes
// (again at most every 30 s until the server says the time is up) and when the table's match ends, before its
// dialog chooses the way on; one read at a time. The clock counts with the server's time (its `now` at the last
// read), so a browser whose clock is wrong still shows the time left.

import {api, h} from "./dom.js";
import {t} from "./i18n.js";
import {tableOfTournament, tournamentOf} from "./live.js";

let shown = null; // the tournament as last read: {id, name, format, status, ends_at, now, round, rounds, finishing, me}
let skew = 0; // the server's clock less this browser's, in seconds, as measured at the last read
let ticking = null;
let redraw = () => {}; // redraws the page once a read has answered
let reading = null; // the read in flight (never more than one)
let queued = null; // the read asked for while one was in flight: it follows that one
let askedAtEnd = -Infinity; // when (performance.now(), ms) the arena's end time last had the page read it again
let endedMatch = null; // the last match whose end the page was told of
let decided = null; // the match whose end a read has answered since (its dialog may choose the way on)
let tableOf = null; // the table this page shows
let told; // the tournament id the server gave for this table (null: none, or a club night); undefined: not asked
const AGAIN_MS = 30000; // past the arena's end, the page reads it again at most this often until the server agrees

/** The id of table ``tableId``'s tournament: the one its seat was followed from, else the server's answer (asked
 * once; asked again next time where it failed). */
async function tournamentId(tableId) {
  const followed = tournamentOf(tableId);
  if (followed) return followed;
  if (told === undefined) {
    try {
      const found = (await api(`/tournament-tables/${encodeURIComponent(tableId)}`)).tournament;
      told = found && found.format !== "clubnight" ? found.id : null;
      if (told) tableOfTournament(tableId, told); // so that the page goes on to the next table, as one followed does
    } catch {
      return null;
    }
  }
  return told;
}

/** Read the tournament of table ``tableId`` and keep its clock going; ``changed`` redraws the page after each
 * read. */
export async function loadTournament(tableId, changed) {
  tableOf = tableId;
  redraw = changed;
  await reread();
  if (shown && !ticking) ticking = setInterval(tick, 1000);
}

/** The table's match ``matchNo`` has ended: the tournament read again at once (the end dialog waits for the answer
 * to choose the way on: the arena may be over, or its time up) and again a little later (the place, once the
 * director has read the table's result). Once a match. */
export function tournamentMatchEnded(matchNo) {
  if (!shown || endedMatch === matchNo) return;
  endedMatch = matchNo;
  reread().then(() => { decided = matchNo; redraw(); });
  setTimeout(reread, 2000);
}

/** The tournament read again: one read in flight at most, and one more queued behind it; resolves once a read
 * begun after the call has answered (or failed: the table plays on without it). */
function reread() {
  if (!reading) {
    reading = readOnce().finally(() => { reading = null; });
    return reading;
  }
  if (!queued) queued = reading.then(() => { queued = null; return reread(); });
  return queued;
}

async function readOnce() {
  const id = await tournamentId(tableOf);
  if (!id) return;
  const asked = Date.now();
  let read;
  try {
    read = await api(`/tournaments/${encodeURIComponent(id)}`);
  } catch {
    return;
  }
  shown = read;
  if (typeof read.now === "number") skew = read.now - (asked + Date.now()) / 2000; // the reply's now: mid-way
  redraw();
}

/** Each second: the clock, and, once an arena's end time has passed by the server's clock, the tournament read
 * again (at most every 30 s) until the server says its time is up or it is over. */
function tick() {
  const clock = document.getElementById("tournament-clock");
  if (clock) clock.textContent = clockWords();
  if (timeUp() && !shown.finishing && performance.now() - askedAtEnd >= AGAIN_MS) {
    askedAtEnd = performance.now();
    reread();
  }
}

/** The server's time now, in seconds, as this browser's clock and the last read's skew make it. */
function serverNow() {
  return Date.now() / 1000 + skew;
}

/** Whether a running arena's time is up: the server says so, or its end time has passed by the server's clock. */
function timeUp() {
  return shown.format === "arena" && shown.status === "running"
    && (Boolean(shown.finishing) || (Boolean(shown.ends_at) && serverNow() >= shown.ends_at));
}

/** Whether this table is a tournament's (as far as the page knows). */
export function atTournament() {
  return shown !== null;
}

function href() {
  return `/tournament/${encodeURIComponent(shown.id)}`;
}

function clockWords() {
  if (shown.status === "over") return t("Over");
  if (shown.finishing || timeUp()) return t("Time is up");
  if (shown.format === "arena" && shown.ends_at) {
    const s = Math.max(0, Math.round(shown.ends_at - serverNow()));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
  return t("Round {number} of {rounds}", {number: shown.round, rounds: shown.rounds});
}

/** The tournament in the table's bar: its name, clock and the player's place, a link back to it. */
export function tournamentBadge() {
  if (!shown) return null;
  const me = shown.me;
  return h("a", {href: href(), class: "tournament-badge", id: "tournament-badge", title: t("Back to the tournament")},
    h("span", {class: "tournament-name"}, shown.name), " ",
    h("span", {class: "tag countdown", id: "tournament-clock"}, clockWords()),
    me && me.tables ? h("span", {class: "tournament-place"}, " ", t("Place {place}", {place: me.place})) : null);
}

/** The way on at the end of a tournament table's match ``matchNo`` (instead of a rematch and new opponents): the
 * next round while the tournament seats its players again, else back to the tournament; none until the tournament
 * has been read since the match ended (:func:`tournamentMatchEnded`). */
export function tournamentActions(matchNo) {
  if (!shown || decided !== matchNo) return null;
  const more = shown.status === "running" && !shown.finishing && !timeUp()
    && (shown.format === "arena" || (shown.round || 0) < (shown.rounds || 0));
  return h("a", {class: "button-link primary", href: href(), dataset: {action: "tournament"}},
    more ? t("Your next round") : t("Back to the tournament"));
}
