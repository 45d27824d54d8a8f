// What differs between the games, for the pages: the words of each action, the prompt of each phase, the events in
// words, the facts a table shows beside the cards, how a game ranks cards in a hand, and the rule behind a prompt
// explained in plain words. The rules themselves are the server's: the pages only show.
//
// Every function that names seats takes ``name(seat)``; the page's own seat is named "You", and every sentence here
// is written for it too ("You lead.", "Your J♠ handicap", "Dealt by you"). Rule ids (e.g. "CW-4") appear only in the
// answer of ``why`` and as the keys of ``ruleText``: never in a prompt, a label, a fact or a line of the log.
//
// Every word is in the reader's language (i18n.js): each sentence is one message, ``t(...)`` with its values as
// named placeholders, and a sentence about the page's own seat is a message of its own ("You lead." beside
// "{name} leads."), so that each language words both as its grammar asks. The words are looked up when asked, never
// when this module loads (the catalog is loaded after).
//
// ``game`` may be a game's name ("northstar") or a table's whole spec ("northstar(players=5,crazy=true)"): with the
// spec the words can follow the table's options (wild 15s, Crazy CLUBS, double or nothing...).

import {SUITS, parseCard, parseCards} from "./cards.js";
import {cardLetters, t, tc, tn} from "./i18n.js";

// -- the game and its options ---------------------------------------------------------------------------------------
const VARIANTS = {
  "whist-1997": ["whist", {lead_after_exchange: "left_of_last_exchanger"}],
  "northstar-2013": ["northstar", {leftover: "reshuffle"}],
  "northstar-double": ["northstar", {double_or_nothing: "true"}],
  "northstar-wild": ["northstar", {wild_fifteens: "true"}],
  "northstar-crazy": ["northstar", {crazy: "true"}],
  "northstar-duel": ["northstar", {players: "2"}],
  "northstar-teams": ["northstar", {players: "4", teams: "2x2"}],
};

/** A game's title in words ("Clubs" for a game this file does not know). */
function title(game) {
  switch (game) {
    case "whist":
      return t("Clubs (whist group)");
    case "free":
      return t("Free Clubs");
    case "partnership":
      return t("Clubs (partnership)");
    case "northstar":
      return t("CLUBS (North Star)");
    default:
      return t("Clubs");
  }
}

/** A game spec read: ``{game, options}`` ("northstar-crazy(players=5)" → northstar with crazy and players=5); the
 * option values stay the strings of the spec. An unknown name is kept as the game. */
export function readSpec(spec) {
  const text = String(spec ?? "").trim();
  const open = text.indexOf("(");
  const head = (open < 0 ? text : text.slice(0, open)).trim().toLowerCase();
  const options = {};
  let game = head;
  if (VARIANTS[head]) {
    game = VARIANTS[head][0];
    Object.assign(options, VARIANTS[head][1]);
  }
  if (open >= 0) {
    const inside = text.slice(open + 1, text.endsWith(")") ? -1 : undefined);
    for (const part of inside.split(",")) {
      const eq = part.indexOf("=");
      if (eq > 0) options[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim().toLowerCase();
    }
  }
  return {game, options};
}

const on = (options, key) => options[key] === "true";

/** North Star's teams in words ("2x2": two teams of two), or null. */
function teamsWords(teams) {
  switch (teams) {
    case "2x2":
      return t("two teams of two");
    case "3x2":
      return t("three teams of two");
    case "2x3":
      return t("two teams of three");
    default:
      return null;
  }
}

/** A table's game in plain words, e.g. "CLUBS (North Star): 5 players, wild 15s, Crazy CLUBS". */
export function specWords(spec) {
  const {game, options} = readSpec(spec);
  const parts = [];
  const target = Number(options.target);
  if (game === "whist") {
    if (options.lead_after_exchange === "left_of_last_exchanger") parts.push(t("the 1997 rules (the player after the last exchanger leads)"));
    if (target > 0) parts.push(t("play to +{target} or -{target}", {target}));
  } else if (game === "free") {
    if (on(options, "misplays")) parts.push(t("misplays may be called"));
    if (on(options, "no_spades_needs_a_trick")) parts.push(t("the no-spades bonus needs a trick"));
    if (target > 0) parts.push(t("play to {target} points", {target}));
  } else if (game === "partnership") {
    if (target > 0) parts.push(t("play to {target} points", {target}));
  } else if (game === "northstar") {
    if (options.players) parts.push(tn("{n} player", "{n} players", Number(options.players)));
    const teams = teamsWords(options.teams);
    if (teams) parts.push(teams);
    if (on(options, "double_or_nothing")) parts.push(t("double or nothing"));
    if (on(options, "wild_fifteens")) parts.push(t("wild 15s"));
    if (on(options, "crazy")) parts.push(t("Crazy CLUBS"));
    if (options.leftover === "reshuffle") parts.push(t("a full shuffle every round (2013 rules)"));
    if (options.club_points) parts.push(t("house club points"));
    if (target > 0) parts.push(t("play to {target} points", {target}));
  }
  return parts.length ? t("{game}: {rules}", {game: title(game), rules: parts.join(", ")}) : title(game);
}

// -- words about seats ----------------------------------------------------------------------------------------------
const YOU = "You";

/** "Ann, Bob and you". */
function joinWords(words) {
  if (words.length <= 1) return words.join("");
  return t("{names} and {last}", {names: words.slice(0, -1).join(", "), last: words[words.length - 1]});
}

/** The seats of one ``name`` function: whether a seat is the page's own (named "You": its sentences are messages of
 * their own), a seat's name, and seats in a list ("Ann and you", "You and Bob"). */
function seatWords(name) {
  const raw = (seat) => String(name(seat));
  const you = (seat) => {
    const named = raw(seat);
    return named === YOU || named === t("You");
  };
  /** At the start of a sentence: "You", "Ann". */
  const subject = (seat) => (you(seat) ? t("You") : raw(seat));
  /** Anywhere else: "you", "Ann". */
  const object = (seat) => (you(seat) ? t("you") : raw(seat));
  return {
    you,
    /** A seat's own name ("Ann"), for the sentences about another seat than the page's. */
    name: raw,
    subject,
    object,
    /** Seats as a subject: "Ann and you", "You and Bob". */
    list: (seats) => joinWords(seats.map((s, i) => (i === 0 ? subject(s) : object(s)))),
    /** Seats anywhere else: "Ann and you", "you and Bob". */
    listObject: (seats) => joinWords(seats.map(object)),
  };
}

// -- words about cards ----------------------------------------------------------------------------------------------
const SUIT_ONE = {C: "club", D: "diamond", H: "heart", S: "spade"};

/** A suit's name in a sentence: "hearts" (``one``: "heart"), in the reader's language. */
function suitWords(suit, one = false) {
  return one ? tc("suit.one", SUIT_ONE[suit]) : tc("suit", SUITS[suit].name);
}

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

/** A card of the notation in a line of text: "Q♥", "10♠", "Joker"; null for something that is not a card. */
function cardText(text) {
  const c = parseCard(String(text ?? ""));
  if (!c) return null;
  if (c.suit === null) return t("Joker");
  return cardLetters({...c, as: null});
}

/** A bid in a sentence: "a Joker", or the card ("K♣"). */
function bidText(text) {
  const c = parseCard(String(text ?? ""));
  if (c && c.suit === null) return t("a Joker");
  return cardText(text) ?? t("a card");
}

/** A wild 15 with what it stands for ("15♠ as 7"). */
function wildText(c) {
  return tc("card.wild", "{card} as {n}", {card: cardLetters({...c, as: null}), n: c.as});
}

/** A North Star play in words: "7♥ 7♣", a wild 15 with what it stands for ("15♠ as 7"). */
function playWords(text) {
  const cards = parseCards(String(text ?? ""));
  if (!cards.length) return t("a play");
  return cards.map((c) => (c.as === null ? cardLetters(c) : wildText(c))).join(" ");
}

/** The values a North Star play stands for (a wild 15 counts as what it stands for). */
function playValues(text) {
  return parseCards(String(text ?? "")).map((c) => (c.as === null ? c.value : c.as));
}

/** The kind of a North Star play: {kind: "single" | "set" | "run", size, top}. */
function playKind(text) {
  const values = playValues(text);
  const top = values.length ? Math.max(...values) : 0;
  if (values.length <= 1) return {kind: "single", size: values.length, top};
  return {kind: values.every((v) => v === values[0]) ? "set" : "run", size: values.length, top};
}

/** A count of two to ten in words ("two"), a larger one in digits (the sentences that use it count two or more). */
function numberWord(n) {
  switch (n) {
    case 2:
      return t("two");
    case 3:
      return t("three");
    case 4:
      return t("four");
    case 5:
      return t("five");
    case 6:
      return t("six");
    case 7:
      return t("seven");
    case 8:
      return t("eight");
    case 9:
      return t("nine");
    case 10:
      return t("ten");
    default:
      return String(n);
  }
}

/** Where the partnership's pass goes, in words ("to the left"), or null for a direction this file does not know. */
function directionWords(direction) {
  switch (direction) {
    case "left":
      return t("to the left");
    case "right":
      return t("to the right");
    case "across":
      return t("across the table");
    case "none":
      return t("nowhere");
    default:
      return null;
  }
}

// -- the ranking of cards ---------------------------------------------------------------------------------------------
/** How ``game`` ranks cards, as a function ``value(card)`` of a card read by cards.js (``{text, rank, suit, value,
 * as}``): higher is higher in play. Free Clubs: the ace is the lowest card (A 2 … 9, then the auction cards 10 J Q K
 * and the Jokers); whist and partnership: ace high; North Star's CLUBS: the numbers 1 to 15 (a wild 15 that stands
 * for a value counts as that value). */
export function rankOrder(game, view = null) {
  const {game: g} = readSpec(game);
  if (g === "free") return (card) => (card.rank === "A" ? 1 : card.value);
  if (g === "northstar") return (card) => (card.as === null || card.as === undefined ? card.value : card.as);
  return (card) => card.value;
}

const SUIT_PLACE = {C: 0, D: 1, S: 2, H: 3}; // alternating colours, as cards.js sorts

/** A hand sorted for ``game``: North Star's CLUBS by value (suits never matter in play), the others by suit, each
 * suit low to high in the game's own ranking; Jokers last. Returns a new array. */
export function sortHand(game, view, cards) {
  const value = rankOrder(game, view);
  const suit = (c) => (c.suit === null ? 9 : SUIT_PLACE[c.suit]);
  if (readSpec(game).game === "northstar") return [...cards].sort((a, b) => value(a) - value(b) || suit(a) - suit(b));
  return [...cards].sort((a, b) => suit(a) - suit(b) || value(a) - value(b));
}

// -- labels of actions ------------------------------------------------------------------------------------------------
/** The label of an action that is a word, per game (the notation is the server's). */
export function wordLabel(game, word, view) {
  const {game: g} = readSpec(game);
  const text = String(word ?? "").trim();
  if (g === "free" && text === "pass") return t("Pass (no bid)");
  if (g === "whist" && text === "exchange" && view && view.bid_size) return t("Exchange for the bid hand ({size} cards)", {size: view.bid_size});
  const call = /^call\s+(\S+)/i.exec(text);
  if (call) {
    const card = cardText(call[1].toUpperCase()) ?? t("a card");
    return t("Call a misplay: {card}", {card});
  }
  switch (text.toLowerCase()) {
    case "keep":
      return t("Keep my hand");
    case "exchange":
      return t("Exchange for the bid hand");
    case "pass":
      return t("Pass");
    case "double":
      return t("Double or nothing");
    default:
      return text.replace(/_/g, " ");
  }
}

/** One legal action read: its text, its cards (a wild 15 keeps what it stands for) and its word, if any. */
export function readAction(text) {
  const tokens = text.split(/\s+/);
  const cards = [];
  const words = [];
  for (const token of tokens) {
    const c = parseCard(token);
    if (c) cards.push(c);
    else words.push(token);
  }
  return {text, cards, word: words.length ? words.join(" ") : null};
}

/** Any legal action as a button would say it: "Keep my hand", "Bid J♦", "Discard 7♥", "Pass 2♣ 7♥ Q♠ to the player
 * on your left", "Play 15♠ as 7 8♥". */
export function actionLabel(game, text, view = null) {
  const {game: g} = readSpec(game);
  const a = readAction(String(text));
  if (!a.cards.length) return wordLabel(game, a.word ?? "", view);
  if (a.word && /^call/i.test(a.word)) return wordLabel(game, a.text, view);
  const cards = a.cards.map((c) => (c.as === null ? cardText(c.text) : wildText(c))).join(" ");
  if (g === "partnership" && (a.word === "pass" || a.word === "p" || a.cards.length === 3)) {
    switch (view && view.pass) {
      case "left":
        return t("Pass {cards} to the player on your left", {cards});
      case "right":
        return t("Pass {cards} to the player on your right", {cards});
      case "across":
        return t("Pass {cards} to the player opposite you", {cards});
      default:
        return t("Pass {cards} to the next player", {cards});
    }
  }
  if (g === "free" && view) {
    const stage = view.stage ?? view.phase;
    if (stage === "auction") return t("Bid {cards}", {cards: a.cards.map((c) => bidText(c.text)).join(" ")});
    if (stage === "handicap") return t("Discard {cards}", {cards});
    if (stage === "pass") return t("Pass {cards} to the player on your right", {cards});
  }
  return t("Play {cards}", {cards});
}

/** What a whist or partnership view's ``known_cards`` key means, for the heading of the cards under it. */
export function knownLabel(game, key, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  if (g === "whist") {
    if (key === "bid") return t("The hand you gave up (now the bid hand)");
    return t("The hand you gave up (now held by {name})", {name: w.object(Number(key))});
  }
  if (g === "partnership") return t("Cards you passed to {name} (not played yet)", {name: w.object(Number(key))});
  return t("Cards you know about");
}

// -- the prompt: what the seat to act is asked ------------------------------------------------------------------------
function handCards(view) {
  return parseCards(view && typeof view.hand === "string" ? view.hand : "");
}

/** What the seat to act is asked, in words. ``legal`` (the legal actions the server sent), when given, makes the
 * words more exact (a double that may be called, wild 15s); without it the view alone is read. */
export function prompt(game, view, legal = null) {
  const {game: g, options} = readSpec(game);
  if (!view) return t("Your turn.");
  const acts = Array.isArray(legal) ? legal : Array.isArray(view.legal) ? view.legal : null;
  if (view.phase === "over") return t("The match is over.");
  if (view.phase === "deal") return t("The hand is over: the next one is being dealt.");
  if (g === "whist") return whistPrompt(view);
  if (g === "free") return freePrompt(view);
  if (g === "partnership") return partnershipPrompt(view);
  if (g === "northstar") return northstarPrompt(view, options, acts);
  return t("Your turn.");
}

function whistPrompt(view) {
  if (view.phase === "exchange") {
    const size = view.bid_size || 13;
    const text = [t("Keep your hand, or exchange it for the {size}-card bid hand? You see the bid hand only once you have taken it.", {size})];
    const before = (view.decisions || []).filter((d) => d.exchanged).length;
    if (before === 1) text.push(t("One player before you exchanged, so the bid hand is now the hand they gave up."));
    else if (before > 1) text.push(t("{count} players before you exchanged, so the bid hand is now the one the last of them gave up.", {count: cap(numberWord(before))}));
    return text.join(" ");
  }
  const hand = handCards(view);
  const trick = (view.trick || []).map((x) => parseCard(x.card)).filter(Boolean);
  if (!trick.length) {
    if (view.clubs_broken) return t("Your lead: play any card.");
    if (hand.length && hand.every((c) => c.suit === "C")) return t("Your lead: you hold only clubs, so lead a club.");
    return t("Your lead: play any card except a club (clubs may not be led until one has been played on another suit).");
  }
  const led = trick[0].suit;
  const clubs = trick.filter((c) => c.suit === "C");
  const topClub = clubs.length ? clubs.reduce((a, b) => (b.value > a.value ? b : a)) : null;
  const mine = hand.filter((c) => c.suit === led);
  const myClubs = hand.filter((c) => c.suit === "C");
  const suits = suitWords(led);
  const suit = suitWords(led, true);
  if (led === "C") {
    if (!mine.length) return t("Clubs were led and you have none: play any card.");
    if (mine.some((c) => c.value > topClub.value)) return t("Clubs were led: play a club higher than {card}.", {card: cardText(topClub.text)});
    return t("Clubs were led and you cannot beat {card}: play any club.", {card: cardText(topClub.text)});
  }
  if (mine.length) {
    if (topClub) return t("{suits} were led and a club has trumped the trick: play any {suit}.", {suits: cap(suits), suit});
    const ledCards = trick.filter((c) => c.suit === led);
    const top = ledCards.reduce((a, b) => (b.value > a.value ? b : a));
    const card = cardText(top.text);
    if (mine.some((c) => c.value > top.value)) return t("{suits} were led: you must beat {card} with a higher {suit}.", {suits: cap(suits), card, suit});
    return t("{suits} were led and you cannot beat {card}: play any {suit}.", {suits: cap(suits), card, suit});
  }
  if (!topClub) {
    if (myClubs.length) return t("You have no {suits}: you must play a club, which wins the trick for now.", {suits});
    return t("You have no {suits} and no clubs: play any card.", {suits});
  }
  const card = cardText(topClub.text);
  if (myClubs.some((c) => c.value > topClub.value)) return t("You have no {suits}: you must play a club higher than {card}.", {suits, card});
  return t("You have no {suits} and cannot beat {card}: play any card.", {suits, card});
}

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// Free Clubs' auction: the order of bids (FC-3) and its levels.
const TIER_OF = {"10": 0, J: 1, Q: 2, K: 3};
const BID_SUIT = {S: 0, H: 1, D: 2, C: 3};

/** What may follow a bid of ``tier`` (0 a Ten ... 3 a King), in words. */
function followWords(tier) {
  switch (tier) {
    case 0:
      return t("a higher Ten or any Jack");
    case 1:
      return t("a higher Jack or any Queen");
    case 2:
      return t("a higher Queen or any King");
    default:
      return t("a higher King or a Joker");
  }
}

function bidPlace(card) {
  if (card.suit === null) return {tier: 4, order: 16};
  const tier = TIER_OF[card.rank];
  return {tier, order: tier * 4 + BID_SUIT[card.suit]};
}

function canFollow(card, last) {
  const a = bidPlace(card);
  const b = bidPlace(last);
  return a.order > b.order && a.tier <= b.tier + 1;
}

/** The Ten whose discard the seat to act chooses now: the first bid of the contract's team, in the order made, that
 * has no handicap yet (a Joker has none). */
function pendingTen(view) {
  const team = [view.winner, view.partner].filter((s) => s !== null && s !== undefined);
  const done = (view.handicaps || []).map((x) => x.bid);
  for (const b of view.auction || []) {
    if (b.bid === "pass" || !team.includes(b.seat) || b.bid.startsWith("JK")) continue;
    const at = done.indexOf(b.bid);
    if (at >= 0) {
      done.splice(at, 1);
      continue;
    }
    return parseCard(b.bid);
  }
  return null;
}

function freePrompt(view) {
  const stage = view.stage ?? view.phase;
  if (stage === "auction") {
    const bids = (view.auction || []).filter((b) => b.bid !== "pass");
    if (!bids.length) return t("You hold the {card}, so you open the auction: bid it.", {card: cardText("10S")});
    const last = parseCard(bids[bids.length - 1].bid);
    const mine = parseCards(view.auction_hand || "").filter((c) => canFollow(c, last));
    const range = followWords(bidPlace(last).tier);
    const card = cardText(last.text);
    if (!mine.length) return t("The last bid is {card}. None of your bid cards can follow it ({range}), so pass.", {card, range});
    const cards = sortHand("free", view, mine).map((c) => cardText(c.text)).join(" ");
    return t("The last bid is {card}. Bid {range} (you can bid {cards}), or pass: passing does not stop you bidding later.", {card, range, cards});
  }
  if (stage === "handicap") {
    const ten = pendingTen(view);
    if (ten) return t("Your Ten handicap ({card}): choose one of your {suits} to discard.", {card: cardText(ten.text), suits: suitWords(ten.suit)});
    return t("Your Ten handicap: choose the card to discard.");
  }
  if (stage === "pass") return t("Choose one card to pass to the player on your right. Nobody sees what they get before everyone has chosen.");
  return followPrompt(view, t("Your lead: play any card. The ace is the lowest card of each suit; clubs are trumps."));
}

/** Following suit without a duty to beat (Free Clubs, partnership). */
function followPrompt(view, lead) {
  const trick = (view.trick || []).map((x) => parseCard(x.card)).filter(Boolean);
  if (!trick.length) return lead;
  const led = trick[0].suit;
  const hand = handCards(view);
  if (!view.hand || hand.some((c) => c.suit === led)) return t("{suits} were led: play a {suit}.", {suits: cap(suitWords(led)), suit: suitWords(led, true)});
  if (led === "C") return t("Clubs were led and you have none: play any card.");
  return t("You have no {suits}: play any card (a club would trump).", {suits: suitWords(led)});
}

function partnershipPrompt(view) {
  if (view.phase === "pass") {
    switch (view.pass) {
      case "left":
        return t("Choose three cards to pass to the player on your left (an opponent), then confirm. Nobody receives cards before all four have chosen.");
      case "right":
        return t("Choose three cards to pass to the player on your right (an opponent), then confirm. Nobody receives cards before all four have chosen.");
      case "across":
        return t("Choose three cards to pass to the player opposite you (an opponent), then confirm. Nobody receives cards before all four have chosen.");
      default:
        return t("Choose three cards to pass to the next player (an opponent), then confirm. Nobody receives cards before all four have chosen.");
    }
  }
  return followPrompt(view, t("Your lead: play any card (clubs may be led at any time)."));
}

function northstarPrompt(view, options, legal) {
  const wild = on(options, "wild_fifteens") || (legal ? legal.some((a) => a.includes("=")) : false);
  const double = legal ? legal.includes("double") : false;
  const plays = view.trick || [];
  const last = plays.length ? plays[plays.length - 1].play : null;
  const notes = [];
  const wildNote = t("A 15 may stand for any value.");
  if (wild) notes.push(wildNote);
  if (double) notes.push(t("Before your first card of the round you may also call double or nothing."));
  else if (!legal && on(options, "double_or_nothing") && !(view.doubled || []).includes(view.seat)) {
    notes.push(t("If you have not played a card this round, you may first call double or nothing."));
  }
  const lastTurn = view.last_turn !== null && view.last_turn !== undefined && view.last_turn === view.seat;
  const start = lastTurn ? [t("Last turn: only you still hold cards.")] : [];
  if (!last) {
    const text = t("Your lead: play one card, a set of cards of one value (like two 7s), or a run of consecutive values (like 4 5 6).");
    return [...start, text, ...notes].join(" ");
  }
  const {kind, size, top} = playKind(last);
  const play = playWords(last);
  if (legal && !legal.some((a) => parseCards(a).length)) {
    return [...start, t("You cannot beat {play}: pass.", {play}), ...notes.filter((x) => x !== wildNote)].join(" ");
  }
  const crazy = on(options, "crazy") || (legal ? crazyShown(legal, kind, size) : false);
  let ask;
  if (crazy) {
    ask = kind === "run"
      ? t("Beat {play}: play a run with more cards, or as many cards with a higher top card; or pass.", {play})
      : t("Beat {play}: play a set (one card counts as a set) with more cards, or as many cards with a higher top card; or pass.", {play});
  } else if (kind === "single") {
    ask = t("Beat {play}: play one card higher than {top}, or pass.", {play, top});
  } else if (kind === "set") {
    ask = t("Beat {play}: play {count} cards of one value higher than {top}, or pass.", {play, count: numberWord(size), top});
  } else {
    ask = t("Beat {play}: play a run of {count} cards whose top card is higher than {top}, or pass.", {play, count: numberWord(size), top});
  }
  if (!crazy && wild) {
    const kept = notes.filter((x) => x !== wildNote);
    return [...start, ask, t("A 15 may stand for any value: played as itself it takes the trick at once, standing for another value it does not."), ...kept].join(" ");
  }
  if (!crazy) notes.unshift(t("A play with a 15 in it takes the trick at once."));
  return [...start, ask, ...notes].join(" ");
}

/** Whether the legal plays show Crazy CLUBS: a play of another size than the one to beat. */
function crazyShown(legal, kind, size) {
  return legal.some((a) => {
    const cards = parseCards(a);
    if (!cards.length) return false;
    const k = playKind(a);
    return k.size !== size && (k.kind === kind || (kind !== "run" && k.kind !== "run"));
  });
}

// -- why: the rule behind the prompt ----------------------------------------------------------------------------------
/** The rulings the games rest on, in plain words: id → [title, explanation] (made when asked, in the reader's
 * language). */
function rules() {
  return {
    "CW-1": [t("You must beat if you can"),
      t("Following a plain suit while no club is in the trick, you must play a card of that suit higher than the best one so far, if you hold one; otherwise any card of the suit. Once a club is in the trick, any card of the suit led will do. With none of the suit led, you must play a club that would win the trick right now (any club if there is none yet, otherwise a higher one) if you can; if you cannot, play anything, even a club that loses. When clubs are led, play a higher club if you can, otherwise any club, otherwise anything.")],
    "CW-2": [t("Clubs must be broken before they are led"),
      t("Nobody may lead a club until clubs are broken, unless they hold nothing but clubs. Clubs are broken once a club has been played on a trick led in another suit (winning or not), or once someone had to lead a club because they held only clubs.")],
    "CW-3": [t("Who leads after the exchange"),
      t("If nobody exchanged, the player on the dealer's left leads the first trick. Otherwise the last player who exchanged leads; a table playing the first, 1997 version of the game has the player on that player's left lead instead.")],
    "CW-4": [t("Keep or exchange"),
      t("Going round from the dealer's left and ending with the dealer, each player decides once: keep the hand they were dealt, or take the face-down bid hand without looking at it first and leave their own 13 cards in its place. A later player who exchanges takes the hand an earlier one left. Only the players who exchange ever see the bid hand.")],
    "CW-5": [t("Scoring and the end of the match"),
      t("After each hand every player scores their tricks minus four, so seven tricks are worth +3 and two tricks -2. Whoever is at +11 or more, or at -11 or less, after a hand wins; if all three get there together, the match is a draw.")],
    "FC-1": [t("Play goes clockwise"),
      t("Every turn passes to the left. The player after the auction winner leads the first trick, so the winner plays third.")],
    "FC-2": [t("Two passes, two directions"),
      t("A Queen handicap sends its card to the player on the left. The one-card pass before play goes to the player on the right, and everyone chooses their card before seeing what they will receive.")],
    "FC-3": [t("The auction"),
      t("Bids go up in this order: the Tens, then the Jacks, Queens and Kings (within each, spades, hearts, diamonds, clubs), then a Joker. A bid must be higher than the last one and at most one level above it: over a Jack you may bid a higher Jack or any Queen, but not a King. After a King, a higher King or a Joker. The holder of the 10 of spades opens with it. Passing never shuts you out of the auction, and a player with no card that can follow only passes. Two passes in a row end the auction: the last bidder wins.")],
    "FC-4": [t("The Joker"),
      t("A Joker ends the auction at once. Its bidder takes the treasure chest and plays in a team with the player who made the bid before it. Together they must take all 10 tricks; if they miss, each of them loses 50. Both carry out the handicaps of every card they bid.")],
    "FC-5": [t("Handicaps"),
      t("The auction winner first takes the treasure chest into their hand. Then each card the winner (and a Joker's partner) bid costs something, in the order the bids were made, and only cards from ace to 9 are ever given up: a Ten discards one card of its suit of your choice; a Jack discards the highest card of its suit; a Queen passes the highest card of its suit to the player on the left; a King discards the three highest. A suit with too few cards gives what it has, an empty one nothing, and a card received from a Queen counts for later handicaps.")],
    "FC-6": [t("Who leads"),
      t("The player after the auction winner leads the first trick (after a Joker, the one player outside the team). The winner of a trick leads the next; if they have no cards left, the next player round with cards leads.")],
    "FC-7": [t("The end of a hand"),
      t("A hand stops after 10 tricks, or as soon as a trick ends with at least two players out of cards, so a trick may hold only two cards. Cards never played, discarded, or left in the chest score nothing.")],
    "FC-8": [t("Bonuses"),
      t("The player with the most diamonds in their tricks scores 20; a tie for most gives 10 to each tied player, and if nobody took a diamond nobody scores it. Every player who took no spade scores 5 (a table may ask for at least one trick too). The ace of hearts is worth 10.")],
    "FC-9": [t("The end of the match"),
      t("After each hand, once anyone has 250 points or more, the highest total wins. If the top is tied, another hand is played.")],
    "FC-10": [t("Misplays"),
      t("Normally a card that breaks the rules cannot be played at all. A table may instead play with misplays: a card that does not follow suit is accepted, and any other player may call it. The table then checks in front of everyone. If it was a misplay, the penalty depends on when it was called: before the next card, the card goes back and is played again; before the trick is taken, its player cannot win that trick; before the next deal, its player scores no plus points for the hand; later, nothing happens. If the card was lawful, everyone is told so and nothing else happens.")],
    "NS-1": [t("The cards"),
      t("60 cards numbered 1 to 15 in four suits. The bonus cards depend on the number of players: with six 0, 2, 5, 8, 10 and 12; with five 0, 2, 5, 8 and 10; with four 0, 2, 5 and 8; with three 0, 2 and 5; with two only the 5.")],
    "NS-2": [t("Club points"),
      t("Only clubs score, and low clubs score more: here clubs 1 to 5 are worth 3, 6 to 10 are worth 2 and 11 to 15 are worth 1; a table may set other values.")],
    "NS-3": [t("Plays and how to beat them"),
      t("You may play one card, a set of two or more cards of one value, or a run of two or more consecutive values (suits mixed, and 15 does not go round to 1). To beat a play, play the same kind with the same number of cards and a higher top card.")],
    "NS-4": [t("Winning a trick"),
      t("A play with a 15 in it wins the trick at once. Otherwise the trick goes to the last player who played, once everyone else still holding cards has passed since. Passing does not put you out of the trick: you may play when your turn comes again. Whoever starts a trick must play something, and the winner starts the next one.")],
    "NS-5": [t("Going out and the last turn"),
      t("Playing your last card takes the highest bonus card left. When only one player still holds cards, they get one last turn on the trick (to beat it or pass); then they take the 0 card and score nothing for the round. With two players the round ends when the first goes out, and the other still scores their clubs.")],
    "NS-6": [t("Cards left over"),
      t("The cards not dealt in a round are dealt first in the next one, and the played cards are shuffled in only when those run short. A table playing the 2013 rules shuffles all 60 cards every round instead.")],
    "NS-7": [t("The end of the match"),
      t("After each round, once anyone has 50 points or more, the highest total wins; a tie at the top plays another round.")],
    "NS-8": [t("Double or nothing"),
      t("On your own turn, before you have played a card this round (even after passing), you may call double or nothing; it does not use up your turn, and you may call it once a round. If you are the first to go out, your score for the round is doubled; otherwise you score nothing for it.")],
    "NS-9": [t("Wild 15s"),
      t("A 15 may stand for any value. Played as a 15 it wins the trick at once; standing for another value it does not. Sets may then have more than four cards, and a play may be made of 15s alone.")],
    "NS-10": [t("Teams"),
      t("Team-mates sit apart, every other seat; teams play to 100 (two or three teams of two) or 150 (two teams of three). If only one team's players still hold cards, the round ends at once: there is no last turn, an unfinished trick goes to whoever played last, and that team scores nothing for the round.")],
    "NS-11": [t("Crazy CLUBS"),
      t("A 15 does not win at once. One card counts as a set of one. A play beats the one before if it is the same kind (set or run) and has more cards, or as many cards and a higher top card.")],
    "CP-1": [t("Leading and winning tricks"),
      t("Any card may be led at any time, clubs too. Follow the suit led if you can; otherwise play anything. The highest club wins the trick; with no club, the highest card of the suit led. The player on the dealer's left leads first, after the pass.")],
    "CP-2": [t("The pass"),
      t("Before play everyone passes three cards: to the left in the first hand, to the right in the second, not at all in the third, and so on. Since partners sit opposite, the cards always go to an opponent. Everyone chooses before anyone receives.")],
    "CP-3": [t("Scoring"),
      t("Partners score together: a point for each trick and for each club taken, and 5 for the queen of diamonds, 31 in a hand. Taking all 13 tricks adds 5 more.")],
    "CP-4": [t("The end of the match"),
      t("After each hand, once a partnership has 150 points or more, the higher total wins; an exact tie plays another hand.")],
  };
}

/** The plain-words explanation of a ruling id ("CW-4"), or null for an id the games do not use. */
export function ruleText(id) {
  const rule = rules()[String(id ?? "").toUpperCase()];
  return rule ? rule[1] : null;
}

/** The short title of a ruling id, or null. */
export function ruleTitle(id) {
  const rule = rules()[String(id ?? "").toUpperCase()];
  return rule ? rule[0] : null;
}

function ruling(id) {
  const [title, text] = rules()[id];
  return {rule: id, title, text};
}

/** The rule behind the current prompt, for a "why?" button: ``{rule, title, text}`` (``rule`` a ruling id, or null
 * where the point is one of the basic rules every text states alike), or null where there is nothing to explain. */
export function why(game, view, legal = null) {
  const {game: g, options} = readSpec(game);
  if (!view || view.phase === "over" || view.phase === "deal") return null;
  const trick = view.trick || [];
  if (g === "whist") {
    if (view.phase === "exchange") return ruling("CW-4");
    return ruling(trick.length ? "CW-1" : "CW-2");
  }
  if (g === "free") {
    const stage = view.stage ?? view.phase;
    if (stage === "auction") return ruling("FC-3");
    if (stage === "handicap") return ruling("FC-5");
    if (stage === "pass") return ruling("FC-2");
    if (!trick.length) return ruling("FC-6");
    return {rule: null, title: t("Follow suit"),
      text: t("Play a card of the suit led if you have one; otherwise any card. The highest club wins the trick, or with no club the highest card of the suit led; the ace is the lowest card of its suit.")};
  }
  if (g === "partnership") return ruling(view.phase === "pass" ? "CP-2" : "CP-1");
  if (g === "northstar") {
    if (view.last_turn !== null && view.last_turn !== undefined && view.last_turn === view.seat) return ruling("NS-5");
    const acts = Array.isArray(legal) ? legal : Array.isArray(view.legal) ? view.legal : null;
    if (trick.length) {
      const {kind, size} = playKind(trick[trick.length - 1].play);
      if (on(options, "crazy") || (acts && crazyShown(acts, kind, size))) return ruling("NS-11");
      return ruling("NS-3");
    }
    return ruling("NS-4");
  }
  return null;
}

// -- events in words -------------------------------------------------------------------------------------------------
/** An event in words; ``name(seat)`` gives a seat's display name ("You" for the page's own seat). ``view`` (any view
 * of the table, optional) lets a few lines say more (the player count of North Star's CLUBS).
 *
 * Every event of every game has a line: the shared HandStarted, PlayStarted, CardPlayed, TrickTaken, HandScored and
 * MatchEnded; whist's Decided; Free Clubs' BidMade, AuctionPassed, AuctionWon, ChestTaken, HandicapResolved,
 * PassStarted, CardsPassed, MisplayCalled, NoMisplay and HandRescored; partnership's PassChosen and CardsPassed;
 * North Star's Played, Passed, DoubleCalled, WentOut, TrickWon, LastTurn and RoundEnded. Null only for an event type
 * this file does not know. */
export function narrate(game, ev, name, view = null) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  const scores = (values) => values.map((v, s) => `${w.object(s)} ${signed(v)}`).join(", ");
  switch (ev.type) {
    case "HandStarted": {
      const you = w.you(ev.dealer);
      const p = {number: ev.hand_number + 1, name: w.name(ev.dealer)};
      if (g === "northstar") return you ? t("Round {number} is dealt by you.", p) : t("Round {number} is dealt by {name}.", p);
      if (g !== "partnership" || !ev.direction) return you ? t("Hand {number} is dealt by you.", p) : t("Hand {number} is dealt by {name}.", p);
      if (ev.direction === "none") {
        return you ? t("Hand {number} is dealt by you; no cards are passed this hand.", p) : t("Hand {number} is dealt by {name}; no cards are passed this hand.", p);
      }
      p.direction = directionWords(ev.direction) ?? t("to a neighbour");
      return you
        ? t("Hand {number} is dealt by you; everyone passes three cards {direction} this hand.", p)
        : t("Hand {number} is dealt by {name}; everyone passes three cards {direction} this hand.", p);
    }
    case "Decided": {
      const p = {name: w.name(ev.seat)};
      if (ev.exchanged) return w.you(ev.seat) ? t("You exchange your hand for the bid hand.") : t("{name} exchanges their hand for the bid hand.", p);
      return w.you(ev.seat) ? t("You keep your hand.") : t("{name} keeps their hand.", p);
    }
    case "PlayStarted":
      return w.you(ev.leader) ? t("You lead.") : t("{name} leads.", {name: w.name(ev.leader)});
    case "CardPlayed": {
      const p = {name: w.name(ev.seat), card: cardText(ev.card) ?? t("a card")};
      return w.you(ev.seat) ? t("You play {card}.", p) : t("{name} plays {card}.", p);
    }
    case "TrickTaken": {
      const p = {name: w.name(ev.seat), number: ev.number};
      return w.you(ev.seat) ? t("You take trick {number}.", p) : t("{name} takes trick {number}.", p);
    }
    case "HandScored":
      return handScored(g, ev, w, scores);
    case "HandRescored":
      return t("After the misplay the hand is scored again: {scores}.", {scores: scores(ev.scores)});
    case "MatchEnded": {
      const final = g === "partnership" && ev.totals && ev.totals.length === 4
        ? [0, 1].map((team) => `${w.listObject(seatsOfTeam(4, 2, team))} ${ev.totals[team]}`)
        : (ev.totals || []).map((total, s) => `${w.object(s)} ${total}`);
      const totals = final.length ? [t("Final totals: {totals}.", {totals: final.join(", ")})] : [];
      if (ev.draw || !ev.winners || !ev.winners.length) return [t("The match ends in a draw."), ...totals].join(" ");
      let over;
      if (ev.winners.length > 1) over = t("The match is over: {names} win.", {names: w.list(ev.winners)});
      else if (w.you(ev.winners[0])) over = t("The match is over: You win.");
      else over = t("The match is over: {name} wins.", {name: w.name(ev.winners[0])});
      return [over, ...totals].join(" ");
    }
    case "BidMade": {
      const p = {name: w.name(ev.seat), bid: bidText(ev.card)};
      return w.you(ev.seat) ? t("You bid {bid}.", p) : t("{name} bids {bid}.", p);
    }
    case "AuctionPassed":
    case "Passed":
      return w.you(ev.seat) ? t("You pass.") : t("{name} passes.", {name: w.name(ev.seat)});
    case "AuctionWon": {
      const p = {name: w.name(ev.seat), bid: bidText(ev.bid)};
      if (ev.partner === null || ev.partner === undefined) {
        return w.you(ev.seat) ? t("You win the auction with {bid} and need 7 tricks.", p) : t("{name} wins the auction with {bid} and needs 7 tricks.", p);
      }
      p.partner = w.name(ev.partner);
      if (w.you(ev.seat)) return t("You win the auction with {bid} and play with {partner}: together you need all 10 tricks.", p);
      if (w.you(ev.partner)) return t("{name} wins the auction with {bid} and plays with you: together you need all 10 tricks.", p);
      return t("{name} wins the auction with {bid} and plays with {partner}: together they need all 10 tricks.", p);
    }
    case "ChestTaken":
      return w.you(ev.seat)
        ? tn("You take the treasure chest ({n} card) into your hand.", "You take the treasure chest ({n} cards) into your hand.", ev.size)
        : tn("{name} takes the treasure chest ({n} card) into their hand.", "{name} takes the treasure chest ({n} cards) into their hand.", ev.size, {name: w.name(ev.seat)});
    case "HandicapResolved": {
      const p = {name: w.name(ev.seat), card: cardText(ev.bid), result: handicapWords(ev.bid, ev.removed, ev.to, w)};
      return w.you(ev.seat) ? t("Your {card} handicap: {result}.", p) : t("{name}'s {card} handicap: {result}.", p);
    }
    case "PassStarted":
      return w.you(ev.seat)
        ? t("Everyone now chooses one card to pass to the right, starting with you.")
        : t("Everyone now chooses one card to pass to the right, starting with {name}.", {name: w.name(ev.seat)});
    case "CardsPassed":
      if (g === "partnership") {
        const direction = directionWords(ev.direction) ?? t("to a neighbour");
        return t("Everyone's three cards go {direction}.", {direction});
      }
      return tn("The chosen cards go to the right ({n} card).", "The chosen cards go to the right ({n} cards).", ev.passes ?? 3);
    case "PassChosen":
      return w.you(ev.seat) ? t("You have chosen your cards to pass.") : t("{name} has chosen their cards to pass.", {name: w.name(ev.seat)});
    case "MisplayCalled": {
      const p = {caller: w.name(ev.caller), name: w.name(ev.seat), card: cardText(ev.card)};
      let called;
      if (w.you(ev.caller)) called = w.you(ev.seat) ? t("You call your {card}: a misplay.", p) : t("You call {name}'s {card}: a misplay.", p);
      else called = w.you(ev.seat) ? t("{caller} calls your {card}: a misplay.", p) : t("{caller} calls {name}'s {card}: a misplay.", p);
      return [called, misplayWords(ev, w)].join(" ");
    }
    case "NoMisplay": {
      const p = {caller: w.name(ev.caller), name: w.name(ev.seat), card: cardText(ev.card)};
      if (w.you(ev.caller)) {
        return w.you(ev.seat)
          ? t("You call your {card}: no misplay, you had none of the suit led.", p)
          : t("You call {name}'s {card}: no misplay, {name} had none of the suit led.", p);
      }
      return w.you(ev.seat)
        ? t("{caller} calls your {card}: no misplay, you had none of the suit led.", p)
        : t("{caller} calls {name}'s {card}: no misplay, {name} had none of the suit led.", p);
    }
    case "Played": {
      const p = {name: w.name(ev.seat), card: playWords(ev.play)};
      return w.you(ev.seat) ? t("You play {card}.", p) : t("{name} plays {card}.", p);
    }
    case "DoubleCalled":
      return w.you(ev.seat) ? t("You call double or nothing.") : t("{name} calls double or nothing.", {name: w.name(ev.seat)});
    case "WentOut": {
      const p = {name: w.name(ev.seat), bonus: ev.bonus};
      return w.you(ev.seat) ? t("You go out and take the {bonus} bonus card.", p) : t("{name} goes out and takes the {bonus} bonus card.", p);
    }
    case "TrickWon": {
      const p = {name: w.name(ev.seat)};
      if (ev.at_once) return w.you(ev.seat) ? t("You win the trick at once with a 15.") : t("{name} wins the trick at once with a 15.", p);
      return w.you(ev.seat) ? t("You win the trick.") : t("{name} wins the trick.", p);
    }
    case "LastTurn":
      return w.you(ev.seat)
        ? t("Only you still hold cards: you have one last turn.")
        : t("Only {name} still holds cards: {name} has one last turn.", {name: w.name(ev.seat)});
    case "RoundEnded": {
      if (ev.team !== null && ev.team !== undefined) {
        const n = view ? (view.players ?? (view.hand_sizes ? view.hand_sizes.length : 0)) : 0;
        const teams = view && view.team_totals && view.team_totals.length < n ? view.team_totals.length : 0;
        if (teams) {
          const members = seatsOfTeam(n, teams, ev.team);
          const names = w.listObject(members);
          return members.some(w.you)
            ? t("The round is over: only your team ({names}) still holds cards, so it scores nothing this round.", {names})
            : t("The round is over: only the team of {names} still holds cards, so it scores nothing this round.", {names});
        }
        return t("The round is over: only team {team} still holds cards, so it scores nothing this round.", {team: ev.team + 1});
      }
      if (ev.last === null || ev.last === undefined) return t("The round is over.");
      const players = view ? (view.players ?? (view.hand_sizes ? view.hand_sizes.length : null)) : null;
      const p = {name: w.name(ev.last)};
      if (!(players > 2)) return w.you(ev.last) ? t("The round is over: you are left with cards.") : t("The round is over: {name} is left with cards.", p);
      return w.you(ev.last)
        ? t("The round is over: you take the 0 card and score nothing this round.")
        : t("The round is over: {name} takes the 0 card and scores nothing this round.", p);
    }
    default:
      return null;
  }
}

function handScored(g, ev, w, scores) {
  if (g === "whist") {
    const parts = ev.tricks.map((n, s) => tn("{name} {n} trick ({points})", "{name} {n} tricks ({points})", n, {name: w.object(s), points: signed(ev.scores[s])}));
    return t("The hand is over: {scores}.", {scores: parts.join(", ")});
  }
  const tricks = (list) => list.map((n, s) => `${w.object(s)} ${n}`).join(", ");
  if (g === "partnership" && ev.team_scores) {
    const n = ev.scores.length;
    const teams = ev.team_scores.map((v, team) => `${w.listObject(seatsOfTeam(n, 2, team))} ${v}`);
    return t("The hand is over. Points: {points}. Tricks: {tricks}.", {points: teams.join(", "), tricks: tricks(ev.tricks)});
  }
  if (g === "northstar") {
    const n = ev.scores.length;
    const nTeams = ev.team_totals && ev.team_totals.length < n ? ev.team_totals.length : 0;
    const lines = [t("Points this round: {scores}.", {scores: scores(ev.scores)})];
    if (nTeams) {
      const totals = ev.team_totals.map((v, team) => `${w.listObject(seatsOfTeam(n, nTeams, team))} ${v}`).join(", ");
      lines.push(t("Team totals: {totals}.", {totals}));
    }
    return lines.join(" ");
  }
  if (ev.tricks) return t("The hand is over. Points: {points}. Tricks: {tricks}.", {points: scores(ev.scores), tricks: tricks(ev.tricks)});
  return t("The hand is over. Points: {points}.", {points: scores(ev.scores)});
}

function seatsOfTeam(n, teams, team) {
  const seats = [];
  for (let s = 0; s < n; s += 1) if (s % teams === team) seats.push(s);
  return seats;
}

/** What a handicap did, e.g. "1 spade discarded", "1 heart passed to you", "no diamonds to give up". */
function handicapWords(bid, removed, to, w) {
  const c = parseCard(String(bid));
  const suit = c && c.suit ? c.suit : null;
  const p = suit ? {suit: suitWords(suit, true), suits: suitWords(suit)} : {};
  if (!removed) return suit ? t("no {suits} to give up", p) : t("no cards to give up");
  if (to === null || to === undefined) {
    return suit ? tn("{n} {suit} discarded", "{n} {suits} discarded", removed, p) : tn("{n} card discarded", "{n} cards discarded", removed);
  }
  if (w.you(to)) {
    return suit ? tn("{n} {suit} passed to you", "{n} {suits} passed to you", removed, p) : tn("{n} card passed to you", "{n} cards passed to you", removed);
  }
  p.name = w.name(to);
  return suit ? tn("{n} {suit} passed to {name}", "{n} {suits} passed to {name}", removed, p) : tn("{n} card passed to {name}", "{n} cards passed to {name}", removed, p);
}

/** The penalty of a misplay called at ``ev.stage`` (FC-10), in words. */
function misplayWords(ev, w) {
  const you = w.you(ev.seat);
  const p = {card: cardText(ev.card), name: w.name(ev.seat)};
  if (ev.stage === 1) return you ? t("{card} goes back to your hand, and you play again.", p) : t("{card} goes back to {name}'s hand, and {name} plays again.", p);
  if (ev.stage === 2) return you ? t("You cannot win this trick.") : t("{name} cannot win this trick.", p);
  if (ev.stage === 3) return you ? t("You score no plus points this hand.") : t("{name} scores no plus points this hand.", p);
  return t("It comes too late to change anything.");
}

// -- facts beside the cards ---------------------------------------------------------------------------------------
/** A seat's card in a list ("your Q♥", "Ann's Q♥"). */
function whoseCard(w, seat, card) {
  return w.you(seat) ? t("your {card}", {card}) : t("{name}'s {card}", {name: w.name(seat), card});
}

/** The facts of a hand in progress worth a line each, beside the cards: ``[[label, words], ...]``. */
export function facts(game, view, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  const out = [];
  if (view.dealer !== undefined && view.dealer !== null) out.push([t("Dealer"), w.object(view.dealer)]);
  if (g === "whist") {
    const decided = (view.decisions || []).map((d) => {
      const p = {name: w.name(d.seat)};
      if (d.exchanged) return w.you(d.seat) ? t("you exchanged") : t("{name} exchanged", p);
      return w.you(d.seat) ? t("you kept") : t("{name} kept", p);
    });
    if (decided.length) out.push([t("Bid hand"), decided.join(", ")]);
    out.push([cap(suitWords("C")), view.clubs_broken ? t("broken: they may be led") : t("not broken yet: they may not be led")]);
    out.push([t("Match"), t("reaching +{target} or -{target} wins", {target: view.target})]);
  } else if (g === "free") {
    if (view.auction && view.auction.length) {
      out.push([t("Auction"), view.auction.map((b) => {
        const p = {name: w.name(b.seat), bid: bidText(b.bid)};
        if (b.bid === "pass") return w.you(b.seat) ? t("you passed") : t("{name} passed", p);
        return w.you(b.seat) ? t("you bid {bid}", p) : t("{name} bid {bid}", p);
      }).join(", ")]);
    }
    if (view.winner !== null && view.winner !== undefined) {
      const joker = view.partner !== null && view.partner !== undefined;
      out.push([t("Contract"), joker
        ? t("{names} (Joker team): all 10 tricks together", {names: w.listObject([view.winner, view.partner])})
        : t("{name}: 7 tricks", {name: w.object(view.winner)})]);
    }
    if (view.handicaps && view.handicaps.length) {
      out.push([t("Handicaps"), view.handicaps.map((x, i) => {
        const p = {name: w.name(x.seat), card: cardText(x.bid), result: handicapWords(x.bid, x.count, x.to, w)};
        if (!w.you(x.seat)) return t("{name}'s {card}: {result}", p);
        return i === 0 ? t("Your {card}: {result}", p) : t("your {card}: {result}", p);
      }).join("; ")]);
    }
    if (view.transfers && view.transfers.length) {
      out.push([t("Passed"), view.transfers.map((x) => `${w.object(x.from)} \u2192 ${w.object(x.to)}${x.card ? ` ${cardText(x.card)}` : ""}`).join("; ")]);
    }
    const called = (view.misplays || []).filter((m) => m.called);
    if (called.length) out.push([t("Misplays called"), called.map((m) => whoseCard(w, m.seat, cardText(m.card))).join(", ")]);
    const own = (view.misplays || []).filter((m) => !m.called);
    if (own.length) {
      const label = w.you(view.seat) ? t("Your misplays not called yet") : t("{name}'s misplays not called yet", {name: w.name(view.seat)});
      out.push([label, own.map((m) => cardText(m.card)).join(", ")]);
    }
    if (view.no_misplay && view.no_misplay.length) {
      out.push([t("Checked, no misplay"), view.no_misplay.map((m) => whoseCard(w, m.seat, cardText(m.card))).join(", ")]);
    }
    out.push([t("Match"), t("to {target} points", {target: view.target})]);
  } else if (g === "partnership") {
    if (view.partner !== null && view.partner !== undefined) out.push([t("Partner"), w.object(view.partner)]);
    const direction = directionWords(view.pass);
    let pass;
    if (view.pass === "none" || !view.pass) pass = t("none this hand");
    else pass = direction ? t("three cards {direction}", {direction}) : t("three cards");
    out.push([t("Pass"), pass]);
    if (view.team_totals) out.push([t("Teams"), view.team_totals.map((total, i) => `${teamName(view, i, name)} ${total}`).join(" \u00b7 ")]);
    out.push([t("Match"), t("to {target} points", {target: view.target})]);
  } else if (g === "northstar") {
    out.push([t("Passes since the last play"), String(view.passes ?? 0)]);
    if (view.out_order && view.out_order.length) out.push([t("Gone out"), w.listObject(view.out_order)]);
    if (view.doubled && view.doubled.length) out.push([t("Double or nothing"), w.listObject(view.doubled)]);
    if (view.last_turn !== null && view.last_turn !== undefined) out.push([t("Last turn"), w.object(view.last_turn)]);
    if (view.pack) out.push([t("Pack"), t("{undealt} undealt, {discards} played before", {undealt: view.pack.undealt, discards: view.pack.discards})]);
    out.push([t("Match"), t("to {target} points", {target: view.goal})]);
  }
  return out;
}

/** A team's name from its seats ("Ann & Cy", "You & Cy"): partnership's two partnerships, North Star's teams (the
 * team of seat s is s % the number of teams). */
export function teamName(view, team, name) {
  const w = seatWords(name);
  const n = view.hand_sizes ? view.hand_sizes.length : view.totals ? view.totals.length : 4;
  // without teams North Star's team_totals are the players' own: a "team" is one seat
  const teams = view.team_totals && view.team_totals.length <= n && view.game !== "partnership" ? view.team_totals.length : 2;
  const seats = seatsOfTeam(n, teams, team);
  const mine = seats.filter(w.you);
  const others = seats.filter((s) => !w.you(s));
  return [...mine, ...others].map((s) => w.subject(s)).join(" & ");
}

/** A complete hand's account in words (the score sheet's details column). */
export function handWords(game, hand, name) {
  const text = handAccount(game, hand, name);
  const you = t("you");
  return text.startsWith(`${you} `) ? cap(text) : text;
}

function handAccount(game, hand, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  if (g === "whist") {
    const tricks = hand.tricks_won ? t("tricks {tricks}", {tricks: hand.tricks_won.join("\u2011")}) : ""; // a hyphen no line breaks at
    const ex = hand.exchanged || [];
    let exchanged;
    if (!ex.length) exchanged = t("nobody exchanged");
    else if (ex.length > 1) exchanged = t("{names} exchanged", {names: w.listObject(ex)});
    else exchanged = w.you(ex[0]) ? t("you exchanged") : t("{name} exchanged", {name: w.name(ex[0])});
    return [tricks, exchanged].filter(Boolean).join("; ");
  }
  if (g === "free") {
    const c = hand.contract;
    if (!c) return t("no contract");
    const result = c.made === true ? t("made") : c.made === false ? t("failed") : t("in play");
    const p = {needed: c.tricks_needed, taken: c.tricks_taken, result};
    if (c.team.length > 1) return t("{names} needed all {needed} tricks together and took {taken}: {result}", {...p, names: w.listObject(c.team)});
    if (c.team.length === 1 && w.you(c.team[0])) return t("you needed {needed} tricks and took {taken}: {result}", p);
    return t("{name} needed {needed} tricks and took {taken}: {result}", {...p, name: w.listObject(c.team)});
  }
  if (g === "partnership") {
    const tricks = hand.tricks_won ? t("tricks {tricks}", {tricks: hand.tricks_won.join("\u2011")}) : ""; // a hyphen no line breaks at
    const n = hand.tricks_won ? hand.tricks_won.length : 4;
    const teams = hand.team_scores ? hand.team_scores.map((v, team) => `${w.listObject(seatsOfTeam(n, 2, team))} ${v}`).join(", ") : "";
    return [tricks, teams].filter(Boolean).join("; ");
  }
  if (g === "northstar") {
    const parts = [];
    if (hand.out_order && hand.out_order.length) parts.push(t("out in order: {names}", {names: w.listObject(hand.out_order)}));
    if (hand.doubled && hand.doubled.length) parts.push(t("double or nothing: {names}", {names: w.listObject(hand.doubled)}));
    if (hand.team_out !== null && hand.team_out !== undefined) parts.push(t("team {team} was left with cards", {team: hand.team_out + 1}));
    else if (hand.last !== null && hand.last !== undefined) {
      parts.push(w.you(hand.last) ? t("you were left with cards") : t("{name} was left with cards", {name: w.name(hand.last)}));
    }
    return parts.join("; ");
  }
  return "";
}
