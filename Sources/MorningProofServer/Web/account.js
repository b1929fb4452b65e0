// The person's own account (issue 41): change the password, see the sessions and sign out
// everywhere else (Settings); "Forgot password?" on the sign-in page; the #reset=CODE page that
// sets a new password from a reset link.

const $ = (id) => document.getElementById(id);
let deps = null;

/// The hour a token was last used, as a person reads it ("28 Nov, 14:00").
function hour(iso) {
  if (!iso) return "not used yet";
  const date = new Date(iso);
  return `last used ${date.toLocaleDateString([], { day: "numeric", month: "short" })}, `
    + date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
}

/// The sessions list: sign-ins (tokens that expire), each by its device.
export async function loadAccount() {
  const { api, element } = deps;
  const reply = await api("GET", "/api/tokens");
  const sessions = reply.tokens.filter((token) => token.expiresAt);
  $("session-list").replaceChildren(...sessions.map((token) => element("li", {},
    `${token.device || "Unknown device"}, ${hour(token.lastUsedAt)}`,
    token.current ? element("strong", { text: " (this device)" }) : "")));
  // Nothing else to sign out: only this device's token.
  $("sign-out-others").disabled = reply.tokens.length <= 1;
}

async function changePassword(event) {
  event.preventDefault();
  const { api } = deps;
  $("pw-status").textContent = "";
  const body = {
    current: $("pw-current").value, new: $("pw-new").value, signOutOthers: $("pw-others").checked,
  };
  if (body.new.length < 10) {
    $("pw-status").textContent = "The new password needs at least 10 characters.";
    return;
  }
  try {
    await api("PUT", "/api/auth/password", body);
    $("password-form").reset();
    $("pw-status").textContent = body.signOutOthers
      ? "Password changed; every other device is signed out." : "Password changed.";
    await loadAccount();
  } catch (error) {
    $("pw-status").textContent = error.message;
  }
}

async function signOutOthers() {
  const { api } = deps;
  try {
    const reply = await api("POST", "/api/auth/sign-out-others");
    $("sessions-status").textContent = reply.signedOut === 1
      ? "Signed out 1 other session or token." : `Signed out ${reply.signedOut} other sessions and tokens.`;
    await loadAccount();
    deps.tokensChanged?.();
  } catch (error) {
    $("sessions-status").textContent = error.message;
  }
}

async function forgot() {
  const help = $("forgot-help");
  help.hidden = false;
  let options = { passwordResetByEmail: false };
  try {
    options = await (await fetch("/api/auth/options")).json();
  } catch (error) {
    help.textContent = "Offline: check the connection.";
    return;
  }
  if (!options.passwordResetByEmail) {
    help.textContent = "This server sends no mail. Ask the person who runs it for a reset link "
      + "(morningproof-server account reset-password YOUR-EMAIL).";
    return;
  }
  const email = $("email").value.trim();
  if (!email) {
    help.textContent = "Type your email above, then choose \"Forgot password?\" again.";
    $("email").focus();
    return;
  }
  const response = await fetch("/api/auth/forgot", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email }),
  });
  const reply = await response.json().catch(() => ({}));
  help.textContent = response.status === 202
    ? `If an account has the email ${email}, a link to set a new password is on its way. It works for one hour.`
    : reply.error || `HTTP ${response.status}`;
}

/// The code of a reset link (`#reset=CODE`), or null.
function resetCode() {
  const match = /^#reset=([A-Za-z0-9_-]+)$/.exec(location.hash);
  return match ? match[1] : null;
}

/// Shows the reset page when the address is a reset link; true when it did.
export function openReset() {
  if (!resetCode()) return false;
  deps.show("reset");
  $("reset-new").focus();
  return true;
}

async function reset(event) {
  event.preventDefault();
  $("reset-error").textContent = "";
  const password = $("reset-new").value;
  if (password.length < 10) {
    $("reset-error").textContent = "The new password needs at least 10 characters.";
    return;
  }
  const response = await fetch("/api/auth/reset", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: resetCode(), new: password }),
  });
  if (response.status !== 204) {
    const reply = await response.json().catch(() => ({}));
    $("reset-error").textContent = reply.error || `HTTP ${response.status}`;
    return;
  }
  $("reset-form").reset();
  history.replaceState(null, "", location.pathname);
  deps.signedOut("Your new password is set: sign in with it.");
}

/// `api`, `element` and `show` from app.js; `signedOut(why)` shows the sign-in page.
export function wireAccount(dependencies) {
  deps = dependencies;
  $("password-form").addEventListener("submit", changePassword);
  $("sign-out-others").addEventListener("click", signOutOthers);
  $("forgot-password").addEventListener("click", forgot);
  $("reset-form").addEventListener("submit", reset);
  window.addEventListener("hashchange", openReset);
}
