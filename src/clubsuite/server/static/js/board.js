// The table as a picture, from a view: the seats around it, the cards on the table, the score sheet. Shared by the
// table page (a seat's view, or the spectator's) and the replay viewer (the spectator's view and every hand).

import {h} from "./dom.js";
import {cardBack, cardRow, cardView, parseCard, parseCards} from "./cards.js";
import {facts, handWords, teamName} from "./games.js";

/** The seats in the order they are drawn: the one after ``me`` first, clockwise, ``me`` last. */
export function seatOrder(n, me) {
  const start = me === null || me === undefined ? 0 : (me + 1) % n;
  return Array.from({length: n}, (_, i) => (start + i) % n);
}

/** One seat's panel: name, what it holds and has won, its state. */
export function seatPanel({game, view, seat, info, me, clock, cards}) {
  const badges = [];
  if (seat === me) badges.push(h("span", {class: "badge you"}, "you"));
  if (view.dealer === seat) badges.push(h("span", {class: "badge"}, "dealer"));
  if (info && info.kind === "bot") badges.push(h("span", {class: "badge bot"}, "bot"));
  else if (info && info.bot_playing) badges.push(h("span", {class: "badge away"}, "bot playing"));
  else if (info && info.taken && !info.connected) badges.push(h("span", {class: "badge away"}, "away"));
  if (game === "partnership" || (view.team_totals && game === "northstar" && teamsOf(view) > 0)) {
    const team = game === "partnership" ? seat % 2 : seat % teamsOf(view);
    badges.push(h("span", {class: `badge team team-${team}`}, `team ${team + 1}`));
  }
  if (game === "free" && (view.winner === seat || view.partner === seat)) {
    badges.push(h("span", {class: "badge contract"}, view.winner === seat ? "contract" : "Joker partner"));
  }
  if (game === "northstar" && view.doubled && view.doubled.includes(seat)) badges.push(h("span", {class: "badge"}, "doubled"));
  const stats = [];
  if (view.hand_sizes) stats.push(`${view.hand_sizes[seat]} card${view.hand_sizes[seat] === 1 ? "" : "s"}`);
  if (view.tricks_won) stats.push(`${view.tricks_won[seat]} trick${view.tricks_won[seat] === 1 ? "" : "s"}`);
  if (game === "free" && view.auction_sizes) stats.push(`${view.auction_sizes[seat]} bid cards`);
  if (game === "northstar" && view.won) stats.push(clubsWon(view.won[seat]));
  if (game === "northstar" && view.bonus && view.bonus[seat] !== null) stats.push(`bonus ${view.bonus[seat]}`);
  if (view.totals) stats.push(`total ${view.totals[seat]}`);
  const name = seatName(info, seat);
  const toAct = view.to_act === seat;
  const timer = clock && clock.seat === seat ? h("span", {class: "clock", dataset: {deadline: String(Date.now() + clock.seconds_left * 1000)}}, `${Math.ceil(clock.seconds_left)} s`) : null;
  return h("section", {
    class: `seat ${toAct ? "to-act" : ""} ${seat === me ? "mine" : ""}`.trim(),
    "aria-label": `${name}${seat === me ? " (you)" : ""}${toAct ? ", to act" : ""}`,
    dataset: {seat: String(seat)},
  },
  h("div", {class: "seat-head"},
    h("span", {class: `presence ${info && (info.connected || info.kind === "bot") ? "on" : "off"}`, "aria-hidden": "true"}),
    h("strong", {class: "seat-name"}, name), timer, ...badges),
  h("div", {class: "seat-stats"}, stats.join(" \u00b7 ")),
  cards === undefined ? (seat === me ? null : backs(view.hand_sizes ? view.hand_sizes[seat] : 0)) : cards);
}

function backs(n) {
  const shown = Math.min(n, 13);
  return h("div", {class: "backs", "aria-hidden": "true"}, Array.from({length: shown}, () => cardBack("small")));
}

/** A seat's display name. */
export function seatName(info, seat) {
  if (!info) return `Seat ${seat + 1}`;
  if (info.kind === "bot") return `${info.name ?? "bot"} (seat ${seat + 1})`;
  return info.name ?? `Seat ${seat + 1} (free)`;
}

function teamsOf(view) {
  // North Star's CLUBS: the team of seat s is s % teams; team_totals differs from totals only with teams
  if (!view.team_totals || view.team_totals.length === view.totals.length) return 0;
  return view.team_totals.length;
}

function clubsWon(text) {
  const n = parseCards(text).filter((c) => c.suit === "C").length;
  return `${n} club${n === 1 ? "" : "s"} won`;
}

/** The cards on the table: the trick in progress, one place per seat; North Star's CLUBS: the plays of the trick. */
export function tableCenter({game, view, name, order}) {
  if (game === "northstar") {
    const plays = view.trick || [];
    const shown = plays.slice(-4);
    return h("div", {class: "center northstar-center", "aria-label": "the current trick"},
      plays.length === 0 ? h("p", {class: "empty"}, "No cards on the table: a new trick starts.") : null,
      shown.map((p, i) => h("figure", {class: `play ${i === shown.length - 1 ? "to-beat" : ""}`},
        cardRow(parseCards(p.play)), h("figcaption", {}, `${name(p.seat)}${i === shown.length - 1 ? " (to beat)" : ""}`))),
      plays.length > 4 ? h("p", {class: "muted"}, `${plays.length - 4} earlier play${plays.length === 5 ? "" : "s"} in this trick`) : null);
  }
  if (game === "free" && view.stage === "auction") {
    const bids = (view.auction || []).filter((b) => b.bid !== "pass");
    return h("div", {class: "center auction", "aria-label": "the auction"},
      bids.length === 0 ? h("p", {class: "empty"}, "The auction opens: the holder of the \u2660 10 bids first.") : null,
      bids.map((b, i) => h("figure", {class: `play ${i === bids.length - 1 ? "to-beat" : ""}`},
        cardView(parseCard(b.bid)), h("figcaption", {}, name(b.seat)))));
  }
  const bySeat = new Map((view.trick || []).map((t) => [t.seat, t.card]));
  return h("div", {class: "center trick", "aria-label": "the current trick"},
    order.map((seat) => h("figure", {class: "slot", dataset: {seat: String(seat)}},
      bySeat.has(seat) ? cardView(parseCard(bySeat.get(seat))) : h("span", {class: "card placeholder", "aria-hidden": "true"}),
      h("figcaption", {}, name(seat)))));
}

/** The last complete trick, or null when there is none. */
export function lastTrick({game, view, name, lastWon}) {
  if (game === "northstar") {
    if (!lastWon) return null;
    return h("div", {class: "last-trick"}, h("p", {}, `${name(lastWon.seat)} won:`), cardRow(parseCards(lastWon.cards)));
  }
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  const t = tricks[tricks.length - 1];
  const players = t.players || null;
  return h("div", {class: "last-trick"},
    h("p", {}, `Trick ${tricks.length}: led by ${name(t.leader)}, won by ${name(t.winner)}`),
    h("div", {class: "card-row"}, t.cards.map((c, i) => h("figure", {class: "slot"}, cardView(parseCard(c)),
      h("figcaption", {}, name(players ? players[i] : (t.leader + i) % view.hand_sizes.length))))));
}

/** The facts of the hand as a definition list. */
export function factList(game, view, name) {
  const items = facts(game, view, name);
  return h("dl", {class: "facts"}, items.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

/** The score sheet: one row per complete hand, then the totals (and the teams' where there are teams). */
export function scoreSheet({game, view, hands, name, n}) {
  const seats = Array.from({length: n}, (_, i) => i);
  const head = h("tr", {}, h("th", {scope: "col"}, "Hand"), seats.map((s) => h("th", {scope: "col"}, name(s))), h("th", {scope: "col"}, "Details"));
  const rows = hands.map((hand, i) => h("tr", {},
    h("th", {scope: "row"}, String(i + 1)),
    seats.map((s) => h("td", {class: "num"}, signedNumber(hand.scores[s]))),
    h("td", {class: "details"}, handWords(game, hand, name))));
  const totals = view && view.totals ? view.totals : hands.length ? hands[hands.length - 1].totals : seats.map(() => 0);
  const foot = [h("tr", {class: "totals"}, h("th", {scope: "row"}, "Total"), seats.map((s) => h("td", {class: "num"}, String(totals[s]))), h("td", {}, ""))];
  if (view && game === "partnership" && view.team_totals) {
    foot.push(h("tr", {class: "totals"}, h("th", {scope: "row"}, "Teams"),
      h("td", {colspan: String(n + 1)}, view.team_totals.map((t, i) => `${teamName(view, i, name)}: ${t}`).join(" \u00b7 "))));
  }
  if (view && game === "northstar" && teamsOf(view) > 0) {
    foot.push(h("tr", {class: "totals"}, h("th", {scope: "row"}, "Teams"),
      h("td", {colspan: String(n + 1)}, view.team_totals.map((t, i) => `team ${i + 1}: ${t}`).join(" \u00b7 "))));
  }
  return h("div", {class: "score-box", tabindex: "0", role: "region", "aria-label": "scores"},
    h("table", {class: "scores"}, h("caption", {}, "Scores"), h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, foot)));
}

function signedNumber(v) {
  if (v === null || v === undefined) return "";
  return v > 0 ? `+${v}` : String(v);
}
