// The app's shell, served from the cache first (a second open paints at once, even on a slow link)
// and refreshed in the background; a new version of the app (another CACHE name, which the server
// derives from its files) installs a new cache and takes over on the next open. The API is never
// cached here: the page keeps what it knew, and the actions it recorded offline, in IndexedDB
// (offline.js), and this worker replays that queue on a Background Sync.
importScripts("/offline.js");
// The server fills in the app's files (WebRoutes.files, this one left out) and their version.
const SHELL = [/* APP_FILES */];
const CACHE = "morningproof-shell-v2-/* APP_VERSION */";
const REPLAY = "morningproof-replay";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()));
});

/// The cached copy at once when there is one (refreshed behind it), else the network; with neither,
/// the app's page for a navigation.
async function shellFile(event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(event.request, { ignoreSearch: true });
  const fresh = fetch(event.request).then((response) => {
    if (response.ok) return cache.put(event.request, response.clone()).then(() => response);
    return response;
  });
  if (hit) {
    event.waitUntil(fresh.catch(() => {}));
    return hit;
  }
  return fresh.catch(() => (event.request.mode === "navigate" ? cache.match("/") : Response.error()));
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (url.pathname === "/health") return;
  event.respondWith(shellFile(event));
});

// MARK: - The queue recorded offline, sent when the browser says the network is back

self.addEventListener("sync", (event) => {
  if (event.tag !== REPLAY) return;
  event.waitUntil(self.morningproofOffline.replay().then(async (outcome) => {
    // Every window of the app, also one opened before this worker took control, shows the day again.
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) client.postMessage({ type: "replayed" });
    // A sync that fails is tried again later by the browser: a network error or a server error.
    if (outcome.stopped === "network" || outcome.stopped === "server") throw new Error(`replay stopped: ${outcome.stopped}`);
  }));
});

// MARK: - Notifications pushed by the server (Web Push)

/// What a push with no readable message shows: a push must always show something.
const GENERIC = { title: "MorningProof", body: "Open MorningProof to see what is new.", tag: "morningproof", url: "/" };

/// The server's message ({title, body, event, habit, day, url}) as the notification to show, or the
/// generic one when the push has no data or data that is not that message.
function pushedNotification(data) {
  let message = null;
  try {
    message = data ? data.json() : null;
  } catch (error) {
    message = null;
  }
  if (!message || typeof message !== "object" || typeof message.title !== "string" || !message.title) return GENERIC;
  const text = (value) => (typeof value === "string" ? value : "");
  return {
    title: message.title,
    body: text(message.body),
    // One notification per event, habit and day: a repeat replaces it instead of piling up.
    tag: [text(message.event), text(message.habit), text(message.day)].join("|"),
    url: text(message.url) || "/",
  };
}

self.addEventListener("push", (event) => {
  const shown = pushedNotification(event.data);
  event.waitUntil(self.registration.showNotification(shown.title, {
    body: shown.body, tag: shown.tag, data: { url: shown.url }, icon: "/icon.svg", badge: "/icon.svg",
  }));
});

/// The app's own page for `url`: a path on this origin; anything else opens the app's start.
function appURL(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
  } catch (error) {
    return new URL("/", self.location.origin).href;
  }
}

/// Brings an open app window to the front showing Today, or opens the app at `url`.
async function openApp(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(url);
  open.postMessage({ type: "notification-opened", url });
  try {
    await open.focus();
  } catch (error) {
    // Focus is only allowed while handling a tap; the window shows Today all the same.
  }
  return open;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openApp(appURL(event.notification.data?.url)));
});
