// A tournament's table (the table page, /table/{id}, opened for a tournament seat): the tournament's name, its clock
// and the player's place in a link back to it, in the table's bar; and at the end of the table's match, the way on
// (your next round, or back to the tournament) in place of a rematch and new opponents. The page knows its
// tournament from the seat it followed (live.js) or, opened cold (a pasted link, another device, a cleared
// browser), from the server (GET /tournament-tables/{id}). A club night's table shows none: its page is the club
// night's own.

import {api, h} from "./dom.js";
import {t} from "./i18n.js";
import {tournamentOf} from "./live.js";

let shown = null; // the tournament as last read: {id, name, format, status, ends_at, round, rounds, finishing, me}
let ticking = null;
let told; // the tournament id the server gave for this table (null: none, or a club night); undefined: not asked

/** The id of table ``tableId``'s tournament: the one its seat was followed from, else the server's answer (asked
 * once; asked again next time where it failed). */
async function tournamentId(tableId) {
  const followed = tournamentOf(tableId);
  if (followed) return followed;
  if (told === undefined) {
    try {
      const found = (await api(`/tournament-tables/${encodeURIComponent(tableId)}`)).tournament;
      told = found && found.format !== "clubnight" ? found.id : null;
    } catch {
      return null;
    }
  }
  return told;
}

/** Read the tournament of table ``tableId``, and again ``later`` ms after (the place once the director has read
 * the table's result); ``changed`` redraws the page. */
export async function loadTournament(tableId, changed, later = 0) {
  const id = await tournamentId(tableId);
  if (!id) return;
  if (later) await new Promise((done) => { setTimeout(done, later); });
  try {
    shown = await api(`/tournaments/${encodeURIComponent(id)}`);
  } catch {
    return; // the table plays on without it
  }
  changed();
  if (!ticking) ticking = setInterval(() => {
    const clock = document.getElementById("tournament-clock");
    if (clock) clock.textContent = clockWords();
  }, 1000);
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
  if (shown.finishing) return t("Time is up");
  if (shown.format === "arena" && shown.ends_at) {
    const s = Math.max(0, Math.round(shown.ends_at - Date.now() / 1000));
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

/** The way on at the end of a tournament table's match (instead of a rematch and new opponents): the next round
 * while the tournament seats its players again, else back to the tournament. */
export function tournamentActions() {
  if (!shown) return null;
  const more = shown.status === "running" && !shown.finishing
    && (shown.format === "arena" || (shown.round || 0) < (shown.rounds || 0));
  return h("a", {class: "button-link primary", href: href(), dataset: {action: "tournament"}},
    more ? t("Your next round") : t("Back to the tournament"));
}
