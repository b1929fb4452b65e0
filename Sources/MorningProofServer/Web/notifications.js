// Settings, "Notifications": Web Push on this device (permission, PushManager.subscribe with the
// server's VAPID key, POST/DELETE /api/push/subscriptions), the account's ntfy topic and webhook
// (/api/notifications/channels), a test message to every channel and the recent events.
// What is sent and when is the server's business; this page only sets it up and shows it.
const $ = (id) => document.getElementById(id);

/// How many days of events the list shows.
const EVENT_DAYS = 7;

const CHANNEL_NAMES = { webPush: "Web Push", ntfy: "ntfy", webhook: "Webhook" };
const EVENT_NAMES = { "goal.met": "Goal met", "habit.reminder": "Reminder", "notification.test": "Test" };
const OUTCOMES = {
  delivered: "delivered",
  gone: "gone: the receiver no longer exists, so it was removed",
  failed: "failed",
};

let app = null;
/// This browser's push subscription while it is on (a PushSubscription, or what stands in for one).
let subscription = null;
/// The ntfy topic as the server has it ({url, hasToken}), to keep its token when only the webhook changes.
let savedNtfy = null;

/// Connects the Notifications controls: `context` gives app.js's `api` and `element`.
export function wireNotifications(context) {
  app = context;
  $("push-on").addEventListener("click", turnOnPush);
  $("push-off").addEventListener("click", () => turnOff().catch((error) => say(`Notifications could not be turned off: ${error.message}`)));
  $("channels-form").addEventListener("submit", saveChannels);
  $("channels-remove").addEventListener("click", removeChannels);
  $("notify-test").addEventListener("click", sendTest);
  $("webhook-secret-copy").addEventListener("click", copySecret);
}

/// Fills the section from the server and this browser; a failure is said in the section, so the
/// rest of Settings still works.
export async function loadNotifications() {
  try {
    const [channels, events] = await Promise.all([
      app.api("GET", "/api/notifications/channels"), app.api("GET", `/api/notifications?days=${EVENT_DAYS}`)]);
    showChannels(channels);
    showEvents(events.notifications || []);
    await showPushState(channels.push || []);
  } catch (error) {
    say(pushUnavailable() || `Notifications could not be loaded: ${error.message}`);
  }
}

function say(text) {
  $("push-status").textContent = text;
}

// MARK: - This device

/// Why this browser cannot get push messages, or null when it can. iOS gives web pages push only
/// once they are opened from the Home Screen (as an app, "standalone").
export function pushUnavailable() {
  // First: on http the browser hides the service worker and push, and that is the address's doing.
  if (!window.isSecureContext) {
    return "Notifications on this phone need an https:// address (see the note at the top): use ntfy or a webhook below meanwhile.";
  }
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  if (ios && !standalone) {
    return "On iPhone and iPad: Add to Home Screen first, then open MorningProof from there " +
      "(Share, Add to Home Screen) and tap Notify me on this phone again.";
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "This browser cannot show notifications from a web page: use ntfy or a webhook below.";
  }
  return null;
}

const BLOCKED = "Notifications are blocked for MorningProof in this browser. Allow them again in the " +
  "site settings (the icon beside the address; on iPhone: Settings, Notifications, MorningProof), then tap again.";

async function showPushState(known) {
  subscription = null;
  const reason = pushUnavailable();
  if (!reason) {
    const registration = await navigator.serviceWorker.getRegistration();
    const current = registration ? await registration.pushManager.getSubscription() : null;
    // On only while the server still has it: a push service that said "gone" ended it there.
    if (current && known.some((entry) => entry.endpoint === current.endpoint)) subscription = current;
  }
  showPushOn(subscription !== null);
  const others = known.length - (subscription ? 1 : 0);
  const state = [
    subscription ? "Notifications are on for this phone." : "",
    others > 0 ? `${others} other ${others === 1 ? "device gets" : "devices get"} notifications.` : ""];
  say(reason || (Notification.permission === "denied" ? BLOCKED : state.filter(Boolean).join(" ")));
}

function showPushOn(on) {
  $("push-on").hidden = on;
  $("push-off").hidden = !on;
}

/// How long "Notify me on this phone" waits for the service worker and the push service.
const PUSH_WAIT = 15000;

/// Turns notifications on for this phone and returns what it said (Settings and the first run show
/// it); past PUSH_WAIT without an answer it gives up, saying so, rather than spin for ever.
export async function turnOnPush() {
  try {
    await turnOn();
  } catch (error) {
    say(`Notifications could not be turned on: ${error.message}`);
  }
  return $("push-status").textContent;
}

async function turnOn() {
  const reason = pushUnavailable();
  if (reason) return say(reason);
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return say(permission === "denied" ? BLOCKED : "Notifications were not allowed: tap again to be asked.");
  say("Turning notifications on…");
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, PUSH_WAIT, "late"); });
  try {
    if (await Promise.race([subscribe(), late]) === "late") {
      say(`No answer from this phone's push service after ${PUSH_WAIT / 1000} seconds: notifications are not on. `
        + "Check the connection and tap again, or use ntfy or a webhook below.");
    }
  } finally {
    clearTimeout(timer);
  }
}

/// Subscribes this browser with the server's key and tells the server.
async function subscribe() {
  const registration = await navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready);
  const { publicKey } = await app.api("GET", "/api/push/key");
  const key = bytesFromBase64url(publicKey);
  let current = await registration.pushManager.getSubscription();
  // A subscription made for another key (the server's key changed) cannot be used: start anew.
  if (current && !sameBytes(current.options?.applicationServerKey, key)) {
    await current.unsubscribe();
    current = null;
  }
  current = current || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await app.api("POST", "/api/push/subscriptions", current.toJSON());
  subscription = current;
  showPushOn(true);
  say("Notifications are on for this phone.");
  if (!$("settings").hidden) $("push-off").focus();
}

async function turnOff() {
  if (!subscription) return showPushOn(false);
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe().catch(() => false);
  try {
    await app.api("DELETE", "/api/push/subscriptions", { endpoint });
  } catch (error) {
    if (error.status !== 404) throw error;  // already gone on the server: off all the same
  }
  subscription = null;
  showPushOn(false);
  say("Notifications are off for this phone.");
  $("push-on").focus();
}

function bytesFromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
}

function sameBytes(buffer, bytes) {
  if (!buffer) return false;
  const other = new Uint8Array(buffer);
  return other.length === bytes.length && other.every((byte, index) => byte === bytes[index]);
}

// MARK: - ntfy and webhook

function showChannels(channels) {
  savedNtfy = channels.ntfy || null;
  $("ntfy-url").value = channels.ntfy?.url || "";
  $("ntfy-token").value = "";
  $("ntfy-token-hint").textContent = channels.ntfy?.hasToken
    ? "A token is saved for this topic: leave this empty to keep it, or type a new one."
    : "Only for a protected topic.";
  $("webhook-url").value = channels.webhook?.url || "";
}

async function saveChannels(event) {
  event.preventDefault();
  const ntfyURL = $("ntfy-url").value.trim();
  const webhookURL = $("webhook-url").value.trim();
  const ntfyToken = $("ntfy-token").value.trim();
  const ntfy = ntfyURL ? { url: ntfyURL } : null;
  if (ntfy && ntfyToken) ntfy.token = ntfyToken;
  const body = { ntfy, webhook: webhookURL ? { url: webhookURL } : null };
  // The same topic and no new token: left out, so the server keeps the token it has.
  if (savedNtfy && savedNtfy.url === ntfyURL && !ntfyToken) delete body.ntfy;
  try {
    const channels = await app.api("PUT", "/api/notifications/channels", body);
    showChannels(channels);
    showSecret(channels.webhook?.secret);
    $("channels-status").textContent = `Saved: ${[ntfy && "ntfy", webhookURL && "webhook"].filter(Boolean).join(" and ") || "no ntfy topic or webhook"}.`;
  } catch (error) {
    $("channels-status").textContent = `Not saved: ${error.message}`;
  }
}

async function removeChannels() {
  try {
    await app.api("DELETE", "/api/notifications/channels");
    showChannels({});
    showSecret(null);
    $("channels-status").textContent = "Removed: no ntfy topic or webhook.";
  } catch (error) {
    $("channels-status").textContent = `Not removed: ${error.message}`;
  }
}

function showSecret(secret) {
  $("webhook-secret").hidden = !secret;
  $("webhook-secret-value").value = secret || "";
  $("webhook-secret-copied").textContent = "";
}

async function copySecret() {
  const field = $("webhook-secret-value");
  try {
    await navigator.clipboard.writeText(field.value);
    $("webhook-secret-copied").textContent = "Secret copied.";
  } catch (error) {
    field.focus();
    field.select();
    $("webhook-secret-copied").textContent = "The secret is selected: copy it with the phone's Copy.";
  }
}

// MARK: - Test and events

async function sendTest() {
  const results = $("notify-results");
  results.replaceChildren(app.element("p", { text: "Sending a test notification…" }));
  try {
    const reply = await app.api("POST", "/api/notifications/test");
    const list = reply.results || [];
    results.replaceChildren(list.length
      ? app.element("ul", { class: "events" }, ...list.map((result) => app.element("li", { text: resultText(result) })))
      : app.element("p", { text: "Nothing to send to: turn notifications on for this phone, or save an ntfy topic or a webhook." }));
    await loadNotifications();
  } catch (error) {
    results.replaceChildren(app.element("p", { class: "error", text: `The test was not sent: ${error.message}` }));
  }
}

/// One channel's test result in words: "ntfy (ntfy.example): failed, HTTP 500: …".
export function resultText(result) {
  const name = CHANNEL_NAMES[result.channel] || result.channel;
  const where = hostOf(result.target);
  const detail = [result.status ? `HTTP ${result.status}` : "", result.error || ""].filter(Boolean).join(": ");
  return `${name}${where ? ` (${where})` : ""}: ${OUTCOMES[result.outcome] || result.outcome}${detail ? `, ${detail}` : ""}.`;
}

function hostOf(target) {
  try {
    return new URL(target).host;
  } catch (error) {
    return target || "";
  }
}

/// "14:05" of an instant, on the phone's clock.
const clockTime = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });

/// Where an event stands, in plain words: "sent 07:30", "failed, will retry at 07:32".
function eventState(event) {
  if (event.state === "delivered") return event.deliveredAt ? `sent ${clockTime(event.deliveredAt)}` : "sent";
  if (event.state === "failed") {
    return event.retryAt ? `failed, will retry at ${clockTime(event.retryAt)}`
      : `failed ${event.attempts === 1 ? "once" : `${event.attempts} times`}, not tried again today`;
  }
  return event.attempts > 0 ? "sending now" : "waiting to be sent";
}

function showEvents(events) {
  $("notify-none").hidden = events.length > 0;
  $("notify-events").replaceChildren(...events.map((event) => {
    const item = app.element("li", {},
      app.element("strong", { text: `${EVENT_NAMES[event.event] || event.event}: ${event.habit}` }),
      " · ", app.element("span", { class: "day", text: event.day }), ` · ${eventState(event)}`);
    if (event.lastError) item.append(app.element("br"), app.element("span", { class: "error", text: `Last error: ${event.lastError}` }));
    return item;
  }));
}
