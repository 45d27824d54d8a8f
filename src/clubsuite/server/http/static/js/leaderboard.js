// The leaderboards (/leaderboard): per rating pool (a game, at a seat count where the game has several), the players
// by a sure rating (their rating less three times its uncertainty: matches, not one lucky win, make a player climb),
// and the bot levels on the same scale.

import {api, byId, fill, h, pageTitle, store} from "./dom.js";
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
  pick.value = pools.includes(store.get("pool")) ? store.get("pool") : pools[0];
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
        : h("p", {class: "muted"}, t("Nobody has played a rated match of this yet.")),
      Object.keys(bots).length ? h("section", {"aria-labelledby": "bots-title"}, h("h2", {id: "bots-title"}, t("The bots on the same scale")),
        h("ul", {class: "bot-ratings"}, Object.entries(bots).map(([level, r]) => h("li", {},
          h("strong", {}, levelWords(`${level} bot`)), " ", ratingWords(r), " ",
          h("span", {class: "muted"}, r.matches ? tn("{n} rated match", "{n} rated matches", r.matches) : t("from its calibration"))))))
        : null);
  };
  pick.addEventListener("change", draw);
  fill(app, await bar(t("Leaderboards")),
    h("main", {class: "people"}, h("div", {class: "field"}, h("label", {for: "pool"}, t("Game")), pick), board));
  await draw();
}

start();
