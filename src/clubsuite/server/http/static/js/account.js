// @ts-check
// The account part of every page's bar: "Sign in" / "Create an account" (a small form: name and password, or a
// passkey), or, signed in, the account's name (a link to its profile) and "Sign out". Signing up or in brings along
// the seats this browser holds (their tokens are in its storage), so a guest's table becomes the account's. Signed in,
// the bar links to the turn-based tables waiting for the player's move ("Your turn", with their count). The
// session is an HttpOnly cookie the page never reads; the page keeps only the CSRF token it sends with each change
// (dom.js).

import {account, api, h} from "./dom.js";
import {t} from "./i18n.js";
import {addPasskey, passkeyTrouble, passkeysPossible, signInWithPasskey} from "./passkey.js";
import {turnsLink} from "./turnwords.js";

/** The seat tokens this browser keeps (``clubs.seat.<table>``). */
function heldTokens() {
  const tokens = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith("clubs.seat.")) continue;
      const seat = JSON.parse(localStorage.getItem(key));
      if (seat && typeof seat.token === "string") tokens.push(seat.token);
    }
  } catch {
    // storage switched off: nothing to bring
  }
  return tokens.slice(-20);
}

/** The form to sign up (``create``) or in; ``done({name, password})`` runs once the browser is signed in. */
export function signInForm(create, done) {
  const prefix = create ? "signup" : "signin";
  const name = h("input", {id: `${prefix}-name`, name: "name", autocomplete: "username", maxlength: "24", required: true});
  const password = h("input", {id: `${prefix}-password`, name: "password", type: "password", required: true,
    minlength: "8", maxlength: "256", autocomplete: create ? "new-password" : "current-password"});
  const problem = h("p", {class: "error", role: "alert"});
  const button = h("button", {type: "submit", class: "primary"}, create ? t("Create the account") : t("Sign in"));
  const form = h("form", {class: "account-form", novalidate: true, "aria-label": create ? t("Create an account") : t("Sign in")},
    h("div", {class: "field"}, h("label", {for: `${prefix}-name`}, t("Name")), name),
    h("div", {class: "field"}, h("label", {for: `${prefix}-password`}, t("Password")), password),
    create ? h("p", {class: "muted"}, t("8 characters or more. No e-mail is asked: keep your password safe.")) : null,
    button,
    !create && passkeysPossible() ? h("button", {type: "button", id: "passkey-sign-in", onclick: (event) =>
      signInWithPasskey(event.currentTarget, problem, heldTokens(), async () => { await account(true); done(); })},
    t("Sign in with a passkey")) : null,
    problem);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    if (!name.value.trim()) { problem.textContent = t("Type a name."); name.focus(); return; }
    if (password.value.length < 8) { problem.textContent = t("A password has 8 characters or more."); password.focus(); return; }
    button.disabled = true;
    try {
      await api(create ? "/account/signup" : "/account/login",
        {name: name.value.trim(), password: password.value, tokens: heldTokens()});
      await account(true);
      done({name: name.value.trim(), password: password.value});
    } catch (err) {
      problem.textContent = err.message;
      button.disabled = false;
    }
  });
  return form;
}

/** The bar's account part: signed in, the name and "Sign out"; else the two buttons that open the forms. */
export async function accountBox() {
  const me = await account();
  const box = h("div", {class: "account-box"});
  if (me) {
    const out = h("button", {type: "button", class: "link-button", id: "sign-out"}, t("Sign out"));
    out.addEventListener("click", async () => {
      out.disabled = true;
      try {
        await api("/account/logout", {});
      } finally {
        location.reload();
      }
    });
    // the turn-based tables waiting for this player's move, counted
    box.append(turnsLink(), h("a", {href: `/player/${encodeURIComponent(me.name)}`, class: "me", id: "me"}, me.name), out);
    return box;
  }
  box.append(
    h("button", {type: "button", class: "link-button", id: "sign-in", onclick: (e) => accountDialog(false, e.currentTarget)}, t("Sign in")),
    h("button", {type: "button", class: "link-button", id: "sign-up", onclick: (e) => accountDialog(true, e.currentTarget)}, t("Create an account")));
  return box;
}

/** Signing up or in, in a dialog over the page: its title, a × and Escape to close it (the focus goes back to the
 * button that opened it), the form; once an account is made where passkeys work here, a passkey is offered before the
 * page is shown again signed in. */
function accountDialog(create, opener) {
  const titleId = create ? "signup-title" : "signin-title";
  const body = h("div", {class: "account-body"});
  const onKey = (event) => { if (event.key === "Escape") close(); };
  let signedUp = false; // the account is made: closing shows the page again, signed in
  const behind = [.../** @type {HTMLCollectionOf<HTMLElement>} */ (document.body.children)].filter((el) => !el.inert && el.id !== "announcer");
  const close = () => {
    if (signedUp) {
      location.reload();
      return;
    }
    document.removeEventListener("keydown", onKey);
    backdrop.remove();
    for (const el of behind) el.inert = false;
    opener.focus();
  };
  const backdrop = h("div", {class: "dialog-backdrop", onclick: (event) => { if (event.target === backdrop) close(); }},
    h("section", {class: "account-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId},
      h("div", {class: "summary-head"},
        h("h2", {id: titleId}, create ? t("Create an account") : t("Sign in")),
        h("button", {type: "button", class: "close", dataset: {action: "close-account"}, "aria-label": t("Close"), onclick: close}, "\u00d7")),
      create ? h("p", {class: "muted"}, t("An account keeps your name, your ratings and your matches, on every device you sign in on.")) : null,
      body));
  const signedIn = (/** @type {{password?: string}} */ {password} = {}) => {
    if (!create || !passkeysPossible()) {
      location.reload();
      return;
    }
    signedUp = true;
    const problem = h("p", {class: "error", role: "alert"});
    const add = h("button", {type: "button", class: "primary", id: "offer-passkey"}, t("Add a passkey"));
    add.addEventListener("click", async () => {
      add.disabled = true;
      problem.textContent = "";
      try {
        await addPasskey(password);
        location.reload();
      } catch (err) {
        problem.textContent = passkeyTrouble(err, true);
        add.disabled = false;
      }
    });
    body.replaceChildren(
      h("p", {role: "status"}, t("Your account is made.")),
      h("p", {}, t("Add a passkey to sign in next time with this device's screen lock, fingerprint or face instead of your password?")),
      h("div", {class: "summary-actions"}, add,
        h("button", {type: "button", id: "skip-passkey", onclick: () => location.reload()}, t("Not now"))),
      problem);
    add.focus();
  };
  body.append(signInForm(create, signedIn));
  for (const el of behind) el.inert = true; // the page behind out of reach (its spoken announcements still heard)
  document.body.append(backdrop);
  document.addEventListener("keydown", onKey);
  backdrop.querySelector("input").focus();
}

/** A rating as people read it: "1480 ± 120"; a provisional one (too few rated matches yet) as "1560?". */
export function ratingWords(r) {
  if (r.provisional) return t("{rating}?", {rating: r.rating});
  return t("{rating} ± {plus_minus}", {rating: r.rating, plus_minus: r.plus_minus});
}

/** The rating pool of a game at a seat count: the game's name, with the count where the game has several. */
export function poolOf(game, seats) {
  return game.seats && game.seats.length > 1 ? `${game.name}-${seats}p` : game.name;
}
