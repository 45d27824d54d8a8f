// The replay viewer: a finished table's match (?table=ID&match=N) or an uploaded record file, stepped through
// forwards and back with every hand shown. The server replays the record through the rules engine and sends each
// step (the record holds every deal, so nothing here is hidden).

import {api, applyColours, byId, colourToggle, fill, h} from "./dom.js";
import {cardRow, parseCards, sortCards} from "./cards.js";
import {narrate, rankOrder, specWords} from "./games.js";
import {factList, felt, scoreSheet, trickArea} from "./board.js";

const app = byId("app");
const params = new URLSearchParams(location.search);
let replay = null;
let at = 0;

function name(seat) {
  if (!replay || seat === null || seat === undefined) return "nobody";
  return replay.seats[seat] ?? `Seat ${seat + 1}`;
}

async function start() {
  applyColours();
  const table = params.get("table");
  if (table) {
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

function chooser(message = "") {
  const file = h("input", {type: "file", id: "record-file", accept: ".json,application/json"});
  const problem = h("p", {class: "error", role: "alert"}, message);
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    problem.textContent = "";
    try {
      show(await api("/replays", await chosen.text()));
    } catch (err) {
      problem.textContent = `${chosen.name}: ${err.message}`;
    }
  });
  fill(app,
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "Clubs"), h("h1", {}, "Replay a record"), colourToggle()),
    h("main", {class: "panel"},
      h("p", {}, "Open a match record (a ", h("code", {}, ".json"), " file from ", h("code", {}, "clubs play --save"), ", a table's download, or any record of the format): every step is shown with every hand."),
      h("label", {for: "record-file"}, "Record file"), file, problem));
}

function show(data) {
  replay = data;
  at = 0;
  document.addEventListener("keydown", keys);
  draw();
}

function keys(event) {
  if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
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
  at = Math.max(0, Math.min(replay.frames.length - 1, i));
  draw();
}

function stepWords(frame) {
  const words = frame.events.map((ev) => narrate(replay.variant || replay.game, ev, name, frame.view)).filter(Boolean);
  if (frame.action === null) return [`Hand ${frame.hand + 1}: the deal.`, ...words];
  return words.length ? words : [`${name(frame.seat)}: ${frame.action}`];
}

function draw() {
  const frame = replay.frames[at];
  const view = frame.view;
  const n = frame.hands.length;
  const slider = h("input", {type: "range", id: "step", min: "0", max: String(replay.frames.length - 1), value: String(at), "aria-label": "step"});
  slider.addEventListener("input", () => go(Number(slider.value)));
  const scored = replay.frames.filter((f, i) => i <= at && f.events.some((e) => e.type === "HandScored")).length;
  const hands = replay.result.hands.slice(0, scored);
  const hidden = Object.entries(frame.hidden || {});
  fill(app,
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "Clubs"), h("h1", {}, `Replay: ${replay.title}`),
      h("span", {class: "muted"}, specWords(replay.variant || replay.game)), colourToggle()),
    h("main", {class: "table-page replay"},
      h("div", {class: "board"},
        h("nav", {class: "replay-controls", "aria-label": "steps"},
          h("button", {type: "button", onclick: () => go(0), disabled: at === 0, "aria-label": "first step"}, "\u00ab First"),
          h("button", {type: "button", onclick: () => go(at - 1), disabled: at === 0, "aria-label": "step back"}, "\u25c0 Back"),
          h("span", {class: "step-count", role: "status"}, `Step ${at + 1} of ${replay.frames.length} \u00b7 hand ${frame.hand + 1}`),
          h("button", {type: "button", onclick: () => go(at + 1), disabled: at === replay.frames.length - 1, "aria-label": "step forward"}, "Forward \u25b6"),
          h("button", {type: "button", onclick: () => go(replay.frames.length - 1), disabled: at === replay.frames.length - 1, "aria-label": "last step"}, "Last \u00bb"),
          slider),
        h("ol", {class: "step-words", "aria-live": "polite"}, stepWords(frame).map((w) => h("li", {}, w))),
        felt({game: replay.game, view, me: null, name, clock: null,
          seats: Array.from({length: n}, (_, s) => ({kind: "person", name: name(s), taken: true, connected: true})),
          middle: trickArea({game: replay.game, view, me: null, name}),
          cardsOf: (s) => cardRow(sortCards(parseCards(frame.hands[s] || ""), {rank: rankOrder(replay.variant || replay.game, view)}), "open")}),
        hidden.length ? h("div", {class: "hidden-piles"}, hidden.map(([k, v]) => h("div", {class: "extra"}, h("h2", {}, k), cardRow(parseCards(v))))) : null),
      h("aside", {class: "side"},
        factList(replay.game, view, name),
        scoreSheet({game: replay.game, view, hands, name, n}),
        h("p", {}, h("a", {href: "/replay"}, "Open another record")))));
  const focusTarget = app.querySelector("#step");
  if (focusTarget && document.activeElement === document.body) focusTarget.focus({preventScroll: true});
}

start();
