// @ts-check
// A turn-based table on the table page (the state's ``turn``, null at a live table): under the prompt, the clock of
// the player to act in words ("Ann: 11 h left", "Your clock: 5 h 20 min left", "Ann's clock is stopped: night"), or
// that the match is adjourned (with Resume, for a seated player), or who lost on time; the table's pace and what
// happens when a clock runs out; and, beside the hand's facts, the player's own auto-play switch (a move with only one
// legal choice made for them at once). No countdown ticks: the page is drawn again each minute, to the minute.

import {api, h} from "./dom.js";
import {t} from "./i18n.js";
import {show} from "./tableinput.js";
import {name, state, tableId} from "./tablestate.js";
import {leftWords, paceWords, secondsLeftNow, timeoutWords} from "./turnwords.js";

/** The clock's line under the prompt, or null at a live table. */
export function turnLine() {
  const turn = state.turn;
  if (!turn) return null;
  return h("div", {class: "turn-clock", dataset: {key: "turn-clock"}},
    h("p", {id: "turn-clock", class: turn.adjourned || (turn.ended && typeof turn.ended.lost === "number") ? "turn-alert" : ""},
      clockWords(turn)),
    turn.adjourned && !state.over && state.seat !== null
      ? h("button", {type: "button", class: "primary", dataset: {action: "turn-resume"}, onclick: resume}, t("Resume the match")) : null,
    h("span", {class: "muted turn-pace"}, `${paceWords(turn.pace)} \u00b7 ${timeoutWords(turn.on_timeout)}`),
    nextTableLink(turn),
    h("a", {href: "/your-turn", class: "turn-list-link"}, t("Your turn-based tables")),
    state.turnProblem ? h("p", {class: "error", role: "alert"}, state.turnProblem) : null);
}

/** The next of the player's turn-based tables that waits for their move, once this one does not (as a player who
 * plays many tables a day goes from one to the next), read from ``GET /turns`` at most every half minute. */
let nextTable = {id: /** @type {string | null} */ (null), asked: 0, version: -1};

function nextTableLink(turn) {
  if (state.seat === null || turn.seat === state.seat) return null;
  const now = Date.now();
  if (nextTable.version !== state.version && now - nextTable.asked > 30000) {
    nextTable = {...nextTable, asked: now, version: state.version};
    api("/turns").then((list) => {
      const next = (list.tables || []).find((e) => e.mine && e.id !== tableId);
      const id = next ? next.id : null;
      if (id !== nextTable.id) {
        nextTable = {...nextTable, id};
        show({});
      }
    }).catch(() => null);
  }
  return nextTable.id === null ? null
    : h("a", {href: `/table/${encodeURIComponent(nextTable.id)}`, class: "button-link primary next-table"}, t("Next table waiting for you"));
}

/** The clock of a turn-based table in words. */
function clockWords(turn) {
  if (turn.ended && typeof turn.ended.lost === "number") {
    return turn.ended.lost === state.seat ? t("You ran out of time and lost the match.")
      : t("{name} ran out of time and lost the match.", {name: name(turn.ended.lost)});
  }
  if (state.over) return t("The match is over.");
  if (turn.adjourned) return t("Adjourned: a player's time ran out, and the match waits until a player resumes it.");
  if (turn.seat === null || turn.seat === undefined) return t("No clock runs now.");
  const mine = turn.seat === state.seat;
  if (turn.paused) {
    const why = turn.paused === "vacation" ? t("vacation") : t("night");
    return mine ? t("Your clock is stopped: {why}", {why}) : t("{name}'s clock is stopped: {why}", {name: name(turn.seat), why});
  }
  const left = secondsLeftNow(turn.seconds_left, state.turnTold, false);
  const clock = left === null ? "" : leftWords(left);
  return mine ? t("Your clock: {clock}", {clock}) : t("{name}: {clock}", {name: name(turn.seat), clock});
}

/** The player's auto-play switch, beside the hand's facts (a seated player at a turn-based table only). */
export function autoplaySwitch() {
  if (!state.turn || state.seat === null || state.over) return null;
  const box = h("input", {type: "checkbox", id: "autoplay", onchange: (e) => setAutoplay(e.currentTarget.checked)});
  box.checked = Boolean(state.turn.autoplay);
  return h("div", {class: "field check autoplay-box", dataset: {key: "autoplay"}}, box,
    h("label", {for: "autoplay"}, t("Auto-play: a move with only one choice is made for me at once")));
}

async function resume() {
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/turn/resume`, {});
    show({turnProblem: null});
  } catch (err) {
    show({turnProblem: err.message});
  }
}

async function setAutoplay(on) {
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/turn/autoplay`, {on});
    if (state.turn) state.turn = {...state.turn, autoplay: on};
    show({turnProblem: null});
  } catch (err) {
    show({turnProblem: err.message});
  }
}
