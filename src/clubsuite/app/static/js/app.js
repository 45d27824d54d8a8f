// @ts-check
// The offline app's first page: every game against bots (its variants, the bots' level), "Learn to play" (the
// guided first hand), the tables in play and the finished matches kept in this browser (each record saved as a
// file, which a server's replay and review read), the app's state (loading the rules, ready with no network, a new
// version ready) and the install button where the browser offers one. The rules run in the page (offline.js).

import {applyColours, byId, colourToggle, fill, h, store} from "./dom.js";
import {cardRow, parseCards} from "./cards.js";
import {languageSwitch, loadWords, serverWords, t} from "./i18n.js";
import {download, every, forget} from "./offline.js";

const app = byId("app");
const NAME_MAX = 24;
/** The levels a table's bots may have here (the server's "expert" searches for seconds a move in the page). */
const LEVELS = [{value: "easy", words: () => t("easy bots")}, {value: "normal", words: () => t("normal bots")}, {value: "hard", words: () => t("hard bots")}];

/** How long the bots wait before they move, in seconds (the guided first hand waits longer unless told). */
const PACES = [{value: "", words: () => t("bots at a calm pace")}, {value: "0", words: () => t("bots at once")}, {value: "2", words: () => t("bots slowly")}];

/** A game of data/games.json (the server's GET /games) with the words a person reads in the reader's language. */
function worded(g) {
  return {...g, label: serverWords(g.label), summary: serverWords(g.summary),
    variant_choices: g.variant_choices.map((v) => ({...v, label: serverWords(v.label)}))};
}

async function start() {
  applyColours();
  await loadWords();
  document.title = t("Clubs: play offline");
  let games;
  try {
    const response = await fetch(new URL("../../data/games.json", import.meta.url));
    games = (await response.json()).map(worded);
  } catch {
    fill(app, h("main", {class: "panel"}, h("h1", {}, t("Clubs")), h("p", {role: "alert"}, t("The app's files could not be read: open it once with a network."))));
    return;
  }
  const status = h("p", {class: "app-status", id: "app-status", role: "status"}, t("Keeping the app's files for use with no network…"));
  const install = h("button", {type: "button", class: "install", hidden: true}, t("Install the app"));
  fill(app,
    h("header", {class: "bar lobby-bar"}, h("span", {class: "home"}, t("Clubs")), h("h1", {}, t("Play Clubs offline")),
      install, languageSwitch(h), colourToggle()),
    h("main", {class: "lobby app-lobby"},
      playPanel(games, status),
      h("div", {class: "lobby-side"}, await tablesPanel(games), await matchesPanel(games), aboutPanel())));
  offerInstall(install);
  watchVersions(status);
}

/** The name field and a tile per game: its cards, name and summary, its rules and bots, Play and Learn to play. */
function playPanel(games, status) {
  const problem = h("p", {class: "error", role: "alert"});
  const name = h("input", {id: "app-name", maxlength: String(NAME_MAX), autocomplete: "nickname", value: store.get("name") || ""});
  const pace = h("select", {id: "app-pace", onchange: (/** @type {Event} */ e) => store.set("pace", /** @type {HTMLSelectElement} */ (e.target).value)},
    ...PACES.map(({value, words}) => h("option", {value, selected: value === (store.get("pace") ?? "") ? "" : null}, words())));
  return h("section", {class: "panel quick", "aria-labelledby": "play-title"},
    h("h2", {id: "play-title"}, t("Play against bots")),
    status,
    h("p", {class: "lead"}, t("Every game and its variants, with bots from easy to hard. Nothing is sent anywhere: the cards are dealt in this browser.")),
    h("div", {class: "app-choices"},
      h("div", {class: "field"}, h("label", {for: "app-name"}, t("Your name")), name),
      h("div", {class: "field"}, h("label", {for: "app-pace"}, t("How fast the bots play")), pace)),
    h("ul", {class: "game-tiles"}, games.map((g) => gameTile(g, name, problem))),
    h("p", {class: "puzzles-line"}, h("a", {href: "puzzle.html", id: "puzzles-link"}, t("Puzzles")), " ",
      h("span", {class: "muted"}, t("Find the best play in positions from real matches: a puzzle of the day, streaks, themes."))),
    problem);
}

function gameTile(g, nameInput, problem) {
  const rules = h("select", {"aria-label": t("Rules of {game}", {game: g.label}), dataset: {choice: "rules"}},
    h("option", {value: g.name}, t("standard rules")),
    ...g.variant_choices.map((v) => h("option", {value: v.value}, v.label)));
  const level = h("select", {"aria-label": t("Bots of {game}", {game: g.label}), dataset: {choice: "level"}},
    ...LEVELS.map(({value, words}) => h("option", {value, selected: value === "normal" ? "" : null}, words())));
  const go = (coach) => () => { // the table page makes the table, in its own worker (the lobby starts no Python)
    problem.textContent = "";
    store.set("name", nameInput.value.trim());
    const asked = new URLSearchParams({game: coach ? g.name : rules.value, level: level.value, coach: coach ? "1" : "0", pace: store.get("pace") ?? ""});
    location.href = `table.html?${asked}`;
  };
  const title = `tile-${g.name}`;
  return h("li", {class: "game-tile", dataset: {game: g.name}},
    h("div", {class: "tile-cards", "aria-hidden": "true"}, cardRow(parseCards((g.showcase || []).join(" ")))),
    h("h3", {id: title}, g.label),
    h("p", {class: "tile-about"}, g.summary),
    h("div", {class: "tile-choices"}, rules, level),
    h("div", {class: "tile-actions", role: "group", "aria-labelledby": title},
      h("button", {type: "button", class: "primary play", onclick: go(false)}, t("Play now")),
      h("button", {type: "button", class: "learn", onclick: go(true)}, t("Learn to play"))));
}

/** The tables in play in this browser: continue one, or give it up. */
async function tablesPanel(games) {
  const list = h("ul", {class: "kept-tables", id: "kept-tables"});
  const draw = async () => {
    const tables = (await every("tables")).sort((a, b) => b.updated - a.updated);
    fill(list, tables.length ? tables.map((x) => h("li", {},
      h("a", {href: `table.html?local=${encodeURIComponent(x.id)}`}, gameLabel(games, x.game)), " ",
      h("span", {class: "muted"}, x.coach ? t("guided first hand") : new Date(x.updated).toLocaleString()), " ",
      h("button", {type: "button", class: "link-button", onclick: async () => { await forget("tables", x.id); store.set(`seat.${x.id}`, null); draw(); }}, t("give up"))))
      : h("li", {class: "muted"}, t("No table in play.")));
  };
  await draw();
  return h("section", {class: "panel", "aria-labelledby": "tables-title"}, h("h2", {id: "tables-title"}, t("Your tables")), list);
}

/** The finished matches kept in this browser, each record saved as a file on request. */
async function matchesPanel(games) {
  const list = h("ul", {class: "kept-matches", id: "kept-matches"});
  const draw = async () => {
    const matches = (await every("matches")).sort((a, b) => b.ended - a.ended);
    fill(list, matches.length ? matches.map((m) => h("li", {},
      gameLabel(games, m.game), " ", h("span", {class: "muted"}, new Date(m.ended).toLocaleString()), " ",
      h("button", {type: "button", class: "link-button", dataset: {action: "download"}, onclick: () => download(m.table, m.match)}, t("Download the record")), " ",
      h("a", {href: `replay.html?table=${encodeURIComponent(m.table)}&match=${m.match}`}, t("Replay it with every hand")), " ",
      h("a", {href: `review.html?table=${encodeURIComponent(m.table)}&match=${m.match}&seat=0`}, t("Review my play")), " ",
      h("button", {type: "button", class: "link-button", onclick: async () => { await forget("matches", m.key); draw(); }}, t("delete"))))
      : h("li", {class: "muted"}, t("No finished match yet.")));
  };
  await draw();
  return h("section", {class: "panel", "aria-labelledby": "matches-title"}, h("h2", {id: "matches-title"}, t("Finished matches")),
    h("p", {class: "muted"}, t("A record opens in any Clubs server's replay and review.")), list,
    h("p", {}, h("a", {href: "replay.html"}, t("Replay a record"))));
}

function gameLabel(games, spec) {
  const g = games.find((x) => x.name === String(spec).split(/[-(]/)[0]);
  return g ? g.label : spec;
}

/** What the app is and what it is made with. */
function aboutPanel() {
  return h("section", {class: "panel about", "aria-labelledby": "about-title"}, h("h2", {id: "about-title"}, t("About the app")),
    h("p", {}, t("The rules, the bots and the lessons run in this page in Python (Pyodide, under the Mozilla Public Licence 2.0), with no server.")));
}

/** The browser's offer to install the app, behind the Install button (where the browser makes one). */
function offerInstall(button) {
  let offer = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offer = event;
    button.hidden = false;
  });
  button.addEventListener("click", async () => {
    if (!offer) return;
    offer.prompt();
    await offer.userChoice;
    offer = null;
    button.hidden = true;
  });
}

/** Keep the app's files for use with no network (the service worker), and say when a new version is ready. */
function watchVersions(status) {
  const ready = (words) => {
    status.textContent = words;
    status.dataset.ready = "1";
  };
  if (!("serviceWorker" in navigator)) {
    ready(t("This browser keeps no files for the app here: it plays while this page is open, not with no network."));
    return;
  }
  navigator.serviceWorker.ready.then(() => ready(t("Ready: every game plays here, with no network from now on.")));
  const scope = new URL("../../", import.meta.url);
  navigator.serviceWorker.register(new URL("sw.js", scope), {scope: scope.pathname}).then((registration) => {
    const offer = async () => {
      const waiting = registration.waiting;
      if (!waiting || !navigator.serviceWorker.controller || document.querySelector(".app-update")) return;
      const playing = (await every("tables")).length;
      const button = h("button", {type: "button", class: "primary", dataset: {action: "new-version"}, onclick: () => waiting.postMessage("take-the-new-version")}, t("Start the new version"));
      status.after(h("p", {class: "app-update", role: "status"}, t("A new version of the app is ready."), " ",
        playing ? t("Your tables in play cannot be continued by the new version.") : "", " ", button));
    };
    offer();
    registration.addEventListener("updatefound", () => {
      const coming = registration.installing;
      if (coming) {
        coming.addEventListener("statechange", () => {
          if (coming.state === "installed") offer();
          if (coming.state === "redundant" && !registration.waiting) { // a file failed its check: said, never hidden
            status.textContent = t("The app's files could not all be kept for use with no network: open it again later.");
            status.classList.add("error");
          }
        });
      }
    });
  }).catch(() => ready(t("This browser keeps no files for the app here: it plays while this page is open, not with no network.")));
  let reloaded = false;
  const before = navigator.serviceWorker.controller; // none on the first visit: taking control then changes nothing
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloaded || !before) return;
    reloaded = true;
    location.reload();
  });
}

start();
