// @ts-check
// The table page's drawing: the table as the state (tablestate.js) says it is, made afresh with h() at each change
// and put on the page by patch() (patch.js), which changes only what differs. A card or a button that stays is the
// same element, so the focus, a list's scroll and a card's place in the fan survive a drawing by themselves. Here are
// the table itself (the bar, the felt, the viewer's line, the hand, the actions) and what only moves on the page (a
// finished trick kept in view a moment and gathered to its winner, a card previewed where it would go); the panels
// beside it are tablepanels.js's, and the handlers hung on the buttons tableinput.js's.
// What only moves never holds back a message and never hides a card: a message is taken at once, and a card that
// arrives ends a trick still shown.

import {byId, h, here, listen} from "./dom.js";
import {cardButton, cardRow, cardShort, faceSvg, parseCard, parseCards, playShort, readAction, said, sortCards, spokenCards} from "./cards.js";
import {backs, fanRows, felt, handRoom, rankOf, seatPanel, shownOf, shownWords, trickArea} from "./board.js";
import {language, languageSwitch, serverWords, t, tableName, tn} from "./i18n.js";
import {rulesLink} from "./coach.js";
import {tournamentBadge} from "./tabletournament.js";
import {memo, patch} from "./patch.js";
import {askedWhy, chosenPlay, labelOf, legalParts, meaning, myTurn, nameIn, name, noteWords, ownCards, pointed, pointedAction,
  prefs, rulingWords, sameSize, spec, state, tableMessage, toTable, turnText} from "./tablestate.js";
import {act, arrowKeys, askHint, chooseWild, clearChoice, foldExtra, playChosen, show, sortBy, toggle, typedBox, typedInput} from "./tableinput.js";
import {handSummary, matchSummary, scoreDialog, settingsPanel, sidePanels} from "./tablepanels.js";
import {turnLine} from "./tableturn.js";

const app = byId("app");
let chat = null;
let shownPlays = new Set(); // the plays on the table at the last drawing: a play not among them arrives
let drawn = false;
let summaryFocused = false; // the end-of-match dialog has been given the focus since it opened
const rooms = new Map(); // each fanned hand's room (its width and a card's) at the last drawing, by its key
// The parts drawn the same from one message to the next, kept as drawn (patch.js's memo()): the faces of the cards
// in the hand, by card, and the backs in front of each seat, by seat. Most messages change neither, and they are
// most of the table's elements.
let faces = new Map();
const seatBacks = new Map();

/** The table's chat, whose panel the side column shows. */
export function useChat(tableChat) {
  chat = tableChat;
}

/** A short word on the page while there is no table to draw ("Connecting..."). */
export function drawWaiting() {
  patch(app, [h("main", {class: "panel"}, h("p", {role: "status"}, state.connected ? t("Loading the table\u2026") : t("Connecting\u2026")))]);
}

/** Draw the table as the state says. */
export function render() {
  if (!state.view || !state.table) {
    drawWaiting();
    return;
  }
  // the log keeps its newest line in view (in its list on a wide screen, in its drawer on a phone) unless the player
  // has scrolled back: where it is is read before the frame's first drawing (the page is laid out then), and the
  // log is scrolled once the frame's drawings are done, before the frame is shown
  soon();
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const fresh = new Set();
  // a hand is fanned for the room it has on the page: where that changed (its first drawing, a turned phone), it is
  // drawn again for the room it has now
  if (draw(fresh)) draw(fresh);
  shownPlays = fresh;
  drawn = true;
  state.dealt = false;
  if (state.linger && state.linger.phase === "gather") gather(); // drawn again while gathering: still gathered
  // a card that went to another row of the fan is another element: the focus follows it
  if (focused && !focused.isConnected && focused.dataset && focused.dataset.card && document.activeElement === document.body) {
    const again = /** @type {HTMLButtonElement | null} */ (app.querySelector(`.my-area [data-card="${CSS.escape(focused.dataset.card)}"]`));
    if (again && !again.disabled) again.focus({preventScroll: true});
  }
  focusOnTurn();
}

/** Draw the table once; returns whether a hand was fanned for a room other than the one it has now. */
function draw(fresh) {
  const game = state.view.game;
  const n = state.view.hand_sizes.length;
  const parts = legalParts();
  const choice = parts.multis.length ? chosenPlay(parts) : null;

  const header = h("header", {class: "bar table-bar"},
    h("a", {href: here("/"), class: "home"}, t("Clubs")),
    h("h1", {}, tableName(state.table) ?? serverWords(state.table.title)),
    tournamentBadge(),
    h("span", {class: "muted"}, state.table.match_no
      ? t("hand {number} \u00b7 match {match}", {number: state.view.hand_number + 1, match: state.table.match_no + 1})
      : t("hand {number}", {number: state.view.hand_number + 1})),
    h("span", {class: `conn ${state.connected ? "on" : "off"}`, role: "status"}, state.connected ? (state.seat === null ? t("watching") : t("connected")) : t("reconnecting\u2026")),
    h("a", {href: rulesLink(game, null, spec()), class: "rules-link", target: "_blank", rel: "noopener"},
      h("span", {class: "rules-mark", "aria-hidden": "true"}, "?"), h("span", {class: "rules-words"}, t("How to play"))),
    languageSwitch(h),
    settingsPanel(render));

  const isFresh = (seat, cards) => {
    const key = `${seat}:${cards}`;
    fresh.add(key);
    return drawn && !shownPlays.has(key);
  };
  const middle = trickArea({
    game, view: state.view, me: state.seat, name, linger: state.linger, fresh: isFresh,
    preview: choice && toTable() && (choice.play || choice.matches.length === 1) ? previewOf(choice.play ?? choice.matches[0]) : null,
    message: tableMessage(),
  });
  const board = h("div", {class: "board", dataset: {version: String(state.version)}},
    felt({game, view: state.view, seats: state.table.seats, me: state.seat, name, clock: state.clock, middle,
      cardsOf: (seat) => { const n = state.view.hand_sizes ? state.view.hand_sizes[seat] : 0; return memo(seatBacks, seat, [n, language()], () => backs(n)); }}),
    state.summary && state.summary.aside ? null : handSummary(), // under the table, never over the last trick
    meBar(game),
    state.seat === null ? null : h("section", {class: "my-area", "aria-label": t("your cards"), dataset: {key: "my-area"}},
      extraRows(game, parts, true), // cards to play beside the hand (bid cards) above it ...
      handRow(parts),
      controls(game, parts, choice),
      extraRows(game, parts, false))); // ... what is only known (another hand, a pass) under the actions, never its caption

  const side = sidePanels(game, n, chat, render);
  const summary = matchSummary(game, n, render) ?? scoreDialog(game, n);
  const main = h("main", {class: `table-page live drawer-${state.drawer ?? "none"}`}, board, side);
  // the end-of-match dialog: the page behind it out of reach (inert)
  header.inert = summary !== null;
  main.inert = summary !== null;
  const used = new Map(rooms);
  patch(app, [header, main, summary]);
  rooms.clear();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (app.querySelectorAll(".fan-room"))) rooms.set(el.dataset.key, handRoom(el));
  describePointed();
  sayRefusalOnce();
  // the dialog takes the focus when it opens, and keeps it through a drawing (a chat line, the results read)
  const dialog = /** @type {HTMLElement | null} */ (app.querySelector(":scope > .dialog-backdrop [role=dialog]"));
  if (dialog && (!summaryFocused || !dialog.contains(document.activeElement))) dialog.focus({preventScroll: true});
  summaryFocused = dialog !== null;
  return [...rooms].some(([key, room]) => !sameRoom(room, used.get(key) ?? null));
}

// What waits for the next frame, once its drawings are done: the logs to scroll to their end. Reading where things are
// on the page lays it out at once: read before each drawing and scrolled after it, the logs laid the page out twice
// more at each message, several messages a frame where bots play at once.
let frame = null;

/** The work of the next frame, asked for once a frame: where each log was scrolled to, read now (before the
 * frame's first drawing, while the page is laid out still). */
function soon() {
  if (frame) return frame;
  const atEnd = [".log", ".log ol"].filter((sel) => {
    const el = app.querySelector(sel);
    return !el || el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
  });
  frame = {atEnd};
  requestAnimationFrame(() => {
    const due = frame;
    frame = null;
    for (const sel of due.atEnd) {
      const el = app.querySelector(sel);
      if (el) el.scrollTop = el.scrollHeight;
    }
    if (state.awayNew) { // the moves made while the player was away: the log brought into the side column's view
      state.awayNew = false;
      const log = app.querySelector(".side .log");
      if (log && log.getClientRects().length) log.scrollIntoView({block: "start"}); // above the chat kept at its foot
    }
  });
  return frame;
}

function sameRoom(a, b) {
  return a === b || (a !== null && b !== null && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.card - b.card) < 0.5);
}

/** When it is the seat's turn and nothing on the page has the focus (the page was just opened, or the element that
 * had it went), the focus goes to the first card or button to play with. */
function focusOnTurn() {
  if (!myTurn() || document.activeElement !== document.body) return;
  const target = /** @type {HTMLElement | null} */ (app.querySelector(".hand .playable, .controls button:not([disabled])"));
  if (target) target.focus({preventScroll: true});
}

function previewOf(action) {
  return {cards: action.cards.map((c) => (c.as === null ? c.text : `${c.text}=${c.as}`)).join(" "), words: spokenCards(playShort(action.text))};
}

/** A "why?"'s last line: the ruling's id, linking to its paragraph of the game's rules page (which says what this
 * table plays at its top). */
function ruleLine(game, rule) {
  return h("p", {class: "rule-id"},
    h("a", {href: rulesLink(game, rule, spec()), target: "_blank", rel: "noopener"}, t("Ruling {rule}", {rule})));
}

/** The viewer's own line under the table: their seat, what they are asked, and the rule behind it. */
function meBar(game) {
  const rule = myTurn() ? askedWhy() : null;
  const asked = turnText();
  const more = promptParts(asked).length > 1 ? asked : null; // a phone shows the prompt's first sentence only
  const reason = rule || more ? {...(rule ?? {title: t("What to do"), text: ""}), said: more} : null;
  const mine = state.seat === null ? null
    : seatPanel({game, view: state.view, seat: state.seat, info: state.table.seats[state.seat], me: state.seat, clock: state.clock, cards: null, compact: true});
  return h("div", {class: "me-bar", dataset: {key: "me-bar"}},
    mine,
    h("div", {class: "status"},
      h("p", {id: "turn"}, ...promptParts(asked)), // read out by the page's live region when the turn comes
      reason ? h("button", {type: "button", class: "why-button", "aria-expanded": state.whyOpen ? "true" : "false", dataset: {action: "why"},
        onclick: () => show({whyOpen: !state.whyOpen})}, t("why?")) : null,
      notes(game, reason),
      turnLine(), // a turn-based table: the clock of the player to act
      state.over && state.resultClosed ? h("button", {type: "button", dataset: {action: "show-result"}, onclick: () => show({resultClosed: false})}, t("Show the result")) : null));
}

/** What is said under the prompt for a moment: the why, a refusal and its rule, a hint. On a laptop they float over
 * the foot of the felt (the table's height is fixed there, and the hand must stay in sight); on a phone they run on
 * under the prompt. */
function notes(game, reason) {
  const lines = [
    reason && state.whyOpen ? h("div", {class: "why", role: "note"},
      reason.said ? h("p", {class: "why-said"}, said(reason.said)) : null,
      reason.text ? [h("strong", {}, reason.title ?? t("The rule")), h("p", {}, reason.text)] : null,
      reason.rule ? ruleLine(game, reason.rule) : null) : null,
    state.error ? h("p", {class: "error", role: "alert", id: "refusal"}, said(state.error)) : null,
    state.error && state.errorRule && rulingWords(state.errorRule) ? h("details", {class: "why-refused"},
      h("summary", {}, t("why?")), h("strong", {}, rulingWords(state.errorRule).title), h("p", {}, rulingWords(state.errorRule).text),
      ruleLine(game, state.errorRule)) : null,
    state.hint ? h("p", {class: "hint", role: "status"}, said(t("Hint: {play}", {play: playShort(state.hint)}))) : null,
  ].filter(Boolean);
  return lines.length ? h("div", {class: "notes"}, lines) : null;
}

/** A refusal is said once on the screen: where the coach, open beside the table, says it (with its rule), the notes
 * under the prompt leave it and its "why?" out. */
function sayRefusalOnce() {
  const coachSays = [...app.querySelectorAll(".coach .coach-refused")].some((el) => el.getClientRects().length > 0);
  if (!coachSays) return;
  for (const el of app.querySelectorAll(".notes > #refusal, .notes > .why-refused")) el.remove();
  for (const el of app.querySelectorAll(".notes:empty")) el.remove();
  if (typedInput.getAttribute("aria-describedby") === "refusal") typedInput.removeAttribute("aria-describedby");
}

/** The prompt's first sentence, and the rest (what a phone leaves out: it is said again behind "why?"). */
function promptParts(text) {
  const m = /^(.+?[.?!])\s+(\S.*)$/s.exec(text);
  return m ? [said(m[1]), h("span", {class: "prompt-more"}, " ", said(m[2]))] : [said(text)];
}

/** The cards beside the hand that the seat knows (the chest, its discards, what it passed or received, the bid hand
 * it left), small, in one line that wraps; a long one folds away. ``playable``: the rows played from (drawn above
 * the hand), or the rest (drawn under the actions, so that a row about another hand never reads as the hand's
 * caption). */
function extraRows(game, parts, playable) {
  const rows = extraParts(parts, playable);
  return rows.length ? h("div", {class: `extras ${playable ? "extras-play" : "extras-known"}`, dataset: {key: playable ? "extras-play" : "extras-known"}}, rows) : null;
}

function extraParts(parts, playable) {
  const rows = [];
  (shownOf(state.view).known || []).forEach((known, i) => {
    if (Boolean(known.playable) !== playable) return;
    const cards = sortHand(parseCards(known.cards));
    const title = shownWords(known.title, nameIn);
    if (known.playable) {
      const buttons = cards.map((c) => cardButton(c, {
        enabled: parts.singles.has(c.text) && !state.pending, extra: pointed(c.text),
        onclick: () => act(parts.singles.get(c.text)),
      }));
      rows.push(h("div", {class: "extra"}, h("h2", {}, title), fanned(`known-${i}`, "hand bid-cards", {}, buttons)));
    } else if (known.folded) { // kept open through the drawings once opened
      const key = `${known.title.code}:${i}`;
      rows.push(h("details", {class: "extra", open: state.openExtras.has(key), ontoggle: (e) => foldExtra(key, e.currentTarget.open)},
        h("summary", {}, tn("{title} ({n} card)", "{title} ({n} cards)", cards.length, {title})), cardRow(cards, "small")));
    } else {
      rows.push(h("div", {class: "extra"}, h("h2", {}, title), cardRow(cards, "small")));
    }
  });
  return rows;
}

/** A hand of card buttons laid out as a fan that fits the room the hand had at the last drawing (one row where
 * every card shows at least 44 px to tap, else two or more); ``key`` finds it again. */
function fanned(key, classes, attrs, buttons) {
  const rows = fanRows(buttons, rooms.get(key) ?? null);
  const several = rows.length > 1 && rows[0].classList.contains("fan-row");
  return h("div", {...attrs, class: `${classes} fan-room${several ? " rows" : ""}`, dataset: {key}}, rows);
}

/** The hand sorted as this player likes it, by the game's own order of ranks. */
function sortHand(cards) {
  const [by, way] = prefs.sort.split("-");
  const order = state.view ? rankOf(state.view) : (c) => c.value;
  return sortCards(cards, {by: by === "rank" ? "rank" : "suit", dir: way === "down" ? -1 : 1, rank: order});
}

function handRow(parts) {
  const cards = sortHand(ownCards());
  const select = parts.multis.length > 0;
  const chosen = [...state.selection];
  const fits = (card) => parts.multis.some((m) => {
    const texts = new Set(m.cards.map((c) => c.text));
    return texts.has(card) && chosen.every((c) => texts.has(c));
  });
  const activeHand = parts.singles.size > 0 || select;
  const dealt = state.dealt && prefs.motion;
  const focusable = prefs.screenReader; // every card reachable by the keyboard, those not to play marked so
  const wild = shownOf(state.view).wild;
  const lang = language();
  const times = new Map();
  const held = new Map(); // the faces of the cards held now: those of the cards played are forgotten
  const faceOf = (c) => { // a card twice in a hand (two decks) has two faces
    const nth = times.get(c.text) ?? 0;
    times.set(c.text, nth + 1);
    const key = `${nth}:${c.text}`;
    const face = memo(faces, key, [c.as, lang], () => faceSvg(c));
    held.set(key, faces.get(key));
    return face;
  };
  const buttons = cards.map((c, i) => {
    let button;
    const face = faceOf(c);
    if (select) {
      const on = state.selection.has(c.text);
      button = cardButton(c, {enabled: !state.pending && (on || fits(c.text)), selected: on, onclick: () => toggle(c.text), focusable, wild, face,
        extra: `${state.hint && readAction(state.hint).cards.some((x) => x.text === c.text) ? "hinted" : ""} ${pointed(c.text)}`});
    } else {
      const action = parts.singles.get(c.text);
      button = cardButton(c, {enabled: action !== undefined && !state.pending, onclick: () => act(action), extra: `${state.hint === c.text ? "hinted" : ""} ${pointed(c.text)}`, focusable, wild, face});
      if (action !== undefined) {
        for (const [type, text] of [["pointerenter", c.text], ["pointerleave", null], ["focus", c.text], ["blur", null]]) {
          listen(button, type, () => previewCard(text));
        }
      }
    }
    if (dealt) {
      button.classList.add("dealt");
      button.style.setProperty("--i", String(i));
    }
    return button;
  });
  faces = held;
  return fanned("hand", `hand${activeHand ? " active" : ""}`, {role: "group", "aria-label": tn("your hand, {n} card", "your hand, {n} cards", cards.length), onkeydown: arrowKeys}, buttons);
}

/** Show the card a click would play in the viewer's place on the table, faded, until the pointer leaves it. */
function previewCard(text) {
  const place = app.querySelector(`.trick-area .place[data-seat="${state.seat}"]`);
  if (!place || state.linger || !toTable()) return;
  const old = place.querySelector(".pile.preview");
  if (old) old.remove();
  const empty = /** @type {HTMLElement | null} */ (place.querySelector(".card.placeholder"));
  if (text === null) {
    if (empty) empty.hidden = false;
    return;
  }
  if (!empty) return; // something lies there already
  empty.hidden = true;
  const card = parseCard(text);
  place.prepend(h("div", {class: "pile preview", "aria-hidden": "true"}, cardRow([card]).firstChild));
}

function controls(game, parts, choice) {
  const items = [];
  const disabled = state.pending;
  for (const w of parts.words) {
    items.push(actionButton({class: `action ${pointedAction(w.text)}`.trim(), disabled, dataset: {action: w.text}, onclick: () => act(w.text)}, labelOf(w.text)));
  }
  if (choice) {
    const {chosen, matches, wilds} = choice;
    if (wilds.length && matches.length) {
      items.push(wildPicker(choice));
    } else {
      for (const m of matches) {
        items.push(actionButton({class: `action primary ${pointedAction(m.text)}`.trim(), disabled, dataset: {action: m.text}, onclick: () => playChosen(m.text)}, labelOf(m.text)));
      }
    }
    if (chosen.length && !matches.length) items.push(h("span", {class: "muted"}, sameSize(parts.multis) > 1 ? t("{count} of {size} chosen", {count: chosen.length, size: sameSize(parts.multis)}) : t("Not a play yet: choose more cards, or other ones.")));
    if (chosen.length) items.push(h("button", {type: "button", dataset: {action: "clear"}, onclick: clearChoice}, t("Clear the choice")));
  }
  if (myTurn() && state.table.settings.hints) {
    items.push(h("button", {type: "button", dataset: {action: "hint"}, disabled, onclick: askHint}, t("Hint")));
  }
  if (myTurn() || (prefs.screenReader && !state.over)) items.push(typedBox());
  if (state.seat !== null && ownCards().length > 1) items.push(sortPicker());
  return h("div", {class: "controls", role: "group", "aria-label": t("actions"), dataset: {key: "controls"}}, items);
}

/** One compact picker per wild 15 chosen: the values it may stand for in a legal play with the other cards as
 * chosen, the strongest first (the server's order); then one button for the play they make. What a play does is
 * said where the game says it: in each value of a lone picker, else beside the button. */
function wildPicker(choice) {
  const {options, play, matches} = choice;
  const lone = options.length === 1;
  const pickers = options.map(({wild, values}) => {
    const id = `wild-${wild}`;
    const valueWords = (v) => (v === "self" ? t("{value} (itself)", {value: parseCard(wild).value}) : String(v));
    const select = h("select", {id, dataset: {wild}, onchange: (e) => chooseWild(wild, e.currentTarget.value)},
      values.map((v) => {
        const does = lone ? noteWords(matches.find((m) => meaning(m, wild) === v)) : null;
        return h("option", {value: String(v)}, does ? t("{value}: {does}", {value: valueWords(v), does}) : valueWords(v));
      }));
    select.value = String(state.wild.get(wild));
    return h("span", {class: "wild-pick"}, h("label", {for: id}, said(t("{card} counts as", {card: cardShort(parseCard(wild))}))), select);
  });
  return h("span", {class: "wild-picker", role: "group", "aria-label": t("what the wild 15 stands for")},
    pickers,
    play ? actionButton({class: "action primary", disabled: state.pending, dataset: {action: play.text}, onclick: () => playChosen(play.text)}, labelOf(play.text)) : null,
    play && !lone && noteWords(play) ? h("span", {class: "play-note"}, noteWords(play)) : null);
}

function sortPicker() {
  const choices = [["suit-up", t("by suit, low first")], ["suit-down", t("by suit, high first")], ["rank-up", t("by rank, low first")], ["rank-down", t("by rank, high first")]];
  const select = h("select", {id: "sort-hand", dataset: {action: "sort"}, onchange: (e) => sortBy(e.currentTarget.value)}, choices.map(([v, label]) => h("option", {value: v}, label)));
  select.value = prefs.sort;
  return h("span", {class: "sort-pick"}, h("label", {for: "sort-hand"}, t("Sort your hand")), select);
}

/** An action's button, named in words where its label shows cards in symbols ("Play Q\u2665": "Play queen of
 * hearts"). */
function actionButton(attrs, label) {
  const words = spokenCards(label);
  return h("button", {type: "button", ...attrs, "aria-label": words === label ? null : words}, label);
}

/** A marked card or button is described by the coach's line on it (a screen reader hears why it is marked). */
function describePointed() {
  if (!document.getElementById("coach-say")) return;
  for (const el of app.querySelectorAll(".pointed")) el.setAttribute("aria-describedby", "coach-say");
}

// -- a finished trick stays in view a moment, then gathers toward its winner ------------------------------------
let lingerTimers = [];

/** After an update (tablestate's ``trick``): where its events finished a trick, keep that trick on the table for the
 * chosen pause; a new card on the table ends the pause at once. */
export function settleTrick({finished, onTable}) {
  if (finished && !onTable && finished.plays.size > 0 && state.view.hand_sizes.length > 0 && prefs.pause > 0) {
    showLinger(finished);
  } else if (onTable) {
    endLinger(false);
  }
}

function showLinger(linger) {
  endLinger(false);
  state.linger = linger;
  const pause = prefs.pause * 1000;
  lingerTimers.push(setTimeout(() => {
    if (state.linger !== linger) return;
    linger.phase = "gather";
    gather();
    lingerTimers.push(setTimeout(() => { if (state.linger === linger) endLinger(true); }, prefs.motion ? 380 : 0));
  }, pause));
}

/** End a finished trick's pause (``draw``: and draw the table without it). */
export function endLinger(draw) {
  for (const timer of lingerTimers) clearTimeout(timer);
  lingerTimers = [];
  if (state.linger === null) return;
  state.linger = null;
  if (draw) render();
}

/** Slide the finished trick's cards toward the place of its winner (on the page as drawn, without drawing again). */
function gather() {
  const area = app.querySelector(".trick-area");
  if (!area || !state.linger) return;
  const target = area.querySelector(`.place[data-seat="${state.linger.winner}"]`);
  if (!target) return;
  const to = target.getBoundingClientRect();
  for (const place of area.querySelectorAll(".place")) {
    place.classList.remove("lingering");
    place.classList.add("gather");
    const pile = /** @type {HTMLElement | null} */ (place.querySelector(".pile"));
    if (!pile) continue;
    const from = pile.getBoundingClientRect();
    pile.style.setProperty("--to-x", `${to.left + to.width / 2 - (from.left + from.width / 2)}px`);
    pile.style.setProperty("--to-y", `${to.top + to.height / 2 - (from.top + from.height / 2)}px`);
  }
}
