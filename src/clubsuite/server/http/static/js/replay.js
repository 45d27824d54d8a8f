// @ts-check
// The replay viewer: a finished table's match (?table=ID&match=N) or an uploaded record file, stepped through
// forwards and back with every hand shown. The server replays the record through the rules engine and sends each
// step (the record holds every deal, so nothing here is hidden). Every word is in the reader's language (i18n.js,
// loaded before the first drawing), with a language switch and a link to the rules in the bar.

import {OFFLINE, announce, announcer, api, applyColours, byId, colourToggle, fill, h, here, pageTitle} from "./dom.js";
import {cardRow, parseCards, said, sortCards, spokenCards} from "./cards.js";
import {eventWords, factList, felt, rankOf, scoreSheet, shownOf, trickArea, wholeFrames} from "./board.js";
import {gameWords, language, languageSwitch, loadWords, serverWords, t} from "./i18n.js";
import {rulesLink} from "./coach.js";

const app = byId("app");
const params = new URLSearchParams(location.search);
let replay = null;
let at = 0;

/** A seat as the table showed it: a bot's with its level in words ("Cleo", "normal bot"). */
function seatInfo(seat) {
  const level = replay && Array.isArray(replay.levels) ? replay.levels[seat] : null;
  return {kind: level ? "bot" : "person", level, name: name(seat), taken: true, connected: true};
}

function name(seat) {
  if (!replay || seat === null || seat === undefined) return t("nobody");
  const own = replay.seats[seat];
  if (own === undefined || own === null) return t("Seat {number}", {number: seat + 1});
  // a record may name several seats alike (three "random" bots): each is told apart by its seat
  return replay.seats.filter((n) => n === own).length > 1 ? t("{name} (seat {number})", {name: own, number: seat + 1}) : own;
}

/** The page's bar: home, title, what is replayed (or null), the rules (of ``game``, or all), the language, colours. */
function bar(title, about = null, game = null) {
  return h("header", {class: "bar replay-bar"}, h("a", {href: here("/"), class: "home"}, t("Clubs")), h("h1", {}, title),
    about === null ? null : h("span", {class: "muted"}, about),
    h("a", {href: game ? rulesLink(game) : OFFLINE ? `rules/index-${language()}.html` : `/rules?lang=${encodeURIComponent(language())}`, class: "rules-link", target: "_blank", rel: "noopener"},
      h("span", {class: "rules-mark", "aria-hidden": "true"}, "?"), h("span", {class: "rules-words"}, t("How to play"))),
    languageSwitch(h), colourToggle());
}

/** ``text`` with its {name} placeholders replaced by the elements of ``parts`` (a sentence with code in it). */
function withParts(text, parts) {
  return text.split(/(\{\w+\})/).filter((piece) => piece !== "").map((piece) => {
    const m = /^\{(\w+)\}$/.exec(piece);
    return m && parts[m[1]] ? parts[m[1]] : piece;
  });
}

/** The title of a pile of cards that is in no hand, as the server names it ("bid hand", "discards of seat 0"). */
function pileTitle(key) {
  const seat = /^(bid cards|discards) of seat ([0-9]+)$/.exec(key);
  if (seat) {
    const who = name(Number(seat[2]));
    return seat[1] === "bid cards" ? t("Bid cards of {name}", {name: who}) : t("Discards of {name}", {name: who});
  }
  switch (key) {
    case "bid hand":
      return t("Bid hand");
    case "treasure chest":
      return t("Treasure chest");
    default:
      return key;
  }
}

async function start() {
  await loadWords();
  pageTitle("replay");
  applyColours();
  announcer(); // the live region, there before the first step is read out
  const table = params.get("table");
  if (table) {
    loading(); // the server replays the record through the rules first, which may take a few seconds
    const match = params.get("match");
    try {
      const query = new URLSearchParams();
      if (match !== null) query.set("match", match);
      if (params.get("invite")) query.set("invite", params.get("invite"));  // a private table's
      const rest = query.toString();
      show(await api(`/tables/${encodeURIComponent(table)}/replay${rest ? `?${rest}` : ""}`));
    } catch (err) {
      chooser(err.message);
    }
    return;
  }
  chooser();
}

/** The page while a record is being replayed on the server: its bar, and a word that it is coming. */
function loading() {
  fill(app, bar(t("Replay")), h("main", {class: "panel"}, h("p", {role: "status", class: "replay-loading"}, t("Loading the replay\u2026"))));
}

function chooser(message = "") {
  const file = h("input", {type: "file", id: "record-file", accept: ".json,application/json"});
  const problem = h("p", {class: "error", role: "alert"}, message);
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    problem.textContent = "";
    waiting.textContent = t("Loading the replay\u2026");
    try {
      show(await api("/replays", await chosen.text()));
    } catch (err) {
      waiting.textContent = "";
      problem.textContent = `${chosen.name}: ${err.message}`;
    }
  });
  const waiting = h("p", {role: "status", class: "replay-loading"});
  fill(app,
    bar(t("Replay a record")),
    h("main", {class: "panel"},
      h("p", {}, t("Open the record of a finished match to step through it with every hand shown.")),
      h("p", {}, withParts(t("To get one, choose {download} in the box that ends a match at a table. A record saved by the clubs program on your computer opens here too."),
        {download: h("q", {}, t("Download the record"))})),
      h("label", {for: "record-file"}, t("Record file")), file, waiting, problem));
}

function show(data) {
  replay = wholeFrames(data);
  at = 0;
  document.addEventListener("keydown", keys);
  draw();
}

function keys(event) {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
  if (event.target instanceof HTMLSelectElement) return; // the language switch takes its own keys
  const moves = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: replay.frames.length - 1, PageDown: nextHand(1), PageUp: nextHand(-1)};
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
}

function nextHand(direction) {
  const hand = replay.frames[at].hand;
  let i = at;
  while (i + direction >= 0 && i + direction < replay.frames.length && replay.frames[i + direction].hand === hand) i += direction;
  return direction > 0 ? i + 1 : Math.max(0, i - 1 >= 0 ? firstOf(replay.frames[Math.max(0, i - 1)].hand) : 0);
}

function firstOf(hand) {
  return replay.frames.findIndex((f) => f.hand === hand);
}

function go(i) {
  const was = at;
  at = Math.max(0, Math.min(replay.frames.length - 1, i));
  draw();
  if (at !== was) for (const line of stepWords(replay.frames[at])) announce(spokenCards(line)); // the step, read out
}

function stepWords(frame) {
  const words = frame.events.map((ev) => eventWords(ev, null, name)).filter(Boolean);
  if (frame.action === null) return [t("Hand {number}: the deal.", {number: frame.hand + 1}), ...words];
  return words.length ? words : [`${name(frame.seat)}: ${frame.action}`];
}

function draw() {
  const frame = replay.frames[at];
  const view = frame.view;
  const n = frame.hands.length;
  const slider = h("input", {type: "range", id: "step", min: "0", max: String(replay.frames.length - 1), value: String(at), "aria-label": t("step")});
  slider.addEventListener("input", () => go(Number(slider.value)));
  const scored = replay.frames.filter((f, i) => i <= at && f.events.some((e) => e.said && e.said.kind === "scored")).length;
  const hands = replay.result.hands.slice(0, scored);
  const hidden = Object.entries(frame.hidden || {});
  // the game as players know it ("Whist Clubs"), and beside it the rules the match was played with, where any differ
  const game = replay.name_words ? serverWords(replay.name_words.title) : serverWords(replay.title);
  const rules = replay.name_words ? gameWords(replay.name_words) : game;
  fill(app,
    bar(t("Replay: {title}", {title: game}), rules === game ? null : rules, replay.game),
    h("main", {class: "table-page replay"},
      h("div", {class: "board"},
        h("nav", {class: "replay-controls", "aria-label": t("steps")},
          h("button", {type: "button", onclick: () => go(0), disabled: at === 0, "aria-label": t("first step")}, t("\u00ab First")),
          h("button", {type: "button", onclick: () => go(at - 1), disabled: at === 0, "aria-label": t("step back")}, t("\u25c0 Back")),
          h("span", {class: "step-count", role: "status"}, t("Step {step} of {steps} \u00b7 hand {number}", {step: at + 1, steps: replay.frames.length, number: frame.hand + 1})),
          h("button", {type: "button", onclick: () => go(at + 1), disabled: at === replay.frames.length - 1, "aria-label": t("step forward")}, t("Forward \u25b6")),
          h("button", {type: "button", onclick: () => go(replay.frames.length - 1), disabled: at === replay.frames.length - 1, "aria-label": t("last step")}, t("Last \u00bb")),
          slider),
        h("ol", {class: "step-words"}, stepWords(frame).map((w) => h("li", {}, said(w)))),
        felt({game: replay.game, view, me: null, name, clock: null,
          seats: Array.from({length: n}, (_, s) => seatInfo(s)),
          middle: trickArea({game: replay.game, view, me: null, name}),
          cardsOf: (s) => cardRow(sortCards(parseCards(frame.hands[s] || ""), {by: shownOf(view).sort, rank: rankOf(view)}), "open")}),
        hidden.length ? h("div", {class: "hidden-piles"}, hidden.map(([k, v]) => h("div", {class: "extra"}, h("h2", {}, pileTitle(k)), cardRow(parseCards(v))))) : null),
      h("aside", {class: "side"},
        factList(replay.game, view, name),
        scoreSheet({game: replay.game, view, hands, name, n}),
        h("p", {}, h("a", {href: OFFLINE ? "replay.html" : "/replay"}, t("Open another record"))))));
  const focusTarget = /** @type {HTMLElement | null} */ (app.querySelector("#step"));
  if (focusTarget && document.activeElement === document.body) focusTarget.focus({preventScroll: true});
}

start();
