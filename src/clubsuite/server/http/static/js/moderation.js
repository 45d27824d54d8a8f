// @ts-check
// The moderators' page (/moderation): the open reports, oldest first, each with who reported whom, why, and the
// message with the lines around it as the server kept it; an action on each (warn, mute for some hours, ban from
// chat, close the account, dismiss) with the reason the player is told. The closed ones, newest first, one click
// away. Only the accounts the operator made moderators see it (clubs admin moderator).

import {account, api, byId, fill, h, pageTitle} from "./dom.js";
import {loadWords, t} from "./i18n.js";
import {applyColours, bar, when} from "./people.js";

const app = byId("app");
let status = "open";

function actionWords(action) {
  switch (action) {
    case "warn": return t("Warn");
    case "mute": return t("Mute");
    case "chat_ban": return t("Ban from chat");
    case "close": return t("Close the account");
    case "dismiss": return t("Dismiss");
    default: return action;
  }
}

function kindWords(kind) {
  switch (kind) {
    case "message": return t("a message");
    case "name": return t("a name");
    default: return t("a player");
  }
}

function reportView(r) {
  const context = r.context || {};
  const lines = Array.isArray(context.lines) ? context.lines : [];
  const reason = h("input", {type: "text", maxlength: "500", "aria-label": t("Why (the player is told)"), placeholder: t("Why (the player is told)")});
  const hours = h("input", {type: "number", min: "1", max: "2160", value: "24", "aria-label": t("Hours of the mute")});
  const problem = h("p", {class: "error", role: "alert"});
  const act = async (action, button) => {
    button.disabled = true;
    try {
      await api(`/moderation/reports/${encodeURIComponent(r.id)}`,
        {action, reason: reason.value.trim(), hours: action === "mute" ? Number(hours.value) : null});
      draw();
    } catch (err) {
      problem.textContent = err.message;
      button.disabled = false;
    }
  };
  const buttons = ["warn", "mute", "chat_ban", "close", "dismiss"].map((a) =>
    h("button", {type: "button", class: a === "close" ? "danger" : "", dataset: {action: a}, onclick: (e) => act(a, e.currentTarget)}, actionWords(a)));
  return h("li", {class: "report-item panel", dataset: {id: r.id}},
    h("p", {}, h("strong", {}, r.subject), " · ", kindWords(r.kind), " · ",
      t("reported by {name}", {name: r.reporter}), " · ", h("span", {class: "muted"}, when(r.at)),
      r.open_reports > 1 ? h("span", {class: "tag"}, t("{n} open reports", {n: r.open_reports})) : null,
      // by someone at the table when the line was said, with standing: see docs/server.md, "Keeping people safe"
      r.counts ? h("span", {class: "tag"}, t("counts toward the automatic mute")) : null),
    r.reason ? h("p", {}, t("Why: {reason}", {reason: r.reason})) : null,
    context.name && r.kind !== "message" ? h("p", {}, t("Name: {name}", {name: context.name})) : null,
    lines.length ? h("ol", {class: "report-lines"}, lines.map((line) => h("li", {class: line.id === (context.line || {}).id ? "reported" : ""},
      h("bdi", {class: "chat-name"}, line.name), ": ", h("bdi", {dir: "auto"}, line.text)))) : null,
    r.status === "open"
      ? h("div", {class: "moderate"}, reason, h("label", {}, hours, " ", t("hours (a mute)")), h("div", {class: "summary-actions"}, buttons), problem)
      : h("p", {class: "muted"}, t("Dealt with: {action}, by {name}", {action: actionWords(r.outcome), name: r.handled_by || t("the operator")})));
}

async function draw() {
  let found;
  try {
    found = await api(`/moderation/reports?status=${status}`);
  } catch (err) {
    fill(byId("moderation"), h("p", {role: "alert"}, err.message));
    return;
  }
  const toggle = h("button", {type: "button", id: "toggle-closed", onclick: () => { status = status === "open" ? "closed" : "open"; draw(); }},
    status === "open" ? t("Show the reports dealt with") : t("Show the open reports"));
  fill(byId("moderation"),
    h("h2", {}, status === "open" ? t("Open reports") : t("Reports dealt with")), toggle,
    found.reports.length ? h("ul", {class: "reports", id: "reports"}, found.reports.map(reportView)) : h("p", {class: "muted"}, t("No reports.")));
}

async function start() {
  applyColours();
  await loadWords();
  pageTitle("moderation");
  const me = await account();
  fill(app, await bar(t("Moderation")), h("main", {class: "people", id: "moderation"},
    me ? h("p", {class: "muted"}, t("Loading…")) : h("p", {}, t("Sign in first."))));
  if (me) await draw();
}

start();
