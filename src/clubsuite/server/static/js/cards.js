// Cards: reading the notation, naming, sorting, and drawing the faces (SVG, drawn here: the standard deck, the two
// Jokers and North Star's 1-15 deck; two or four suit colours).

import {h, s} from "./dom.js";

export const SUITS = {
  C: {symbol: "\u2663", name: "clubs"},
  D: {symbol: "\u2666", name: "diamonds"},
  H: {symbol: "\u2665", name: "hearts"},
  S: {symbol: "\u2660", name: "spades"},
};
const DISPLAY_ORDER = {C: 0, D: 1, S: 2, H: 3}; // alternating colours in a sorted hand
const RANK_WORDS = {J: "jack", Q: "queen", K: "king", A: "ace"};
const RANK_VALUE = {J: 11, Q: 12, K: 13, A: 14};
const CARD = /^(JK[12]|[0-9]{1,2}|[JQKA])([CDHS])?(?:=([0-9]{1,2}))?$/;

/** A card's notation read: {text, rank, suit, value, as} (as: what a wild 15 stands for), or null for a word. */
export function parseCard(token) {
  const m = CARD.exec(token);
  if (!m) return null;
  const [, rank, suit, as] = m;
  if (rank.startsWith("JK")) return {text: rank, rank, suit: null, value: 100 + Number(rank[2]), as: null};
  if (!suit) return null;
  const value = RANK_VALUE[rank] ?? Number(rank);
  return {text: rank + suit, rank, suit, value, as: as === undefined ? null : Number(as)};
}

/** The cards of a space-separated text ("7C 7H 15S=7"), or [] for null/empty. */
export function parseCards(text) {
  if (!text) return [];
  return text.split(/\s+/).map(parseCard).filter((c) => c !== null);
}

/** A card in words, for screen readers: "queen of hearts", "10 of clubs", "Joker 1". */
export function cardName(card) {
  if (card.suit === null) return `Joker ${card.rank[2]}`;
  const rank = RANK_WORDS[card.rank] ?? card.rank;
  const base = `${rank} of ${SUITS[card.suit].name}`;
  return card.as === null ? base : `${base} as ${card.as}`;
}

/** A card as shown in a line of text: rank and suit symbol ("Q\u2665"). */
export function cardShort(card) {
  if (card.suit === null) return `Joker ${card.rank[2]}`;
  const face = `${card.rank}${SUITS[card.suit].symbol}`;
  return card.as === null ? face : `${face}=${card.as}`;
}

/** Text where each card of a play ("7C 7H") is written with suit symbols. */
export function playShort(text) {
  return text.split(/\s+/).map((t) => {
    const c = parseCard(t);
    return c ? cardShort(c) : t;
  }).join(" ");
}

/** Sorted for a hand. ``by``: "suit" (clubs, diamonds, spades, hearts: the colours alternate; in each suit by rank)
 * or "rank" (by rank, then suit); ``dir``: 1 low to high, -1 high to low; ``rank(card)``: the game's own order of
 * ranks (Free Clubs' ace is its lowest card, whist's its highest). Jokers come last. */
export function sortCards(cards, {by = "suit", dir = 1, rank = (c) => c.value} = {}) {
  const suitKey = (c) => (c.suit === null ? 9 : DISPLAY_ORDER[c.suit]);
  const rankKey = (c) => (c.suit === null ? Infinity : dir * rank(c));
  const compare = by === "rank"
    ? (a, b) => rankKey(a) - rankKey(b) || suitKey(a) - suitKey(b)
    : (a, b) => suitKey(a) - suitKey(b) || rankKey(a) - rankKey(b);
  return [...cards].sort((a, b) => (a.suit === null) - (b.suit === null) || compare(a, b));
}

function suitClass(card) {
  return card.suit === null ? "suit-joker" : `suit-${card.suit}`;
}

/** The face of a card as an SVG picture (60 by 84 units). */
export function faceSvg(card) {
  const label = card.suit === null ? "\u2605" : card.rank;
  const symbol = card.suit === null ? "" : SUITS[card.suit].symbol;
  const big = card.suit === null ? "\u2605" : symbol;
  const parts = [
    s("rect", {class: "card-bg", x: 1, y: 1, width: 58, height: 82, rx: 6, ry: 6}),
    s("text", {class: "card-rank", x: 5, y: 17}, label),
    s("text", {class: "card-pip", x: 5, y: 31}, symbol),
    s("text", {class: "card-big", x: 30, y: 60, "text-anchor": "middle"}, big),
  ];
  if (card.as === null) {
    parts.push(s("text", {class: "card-rank", x: 55, y: 78, "text-anchor": "end"}, card.suit === null ? "JOKER" : label));
  } else {
    // a wild 15's value in a badge of its own at the foot, where the corner's rank would be (never over a number)
    parts.push(s("rect", {class: "card-as-bg", x: 12, y: 66, width: 36, height: 15, rx: 4, ry: 4}),
      s("text", {class: "card-as", x: 30, y: 77.5, "text-anchor": "middle"}, `as ${card.as}`));
  }
  return s("svg", {viewBox: "0 0 60 84", class: `card-face ${suitClass(card)}`, "aria-hidden": "true", focusable: "false"}, parts);
}

/** A card to look at (not to click). */
export function cardView(card, extra = "") {
  return h("span", {
    class: `card ${suitClass(card)} ${extra}`.trim(),
    role: "img",
    "aria-label": cardName(card),
    dataset: {card: card.text},
  }, faceSvg(card));
}

/** A card to click: a button named after the card. */
export function cardButton(card, {onclick, enabled, selected = false, extra = ""}) {
  const button = h("button", {
    type: "button",
    class: `card ${suitClass(card)} ${selected ? "selected" : ""} ${enabled ? "playable" : ""} ${extra}`.trim(),
    "aria-label": cardName(card),
    "aria-pressed": selected ? "true" : null,
    disabled: !enabled,
    onclick,
    dataset: {card: card.text},
  }, faceSvg(card));
  return button;
}

/** The back of a card (a card that is not shown). */
export function cardBack(extra = "") {
  return h("span", {class: `card back ${extra}`.trim(), role: "img", "aria-label": "a hidden card"},
    s("svg", {viewBox: "0 0 60 84", class: "card-face", "aria-hidden": "true", focusable: "false"},
      s("rect", {class: "card-back", x: 1, y: 1, width: 58, height: 82, rx: 6, ry: 6}),
      s("rect", {class: "card-back-inner", x: 6, y: 6, width: 48, height: 72, rx: 3, ry: 3})));
}

/** A row of cards to look at, in the order given. */
export function cardRow(cards, extra = "") {
  return h("div", {class: `card-row ${extra}`.trim()}, cards.map((c) => cardView(c)));
}
