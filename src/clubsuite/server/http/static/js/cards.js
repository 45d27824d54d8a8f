// @ts-check
// Cards: reading the notation, naming, sorting, and drawing the faces (SVG, drawn here: the standard deck, the two
// Jokers and the cards numbered 1 to 15; two or four suit colours).
//
// A card's name and its short form are in the reader's language (i18n.js: "queen of hearts", "Herz Dame"; "Q\u2665",
// "D\u2665"); the notation the server reads stays the English one ("QH"), read in notation.js (which i18n.js reads
// too, so that the two modules do not import each other).

import {h, s} from "./dom.js";
import {cardLetters, cardWords, language, t, tc} from "./i18n.js";
import {parseCard, SUITS} from "./notation.js";

export {parseCard, parseCards, SUITS} from "./notation.js";
const DISPLAY_ORDER = {C: 0, D: 1, S: 2, H: 3}; // alternating colours in a sorted hand

/** A card in words in the reader's language, for screen readers: "queen of hearts", "10 of clubs", "Joker 1"; a wild
 * card that stands for a value "wild 15 of spades as 7", and with ``wild`` (the rank that is wild at this table, as
 * its game says) such a card in hand "wild 15 of spades". */
export function cardName(card, {wild = null} = {}) {
  if (card.suit === null) return cardWords(card);
  const base = cardWords({...card, as: null});
  if (card.as !== null) return t("wild {card} as {n}", {card: base, n: card.as});
  return wild && card.rank === wild ? t("wild {card}", {card: base}) : base;
}

const SYMBOL_SUIT = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"};
const FACES = ["J", "Q", "K", "A"];

/** The rank letters a line of text may show, each with the rank it stands for: the reader's language's ("D" for the
 * German Dame) and the English ones that language does not use otherwise (a line written before the language was
 * switched). */
function rankLetters() {
  const letters = new Map(FACES.map((r) => [r, r]));
  for (const r of FACES) letters.set(tc("rank.short", r), r);
  return letters;
}

let patterns = null;

/** The patterns of a card shown in a line ("Q\u2665", "15\u2660=7") and of a suit written before its rank ("the
 * \u2660 10"), for the rank letters of the language loaded now. */
function shownPatterns() {
  const key = language();
  if (patterns && patterns.key === key) return patterns;
  const letters = rankLetters();
  const set = [...letters.keys()].map((l) => l.replace(/[^\p{L}]/gu, "")).filter(Boolean).join("");
  const rank = `1[0-5]|[1-9]|[${set}]`;
  const shown = `(${rank})([\u2663\u2666\u2665\u2660])(?:=([0-9]{1,2}))?`;
  patterns = {
    key, letters,
    card: new RegExp(`(^|[^0-9\\p{L}])${shown}(?![0-9\\p{L}])`, "gu"),
    suitFirst: new RegExp(`([\u2663\u2666\u2665\u2660]) (${rank})(?![0-9\\p{L}])`, "gu"),
  };
  return patterns;
}

/** A line of text with its cards written in words, for screen readers: "Ann plays Q\u2665." becomes "Ann plays queen
 * of hearts."; a text without cards comes back as it was. */
export function spokenCards(text) {
  const {card, suitFirst, letters} = shownPatterns();
  const named = (shown, symbol, as) => {
    const rank = letters.get(shown) ?? shown;
    return cardName({text: rank + SYMBOL_SUIT[symbol], rank, suit: SYMBOL_SUIT[symbol], value: 0, as: as === undefined ? null : Number(as)});
  };
  return String(text ?? "")
    .replace(card, (_, before, rank, symbol, as) => before + named(rank, symbol, as))
    .replace(suitFirst, (_, symbol, rank) => named(rank, symbol));
}

/** A line of text to show with its cards in suit symbols, coloured by suit, and to be read out in words: the symbols
 * are hidden from screen readers and the words hidden from the eye (a text without cards is one text node). */
export function said(text) {
  const line = String(text ?? "");
  const words = spokenCards(line);
  if (words === line) return line;
  const shown = [];
  let at = 0;
  for (const m of line.matchAll(shownPatterns().card)) {
    const start = m.index + m[1].length;
    shown.push(line.slice(at, start), h("span", {class: `suit-mark suit-${SYMBOL_SUIT[m[3]]}`}, line.slice(start, m.index + m[0].length)));
    at = m.index + m[0].length;
  }
  shown.push(line.slice(at));
  return [h("span", {"aria-hidden": "true"}, shown), h("span", {class: "sr-only"}, words)];
}

/** A card as shown in a line of text: rank and suit symbol, the rank letter in the reader's language ("Q\u2665",
 * "D\u2665" in German). */
export function cardShort(card) {
  return cardLetters(card);
}

/** Text where each card of a play ("7C 7H") is written with suit symbols. */
export function playShort(text) {
  return text.split(/\s+/).map((word) => {
    const c = parseCard(word);
    return c ? cardShort(c) : word;
  }).join(" ");
}

/** Sorted for a hand. ``by``: "suit" (clubs, diamonds, spades, hearts: the colours alternate; in each suit by rank)
 * or "rank" (by rank, then suit); ``dir``: 1 low to high, -1 high to low; ``rank(card)``: the game's own order of
 * ranks (in some games the ace is the lowest card, in others the highest). Jokers come last. */
export function sortCards(cards, {by = "suit", dir = 1, rank = (c) => c.value} = {}) {
  const suitKey = (c) => (c.suit === null ? 9 : DISPLAY_ORDER[c.suit]);
  const rankKey = (c) => (c.suit === null ? Infinity : dir * rank(c));
  const compare = by === "rank"
    ? (a, b) => rankKey(a) - rankKey(b) || suitKey(a) - suitKey(b)
    : (a, b) => suitKey(a) - suitKey(b) || rankKey(a) - rankKey(b);
  return [...cards].sort((a, b) => Number(a.suit === null) - Number(b.suit === null) || compare(a, b));
}

function suitClass(card) {
  return card.suit === null ? "suit-joker" : `suit-${card.suit}`;
}

/** The face of a card as an SVG picture (60 by 84 units). */
export function faceSvg(card) {
  const label = card.suit === null ? "\u2605" : FACES.includes(card.rank) ? tc("rank.short", card.rank) : card.rank;
  const symbol = card.suit === null ? "" : SUITS[card.suit].symbol;
  const big = card.suit === null ? "\u2605" : symbol;
  const parts = [
    s("rect", {class: "card-bg", x: 1, y: 1, width: 58, height: 82, rx: 6, ry: 6}),
    s("text", {class: "card-rank", x: 5, y: 17}, label),
    s("text", {class: "card-pip", x: 5, y: 31}, symbol),
    s("text", {class: "card-big", x: 30, y: 60, "text-anchor": "middle"}, big),
  ];
  if (card.as === null) {
    parts.push(s("text", {class: "card-rank", x: 55, y: 78, "text-anchor": "end"}, card.suit === null ? t("JOKER") : label));
  } else {
    // a wild 15's value in a badge of its own at the foot, where the corner's rank would be (never over a number)
    parts.push(s("rect", {class: "card-as-bg", x: 12, y: 66, width: 36, height: 15, rx: 4, ry: 4}),
      s("text", {class: "card-as", x: 30, y: 77.5, "text-anchor": "middle"}, t("as {n}", {n: card.as})));
  }
  return s("svg", {viewBox: "0 0 60 84", class: `card-face ${suitClass(card)}`, "aria-hidden": "true", focusable: "false"}, parts);
}

/** A card to look at (not to click). */
export function cardView(card, extra = "", {wild = null} = {}) {
  return h("span", {
    class: `card ${suitClass(card)} ${extra}`.trim(),
    role: "img",
    "aria-label": cardName(card, {wild}),
    dataset: {card: card.text},
  }, faceSvg(card));
}

/** A card to click: a button named after the card in words ("queen of hearts"). One that cannot be pressed now is
 * disabled, or with ``focusable`` (the screen-reader mode) only marked so (``aria-disabled``), so that the keyboard
 * still reaches it and a screen reader reads the whole hand. ``face``: its face as drawn already (faceSvg(card), or
 * what stands for it); by default drawn here. */
export function cardButton(card, {onclick, enabled, selected = false, extra = "", focusable = false, wild = null, face = null}) {
  const button = h("button", {
    type: "button",
    class: `card ${suitClass(card)} ${selected ? "selected" : ""} ${enabled ? "playable" : ""} ${extra}`.trim(),
    "aria-label": cardName(card, {wild}),
    "aria-pressed": selected ? "true" : null,
    "aria-disabled": !enabled && focusable ? "true" : null,
    disabled: !enabled && !focusable,
    onclick: enabled ? onclick : null,
    dataset: {card: card.text},
  }, face ?? faceSvg(card));
  return button;
}

/** The back of a card (a card that is not shown). */
export function cardBack(extra = "") {
  return h("span", {class: `card back ${extra}`.trim(), role: "img", "aria-label": t("a hidden card")},
    s("svg", {viewBox: "0 0 60 84", class: "card-face", "aria-hidden": "true", focusable: "false"},
      s("rect", {class: "card-back", x: 1, y: 1, width: 58, height: 82, rx: 6, ry: 6}),
      s("rect", {class: "card-back-inner", x: 6, y: 6, width: 48, height: 72, rx: 3, ry: 3})));
}

/** A row of cards to look at, in the order given. */
export function cardRow(cards, extra = "", {wild = false} = {}) {
  return h("div", {class: `card-row ${extra}`.trim()}, cards.map((c) => cardView(c, "", {wild})));
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
