// @ts-check
// The offline app's table page: the server's table page (table.js) with the rules in the page answering it
// (offline.js, evaluated first: it hands dom.js the table's socket and the page's requests before the table starts).
// Opened from the lobby with a game (``?game=...&level=...``), the page makes that table first, in its own worker
// (the lobby starts no Python: one start, here), and then stands at it (``?local=ID``), as a reload finds it.

import {byId, fill, h, here, store} from "./dom.js";
import {loadWords, t} from "./i18n.js";
import {newTable} from "./offline.js";

const params = new URLSearchParams(location.search);
if (params.has("game")) {
  try {
    await loadWords(); // the name of a player who gave none is in their language
    const pace = params.get("pace");
    const id = await newTable({game: params.get("game"), name: store.get("name") || t("Player"), level: params.get("level") || "normal",
      coach: params.get("coach") === "1", pace: pace === null || pace === "" ? undefined : Number(pace)});
    store.set(`seat.${id}`, {token: "local", seat: 0});
    history.replaceState(null, "", `table.html?local=${encodeURIComponent(id)}`);
    await import("./table.js");
  } catch (err) {
    await loadWords();
    fill(byId("app"), h("main", {class: "panel"}, h("h1", {}, t("Clubs")), h("p", {role: "alert"}, String(err.message || err)),
      h("a", {href: here("/")}, t("Back to the lobby"))));
  }
} else {
  await import("./table.js");
}
