// What differs between the games, for the pages: the words of each action, the prompt of each phase, the events in
// words, the facts a table shows beside the cards, how a game ranks cards in a hand, and the rule behind a prompt
// explained in plain words. The rules themselves are the server's: the pages only show.
//
// Every function that names seats takes ``name(seat)``; the page's own seat is named "You", and every sentence here
// is written for it too ("You lead.", "Your J♠ handicap", "Dealt by you"). Rule ids (e.g. "CW-4") appear only in the
// answer of ``why`` and as the keys of ``ruleText``: never in a prompt, a label, a fact or a line of the log.
//
// ``game`` may be a game's name ("northstar") or a table's whole spec ("northstar(players=5,crazy=true)"): with the
// spec the words can follow the table's options (wild 15s, Crazy CLUBS, double or nothing...).

import {SUITS, cardShort, parseCard, parseCards} from "./cards.js";

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
const TITLES = {
  whist: "Clubs (whist group)",
  free: "Free Clubs",
  partnership: "Clubs (partnership)",
  northstar: "CLUBS (North Star)",
};

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

/** A table's game in plain words, e.g. "CLUBS (North Star): 5 players, wild 15s, Crazy CLUBS". */
export function specWords(spec) {
  const {game, options} = readSpec(spec);
  const title = TITLES[game] ?? "Clubs";
  const parts = [];
  const target = Number(options.target);
  if (game === "whist") {
    if (options.lead_after_exchange === "left_of_last_exchanger") parts.push("the 1997 rules (the player after the last exchanger leads)");
    if (target > 0) parts.push(`play to +${target} or -${target}`);
  } else if (game === "free") {
    if (on(options, "misplays")) parts.push("misplays may be called");
    if (on(options, "no_spades_needs_a_trick")) parts.push("the no-spades bonus needs a trick");
    if (target > 0) parts.push(`play to ${target} points`);
  } else if (game === "partnership") {
    if (target > 0) parts.push(`play to ${target} points`);
  } else if (game === "northstar") {
    if (options.players) parts.push(`${Number(options.players)} players`);
    const teams = {"2x2": "two teams of two", "3x2": "three teams of two", "2x3": "two teams of three"}[options.teams];
    if (teams) parts.push(teams);
    if (on(options, "double_or_nothing")) parts.push("double or nothing");
    if (on(options, "wild_fifteens")) parts.push("wild 15s");
    if (on(options, "crazy")) parts.push("Crazy CLUBS");
    if (options.leftover === "reshuffle") parts.push("a full shuffle every round (2013 rules)");
    if (options.club_points) parts.push("house club points");
    if (target > 0) parts.push(`play to ${target} points`);
  }
  return parts.length ? `${title}: ${parts.join(", ")}` : title;
}

// -- words about seats ----------------------------------------------------------------------------------------------
const YOU = "You";

/** "Ann, Bob and you". */
function joinWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** The grammar of seats for one ``name`` function: the page's own seat, named "You", takes "you", "your" and the
 * plain verb; every other seat its name, "'s" and the verb in -s. */
function seatWords(name) {
  const raw = (seat) => String(name(seat));
  const you = (seat) => raw(seat) === YOU;
  const object = (seat) => (you(seat) ? "you" : raw(seat));
  return {
    you,
    /** At the start of a sentence: "You", "Ann". */
    subject: raw,
    /** Anywhere else: "you", "Ann". */
    object,
    /** At the start of a sentence: "Your", "Ann's". */
    Poss: (seat) => (you(seat) ? "Your" : `${raw(seat)}'s`),
    /** Anywhere else: "your", "Ann's". */
    poss: (seat) => (you(seat) ? "your" : `${raw(seat)}'s`),
    /** "your" for the page's seat, "their" for another (after the seat was named). */
    their: (seat) => (you(seat) ? "your" : "their"),
    /** A subject and its verb: does(seat, "lead", "leads") → "You lead", "Ann leads". */
    does: (seat, plain, third) => `${raw(seat)} ${you(seat) ? plain : third}`,
    /** Seats as a subject: "Ann and you", "You and Bob". */
    list: (seats) => joinWords(seats.map((s, i) => (i === 0 ? raw(s) : object(s)))),
    /** Seats anywhere else: "Ann and you", "you and Bob". */
    listObject: (seats) => joinWords(seats.map(object)),
    /** Whether seats as a subject take the plain verb ("win") rather than the -s one ("wins"). */
    plural: (seats) => seats.length !== 1 || you(seats[0]),
  };
}

// -- words about cards ----------------------------------------------------------------------------------------------
const SUIT_ONE = {C: "club", D: "diamond", H: "heart", S: "spade"};
const RANK_NAMES = {"10": "Ten", J: "Jack", Q: "Queen", K: "King"};

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function signed(v) {
  return v > 0 ? `+${v}` : String(v);
}

/** A card of the notation in a line of text: "Q♥", "10♠", "Joker"; null for something that is not a card. */
function cardText(text) {
  const c = parseCard(String(text ?? ""));
  if (!c) return null;
  if (c.suit === null) return "Joker";
  return cardShort({...c, as: null});
}

/** A bid in a sentence: "a Joker", or the card ("K♣"). */
function bidText(text) {
  const c = parseCard(String(text ?? ""));
  if (c && c.suit === null) return "a Joker";
  return cardText(text) ?? "a card";
}

/** A North Star play in words: "7♥ 7♣", a wild 15 with what it stands for ("15♠ as 7"). */
function playWords(text) {
  const cards = parseCards(String(text ?? ""));
  if (!cards.length) return "a play";
  return cards.map((c) => (c.as === null ? cardShort(c) : `${cardShort({...c, as: null})} as ${c.as}`)).join(" ");
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

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

function numberWord(n) {
  return NUMBER_WORDS[n] ?? String(n);
}

const DIRECTION_WORDS = {left: "to the left", right: "to the right", across: "across the table", none: "nowhere"};
const NEIGHBOUR = {left: "the player on your left", right: "the player on your right", across: "the player opposite you"};

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
const WORDS = {
  keep: "Keep my hand",
  exchange: "Exchange for the bid hand",
  pass: "Pass",
  double: "Double or nothing",
};

export function wordLabel(game, word, view) {
  const {game: g} = readSpec(game);
  const text = String(word ?? "").trim();
  if (g === "free" && text === "pass") return "Pass (no bid)";
  if (g === "whist" && text === "exchange" && view && view.bid_size) return `Exchange for the bid hand (${view.bid_size} cards)`;
  const call = /^call\s+(\S+)/i.exec(text);
  if (call) return `Call a misplay: ${cardText(call[1].toUpperCase()) ?? "a card"}`;
  if (WORDS[text.toLowerCase()]) return WORDS[text.toLowerCase()];
  return text.replace(/_/g, " ");
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

/** Any legal action as a button would say it: "Keep my hand", "Bid J♦", "Discard 7♥", "Pass 2♣ 7♥ Q♠ to the player
 * on your left", "Play 15♠ as 7 8♥". */
export function actionLabel(game, text, view = null) {
  const {game: g} = readSpec(game);
  const a = readAction(String(text));
  if (!a.cards.length) return wordLabel(game, a.word ?? "", view);
  if (a.word && /^call/i.test(a.word)) return wordLabel(game, a.text, view);
  const cards = a.cards.map((c) => (c.as === null ? cardText(c.text) : `${cardShort({...c, as: null})} as ${c.as}`)).join(" ");
  if (g === "partnership" && (a.word === "pass" || a.word === "p" || a.cards.length === 3)) {
    return `Pass ${cards} to ${NEIGHBOUR[view && view.pass] ?? "the next player"}`;
  }
  if (g === "free" && view) {
    const stage = view.stage ?? view.phase;
    if (stage === "auction") return `Bid ${a.cards.map((c) => bidText(c.text)).join(" ")}`;
    if (stage === "handicap") return `Discard ${cards}`;
    if (stage === "pass") return `Pass ${cards} to the player on your right`;
  }
  return `Play ${cards}`;
}

/** What a whist or partnership view's ``known_cards`` key means, for the heading of the cards under it. */
export function knownLabel(game, key, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  if (g === "whist") {
    if (key === "bid") return "The hand you gave up (now the bid hand)";
    return `The hand you gave up (now held by ${w.object(Number(key))})`;
  }
  if (g === "partnership") return `Cards you passed to ${w.object(Number(key))} (not played yet)`;
  return "Cards you know about";
}

// -- the prompt: what the seat to act is asked ------------------------------------------------------------------------
function handCards(view) {
  return parseCards(view && typeof view.hand === "string" ? view.hand : "");
}

/** What the seat to act is asked, in words. ``legal`` (the legal actions the server sent), when given, makes the
 * words more exact (a double that may be called, wild 15s); without it the view alone is read. */
export function prompt(game, view, legal = null) {
  const {game: g, options} = readSpec(game);
  if (!view) return "Your turn.";
  const acts = Array.isArray(legal) ? legal : Array.isArray(view.legal) ? view.legal : null;
  if (view.phase === "over") return "The match is over.";
  if (view.phase === "deal") return "The hand is over: the next one is being dealt.";
  if (g === "whist") return whistPrompt(view);
  if (g === "free") return freePrompt(view);
  if (g === "partnership") return partnershipPrompt(view);
  if (g === "northstar") return northstarPrompt(view, options, acts);
  return "Your turn.";
}

function whistPrompt(view) {
  if (view.phase === "exchange") {
    const size = view.bid_size || 13;
    let text = `Keep your hand, or exchange it for the ${size}-card bid hand? You see the bid hand only once you have taken it.`;
    const before = (view.decisions || []).filter((d) => d.exchanged).length;
    if (before === 1) text += " One player before you exchanged, so the bid hand is now the hand they gave up.";
    else if (before > 1) text += ` ${cap(numberWord(before))} players before you exchanged, so the bid hand is now the one the last of them gave up.`;
    return text;
  }
  const hand = handCards(view);
  const trick = (view.trick || []).map((t) => parseCard(t.card)).filter(Boolean);
  if (!trick.length) {
    if (view.clubs_broken) return "Your lead: play any card.";
    if (hand.length && hand.every((c) => c.suit === "C")) return "Your lead: you hold only clubs, so lead a club.";
    return "Your lead: play any card except a club (clubs may not be led until one has been played on another suit).";
  }
  const led = trick[0].suit;
  const clubs = trick.filter((c) => c.suit === "C");
  const topClub = clubs.length ? clubs.reduce((a, b) => (b.value > a.value ? b : a)) : null;
  const mine = hand.filter((c) => c.suit === led);
  const myClubs = hand.filter((c) => c.suit === "C");
  const many = SUITS[led].name;
  const one = SUIT_ONE[led];
  if (led === "C") {
    if (!mine.length) return "Clubs were led and you have none: play any card.";
    if (mine.some((c) => c.value > topClub.value)) return `Clubs were led: play a club higher than ${cardText(topClub.text)}.`;
    return `Clubs were led and you cannot beat ${cardText(topClub.text)}: play any club.`;
  }
  if (mine.length) {
    if (topClub) return `${cap(many)} were led and a club has trumped the trick: play any ${one}.`;
    const ledCards = trick.filter((c) => c.suit === led);
    const top = ledCards.reduce((a, b) => (b.value > a.value ? b : a));
    if (mine.some((c) => c.value > top.value)) return `${cap(many)} were led: you must beat ${cardText(top.text)} with a higher ${one}.`;
    return `${cap(many)} were led and you cannot beat ${cardText(top.text)}: play any ${one}.`;
  }
  if (!topClub) {
    if (myClubs.length) return `You have no ${many}: you must play a club, which wins the trick for now.`;
    return `You have no ${many} and no clubs: play any card.`;
  }
  if (myClubs.some((c) => c.value > topClub.value)) return `You have no ${many}: you must play a club higher than ${cardText(topClub.text)}.`;
  return `You have no ${many} and cannot beat ${cardText(topClub.text)}: play any card.`;
}

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// Free Clubs' auction: the order of bids (FC-3) and its levels.
const TIER_OF = {"10": 0, J: 1, Q: 2, K: 3};
const TIER_NAMES = ["Ten", "Jack", "Queen", "King", "Joker"];
const BID_SUIT = {S: 0, H: 1, D: 2, C: 3};

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
    if (!bids.length) return "You hold the 10\u2660, so you open the auction: bid it.";
    const last = parseCard(bids[bids.length - 1].bid);
    const mine = parseCards(view.auction_hand || "").filter((c) => canFollow(c, last));
    const tier = bidPlace(last).tier;
    const range = tier === 3 ? "a higher King or a Joker" : `a higher ${TIER_NAMES[tier]} or any ${TIER_NAMES[tier + 1]}`;
    if (!mine.length) return `The last bid is ${cardText(last.text)}. None of your bid cards can follow it (${range}), so pass.`;
    const yours = sortHand("free", view, mine).map((c) => cardText(c.text)).join(" ");
    return `The last bid is ${cardText(last.text)}. Bid ${range} (you can bid ${yours}), or pass: passing does not stop you bidding later.`;
  }
  if (stage === "handicap") {
    const ten = pendingTen(view);
    if (ten) return `Your Ten handicap (${cardText(ten.text)}): choose one of your ${SUITS[ten.suit].name} to discard.`;
    return "Your Ten handicap: choose the card to discard.";
  }
  if (stage === "pass") return "Choose one card to pass to the player on your right. Nobody sees what they get before everyone has chosen.";
  return followPrompt(view, "Your lead: play any card. The ace is the lowest card of each suit; clubs are trumps.");
}

/** Following suit without a duty to beat (Free Clubs, partnership). */
function followPrompt(view, lead) {
  const trick = (view.trick || []).map((t) => parseCard(t.card)).filter(Boolean);
  if (!trick.length) return lead;
  const led = trick[0].suit;
  const many = SUITS[led].name;
  const hand = handCards(view);
  if (!view.hand || hand.some((c) => c.suit === led)) return `${cap(many)} were led: play a ${SUIT_ONE[led]}.`;
  if (led === "C") return "Clubs were led and you have none: play any card.";
  return `You have no ${many}: play any card (a club would trump).`;
}

function partnershipPrompt(view) {
  if (view.phase === "pass") {
    const to = NEIGHBOUR[view.pass] ?? "the next player";
    return `Choose three cards to pass to ${to} (an opponent), then confirm. Nobody receives cards before all four have chosen.`;
  }
  return followPrompt(view, "Your lead: play any card (clubs may be led at any time).");
}

function northstarPrompt(view, options, legal) {
  const wild = on(options, "wild_fifteens") || (legal ? legal.some((a) => a.includes("=")) : false);
  const double = legal ? legal.includes("double") : false;
  const plays = view.trick || [];
  const last = plays.length ? plays[plays.length - 1].play : null;
  const notes = [];
  if (wild) notes.push("A 15 may stand for any value.");
  if (double) notes.push("Before your first card of the round you may also call double or nothing.");
  else if (!legal && on(options, "double_or_nothing") && !(view.doubled || []).includes(view.seat)) {
    notes.push("If you have not played a card this round, you may first call double or nothing.");
  }
  const lastTurn = view.last_turn !== null && view.last_turn !== undefined && view.last_turn === view.seat;
  const start = lastTurn ? "Last turn: only you still hold cards. " : "";
  if (!last) {
    const text = "Your lead: play one card, a set of cards of one value (like two 7s), or a run of consecutive values (like 4 5 6).";
    return [start + text, ...notes].join(" ");
  }
  const {kind, size, top} = playKind(last);
  if (legal && !legal.some((a) => parseCards(a).length)) {
    return [`${start}You cannot beat ${playWords(last)}: pass.`, ...notes.filter((x) => !x.startsWith("A 15"))].join(" ");
  }
  const crazy = on(options, "crazy") || (legal ? crazyShown(legal, kind, size) : false);
  let ask;
  if (crazy) {
    const what = kind === "run" ? "a run" : "a set (one card counts as a set)";
    ask = `Beat ${playWords(last)}: play ${what} with more cards, or as many cards with a higher top card; or pass.`;
  } else if (kind === "single") {
    ask = `Beat ${playWords(last)}: play one card higher than ${top}, or pass.`;
  } else if (kind === "set") {
    ask = `Beat ${playWords(last)}: play ${numberWord(size)} cards of one value higher than ${top}, or pass.`;
  } else {
    ask = `Beat ${playWords(last)}: play a run of ${numberWord(size)} cards whose top card is higher than ${top}, or pass.`;
  }
  if (!crazy) notes.unshift("A play with a 15 in it takes the trick at once.");
  return [start + ask, ...notes].join(" ");
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
/** The rulings the games rest on, in plain words: id → [title, explanation]. */
const RULES = {
  "CW-1": ["You must beat if you can",
    "Following a plain suit while no club is in the trick, you must play a card of that suit higher than the best one so far, if you hold one; otherwise any card of the suit. Once a club is in the trick, any card of the suit led will do. With none of the suit led, you must play a club that would win the trick right now (any club if there is none yet, otherwise a higher one) if you can; if you cannot, play anything, even a club that loses. When clubs are led, play a higher club if you can, otherwise any club, otherwise anything."],
  "CW-2": ["Clubs must be broken before they are led",
    "Nobody may lead a club until clubs are broken, unless they hold nothing but clubs. Clubs are broken once a club has been played on a trick led in another suit (winning or not), or once someone had to lead a club because they held only clubs."],
  "CW-3": ["Who leads after the exchange",
    "If nobody exchanged, the player on the dealer's left leads the first trick. Otherwise the last player who exchanged leads; a table playing the first, 1997 version of the game has the player on that player's left lead instead."],
  "CW-4": ["Keep or exchange",
    "Going round from the dealer's left and ending with the dealer, each player decides once: keep the hand they were dealt, or take the face-down bid hand without looking at it first and leave their own 13 cards in its place. A later player who exchanges takes the hand an earlier one left. Only the players who exchange ever see the bid hand."],
  "CW-5": ["Scoring and the end of the match",
    "After each hand every player scores their tricks minus four, so seven tricks are worth +3 and two tricks -2. Whoever is at +11 or more, or at -11 or less, after a hand wins; if all three get there together, the match is a draw."],
  "CW-6": ["No Pennsylvania variant",
    "One version of the rules mentions a family variant from Pennsylvania, but nowhere says how it differs, so it is not played here."],
  "FC-1": ["Play goes clockwise",
    "Every turn passes to the left. The player after the auction winner leads the first trick, so the winner plays third."],
  "FC-2": ["Two passes, two directions",
    "A Queen handicap sends its card to the player on the left. The one-card pass before play goes to the player on the right, and everyone chooses their card before seeing what they will receive."],
  "FC-3": ["The auction",
    "Bids go up in this order: the Tens, then the Jacks, Queens and Kings (within each, spades, hearts, diamonds, clubs), then a Joker. A bid must be higher than the last one and at most one level above it: over a Jack you may bid a higher Jack or any Queen, but not a King. After a King, a higher King or a Joker. The holder of the 10 of spades opens with it. Passing never shuts you out of the auction, and a player with no card that can follow only passes. Two passes in a row end the auction: the last bidder wins."],
  "FC-4": ["The Joker",
    "A Joker ends the auction at once. Its bidder takes the treasure chest and plays in a team with the player who made the bid before it. Together they must take all 10 tricks; if they miss, each of them loses 50. Both carry out the handicaps of every card they bid."],
  "FC-5": ["Handicaps",
    "The auction winner first takes the treasure chest into their hand. Then each card the winner (and a Joker's partner) bid costs something, in the order the bids were made, and only cards from ace to 9 are ever given up: a Ten discards one card of its suit of your choice; a Jack discards the highest card of its suit; a Queen passes the highest card of its suit to the player on the left; a King discards the three highest. A suit with too few cards gives what it has, an empty one nothing, and a card received from a Queen counts for later handicaps."],
  "FC-6": ["Who leads",
    "The player after the auction winner leads the first trick (after a Joker, the one player outside the team). The winner of a trick leads the next; if they have no cards left, the next player round with cards leads."],
  "FC-7": ["The end of a hand",
    "A hand stops after 10 tricks, or as soon as a trick ends with at least two players out of cards, so a trick may hold only two cards. Cards never played, discarded, or left in the chest score nothing."],
  "FC-8": ["Bonuses",
    "The player with the most diamonds in their tricks scores 20; a tie for most gives 10 to each tied player, and if nobody took a diamond nobody scores it. Every player who took no spade scores 5 (a table may ask for at least one trick too). The ace of hearts is worth 10."],
  "FC-9": ["The end of the match",
    "After each hand, once anyone has 250 points or more, the highest total wins. If the top is tied, another hand is played."],
  "FC-10": ["Misplays",
    "Normally a card that breaks the rules cannot be played at all. A table may instead play with misplays: a card that does not follow suit is accepted, and any other player may call it. The table then checks in front of everyone. If it was a misplay, the penalty depends on when it was called: before the next card, the card goes back and is played again; before the trick is taken, its player cannot win that trick; before the next deal, its player scores no plus points for the hand; later, nothing happens. If the card was lawful, everyone is told so and nothing else happens."],
  "NS-1": ["The cards",
    "60 cards numbered 1 to 15 in four suits. The bonus cards depend on the number of players: with six 0, 2, 5, 8, 10 and 12; with five 0, 2, 5, 8 and 10; with four 0, 2, 5 and 8; with three 0, 2 and 5; with two only the 5."],
  "NS-2": ["Club points",
    "Only clubs score, and low clubs score more: here clubs 1 to 5 are worth 3, 6 to 10 are worth 2 and 11 to 15 are worth 1 (a provisional table until the printed values are known)."],
  "NS-3": ["Plays and how to beat them",
    "You may play one card, a set of two or more cards of one value, or a run of two or more consecutive values (suits mixed, and 15 does not go round to 1). To beat a play, play the same kind with the same number of cards and a higher top card."],
  "NS-4": ["Winning a trick",
    "A play with a 15 in it wins the trick at once. Otherwise the trick goes to the last player who played, once everyone else still holding cards has passed since. Passing does not put you out of the trick: you may play when your turn comes again. Whoever starts a trick must play something, and the winner starts the next one."],
  "NS-5": ["Going out and the last turn",
    "Playing your last card takes the highest bonus card left. When only one player still holds cards, they get one last turn on the trick (to beat it or pass); then they take the 0 card and score nothing for the round. With two players the round ends when the first goes out, and the other still scores their clubs."],
  "NS-6": ["Cards left over",
    "The cards not dealt in a round are dealt first in the next one, and the played cards are shuffled in only when those run short. A table playing the 2013 rules shuffles all 60 cards every round instead."],
  "NS-7": ["The end of the match",
    "After each round, once anyone has 50 points or more, the highest total wins; a tie at the top plays another round."],
  "NS-8": ["Double or nothing",
    "On your own turn, before you have played a card this round (even after passing), you may call double or nothing; it does not use up your turn, and you may call it once a round. If you are the first to go out, your score for the round is doubled; otherwise you score nothing for it."],
  "NS-9": ["Wild 15s",
    "A 15 may stand for any value. Played as a 15 it wins the trick at once; standing for another value it does not. Sets may then have more than four cards, and a play may be made of 15s alone."],
  "NS-10": ["Teams",
    "Team-mates sit apart, every other seat; teams play to 100 (two or three teams of two) or 150 (two teams of three). If only one team's players still hold cards, the round ends at once: there is no last turn, an unfinished trick goes to whoever played last, and that team scores nothing for the round."],
  "NS-11": ["Crazy CLUBS",
    "A 15 does not win at once. One card counts as a set of one. A play beats the one before if it is the same kind (set or run) and has more cards, or as many cards and a higher top card."],
  "CP-1": ["Leading and winning tricks",
    "Any card may be led at any time, clubs too. Follow the suit led if you can; otherwise play anything. The highest club wins the trick; with no club, the highest card of the suit led. The player on the dealer's left leads first, after the pass."],
  "CP-2": ["The pass",
    "Before play everyone passes three cards: to the left in the first hand, to the right in the second, not at all in the third, and so on. Since partners sit opposite, the cards always go to an opponent. Everyone chooses before anyone receives."],
  "CP-3": ["Scoring",
    "Partners score together: a point for each trick and for each club taken, and 5 for the queen of diamonds, 31 in a hand. Taking all 13 tricks adds 5 more."],
  "CP-4": ["The end of the match",
    "After each hand, once a partnership has 150 points or more, the higher total wins; an exact tie plays another hand."],
};

/** The plain-words explanation of a ruling id ("CW-4"), or null for an id the games do not use. */
export function ruleText(id) {
  const rule = RULES[String(id ?? "").toUpperCase()];
  return rule ? rule[1] : null;
}

/** The short title of a ruling id, or null. */
export function ruleTitle(id) {
  const rule = RULES[String(id ?? "").toUpperCase()];
  return rule ? rule[0] : null;
}

function ruling(id) {
  return {rule: id, title: RULES[id][0], text: RULES[id][1]};
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
    return {rule: null, title: "Follow suit",
      text: "Play a card of the suit led if you have one; otherwise any card. The highest club wins the trick, or with no club the highest card of the suit led; the ace is the lowest card of its suit."};
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
      const what = g === "northstar" ? "Round" : "Hand";
      const line = `${what} ${ev.hand_number + 1} is dealt by ${w.object(ev.dealer)}`;
      if (g !== "partnership" || !ev.direction) return `${line}.`;
      if (ev.direction === "none") return `${line}; no cards are passed this hand.`;
      return `${line}; everyone passes three cards ${DIRECTION_WORDS[ev.direction] ?? "to a neighbour"} this hand.`;
    }
    case "Decided":
      return ev.exchanged
        ? `${w.does(ev.seat, "exchange", "exchanges")} ${w.their(ev.seat)} hand for the bid hand.`
        : `${w.does(ev.seat, "keep", "keeps")} ${w.their(ev.seat)} hand.`;
    case "PlayStarted":
      return `${w.does(ev.leader, "lead", "leads")}.`;
    case "CardPlayed":
      return `${w.does(ev.seat, "play", "plays")} ${cardText(ev.card) ?? "a card"}.`;
    case "TrickTaken":
      return `${w.does(ev.seat, "take", "takes")} trick ${ev.number}.`;
    case "HandScored":
      return handScored(g, ev, w, scores);
    case "HandRescored":
      return `After the misplay the hand is scored again: ${scores(ev.scores)}.`;
    case "MatchEnded": {
      const final = g === "partnership" && ev.totals && ev.totals.length === 4
        ? [0, 1].map((t) => `${w.listObject(seatsOfTeam(4, 2, t))} ${ev.totals[t]}`)
        : (ev.totals || []).map((t, s) => `${w.object(s)} ${t}`);
      const totals = final.length ? ` Final totals: ${final.join(", ")}.` : "";
      if (ev.draw || !ev.winners || !ev.winners.length) return `The match ends in a draw.${totals}`;
      return `The match is over: ${w.list(ev.winners)} ${w.plural(ev.winners) ? "win" : "wins"}.${totals}`;
    }
    case "BidMade":
      return `${w.does(ev.seat, "bid", "bids")} ${bidText(ev.card)}.`;
    case "AuctionPassed":
      return `${w.does(ev.seat, "pass", "passes")}.`;
    case "AuctionWon": {
      const won = `${w.does(ev.seat, "win", "wins")} the auction with ${bidText(ev.bid)}`;
      if (ev.partner === null || ev.partner === undefined) return `${won} and ${w.you(ev.seat) ? "need" : "needs"} 7 tricks.`;
      const team = [ev.seat, ev.partner];
      const who = team.some(w.you) ? "you" : "they";
      return `${won} and ${w.you(ev.seat) ? "play" : "plays"} with ${w.object(ev.partner)}: together ${who} need all 10 tricks.`;
    }
    case "ChestTaken":
      return `${w.does(ev.seat, "take", "takes")} the treasure chest (${plural(ev.size, "card")}) into ${w.their(ev.seat)} hand.`;
    case "HandicapResolved":
      return `${w.Poss(ev.seat)} ${cardText(ev.bid)} handicap: ${handicapWords(ev.bid, ev.removed, ev.to, w)}.`;
    case "PassStarted":
      return `Everyone now chooses one card to pass to the right, starting with ${w.object(ev.seat)}.`;
    case "CardsPassed":
      if (g === "partnership") return `Everyone's three cards go ${DIRECTION_WORDS[ev.direction] ?? "to a neighbour"}.`;
      return `The chosen cards go to the right (${plural(ev.passes ?? 3, "card")}).`;
    case "PassChosen":
      return `${w.does(ev.seat, "have", "has")} chosen ${w.their(ev.seat)} cards to pass.`;
    case "MisplayCalled":
      return `${w.does(ev.caller, "call", "calls")} ${w.poss(ev.seat)} ${cardText(ev.card)}: a misplay. ${misplayWords(ev, w)}`;
    case "NoMisplay":
      return `${w.does(ev.caller, "call", "calls")} ${w.poss(ev.seat)} ${cardText(ev.card)}: no misplay, ${w.object(ev.seat)} had none of the suit led.`;
    case "Played":
      return `${w.does(ev.seat, "play", "plays")} ${playWords(ev.play)}.`;
    case "Passed":
      return `${w.does(ev.seat, "pass", "passes")}.`;
    case "DoubleCalled":
      return `${w.does(ev.seat, "call", "calls")} double or nothing.`;
    case "WentOut":
      return `${w.does(ev.seat, "go", "goes")} out and ${w.you(ev.seat) ? "take" : "takes"} the ${ev.bonus} bonus card.`;
    case "TrickWon":
      return ev.at_once
        ? `${w.does(ev.seat, "win", "wins")} the trick at once with a 15.`
        : `${w.does(ev.seat, "win", "wins")} the trick.`;
    case "LastTurn":
      return w.you(ev.seat)
        ? "Only you still hold cards: you have one last turn."
        : `Only ${w.object(ev.seat)} still holds cards: ${w.object(ev.seat)} has one last turn.`;
    case "RoundEnded": {
      if (ev.team !== null && ev.team !== undefined) {
        const n = view ? (view.players ?? (view.hand_sizes ? view.hand_sizes.length : 0)) : 0;
        const teams = view && view.team_totals && view.team_totals.length < n ? view.team_totals.length : 0;
        if (teams) {
          const members = seatsOfTeam(n, teams, ev.team);
          const mine = members.some(w.you);
          const team = mine ? `your team (${w.listObject(members)})` : `the team of ${w.listObject(members)}`;
          return `The round is over: only ${team} still holds cards, so it scores nothing this round.`;
        }
        return `The round is over: only team ${ev.team + 1} still holds cards, so it scores nothing this round.`;
      }
      if (ev.last === null || ev.last === undefined) return "The round is over.";
      const players = view ? (view.players ?? (view.hand_sizes ? view.hand_sizes.length : null)) : null;
      if (!(players > 2)) return `The round is over: ${w.object(ev.last)} ${w.you(ev.last) ? "are" : "is"} left with cards.`;
      return `The round is over: ${w.object(ev.last)} ${w.you(ev.last) ? "take" : "takes"} the 0 card and ${w.you(ev.last) ? "score" : "scores"} nothing this round.`;
    }
    default:
      return null;
  }
}

function handScored(g, ev, w, scores) {
  if (g === "whist") {
    const parts = ev.tricks.map((t, s) => `${w.object(s)} ${plural(t, "trick")} (${signed(ev.scores[s])})`);
    return `The hand is over: ${parts.join(", ")}.`;
  }
  if (g === "partnership" && ev.team_scores) {
    const n = ev.scores.length;
    const teams = ev.team_scores.map((v, t) => `${w.listObject(seatsOfTeam(n, 2, t))} ${v}`);
    return `The hand is over. Points: ${teams.join(", ")}. Tricks: ${ev.tricks.map((t, s) => `${w.object(s)} ${t}`).join(", ")}.`;
  }
  if (g === "northstar") {
    const n = ev.scores.length;
    const nTeams = ev.team_totals && ev.team_totals.length < n ? ev.team_totals.length : 0;
    const teams = nTeams ? ` Team totals: ${ev.team_totals.map((v, t) => `${w.listObject(seatsOfTeam(n, nTeams, t))} ${v}`).join(", ")}.` : "";
    return `Points this round: ${scores(ev.scores)}.${teams}`;
  }
  const tricks = ev.tricks ? ` Tricks: ${ev.tricks.map((t, s) => `${w.object(s)} ${t}`).join(", ")}.` : "";
  return `The hand is over. Points: ${scores(ev.scores)}.${tricks}`;
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
  const one = suit ? SUIT_ONE[suit] : "card";
  const many = suit ? SUITS[suit].name : "cards";
  if (!removed) return `no ${many} to give up`;
  const cards = `${removed} ${removed === 1 ? one : many}`;
  if (to === null || to === undefined) return `${cards} discarded`;
  return `${cards} passed to ${w.object(to)}`;
}

/** The penalty of a misplay called at ``ev.stage`` (FC-10), in words. */
function misplayWords(ev, w) {
  const card = cardText(ev.card);
  if (ev.stage === 1) {
    return `${card} goes back to ${w.poss(ev.seat)} hand, and ${w.object(ev.seat)} ${w.you(ev.seat) ? "play" : "plays"} again.`;
  }
  if (ev.stage === 2) return `${w.subject(ev.seat)} cannot win this trick.`;
  if (ev.stage === 3) return `${w.does(ev.seat, "score", "scores")} no plus points this hand.`;
  return "It comes too late to change anything.";
}

// -- facts beside the cards ---------------------------------------------------------------------------------------
/** The facts of a hand in progress worth a line each, beside the cards: ``[[label, words], ...]``. */
export function facts(game, view, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  const out = [];
  if (view.dealer !== undefined && view.dealer !== null) out.push(["Dealer", w.object(view.dealer)]);
  if (g === "whist") {
    const decided = (view.decisions || []).map((d) => `${w.object(d.seat)} ${d.exchanged ? "exchanged" : "kept"}`);
    if (decided.length) out.push(["Bid hand", decided.join(", ")]);
    out.push(["Clubs", view.clubs_broken ? "broken: they may be led" : "not broken yet: they may not be led"]);
    out.push(["Match", `reaching +${view.target} or -${view.target} wins`]);
  } else if (g === "free") {
    if (view.auction && view.auction.length) {
      out.push(["Auction", view.auction.map((b) => `${w.object(b.seat)} ${b.bid === "pass" ? "passed" : `bid ${bidText(b.bid)}`}`).join(", ")]);
    }
    if (view.winner !== null && view.winner !== undefined) {
      const joker = view.partner !== null && view.partner !== undefined;
      out.push(["Contract", joker
        ? `${w.listObject([view.winner, view.partner])} (Joker team): all 10 tricks together`
        : `${w.object(view.winner)}: 7 tricks`]);
    }
    if (view.handicaps && view.handicaps.length) {
      out.push(["Handicaps", view.handicaps.map((x, i) => `${i === 0 ? w.Poss(x.seat) : w.poss(x.seat)} ${cardText(x.bid)}: ${handicapWords(x.bid, x.count, x.to, w)}`).join("; ")]);
    }
    if (view.transfers && view.transfers.length) {
      out.push(["Passed", view.transfers.map((t) => `${w.object(t.from)} \u2192 ${w.object(t.to)}${t.card ? ` ${cardText(t.card)}` : ""}`).join("; ")]);
    }
    const called = (view.misplays || []).filter((m) => m.called);
    if (called.length) out.push(["Misplays called", called.map((m) => `${w.poss(m.seat)} ${cardText(m.card)}`).join(", ")]);
    const own = (view.misplays || []).filter((m) => !m.called);
    if (own.length) out.push([`${w.Poss(view.seat)} misplays not called yet`, own.map((m) => cardText(m.card)).join(", ")]);
    if (view.no_misplay && view.no_misplay.length) {
      out.push(["Checked, no misplay", view.no_misplay.map((m) => `${w.poss(m.seat)} ${cardText(m.card)}`).join(", ")]);
    }
    out.push(["Match", `to ${view.target} points`]);
  } else if (g === "partnership") {
    if (view.partner !== null && view.partner !== undefined) out.push(["Partner", w.object(view.partner)]);
    out.push(["Pass", view.pass === "none" || !view.pass ? "none this hand" : `three cards ${DIRECTION_WORDS[view.pass] ?? ""}`.trim()]);
    if (view.team_totals) out.push(["Teams", view.team_totals.map((t, i) => `${teamName(view, i, name)} ${t}`).join(" \u00b7 ")]);
    out.push(["Match", `to ${view.target} points`]);
  } else if (g === "northstar") {
    out.push(["Passes since the last play", String(view.passes ?? 0)]);
    if (view.out_order && view.out_order.length) out.push(["Gone out", w.listObject(view.out_order)]);
    if (view.doubled && view.doubled.length) out.push(["Double or nothing", w.listObject(view.doubled)]);
    if (view.last_turn !== null && view.last_turn !== undefined) out.push(["Last turn", w.object(view.last_turn)]);
    if (view.pack) out.push(["Pack", `${view.pack.undealt} undealt, ${view.pack.discards} played before`]);
    out.push(["Match", `to ${view.goal} points`]);
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
  return text.startsWith("you ") ? `Y${text.slice(1)}` : text;
}

function handAccount(game, hand, name) {
  const {game: g} = readSpec(game);
  const w = seatWords(name);
  if (g === "whist") {
    const tricks = hand.tricks_won ? `tricks ${hand.tricks_won.join("-")}` : "";
    const ex = hand.exchanged && hand.exchanged.length
      ? `${w.listObject(hand.exchanged)} exchanged`
      : "nobody exchanged";
    return [tricks, ex].filter(Boolean).join("; ");
  }
  if (g === "free") {
    const c = hand.contract;
    if (!c) return "no contract";
    const who = w.listObject(c.team);
    const needed = c.team.length > 1 ? `all ${c.tricks_needed} tricks together` : `${c.tricks_needed} tricks`;
    const result = c.made === true ? "made" : c.made === false ? "failed" : "in play";
    return `${who} needed ${needed} and took ${c.tricks_taken}: ${result}`;
  }
  if (g === "partnership") {
    const tricks = hand.tricks_won ? `tricks ${hand.tricks_won.join("-")}` : "";
    const n = hand.tricks_won ? hand.tricks_won.length : 4;
    const teams = hand.team_scores ? hand.team_scores.map((v, t) => `${w.listObject(seatsOfTeam(n, 2, t))} ${v}`).join(", ") : "";
    return [tricks, teams].filter(Boolean).join("; ");
  }
  if (g === "northstar") {
    const parts = [];
    if (hand.out_order && hand.out_order.length) parts.push(`out in order: ${w.listObject(hand.out_order)}`);
    if (hand.doubled && hand.doubled.length) parts.push(`double or nothing: ${w.listObject(hand.doubled)}`);
    if (hand.team_out !== null && hand.team_out !== undefined) parts.push(`team ${hand.team_out + 1} was left with cards`);
    else if (hand.last !== null && hand.last !== undefined) parts.push(`${w.object(hand.last)} ${w.you(hand.last) ? "were" : "was"} left with cards`);
    return parts.join("; ");
  }
  return "";
}

