// MorningProof's web app: the morning routine on a phone. Every day decision comes from the server
// (GET /api/checkin, /api/habits, ...); offline, the page only tells the day it saved from a new one
// (clock.js), and the server decides the day of what it recorded when it arrives.
import { loadToday, wireToday } from "/today.js";
import { wireInstall } from "/install.js";
import {
  account as accountPart, firstRunDue, loadFirstRun, loadHabits, loadHistory, loadSettings, openNewHabit, openShield,
  shieldWanted, warmScreens, wireScreens, wireSignInPage,
} from "/screens.js";
import { accountDay, nowMs } from "/clock.js";
import { offlineStore, record, showWaiting, sync, waitingAnswer, waitingFor, wireSync } from "/sync.js";
import {
  TOKEN, api, authHeaders, clockHeader, forgetPaint, isOffline, knownForPaint, paintKnown, paintingFromKnown, rememberForPaint,
  serverSaid, setOffline, testClock, wireAPI,
} from "/api.js";
import { notice, wireToast } from "/toast.js";
import { element, quoteFigure } from "/draw.js";
import { showZoneLine, wireZoneLine } from "/zoneline.js";
import { askQuestion, asking, closeQuestion, wireQuestion } from "/question.js";
import { resetSignIn, wireSignIn } from "/signin.js";

const $ = (id) => document.getElementById(id);
let checkin = null;
let newAccount = false; // signed up on this page: its first run is due here (firstrun.js)
let account = null; // the signed-in account's id, which the actions queued offline are kept for
let accountToken = null; // the token `account` was read with: the queue is sent with this pair only
let profile = null; // the signed-in account's zone and day start (GET /api/auth/me)
let wanted = "today"; // the tab chosen last, which a refresh of the day shows
let opening = 0; // counts the screens opened: a screen that finishes loading after a later one is not shown

/// What the service worker needs to send the queue on its own: the token, the account, the test clock.
async function saveSession() {
  // Not the token in localStorage now: another tab may have signed in as someone else since.
  if (!accountToken || account === null) return;
  const now = testClock();
  await offlineStore.saveSession({ token: accountToken, account, now });
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
  if (isOffline()) setOffline(true);
}

/// Today's "Add a habit": Habits, with its "New habit" form open and its name field focused.
async function addHabit() {
  wanted = "habits";
  await open("habits");
  await openNewHabit();
}

/// Signing out (`tellServer`) forgets what was known here; a token the server refused (401) keeps the
/// queue, to be sent once the account signs in again (`why` says so).
function signOut(tellServer = true, why = "") {
  if (tellServer && localStorage.getItem(TOKEN)) api("POST", "/api/auth/logout").catch(() => {});
  if (tellServer) {
    offlineStore.forget().catch(() => {});
    forgetPaint();
  }
  localStorage.removeItem(TOKEN);
  account = null;
  accountToken = null;
  $("signin-error").textContent = why;
  closeQuestion();
  resetSignIn();
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
  // The first paint reads no IndexedDB (its first open is slow): the queue is shown by the paint that follows.
  if (paintingFromKnown()) return refreshDay();
  await showWaiting();
  showZoneLine();
  await refreshDay();
  // On open: what was recorded offline before goes now.
  if ((await sync()).sent) await refreshDay();
  warmScreens();
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
  if (checkin.shouldAsk && !paintingFromKnown()) askQuestion(checkin?.question);
}

/// The check-in as saved here, or, when it was saved on an earlier day than the account's day now
/// (a morning opened offline), that new day unanswered and unconfirmed (`newDay`): nothing of the
/// saved day is shown, or recorded, as today's.
function newDay(known) {
  const answered = paintingFromKnown() || isOffline();
  if (!answered || !profile || !known?.day) return known;
  const now = nowMs(testClock());
  // Before the instant the server said the day ends, it is still that day: no time-zone rules to load.
  if (now < Date.parse(known.dayEndsAt)) return known;
  const today = accountDay(now, profile.timezone, profile.dayStart);
  if (today <= known.day) return known;
  return {
    ...known, day: today, newDay: true, answer: null, answeredToday: false, answeredYes: false,
    shouldAsk: Boolean(known.configured),
  };
}

async function answer(yes) {
  await record({ kind: "checkin", answer: yes ? "yes" : "no", day: checkin?.day });
  closeQuestion();
  await refreshDay();
}

async function loadBlock() {
  $("block-verse").textContent = checkin.verse || "";
  $("block-suggestions").replaceChildren(...(checkin.suggestions || []).map((text) => element("li", { text })));
  quoteFigure($("block-quote"), await api("GET", "/api/quote"));
}

// MARK: - Wiring

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
    if (now.day !== before || (now.shouldAsk && !asking())) await refreshDay();
  } catch (error) {
    // offline or signed out: already shown
  }
}

/// The account's profile changed (Settings, "Move my days"): the zone line follows it.
function profileChanged(me) {
  profile = me;
  showZoneLine();
}

async function refreshQuote() {
  if (document.visibilityState !== "visible" || !localStorage.getItem(TOKEN)) return;
  const target = !$("block").hidden ? $("block-quote") : !$("today").hidden ? $("today-quote") : null;
  if (target) quoteFigure(target, await api("GET", "/api/quote").catch(() => null) || { text: "", author: "", bookTitle: "" });
}

async function boot() {
  wireSignIn({ start, signedUp: () => { newAccount = true; } });
  wireAPI({ signedOut: () => signOut(false) });
  wireQuestion(answer);
  wireZoneLine({ api, profile: () => profile, profileChanged, refresh: refreshDay });
  wireToast();
  wireSync({
    api, clockNow: testClock, saveSession, setOffline, notice,
    signedOut: (why) => signOut(false, why), refresh: () => refreshDay().catch(() => {}),
  });
  wireToday({
    api, element, notice, quoteFigure, record, waitingFor, offline: isOffline, today: () => checkin?.day,
    newDay: () => Boolean(checkin?.newDay), addHabit,
  });
  wireScreens({
    api, element, notice, record, waitingFor, authHeaders, quoteFigure, show, ask: () => askQuestion(checkin?.question),
    today: () => checkin?.day, account: () => account, todayChanged: loadToday,
    checkin: () => checkin, checkinChanged: (fresh) => { checkin = fresh; }, clockHeader,
    profileChanged,
    signedOut: (why) => signOut(false, why),
    signedIn: (token) => {
      localStorage.setItem(TOKEN, token);
      return start();
    },
  });
  wireInstall();
  $("signout").addEventListener("click", () => signOut());
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
  $("debug-ask").addEventListener("click", () => askQuestion(checkin?.question));
  for (const tab of document.querySelectorAll("#tabs button")) {
    tab.addEventListener("click", () => {
      wanted = tab.dataset.screen;
      open(wanted).catch((error) => notice(error.message, "error"));
    });
  }
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
  // The server is asked at once; meanwhile a second open paints what it showed last time (knownForPaint).
  const asked = fetch("/health").then((response) => response.json());
  asked.catch(() => {}); // answered below
  const known = knownForPaint();
  const health = known?.get("/health");
  if (health) {
    serverSaid(health.json);
    paintKnown(known);
    await start().catch(() => {});
    paintKnown(null);
  }
  try {
    const said = await asked;
    serverSaid(said);
    offlineStore.remember("/health", said).catch(() => {});
    rememberForPaint("/health", said);
  } catch (error) {
    const known = await offlineStore.recall("/health").catch(() => null);
    setOffline(true, known?.savedAt);
    if (!known) return;
    serverSaid(known.json);
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
