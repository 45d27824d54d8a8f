// @ts-check
// "Turn-based play" on one's own profile page: what the clocks of one's turn-based tables count and how one is
// reminded (GET and PUT /account/turns): the time zone (the browser's by default), the playing hours (a clock stops
// outside them: night), the reminders (a notice on the site's pages, a push to this device, a daily e-mail to a
// confirmed address, in a chosen language, at most so many pushes a day), and vacations (every clock stops: take some
// days, end one early, the days left). A push is offered only where the server sends them (``push_available``) and
// the browser can receive them: the service worker (/push-sw.js) is registered, subscribed with the server's key and
// the subscription sent (POST /push/subscriptions).

import {api, h} from "./dom.js";
import {LANGUAGES, language, t, tn} from "./i18n.js";

/** The browser's time zone ("Europe/Berlin"), or UTC where it says none. */
export function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Minutes after midnight as a time field's value: 480 -> "08:00". */
function clockText(minutes) {
  const m = ((Number(minutes) || 0) % 1440 + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

/** A time field's value in minutes after midnight ("08:00" -> 480), or null. */
function minutesOf(text) {
  const m = /^(\d{1,2}):(\d{2})/.exec(text || "");
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** A moment as a date and time in the reader's language. */
function moment(seconds) {
  return new Date(seconds * 1000).toLocaleString(language(), {dateStyle: "medium", timeStyle: "short"});
}

/** A base64url key (the server's VAPID public key) as the bytes a push subscription wants. */
function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Whether this browser can take pushes (a service worker, the Push API, notifications, a secure page). */
function pushPossible() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The service worker that shows the pushes, registered with the reader's words for them. */
async function pushWorker() {
  const words = new URLSearchParams({
    your_turn: t("Your turn: {title}"), body: t("Open the table to play your move."),
    over: t("Match over: {title}"), over_body: t("Your place: {place} of {of}."), won_body: t("You won."),
  });
  await navigator.serviceWorker.register(`/push-sw.js?${words}`, {scope: "/"});
  return navigator.serviceWorker.ready;
}

/** The section, for the signed-in account (null where the server has no turn-based settings to give);
 * ``deviceWords(agent)`` names this browser in a few words (the subscription's label). */
export async function turnSettingsPart(deviceWords) {
  let prefs;
  try {
    prefs = await api("/account/turns");
  } catch {
    return null;
  }
  const box = h("section", {class: "turn-settings", id: "turn-settings", "aria-labelledby": "turn-settings-title"});
  const draw = () => box.replaceChildren(...parts(prefs, deviceWords, async (fresh) => { prefs = fresh ?? await api("/account/turns"); draw(); }));
  draw();
  return box;
}

function parts(prefs, deviceWords, again) {
  const problem = h("p", {class: "error", role: "alert"});
  const told = h("p", {class: "told", role: "status"});
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zoneNow = prefs.zone || browserZone();
  const zone = zones.length
    ? h("select", {id: "turn-zone"}, [...new Set([zoneNow, ...zones])].sort().map((z) => h("option", {value: z}, z.replace(/_/g, " "))))
    : h("input", {id: "turn-zone", autocomplete: "off"});
  zone.value = zoneNow;
  const from = h("input", {type: "time", id: "turn-from", step: "900", value: clockText(prefs.day_start)});
  const until = h("input", {type: "time", id: "turn-until", step: "900", value: clockText(prefs.day_end)});
  const check = (id, on) => { const box = h("input", {type: "checkbox", id}); box.checked = Boolean(on); return box; };
  const page = check("turn-page", prefs.page);
  const push = check("turn-push", prefs.push);
  const mail = check("turn-mail", prefs.mail);
  const email = h("input", {type: "email", id: "turn-email", autocomplete: "email", maxlength: "254", value: prefs.email || ""});
  const perDay = h("input", {type: "number", id: "turn-push-per-day", min: "1", max: "50", step: "1", inputmode: "numeric", value: String(prefs.push_per_day ?? 3)});
  const lang = h("select", {id: "turn-lang"}, Object.entries(LANGUAGES).map(([code, name]) => h("option", {value: code, lang: code}, name)));
  lang.value = prefs.lang || language();
  const save = h("button", {type: "submit", class: "primary"}, t("Save"));
  const form = h("form", {class: "panel turn-form", novalidate: true, "aria-labelledby": "turn-clock-title"},
    h("h3", {id: "turn-clock-title"}, t("Your clock")),
    h("div", {class: "field"}, h("label", {for: "turn-zone"}, t("Time zone")), zone,
      prefs.zone && prefs.zone !== browserZone() ? h("small", {}, t("This device is set to {zone}.", {zone: browserZone().replace(/_/g, " ")})) : null),
    h("div", {class: "turn-hours"},
      h("div", {class: "field"}, h("label", {for: "turn-from"}, t("Playing hours: from")), from),
      h("div", {class: "field"}, h("label", {for: "turn-until"}, t("until")), until)),
    h("p", {class: "muted"}, t("Outside your playing hours your clock stops (night), and nobody is reminded of your move.")),
    h("h3", {}, t("Reminders when it is your turn")),
    h("div", {class: "field check"}, page, h("label", {for: "turn-page"}, t("A notice on the site's pages"))),
    prefs.push_available ? [
      h("div", {class: "field check"}, push, h("label", {for: "turn-push"}, t("A push notification to the devices you allow"))),
      pushPart(prefs, perDay, deviceWords, again)] : null,
    prefs.mail_available ? [
      h("div", {class: "field check"}, mail, h("label", {for: "turn-mail"}, t("A daily e-mail of the tables waiting for you"))),
      h("div", {class: "field"}, h("label", {for: "turn-email"}, t("E-mail address")), email,
        h("small", {id: "turn-email-note"}, prefs.email && prefs.email_confirmed ? t("Confirmed.")
          : prefs.email ? t("Not confirmed yet: follow the link in the e-mail we sent to it. Nothing else is sent before.")
            : t("We send a link to confirm it; nothing else is sent before you follow it."))),
      h("div", {class: "field"}, h("label", {for: "turn-lang"}, t("Language of the e-mails")), lang),
    ] : null,
    save, told, problem);
  email.setAttribute("aria-describedby", "turn-email-note");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = told.textContent = "";
    const start = minutesOf(from.value), end = minutesOf(until.value);
    if (start === null || end === null) {
      problem.textContent = t("Playing hours: give a time for both, e.g. 08:00 and 22:00.");
      (start === null ? from : until).focus();
      return;
    }
    const body = {zone: zone.value.trim() || browserZone(), day_start: start, day_end: end, page: page.checked};
    if (prefs.push_available) {
      const n = Number(perDay.value);
      if (!Number.isInteger(n) || n < Number(perDay.min) || n > Number(perDay.max)) {
        problem.textContent = t("Pushes a day: give a whole number from {low} to {high}", {low: perDay.min, high: perDay.max});
        perDay.focus();
        return;
      }
      Object.assign(body, {push: push.checked, push_per_day: n});
    }
    if (prefs.mail_available) {
      if (mail.checked && !email.value.trim()) {
        problem.textContent = t("E-mail address: give one for the daily e-mail.");
        email.focus();
        return;
      }
      Object.assign(body, {mail: mail.checked, email: email.value.trim() || null, lang: lang.value});
    }
    save.disabled = true;
    try {
      const fresh = await api("/account/turns", body, "PUT");
      await again(fresh && typeof fresh === "object" && "zone" in fresh ? fresh : null);
      const said = document.querySelector("#turn-settings .told");
      if (said) said.textContent = t("Saved.");
    } catch (err) {
      problem.textContent = err.message;
      save.disabled = false;
    }
  });
  return [h("h2", {id: "turn-settings-title"}, t("Turn-based play")),
    h("p", {class: "muted"}, t("At a turn-based table each move may take hours or days. Your clock counts only during your playing hours, in your time zone, and stops while you are on vacation.")),
    form, vacationPart(prefs, again)];
}

/** Pushes to this device: allowed (the service worker registered and subscribed), or stopped; how many a day. */
function pushPart(prefs, perDay, deviceWords, again) {
  const problem = h("p", {class: "error", role: "alert"});
  const possible = pushPossible();
  const allow = h("button", {type: "button", id: "push-allow", disabled: !possible}, t("Send pushes to this device"));
  const stop = h("button", {type: "button", id: "push-stop"}, t("Stop pushes to this device"));
  const here = h("span", {class: "muted", id: "push-here"});
  allow.addEventListener("click", async () => {
    problem.textContent = "";
    allow.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") throw new Error(t("This browser does not allow this site's notifications: allow them in its settings, then try again."));
      const worker = await pushWorker();
      const sub = await worker.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(prefs.push_key)});
      const json = sub.toJSON();
      await api("/push/subscriptions", {endpoint: json.endpoint, keys: {p256dh: json.keys.p256dh, auth: json.keys.auth}, label: deviceWords(navigator.userAgent)});
      if (!prefs.push) await api("/account/turns", {push: true}, "PUT");
      await again(null);
    } catch (err) {
      problem.textContent = err.message;
      allow.disabled = false;
    }
  });
  stop.addEventListener("click", async () => {
    problem.textContent = "";
    stop.disabled = true;
    try {
      const worker = await navigator.serviceWorker.getRegistration("/");
      const sub = worker ? await worker.pushManager.getSubscription() : null;
      if (sub) {
        await api("/push/subscriptions/delete", {endpoint: sub.endpoint});
        await sub.unsubscribe();
      }
      await again(null);
    } catch (err) {
      problem.textContent = err.message;
      stop.disabled = false;
    }
  });
  const part = h("div", {class: "push-part"},
    h("p", {class: "push-line"}, allow, " ", stop, " ", here),
    possible ? null : h("p", {class: "muted"}, t("This browser cannot take pushes here (they need a secure page and a browser that supports them).")),
    h("div", {class: "field"}, h("label", {for: "turn-push-per-day"}, t("Pushes a day, at most")), perDay),
    problem);
  stop.hidden = true;
  if (possible && prefs.push_key) {
    navigator.serviceWorker.getRegistration("/").then(async (worker) => {
      const sub = worker ? await worker.pushManager.getSubscription() : null;
      allow.hidden = Boolean(sub && prefs.push);
      stop.hidden = !sub;
      here.textContent = sub && prefs.push ? t("This device gets pushes.") : "";
    }).catch(() => null);
  } else {
    allow.disabled = true;
  }
  return part;
}

/** Vacations: those planned or under way (each ended early with a button), the days left, and taking some. */
function vacationPart(prefs, again) {
  const problem = h("p", {class: "error", role: "alert"});
  const now = typeof prefs.now === "number" ? prefs.now : Date.now() / 1000;
  const list = (prefs.vacations || []).filter((v) => v.ends > now);
  const days = h("input", {type: "number", id: "vacation-days", min: "1", max: String(Math.max(1, prefs.vacation_days_left || 1)), step: "1", inputmode: "numeric", value: "7"});
  const starts = h("input", {type: "date", id: "vacation-starts"});
  const take = h("button", {type: "submit", disabled: !(prefs.vacation_days_left > 0)}, t("Take the vacation"));
  const form = h("form", {class: "vacation-form", novalidate: true},
    h("div", {class: "turn-hours"},
      h("div", {class: "field"}, h("label", {for: "vacation-days"}, t("Days of vacation")), days),
      h("div", {class: "field"}, h("label", {for: "vacation-starts"}, t("Starting (empty: now)")), starts)),
    take, problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const n = Number(days.value);
    if (!Number.isInteger(n) || n < 1 || n > prefs.vacation_days_left) {
      problem.textContent = t("Days of vacation: give a whole number from {low} to {high}", {low: 1, high: prefs.vacation_days_left});
      days.focus();
      return;
    }
    const body = {days: n};
    if (starts.value) body.starts = new Date(`${starts.value}T00:00`).getTime() / 1000;
    take.disabled = true;
    try {
      await api("/account/vacations", body);
      await again(null);
    } catch (err) {
      problem.textContent = err.message;
      take.disabled = false;
    }
  });
  return h("div", {class: "panel vacations", "aria-labelledby": "vacation-title"},
    h("h3", {id: "vacation-title"}, t("Vacation")),
    h("p", {}, t("While you are on vacation every clock of yours stops, at every turn-based table."), " ",
      h("strong", {id: "vacation-left"}, tn("{n} day of vacation left (in any 365 days).", "{n} days of vacation left (in any 365 days).", prefs.vacation_days_left ?? 0))),
    list.length ? h("ul", {class: "vacation-list"}, list.map((v) => {
      const end = h("button", {type: "button", dataset: {vacation: String(v.id)}}, v.starts <= now ? t("End it now") : t("Call it off"));
      end.addEventListener("click", async () => {
        end.disabled = true;
        try {
          await api(`/account/vacations/${encodeURIComponent(v.id)}/end`, {});
          await again(null);
        } catch (err) {
          problem.textContent = err.message;
          end.disabled = false;
        }
      });
      return h("li", {}, v.starts <= now ? t("On vacation until {end}", {end: moment(v.ends)})
        : t("From {start} to {end}", {start: moment(v.starts), end: moment(v.ends)}), " ", end);
    })) : null,
    form);
}
