// MorningProof's web app: the morning routine on a phone. Every day decision comes from the server
// (GET /api/checkin, /api/habits, ...); offline, the page only tells the day it saved from a new one
// (clock.js), and the server decides the day of what it recorded when it arrives.
import { loadToday, wireToday } from "/today.js";
import { wireInstall } from "/install.js";
import {
  account as accountPart, firstRunDue, loadFirstRun, loadHabits, loadHistory, loadSettings, openShield, shieldWanted,
  warmScreens, wireScreens, wireSignInPage,
} from "/screens.js";
import { accountDay, heardFrom, nowMs } from "/clock.js";
import { offlineStore, reachedServer, record, showWaiting, sync, waitingAnswer, waitingFor, wireSync } from "/sync.js";

const $ = (id) => document.getElementById(id);
const TOKEN = "morningproof.token";
// Tests and demos only: a moment the server honours when it runs with --allow-clock-header.
const NOW = "morningproof.now";
let server = { clockHeader: false };
let checkin = null;
let signingUp = false;
let newAccount = false; // signed up on this page: its first run is due here (firstrun.js)
let account = null; // the signed-in account's id, which the actions queued offline are kept for
let accountToken = null; // the token `account` was read with: the queue is sent with this pair only
let profile = null; // the signed-in account's zone and day start (GET /api/auth/me)
let knownAt = null; // offline: when the oldest answer shown from IndexedDB was saved
let paintingKnown = false; // on open, before the server is asked: GETs answered from IndexedDB
let wanted = "today"; // the tab chosen last, which a refresh of the day shows
let opening = 0; // counts the screens opened: a screen that finishes loading after a later one is not shown

class APIError extends Error {
  constructor(status, body) {
    super(body.error || `HTTP ${status}`);
    this.status = status;
    this.code = body.code;
  }
}

/// Tests and demos only: the moment the server is asked to act at, when it honours the header.
function testClock() {
  return server.clockHeader ? localStorage.getItem(NOW) : null;
}

/// The headers every API request carries: the token, and in tests the moment to act at.
function authHeaders() {
  const headers = {};
  const token = localStorage.getItem(TOKEN);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (testClock()) headers["X-MorningProof-Now"] = testClock();
  return headers;
}

async function api(method, path, body, type) {
  if (paintingKnown && method === "GET") {
    const known = await offlineStore.recall(path).catch(() => null);
    if (known) return known.json;
  }
  const headers = authHeaders();
  let payload;
  if (body instanceof Blob) {
    payload = body;
    headers["Content-Type"] = type || body.type || "application/octet-stream";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload });
  } catch (error) {
    // No network: what the page read from here last time, as it was then (offline.js).
    const known = method === "GET" ? await offlineStore.recall(path).catch(() => null) : null;
    setOffline(true, known?.savedAt);
    if (known) return known.json;
    throw new APIError(0, { error: "offline: check the connection", code: "offline" });
  }
  // An answer to a request sent before the browser said it went offline does not say it is back.
  if (!$("offline").hidden && navigator.onLine !== false) setOffline(false);
  heardFrom(response);
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  // A wrong password on the sign-in screen is an answer, not a session that ended.
  if (response.status === 401 && path !== "/api/auth/login" && path !== "/api/auth/signup") {
    signOut(false);
    throw new APIError(401, json);
  }
  if (!response.ok) throw new APIError(response.status, json);
  // The status beside the fields, where it says more (sign-up: 201 made the account, 200 signed in).
  if (json && typeof json === "object") Object.defineProperty(json, "status", { value: response.status });
  if (method === "GET" && path.startsWith("/api/")) offlineStore.remember(path, json).catch(() => {});
  reachedServer();
  return json;
}

/// Offline, what needs the server is disabled; what can wait (Done, Skip, Undo, the answer) is not.
function setOffline(offline, savedAt) {
  knownAt = !offline ? null : savedAt ? Math.min(knownAt ?? savedAt, savedAt) : knownAt;
  $("offline").hidden = !offline;
  const time = knownAt && new Date(knownAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  $("offline").textContent = `Offline: ${time ? `showing what was known at ${time}. ` : ""}`
    + "Done, skip, undo and the answer are kept on this phone and sent when the connection is back.";
  document.querySelectorAll("main button, main input, main select").forEach((control) => {
    if (control.closest("#signin") || control.dataset.offline === "works") return;
    control.disabled = offline;
  });
  for (const hint of document.querySelectorAll("[data-needs-server]")) hint.hidden = !offline;
}

/// What the service worker needs to send the queue on its own: the token, the account, the test clock.
async function saveSession() {
  // Not the token in localStorage now: another tab may have signed in as someone else since.
  if (!accountToken || account === null) return;
  const now = testClock();
  await offlineStore.saveSession({ token: accountToken, account, now });
}

// A notice fades after this long; an error ("error") stays until it is dismissed.
const NOTICE_SHOWN = 4000;
let noticeTimer = null;

/// Shows `text` as a toast over the bottom of the screen (`kind` "error": it stays, with a close button).
function notice(text, kind = "info") {
  clearTimeout(noticeTimer);
  const error = kind === "error" && Boolean(text);
  $("notice").textContent = text;
  $("notice").hidden = !text;
  $("toast").hidden = !text;
  $("toast").classList.toggle("error", error);
  $("toast").classList.remove("leaving");
  $("notice-close").hidden = !error;
  if (!text || error) return;
  noticeTimer = setTimeout(() => {
    $("toast").classList.add("leaving"); // fades out (CSS), then goes
    noticeTimer = setTimeout(() => notice(""), 400);
  }, NOTICE_SHOWN - 400);
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// MARK: - Screens

function show(screen) {
  for (const section of document.querySelectorAll(".screen")) section.hidden = section.id !== screen;
  const tabs = ["today", "habits", "history", "settings"].includes(screen);
  wanted = tabs ? screen : "today";
  $("tabs").hidden = !tabs;
  if (screen === "signin") wireSignInPage();
  for (const tab of document.querySelectorAll("#tabs button")) {
    if (tab.dataset.screen === screen) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
}

async function open(screen) {
  const mine = ++opening;
  if (screen === "today") await Promise.all([loadToday(), loadFirstRun()]);
  if (screen === "habits") await loadHabits();
  if (screen === "history") await loadHistory();
  // Notifications load with the screen only: a token made or revoked leaves what is being typed there.
  if (screen === "settings") await loadSettings();
  if (mine !== opening) return; // a tab tapped meanwhile
  show(screen);
  if (!$("offline").hidden) setOffline(true);
}

// MARK: - Sign in

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
        newAccount = true;
        const preset = document.querySelector("input[name=preset]:checked").value;
        await api("POST", "/api/checkin/setup", { preset });
      }
    } else {
      const reply = await api("POST", "/api/auth/login", { email, password });
      localStorage.setItem(TOKEN, reply.token);
    }
    $("password").value = "";
    await start();
  } catch (error) {
    $("signin-error").textContent = error.message;
  }
}

/// Signing out (`tellServer`) forgets what was known here; a token the server refused (401) keeps the
/// queue, to be sent once the account signs in again (`why` says so).
function signOut(tellServer = true, why = "") {
  if (tellServer && localStorage.getItem(TOKEN)) api("POST", "/api/auth/logout").catch(() => {});
  if (tellServer) offlineStore.forget().catch(() => {});
  localStorage.removeItem(TOKEN);
  account = null;
  accountToken = null;
  $("signin-error").textContent = why;
  closeQuestion();
  if (signingUp) toggleSignUp();
  show("signin");
}

// MARK: - The day: question, block screen, today

async function start() {
  const token = localStorage.getItem(TOKEN);
  if (!token) return show("signin");
  const me = await api("GET", "/api/auth/me");
  account = me.id;
  accountToken = token;
  if (newAccount) firstRunDue(account);
  newAccount = false;
  profile = me;
  await showWaiting();
  if (paintingKnown) return refreshDay();
  showZoneLine();
  await refreshDay();
  // On open: what was recorded offline before goes now.
  if ((await sync()).sent) await refreshDay();
  warmScreens();
}

// MARK: - The person decides their zone

/// "America/New_York" as a person says it: "New York".
function place(zone) {
  return zone.split("/").pop().replaceAll("_", " ");
}

/// The localStorage key that remembers "Keep" on this device for this pair of zones.
function keptKey(accountZone, deviceZone) {
  return `morningproof.keep-zone.${accountZone}.${deviceZone}`;
}

/// Today's one line when this device's zone is not the account's: the account's zone changes only when
/// the person taps "Move", never by itself; "Keep" is remembered here for this pair of zones.
function showZoneLine() {
  const line = $("zone-line");
  const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const kept = profile?.timezone ? localStorage.getItem(keptKey(profile.timezone, device)) : "1";
  line.hidden = !device || !profile?.timezone || profile.timezone === device || kept === "1";
  if (line.hidden) return line.replaceChildren();
  const [here, days] = [place(device), place(profile.timezone)];
  const keep = () => {
    localStorage.setItem(keptKey(profile.timezone, device), "1");
    showZoneLine();
  };
  const move = async () => {
    try {
      profile = await api("PATCH", "/api/auth/profile", { timezone: device });
      showZoneLine();
      notice(`Your days now follow ${here} time.`);
      await refreshDay();
    } catch (error) {
      notice(error.message, "error");
    }
  };
  line.replaceChildren(
    element("p", { text: `This phone is on ${here} time; your days follow ${days}.` }),
    element("div", { class: "choices" },
      element("button", { type: "button", text: `Move my days to ${here}`, onclick: move }),
      element("button", { type: "button", text: `Keep ${days}`, "data-offline": "works", onclick: keep })));
}

/// Asks the server where today stands and shows what follows from it (with an answer waiting to be
/// sent as given).
async function refreshDay() {
  checkin = newDay(await api("GET", "/api/checkin"));
  const waiting = waitingAnswer(checkin.day);
  if (waiting) {
    checkin = { ...checkin, answer: checkin.answer === "yes" ? "yes" : waiting.answer, shouldAsk: false };
  }
  if (shieldWanted()) return openShield(); // /shield?from=HOST (shield.js)
  if (checkin.answer === "no") {
    await loadBlock();
    show("block");
  } else {
    await open(wanted);
  }
  if (checkin.shouldAsk && !paintingKnown) askQuestion();
}

/// The check-in as saved here, or, when it was saved on an earlier day than the account's day now
/// (a morning opened offline), that new day unanswered and unconfirmed (`newDay`): nothing of the
/// saved day is shown, or recorded, as today's.
function newDay(known) {
  const answered = paintingKnown || !$("offline").hidden;
  if (!answered || !profile || !known?.day) return known;
  const today = accountDay(nowMs(testClock()), profile.timezone, profile.dayStart);
  if (today <= known.day) return known;
  return {
    ...known, day: today, newDay: true, answer: null, answeredToday: false, answeredYes: false,
    shouldAsk: Boolean(known.configured),
  };
}

function askQuestion() {
  $("question-text").textContent = checkin?.question || "Have you done what matters most this morning?";
  $("question-backdrop").hidden = false;
  for (const section of document.querySelectorAll("header, main")) section.inert = true;
  $("answer-yes").focus();
}

function closeQuestion() {
  $("question-backdrop").hidden = true;
  for (const section of document.querySelectorAll("header, main")) section.inert = false;
}

async function answer(yes) {
  await record({ kind: "checkin", answer: yes ? "yes" : "no", day: checkin?.day });
  closeQuestion();
  await refreshDay();
}

function quoteFigure(figure, quote) {
  figure.replaceChildren(
    element("blockquote", { text: `“${quote.text}”` }),
    element("figcaption", { text: `— ${quote.author}, ${quote.bookTitle}` }));
}

async function loadBlock() {
  $("block-verse").textContent = checkin.verse || "";
  $("block-suggestions").replaceChildren(...(checkin.suggestions || []).map((text) => element("li", { text })));
  quoteFigure($("block-quote"), await api("GET", "/api/quote"));
}

// MARK: - Wiring

function trapFocus(event) {
  if ($("question-backdrop").hidden) return;
  if (event.key === "Escape") {
    event.preventDefault();  // the question is answered, not dismissed
    return;
  }
  if (event.key !== "Tab") return;
  const buttons = [$("answer-yes"), $("answer-no")];
  const index = buttons.indexOf(document.activeElement);
  event.preventDefault();
  buttons[(index + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
}

/// A tapped notification (sw.js) brings the app to the front: it shows Today, as the server has it now.
async function openedFromNotification(event) {
  if (event.data?.type !== "notification-opened" || !localStorage.getItem(TOKEN)) return;
  show("today");
  try {
    await refreshDay();
  } catch (error) {
    notice(error.message, "error");
  }
}

async function whenVisible() {
  if (document.visibilityState !== "visible" || !localStorage.getItem(TOKEN)) return;
  const before = checkin?.day;
  try {
    const now = await api("GET", "/api/checkin");
    if (now.day !== before || (now.shouldAsk && $("question-backdrop").hidden)) await refreshDay();
  } catch (error) {
    // offline or signed out: already shown
  }
}

async function refreshQuote() {
  if (document.visibilityState !== "visible" || !localStorage.getItem(TOKEN)) return;
  const target = !$("block").hidden ? $("block-quote") : !$("today").hidden ? $("today-quote") : null;
  if (target) quoteFigure(target, await api("GET", "/api/quote").catch(() => null) || { text: "", author: "", bookTitle: "" });
}

async function boot() {
  $("signin-form").addEventListener("submit", signIn);
  $("toggle-signup").addEventListener("click", toggleSignUp);
  $("answer-yes").addEventListener("click", () => answer(true));
  $("answer-no").addEventListener("click", () => answer(false));
  $("done-it").addEventListener("click", () => answer(true));
  wireSync({
    api, clockNow: testClock, saveSession, setOffline, notice,
    signedOut: (why) => signOut(false, why), refresh: () => refreshDay().catch(() => {}),
  });
  wireToday({
    api, element, notice, quoteFigure, record, waitingFor, offline: () => !$("offline").hidden, today: () => checkin?.day,
    newDay: () => Boolean(checkin?.newDay),
  });
  wireScreens({
    api, element, notice, record, waitingFor, authHeaders, quoteFigure, show, ask: askQuestion,
    today: () => checkin?.day, account: () => account, todayChanged: loadToday,
    checkin: () => checkin, checkinChanged: (fresh) => { checkin = fresh; }, clockHeader: () => server.clockHeader,
    profileChanged: (me) => {
      profile = me;
      showZoneLine();
    },
    signedOut: (why) => signOut(false, why),
    signedIn: (token) => {
      localStorage.setItem(TOKEN, token);
      return start();
    },
  });
  wireInstall();
  $("signout").addEventListener("click", () => signOut());
  $("notice-close").addEventListener("click", () => notice(""));
  // The status chip is one line; a tap shows all it says.
  $("status-chip").addEventListener("click", () => $("status-chip").classList.toggle("open"));
  // Another tab signed in as someone else, or out: this one follows, rather than show one account's
  // day and act on it with the other's token.
  window.addEventListener("storage", (event) => {
    if (event.key === TOKEN && event.newValue !== accountToken) location.reload();
  });
  $("debug-reset").addEventListener("click", async () => {
    await api("DELETE", "/api/checkin/today");
    await refreshDay();
  });
  $("debug-ask").addEventListener("click", askQuestion);
  for (const tab of document.querySelectorAll("#tabs button")) {
    tab.addEventListener("click", () => {
      wanted = tab.dataset.screen;
      open(wanted).catch((error) => notice(error.message, "error"));
    });
  }
  document.addEventListener("keydown", trapFocus);
  document.addEventListener("visibilitychange", whenVisible);
  window.addEventListener("online", async () => {
    setOffline(false);
    if (!localStorage.getItem(TOKEN)) return;
    await sync();
    await refreshDay().catch(() => {});
  });
  window.addEventListener("offline", () => setOffline(true));
  // The quote changes every 5 minutes (and keeps the last one for 30 seconds): ask again often.
  setInterval(refreshQuote, 15000);
  setInterval(whenVisible, 60000);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    navigator.serviceWorker.addEventListener("message", openedFromNotification);
  }
  // A second open paints at once from what was known here (IndexedDB), then asks the server.
  const health = localStorage.getItem(TOKEN) ? await offlineStore.recall("/health").catch(() => null) : null;
  if (health) {
    server = health.json;
    paintingKnown = true;
    await start().catch(() => {});
    paintingKnown = false;
  }
  try {
    server = await (await fetch("/health")).json();
    offlineStore.remember("/health", server).catch(() => {});
  } catch (error) {
    const known = await offlineStore.recall("/health").catch(() => null);
    setOffline(true, known?.savedAt);
    if (!known) return;
    server = known.json;
  }
  window.addEventListener("hashchange", openReset);
  if (await openReset()) return;
  try {
    await start();
  } catch (error) {
    if (error.status !== 401) notice(error.message, "error");
  }
}

/// Shows the reset page when the address is a reset link (account.js); true when it did.
async function openReset() {
  return /^#reset=/.test(location.hash) && (await accountPart()).openReset();
}

boot();
