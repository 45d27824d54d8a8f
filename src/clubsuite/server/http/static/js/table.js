// @ts-check
// The table page: take a seat (or watch), then play over the table's WebSocket. The server is authoritative: this
// page shows the view it is sent and sends actions in the game's notation; the legal ones come from the server.
// This module wires the parts together: the socket (its messages taken into the state by tablestate.js's reducer,
// what they say read out and sounded), the drawing (tableview.js, with tablepanels.js beside the table), the input
// (tableinput.js, handed how to send and how to draw) and the join form (tablejoin.js).
// Every word is in the reader's language (i18n.js, loaded before the first drawing): each sentence one message with
// its values as named placeholders, a sentence about the page's own seat a message of its own ("You take the
// trick." beside "{name} takes the trick.").

import {OFFLINE, account, announce, announcer, api, applyColours, byId, fill, h, here, openTableSocket, pageTitle, store} from "./dom.js";
import {spokenCards} from "./cards.js";
import {createChat} from "./chat.js"; // chat: the table's chat (its own module)
import {play as playSound} from "./sound.js";
import {loadWords, t} from "./i18n.js";
import {startNotices} from "./live.js";
import {loadTournament} from "./tabletournament.js";
import {byeWords, inviteCode, keepLog, myTurn, params, reduce, resumeLog, state, tableId, turnText} from "./tablestate.js";
import {endLinger, render, settleTrick, useChat} from "./tableview.js";
import {applyMotion, chatLabel} from "./tablepanels.js";
import {typedAfter, wireInput} from "./tableinput.js";
import {showJoin} from "./tablejoin.js";

const app = byId("app");

// -- joining -------------------------------------------------------------------------------------------------------
async function start() {
  await loadWords();
  pageTitle("table");
  applyColours();
  applyMotion();
  announcer(); // the live region is there before anything is said in it
  setInterval(() => { if (state.turn && state.view) render(); }, 60000); // a turn-based table's clock, to the minute
  if (!OFFLINE) { // the offline app has no accounts and no tournaments
    startNotices(); // a tournament's next table, and what else is meant for this account
    loadTournament(tableId, () => { if (state.view) render(); }); // a tournament's table: its name, clock, your place
  }
  const saved = store.get(`seat.${tableId}`);
  if (saved && typeof saved.token === "string") {
    state.token = saved.token;
    resumeLog(saved.seat);
    connect();
    return;
  }
  if (params.get("watch") === "1") {
    resumeLog(null);
    connect();
    return;
  }
  // a seat this account holds here (a tournament's, or one taken on another device) is handed a token again
  if (await reclaim()) return;
  await showJoin(null, connect);
}

// -- the connection --------------------------------------------------------------------------------------------
let keptSeat = null; // the seat whose token was refused, asked for again by reclaim()

/** Whether the seat came back: a signed-in account that holds a seat here is handed a fresh token for it (none was
 * kept on this page, or the one kept was replaced from another tab or device). A server busy or moving the table is
 * asked again after a pause; a few times a page at most, so that two tabs never take turns for ever. */
async function reclaim() {
  if (state.reclaims >= 3 || !(await account())) return false;
  state.reclaims += 1;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    try {
      const kept = store.get(`seat.${tableId}`) || keptSeat; // the seat this page played, where it holds two
      const got = await api(`/tables/${encodeURIComponent(tableId)}/seat`, {seat: kept && Number.isInteger(kept.seat) ? kept.seat : null});
      if (!got.token) return false; // the account holds no seat here
      store.set(`seat.${tableId}`, {token: got.token, seat: got.seat});
      state.token = got.token;
      state.closedForGood = false;
      resumeLog(got.seat);
      connect();
      return true;
    } catch (err) {
      if (err.code === "signed_out" || err.code === "bad_csrf") return false;
      await new Promise((done) => setTimeout(done, 1000 * 2 ** attempt)); // busy, moving, or unreachable
    }
  }
  return false;
}

function connect() {
  const ws = openTableSocket(tableId); // a server's table, or the offline app's in the page: the same messages
  state.socket = ws;
  ws.addEventListener("open", () => {
    // A page that has seen nothing asks for the table's recent events from the start (all public), so that a new
    // tab or another device shows the play so far; the server sends those it still keeps.
    const hello = {type: "hello", protocol: 1, token: state.token, last_version: state.version ?? 0};
    if (!state.token && inviteCode()) hello.invite = inviteCode();  // watching a private table takes its invite
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    if (ws !== state.socket) return; // a socket replaced meanwhile (the seat taken back with a new token)
    state.connected = false;
    state.pending = false;
    if (state.closedForGood) return;
    const wait = Math.min(5000, 300 * 2 ** state.retry);
    state.retry += 1;
    render();
    setTimeout(connect, wait);
  });
}

function send(msg) {
  if (state.socket && state.socket.readyState === 1) { // open
    state.socket.send(JSON.stringify(msg));
    return true;
  }
  return false;
}

setInterval(() => send({type: "ping"}), 25000);

const chat = createChat({send, tableId, store}); // chat: kept across drawings (its panel is one element)
useChat(chat);
wireInput({send, render, endLinger});

/** A message from the server: taken into the state, what it says read out and sounded, the table drawn again. The
 * chat's lines and a seat no longer this page's are dealt with here, apart from the table's state. */
function receive(msg) {
  const wasMyTurn = myTurn();
  if (msg.type === "chat") { // chat: one message; nothing else on the page changes but the count on the phone's Chat tab
    chat.receive(msg);
    const tab = app.querySelector('[data-action="drawer-chat"]');
    if (tab) tab.textContent = chatLabel(chat);
    return;
  }
  if (msg.type === "error" && chat.owns(msg)) { // chat: a refused message is told in the chat panel
    chat.refused(msg);
    return;
  }
  if (msg.type === "error" && msg.code === "bad_token") {
    state.pending = false;
    keptSeat = store.get(`seat.${tableId}`);
    store.set(`seat.${tableId}`, null);
    state.token = null; // watching from the join form must not send the dead token again
    state.closedForGood = true;
    state.socket.close();
    reclaim().then((back) => {
      if (!back) showJoin(t("That seat is no longer yours (it was given up): take a seat again, or watch."), connect);
    });
    return;
  }
  if (msg.type === "error" && msg.code === "no_spectators") {
    state.pending = false;
    state.closedForGood = true;
    fill(app, h("main", {class: "panel"}, h("h1", {}, t("Watching is not allowed")), h("p", {role: "alert"}, msg.message), h("a", {href: here("/")}, t("Back to the lobby"))));
    return;
  }
  if (!["welcome", "state", "update", "catchup", "presence", "hint", "error", "bye"].includes(msg.type)) return;
  const done = reduce(msg);
  for (const line of done.lines) announce(spokenCards(line)); // every event at the table, read out
  typedAfter({mine: done.mine, moved: done.moved, refused: msg.type === "error"});
  if (msg.type === "state") chat.load(msg, state.seat, state.table); // chat: the history the server keeps, for this receiver
  if (done.trick) settleTrick(done.trick);
  if (done.put) playSound("card");
  if (msg.type === "bye") announce(byeWords(msg.reason));
  if (!wasMyTurn && myTurn()) {
    playSound("turn");
    announce(spokenCards(turnText()));
  }
  keepLog();
  render();
}

start();
