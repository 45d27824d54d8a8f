// @ts-check
// Turn-based tables in words, shared by the pages that show them (the "Your turn" page, the lobby's new-table form,
// the table, the bar): a table's pace ("a move within a day"), what happens when a clock runs out, the time left
// ("5 h 20 min left", "clock stopped: night"), and the bar's "Your turn" link with the count of tables waiting for
// the player (GET /turns/count), read again at each "turn" notice of the page's socket and every minute.

import {api, h} from "./dom.js";
import {t, tn} from "./i18n.js";
import {on} from "./live.js";

/** The paces a turn-based table may have: seconds for each move. */
export const PACES = [43200, 86400, 172800, 259200, 432000, 604800, 1209600];

/** What happens when a player's clock runs out, as the server names it. */
export const TIMEOUTS = ["bot", "adjourn", "lose"];

/** A pace in a few words, as a choice in a list: "12 hours", "a day", "a week". */
export function paceChoice(pace) {
  switch (pace) {
    case 43200: return t("12 hours");
    case 86400: return t("a day");
    case 172800: return t("2 days");
    case 259200: return t("3 days");
    case 432000: return t("5 days");
    case 604800: return t("a week");
    case 1209600: return t("2 weeks");
    default: return durationWords(pace);
  }
}

/** A table's pace in a sentence's words: "a move within a day". */
export function paceWords(pace) {
  return t("a move within {time}", {time: paceChoice(pace)});
}

/** What happens when a clock runs out, said in full (the new-table form's choices). */
export function timeoutChoice(onTimeout) {
  switch (onTimeout) {
    case "bot": return t("A bot makes that move for the late player, and the match goes on");
    case "adjourn": return t("The match stops until a player resumes it");
    case "lose": return t("The late player loses the match (at a rated table, that counts for the ratings)");
    default: return "";
  }
}

/** What happens when a clock runs out, short (a table's summary): "time out: a bot moves". */
export function timeoutWords(onTimeout) {
  switch (onTimeout) {
    case "bot": return t("out of time: a bot moves");
    case "adjourn": return t("out of time: the match stops");
    case "lose": return t("out of time: the match is lost");
    default: return "";
  }
}

/** A length of time in words, to the minute: "5 h 20 min", "2 days 3 h", "less than a minute". */
export function durationWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t("less than a minute");
  const minutes = Math.floor(s / 60) % 60;
  const hours = Math.floor(s / 3600) % 24;
  const days = Math.floor(s / 86400);
  if (days > 0) return hours ? tn("{n} day {hours} h", "{n} days {hours} h", days, {hours}) : tn("{n} day", "{n} days", days);
  if (hours > 0) return minutes ? t("{hours} h {minutes} min", {hours, minutes}) : t("{hours} h", {hours});
  return t("{minutes} min", {minutes});
}

/** The time left on a clock, in words: "5 h 20 min left". */
export function leftWords(seconds) {
  return t("{time} left", {time: durationWords(seconds)});
}

/** Why a clock stands still, in words: "clock stopped: night", "clock stopped: vacation". */
export function pausedWords(paused) {
  if (paused === "night") return t("clock stopped: night");
  if (paused === "vacation") return t("clock stopped: vacation");
  return "";
}

/** The seconds left on a clock told ``left`` seconds at ``told`` (this device's milliseconds), now: a running clock
 * counts down from then, a stopped one stands. */
export function secondsLeftNow(left, told, paused) {
  if (typeof left !== "number") return null;
  return paused ? left : Math.max(0, left - (Date.now() - told) / 1000);
}

// -- the bar's "Your turn" link ---------------------------------------------------------------------------------------
const COUNT_MS = 60000;
let link = null;
let counting = false;

/** The bar's link to the "Your turn" page, with the count of tables waiting for the player's move (only for a
 * signed-in account: the bar asks for it then). One element for the life of the page, counted again at each "turn"
 * notice and every minute. */
export function turnsLink() {
  if (!link) {
    link = h("a", {href: "/your-turn", id: "turns-link", class: "turns-link none"},
      h("span", {class: "turns-words"}, t("Your turn")), " ", h("span", {class: "turns-count"}, "0"));
  }
  if (!counting) {
    counting = true;
    countTurns();
    onTurnNotice(() => countTurns());
    setInterval(countTurns, COUNT_MS);
  }
  return link;
}

/** Read the count again and show it on the bar's link. */
export async function countTurns() {
  if (!link) return;
  let waiting = 0;
  try {
    waiting = Number((await api("/turns/count")).waiting) || 0;
  } catch {
    return; // not said: the link keeps its count
  }
  showCount(waiting);
}

/** Show ``waiting`` tables on the bar's link (the "Your turn" page, which reads the list, says it at once). */
export function showCount(waiting) {
  if (!link) return;
  link.classList.toggle("none", waiting === 0);
  link.querySelector(".turns-count").textContent = String(waiting);
  link.title = waiting ? tn("Your turn at {n} table", "Your turn at {n} tables", waiting) : t("No table waits for your move");
}

/** Call ``f(notice)`` for each "your turn" notice the page's socket brings. */
export function onTurnNotice(f) {
  on("notice", (msg) => { if (msg.notice && msg.notice.kind === "turn") f(msg.notice); });
}
