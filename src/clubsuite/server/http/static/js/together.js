// @ts-check
// People together and kept safe, as the pages show it: on another player's profile, follow, mute, block and report
// them; on one's own, who may invite you and see you online, the players you follow (online, and at which table),
// and those you blocked or muted; the form that invites a player to your table or a tournament; the form that
// reports a message or a player. Nothing here shows anyone whom another account blocked or muted.

import {api, h} from "./dom.js";
import {t} from "./i18n.js";

const REASON_MAX = 500;

/** A refusal in the reader's words, by its code (the server's words for another). */
export function togetherWords(err) {
  switch (err.code) {
    case "already_reported": return t("You have reported this player already: a moderator will look.");
    case "rate_limited": return t("Too many at once: wait a little and try again.");
    case "no_player": return t("There is no player of that name.");
    case "yourself": return t("That is you.");
    case "no_message": return t("That message can no longer be reported (it is gone, or its writer has no account).");
    case "no_table": return t("You hold no seat at this table.");
    default: return err.message;
  }
}

/** The buttons on another player's profile: follow, mute, block (each undone by a second press) and report. */
export async function relationPart(name) {
  let lists;
  try {
    lists = await api("/account/people");
  } catch {
    return null; // signed out: nothing to offer
  }
  const problem = h("p", {class: "error", role: "alert"});
  const said = h("p", {class: "muted", id: "together-said", role: "status"});
  const box = h("section", {class: "together", "aria-labelledby": "together-title"});
  const draw = () => {
    const is = (kind) => lists[kind].includes(name);
    const button = (kind, on, off) => h("button", {type: "button", id: `p-${kind}`, "aria-pressed": is(kind) ? "true" : "false",
      onclick: async () => {
        problem.textContent = "";
        said.textContent = "";
        const followed = is("follow");
        try {
          lists = await api(`/players/${encodeURIComponent(name)}/${is(kind) ? "un" : ""}${kind}`, {});
          // a block ends one's following of the player: said, never done silently
          if (kind === "block" && followed && is("block") && !is("follow")) said.textContent = t("You blocked {name} and no longer follow them.", {name});
          draw();
        } catch (err) {
          problem.textContent = togetherWords(err);
        }
      }}, is(kind) ? off : on);
    box.replaceChildren(h("h2", {id: "together-title"}, t("You and {name}", {name})),
      h("div", {class: "summary-actions"},
        button("follow", t("Follow"), t("Following: stop")),
        button("mute", t("Mute their chat"), t("Muted: unmute")),
        button("block", t("Block"), t("Blocked: unblock"))),
      h("p", {class: "muted"}, t("Blocking hides their chat and invitations from you and keeps you apart at rated tables and in tournaments; they are not told."),
        is("follow") && !is("block") ? [" ", t("Blocking also ends your following of them.")] : null),
      said,
      reportForm({kind: "player", player: name}, () => api("/account/people").then((x) => { lists = x; draw(); })),
      problem);
  };
  draw();
  return box;
}

/** A form that reports ``what`` (``{kind, player}`` or ``{kind: "message", table, message}``), folded behind a
 * button; ``done`` is called once it is sent. */
export function reportForm(what, done = () => {}) {
  const reason = h("textarea", {class: "report-reason", maxlength: String(REASON_MAX), rows: "2"});
  const block = h("input", {type: "checkbox", checked: true});
  const problem = h("p", {class: "error", role: "alert"});
  const send = h("button", {type: "submit", class: "primary"}, t("Send the report"));
  // a player is reported for what they did, or for their name
  const about = what.kind === "message" ? null : h("select", {class: "report-kind"},
    h("option", {value: "player"}, t("What they did")), h("option", {value: "name"}, t("Their name")));
  const form = h("form", {class: "report-form", hidden: true, novalidate: true},
    about ? h("label", {}, t("What you report"), about) : null,
    h("label", {}, t("What happened (a few words)"), reason),
    h("label", {class: "check"}, block, " ", t("Also block them")),
    send, problem);
  const open = h("button", {type: "button", class: "report-open", "aria-expanded": "false"}, t("Report"));
  open.addEventListener("click", () => {
    form.hidden = !form.hidden;
    open.setAttribute("aria-expanded", form.hidden ? "false" : "true");
    if (!form.hidden) reason.focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    send.disabled = true;
    try {
      const said = {reason: reason.value.trim(), block: block.checked};
      // a message is reported at its table's own address, which reaches the server process that keeps its chat
      if (what.kind === "message") await api(`/tables/${encodeURIComponent(what.table)}/reports`, {message: what.message, ...said});
      else await api("/reports", {kind: about.value, player: what.player, ...said});
      form.replaceChildren(h("p", {role: "status"}, t("Thank you: a moderator will look.")));
      done();
    } catch (err) {
      problem.textContent = togetherWords(err);
      send.disabled = false;
    }
  });
  return h("div", {class: "report"}, open, form);
}

/** A form that invites a player to ``target`` (``{table}`` or ``{tournament}``). */
export function inviteForm(target) {
  const name = h("input", {type: "text", maxlength: "24", autocomplete: "off", "aria-label": t("The player's name"), placeholder: t("A player's name")});
  const status = h("p", {class: "muted invite-status", role: "status"});
  const form = h("form", {class: "invite-form", novalidate: true},
    h("span", {class: "invite-label"}, t("Invite a player")), name, h("button", {type: "submit"}, t("Invite")), status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const who = name.value.trim();
    if (!who) return;
    try {
      const sent = target.table  // at the table's own address, whichever server process serves it
        ? await api(`/tables/${encodeURIComponent(target.table)}/invitations`, {to: who})
        : await api("/invitations", {to: who, ...target});
      status.textContent = t("Invitation sent to {name}.", {name: sent.invited});
      name.value = "";
    } catch (err) {
      status.textContent = togetherWords(err);
    }
  });
  return form;
}

/** One's own people: privacy, the players followed (online, at which table), and those blocked or muted. */
export async function ownPeoplePart() {
  const [people, friends] = await Promise.all([api("/account/people"), api("/friends")]);
  const choice = (id, value) => h("select", {id},
    h("option", {value: "everyone"}, t("Everyone")),
    h("option", {value: "following"}, t("The players I follow")),
    h("option", {value: "nobody"}, t("Nobody")));
  const invites = choice("privacy-invites");
  const presence = choice("privacy-presence");
  invites.value = people.privacy.invites;
  presence.value = people.privacy.presence;
  const saved = h("p", {class: "muted", role: "status"});
  const save = async () => {
    try {
      await api("/account/privacy", {invites: invites.value, presence: presence.value});
      saved.textContent = t("Saved.");
    } catch (err) {
      saved.textContent = err.message;
    }
  };
  invites.addEventListener("change", save);
  presence.addEventListener("change", save);
  const online = (f) => {
    if (f.online === null) return t("does not show when online");
    if (!f.online) return t("offline");
    if (f.table && f.table !== "private") return h("a", {href: `/table/${encodeURIComponent(f.table)}?watch=1`}, t("playing: watch"));
    return f.table === "private" ? t("playing") : t("online");
  };
  const undo = (kind, who) => h("button", {type: "button", class: "link-button", onclick: async (event) => {
    await api(`/players/${encodeURIComponent(who)}/un${kind}`, {});
    event.currentTarget.closest("li").remove();
  }}, kind === "block" ? t("unblock") : t("unmute"));
  return h("section", {class: "together", "aria-labelledby": "people-title"},
    h("h2", {id: "people-title"}, t("People")),
    h("div", {class: "field"}, h("label", {for: "privacy-invites"}, t("Who may invite you")), invites),
    h("div", {class: "field"}, h("label", {for: "privacy-presence"}, t("Who sees when you are online")), presence),
    saved,
    h("h3", {}, t("Players you follow")),
    friends.friends.length ? h("ul", {class: "friends", id: "friends"}, friends.friends.map((f) => h("li", {},
      h("a", {href: `/player/${encodeURIComponent(f.name)}`}, f.name), " ", h("span", {class: "muted"}, online(f)))))
      : h("p", {class: "muted"}, t("You follow nobody yet: follow a player from their page.")),
    h("h3", {}, t("Blocked")),
    people.block.length ? h("ul", {id: "blocked"}, people.block.map((n) => h("li", {}, n, " ", undo("block", n))))
      : h("p", {class: "muted"}, t("Nobody.")),
    h("h3", {}, t("Muted")),
    people.mute.length ? h("ul", {id: "muted"}, people.mute.map((n) => h("li", {}, n, " ", undo("mute", n))))
      : h("p", {class: "muted"}, t("Nobody.")));
}
