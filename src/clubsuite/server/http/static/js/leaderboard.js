// @ts-check
// The leaderboards (/leaderboard): per rating pool (a game, at a seat count where the game has several), the players
// by a sure rating (their rating less three times its uncertainty: matches, not one lucky win, make a player climb),
// provisional ratings left out, and the bot levels on the same scale, strongest first. It opens on the reader's game.

import {account, api, byId, fill, h, pageTitle, store} from "./dom.js";
import {ratingWords} from "./account.js";
import {levelWords} from "./board.js";
import {loadWords, t, tn} from "./i18n.js";
import {applyColours, bar, poolLabel} from "./people.js";

const app = byId("app");

async function start() {
  applyColours();
  await loadWords();
  pageTitle("leaderboard");
  let games, ratings;
  try {
    games = await api("/games");
    ratings = await api("/ratings");
  } catch (err) {
    fill(app, await bar(t("Leaderboards")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message)));
    return;
  }
  const pools = [...new Set([...Object.keys(ratings.players), ...Object.keys(ratings.bots)])].sort();
  const board = h("div", {id: "board", "aria-live": "polite"});
  if (!pools.length) {
    fill(app, await bar(t("Leaderboards")), h("main", {class: "people"}, h("p", {class: "muted"}, t("No rated matches yet."))));
    return;
  }
  const pick = h("select", {id: "pool"}, pools.map((p) => h("option", {value: p}, poolLabel(games, p))));
  pick.value = (await yourPool(pools)) ?? pools[0];
  const draw = async () => {
    store.set("pool", pick.value);
    const people = await api(`/leaderboard/${encodeURIComponent(pick.value)}`);
    const bots = ratings.bots[pick.value] || {};
    fill(board,
      people.length ? h("table", {class: "leaders"},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Place")), h("th", {scope: "col"}, t("Player")),
          h("th", {scope: "col"}, t("Rating")), h("th", {scope: "col"}, t("Rated matches")))),
        h("tbody", {}, people.map((p) => h("tr", {},
          h("td", {}, p.place),
          h("th", {scope: "row"}, h("a", {href: `/player/${encodeURIComponent(p.name)}`}, p.name)),
          h("td", {}, ratingWords(p)), h("td", {}, p.matches)))))
        : h("p", {class: "muted", id: "nobody"}, t("Nobody is listed for this game yet.")),
      h("p", {class: "muted", id: "provisional-note"}, tn(
        "A player is listed after {n} rated match of the game; until then their rating is provisional, shown with a ?.",
        "A player is listed after {n} rated matches of the game; until then their rating is provisional, shown with a ?.",
        ratings.provisional_matches)),
      Object.keys(bots).length ? h("section", {"aria-labelledby": "bots-title"}, h("h2", {id: "bots-title"}, t("The bots on the same scale")),
        h("ul", {class: "bot-ratings"}, Object.entries(bots).sort(([, a], [, b]) => b.rating - a.rating).map(([level, r]) => h("li", {dataset: {level}},
          h("strong", {}, levelWords(`${level} bot`)), " ", ratingWords(r), " ",
          h("span", {class: "muted"}, r.matches ? tn("{n} rated match", "{n} rated matches", r.matches) : t("from its calibration"))))))
        : null);
  };
  pick.addEventListener("change", draw);
  fill(app, await bar(t("Leaderboards")),
    h("main", {class: "people"}, h("div", {class: "field"}, h("label", {for: "pool"}, t("Game")), pick), board));
  await draw();
}

/** The pool the reader plays: a signed-in player's latest rated match's, else the last table this browser sat at,
 * else the last one looked at here; null if none of them has a leaderboard. */
async function yourPool(pools) {
  const me = await account();
  if (me) {
    try {
      const rated = (await api(`/players/${encodeURIComponent(me.name)}`)).history.find((m) => m.rated && pools.includes(m.pool));
      if (rated) return rated.pool;
    } catch {
      // the profile is only a hint: the browser's memory follows
    }
  }
  return [store.get("played"), store.get("pool")].find((p) => pools.includes(p)) ?? null;
}

start();
