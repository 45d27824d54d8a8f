// @ts-check
// What the pages about people share: the bar (home, the page's title, the leaderboards, the language, the account),
// a game's name in words from GET /games, and dates.

import {OFFLINE, applyColours, colourToggle, h, here} from "./dom.js";
import {accountBox} from "./account.js";
import {language, languageSwitch, serverWords, t} from "./i18n.js";
import {startNotices} from "./live.js";

/** The page's bar (and the notices meant for the account, on every page that has the bar). */
export async function bar(title) {
  if (OFFLINE) { // the offline app: its lobby, its puzzles, the rules it keeps; no accounts, no notices
    return h("header", {class: "bar"}, h("a", {href: here("/"), class: "home"}, t("Clubs")), h("h1", {}, title),
      h("a", {href: "puzzle.html"}, t("Puzzles")), languageSwitch(h), colourToggle());
  }
  startNotices();
  return h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, t("Clubs")), h("h1", {}, title),
    h("a", {href: "/leaderboard"}, t("Leaderboards")),
    h("a", {href: "/tournament"}, t("Tournaments")),
    h("a", {href: "/puzzle"}, t("Puzzles")),
    h("a", {href: `/rules?lang=${encodeURIComponent(language())}`, class: "rules-link"}, t("How to play")),
    languageSwitch(h), colourToggle(), await accountBox());
}

/** A game's name in the reader's words, from GET /games (its name when unknown). */
export function gameLabel(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? serverWords(g.label) : name;
}

/** A pool in words: the game's name, with its seat count where it has one ("CLUBS, 4 players"). */
export function poolLabel(games, pool) {
  const m = /^(.*)-(\d+)p$/.exec(pool);
  return m ? t("{game}, {count} players", {game: gameLabel(games, m[1]), count: Number(m[2])}) : gameLabel(games, pool);
}

/** A moment as the reader's language writes a date and time. */
export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(language(), {dateStyle: "medium", timeStyle: "short"});
}

export {applyColours};
