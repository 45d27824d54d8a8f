// @ts-check
// The how-to-play pages (/rules/{game}): every example of cards, written as inline code "cards: 7H 8H" in the
// game's notation, is drawn with the table's own card faces and named in the page's language for screen readers;
// the language switch keeps the section being read (the anchors are the same in every language).

import {cardView, parseCard} from "./cards.js";
import {applyColours} from "./dom.js";

const PREFIX = "cards:";

/** The words of a card in each language of the pages: suits, the ranks that are words, and how they combine. */
const WORDS = {
  en: {
    suits: {C: "clubs", D: "diamonds", H: "hearts", S: "spades"},
    ranks: {J: "jack", Q: "queen", K: "king", A: "ace"},
    card: (rank, suit) => `${rank} of ${suit}`,
    joker: (n) => `Joker ${n}`,
    wild: (base, value) => `wild ${base} as ${value}`,
    badge: (value) => `as ${value}`,
  },
  de: {
    suits: {C: "Kreuz", D: "Karo", H: "Herz", S: "Pik"},
    ranks: {J: "Bube", Q: "Dame", K: "König", A: "Ass"},
    card: (rank, suit) => `${suit} ${rank}`,
    joker: (n) => `Joker ${n}`,
    wild: (base, value) => `${base} (wild) als ${value}`,
    badge: (value) => `als ${value}`,
  },
  fr: {
    suits: {C: "trèfle", D: "carreau", H: "cœur", S: "pique"},
    ranks: {J: "valet", Q: "dame", K: "roi", A: "as"},
    card: (rank, suit) => `${rank} de ${suit}`,
    joker: (n) => `joker ${n}`,
    wild: (base, value) => `${base} (joker) valant ${value}`,
    badge: (value) => `= ${value}`,
  },
  nl: {
    suits: {C: "klaveren", D: "ruiten", H: "harten", S: "schoppen"},
    ranks: {J: "boer", Q: "vrouw", K: "heer", A: "aas"},
    card: (rank, suit) => `${suit} ${rank}`,
    joker: (n) => `joker ${n}`,
    wild: (base, value) => `${base} (wild) als ${value}`,
    badge: (value) => `als ${value}`,
  },
};

/** The words of the page's language (English where the page's language has none here). */
function words() {
  const lang = (document.documentElement.lang || "en").toLowerCase().split("-")[0];
  return WORDS[lang] ?? WORDS.en;
}

/** A card named in words: "7 of hearts", "Herz 7", "7 de cœur", "harten 7"; a wild 15 says what it stands for
 * ("wild 15 of spades as 7", "Pik 15 (wild) als 7"). */
export function cardWords(card, w = words()) {
  if (card.suit === null) return w.joker(card.rank[2]);
  const base = w.card(w.ranks[card.rank] ?? card.rank, w.suits[card.suit]);
  return card.as === null ? base : w.wild(base, card.as);
}

/** The cards of an example ("cards: 7H 15S=7"), or null when any word is not a card (the text then stays). */
function exampleCards(text) {
  const tokens = text.trim().slice(PREFIX.length).trim().split(/\s+/).filter((t) => t !== "");
  const cards = tokens.map(parseCard);
  return cards.length > 0 && cards.every((c) => c !== null) ? cards : null;
}

/** One card drawn, named in the page's language (its wild-15 badge too). */
function drawn(card, w) {
  const el = cardView(card);
  el.setAttribute("aria-label", cardWords(card, w));
  const badge = el.querySelector(".card-as");
  if (badge && card.as !== null) badge.textContent = w.badge(card.as);
  return el;
}

/** Replace every example of cards in the page by the cards drawn. */
export function drawExamples(root = document) {
  const w = words();
  for (const code of root.querySelectorAll("code")) {
    const text = code.textContent ?? "";
    if (!text.trim().startsWith(PREFIX)) continue;
    const cards = exampleCards(text);
    if (cards === null) continue;
    const row = document.createElement("span");
    row.className = "card-row rules-cards";
    row.dataset.cards = cards.map((c) => c.text).join(" ");
    row.append(...cards.map((c) => drawn(c, w)));
    code.replaceWith(row);
  }
}

/** Keep the language links pointing at the section being read. */
function keepPlace() {
  const links = /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("nav.languages a[href]"));
  for (const a of links) a.dataset.base = a.getAttribute("href");
  const update = () => {
    for (const a of links) a.setAttribute("href", a.dataset.base + window.location.hash);
  };
  window.addEventListener("hashchange", update);
  update();
}

applyColours();
drawExamples();
keepPlace();
