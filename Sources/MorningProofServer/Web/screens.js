// The screens Today does not need on open (Habits, History, Settings, the shield, the first run, and
// the sign-in page's passkey and password-reset parts), each fetched with import() the first time it
// is wanted and wired then: the first load stays small on a phone's link. The service worker caches
// every module (sw.js), so they open offline too; and once Today is shown, `warmScreens` fetches the
// rest while the page is idle, so that a page that loses its connection later has them in memory.
const $ = (id) => document.getElementById(id);
let app = null;
const loading = new Map(); // a part's name → the promise of its wired module(s)

/// The part `name`, loaded and wired by `load` once; a load that failed (offline, not cached) is
/// tried again the next time.
function once(name, load) {
  if (!loading.has(name)) {
    loading.set(name, load().catch((error) => {
      loading.delete(name);
      throw error;
    }));
  }
  return loading.get(name);
}

const habits = () => once("habits", async () => {
  const module = await import("/habits.js");
  module.wireHabits({ api: app.api, element: app.element, notice: app.notice });
  return module;
});

const history = () => once("history", async () => {
  const module = await import("/history.js");
  module.wireHistory({
    api: app.api, element: app.element, notice: app.notice, record: app.record, waitingFor: app.waitingFor,
    today: app.today, list: () => $("history-list"),
  });
  return module;
});

const notifications = () => once("notifications", async () => {
  const module = await import("/notifications.js");
  module.wireNotifications({ api: app.api, element: app.element });
  return module;
});

/// Password, sessions and the reset page (account.js): Settings and the sign-in page use it.
export const account = () => once("account", async () => {
  const module = await import("/account.js");
  module.wireAccount({
    api: app.api, element: app.element, show: app.show, signedOut: app.signedOut,
    tokensChanged: () => settings().then((parts) => parts.settings.loadSettings()),
  });
  return module;
});

const passkeys = () => once("passkeys", async () => {
  const module = await import("/passkeys.js");
  module.wirePasskeys({ api: app.api, element: app.element, signedIn: app.signedIn });
  return module;
});

/// Settings' modules, wired: its own cards, health data, notifications, account, the shield's list, passkeys,
/// and the data cards (download, import, delete).
const settings = () => once("settings", async () => {
  const [settingsModule, health, shieldSettings, dataCare, ...rest] = await Promise.all([
    import("/settings.js"), import("/healthdata.js"), import("/shieldsettings.js"), import("/datacare.js"), notifications(),
    account(), passkeys()]);
  const parts = { settings: settingsModule, health, shieldSettings, notifications: rest[0], account: rest[1], passkeys: rest[2] };
  const loadSettings = () => settingsModule.loadSettings();
  settingsModule.wireSettings({
    api: app.api, element: app.element, notice: app.notice, checkin: app.checkin, checkinChanged: app.checkinChanged,
    clockHeader: app.clockHeader, profileChanged: app.profileChanged,
  });
  health.wireHealthData({
    api: app.api, element: app.element, notice: app.notice, authHeaders: app.authHeaders,
    signedOut: () => app.signedOut(), uploaded: app.todayChanged, tokensChanged: loadSettings,
  });
  shieldSettings.wireShieldSettings({ api: app.api, element: app.element, notice: app.notice });
  dataCare.renderDataCare($("data-care"), { api: app.api, authHeaders: app.authHeaders, signedOut: app.signedOut });
  return parts;
});

const firstRun = () => once("firstrun", async () => {
  const [module, push] = await Promise.all([import("/firstrun.js"), notifications()]);
  module.wireFirstRun({
    api: app.api, notice: app.notice, account: app.account, changed: app.todayChanged,
    pushUnavailable: push.pushUnavailable, turnOnPush: push.turnOnPush,
  });
  return module;
});

const shield = () => once("shield", async () => {
  const module = await import("/shield.js");
  module.wireShield({
    api: app.api, element: app.element, notice: app.notice, quoteFigure: app.quoteFigure, show: app.show, ask: app.ask,
  });
  return module;
});

/// Habits, drawn from the server.
export async function loadHabits() {
  await (await habits()).loadHabits();
}

/// Habits with its "New habit" form open and focused (Today's "Add a habit").
export async function openNewHabit() {
  (await habits()).openForm(null);
  $("hf-name").focus();
}

export async function loadHistory() {
  await (await history()).loadHistory();
}

/// Settings' cards, each from the server (the notifications card says its own failure).
export async function loadSettings() {
  const parts = await settings();
  parts.passkeys.loadPasskeys().catch((error) => { $("passkey-status").textContent = error.message; });
  await Promise.all([parts.settings.loadSettings(), parts.notifications.loadNotifications(), parts.account.loadAccount(),
    parts.shieldSettings.loadShieldSettings()]);
}

// firstrun.js keeps this key; read here too, so that Today opens without fetching the first run.
const FIRST_RUN = (id) => `morningproof.first-run.${id}`;

/// After sign-up made `id`: its first run is due on this device (firstrun.js).
export function firstRunDue(id) {
  localStorage.setItem(FIRST_RUN(id), "due");
}

/// The first run on Today, fetched only while it is due on this device (or once it was shown).
export async function loadFirstRun() {
  const id = app.account();
  if (!loading.has("firstrun") && (id === null || localStorage.getItem(FIRST_RUN(id)) !== "due")) return;
  await (await firstRun()).loadFirstRun();
}

/// True on /shield: app.js shows the shield instead of Today (shield.js).
export function shieldWanted() {
  return location.pathname === "/shield";
}

export async function openShield() {
  await (await shield()).openShield();
}

/// The sign-in page's parts of other modules: "Sign in with a passkey", "Forgot password".
export function wireSignInPage() {
  Promise.all([passkeys(), account()]).catch(() => {});
}

/// Fetches and wires every screen while the page is idle (after Today is shown).
export function warmScreens() {
  const warm = () => Promise.all([habits(), history(), settings(), firstRun(), shield()]).catch(() => {});
  if (window.requestIdleCallback) requestIdleCallback(warm, { timeout: 2000 });
  else setTimeout(warm, 500);
}

/// Connects the lazy screens to the app: what each module's `wire…` takes from app.js (`api`, `element`,
/// `notice`, `record`, `waitingFor`, `today()`, `account()`, `show`, `ask`, ...), and `todayChanged()`.
export function wireScreens(context) {
  app = context;
}
