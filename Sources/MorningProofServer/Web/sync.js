// The page's side of the offline queue (offline.js): an action is kept with its instant and its day,
// shown at once as waiting, and sent now, on `online`, on open, by the worker's Background Sync, after
// any request the server answered, when the page comes back to the front (or from the back-forward
// cache), on a back-off timer while anything waits, and once GET /health answers again (asked every 5 s
// while a server that could not be reached owes the queue): a server that was unreachable while the
// phone believed it was online gets the queue within seconds of its return, without a tap. What the
// server replaced or refused is said in words. The page shows no streak the server has not confirmed:
// a waiting action changes the state shown, never the streak.
import "/offline.js";
import { instantText, nowMs } from "/clock.js";

const store = self.morningproofOffline;
const $ = (id) => document.getElementById(id);
const TAG = "morningproof-replay";
let deps = null;
let waitingNow = [];
let retry = null;
let running = null; // the sync under way: a second call waits for it and runs once more
let again = null;
let lastStop = null; // what stopped the last sync: a request answered after "network" sends again
// The back-off while anything waits: 5 s, doubling to 5 minutes; back to 5 s once the queue is empty.
const FIRST_RETRY = 5000;
const LAST_RETRY = 300000;
let nextRetry = FIRST_RETRY;
// While anything waits for a server that could not be reached, a bodiless GET /health every 5 s asks
// whether it can be again (it costs the server nothing while it is away, little once back), so that
// the queue goes within seconds of its return, however long the back-off has grown.
const PROBE_EVERY = 5000;
let probe = null;
// "Synced" shows this long once the queue empties.
const SYNCED_SHOWN = 3000;
let syncedTimer = null;

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

/// Sends what waits, then shows what still waits and what the server replaced or refused. One at a
/// time: called while a sync is under way, it runs once more after it (for what was recorded meanwhile).
export function sync() {
  if (!running) {
    running = syncOnce().finally(() => {
      running = null;
    });
    return running;
  }
  again ||= running.catch(() => {}).then(() => {
    again = null;
    return sync();
  });
  return again;
}

async function syncOnce() {
  const before = waitingNow.length;
  let outcome;
  try {
    await deps.saveSession();
    outcome = await store.replay();
  } catch (error) {
    outcome = { stopped: "network" };
  }
  lastStop = outcome.stopped;
  await showWaiting();
  await showMessages();
  if (before > 0 && waitingNow.length === 0) showSynced();
  scheduleRetry(outcome);
  watchForServer();
  if (outcome.stopped === "network") deps.setOffline(true);
  if (outcome.stopped === "signin" && waitingNow.length) deps.signedOut(`Sign in again: ${count()} waiting to be sent.`);
  return outcome;
}

/// While anything waits after a network or server error, tries again in 5 s, then 10, 20, ... up to
/// 5 minutes; the day is shown again once something was sent.
function scheduleRetry(outcome) {
  clearTimeout(retry);
  retry = null;
  const stuck = outcome.stopped === "network" || outcome.stopped === "server";
  if (!stuck || waitingNow.length === 0) {
    nextRetry = FIRST_RETRY;
    return;
  }
  retry = setTimeout(() => sendAndShow(), nextRetry);
  nextRetry = Math.min(nextRetry * 2, LAST_RETRY);
}

/// While the last sync could not reach the server and something waits: GET /health every PROBE_EVERY,
/// and the queue goes as soon as it answers (the page believing it is online or not).
function watchForServer() {
  const away = lastStop === "network" && waitingNow.length > 0;
  if (!away) {
    clearInterval(probe);
    probe = null;
    return;
  }
  probe ||= setInterval(async () => {
    // A page shown again sends at once, and a browser that knows it is offline says `online` later.
    if (document.visibilityState !== "visible" || running || navigator.onLine === false) return;
    // Each probe waits at most until the next: a captive Wi-Fi that swallows it holds nothing.
    const answered = await fetch("/health", { cache: "no-store", signal: AbortSignal.timeout(PROBE_EVERY) }).then((response) => response.ok, () => false);
    if (answered && lastStop === "network") sendAndShow();
  }, PROBE_EVERY);
}

/// Sends the queue and, when that sent anything, shows the day as the server has it now.
function sendAndShow() {
  return sync().then((outcome) => (outcome.sent ? deps.refresh() : null)).catch(() => {});
}

/// The server answered one of the page's requests: what waits for a network that was gone goes now.
export function reachedServer() {
  if (waitingNow.length === 0 || running || lastStop === "server" || lastStop === "signin") return;
  sendAndShow();
}

/// "Synced", for a moment, where the waiting count was (in the status chip).
function showSynced() {
  let synced = $("synced");
  if (!synced) {
    synced = document.createElement("span");
    synced.id = "synced";
    synced.className = "synced";
    synced.setAttribute("role", "status");
    $("waiting").after(synced);
  }
  synced.textContent = "Synced";
  synced.hidden = false;
  clearTimeout(syncedTimer);
  syncedTimer = setTimeout(() => {
    synced.hidden = true;
  }, SYNCED_SHOWN);
}

function count() {
  return `${waitingNow.length} ${waitingNow.length === 1 ? "change" : "changes"}`;
}

/// "2 changes waiting to sync: …" while the queue holds anything of this account.
export async function showWaiting() {
  const kept = await store.session().catch(() => null);
  waitingNow = kept ? await store.waiting(kept.account) : [];
  if (waitingNow.length && $("synced")) $("synced").hidden = true;
  // Something waits that no sync is about to send (found on open): the back-off timer sends it.
  if (waitingNow.length && !retry && !running && lastStop !== "signin") retry = setTimeout(() => sendAndShow(), nextRetry);
  $("waiting").hidden = waitingNow.length === 0;
  $("waiting").textContent = waitingNow.length === 0 ? ""
    : `${count()} waiting to sync: ${waitingNow.map(store.describe).join("; ")}.`;
}

async function showMessages() {
  const messages = await store.takeMessages().catch(() => []);
  // A long queue refused at once (a deleted habit's hundred days) reads as its first three and a count.
  const shown = messages.slice(0, 3).map((message) => message.text);
  if (messages.length > 3) shown.push(`And ${messages.length - 3} more changes were not recorded or were replaced.`);
  // What the server did not record stays on screen until dismissed.
  if (messages.length) deps.notice(shown.join(" "), "error");
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
    const before = waitingNow.length;
    showWaiting()
      .then(() => (before > 0 && waitingNow.length === 0 ? showSynced() : null))
      .then(showMessages).then(deps.refresh).catch(() => {});
  });
  // Back to the front, or back from the back-forward cache: no `online` event comes for a server that
  // was unreachable meanwhile, so what waits is sent now.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && waitingNow.length) sendAndShow();
  });
  window.addEventListener("pageshow", () => {
    if (waitingNow.length) sendAndShow();
  });
}

export const offlineStore = store;
