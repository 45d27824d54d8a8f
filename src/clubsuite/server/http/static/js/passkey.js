// @ts-check
// Passkeys in the page: making one for the signed-in account (on its own profile), signing in with one (beside the
// password in the sign-in form), and the list of the account's passkeys with a way to remove each. The server sends
// WebAuthn's options as JSON (bytes in base64url) and takes the browser's answer in the same form; the browser's own
// converters are used where it has them, small ones here where it has not.

import {api, h} from "./dom.js";
import {t} from "./i18n.js";

const bytes = (text) => {
  const plain = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0)).buffer;
};
const text = (buffer) => {
  if (!buffer) return undefined;
  let raw = "";
  for (const b of new Uint8Array(buffer)) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

/** Whether this browser can use passkeys here: it knows WebAuthn, the page is a secure one (HTTPS, or localhost),
 * and the server is reached by a name (browsers refuse passkeys for an IP address). */
export function passkeysPossible() {
  const host = location.hostname;
  const address = /^[0-9.]+$/.test(host) || host.includes(":") || host.startsWith("[");
  return Boolean(window.PublicKeyCredential) && window.isSecureContext && !address;
}

function creationOptions(o) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(o);
  return {...o, challenge: bytes(o.challenge), user: {...o.user, id: bytes(o.user.id)},
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({...c, id: bytes(c.id)}))};
}

function requestOptions(o) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(o);
  return {...o, challenge: bytes(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({...c, id: bytes(c.id)}))};
}

function answer(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response = r.attestationObject
    ? {clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject),
      transports: typeof r.getTransports === "function" ? r.getTransports() : []}
    : {clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData),
      signature: text(r.signature), userHandle: text(r.userHandle)};
  return {id: credential.id, rawId: text(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults()};
}

/** What went wrong, in words: the browser's refusal (the person cancelled, or no passkey was there) or the
 * server's message. */
function trouble(err, making = false) {
  if (err && (err.name === "NotAllowedError" || err.name === "AbortError")) {
    return t("No passkey was used (it was cancelled, or none is kept for this site).");
  }
  if (err && err.name === "InvalidStateError" && making) return t("This passkey is already added to your account.");
  if (err && (err.name === "SecurityError" || err.name === "NotSupportedError")) {
    return t("This browser cannot use a passkey for this address.");
  }
  return err && err.message ? err.message : String(err);
}

/** Sign in with a passkey: asks the browser for one, and the server for the session; ``done`` once signed in, or
 * the trouble told in ``problem``. */
export async function signInWithPasskey(button, problem, tokens, done) {
  problem.textContent = "";
  button.disabled = true; // one ceremony at a time: a second click would only be refused by the browser
  try {
    const opened = await api("/account/passkey-login/options", {});
    const credential = await navigator.credentials.get({publicKey: requestOptions(opened.options)});
    await api("/account/passkey-login", {ticket: opened.ticket, credential: answer(credential), tokens});
    await done();
  } catch (err) {
    problem.textContent = trouble(err);
  } finally {
    button.disabled = false;
  }
}

/** Add a passkey to the signed-in account: the server asks the password again, the browser makes the passkey. A
 * refusal is thrown (``passkeyTrouble`` words it). */
export async function addPasskey(password) {
  const opened = await api("/account/passkeys/options", {password});
  const credential = await navigator.credentials.create({publicKey: creationOptions(opened.options)});
  await api("/account/passkeys", {ticket: opened.ticket, credential: answer(credential)});
}

/** What went wrong making or using a passkey, in words. */
export function passkeyTrouble(err, making = false) {
  return trouble(err, making);
}

/** The profile's part for one's own passkeys: the list (the browser each was made in, when, last used), a button
 * to remove each, and a form to add a passkey (the password asked again). ``agentWords`` and ``when`` word a browser and a time. */
export async function passkeysPart(agentWords, when) {
  const problem = h("p", {class: "error", role: "alert"});
  const told = h("p", {class: "told", role: "status"});
  const list = h("ul", {class: "sessions", id: "passkeys"});
  const show = async () => {
    const keys = await api("/account/passkeys");
    list.replaceChildren(...keys.map((k) => {
      const remove = h("button", {type: "button"}, t("Remove"));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await api(`/account/passkeys/${encodeURIComponent(k.id)}/delete`, {});
          await show();
        } catch (err) {
          problem.textContent = trouble(err);
          remove.disabled = false;
        }
      });
      const used = k.used_at ? t("last used {when}", {when: when(k.used_at)}) : t("not used yet");
      return h("li", {}, h("span", {class: "agent", title: k.agent}, agentWords(k.agent)), " ",
        h("span", {class: "muted"}, t("added {when}, {used}", {when: when(k.created_at), used})), " ", remove);
    }));
    if (!keys.length) list.append(h("li", {class: "muted"}, t("No passkey yet.")));
  };
  await show();
  const password = h("input", {type: "password", id: "passkey-password", autocomplete: "current-password"});
  const add = h("button", {type: "submit", id: "add-passkey"}, t("Add a passkey"));
  const form = h("form", {class: "add-passkey"},
    h("div", {class: "field"}, h("label", {for: "passkey-password"}, t("Your password")), password), add);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = told.textContent = "";
    add.disabled = true;
    try {
      const typed = password.value;
      password.value = "";
      await addPasskey(typed);
      await show();
      told.textContent = t("The passkey is added: you can sign in with it instead of your password.");
    } catch (err) {
      problem.textContent = trouble(err, true);
    } finally {
      add.disabled = false;
    }
  });
  const possible = passkeysPossible();
  return h("div", {class: "panel"}, h("h3", {}, t("Passkeys")),
    h("p", {class: "muted"}, t("A passkey signs you in with this device's screen lock, fingerprint or face instead of your password.")),
    list, possible ? form : h("p", {class: "muted"}, t("This browser cannot use a passkey for this address.")), told, problem);
}
