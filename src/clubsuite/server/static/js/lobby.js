// The lobby: make a table (game, variant, options, seats, house rules), see the open public tables, join by invite
// code. Everything it offers comes from the server (GET /games); the server checks everything it is sent.

import {api, applyColours, byId, colourToggle, fill, h, store} from "./dom.js";

const app = byId("app");
let games = [];

async function start() {
  applyColours();
  try {
    games = await api("/games");
  } catch (err) {
    fill(app, h("main", {class: "panel"}, h("h1", {}, "Clubs"), h("p", {role: "alert"}, err.message)));
    return;
  }
  const tables = h("section", {class: "panel", "aria-labelledby": "open-title"}, h("h2", {id: "open-title"}, "Open tables"), h("p", {}, "Loading\u2026"));
  fill(app,
    h("header", {class: "bar"}, h("a", {href: "/", class: "home"}, "Clubs"), h("h1", {}, "Play Clubs online"),
      h("a", {href: "/replay"}, "Replay a record"), colourToggle()),
    h("main", {class: "lobby"}, createForm(), h("div", {class: "lobby-side"}, tables, inviteForm())));
  refresh(tables);
  setInterval(() => refresh(tables), 5000);
}

// -- making a table ----------------------------------------------------------------------------------------------
function createForm() {
  const gameSelect = h("select", {id: "game", name: "game"}, games.map((g) => h("option", {value: g.name}, g.title)));
  const variantSelect = h("select", {id: "variant", name: "variant"});
  const optionsBox = h("fieldset", {class: "options"});
  const seatsBox = h("fieldset", {class: "seats-config"});
  const nameInput = h("input", {id: "create-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname", value: store.get("name", "")});
  const publicBox = h("input", {type: "checkbox", id: "public", checked: true});
  const watchBox = h("input", {type: "checkbox", id: "spectators", checked: true});
  const hintsBox = h("input", {type: "checkbox", id: "hints"});
  const clockInput = h("input", {type: "number", id: "clock", min: "5", max: "3600", step: "1", placeholder: "none"});
  const graceInput = h("input", {type: "number", id: "grace", min: "0", max: "3600", step: "1", value: "30"});
  const delayInput = h("input", {type: "number", id: "bot-delay", min: "0", max: "10", step: "0.1", value: "0.8"});
  const problem = h("p", {class: "error", role: "alert"});

  const game = () => games.find((g) => g.name === gameSelect.value);

  function effectiveDefaults() {
    const g = game();
    const out = {};
    for (const [key, schema] of Object.entries(g.options)) out[key] = String(schema.default);
    const chosen = variantSelect.value ? g.variant_options[variantSelect.value] : {};
    return {...out, ...chosen};
  }

  function drawOptions() {
    const g = game();
    fill(variantSelect, h("option", {value: ""}, "the standard rules"), g.variants.map((v) => h("option", {value: v}, v)));
    drawOptionFields();
  }

  function drawOptionFields() {
    const g = game();
    const defaults = effectiveDefaults();
    const fields = [];
    for (const [key, schema] of Object.entries(g.options)) {
      const id = `opt-${key}`;
      const label = h("label", {for: id, title: schema.description}, key.replaceAll("_", " "));
      let input;
      if (schema.type === "boolean") {
        input = h("input", {type: "checkbox", id, dataset: {option: key}});
        input.checked = defaults[key] === "true";
      } else if (schema.enum) {
        input = h("select", {id, dataset: {option: key}}, schema.enum.map((v) => h("option", {value: String(v)}, String(v))));
        input.value = defaults[key];
      } else if (schema.type === "integer") {
        input = h("input", {type: "number", id, min: schema.minimum, max: schema.maximum, step: "1", value: defaults[key], dataset: {option: key}});
      } else {
        continue; // a table of numbers (North Star's club points): set it in a rules spec with the command line
      }
      input.addEventListener("change", drawSeats);
      fields.push(h("div", {class: "field"}, label, input, h("small", {}, schema.description)));
    }
    fill(optionsBox, h("legend", {}, "Rules"), h("div", {class: "field"}, h("label", {for: "variant"}, "Variant"), variantSelect), fields);
    drawSeats();
  }

  function chosenOptions() {
    const defaults = effectiveDefaults();
    const out = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const value = input.type === "checkbox" ? String(input.checked) : input.value;
      if (value !== defaults[input.dataset.option]) out[input.dataset.option] = value;
    }
    return out;
  }

  function seatCount() {
    const g = game();
    const players = optionsBox.querySelector('[data-option="players"]');
    return players ? Number(players.value) : g.seats[0];
  }

  function drawSeats() {
    const g = game();
    const n = seatCount();
    const rows = [];
    for (let s = 0; s < n; s += 1) {
      const select = h("select", {id: `seat-${s}`, dataset: {seat: String(s)}},
        h("option", {value: "person"}, s === 0 ? "You" : "A person (a friend joins)"),
        g.bots.map((b) => h("option", {value: `bot:${b}`}, `Bot: ${b}`)));
      select.value = s === 0 ? "person" : g.bots.includes("normal") ? "bot:normal" : `bot:${g.bots[0]}`;
      rows.push(h("div", {class: "field"}, h("label", {for: `seat-${s}`}, `Seat ${s + 1}`), select));
    }
    fill(seatsBox, h("legend", {}, "Seats"), rows);
  }

  gameSelect.addEventListener("change", drawOptions);
  variantSelect.addEventListener("change", drawOptionFields);

  const form = h("form", {class: "panel create", "aria-labelledby": "create-title"},
    h("h2", {id: "create-title"}, "New table"),
    h("div", {class: "field"}, h("label", {for: "game"}, "Game"), gameSelect),
    optionsBox, seatsBox,
    h("fieldset", {}, h("legend", {}, "House rules"),
      h("div", {class: "field check"}, publicBox, h("label", {for: "public"}, "Listed in the lobby (otherwise by invite only)")),
      h("div", {class: "field check"}, watchBox, h("label", {for: "spectators"}, "Spectators may watch")),
      h("div", {class: "field check"}, hintsBox, h("label", {for: "hints"}, "Hints (the heuristic bot's suggestion)")),
      h("div", {class: "field"}, h("label", {for: "clock"}, "Seconds per decision (empty: no clock)"), clockInput),
      h("div", {class: "field"}, h("label", {for: "grace"}, "Seconds before a bot plays for an absent player"), graceInput),
      h("div", {class: "field"}, h("label", {for: "bot-delay"}, "Seconds a bot waits before acting"), delayInput)),
    h("div", {class: "field"}, h("label", {for: "create-name"}, "Your name"), nameInput),
    h("button", {type: "submit", class: "primary"}, "Create the table"),
    problem);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const g = game();
    const opts = chosenOptions();
    const base = variantSelect.value || g.name;
    const spec = Object.keys(opts).length ? `${base}(${Object.entries(opts).map(([k, v]) => `${k}=${v}`).join(",")})` : base;
    const seats = [...seatsBox.querySelectorAll("[data-seat]")].map((sel) => (sel.value === "person" ? {kind: "person"} : {kind: "bot", bot: sel.value.slice(4)}));
    const body = {
      game: spec,
      seats,
      public: publicBox.checked,
      spectators: watchBox.checked,
      hints: hintsBox.checked,
      clock: clockInput.value === "" ? null : Number(clockInput.value),
      grace: Number(graceInput.value),
      bot_delay: Number(delayInput.value),
    };
    const name = nameInput.value.trim();
    try {
      const table = await api("/tables", body);
      store.set(`invite.${table.id}`, table.invite);
      if (seats.some((x) => x.kind === "person")) {
        // by its invite: the way in to a table of either kind (a private one has no other)
        const joined = await api(`/invites/${encodeURIComponent(table.invite)}/join`, {name, seat: seats.findIndex((x) => x.kind === "person")});
        store.set("name", name);
        store.set(`seat.${table.id}`, {token: joined.token, seat: joined.seat});
        location.href = `/table/${encodeURIComponent(table.id)}`;
      } else {
        location.href = `/table/${encodeURIComponent(table.id)}?watch=1`;
      }
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  drawOptions();
  return form;
}

// -- the open tables -----------------------------------------------------------------------------------------------
async function refresh(box) {
  let tables;
  try {
    tables = await api("/tables");
  } catch (err) {
    fill(box, h("h2", {id: "open-title"}, "Open tables"), h("p", {role: "alert"}, err.message));
    return;
  }
  const shown = tables.filter((t) => !t.over || t.free_seats.length);
  fill(box, h("h2", {id: "open-title"}, "Open tables"),
    shown.length === 0 ? h("p", {}, "No public table is open: make one.") : h("ul", {class: "table-list"}, shown.map((t) => h("li", {},
      h("strong", {}, t.title), ` ${t.game} \u00b7 `,
      t.seats.map((s) => (s.kind === "bot" ? `${s.name} (bot)` : s.taken ? s.name : "free")).join(", "),
      " \u00b7 ",
      t.free_seats.length ? h("a", {href: `/table/${encodeURIComponent(t.id)}`}, `Join (${t.free_seats.length} free)`) : null,
      t.free_seats.length && t.settings.spectators ? " \u00b7 " : null,
      t.settings.spectators ? h("a", {href: `/table/${encodeURIComponent(t.id)}?watch=1`}, "Watch") : null))));
}

function inviteForm() {
  const code = h("input", {id: "invite-code", name: "code", required: true, autocomplete: "off"});
  const name = h("input", {id: "invite-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname", value: store.get("name", "")});
  const problem = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel", "aria-labelledby": "invite-title"},
    h("h2", {id: "invite-title"}, "Join with an invite code"),
    h("div", {class: "field"}, h("label", {for: "invite-code"}, "Invite code"), code),
    h("div", {class: "field"}, h("label", {for: "invite-name"}, "Your name"), name),
    h("button", {type: "submit"}, "Join"), problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const joined = await api(`/invites/${encodeURIComponent(code.value.trim())}/join`, {name: name.value.trim()});
      store.set("name", name.value.trim());
      store.set(`seat.${joined.table}`, {token: joined.token, seat: joined.seat});
      store.set(`invite.${joined.table}`, code.value.trim());  // a private table's record and replay need it
      location.href = `/table/${encodeURIComponent(joined.table)}`;
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  return form;
}

start();
