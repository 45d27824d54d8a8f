// The account part of every page's bar: "Sign in" / "Create an account" (a small form: name and password, or a
// passkey), or, signed in, the account's name (a link to its profile) and "Sign out". Signing up or in brings along
// the seats this browser holds (their tokens are in its storage), so a guest's table becomes the account's. The
// session is an HttpOnly cookie the page never reads; the page keeps only the CSRF token it sends with each change
// (dom.js).

import {account, api, h} from "./dom.js";
import {t} from "./i18n.js";
import {passkeysPossible, signInWithPasskey} from "./passkey.js";

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

/** The form to sign up (``create``) or in; ``done`` runs once the browser is signed in. */
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
      done();
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
    box.append(h("a", {href: `/player/${encodeURIComponent(me.name)}`, class: "me", id: "me"}, me.name), out);
    return box;
  }
  const panel = h("div", {class: "account-panel", hidden: true});
  const open = (create) => {
    panel.replaceChildren(signInForm(create, () => location.reload()));
    panel.hidden = false;
    panel.querySelector("input").focus();
  };
  box.append(
    h("button", {type: "button", class: "link-button", id: "sign-in", onclick: () => open(false)}, t("Sign in")),
    h("button", {type: "button", class: "link-button", id: "sign-up", onclick: () => open(true)}, t("Create an account")),
    panel);
  return box;
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
