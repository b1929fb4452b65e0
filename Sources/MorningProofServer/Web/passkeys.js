// Passkeys (issue 41): "Add a passkey" in Settings, with the account's passkeys and Remove; "Sign in
// with a passkey" on the sign-in page. Both hidden where the browser has no WebAuthn.

const $ = (id) => document.getElementById(id);
let deps = null;

/// base64url (the server's JSON) to bytes, and back.
function bytes(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(base64 + "===".slice((base64.length + 3) % 4)), (c) => c.charCodeAt(0));
}

function base64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/// The credential as `PublicKeyCredential.toJSON()` gives it, for browsers without toJSON.
function credentialJSON(credential, name) {
  const answer = credential.response;
  const response = { clientDataJSON: base64url(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = base64url(answer.attestationObject);
    response.transports = answer.getTransports ? answer.getTransports() : [];
  } else {
    response.authenticatorData = base64url(answer.authenticatorData);
    response.signature = base64url(answer.signature);
    if (answer.userHandle) response.userHandle = base64url(answer.userHandle);
  }
  const json = { id: credential.id, rawId: base64url(credential.rawId), type: credential.type, response };
  if (name) json.name = name;
  return json;
}

function day(iso) {
  return new Date(iso).toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" });
}

/// The account's passkeys, each with its Remove button.
export async function loadPasskeys() {
  if (!window.PublicKeyCredential) return;
  const { api, element } = deps;
  const passkeys = await api("GET", "/api/auth/passkeys");
  $("passkey-none").hidden = passkeys.length > 0;
  $("passkey-list").replaceChildren(...passkeys.map((passkey) => element("li", {},
    `${passkey.name}, added ${day(passkey.createdAt)}`
      + (passkey.lastUsedAt ? `, last used ${day(passkey.lastUsedAt)}` : ""),
    " ",
    element("button", {
      type: "button", text: "Remove", "aria-label": `Remove the passkey ${passkey.name}`,
      onclick: () => remove(passkey),
    }))));
}

async function remove(passkey) {
  try {
    await deps.api("DELETE", `/api/auth/passkeys/${passkey.id}`);
    $("passkey-status").textContent = `Removed ${passkey.name}.`;
    await loadPasskeys();
  } catch (error) {
    $("passkey-status").textContent = error.message;
  }
}

async function add() {
  const { api } = deps;
  $("passkey-status").textContent = "";
  try {
    const options = await api("POST", "/api/auth/passkeys/registration");
    const credential = await navigator.credentials.create({
      publicKey: {
        ...options, challenge: bytes(options.challenge), user: { ...options.user, id: bytes(options.user.id) },
        excludeCredentials: options.excludeCredentials.map((known) => ({ ...known, id: bytes(known.id) })),
      },
    });
    const passkey = await api(
      "POST", "/api/auth/passkeys/registration/finish", credentialJSON(credential, $("passkey-name").value.trim()));
    $("passkey-name").value = "";
    $("passkey-status").textContent = `Added ${passkey.name}: sign in with it next time.`;
    await loadPasskeys();
  } catch (error) {
    $("passkey-status").textContent = error.name === "NotAllowedError"
      ? "No passkey was made (cancelled or timed out)." : error.message;
  }
}

async function signIn() {
  $("signin-error").textContent = "";
  try {
    const options = await (await fetch("/api/auth/passkeys/authentication", { method: "POST" })).json();
    const credential = await navigator.credentials.get({
      publicKey: { ...options, challenge: bytes(options.challenge), allowCredentials: [] },
    });
    const response = await fetch("/api/auth/passkeys/authentication/finish", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(credentialJSON(credential)),
    });
    const reply = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(reply.error || `HTTP ${response.status}`);
    await deps.signedIn(reply.token);
  } catch (error) {
    $("signin-error").textContent = error.name === "NotAllowedError"
      ? "No passkey was used (cancelled or timed out)." : error.message;
  }
}

/// `api` and `element` from app.js; `signedIn(token)` keeps the token and opens the day. Adds the
/// sign-in page's button and shows the Settings card, where the browser has WebAuthn (Settings
/// calls `loadPasskeys` as it opens: screens.js).
export function wirePasskeys(dependencies) {
  deps = dependencies;
  if (!window.PublicKeyCredential) return;
  const button = deps.element("button", { id: "passkey-signin", type: "button", text: "Sign in with a passkey" });
  button.addEventListener("click", signIn);
  $("signin-button").after(button);
  $("passkeys").hidden = false;
  $("passkey-add").addEventListener("click", add);
}
