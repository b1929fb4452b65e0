// The sign-in page: an email and a password, or a new account (with the daily question's preset).
import { TOKEN, api } from "/api.js";

const $ = (id) => document.getElementById(id);
let deps = null;
let signingUp = false;

function toggleSignUp() {
  signingUp = !signingUp;
  $("signin-title").textContent = signingUp ? "Create an account" : "Sign in";
  $("signin-button").textContent = signingUp ? "Create account" : "Sign in";
  $("toggle-signup").textContent = signingUp ? "I have an account" : "Create an account";
  $("new-account").hidden = !signingUp;
  $("password").autocomplete = signingUp ? "new-password" : "current-password";
}

async function signIn(event) {
  event.preventDefault();
  $("signin-error").textContent = "";
  const email = $("email").value.trim();
  const password = $("password").value;
  try {
    if (signingUp) {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const reply = await api("POST", "/api/auth/signup", { email, password, timezone: zone });
      localStorage.setItem(TOKEN, reply.token);
      // 200: the email had an account and this was its password, so it is a sign-in: its
      // check-in stays as its owner set it.
      if (reply.status === 201) {
        deps.signedUp();
        const preset = document.querySelector("input[name=preset]:checked").value;
        await api("POST", "/api/checkin/setup", { preset });
      }
    } else {
      const reply = await api("POST", "/api/auth/login", { email, password });
      localStorage.setItem(TOKEN, reply.token);
    }
    $("password").value = "";
    await deps.start();
  } catch (error) {
    $("signin-error").textContent = error.message;
  }
}

/// Back to "Sign in" from "Create an account".
export function resetSignIn() {
  if (signingUp) toggleSignUp();
}

/// `start()` opens the day once signed in; `signedUp()` says a new account was made on this page.
export function wireSignIn(app) {
  deps = app;
  $("signin-form").addEventListener("submit", signIn);
  $("toggle-signup").addEventListener("click", toggleSignUp);
}
