// @ts-check
// The offline app's side of each page: the rules run in a Web Worker (worker.js: Pyodide with clubsuite's core),
// the tables in play and the finished matches are kept in this browser (IndexedDB), and the pages' own scripts are
// handed what a server would give them (dom.js's useLocal): a table opened as a socket that speaks the table
// protocol, the requests a page makes of a server answered here, a record saved as a file. The table page cannot
// tell this from a server's table: the messages are made by the same Python (clubsuite.tabletalk).

import {useLocal} from "./dom.js";
import {t} from "./i18n.js";

// -- the worker ------------------------------------------------------------------------------------------------
/** The worker, started by the first request (a page that asks nothing of the rules, the lobby, starts none). */
let worker = null;
let asked = 0;
/** @type {Map<number, {resolve: (value: any) => void, reject: (err: Error) => void}>} */
const waiting = new Map();
/** Why the rules could not start here, once known. */
let broken = null;
/** Seconds the worker took to start (Pyodide and the core), once it has. */
export let startedIn = null;
/** Told once the rules are ready (or broken): the pages show "Loading the rules" until then. */
const readiness = [];

/** The worker, started now if it is not yet. */
function theWorker() {
  if (!worker) {
    worker = new Worker(new URL("./worker.js", import.meta.url), {type: "module"});
    worker.addEventListener("message", answered);
  }
  return worker;
}

/** A message of the worker: its start (or why it cannot), or the answer to a request. */
function answered(/** @type {MessageEvent} */ event) {
  const data = event.data;
  if (data.ready !== undefined || data.broken !== undefined) {
    if (data.broken !== undefined) broken = data.broken;
    else startedIn = data.ready / 1000;
    for (const done of readiness.splice(0)) done();
    if (broken) for (const [, w] of waiting) w.reject(new Error(t("The rules could not start in this browser: {why}", {why: broken})));
    return;
  }
  const w = waiting.get(data.id);
  if (!w) return;
  waiting.delete(data.id);
  if (data.failed !== undefined) w.reject(new Error(data.failed));
  else w.resolve(JSON.parse(data.answer));
}

/** The rules are ready (resolved) or cannot start here (rejected with why). */
export function rulesReady() {
  theWorker();
  if (startedIn !== null) return Promise.resolve();
  if (broken) return Promise.reject(new Error(broken));
  return new Promise((resolve, reject) => readiness.push(() => (broken ? reject(new Error(broken)) : resolve(undefined))));
}

/** One request to the rules in the worker (clubsuite.offline.session): its answer, or an Error in words. */
export function ask(request) {
  if (broken) return Promise.reject(new Error(broken));
  return new Promise((resolve, reject) => {
    asked += 1;
    waiting.set(asked, {resolve, reject});
    theWorker().postMessage({id: asked, request: JSON.stringify(request)});
  });
}

// -- what the browser keeps --------------------------------------------------------------------------------------
const DB_NAME = "clubsuite-offline";
const DB_VERSION = 1;
/** @type {Promise<IDBDatabase> | null} */
let opened = null;

/** The app's database: ``tables`` (in play, by id: the kept form the worker plays again), ``matches`` (finished,
 * by table and match: the record), ``settings`` (by name: the puzzle rating and the like). */
function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => {
        const base = request.result;
        if (!base.objectStoreNames.contains("tables")) base.createObjectStore("tables", {keyPath: "id"});
        if (!base.objectStoreNames.contains("matches")) base.createObjectStore("matches", {keyPath: "key"});
        if (!base.objectStoreNames.contains("settings")) base.createObjectStore("settings", {keyPath: "name"});
      };
      request.onsuccess = () => {
        const base = request.result;
        base.onclose = () => { opened = null; }; // the browser closed it (storage cleared): open it again when asked
        base.onversionchange = () => { base.close(); opened = null; };
        resolve(base);
      };
      request.onerror = () => { opened = null; reject(request.error); };
      request.onblocked = () => { opened = null; reject(new Error(t("Another tab of the app holds its store: close it and try again."))); };
    });
  }
  return opened;
}

/** Run ``work`` on one store (``mode``: "readonly" or "readwrite"); its request's result. */
async function inStore(name, mode, work) {
  const base = await db();
  return new Promise((resolve, reject) => {
    const request = work(base.transaction(name, /** @type {IDBTransactionMode} */ (mode)).objectStore(name));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Keep ``value`` in store ``name`` (by its key). */
export function keep(name, value) {
  return inStore(name, "readwrite", (s) => s.put(value));
}

/** The value kept under ``key`` in store ``name``, or undefined. */
export function kept(name, key) {
  return inStore(name, "readonly", (s) => s.get(key));
}

/** Every value kept in store ``name``. */
export function every(name) {
  return inStore(name, "readonly", (s) => s.getAll());
}

/** Forget ``key`` in store ``name``. */
export function forget(name, key) {
  return inStore(name, "readwrite", (s) => s.delete(key));
}

// -- tables ------------------------------------------------------------------------------------------------------
/** A new table in the worker, kept in this browser: its id. ``coach``: the guided first hand. */
export async function newTable({game, name, level, coach = false, pace = undefined}) {
  const id = `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const answer = await ask({op: "table", id, game, name, seat: 0, level, coach, pace});
  if (!answer.ok) throw new Error(answer.error);
  await keep("tables", {id, game, saved: answer.saved, level, coach, pace, updated: Date.now()});
  return id;
}

/** The open sockets, by table: a rematch's state goes to its table's page. */
const sockets = new Map();

/** A table of this browser, opened as a WebSocket to a server's table would be: the same events, the same messages
 * (``send`` takes a client message as text, ``message`` events carry the table's messages as text). Its bots move
 * when the worker says they are due, after the pause it gives, so the page follows the play as on a server. */
class LocalSocket extends EventTarget {
  constructor(tableId) {
    super();
    this.tableId = tableId;
    this.readyState = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.chain = Promise.resolve();
    sockets.set(tableId, this);
    this.start();
  }

  async start() {
    try {
      const table = await kept("tables", this.tableId);
      if (!table) throw new Error(t("This table is not kept in this browser: start one from the app's first page."));
      const answer = await ask({op: "open", saved: table.saved});
      if (!answer.ok) throw new Error(answer.error);
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
      this.schedule(answer.due);
    } catch (err) {
      this.readyState = 3;
      this.tell([{type: "error", protocol: 1, code: "no_table", message: String(err.message || err)}]);
    }
  }

  /** A client message (text), answered by the table in the worker. */
  send(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    this.request({op: "send", table: this.tableId, message});
  }

  /** One request about this table, in order with the others; its answer taken in. */
  request(request) {
    this.chain = this.chain.then(async () => {
      if (this.readyState !== 1) return;
      try {
        const answer = await ask(request);
        if (this.readyState !== 1) return;
        if (!answer.ok) throw new Error(answer.error);
        await this.take(answer);
      } catch (err) {
        this.tell([{type: "error", protocol: 1, code: "server", message: String(err.message || err)}]);
      }
    });
    return this.chain;
  }

  /** The table's answer: its messages told, its kept form stored, a finished match's record kept, the next bot
   * timed. */
  async take(answer) {
    this.tell(answer.messages); // the table goes on first: a browser that cannot keep it now still plays it
    this.schedule(answer.due);
    try {
      const table = await kept("tables", this.tableId);
      if (!table) return; // given up meanwhile (from the lobby): nothing to keep
      await keep("tables", {...table, saved: answer.saved, updated: Date.now()});
      const over = answer.messages.find((m) => (m.type === "update" || m.type === "state") && m.over);
      if (over) await keepRecord(this.tableId, table, answer.saved.match_no);
    } catch (err) {
      this.tell([{type: "error", protocol: 1, code: "server", message: t("This browser could not keep the table: {why}", {why: String(err && err.message ? err.message : err)})}]);
    }
  }

  /** Dispatch ``messages`` as a socket's message events (text, as a WebSocket's). */
  tell(messages) {
    for (const m of messages) this.dispatchEvent(new MessageEvent("message", {data: JSON.stringify(m)}));
  }

  /** Wait for the bot that is due, then let it move (unless the table closed or moved on). */
  schedule(due) {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!due) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.request({op: "bot", table: this.tableId, version: due.version});
    }, Math.round(due.delay * 1000));
  }

  close() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    if (this.timer !== null) clearTimeout(this.timer);
    sockets.delete(this.tableId);
    this.dispatchEvent(new Event("close"));
  }
}

/** Keep the record of the table's match ``matchNo`` (just ended) with the finished matches. */
async function keepRecord(tableId, table, matchNo) {
  const key = `${tableId}:${matchNo}`;
  if (await kept("matches", key)) return;
  const answer = await ask({op: "record", table: tableId});
  if (!answer.ok) return;
  await keep("matches", {key, table: tableId, match: matchNo, game: table.game, ended: Date.now(), record: answer.record});
}

/** The record of a finished match of this browser: table ``tableId``'s match ``matchNo`` (its last, where null). */
async function finished(tableId, matchNo) {
  const mine = (await every("matches")).filter((m) => m.table === tableId);
  const match = matchNo === null ? mine.sort((a, b) => b.match - a.match)[0] : mine.find((m) => m.match === Number(matchNo));
  if (!match) throw new Error(t("This match is not kept in this browser."));
  return match.record;
}

/** Save the record of a finished match of this browser as a file. */
export async function download(tableId, matchNo) {
  const match = await kept("matches", `${tableId}:${matchNo}`);
  if (!match) return;
  saveFile(`clubs-${tableId}-${matchNo + 1}.json`, `${JSON.stringify(match.record, null, 1)}\n`);
}

/** Offer ``text`` as a file called ``name``. */
export function saveFile(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// -- what a page would ask a server ----------------------------------------------------------------------------
/** The app's own files (the games, each game's rules in brief), fetched from the build. */
async function data(path) {
  const response = await fetch(new URL(`../../data/${path}`, import.meta.url));
  if (!response.ok) throw new Error(t("Not available offline."));
  return response.json();
}

// -- puzzles ----------------------------------------------------------------------------------------------------
/** The name the player's puzzle rating is kept under in ``settings``: each pool's rating and streak, and each puzzle
 * shown and how it was answered (clubsuite.offline.puzzles.Progress), kept here and sent with every request. */
const PUZZLE_RATING = "puzzle-rating";
/** The puzzle requests, one after another: each reads the kept rating and keeps the one its answer gives. */
let puzzleChain = Promise.resolve();

/** A request of the puzzle page (``GET`` without a body, ``POST`` with one), answered by the worker as a server's
 * puzzle routes answer it, for the player whose rating this browser keeps; a refusal is an Error with the server's
 * ``status`` and ``code``, as dom.js's api() throws it. */
function puzzles(path, body) {
  const asking = puzzleChain.then(async () => {
    const held = await kept("settings", PUZZLE_RATING);
    const request = {op: "puzzles", path, body: body === undefined ? null : body, rating: held ? held.rating : null};
    let answer = await ask(request);
    if (!answer.ok && answer.code === "bad_rating" && held) { // a kept rating this version cannot read: start afresh
      await forget("settings", PUZZLE_RATING);
      answer = await ask({...request, rating: null});
    }
    if (!answer.ok) {
      /** @type {Error & {code?: string, status?: number, retryAfter?: number | null}} */
      const err = new Error(answer.error);
      err.code = answer.code;
      err.status = answer.status;
      err.retryAfter = null;
      throw err;
    }
    if (answer.rating) await keep("settings", {name: PUZZLE_RATING, rating: answer.rating, updated: Date.now()});
    return answer.answer;
  });
  puzzleChain = asking.catch(() => undefined); // a refusal does not stop the next request
  return asking;
}

/** Answer a request a page makes of a server, from the rules in the worker and this browser's store. */
async function api(path, body) {
  const [route, query] = path.split("?");
  const parts = route.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query || "");
  if (parts[0] === "tables" && parts.length === 3 && parts[2] === "rematch") {
    const socket = sockets.get(parts[1]);
    if (!socket) throw new Error(t("This table is not open."));
    await socket.request({op: "rematch", table: parts[1]});
    return {};
  }
  if (parts[0] === "tables" && parts.length === 3 && parts[2] === "leave") {
    await forget("tables", parts[1]);
    return {seat: 0};
  }
  if (route === "/quickplay") { // the same game again, with bots of the level the last table of it had
    const last = (await every("tables")).filter((x) => x.game === body.game && !x.coach).sort((a, b) => b.updated - a.updated)[0];
    const id = await newTable({game: body.game, name: body.name, level: last ? last.level : "normal", pace: last ? last.pace : undefined});
    return {table: id, token: "local", seat: 0};
  }
  if (parts[0] === "tables" && parts.length === 3 && (parts[2] === "replay" || parts[2] === "review")) {
    const record = await finished(parts[1], params.get("match"));
    const answer = parts[2] === "replay" ? await ask({op: "replay", record})
      : await ask({op: "review", record, seat: Number(params.get("seat") ?? "0")});
    if (!answer.ok) throw new Error(answer.error);
    return parts[2] === "replay" ? answer.replay : answer.review;
  }
  if (route === "/replays") { // a record file the player opened: read and replayed in the worker
    const answer = await ask({op: "replay", text: String(body)});
    if (!answer.ok) throw new Error(answer.error);
    return answer.replay;
  }
  if (parts[0] === "rules" && parts[2] === "brief") return data(`brief/${parts[1]}-${params.get("lang") || "en"}.json`);
  if (route === "/games") return data("games.json");
  if (parts[0] === "tournament-tables") return {tournament: null};
  if (parts[0] === "puzzles" || route === "/daily-puzzle") return puzzles(path, body);
  throw new Error(t("Not available offline."));
}

useLocal({api, socket: (tableId) => new LocalSocket(tableId), download});
