// @ts-check
// The table page's input: what a click, a key or a typed move does. Each handler changes the page's state
// (tablestate.js) or sends the server a message (an action in the game's notation, a hint asked for), then has the
// table drawn again; the drawing (tableview.js) hangs these on its buttons. Also the typed move's field, one element
// for the life of the page (what is being typed and its focus survive every drawing), and the keys and clicks the
// whole page listens to (Escape closes a dialog, a click on the table skips a finished trick's pause).
// table.js wires in how to send and how to draw (wireInput), so that nothing here imports the drawing.

import {api, byId, h, here, store} from "./dom.js";
import {t} from "./i18n.js";
import {kept} from "./patch.js";
import {prefs, spec, state, tableId} from "./tablestate.js";

const app = byId("app");
/** @type {{send: (msg: object) => boolean, render: () => void, endLinger: (cut?: boolean) => void}} */
let wiring = {send: () => false, render: () => {}, endLinger: () => {}};

/** Wire in ``send(msg)`` (true when sent), ``render()`` and ``endLinger()`` (a finished trick's pause cut short). */
export function wireInput(functions) {
  wiring = functions;
}

/** Send a legal action (its notation); a refusal comes back as an error. */
export function act(text) {
  if (state.pending || state.version === null) return;
  state.error = null;
  state.summary = null;
  if (wiring.send({type: "act", protocol: 1, action: text, version: state.version})) {
    state.pending = true;
    state.hint = null;
  } else {
    state.error = t("Not connected: the action was not sent (reconnecting).");
  }
  wiring.render();
}

/** A card chosen or left out of a play of several cards. */
export function toggle(card) {
  if (state.selection.has(card)) state.selection.delete(card);
  else state.selection.add(card);
  state.wild.clear();
  state.error = null;
  wiring.render();
}

/** The value a chosen wild 15 stands for (a number, or "self"). */
export function chooseWild(wild, value) {
  state.wild.set(wild, value === "self" ? "self" : Number(value));
  wiring.render();
}

export function clearChoice() {
  state.selection.clear();
  state.wild.clear();
  wiring.render();
}

/** Play the chosen cards as ``text``: the choice is spent. */
export function playChosen(text) {
  state.selection.clear();
  state.wild.clear();
  act(text);
}

export function askHint() {
  wiring.send({type: "hint", version: state.version});
}

/** The hand sorted another way in this game (remembered in this browser). */
export function sortBy(order) {
  store.set(`sort.${state.view.game}`, order);
  wiring.render();
}

/** Change something only this page shows (a "why?" open, the last trick shown, a drawer) and draw again. */
export function show(changes) {
  Object.assign(state, changes);
  wiring.render();
}

/** A phone's drawer opened, or closed when it is open. */
export function drawer(key) {
  show({drawer: state.drawer === key ? null : key});
}

/** A folded row of known cards opened or closed by the player: kept so through the drawings. */
export function foldExtra(key, open) {
  if (open) state.openExtras.add(key);
  else state.openExtras.delete(key);
}

/** Arrow keys, Home and End move the focus along the hand's cards that can take it. */
export function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const buttons = [...event.currentTarget.querySelectorAll("button.card:not([disabled])")]; // those the focus can take
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const next = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : at + (event.key === "ArrowLeft" ? -1 : 1);
  const target = buttons[Math.max(0, Math.min(buttons.length - 1, next))];
  target.focus();
  event.preventDefault();
}

// -- the dialogs -------------------------------------------------------------------------------------------------
/** Close the end-of-match dialog; the focus goes to "Show the result", which opens it again. */
export function closeResult() {
  state.resultClosed = true;
  wiring.render();
  const again = /** @type {HTMLElement | null} */ (app.querySelector('[data-action="show-result"]'));
  if (again) again.focus({preventScroll: true});
}

/** The scores in detail: one hand's (its index) or, for null, every hand's. */
export function showDetails(hand) {
  show({scoreDetails: {hand}});
}

/** Close the scores' details; the focus goes back to the sheet's button that opened them. */
export function closeScoreDetails() {
  const from = state.scoreDetails;
  state.scoreDetails = null;
  wiring.render();
  const back = from && /** @type {HTMLElement | null} */ (app.querySelector(`[data-action="hand-details-${from.hand === null ? "all" : from.hand}"]`));
  if (back) back.focus({preventScroll: true});
}

// -- leaving, and the next match -----------------------------------------------------------------------------------
export async function leave() {
  if (!state.token) return;
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/leave`, {token: state.token});
  } catch (err) {
    state.error = err.message;
    wiring.render();
    return;
  }
  store.set(`seat.${tableId}`, null);
  state.closedForGood = true;
  if (state.socket) state.socket.close();
  location.href = here("/");
}

export async function rematch() {
  try {
    await api(`/tables/${encodeURIComponent(tableId)}/rematch`, {token: state.token});
    state.hands = [];
    state.summary = null;
    state.scoreDetails = null;
  } catch (err) {
    state.error = err.message;
    wiring.render();
  }
}

/** New opponents: a fresh table of the same game (quick play; at a rated table, the lobby's rated queue). */
export async function newOpponents() {
  if (state.table.settings.rated) {
    store.set("ratedGame", state.table.base);
    location.href = here("/");
    return;
  }
  const me = state.table.seats[state.seat];
  const who = store.get("name") || (me && me.name) || t("Player");
  try {
    const joined = await api("/quickplay", {game: spec(), name: who}); // the same rules, other players
    store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
    location.href = here(`/table/${encodeURIComponent(joined.table)}`);
  } catch (err) {
    state.error = err.message;
    closeResult(); // the refusal shows at the table; the focus on "Show the result"
  }
}

// -- typing a move in the game's notation, as in the terminal ("QH", "7C 7H", "pass") -------------------------------
// The field is one element for the life of the page, so that what is being typed and the focus survive a drawing;
// Enter sends it; the server's refusal of an illegal one is shown (an alert), and the text stays to be put right.
// Made when this module loads, before the language's words are: its words are put (again) each time it is drawn.
export const typedInput = h("input", {id: "typed", name: "action", autocomplete: "off", autocapitalize: "characters", spellcheck: "false"});
const typedLabel = h("label", {for: "typed", class: "typed-label"});
const typedSend = h("button", {type: "submit"});
const typedForm = h("form", {class: "typed"}, typedLabel, typedInput, typedSend);
const typedSummary = h("summary", {});
const typedFold = h("details", {class: "typed-box"}, typedSummary);
const typedOpen = h("div", {class: "typed-box open"});
let typedSent = null; // the typed action on its way, cleared from the field once the table has taken it

typedForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = typedInput.value.trim();
  if (!text || state.pending) return;
  typedSent = text;
  act(text);
});

/** What a message did to the typed move: the page's own action taken (``mine``) empties the field, and so does the
 * table moving on (``moved``) past the move sent from it; a refusal leaves the text to be put right. */
export function typedAfter({mine = false, moved = false, refused = false}) {
  if (mine) typedInput.value = ""; // your turn is done
  if (moved) {
    if (typedSent !== null && typedInput.value.trim() === typedSent) typedInput.value = ""; // the table moved on
    typedSent = null;
  }
  if (refused) typedSent = null;
}

/** The typed move: folded away behind "Type a move", or open and labelled in the screen-reader mode (the same
 * elements at every drawing: kept()). A refusal shown is the field's description. */
export function typedBox() {
  typedInput.setAttribute("placeholder", t("e.g. QH, pass, 7C 7H"));
  typedLabel.textContent = t("Type an action in notation");
  typedSend.textContent = t("Send move");
  typedSummary.textContent = t("Type a move");
  if (state.error) typedInput.setAttribute("aria-describedby", "refusal");
  else typedInput.removeAttribute("aria-describedby");
  const box = prefs.screenReader ? typedOpen : typedFold;
  if (typedForm.parentNode !== box) box.append(typedForm);
  return kept(box);
}

// -- the whole page's keys and clicks -------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  if (state.over && !state.resultClosed && app.querySelector(".match-summary")) closeResult();
  else if (state.scoreDetails) closeScoreDetails();
});

// a click on the table while a finished trick is shown skips the pause
app.addEventListener("click", (event) => {
  if (state.linger && event.target instanceof Element && event.target.closest(".trick-area")) wiring.endLinger(true);
});

// the fan is laid out for the width it has: a turned phone or a resized window lays it out again
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (state.view && state.table) wiring.render(); }, 150);
});
