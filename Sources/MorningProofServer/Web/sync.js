// The page's side of the offline queue (offline.js): an action is kept with its instant and its day,
// shown at once as waiting, and sent now, on `online`, on open and by the worker's Background Sync;
// what the server replaced or refused is said in words. The page shows no streak the server has not
// confirmed: a waiting action changes the state shown, never the streak.
import "/offline.js";
import { instantText, nowMs } from "/clock.js";

const store = self.morningproofOffline;
const $ = (id) => document.getElementById(id);
const TAG = "morningproof-replay";
let deps = null;
let waitingNow = [];
let retry = null;

/// Now as ISO 8601 with this phone's offset, by the server's clock as far as the page knows it
/// (clock.js), or in tests the moment the page acts at.
export function instantNow() {
  return deps.clockNow() || instantText(nowMs());
}

/// Keeps `action` ({kind: "entry" | "undo" | "checkin", habitId, habitName, day, status, note,
/// answer}) with the instant it happened, for the signed-in account, and tries to send it.
export async function record(action) {
  const at = instantNow();
  try {
    await deps.saveSession();
    const kept = await store.session();
    await store.enqueue({ ...action, at, account: kept?.account });
  } catch (error) {
    // No IndexedDB (a private window in some browsers): sent now or not at all.
    const [method, path, body] = store.request({ ...action, at });
    await deps.api(method, path, body);
    return;
  }
  // Where the browser has Background Sync, the worker sends it when the network is back.
  navigator.serviceWorker?.ready.then((registration) => registration.sync?.register(TAG)).catch(() => {});
  await sync();
}

/// Sends what waits, then shows what still waits and what the server replaced or refused.
export async function sync() {
  let outcome;
  try {
    await deps.saveSession();
    outcome = await store.replay();
  } catch (error) {
    outcome = { stopped: "network" };
  }
  await showWaiting();
  await showMessages();
  clearTimeout(retry);
  // A server error: the actions stay, sent again in a minute.
  if (outcome.stopped === "server") retry = setTimeout(() => sync().then(deps.refresh).catch(() => {}), 60000);
  if (outcome.stopped === "network") deps.setOffline(true);
  if (outcome.stopped === "signin" && waitingNow.length) deps.signedOut(`Sign in again: ${count()} waiting to be sent.`);
  return outcome;
}

function count() {
  return `${waitingNow.length} ${waitingNow.length === 1 ? "change" : "changes"}`;
}

/// "2 changes waiting to sync: …" while the queue holds anything of this account.
export async function showWaiting() {
  const kept = await store.session().catch(() => null);
  waitingNow = kept ? await store.waiting(kept.account) : [];
  $("waiting").hidden = waitingNow.length === 0;
  $("waiting").textContent = waitingNow.length === 0 ? ""
    : `${count()} waiting to sync: ${waitingNow.map(store.describe).join("; ")}.`;
}

async function showMessages() {
  const messages = await store.takeMessages().catch(() => []);
  // A long queue refused at once (a deleted habit's hundred days) reads as its first three and a count.
  const shown = messages.slice(0, 3).map((message) => message.text);
  if (messages.length > 3) shown.push(`And ${messages.length - 3} more changes were not recorded or were replaced.`);
  if (messages.length) deps.notice(shown.join(" "));
}

/// The last action waiting for habit `id` on `day`, which the page shows until the server has it.
export function waitingFor(id, day) {
  return waitingNow.filter((action) => action.kind !== "checkin" && action.habitId === id && action.day === day).at(-1);
}

/// The check-in answer waiting for `day`.
export function waitingAnswer(day) {
  return waitingNow.filter((action) => action.kind === "checkin" && action.day === day).at(-1);
}

/// Wires the queue to the page: `api`, `clockNow()`, `saveSession()`, `setOffline(bool)`, `notice(text)`,
/// `signedOut(text)` and `refresh()` (shows the day as the server has it now).
export function wireSync(app) {
  deps = app;
  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data?.type !== "replayed") return;
    showWaiting().then(showMessages).then(deps.refresh).catch(() => {});
  });
}

export const offlineStore = store;
