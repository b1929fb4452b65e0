// A new account's first run, on Today, in three short steps: pick habits (suggestions or your own),
// the daily question on or off, and reminders (a time, and notifications on this phone). Skippable
// at every step; once finished or skipped it is never shown again. Where that is kept: on this
// device (localStorage, per account), as no profile field on the server fits it; it starts only
// on the device that made the account (sign-up's 201), and an account that has habits already
// (made on another device, or by a script) never sees it.
const $ = (id) => document.getElementById(id);
// screens.js marks it due after sign-up, and reads it before fetching this module.
const KEY = (account) => `morningproof.first-run.${account}`;
// The suggestions: the request that makes each (POST /api/habits).
const SUGGESTIONS = {
  "make-bed": { name: "Make bed", kind: "photo" },
  read: { name: "Read" },
  pray: { name: "Pray" },
  walk: { name: "Walk", kind: "metric", metric: "steps", atLeast: 8000 },
};
let deps = null;
let made = []; // the habits step 1 made, which step 3 gives the reminder time

function finish() {
  localStorage.setItem(KEY(deps.account()), "done");
  $("first-run").hidden = true;
  deps.changed().catch(() => {});
}

function step(number, focus = true) {
  for (const part of document.querySelectorAll("#first-run [data-step]")) part.hidden = part.dataset.step !== String(number);
  $("first-run-step").textContent = `Step ${number} of 3`;
  // Where this browser gets no push (no PushManager, an http:// address, an iPhone outside the Home
  // Screen), "Notify me on this phone" says why before it is tapped.
  if (number === 3) $("fr-push-status").textContent = deps.pushUnavailable() || "";
  if (focus) $("first-run").querySelector(`[data-step="${number}"] h3`)?.focus();
}

/// Shows the first run on Today when it is due on this device and the account has no habit yet.
export async function loadFirstRun() {
  const account = deps.account();
  const due = account !== null && localStorage.getItem(KEY(account)) === "due";
  if (!due) return ($("first-run").hidden = true);
  if (!$("first-run").hidden && made.length > 0) return; // under way: a repaint of Today keeps its step
  const { habits } = await deps.api("GET", "/api/habits");
  if (habits.some((habit) => habit.kind !== "checkin")) {
    localStorage.setItem(KEY(account), "done"); // set up some other way
    return ($("first-run").hidden = true);
  }
  if ($("first-run").hidden) step(1, false);
  $("first-run").hidden = false;
}

/// Step 1: the habits ticked and the one typed, made in that order.
async function makeHabits(event) {
  event.preventDefault();
  const picked = [...document.querySelectorAll("#first-run input[name=suggestion]:checked")].map((box) => SUGGESTIONS[box.value]);
  const own = $("fr-own").value.trim();
  if (own) picked.push({ name: own });
  $("fr-error").textContent = "";
  try {
    for (const body of picked) {
      if (made.some((habit) => habit.name.toLowerCase() === body.name.toLowerCase())) continue;
      made.push(await deps.api("POST", "/api/habits", body));
    }
  } catch (error) {
    $("fr-error").textContent = error.message;
    return;
  }
  step(2);
  deps.changed().catch(() => {});
}

/// Step 2: off archives the check-in habit (the question is asked while one is active).
async function setQuestion(event) {
  event.preventDefault();
  const on = document.querySelector("#first-run input[name=fr-question]:checked")?.value !== "off";
  try {
    if (!on) {
      const { habits } = await deps.api("GET", "/api/habits");
      const checkin = habits.find((habit) => habit.kind === "checkin");
      if (checkin) await deps.api("PATCH", `/api/habits/${checkin.id}`, { archived: true });
    }
  } catch (error) {
    $("fr-error").textContent = error.message;
    return;
  }
  step(3);
}

/// Step 3: the reminder time on every habit step 1 made (empty: no reminder), then Today.
async function setReminders(event) {
  event.preventDefault();
  const time = $("fr-remind").value.slice(0, 5);
  try {
    if (time) for (const habit of made) await deps.api("PATCH", `/api/habits/${habit.id}`, { remindAt: time });
  } catch (error) {
    $("fr-error").textContent = error.message;
    return;
  }
  deps.notice(made.length ? `You are set: ${made.map((habit) => habit.name).join(", ")}.` : "You are set.");
  finish();
}

async function notifyHere() {
  $("fr-push-status").textContent = deps.pushUnavailable() || "Turning notifications on…";
  if (deps.pushUnavailable()) return;
  $("fr-push-status").textContent = await deps.turnOnPush();
}

/// Wires the first run: `api`, `notice`, `account()` (the signed-in id), `changed()` (Today again),
/// and notifications.js's `pushUnavailable()` and `turnOnPush()` (its message).
export function wireFirstRun(app) {
  deps = app;
  $("fr-habits").addEventListener("submit", makeHabits);
  $("fr-question").addEventListener("submit", setQuestion);
  $("fr-reminders").addEventListener("submit", setReminders);
  $("fr-push").addEventListener("click", notifyHere);
  for (const skip of document.querySelectorAll("#first-run .skip")) skip.addEventListener("click", finish);
}
