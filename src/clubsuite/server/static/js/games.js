// What differs between the games, for the pages: the words of each action, the prompt of each phase, the events in
// words, and the facts a table shows beside the cards. The rules themselves are the server's: the pages only show.

import {parseCard, playShort, cardShort} from "./cards.js";

/** The label of an action that is a word, per game (the notation is the server's). */
const WORDS = {
  keep: "Keep my hand",
  exchange: "Exchange for the bid hand",
  pass: "Pass",
  double: "Double or nothing",
};

export function wordLabel(game, word, view) {
  if (game === "free" && word === "pass") return "Pass (no bid)";
  if (game === "northstar" && word === "pass") return "Pass";
  if (game === "whist" && word === "exchange" && view) return `Exchange for the bid hand (${view.bid_size} cards)`;
  return WORDS[word] ?? word;
}

/** One legal action read: its text, its cards (a wild 15 keeps what it stands for) and its word, if any. */
export function readAction(text) {
  const tokens = text.split(/\s+/);
  const cards = [];
  const words = [];
  for (const t of tokens) {
    const c = parseCard(t);
    if (c) cards.push(c);
    else words.push(t);
  }
  return {text, cards, word: words.length ? words.join(" ") : null};
}

const PASS_TO = {left: "the player on your left", right: "the player on your right", across: "your partner"};

/** What the seat to act is asked, in words. */
export function prompt(game, view) {
  const phase = view.phase;
  if (game === "whist") {
    if (phase === "exchange") return `Keep your hand, or exchange it for the ${view.bid_size}-card bid hand (CW-4).`;
    return view.trick.length ? "Your turn: follow suit if you can." : "Your lead: play any card (clubs once broken).";
  }
  if (game === "free") {
    const stage = view.stage;
    if (stage === "auction") return "Bid one of your bid cards (higher than the last bid), or pass.";
    if (stage === "handicap") return "Your Ten handicap: choose the card to discard.";
    if (stage === "pass") return "Choose one card to pass to the player on your right.";
    if (stage === "call") return "Call a misplay, or let the play stand.";
    return view.trick.length ? "Your turn: follow suit if you can." : "Your lead.";
  }
  if (game === "partnership") {
    if (phase === "pass") return `Choose three cards to pass to ${PASS_TO[view.pass] ?? "the next player"}, then confirm.`;
    return view.trick.length ? "Your turn: follow suit if you can." : "Your lead.";
  }
  if (game === "northstar") {
    const last = view.trick.length ? view.trick[view.trick.length - 1].play : null;
    if (!last) return "Your lead: select cards to play (a single card, a set of equal values, or a run).";
    return `Beat ${playShort(last)}: select cards and play, or pass.`;
  }
  return "Your turn.";
}

/** An event in words; ``name(seat)`` gives a seat's display name. Null for events not worth a line. */
export function narrate(game, ev, name) {
  const who = (seat) => name(seat);
  // "You play", "Ann plays": the verb agrees with the page's own seat, named "You"
  const does = (seat, verb) => {
    const subject = who(seat);
    if (subject !== "You") return `${subject} ${verb}`;
    const plain = {has: "have", is: "is", takes: "take", wins: "win", passes: "pass", plays: "play", bids: "bid", keeps: "keep",
      exchanges: "exchange", calls: "call", goes: "go"};
    return [subject, ...verb.split(" ").map((w) => plain[w] ?? w)].join(" ");
  };
  switch (ev.type) {
    case "HandStarted":
      return `Hand ${ev.hand_number + 1} is dealt by ${who(ev.dealer)}${ev.direction ? `; pass ${ev.direction}` : ""}.`;
    case "Decided":
      return `${does(ev.seat, ev.exchanged ? "exchanges" : "keeps")}${ev.exchanged ? " for the bid hand" : ""}.`;
    case "PlayStarted":
      return `${who(ev.leader)} leads.`;
    case "CardPlayed":
      return `${does(ev.seat, "plays")} ${cardShort(parseCard(ev.card))}.`;
    case "TrickTaken":
      return `${does(ev.seat, "takes")} trick ${ev.number}.`;
    case "HandScored":
      return `Hand scored: ${ev.scores.map((v, s) => `${who(s)} ${v > 0 ? "+" : ""}${v}`).join(", ")}.`;
    case "HandRescored":
      return `Hand scored again: ${ev.scores.map((v, s) => `${who(s)} ${v > 0 ? "+" : ""}${v}`).join(", ")}.`;
    case "MatchEnded":
      if (ev.draw) return "The match ends in a draw.";
      return `The match is over: ${ev.winners.map(who).join(" and ")} ${ev.winners.length > 1 || who(ev.winners[0]) === "You" ? "win" : "wins"}.`;
    case "BidMade":
      return `${does(ev.seat, "bids")} ${cardShort(parseCard(ev.card))}.`;
    case "AuctionPassed":
      return `${does(ev.seat, "passes")}.`;
    case "AuctionWon":
      return `${does(ev.seat, "wins")} the auction with ${cardShort(parseCard(ev.bid))}${ev.partner !== null ? `, partnered by ${who(ev.partner)}` : ""}.`;
    case "ChestTaken":
      return `${does(ev.seat, "takes")} the treasure chest (${ev.size} cards).`;
    case "HandicapResolved":
      return `${who(ev.seat)}'s ${cardShort(parseCard(ev.bid))} handicap: ${ev.removed} card${ev.removed === 1 ? "" : "s"} ${ev.to === null ? "discarded" : `passed to ${who(ev.to)}`}.`;
    case "PassStarted":
      return "Each player chooses a card to pass to the right.";
    case "CardsPassed":
      return ev.direction ? `The cards are passed ${ev.direction}.` : "The cards are passed.";
    case "PassChosen":
      return `${does(ev.seat, "has")} chosen.`;
    case "MisplayCalled":
      return `${does(ev.caller, "calls")} a misplay by ${who(ev.seat)}.`;
    case "NoMisplay":
      return `${who(ev.caller)}'s call was wrong.`;
    case "Played":
      return `${does(ev.seat, "plays")} ${playShort(ev.play)}.`;
    case "Passed":
      return `${does(ev.seat, "passes")}.`;
    case "DoubleCalled":
      return `${does(ev.seat, "calls")} double or nothing.`;
    case "WentOut":
      return `${does(ev.seat, "goes out and takes")} the ${ev.bonus} bonus card.`;
    case "TrickWon":
      return `${does(ev.seat, "wins")} the trick${ev.at_once ? " at once" : ""}.`;
    case "LastTurn":
      return `${does(ev.seat, "has")} the last turn.`;
    case "RoundEnded":
      return "The round is over.";
    default:
      return null;
  }
}

/** The facts of a hand in progress worth a line each, beside the cards. */
export function facts(game, view, name) {
  const out = [];
  if (view.dealer !== undefined && view.dealer !== null) out.push(["Dealer", name(view.dealer)]);
  if (game === "whist") {
    const decided = (view.decisions || []).map((d) => `${name(d.seat)}: ${d.exchanged ? "exchanged" : "kept"}`);
    if (decided.length) out.push(["Bid hand", decided.join(", ")]);
    out.push(["Clubs", view.clubs_broken ? "broken" : "not yet broken"]);
    out.push(["Match", `first to +${view.target} or down to -${view.target}`]);
  } else if (game === "free") {
    if (view.auction && view.auction.length) {
      out.push(["Auction", view.auction.map((b) => `${name(b.seat)} ${b.bid === "pass" ? "pass" : cardShort(parseCard(b.bid))}`).join(", ")]);
    }
    if (view.winner !== null && view.winner !== undefined) {
      out.push(["Contract", `${name(view.winner)}${view.partner !== null ? ` with ${name(view.partner)} (Joker)` : ""}`]);
    }
    if (view.handicaps && view.handicaps.length) {
      out.push(["Handicaps", view.handicaps.map((x) => `${name(x.seat)}'s ${cardShort(parseCard(x.bid))}: ${x.count} card${x.count === 1 ? "" : "s"} ${x.to === null ? "discarded" : `to ${name(x.to)}`}`).join("; ")]);
    }
    if (view.transfers && view.transfers.length) {
      out.push(["Passed", view.transfers.map((t) => `${name(t.from)} → ${name(t.to)}${t.card ? ` ${cardShort(parseCard(t.card))}` : ""}`).join("; ")]);
    }
    out.push(["Match", `to ${view.target} points`]);
  } else if (game === "partnership") {
    if (view.partner !== null && view.partner !== undefined) out.push(["Partner", name(view.partner)]);
    out.push(["Pass", view.pass === "none" ? "no pass this hand" : `${view.pass}`]);
    if (view.team_totals) out.push(["Teams", view.team_totals.map((t, i) => `${teamName(view, i, name)} ${t}`).join(" \u00b7 ")]);
    out.push(["Match", `to ${view.target} points`]);
  } else if (game === "northstar") {
    out.push(["Passes in a row", String(view.passes)]);
    if (view.out_order && view.out_order.length) out.push(["Out", view.out_order.map(name).join(", ")]);
    if (view.doubled && view.doubled.length) out.push(["Doubled", view.doubled.map(name).join(", ")]);
    if (view.last_turn !== null && view.last_turn !== undefined) out.push(["Last turn", name(view.last_turn)]);
    if (view.pack) out.push(["Pack", `${view.pack.undealt} undealt, ${view.pack.discards} discarded`]);
    out.push(["Match", `to ${view.goal} points`]);
  }
  return out;
}

/** A partnership's name from its seats. */
export function teamName(view, team, name) {
  const n = view.hand_sizes.length;
  const seats = [];
  for (let s = 0; s < n; s += 1) if (s % 2 === team) seats.push(name(s));
  return seats.join(" & ");
}

/** A complete hand's account in words (the score sheet's details column). */
export function handWords(game, hand, name) {
  if (game === "whist") {
    const ex = hand.exchanged && hand.exchanged.length ? `exchanged: ${hand.exchanged.map(name).join(", ")}` : "nobody exchanged";
    return `tricks ${hand.tricks_won.join("-")}; ${ex}`;
  }
  if (game === "free") {
    const c = hand.contract;
    if (!c) return "no contract";
    return `${c.team.map(name).join(" & ")} needed ${c.tricks_needed}, took ${c.tricks_taken}: ${c.made ? "made" : "failed"}`;
  }
  if (game === "partnership") {
    return `tricks ${hand.tricks_won.join("-")}; teams ${hand.team_scores ? hand.team_scores.join(" / ") : ""}`;
  }
  if (game === "northstar") {
    const out = hand.out_order && hand.out_order.length ? `out: ${hand.out_order.map(name).join(", ")}` : "";
    return out;
  }
  return "";
}
