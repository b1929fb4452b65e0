// Talking to the server: every API request with the session's token (and, in tests, the moment to act
// at), its answer remembered in IndexedDB for offline use (offline.js), and the page's offline state:
// what needs the server is disabled while it is offline, what can wait (Done, Skip, Undo, the answer)
// is not.
import { heardFrom } from "/clock.js";
import { offlineStore, reachedServer } from "/sync.js";

const $ = (id) => document.getElementById(id);
/// Where the session's token is kept.
export const TOKEN = "morningproof.token";
// Tests and demos only: a moment the server honours when it runs with --allow-clock-header.
const NOW = "morningproof.now";
let server = { clockHeader: false }; // GET /health: whether the server honours the test clock
let knownAt = null; // offline: when the oldest answer shown from IndexedDB was saved
let paintingKnown = null; // on open, before the server is asked: GETs answered from this Map (knownForPaint)
/// Where a second open finds what it paints before the server answers: the last answers of the
/// requests Today makes (PAINTED), with the token they were read with. localStorage, read at once:
/// IndexedDB's first open on a page costs a phone hundreds of milliseconds (scripts/bench/web).
const FIRST_PAINT = "morningproof.firstPaint";
const PAINTED = new Set(["/health", "/api/auth/me", "/api/checkin", "/api/habits", "/api/status", "/api/quote"]);
let signedOut = () => {}; // a token the server refused (401): app.js shows the sign-in page

/// What GET /health said (`clockHeader`), kept for the test clock.
export function serverSaid(health) {
  server = health;
}

/// Whether the server honours the test clock (Settings' Debug card).
export function clockHeader() {
  return Boolean(server.clockHeader);
}

/// While `known` (knownForPaint's Map), GETs are answered from it: a second open paints at once.
export function paintKnown(known) {
  paintingKnown = known;
}

export function paintingFromKnown() {
  return paintingKnown !== null;
}

/// What Today was painted from last time, path → { json, savedAt }, if it was read with the token
/// signed in now; else null.
export function knownForPaint() {
  try {
    const kept = JSON.parse(localStorage.getItem(FIRST_PAINT));
    const token = localStorage.getItem(TOKEN);
    return token && kept?.token === token ? new Map(Object.entries(kept.paths)) : null;
  } catch {
    return null;
  }
}

/// Keeps the answer to GET `path` for the next open's first paint, when Today reads it.
export function rememberForPaint(path, json) {
  if (!PAINTED.has(path)) return;
  try {
    const token = localStorage.getItem(TOKEN);
    const kept = JSON.parse(localStorage.getItem(FIRST_PAINT));
    // Another token's answers go, but /health's, which is the server's and no account's.
    const paths = kept?.token === token ? kept.paths : kept?.paths?.["/health"] ? { "/health": kept.paths["/health"] } : {};
    paths[path] = { json, savedAt: Date.now() };
    localStorage.setItem(FIRST_PAINT, JSON.stringify({ token, paths }));
  } catch {
    // storage full or refused: the next open waits for the server (or IndexedDB, offline)
  }
}

/// Signing out: the next open paints nothing of this account.
export function forgetPaint() {
  localStorage.removeItem(FIRST_PAINT);
}

/// Whether the page is offline (as its status line says).
export function isOffline() {
  return !$("offline").hidden;
}

export class APIError extends Error {
  constructor(status, body) {
    super(body.error || `HTTP ${status}`);
    this.status = status;
    this.code = body.code;
  }
}

/// Tests and demos only: the moment the server is asked to act at, when it honours the header.
export function testClock() {
  return server.clockHeader ? localStorage.getItem(NOW) : null;
}

/// The headers every API request carries: the token, and in tests the moment to act at.
export function authHeaders() {
  const headers = {};
  const token = localStorage.getItem(TOKEN);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (testClock()) headers["X-MorningProof-Now"] = testClock();
  return headers;
}

/// `method` `path` with `body` (JSON, or a Blob of `type`): the answer's JSON, or an APIError.
export async function api(method, path, body, type) {
  const painted = method === "GET" ? paintingKnown?.get(path) : null;
  if (painted) return painted.json;
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
    signedOut();
    throw new APIError(401, json);
  }
  if (!response.ok) throw new APIError(response.status, json);
  // The status beside the fields, where it says more (sign-up: 201 made the account, 200 signed in).
  if (json && typeof json === "object") Object.defineProperty(json, "status", { value: response.status });
  if (method === "GET" && path.startsWith("/api/")) {
    offlineStore.remember(path, json).catch(() => {});
    rememberForPaint(path, json);
  }
  reachedServer();
  return json;
}

/// Offline, what needs the server is disabled; what can wait (Done, Skip, Undo, the answer) is not.
export function setOffline(offline, savedAt) {
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

/// `signedOut()`: what a token the server refused (401) does (app.js shows the sign-in page).
export function wireAPI(app) {
  signedOut = app.signedOut;
}
