// @ts-check
// A player's profile (/player/{name}): their ratings per pool, each with the path it took (a small plot), their
// matches, wins and average points per game, and their finished matches with the record and replay links. On one's
// own profile: the signed-in sessions (each can be ended), the passkeys, the password, deleting the account, and the
// turn-based tables' settings (turnsettings.js: playing hours, reminders, vacations).

import {account, api, byId, fill, h, pageTitle, s} from "./dom.js";
import {ratingWords} from "./account.js";
import {loadWords, t, tn} from "./i18n.js";
import {passkeysPart} from "./passkey.js";
import {applyColours, bar, gameLabel, poolLabel, when} from "./people.js";
import {ownPeoplePart, relationPart} from "./together.js";
import {turnSettingsPart} from "./turnsettings.js";

const app = byId("app");
const name = decodeURIComponent(location.pathname.split("/").pop() || "");
let games = [];

/** A rating's path as a line over time, with its ± band (an SVG, no script or library). */
function plot(points, label) {
  const w = 320, hgt = 120, pad = 4;
  const lows = points.map((p) => p.rating - p.plus_minus), highs = points.map((p) => p.rating + p.plus_minus);
  const lo = Math.min(...lows), hi = Math.max(...highs);
  const x = (i) => pad + (points.length === 1 ? 0 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / Math.max(1, hi - lo);
  const band = [...points.map((p, i) => `${x(i)},${y(p.rating + p.plus_minus)}`),
    ...points.map((p, i) => `${x(i)},${y(p.rating - p.plus_minus)}`).reverse()].join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  return s("svg", {viewBox: `0 0 ${w} ${hgt}`, class: "rating-plot", role: "img", "aria-label": label},
    s("polygon", {points: band, class: "band"}),
    s("polyline", {points: line, class: "line"}),
    points.map((p, i) => s("circle", {cx: x(i), cy: y(p.rating), r: 2.5, class: "dot"})));
}

async function ratingsPart(profile) {
  if (!profile.ratings.length) return h("p", {class: "muted"}, t("No rated matches yet."));
  const rows = [];
  for (const r of profile.ratings) {
    const path = await api(`/players/${encodeURIComponent(profile.name)}/ratings/${encodeURIComponent(r.pool)}`);
    const label = t("{pool}: {rating}", {pool: poolLabel(games, r.pool), rating: ratingWords(r)});
    rows.push(h("li", {class: "rating", dataset: {pool: r.pool}},
      h("strong", {}, poolLabel(games, r.pool)), " ",
      h("span", {class: "rating-value"}, ratingWords(r)), " ",
      h("span", {class: "muted"}, tn("{n} rated match", "{n} rated matches", r.matches)),
      plot(path, label)));
  }
  return h("ul", {class: "ratings"}, rows);
}

function gamesPart(profile) {
  if (!profile.games.length) return h("p", {class: "muted"}, t("No finished matches yet."));
  return h("table", {class: "games"},
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("Game")), h("th", {scope: "col"}, t("Matches")),
      h("th", {scope: "col"}, t("Wins")), h("th", {scope: "col"}, t("Average points")))),
    h("tbody", {}, profile.games.map((g) => h("tr", {},
      h("th", {scope: "row"}, gameLabel(games, g.game)), h("td", {}, g.matches), h("td", {}, g.wins), h("td", {}, g.average_points)))));
}

function matchRow(m) {
  const place = m.left ? t("left the match") : m.won ? t("won") : t("place {place}", {place: m.place});
  return h("li", {class: "match", dataset: {table: m.table, match: String(m.match)}},
    h("span", {class: "when"}, when(m.finished_at)), " ",
    h("strong", {}, gameLabel(games, m.game)), " ",
    h("span", {}, place), " ",
    h("span", {class: "muted"}, tn("{n} point", "{n} points", m.points)), " ",
    m.rated ? h("span", {class: "tag"}, t("rated")) : null,
    m.private ? h("span", {class: "tag"}, t("private")) : null, " ",
    h("a", {href: m.replay, class: "replay-link"}, t("Replay")), " ",
    h("a", {href: m.review, class: "review-link"}, t("Review")), " ",
    h("a", {href: m.record, download: `clubs-${m.table}-${m.match}.json`}, t("Record")));
}

function historyPart(profile) {
  const list = h("ul", {class: "history", id: "history"}, profile.history.map(matchRow));
  if (!profile.history.length) return h("p", {class: "muted", id: "history"}, t("No finished matches yet."));
  const more = h("button", {type: "button"}, t("Older matches"));
  more.addEventListener("click", async () => {
    const last = list.lastElementChild;
    const before = profile.history.length ? profile.history[profile.history.length - 1].finished_at : null;
    const older = await api(`/players/${encodeURIComponent(profile.name)}/history?before=${before}`);
    profile.history.push(...older);
    list.append(...older.map(matchRow));
    if (!older.length || last === list.lastElementChild) more.remove();
  });
  return h("div", {}, list, profile.history.length >= 20 ? more : null);
}

/** A browser's User-Agent in a few words: "Firefox on Windows" (the whole string as a tooltip). */
function agentWords(agent) {
  if (!agent) return t("a browser");
  const browser = /Edg\//.test(agent) ? "Edge" : /Firefox\//.test(agent) ? "Firefox" : /Chrom(e|ium)\//.test(agent) ? "Chrome"
    : /Safari\//.test(agent) ? "Safari" : null;
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows"
    : /Mac OS X/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : null;
  if (browser && system) return t("{browser} on {system}", {browser, system});
  return browser || system || agent.slice(0, 40);
}

/** One's own account: the sessions, the passkeys, the password, deleting it. */
async function ownPart() {
  const sessions = await api("/account/sessions");
  const list = h("ul", {class: "sessions"}, sessions.map((x) => {
    const end = h("button", {type: "button"}, x.current ? t("Sign out") : t("Sign out there"));
    end.addEventListener("click", async () => {
      end.disabled = true;
      await api(`/account/sessions/${encodeURIComponent(x.id)}/end`, {});
      if (x.current) location.href = "/"; else end.closest("li").remove();
    });
    return h("li", {}, h("span", {class: "agent", title: x.agent}, agentWords(x.agent)), " ",
      h("span", {class: "muted"}, t("since {when}, last seen {seen}", {when: when(x.created_at), seen: when(x.seen_at)})),
      x.current ? h("span", {class: "tag"}, t("this one")) : null, " ", end);
  }));
  const problem = h("p", {class: "error", role: "alert"});
  const told = h("p", {class: "told", role: "status"});
  const old = h("input", {type: "password", id: "old-password", autocomplete: "current-password"});
  const fresh = h("input", {type: "password", id: "new-password", autocomplete: "new-password", minlength: "8"});
  const change = h("form", {class: "panel"}, h("h3", {}, t("Change the password")),
    h("div", {class: "field"}, h("label", {for: "old-password"}, t("Your password")), old),
    h("div", {class: "field"}, h("label", {for: "new-password"}, t("New password")), fresh),
    h("button", {type: "submit"}, t("Change the password")), told, problem);
  change.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = told.textContent = "";
    try {
      await api("/account/password", {password: old.value, new_password: fresh.value});
      told.textContent = t("The password is changed; your other sessions have ended.");
      old.value = fresh.value = "";
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  const sure = h("input", {type: "password", id: "delete-password", autocomplete: "current-password"});
  const gone = h("p", {class: "error", role: "alert"});
  const remove = h("form", {class: "panel danger"}, h("h3", {}, t("Delete the account")),
    h("p", {}, t("Your name is freed and your ratings are removed; your finished matches stay, under \"deleted player\".")),
    h("div", {class: "field"}, h("label", {for: "delete-password"}, t("Your password")), sure),
    h("button", {type: "submit", class: "danger"}, t("Delete the account")), gone);
  remove.addEventListener("submit", async (event) => {
    event.preventDefault();
    gone.textContent = "";
    try {
      await api("/account/delete", {password: sure.value});
      location.href = "/";
    } catch (err) {
      gone.textContent = err.message;
    }
  });
  return h("section", {"aria-labelledby": "own-title"}, h("h2", {id: "own-title"}, t("Your account")),
    h("h3", {}, t("Signed in")), list, await passkeysPart(agentWords, when), change, remove);
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("player");
  let profile;
  try {
    games = await api("/games");
    profile = await api(`/players/${encodeURIComponent(name)}`);
  } catch (err) {
    fill(app, await bar(t("A player")), h("main", {class: "panel"}, h("p", {role: "alert"}, err.message)));
    return;
  }
  const me = await account();
  fill(app, await bar(profile.name),
    h("main", {class: "people"},
      h("p", {class: "muted"}, t("Playing since {when}", {when: when(profile.since)})),
      h("section", {"aria-labelledby": "ratings-title"}, h("h2", {id: "ratings-title"}, t("Ratings")), await ratingsPart(profile)),
      h("section", {"aria-labelledby": "games-title"}, h("h2", {id: "games-title"}, t("Games")), gamesPart(profile)),
      h("section", {"aria-labelledby": "history-title"}, h("h2", {id: "history-title"}, t("Matches")), historyPart(profile)),
      profile.own ? await ownPeoplePart() : me ? await relationPart(profile.name) : null,
      profile.own ? await turnSettingsPart(agentWords) : null, // the clock and reminders of turn-based tables
      profile.own ? await ownPart() : null));
}

start();
