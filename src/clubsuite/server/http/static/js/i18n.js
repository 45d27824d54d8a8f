// @ts-check
// The page's words in the reader's language: the catalog of the chosen language (GET /i18n/<lang>.json, made from
// the same gettext catalog as the terminal's), t() and tn() for the page's own words, card names, and a refusal
// worded from its reason (code, ruling, parameters) as the server sends it. A number's plural form is the one the
// catalog gives its CLDR category (Intl.PluralRules): any number of forms, as the language's catalog has them.

import {parseCard, SUITS} from "./notation.js";

export const LANGUAGES = {en: "English", de: "Deutsch", fr: "Français", nl: "Nederlands"};
const KEY = "clubs.lang";
const SEP = "\u0004";
const ENGLISH = {lang: "en", plurals: {one: 0, other: 1}, messages: {}};
let catalog = ENGLISH;
let byContext = {};
let pluralRules = new Intl.PluralRules("en");
let listFormat = new Intl.ListFormat("en", {style: "long", type: "conjunction"});

/** The language chosen on this browser, else the browser's first shipped language, else English. */
export function chosenLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
    if (saved && saved.startsWith('"')) saved = JSON.parse(saved); // kept as JSON, like the page's other settings
  } catch {
    saved = null;
  }
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages ?? [navigator.language ?? "en"]) {
    const head = String(tag).toLowerCase().split(/[-_]/)[0];
    if (head in LANGUAGES) return head;
  }
  return "en";
}

/** Load the chosen language's words (English words are the fallback of every message). */
export async function loadWords(lang = chosenLanguage()) {
  document.documentElement.lang = lang;
  try {
    const res = await fetch(new URL(`../../i18n/${lang}.json`, import.meta.url)); // /i18n/ on a server, i18n/ in the app
    if (res.ok) catalog = await res.json();
  } catch {
    catalog = ENGLISH;
  }
  pluralRules = new Intl.PluralRules(catalog.lang);
  listFormat = new Intl.ListFormat(catalog.lang, {style: "long", type: "conjunction"});
  byContext = {};
  for (const [key, text] of Object.entries(catalog.messages)) {
    const at = key.indexOf(SEP);
    if (at > 0) byContext[key.slice(0, at)] = text; // a refusal's code is the context of its one message
  }
  return catalog.lang;
}

/** The language the page speaks now. */
export function language() {
  return catalog.lang;
}

/** Remember ``lang`` and show the page again in it. */
export function setLanguage(lang) {
  if (!(lang in LANGUAGES)) return;
  try {
    localStorage.setItem(KEY, JSON.stringify(lang));
  } catch {
    // no storage: the choice lasts for this page only
  }
  location.reload();
}

function fill(text, params) {
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (whole, name, form) => {
    if (!(name in params)) return whole;
    const v = params[name];
    return typeof v === "function" ? v(form) : String(v);
  });
}

/** Which of a message's forms ``n`` takes: its CLDR category in the page's language (French "one" for 0 and 1,
 * Polish "few" for 22), mapped onto the catalog's forms as the server matched them (``plurals``); a category the
 * server did not name (a newer CLDR in the browser) takes the form of "other". */
function pluralIndex(n) {
  const forms = catalog.plurals ?? ENGLISH.plurals;
  return forms[pluralRules.select(Math.abs(n))] ?? forms.other ?? 1;
}

/** The page's words ``msgid`` in the reader's language, with {name} filled from ``params``. */
export function t(msgid, params = {}) {
  const found = catalog.messages[msgid];
  return fill(typeof found === "string" ? found : msgid, params);
}

/** Words with a plural: ``one`` or ``many`` (English) as ``n`` asks, in the reader's language. */
export function tn(one, many, n, params = {}) {
  const found = catalog.messages[one];
  const text = Array.isArray(found) ? found[pluralIndex(n)] ?? found[found.length - 1] : (n === 1 ? one : many);
  return fill(text, {n, ...params});
}

/** Words that have a context (a suit's or a rank's name, a refusal's code). */
export function tc(context, msgid, params = {}, n = null) {
  const found = catalog.messages[context + SEP + msgid];
  let text = msgid;
  if (Array.isArray(found)) text = found[n === null ? 0 : pluralIndex(n)];
  else if (typeof found === "string") text = found;
  return fill(text, params);
}

/** Words the server gives in English from a fixed list (a game's name and summary, its options, their values and
 * short words, its variants, the bots a seat may be given), in the reader's language. */
export function serverWords(text) {
  return typeof text === "string" && text ? tc("words", text) : text;
}

/** One rule of a table's name (the server's ``name_words.rules``) in words: "wild 15s", "to 9 points". */
export function ruleWords(part) {
  if (part.one && /^-?\d+$/.test(part.value ?? "")) { // words with a plural: "to 1 point", "to 11 points"
    const n = Number(part.value);
    const found = catalog.messages["words" + SEP + part.one];
    const text = Array.isArray(found) ? found[pluralIndex(n)] ?? found[found.length - 1] : (n === 1 ? part.one : part.words);
    return text.replace("{}", part.value);
  }
  const words = serverWords(part.words);
  return part.value === null || part.value === undefined ? words : words.replace("{}", part.value);
}

/** A game and the rules a table or record plays it with, from the server's ``name_words``: "Clubs (a game):
 * 5 players, wild 15s". */
export function gameWords(w) {
  const title = serverWords(w.title);
  const parts = [];
  if (w.players !== null && w.players !== undefined) parts.push(tn("{n} player", "{n} players", w.players));
  for (const part of w.rules) parts.push(ruleWords(part));
  return parts.length ? t("{game}: {rules}", {game: title, rules: parts.join(", ")}) : title;
}

/** A table's name in the reader's language, made of the parts the server gives (``name_words``): "Ann's CLUBS, 4
 * players, wild 15s", "Tisch von Ann: CLUBS, 4 Spieler, ...". The server's English ``name`` where no parts came. */
export function tableName(table) {
  const w = table.name_words;
  if (!w) return table.name;
  const title = serverWords(w.title);
  let head;
  if (w.host !== null && w.host !== undefined) head = t("{host}'s {title}", {host: w.host, title});
  else head = /^[aeiou]/i.test(w.title) ? t("An {title} table", {title}) : t("A {title} table", {title});
  const parts = [head];
  if (w.players !== null && w.players !== undefined) parts.push(tn("{n} player", "{n} players", w.players));
  for (const part of w.rules) parts.push(ruleWords(part));
  return parts.join(", ");
}

const RANKS = {J: "jack", Q: "queen", K: "king", A: "ace"};

/** A card in words in the reader's language: "queen of hearts", "Herz Dame", "dame de cœur". */
export function cardWords(card) {
  if (card.suit === null) return tc("card.joker", "Joker {n}", {n: card.rank[2]});
  const rank = RANKS[card.rank] ? tc("rank", RANKS[card.rank]) : card.rank;
  const base = tc("card", "{rank} of {suit}", {rank, suit: tc("suit.card", SUITS[card.suit].name)});
  return card.as === null ? base : tc("card.wild", "{card} as {n}", {card: base, n: card.as});
}

/** A card written short in the reader's language: rank letter and suit symbol ("D\u2665" in German). */
export function cardLetters(card) {
  if (card.suit === null) return tc("card.joker", "Joker {n}", {n: card.rank[2]});
  const rank = RANKS[card.rank] ? tc("rank.short", card.rank) : card.rank;
  const face = `${rank}${SUITS[card.suit].symbol}`;
  return card.as === null ? face : `${face}=${card.as}`;
}

function kindOf(name) {
  for (const kind of ["cards", "card", "seats", "seat", "suit", "reason", "items"]) {
    if (name === kind || name.endsWith(`_${kind}`)) return kind;
  }
  if (name === "n" || name === "count" || name.endsWith("_count")) return "count";
  return "text";
}

const NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"};

/** A count: in digits, or two to ten in words (``word``), capitalised at the start of a sentence (``cap``). */
function countWords(n, form) {
  if ((form !== "word" && form !== "cap") || !NUMBER_WORDS[n]) return String(n);
  const word = tc("number", NUMBER_WORDS[n]);
  return form === "cap" ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** A card of a reason in a sentence: written short ("Q\u2665"), a wild card with what it stands for ("15\u2660 as 7"). */
function cardText(notation) {
  const card = parseCard(String(notation));
  if (!card) return String(notation);
  if (card.as === null || card.as === undefined) return cardLetters(card);
  return tc("card.wild", "{card} as {n}", {card: cardLetters({...card, as: null}), n: card.as});
}

/** A suit's name from its key ("hearts"): the plural, the singular (``one``), or the plural at the start of a
 * sentence (``cap``). */
function suitWords(key, form) {
  if (form === "one") return tc("suit.one", key.slice(0, -1));
  const plural = tc("suit", key);
  return form === "cap" ? plural.charAt(0).toUpperCase() + plural.slice(1) : plural;
}

/** Words as a list in the reader's language, by CLDR's patterns (Intl.ListFormat): "Ann, Bob, and you", "Ann, Bob und
 * du"; the server's terminal and replay list them the same way (Babel's ``format_list``). */
export function listWords(words) {
  return listFormat.format(words);
}

/** A refusal in the reader's language from its reason ({code, rule, params}); ``seatName(n)`` names a seat. */
export function reasonWords(reason, seatName = (n) => `${n + 1}`) {
  const params = {};
  for (const [name, value] of Object.entries(reason.params ?? {})) {
    const kind = kindOf(name);
    if (kind === "cards") params[name] = (Array.isArray(value) ? value : [value]).map(cardText).join(" ");
    else if (kind === "card") params[name] = cardText(value);
    else if (kind === "seat") params[name] = seatName(Number(value));
    else if (kind === "seats") params[name] = listWords((Array.isArray(value) ? value : [value]).map((v) => seatName(Number(v))));
    else if (kind === "suit") params[name] = (form) => suitWords(String(value), form);
    else if (kind === "reason" && value && typeof value === "object") params[name] = reasonWords(value, seatName);
    else if (kind === "count" && typeof value === "number") params[name] = (form) => countWords(value, form);
    else if (kind === "items" && Array.isArray(value)) params[name] = value.map((r) => reasonWords(r, seatName) ?? "").join(", ");
    else params[name] = String(value);
  }
  const text = byContext[reason.code];
  if (text === undefined) return null;
  const counted = Object.entries(reason.params ?? {}).find(([name]) => name === "n" || name === "count" || name.endsWith("_count"));
  const words = Array.isArray(text) ? text[pluralIndex(Number(counted ? counted[1] : 1))] : text;
  return fill(words, params);
}

/** A language switch: the four languages, each in its own name; choosing one shows the page again in it. */
export function languageSwitch(h) {
  const select = h("select", {"aria-label": t("Language"), class: "lang-switch", onchange: (e) => setLanguage(e.target.value)},
    ...Object.entries(LANGUAGES).map(([code, name]) => h("option", {value: code, selected: code === language() ? "" : null, lang: code}, name)));
  return select;
}
