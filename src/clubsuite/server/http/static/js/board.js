// @ts-check
// The table as a picture, from a view: the seats round the table (the viewer at the bottom, a partner opposite),
// the cards each seat has put on the table in front of it, the score sheet. Shared by the table page (a seat's view,
// or the spectator's) and the replay viewer (the spectator's view and every hand). Every word is in the reader's
// language (i18n.js), looked up as the table is drawn.

import {h} from "./dom.js";
import {cardBack, cardRow, cardView, parseCard, parseCards, said} from "./cards.js";
import {reasonWords, t, tn} from "./i18n.js";

/** What a view shows beside the cards, as its game declares it (the server's ``shown``: badges, counts, what lies in
 * front of each seat, the cards the seat knows, the teams, the facts of the hand), each word a reason worded here;
 * nothing where a view came without it. */
export function shownOf(view) {
  const s = view && view.shown;
  return {badges: [], stats: [], front: null, known: [], teams: [], facts: [], says: null, sort: "suit", ace_low: false, select: false,
    wild: null, beat: false, ...(s || {})};
}

/** A replay's frames made whole: each frame's ``view.shown`` carries only what changed since the frame before (the
 * server leaves the rest out, and in a list as long as before an unchanged item is null, as most of it stays the
 * same from one step to the next), filled in here from the frames before it, in place. */
export function wholeFrames(replay) {
  let before = {};
  for (const frame of replay.frames || []) {
    if (!frame.view) continue;
    const now = {...before};
    for (const [key, value] of Object.entries(frame.view.shown || {})) {
      const old = before[key];
      now[key] = Array.isArray(value) && Array.isArray(old) && old.length === value.length
        ? value.map((item, i) => (item === null ? old[i] : item)) : value;
    }
    frame.view.shown = now;
    before = now;
  }
  return replay;
}

/** How the view's game ranks cards, as a function ``value(card)`` of a card read by cards.js: higher is higher in
 * play; a wild card that stands for a value counts as that value; where the game says the ace is low, it is 1. */
export function rankOf(view) {
  const aceLow = shownOf(view).ace_low;
  return (card) => (card.as !== null && card.as !== undefined ? card.as : aceLow && card.rank === "A" ? 1 : card.value);
}

/** An event as the table tells it (its ``said``), in words: as told to ``me``'s seat where it is about that seat,
 * else as anyone watching reads it; null for an event nobody tells. */
export function eventWords(ev, me, name) {
  const said = ev && ev.said;
  if (!said) return null;
  const mine = me !== null && me !== undefined ? said.mine[String(me)] : null;
  const words = (mine || said.words).map((r) => reasonWords(r, name) ?? "").filter(Boolean);
  return words.length ? words.join(" ") : null;
}

/** A complete hand in words, as its game gives it (its ``said``): its phrases joined, told to ``me``'s seat where
 * the hand names it; "" where none came. */
export function accountWords(hand, name, me = null) {
  const said = hand && hand.said;
  if (!said) return "";
  const mine = me !== null && me !== undefined ? said.mine[String(me)] : null;
  const inside = (s) => (s === me ? t("you") : name(s)); // a name inside a phrase: "you", not "You"
  const text = (mine || said.words).map((r) => reasonWords(r, inside) ?? "").filter(Boolean).join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A reason of ``shown`` in words (``name(seat)`` names a seat; the page's own is "you"). */
export function shownWords(reason, name = (n) => `${n + 1}`) {
  return reason ? reasonWords(reason, name) ?? "" : "";
}

/** The seats in the order they are drawn: the one after ``me`` first, clockwise, ``me`` last. */
export function seatOrder(n, me) {
  const start = me === null || me === undefined ? 0 : (me + 1) % n;
  return Array.from({length: n}, (_, i) => (start + i) % n);
}

/** Where a seat sits round the table, seen from ``me`` (null: a spectator, who sees seat 1 at the bottom): a cell of a
 * three by three grid, {col, row} from 1 to 3. Play goes to the left (clockwise seen from above), so the next seat
 * is on the viewer's left, the seat opposite at the top; with 2 to 6 seats no two seats share a cell. */
export function seatCell(seat, n, me) {
  const rel = (seat - (me ?? 0) + n) % n;
  const angle = Math.PI / 2 + (rel * 2 * Math.PI) / n; // the viewer at the bottom; screen y grows downwards
  const x = Math.cos(angle);
  const y = Math.sin(angle);
  return {col: x < -0.3 ? 1 : x > 0.3 ? 3 : 2, row: y < -0.4 ? 1 : y > 0.4 ? 3 : 2};
}

function placed(el, cell) {
  el.dataset.col = String(cell.col);
  el.dataset.row = String(cell.row);
  return el;
}

// -- names and faces ------------------------------------------------------------------------------------------------
const AVATAR_COLOURS = 8; // .avatar.c0 to .c7 in the stylesheet

/** A seat's display name: the person's name, a bot's name, or "Seat N" for a free seat. Never cut: the whole name
 * is always shown (it wraps where it must), so two seats cannot look alike. */
export function seatName(info, seat) {
  if (!info || info.name === null || info.name === undefined) return t("Seat {number}", {number: seat + 1});
  return info.name;
}

/** A bot's level as the server words it ("hard bot"), in the reader's language (a level this page does not know
 * stays as it came). */
export function levelWords(level) {
  switch (level) {
    case "easy bot":
      return t("easy bot");
    case "normal bot":
      return t("normal bot");
    case "hard bot":
      return t("hard bot");
    case "expert bot":
      return t("expert bot");
    case "random bot":
      return t("random bot");
    case "search bot":
      return t("search bot");
    case "learned bot":
      return t("learned bot");
    case "bot":
      return t("bot");
    default:
      return level;
  }
}

/** What a seat is, in words: "hard bot" for a bot, "free seat" for a seat nobody has taken, else null. */
export function seatRole(info) {
  if (!info) return null;
  if (info.kind === "bot") return levelWords(info.level ?? "bot");
  if (!info.taken) return t("free seat");
  return null;
}

/** A seat's name with what it is: "Ada, hard bot", "Ann". */
export function seatTitle(info, seat) {
  const role = seatRole(info);
  return role ? t("{name}, {role}", {name: seatName(info, seat), role}) : seatName(info, seat);
}

/** A seat's name for a screen reader, with what it is and whether it is the page's own and to act: "Ada, hard bot,
 * to act", "Ann (you)". */
function seatLabel(info, seat, mine, toAct) {
  const who = seatTitle(info, seat);
  if (mine && toAct) return t("{seat} (you), to act", {seat: who});
  if (mine) return t("{seat} (you)", {seat: who});
  if (toAct) return t("{seat}, to act", {seat: who});
  return who;
}

function initials(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]].map((w) => [...w][0]) : [...(words[0] || "?")].slice(0, 1);
  return letters.join("").toUpperCase();
}

function colourOf(name, seat) {
  let sum = seat * 7;
  for (const ch of name) sum = (sum * 31 + ch.codePointAt(0)) % 100003;
  return sum % AVATAR_COLOURS;
}

/** A seat's face: its initials on a colour that follows from its name (no picture is ever uploaded). */
export function avatar(info, seat) {
  const name = seatName(info, seat);
  return h("span", {class: `avatar c${colourOf(name, seat)} ${info && info.kind === "bot" ? "bot" : ""}`.trim(), "aria-hidden": "true"}, initials(name));
}

// -- a seat ----------------------------------------------------------------------------------------------------
/** One seat's panel: face, name, what it is, what it holds and has won, its state. ``cards``: what to show of its
 * hand (undefined: the backs of its cards; null: nothing). */
export function seatPanel({game, view, seat, info, me, clock, cards, compact = false}) {
  const badges = [];
  if (seat === me) badges.push(h("span", {class: "badge you"}, t("you")));
  if (view.dealer === seat) badges.push(h("span", {class: "badge"}, t("dealer")));
  if (info && info.kind === "person" && info.bot_playing && info.taken) badges.push(h("span", {class: "badge away"}, t("a bot plays for them")));
  else if (info && info.kind === "person" && info.taken && !info.connected) badges.push(h("span", {class: "badge away"}, t("away")));
  const shown = shownOf(view);
  for (const mark of shown.badges[seat] || []) {
    const look = mark.look.startsWith("team-") ? `team ${mark.look}` : mark.look;
    badges.push(h("span", {class: `badge ${look}`.trim()}, shownWords(mark.words)));
  }
  const stats = []; // the first two matter most in play; a phone shows only them (the rest is in the drawers)
  if (view.hand_sizes) stats.push(tn("{n} card", "{n} cards", view.hand_sizes[seat]));
  if (view.tricks_won) stats.push(tn("{n} trick", "{n} tricks", view.tricks_won[seat]));
  for (const stat of shown.stats[seat] || []) stats.push(shownWords(stat));
  if (view.totals) stats.push(tn("{n} point", "{n} points", Math.abs(view.totals[seat]), {n: view.totals[seat]}));
  const name = seatName(info, seat);
  const role = seatRole(info);
  const toAct = view.to_act === seat;
  const timer = clock && clock.seat === seat
    ? h("span", {class: "clock", role: "timer", dataset: {deadline: String(Date.now() + clock.seconds_left * 1000)}}, `${Math.ceil(clock.seconds_left)} s`)
    : null;
  const online = info && (info.connected || info.kind === "bot");
  return h("section", {
    class: `seat ${toAct ? "to-act" : ""} ${seat === me ? "mine" : ""} ${compact ? "compact" : ""}`.trim(),
    "aria-label": seatLabel(info, seat, seat === me, toAct),
    dataset: {seat: String(seat)},
  },
  h("div", {class: "seat-head"},
    h("span", {class: "face"}, avatar(info, seat), h("span", {class: `presence ${online ? "on" : "off"}`, "aria-hidden": "true"})),
    h("span", {class: "who"},
      h("strong", {class: "seat-name"}, name),
      role ? h("span", {class: "seat-role"}, role) : null),
    timer),
  badges.length ? h("div", {class: "badges"}, badges) : null,
  h("div", {class: "seat-stats"}, stats.map((text, i) => h("span", {class: i < 2 ? "stat" : "stat more"}, text))),
  cards === undefined ? (seat === me ? null : backs(view.hand_sizes ? view.hand_sizes[seat] : 0)) : cards);
}

/** The backs of a seat's ``n`` cards (8 at most), as a seat's panel shows them. */
export function backs(n) {
  const shown = Math.min(n, 8);
  return h("div", {class: "backs", "aria-hidden": "true"}, Array.from({length: shown}, () => cardBack("small")));
}

// -- what lies on the table ---------------------------------------------------------------------------------------
/** What each seat has in front of it now, as the game says (``shown.front``): seat -> {cards: notation, note,
 * toBeat}: the card it played to the trick, its last call of an auction, its last play of a trick of plays (the
 * latest of all is the play to beat). */
export function inFront(game, view) {
  const out = new Map();
  const front = shownOf(view).front ?? (view.trick || []).map((p) => ({seat: p.seat, cards: p.card, note: null, to_beat: false}));
  for (const put of front) out.set(put.seat, {cards: put.cards, note: put.note ? shownWords(put.note) : null, toBeat: put.to_beat});
  return out;
}

/** The table's middle: a place in front of every seat (the same cell as the seat), holding what that seat has put
 * down; ``linger`` (a finished trick still shown, with its winner) takes the place of an empty trick; ``preview``
 * shows the viewer's chosen cards, not yet sent. ``fresh(seat, cards)`` says whether a play is new since the last
 * drawing (it slides in from its seat). */
export function trickArea({game, view, me, name, linger = null, preview = null, fresh = (/** @type {number} */ _seat, /** @type {string} */ _cards) => false, message = null}) {
  const n = view.hand_sizes.length;
  const lingering = linger !== null;
  const fronts = lingering ? linger.plays : inFront(game, view);
  const places = [];
  for (let seat = 0; seat < n; seat += 1) {
    const put = fronts.get(seat);
    const cell = seatCell(seat, n, me);
    let body;
    let note = put ? put.note : null;
    let extra = "";
    if (put && put.cards) {
      const cards = parseCards(put.cards);
      body = h("div", {class: `pile pile-${Math.min(cards.length, 6)}`}, cards.map((c) => cardView(c)));
      if (put.toBeat) extra += " to-beat";
      if (!lingering && fresh(seat, put.cards)) extra += " arrive";
    } else if (seat === me && preview) {
      body = h("div", {class: "pile preview", "aria-label": t("your play, not sent yet: {cards}", {cards: preview.words})},
        parseCards(preview.cards).map((c) => cardView(c)));
      note = t("not sent yet");
    } else {
      body = h("span", {class: "card placeholder", "aria-hidden": "true"});
    }
    if (lingering && linger.winner === seat) extra += " winner";
    if (lingering) extra += linger.phase === "gather" ? " gather" : " lingering";
    const place = h("figure", {class: `place${extra}`, dataset: {seat: String(seat)}}, body,
      h("figcaption", {}, seat === me ? t("you") : name(seat), note ? ` \u00b7 ${note}` : ""));
    places.push(placed(place, cell));
  }
  const words = lingering ? linger.words : message;
  return h("div", {class: `trick-area seats-${n}`, "aria-label": lingering ? t("the trick just won") : t("the cards on the table")},
    places,
    words ? h("p", {class: "table-words", role: lingering ? "status" : null}, said(words)) : null);
}

/** The felt: every seat but the viewer's round the table, the cards on it in the middle (``cardsOf(seat)``: what
 * to show of a seat's hand, as for :func:`seatPanel`; the replay shows every hand). */
export function felt({game, view, seats, me, name, clock, middle, cardsOf = (/** @type {number} */ _seat) => undefined}) {
  const n = view.hand_sizes.length;
  const panels = [];
  for (let seat = 0; seat < n; seat += 1) {
    if (seat === me) continue;
    const panel = seatPanel({game, view, seat, info: seats[seat], me, clock, compact: true, cards: cardsOf(seat)});
    panels.push(placed(h("div", {class: "spot"}, panel), seatCell(seat, n, me)));
  }
  const centre = placed(h("div", {class: "centre"}, middle), {col: 2, row: 2});
  return h("div", {class: `felt seats-${n} ${me === null || me === undefined ? "watching" : ""}`.trim()}, panels, centre);
}

/** The last complete trick, or null when there is none. */
export function lastTrick({game, view, name, lastWon}) {
  if (shownOf(view).beat) { // a game of plays: its tricks are not kept in the view, the page saw the last one won
    if (!lastWon) return null;
    return h("div", {class: "last-trick"}, h("p", {}, t("Won by {name}:", {name: name(lastWon.seat)})), cardRow(parseCards(lastWon.cards)));
  }
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  const last = tricks[tricks.length - 1];
  const plays = trickPlays(last, view.hand_sizes.length);
  return h("div", {class: "last-trick"},
    h("p", {}, t("Trick {number}: led by {leader}, won by {winner}", {number: tricks.length, leader: name(plays[0].seat), winner: name(last.winner)})),
    h("div", {class: "card-row"}, plays.map((p) => h("figure", {class: "slot"}, cardView(parseCard(p.card)),
      h("figcaption", {}, name(p.seat))))));
}

/** A complete trick's cards with their seats: [{seat, card}] (some games give them so; the others, a leader
 * and the cards in turn). */
export function trickPlays(trick, n) {
  if (trick.cards.length && typeof trick.cards[0] === "object") return trick.cards;
  const players = trick.players || null;
  return trick.cards.map((card, i) => ({seat: players ? players[i] : (trick.leader + i) % n, card}));
}

/** The facts of the hand as a definition list. */
export function factList(game, view, name) {
  const items = shownOf(view).facts;
  const me = view.seat ?? null;
  const inside = (s) => (s === me ? t("you") : name(s)); // a name inside a phrase: "you", not "You"
  return h("dl", {class: "facts"}, items.map((f) => [h("dt", {}, shownWords(f.label, inside)),
    h("dd", {}, said(f.words.map((w) => shownWords(w, inside)).join(f.joined)))]));
}

/** A team's name from its seats ("You & Cy", "Ann & Cy"): the page's own seat first. */
export function teamName(seats, name, me) {
  const ordered = [...seats.filter((s) => s === me), ...seats.filter((s) => s !== me)];
  return ordered.map((s) => (s === me ? t("You") : name(s))).join(" & ");
}

/** The score sheet: one row per complete hand, then the totals (and the teams' where there are teams); ``label``
 * names its box (a region), distinct where a page shows two sheets. */
export function scoreSheet({game, view, hands, name, n, label = null, onDetails = null}) {
  // with ``onDetails`` (the side column): numbers only, each hand's number a button that opens its details, and one
  // for every hand's; without it (a dialog, the replay), each hand's details in a column of their own
  const inColumn = onDetails === null;
  const seats = Array.from({length: n}, (_, i) => i);
  const head = h("tr", {}, h("th", {scope: "col"}, t("Hand")), seats.map((s) => h("th", {scope: "col", class: "player"}, name(s))),
    inColumn ? h("th", {scope: "col"}, t("Details")) : null);
  const rows = hands.map((hand, i) => h("tr", {},
    h("th", {scope: "row"}, inColumn ? String(i + 1)
      : h("button", {type: "button", class: "hand-no", dataset: {action: `hand-details-${i}`}, "aria-label": t("Hand {number} in detail", {number: i + 1}), onclick: () => onDetails(i)}, String(i + 1))),
    seats.map((s) => h("td", {class: "num"}, signedNumber(hand.scores[s]))),
    inColumn ? h("td", {class: "details"}, accountWords(hand, name, view ? view.seat : null)) : null));
  const totals = view && view.totals ? view.totals : hands.length ? hands[hands.length - 1].totals : seats.map(() => 0);
  const foot = [h("tr", {class: "totals"}, h("th", {scope: "row"}, t("Total")), seats.map((s) => h("td", {class: "num"}, String(totals[s]))), inColumn ? h("td", {}, "") : null)];
  const teams = view ? shownOf(view).teams : [];
  if (teams.length && view.team_totals) {
    const me = view.seat ?? null;
    foot.push(h("tr", {class: "totals"}, h("th", {scope: "row"}, t("Teams")),
      h("td", {colspan: String(inColumn ? n + 1 : n)}, teams.map((seats, i) => t("{team}: {points}", {team: teamName(seats, name, me), points: view.team_totals[i]})).join(" \u00b7 "))));
  }
  return h("div", {class: "score-box", tabindex: "0", role: "region", "aria-label": label ?? t("scores")},
    h("table", {class: "scores"}, h("caption", {}, t("Scores")), h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, foot)),
    !inColumn && hands.length ? h("button", {type: "button", class: "all-details", dataset: {action: "hand-details-all"}, onclick: () => onDetails(null)}, t("Every hand in detail")) : null);
}

/** One hand's account: each seat's points in it and its total after it, then the hand in words. */
export function handDetails({game, hand, name, n, me = null}) {
  const seats = Array.from({length: n}, (_, i) => i);
  return [
    h("table", {class: "scores hand-scores"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Player")), h("th", {scope: "col"}, t("This hand")), h("th", {scope: "col"}, t("Total")))),
      h("tbody", {}, seats.map((s) => h("tr", {}, h("th", {scope: "row", class: "player"}, name(s)),
        h("td", {class: "num"}, signedNumber(hand.scores[s])), h("td", {class: "num"}, String(hand.totals[s])))))),
    h("p", {class: "hand-words"}, accountWords(hand, name, me)),
  ];
}

function signedNumber(v) {
  if (v === null || v === undefined) return "";
  return v > 0 ? `+${v}` : String(v);
}

/** Lay a hand (``.hand``, its cards as children) out as a fan that fits: one row where every card shows at least 44 px
 * to tap, else two or more. The puzzles' hand, laid out once drawn. */
export function fan(hand) {
  const cards = [...hand.querySelectorAll(":scope > .card")];
  if (!cards.length) return;
  const room = handRoom(hand);
  if (!room) return;
  const rows = fanRows(cards, room);
  hand.classList.toggle("rows", rows.length > 1);
  hand.append(...rows);
}

/** The room a hand on the page has for its fan: its width, less the fan's tilt at its ends, and a card's width (as
 * laid out, before the fan tilts it), or null where the hand is not on the page or holds no card. */
export function handRoom(hand) {
  const card = hand ? hand.querySelector(".card") : null;
  if (!card || !hand.isConnected) return null;
  return {width: hand.clientWidth - 16, card: parseFloat(getComputedStyle(card).width) || 60};
}

/** The hand's card buttons in the rows of a fan for ``room`` (handRoom): each row a ``.fan-row`` with its step
 * between cards, each card its tilt and its rise along the arc. The table draws its hand so (a card that stays keeps
 * its place in the drawing); without a room (not yet on the page) the cards are left in one plain row. */
export function fanRows(cards, room) {
  if (!room || !cards.length) return cards;
  const minStep = 44;
  const perRow = Math.max(1, Math.floor((room.width - room.card) / minStep) + 1);
  const rows = Math.ceil(cards.length / perRow);
  const each = Math.ceil(cards.length / rows);
  const out = [];
  for (let r = 0; r < rows; r += 1) {
    const row = h("div", {class: "fan-row", dataset: {key: `row-${r}`}});
    const inRow = cards.slice(r * each, (r + 1) * each);
    const step = inRow.length > 1 ? Math.min(room.card * 0.78, (room.width - room.card - 4) / (inRow.length - 1)) : room.card;
    row.style.setProperty("--step", `${Math.max(minStep, step)}px`);
    inRow.forEach((card, i) => {
      const mid = (inRow.length - 1) / 2;
      const off = mid > 0 ? (i - mid) / mid : 0; // -1 at the left end, 1 at the right
      card.style.setProperty("--tilt", `${(off * Math.min(rows > 1 ? 4 : 7, mid * 1.5)).toFixed(2)}deg`);
      card.style.setProperty("--arc", `${(off * off * Math.min(rows > 1 ? 6 : 12, mid * 2)).toFixed(1)}px`);
      row.append(card);
    });
    out.push(row);
  }
  return out;
}
