// @ts-check
// The table page's panels around the table, drawn from the state (tablestate.js): the side column (the coach, the
// last hand's account, the facts, the scores, the play log, the chat; drawers behind tabs on a phone), the settings
// in the bar, and the dialogs over the page (the end of the match, the scores in detail, a hand's account). Kept
// apart from tableview.js, which draws the table itself and puts these beside it; the handlers are tableinput.js's.

import {OFFLINE, colourToggle, downloadLocal, h, here, store} from "./dom.js";
import {said} from "./cards.js";
import {factList, handDetails, lastTrick, scoreSheet} from "./board.js";
import {setSound, soundOn} from "./sound.js";
import {language, languageSwitch, t, tn} from "./i18n.js";
import {ratingWords} from "./account.js";
import {coachPanel} from "./coach.js";
import {kept, memo} from "./patch.js";
import {atTournament, tournamentActions, tournamentMatchEnded} from "./tabletournament.js";
import {askedText, askedWhy, headingOf, loadBrief, loadResults, myTurn, name, nameIn, prefs, spec, state, tableId, winnersText, withInvite} from "./tablestate.js";
import {autoplaySwitch} from "./tableturn.js";
import {closeResult, closeScoreDetails, drawer, leave, newOpponents, rematch, show, showDetails} from "./tableinput.js";

/** The coach's explanations, on a table with the coach on (the guided first hand). */
export function coaching(game, render) {
  if (!state.table.settings || !state.table.settings.coach || state.seat === null) return null;
  loadBrief(game, render); // the game in brief, for the coach to open with: asked once
  const introKey = `coachIntro.${tableId}`;
  return coachPanel({
    brief: store.get(introKey, false) === true ? null : state.brief,
    onIntroDone: () => { store.set(introKey, true); render(); },
    onRealMatch: newOpponents,
    game, spec: spec(), view: state.view, me: state.seat, asked: myTurn() ? askedText() : null, why: myTurn() ? askedWhy() : null,
    myTurn: myTurn(), toAct: state.toAct, error: state.error, lesson: state.lesson,
    errorRule: state.errorRule, hands: state.hands, name, over: state.over,
    folded: store.get("coachFolded", false) === true,
    onFold: () => { store.set("coachFolded", store.get("coachFolded", false) !== true); render(); },
  });
}

// -- the side: facts, scores, the log, chat (drawers on a phone) --------------------------------------------------
/** The side's drawers (tabs on a phone): key and label. */
function drawers() {
  const chat = OFFLINE ? [] : [["chat", t("Chat")]]; // the offline app's table has nobody to chat with
  return [["scores", t("Scores")], ["log", t("Play log")], ...chat, ["facts", t("About this hand")]];
}

/** The side column; ``chat`` the table's chat (its panel one element for the life of the page). */
export function sidePanels(game, n, chat, render) {
  const tabs = h("nav", {class: "drawer-tabs", "aria-label": t("more about the table")},
    drawers().map(([key, label]) => h("button", {type: "button", "aria-expanded": state.drawer === key ? "true" : "false", dataset: {action: `drawer-${key}`},
      onclick: () => drawer(key)}, key === "chat" ? chatLabel(chat) : label)));
  const close = () => h("button", {type: "button", class: "drawer-close", dataset: {action: "drawer-close"}, onclick: () => show({drawer: null})}, t("Close"));
  return h("aside", {class: "side"},
    coaching(game, render), // at the head of the side column on a wide screen; under the hand on a narrow one
    state.summary && state.summary.aside ? handSummary() : null, // the last hand's account, once the next is played
    tabs,
    h("div", {class: "drawer", dataset: {drawer: "facts", key: "facts"}},
      h("h2", {class: "drawer-title"}, t("About this hand")),
      h("div", {class: "side-buttons"},
        h("button", {type: "button", "aria-pressed": state.showLast ? "true" : "false", onclick: () => show({showLast: !state.showLast})}, state.showLast ? t("Hide the last trick") : t("Show the last trick")),
        inviteBox()),
      state.showLast ? h("div", {class: "last-box"}, lastTrick({game, view: state.view, name: nameIn, lastWon: state.lastWon}) ?? h("p", {class: "muted"}, t("No trick has been completed yet."))) : null,
      factList(game, state.view, name),
      autoplaySwitch(), // a turn-based table: the player's own auto-play
      leaveBox()),
    h("div", {class: "drawer", dataset: {drawer: "scores", key: "scores"}}, scoreSheet({game, view: state.view, hands: state.hands, name, n, onDetails: showDetails})),
    h("section", {class: "log drawer", dataset: {drawer: "log", key: "log"}, "aria-label": t("what happened")}, h("h2", {}, t("Play")),
      // the list scrolls: the keyboard can take it (tabindex) to scroll it
      h("ol", {tabindex: "0", "aria-label": t("the play so far")}, logLines())),
    OFFLINE ? null : h("div", {class: "drawer", dataset: {drawer: "chat", key: "chat"}}, kept(chat.panel())), // chat: the same element every drawing (a message being typed survives)
    state.drawer ? h("div", {class: "drawer-bar"}, close()) : null);
}

// The play log's lines as last drawn, each by its words and how many lines before it have the same words: a line
// only grows the log, which may hold 200, so that each drawing makes and compares only the lines new since the last.
let logDrawn = new Map();

/** The play log's lines, one <li> each. */
function logLines() {
  const seen = new Map();
  const drawn = new Map();
  const lang = language();
  const items = state.log.map((line) => {
    const nth = seen.get(line) ?? 0;
    seen.set(line, nth + 1);
    const key = `${nth}:${line}`;
    const heading = headingOf(line); // "While you were away": the moves under it were made while the player was away
    const item = memo(logDrawn, key, [lang], () => (heading === null ? h("li", {}, said(line))
      : h("li", {class: "log-heading"}, h("h3", {}, heading))));
    drawn.set(key, logDrawn.get(key));
    return item;
  });
  logDrawn = drawn; // the lines gone from the log are forgotten
  return items;
}

/** The Chat tab's words: with the count of lines not yet read. */
export function chatLabel(chat) {
  const unread = chat.unread();
  return unread ? t("Chat ({count})", {count: unread}) : t("Chat");
}

function inviteBox() {
  const invite = store.get(`invite.${tableId}`);
  if (!invite) return null;
  const link = `${location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
  return h("p", {class: "invite"}, t("Invite code:"), " ", h("code", {}, invite), " \u00b7 ", h("a", {href: link}, t("invite link")));
}

/** Leaving the seat, apart from the buttons used in play; while a match is on, it asks once more (a bot plays the
 * seat from then on). */
function leaveBox() {
  if (state.seat === null) return null;
  if (!state.leaving) {
    return h("div", {class: "leave-box"},
      h("button", {type: "button", class: "leave", dataset: {action: "leave"}, onclick: state.over ? leave : () => show({leaving: true})}, t("Leave the seat")));
  }
  return h("div", {class: "leave-box", role: "group", "aria-labelledby": "leave-ask"},
    h("p", {id: "leave-ask"}, t("Leave this match? A bot plays your seat from now on, and the seat is free for anyone to take.")),
    h("button", {type: "button", class: "danger", dataset: {action: "leave-yes"}, onclick: leave}, t("Leave")),
    h("button", {type: "button", dataset: {action: "leave-no"}, onclick: () => show({leaving: false})}, t("Stay")));
}

// -- settings: colours, sound, motion, the trick's pause (remembered in this browser) -------------------------------
let settingsBox = null;

/** The settings, one element for the life of the page (an open panel stays open through the drawings). */
export function settingsPanel(render) {
  if (settingsBox) return kept(settingsBox);
  const sound = h("input", {type: "checkbox", id: "sound", onchange: (e) => setSound(e.currentTarget.checked)});
  sound.checked = soundOn();
  const motion = h("input", {type: "checkbox", id: "motion", onchange: (e) => { store.set("motion", e.currentTarget.checked); applyMotion(); }});
  motion.checked = prefs.motion;
  const pause = h("select", {id: "trick-pause", onchange: (e) => store.set("trickPause", Number(e.currentTarget.value))},
    [["0", t("not at all")], ["0.5", t("half a second")], ...[1, 2, 3].map((n) => [String(n), tn("{n} second", "{n} seconds", n)])]
      .map(([v, label]) => h("option", {value: v}, label)));
  pause.value = String(prefs.pause);
  const reader = h("input", {type: "checkbox", id: "screen-reader", onchange: (e) => { store.set("screenReader", e.currentTarget.checked); render(); }});
  reader.checked = prefs.screenReader;
  settingsBox = h("details", {class: "settings"},
    h("summary", {}, h("span", {class: "settings-mark", "aria-hidden": "true"}, "\u2699\ufe0e"), h("span", {class: "settings-words"}, t("Settings"))),
    h("div", {class: "settings-body"},
      settingsLanguage(),
      colourToggle(),
      h("label", {class: "toggle"}, reader, " ", t("Screen reader mode"),
        h("small", {class: "toggle-note"}, t("a field to type your move, always shown; the keyboard reaches every card of your hand"))),
      h("label", {class: "toggle"}, sound, " ", t("Sounds (a card laid, your turn)")),
      h("label", {class: "toggle"}, motion, " ", t("Moving cards")),
      h("label", {for: "trick-pause"}, t("Keep a finished trick in view for")), pause));
  return kept(settingsBox);
}

/** The language, in the settings: shown on a phone only, where the table's bar leaves it out to read the table's name
 * whole. */
function settingsLanguage() {
  const pick = languageSwitch(h);
  pick.className = "lang-pick";
  pick.removeAttribute("aria-label");
  pick.id = "settings-lang";
  return h("div", {class: "settings-lang"}, h("label", {for: "settings-lang"}, t("Language")), pick);
}

/** Cards move or stand still, as the player chose. */
export function applyMotion() {
  document.documentElement.classList.toggle("still", !prefs.motion);
}

// -- the dialogs -------------------------------------------------------------------------------------------------
/** The end of the match, in a dialog over the page: who won, the places with points (and, at a rated table, each
 * rating's change), then Rematch, New opponents and Lobby (at a tournament's table, its way on); every hand's scores
 * folded; the record, the replay and the review. */
export function matchSummary(game, n, render) {
  const matchNo = state.table.match_no;
  if (!state.over || state.resultClosed) return null;
  if (!state.results || state.results.match !== matchNo) loadResults(matchNo, render);
  const results = state.results && state.results.match === matchNo ? state.results : null;
  const actions = [];
  if (atTournament()) { // a tournament's table: the way on is the tournament's, chosen once it has been read again
    tournamentMatchEnded(matchNo);
    const way = tournamentActions(matchNo);
    if (way) actions.push(way);
  } else {
    if (state.token) actions.push(h("button", {type: "button", class: "primary", dataset: {action: "rematch"}, onclick: rematch}, t("Rematch")));
    if (state.seat !== null && state.seat !== undefined) actions.push(h("button", {type: "button", dataset: {action: "new-opponents"}, onclick: newOpponents}, t("New opponents")));
  }
  actions.push(h("a", {class: "button-link", href: here("/"), dataset: {action: "lobby"}}, t("Lobby")));
  return h("div", {class: "dialog-backdrop", dataset: {key: "match-summary"}, onclick: (e) => { if (e.target === e.currentTarget) closeResult(); }},
    h("section", {class: "summary match-summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "match-over", tabindex: "-1"},
      h("div", {class: "summary-head"},
        h("h2", {id: "match-over"}, t("The match is over")),
        h("button", {type: "button", class: "close", dataset: {action: "close-result"}, "aria-label": t("close the result"), onclick: closeResult}, "\u00d7")),
      h("p", {}, winnersText()),
      placesTable(results),
      h("div", {class: "summary-actions"}, actions),
      h("details", {class: "every-hand", open: state.everyHandOpen ? "" : null, ontoggle: (e) => { state.everyHandOpen = e.currentTarget.open; }},
        h("summary", {}, t("Every hand")),
        scoreSheet({game, view: state.view, hands: state.hands, name, n, label: t("the match's scores")})),
      OFFLINE ? h("p", {class: "summary-links"}, // the offline app keeps the record in the browser: saved from there
        h("button", {type: "button", class: "link-button", dataset: {action: "download-record"}, onclick: () => downloadLocal(tableId, matchNo)}, t("Download the record")),
        " \u00b7 ", h("a", {href: `replay.html?table=${encodeURIComponent(tableId)}&match=${matchNo}`}, t("Replay it with every hand")),
        " \u00b7 ", h("a", {href: `review.html?table=${encodeURIComponent(tableId)}&match=${matchNo}&seat=${state.seat}`, class: "review-link"}, t("Review my play")))
        : h("p", {class: "summary-links"},
        h("a", {href: withInvite(`/tables/${encodeURIComponent(tableId)}/record.json?match=${matchNo}`), download: `clubs-${tableId}-${matchNo + 1}.json`}, t("Download the record")),
        " \u00b7 ",
        h("a", {href: withInvite(`/replay?table=${encodeURIComponent(tableId)}&match=${matchNo}`)}, t("Replay it with every hand")),
        state.seat !== null && state.seat !== undefined ? [" \u00b7 ",
          h("a", {href: withInvite(`/review?table=${encodeURIComponent(tableId)}&match=${matchNo}&seat=${state.seat}`), class: "review-link"}, t("Review my play"))] : null)));
}

/** The places: each seat by its place, with its points and, at a rated table, its rating after the match and the
 * change ("1562 (+62)"); until the results are read, the final totals alone say it. */
function placesTable(results) {
  if (!results) return h("p", {class: "muted places-wait"}, t("Reading the results\u2026"));
  if (!results.seats) return null;
  const rows = [...results.seats].sort((a, b) => a.place - b.place || a.seat - b.seat);
  const change = (r) => {
    const d = r.after.rating - r.before.rating;
    const signed = d > 0 ? "+" + String(d) : String(d);
    return t("{rating} ({change})", {rating: ratingWords(r.after), change: signed});
  };
  return h("table", {class: "places"},
    h("caption", {class: "sr-only"}, t("Places")),
    h("thead", {}, h("tr", {},
      h("th", {scope: "col"}, t("Place")), h("th", {scope: "col"}, t("Player")), h("th", {scope: "col"}, t("Points")),
      results.rated ? h("th", {scope: "col"}, t("Rating")) : null)),
    h("tbody", {}, rows.map((r) => h("tr", {class: r.seat === state.seat ? "mine" : null, dataset: {seat: String(r.seat)}},
      h("td", {}, String(r.place)),
      // the name the seat had at the end (a player who left is named, and marked, not the bot or whoever came after)
      h("th", {scope: "row"}, r.seat === state.seat && !r.left ? name(r.seat) : r.left ? t("{name} (left)", {name: r.name}) : r.name),
      h("td", {}, String(r.points)),
      results.rated ? h("td", {class: "rating-change"}, r.after && r.before ? change(r) : "") : null))));
}

/** The scores in detail, in a dialog: one hand's (from its number in the sheet) or every hand's. */
export function scoreDialog(game, n) {
  const shown = state.scoreDetails;
  if (!shown) return null;
  const hand = shown.hand === null ? null : state.hands[shown.hand];
  if (shown.hand !== null && !hand) return null;
  const title = hand ? t("Hand {number}", {number: shown.hand + 1}) : t("Every hand");
  const body = hand ? handDetails({game, hand, name, n, me: state.seat})
    : scoreSheet({game, view: state.view, hands: state.hands, name, n, label: t("the match's scores")});
  return h("div", {class: "dialog-backdrop", dataset: {key: "score-details"}, onclick: (e) => { if (e.target === e.currentTarget) closeScoreDetails(); }},
    h("section", {class: "summary score-details", role: "dialog", "aria-modal": "true", "aria-labelledby": "score-details-title", tabindex: "-1"},
      h("div", {class: "summary-head"},
        h("h2", {id: "score-details-title"}, title),
        h("button", {type: "button", class: "close", dataset: {action: "close-details"}, "aria-label": t("close the details"), onclick: closeScoreDetails}, "\u00d7")),
      body));
}

/** The hand just over: each seat's score and total, until the next hand's first action puts it aside. */
export function handSummary() {
  if (state.summary && !state.over) {
    const hand = state.hands[state.summary.index];
    if (!hand) return null;
    return h("section", {class: "summary hand-summary", role: "dialog", "aria-labelledby": "hand-over", dataset: {key: "hand-summary"}},
      h("h2", {id: "hand-over"}, t("Hand {number} is over", {number: state.summary.index + 1})),
      h("ul", {}, hand.scores.map((v, s) => h("li", {}, t("{name}: {score} (total {total})", {name: name(s), score: `${v > 0 ? "+" : ""}${v}`, total: hand.totals[s]})))),
      h("button", {type: "button", class: "primary", dataset: {action: "close-summary"}, onclick: () => show({summary: null})}, t("Go on")));
  }
  return null;
}
