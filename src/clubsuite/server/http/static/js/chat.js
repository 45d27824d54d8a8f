// @ts-check
// The table's chat: the lines said at the table, a field and quick phrases to say one, and a mute per person.
//
// Every line is text: names and messages go into the page through dom.js's h(), as text nodes inside <bdi> (so a
// right-to-left message cannot turn the name or the punctuation around it), never as markup. The panel is one
// element for the life of the page: table.js redraws the whole table often and appends panel() each time, so what is
// being typed, the focus and the scroll position survive the redraw.
//
// Channels (the server decides who receives what): a seat's line reaches everyone at the table, a spectator's only
// the spectators, so a spectator sees both (the spectators' lines are marked) and a player only the players'.
// Muting is this browser's alone: the muted people's lines are hidden, and the choice is kept per table.
//
// The panel's words are in the reader's language (i18n.js). The chat is made when table.js loads, before the
// language's words are: its fixed words are put (again) each time the panel is drawn. A quick phrase is said in the
// sayer's language.

import {account, h} from "./dom.js";
import {language, t} from "./i18n.js";
import {inviteForm, reportForm} from "./together.js";

const MAX_CHARS = 200; // the server's limit, in characters once composed
const KEEP = 100; // lines kept on the page, as many as the server keeps

/** The quick phrases, in the reader's language. */
function phraseWords() {
  return [t("Hello!"), t("Good luck"), t("Well played"), t("Thanks"), t("Oops"), t("Good game")];
}
/** The server's refusal of a line (``bad_chat``, ``rate_limited``, ``chat_refused``) as a sentence in the reader's
 * language. The server words the chat's rules in English (protocol.py's chat_text, chat.py's rate): each one this
 * page knows is said as the page says its own; any other is the server's words made a sentence (a capital, a stop). */
export function refusalWords(msg) {
  const text = String(msg.message ?? "").trim();
  if (msg.code === "bad_chat") {
    if (/words this site does not accept/.test(text)) return t("Your message was not sent: it holds a word this site does not accept.");
    if (/cannot be blank/.test(text)) return t("A chat message cannot be blank.");
    if (/control or invisible/.test(text)) return t("A chat message may not contain control or invisible formatting characters.");
    const long = /at most ([0-9]+) characters/.exec(text);
    if (long) return t("A chat message has at most {max} characters.", {max: Number(long[1])});
  }
  if (msg.code === "chat_refused") { // a moderator's mute or ban (moderation.py's chat_refusal): its reason as written
    const muted = /^you may not chat until ([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}) UTC: ([\s\S]*)$/.exec(text);
    if (muted) {
      const [y, mo, d, hh, mm] = muted.slice(1, 6).map(Number);
      const when = new Date(Date.UTC(y, mo - 1, d, hh, mm)).toLocaleString(language(), {dateStyle: "medium", timeStyle: "short"});
      return t("You may not chat until {when}. The moderators' reason: {reason}", {when, reason: muted[6]});
    }
    const banned = /^you may not chat (?:on this site|until further notice): ([\s\S]*)$/.exec(text);
    if (banned) return t("You may not chat on this site. The moderators' reason: {reason}", {reason: banned[1]});
  }
  if (msg.code === "rate_limited" && /chat/.test(text)) {
    return t("Too many chat messages: at most {burst} at once and one a second after that. Wait a moment.", {burst: BURST});
  }
  if (!text) return t("The message was refused.");
  const sentence = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u; // what the server refuses: control and invisible formatting characters
const RATE = 1; // lines a second on average, and ...
const BURST = 5; // ... at once: the server's chat rate, kept here too so that a flood stops before it is sent

/** ``el``'s text made ``text``, left alone where it is that already. */
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** ``el``'s attribute ``name`` made ``value``, left alone where it is that already. */
function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** The chat of one table: {load, receive, panel, unread, owns, refused} (see table.js). */
export function createChat({send, tableId, store}) {
  const muteKey = `chatMute.${tableId}`;
  const openKey = "chatOpen";
  let seat = null; // the receiver's seat; null while watching
  let ownName = null; // the name the receiver's seat goes by
  let lines = []; // the lines shown, oldest first
  const muted = new Set(asList(store.get(muteKey, [])));
  let open = store.get(openKey, true) !== false;
  let seenId = 0; // the last line id read with the panel open (the unread count counts those after it)
  let outstanding = 0; // own lines sent and neither echoed nor refused yet
  let bucket = {level: BURST, at: Date.now()};
  let scrolling = null; // where the list was scrolled to before this frame's drawings, till they are done
  let signedIn = false; // a signed-in reader may report a line, and, seated, invite a player to the table

  const list = h("ol", {class: "chat-lines", role: "log", "aria-live": "polite"});
  const mutedRow = h("p", {class: "chat-muted"});
  const problem = h("p", {class: "error chat-error", role: "alert"});
  const input = h("input", {
    type: "text", class: "chat-input", maxlength: String(MAX_CHARS), autocomplete: "off", enterkeyhint: "send",
  });
  input.addEventListener("input", () => { problem.textContent = ""; });
  const sendButton = h("button", {type: "submit", class: "primary"});
  const form = h("form", {class: "chat-form"}, input, sendButton);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (say(input.value)) input.value = "";
  });
  const phraseButtons = phraseWords().map((_, i) => h("button", {type: "button", class: "chat-phrase", onclick: () => say(phraseWords()[i])}));
  const phrases = h("div", {class: "chat-phrases", role: "group"}, phraseButtons);
  const inviting = h("div", {class: "chat-invite"});
  const body = h("div", {class: "chat-body", id: `chat-body-${tableId}`}, list, mutedRow, phrases, form, problem, inviting);
  const toggle = h("button", {type: "button", class: "chat-toggle", "aria-controls": body.id, onclick: () => setOpen(!open)});
  const title = h("h2", {});
  const box = h("section", {class: "chat"}, h("div", {class: "chat-head"}, title, toggle), body);

  draw();
  account().then((me) => { signedIn = Boolean(me); draw(); });
  // a line's report form, opened, is brought whole into sight (the side column and the list scroll, the page never)
  list.addEventListener("click", (event) => {
    const opener = event.target instanceof Element ? event.target.closest(".report-open") : null;
    const form = opener ? opener.parentElement.querySelector(".report-form") : null;
    if (form && !form.hidden) form.scrollIntoView({block: "nearest"});
  });

  /** The panel's fixed words, in the language loaded now (each put only where it changed: the panel is labelled at
   * every drawing of the table, and a text put again, even the same, has the page laid out again). */
  function label() {
    setAttr(list, "aria-label", t("what was said"));
    setAttr(input, "placeholder", t("Say something\u2026"));
    setAttr(input, "aria-label", t("Chat message"));
    setText(sendButton, t("Send"));
    setAttr(phrases, "aria-label", t("quick phrases"));
    phraseWords().forEach((text, i) => { setText(phraseButtons[i], text); });
    setAttr(box, "aria-label", t("chat"));
    setText(title, t("Chat"));
  }

  function asList(value) {
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
  }

  /** The mute key of a line's speaker: a seat's person by name, a spectator by label. */
  function who(line) {
    return `${line.channel === "spectators" ? "s" : "p"}:${line.name}`;
  }

  function mine(line) {
    // the server marks the speaker's own copy; a kept line (from the history) is one's own when it was said from
    // this seat under this name (not by whoever held the seat before)
    return line.mine === true || (seat !== null && line.channel === "players" && line.seat === seat && line.name === ownName);
  }

  function shown(line) {
    return mine(line) || !muted.has(who(line));
  }

  function setOpen(value) {
    open = value;
    store.set(openKey, open);
    draw();
    if (open) list.scrollTop = list.scrollHeight;
  }

  function setMuted(key, on) {
    if (on) muted.add(key);
    else muted.delete(key);
    store.set(muteKey, muted.size ? [...muted] : null);
    draw();
  }

  /** Send ``text`` as a line, after the checks the server makes (it checks again); whether it was sent. */
  function say(raw) {
    const text = String(raw).normalize("NFC").trim();
    let refusal = null;
    if (!text) refusal = t("A chat message cannot be blank.");
    else if (REFUSED.test(text)) refusal = t("A chat message may not contain control or invisible formatting characters.");
    else if ([...text].length > MAX_CHARS) refusal = t("A chat message has at most {max} characters.", {max: MAX_CHARS});
    else if (!take()) refusal = t("Too many chat messages: at most {burst} at once and one a second after that. Wait a moment.", {burst: BURST});
    else if (!send({type: "chat", protocol: 1, text})) refusal = t("Not connected: the message was not sent.");
    problem.textContent = refusal ?? "";
    if (refusal) return false;
    outstanding += 1;
    return true;
  }

  /** Take one line's worth from this page's own rate bucket. */
  function take() {
    const now = Date.now();
    bucket = {level: Math.min(BURST, bucket.level + ((now - bucket.at) / 1000) * RATE), at: now};
    if (bucket.level < 1) return false;
    bucket.level -= 1;
    return true;
  }

  function lineView(line) {
    const own = mine(line);
    const when = new Date(line.at * 1000);
    const head = h("span", {class: "chat-who"},
      h("bdi", {class: "chat-name"}, own ? t("You") : line.name),
      line.channel === "spectators" ? h("span", {class: "chat-tag"}, t("spectator")) : null,
      h("time", {datetime: when.toISOString()}, when.toLocaleTimeString(language(), {hour: "2-digit", minute: "2-digit"})),
      own ? null : h("button", {
        type: "button", class: "chat-mute", "aria-label": t("Mute {name}", {name: line.name}),
        onclick: () => setMuted(who(line), true),
      }, t("mute")));
    const report = own || !signedIn ? null : reportForm({kind: "message", table: tableId, message: line.id});
    return h("li", {class: `chat-line${own ? " mine" : ""}`, dataset: {id: String(line.id), channel: line.channel}},
      head, h("bdi", {class: "chat-text", dir: "auto"}, line.text), report);
  }

  function draw() {
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    list.dataset.empty = t("No messages yet."); // shown by the style sheet while the list is empty
    list.replaceChildren(...lines.filter(shown).map(lineView));
    const mutedWord = t("Muted:");
    mutedRow.replaceChildren(...(muted.size ? [`${mutedWord} `, ...[...muted].map((key) => {
      const name = key.slice(2);
      return h("button", {type: "button", class: "chat-unmute", "aria-label": t("Unmute {name}", {name}),
        onclick: () => setMuted(key, false)}, t("unmute {name}", {name}));
    })] : []));
    if (atEnd) list.scrollTop = list.scrollHeight;
    const wanted = signedIn && seat !== null;
    if (wanted && !inviting.firstChild) inviting.append(inviteForm({table: tableId}));
    if (!wanted) inviting.replaceChildren();
    body.hidden = !open;
    box.classList.toggle("closed", !open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    refresh();
  }

  /** The lines not read yet: those said (by others, not muted) since the lines were last on the screen. */
  function unread() {
    return lines.filter((l) => l.id > seenId && !mine(l) && shown(l)).length;
  }

  /** Count what is on the screen as read (the panel may be collapsed here, or out of sight in a closed drawer on a
   * phone), and show the count of the rest on the toggle. */
  function refresh() {
    // on the screen is asked only where a line is still unread (asking lays the page out)
    const newest = lines.length ? lines[lines.length - 1].id : 0; // the lines are in id order
    if (newest > seenId && box.isConnected && body.getClientRects().length > 0) seenId = newest;
    const count = unread();
    setText(toggle, open ? t("Hide") : count ? t("Show ({count} new)", {count}) : t("Show"));
    label();
  }

  /** Keep ``line`` (in id order; one id once), dropping the oldest beyond KEEP; whether it was new and whole. */
  function keep(line) {
    const whole = line && Number.isInteger(line.id) && Number.isFinite(line.at) && typeof line.text === "string"
      && typeof line.name === "string" && (line.channel === "players" || line.channel === "spectators");
    if (!whole || lines.some((l) => l.id === line.id)) return false;
    lines.push(line);
    lines.sort((a, b) => a.id - b.id);
    if (lines.length > KEEP) lines.splice(0, lines.length - KEEP);
    return true;
  }

  return {
    /** A state: the chat the server keeps for this receiver replaces what the page had. */
    load(msg, receiverSeat, table = null) {
      seat = receiverSeat ?? null;
      const info = table && seat !== null && Array.isArray(table.seats) ? table.seats[seat] : null;
      ownName = info && typeof info.name === "string" ? info.name : null;
      const history = Array.isArray(msg.chat) ? msg.chat : [];
      lines = [];
      for (const line of history) keep(line);
      const last = lines.length ? lines[lines.length - 1].id : 0;
      if (last < seenId) seenId = 0; // the server started again: its ids did too
      outstanding = 0;
      draw();
    },
    /** One line said at the table. */
    receive(msg) {
      if (msg.mine === true && outstanding > 0) {
        outstanding -= 1;
        problem.textContent = "";
      }
      const before = lines.length;
      if (!keep(msg)) return;
      if (lines.length > before && lines[lines.length - 1] === msg && shown(msg)) {
        // the usual case, a new line at the end: added alone, so that a screen reader announces that line only
        const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
        list.append(lineView(msg));
        if (atEnd) list.scrollTop = list.scrollHeight;
        refresh();
      } else {
        draw();
      }
    },
    /** The chat's panel: the same element every time. */
    panel() {
      const active = box.contains(document.activeElement) ? document.activeElement : null;
      const start = active === input ? input.selectionStart : null;
      const end = active === input ? input.selectionEnd : null;
      // The caller moves the panel into its new page, which takes focus and scroll away: the focus is put back once
      // the page has been drawn, the list's scroll once the frame's drawings are done (before it is shown). Where
      // the list was is read at the frame's first drawing, while the page is laid out still: read after a drawing
      // (or its scroll put back), it laid the page out once more at every message.
      if (!scrolling) {
        const scroll = list.scrollTop;
        scrolling = {scroll, atEnd: list.scrollHeight - scroll - list.clientHeight < 8};
        requestAnimationFrame(() => {
          const {scroll: top, atEnd} = scrolling;
          scrolling = null;
          if (box.isConnected) list.scrollTop = atEnd ? list.scrollHeight : top;
        });
      }
      queueMicrotask(() => {
        if (!box.isConnected) return;
        refresh();
        if (active && document.activeElement !== active) {
          /** @type {HTMLElement} */ (active).focus({preventScroll: true});
          if (start !== null) input.setSelectionRange(start, end);
        }
      });
      return box;
    },
    /** How many lines came since the chat was last on the screen (for a tab or a badge outside the panel). */
    unread,
    /** Whether a refusal from the server answers this chat (a bad line, or too many while own lines are on their way). */
    owns(msg) {
      // the chat's own refusals: a bad line, or the chat's rate (the socket's general rate is the table's business)
      return msg.code === "bad_chat" || msg.code === "chat_refused" || (msg.code === "rate_limited" && outstanding > 0 && /chat/.test(String(msg.message)));
    },
    /** Show the server's refusal of a line in the panel, as a sentence in the reader's language. */
    refused(msg) {
      outstanding = Math.max(0, outstanding - 1);
      problem.textContent = refusalWords(msg);
      problem.scrollIntoView({block: "nearest"});
    },
  };
}
