// @ts-check
// The table page's join form: the table's seats, who sits where, a free seat to take under a name (a signed-in
// player's own), or watching where the table lets anyone watch. Shown before the table's socket opens, and again
// when a seat was given up; table.js connects once a seat is taken.

import {account, api, byId, fill, h, store} from "./dom.js";
import {levelWords} from "./board.js";
import {serverWords, t, tableName, tc} from "./i18n.js";
import {inviteCode, state, tableId} from "./tablestate.js";

const app = byId("app");

/** The join form (with ``message`` said first, where there is one); ``connect()`` opens the table's socket once a
 * seat is taken here, or to watch. */
export async function showJoin(message, connect) {
  let info;
  const invite = inviteCode();
  try {
    info = await api(invite ? `/invites/${encodeURIComponent(invite)}` : `/tables/${encodeURIComponent(tableId)}`);
  } catch (err) {
    fill(app, h("main", {class: "panel"}, h("h1", {}, t("No such table")), h("p", {role: "alert"}, err.message),
      h("p", {}, h("a", {href: "/"}, t("Back to the lobby")))));
    return;
  }
  const me = await account(); // a signed-in player sits under the account's name
  const nameInput = h("input", {id: "join-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname",
    value: me ? me.name : store.get("name", ""), readonly: Boolean(me)});
  const seatSelect = h("select", {id: "join-seat", name: "seat"},
    h("option", {value: ""}, t("any free seat")),
    info.free_seats.map((s) => h("option", {value: String(s)}, tc("seat", "seat {n}", {n: s + 1}))));
  const problem = h("p", {class: "error", role: "alert"}, message ?? "");
  const form = h("form", {class: "panel join", "aria-labelledby": "join-title"},
    h("h1", {id: "join-title"}, t("{table}: take a seat", {table: tableName(info) ?? serverWords(info.title)})),
    h("ul", {class: "seat-list"}, info.seats.map((s) => h("li", {}, t("Seat {number}: {who}", {number: s.seat + 1, who: seatWords(s)})))),
    info.free_seats.length || invite ? [
      h("label", {for: "join-name"}, t("Your name")), nameInput,
      h("label", {for: "join-seat"}, t("Seat")), seatSelect,
      h("button", {type: "submit", class: "primary"}, t("Take the seat")),
    ] : h("p", {}, t("Every seat is taken.")),
    info.settings.spectators ? h("button", {type: "button", id: "watch", onclick: () => { fill(app); connect(); }}, t("Watch the table")) : null,
    problem,
    h("p", {}, h("a", {href: "/"}, t("Back to the lobby"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {name: nameInput.value.trim(), seat: seatSelect.value === "" ? null : Number(seatSelect.value)};
    try {
      const path = invite ? `/invites/${encodeURIComponent(invite)}/join` : `/tables/${encodeURIComponent(tableId)}/join`;
      const joined = await api(path, body);
      store.set("name", body.name);
      store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
      if (invite) store.set(`invite.${joined.table}`, invite);
      if (joined.table !== tableId) {
        location.href = `/table/${encodeURIComponent(joined.table)}`;
        return;
      }
      state.token = joined.token;
      fill(app);
      connect();
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  fill(app, h("main", {}, form));
  nameInput.focus();
}

/** Who sits in a seat, for the join form's list: "Ada, hard bot", "Ann", "free seat". */
function seatWords(s) {
  if (s.kind === "bot") return t("{name}, {role}", {name: s.name, role: levelWords(s.level ?? "bot")});
  return s.taken ? s.name : t("free seat");
}
