// Settings, as grouped cards: Account (zone, day start and week start: PATCH /api/auth/profile), the
// Daily question (POST /api/checkin/setup) and Tokens for scripts (/api/tokens, sign-ins left out).
// Password and sessions are account.js's, Health data healthdata.js's, Notifications notifications.js's.
const $ = (id) => document.getElementById(id);
let deps = null;

/// "monday" as a person writes it: "Monday".
function weekday(name) {
  return name ? name[0].toUpperCase() + name.slice(1) : "";
}

export async function loadSettings() {
  const { api, element } = deps;
  const [me, tokens] = await Promise.all([api("GET", "/api/auth/me"), api("GET", "/api/tokens")]);
  const checkin = deps.checkin();
  $("zone").value = me.timezone || "";
  $("day-start").value = me.dayStart;
  $("week-start").value = me.weekStart;
  $("question").value = checkin?.question || "";
  // Sign-ins (tokens that expire, this phone's among them) are the Account card's "Signed in on".
  const scripts = tokens.tokens.filter((token) => !token.expiresAt && !token.current);
  $("token-list").replaceChildren(...scripts.map((token) => element("li", {},
    `${token.name} (${token.scope === "metrics" ? "health data only, " : ""}created ${token.createdAt.slice(0, 10)}) `,
    element("button", { type: "button", "aria-label": `Revoke: ${token.name}`, text: "Revoke", onclick: () => revoke(token) }))));
  $("debug").hidden = !deps.clockHeader();
  if (deps.clockHeader()) {
    $("debug-state").textContent = `Today ${checkin?.day}: ${checkin?.answer ? `answered ${checkin.answer}` : "not answered"}.`;
  }
}

async function saveProfile(event) {
  event.preventDefault();
  try {
    const me = await deps.api("PATCH", "/api/auth/profile", {
      timezone: $("zone").value.trim(), dayStart: $("day-start").value.trim(), weekStart: $("week-start").value,
    });
    deps.profileChanged(me);
    deps.notice(`Saved: ${me.timezone}, the day starts at ${me.dayStart}, weeks on ${weekday(me.weekStart)}.`);
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

async function saveQuestion(event) {
  event.preventDefault();
  const body = {};
  const question = $("question").value.trim();
  if ($("preset").value) body.preset = $("preset").value;
  if (question && question !== deps.checkin()?.question) body.question = question;
  try {
    const setup = await deps.api("POST", "/api/checkin/setup", body);
    deps.checkinChanged(await deps.api("GET", "/api/checkin"));
    deps.notice(`The daily question is now: ${setup.question}`);
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

async function createToken(event) {
  event.preventDefault();
  try {
    const token = await deps.api("POST", "/api/tokens", { name: $("token-name").value });
    $("new-token").textContent = `Copy it now, it is shown once: ${token.token}`;
    $("new-token").hidden = false;
    $("token-name").value = "";
    await loadSettings();
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

async function revoke(token) {
  await deps.api("DELETE", `/api/tokens/${token.id}`);
  await loadSettings();
}

/// Wires Settings to the app: `api`, `element`, `notice`, `checkin()` and `checkinChanged(checkin)`,
/// `profileChanged(me)`, and `clockHeader()` (the server honours a test clock: the Debug card shows).
export function wireSettings(app) {
  deps = app;
  $("profile-form").addEventListener("submit", saveProfile);
  $("question-form").addEventListener("submit", saveQuestion);
  $("token-form").addEventListener("submit", createToken);
}
