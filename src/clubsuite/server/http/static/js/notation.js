// @ts-check
// Card notation ("QH", "10C", "JK1", "15S=7"): read into its rank, suit and value. It imports nothing, so that both
// the card faces (cards.js) and the words (i18n.js) can read it without importing each other.

export const SUITS = {
  C: {symbol: "\u2663", name: "clubs"},
  D: {symbol: "\u2666", name: "diamonds"},
  H: {symbol: "\u2665", name: "hearts"},
  S: {symbol: "\u2660", name: "spades"},
};
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
