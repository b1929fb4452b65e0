// The extension's one piece of logic, shared by the background (service worker in Chromium, event
// page in Firefox), the options page and the shield page: ask the server's gate, keep the answer, and
// turn it into declarativeNetRequest dynamic rules that send top-level navigations to a shielded site
// to the extension's own shield page while the gate is closed (none while it is open).
//
// Offline (the server unreachable, or answering anything but 200 or 401): the last answer kept today
// (this browser's calendar date) holds until its nextChange; with none, the gate counts as closed, as
// the CLI's `gate --server` does: a shield that fails open would be no shield. Not set up (no server
// or no token), or a token the server refused (401, revoked): nothing is shielded, and the toolbar
// says so.
/* global chrome */
"use strict";

var MorningProof = (() => {
  const KEYS = ["server", "token", "localSites", "sites", "last"];

  /// What is kept: `server` (https://HOST, no slash at the end), `token` (a gate token), `localSites`
  /// (this browser's own additions), `sites` (the server's), `last` ({ gate, savedAt, date }).
  async function kept() {
    return chrome.storage.local.get(KEYS);
  }

  /// Today's date on this computer (YYYY-MM-DD): an answer kept on another date no longer holds.
  function localDate(ms = Date.now()) {
    const at = new Date(ms);
    const pad = (n) => String(n).padStart(2, "0");
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  }

  /// A host pattern as a regular expression over a URL: `instagram.com` is the host and its www.
  /// form, `*.reddit.com` the host and every subdomain; any port, path, query and fragment. Other
  /// spellings of the same host are the same site: a user name before it (`x@instagram.com`) and
  /// the root's dot after it (`instagram.com.`, which browsers resolve and most sites serve).
  function patternFor(site) {
    const wild = site.startsWith("*.");
    const bare = (wild ? site.slice(2) : site).replace(/[.]/g, "\\.");
    return `^https?://([^/?#@]*@)?${wild ? "([a-z0-9-]+\\.)*" : "(www\\.)?"}${bare}\\.?(:[0-9]+)?([/?#].*)?$`;
  }

  /// Whether `url` (a string) is on one of `sites`, and http(s): where the shield page may go back to.
  function shielded(url, sites) {
    try {
      const parsed = new URL(url);
      if (!["http:", "https:"].includes(parsed.protocol) || parsed.username || parsed.password) return false;
      const clean = `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}${parsed.hash}`;
      return sites.some((site) => new RegExp(patternFor(site), "i").test(clean));
    } catch (error) {
      return false;
    }
  }

  /// Every site to shield: the server's list and this browser's additions, each once.
  function allSites(store) {
    return [...new Set([...(store.sites || []), ...(store.localSites || [])])];
  }

  async function request(store, method, path, body) {
    const headers = { Authorization: `Bearer ${store.token}` };
    if (body) headers["Content-Type"] = "application/json";
    return fetch(`${store.server}${path}`, {
      method, headers, body: body && JSON.stringify(body), cache: "no-store", credentials: "omit",
    });
  }

  /// The rules for `sites`: each a redirect of main-frame navigations to shield.html, with the
  /// address asked for after the # (the whole URL, matched by the pattern).
  function rulesFor(sites) {
    const page = chrome.runtime.getURL("shield.html");
    return sites.map((site, index) => ({
      id: index + 1,
      priority: 1,
      action: { type: "redirect", redirect: { regexSubstitution: `${page}#\\0` } },
      condition: { regexFilter: patternFor(site), isUrlFilterCaseSensitive: false, resourceTypes: ["main_frame"] },
    }));
  }

  // At most the server's 100 sites and 100 of this browser's own: the ids 1...200.
  const RULE_IDS = Array.from({ length: 200 }, (_, index) => index + 1);

  /// Replaces every rule in one update, without reading them first: the background and a page may
  /// apply at the same moment, and each update is whole (no rule id is added twice).
  async function applyRules(sites) {
    await chrome.declarativeNetRequest.updateDynamicRules({
      removeRuleIds: RULE_IDS, addRules: rulesFor(sites.slice(0, RULE_IDS.length)),
    });
  }

  async function toolbar(text, title) {
    await chrome.action.setBadgeText({ text });
    await chrome.action.setTitle({ title: `MorningProof shield: ${title}` });
  }

  /// Asks the server, keeps the answer, applies the rules and the toolbar. Resolves with
  /// { state: "not-set-up" | "refused" | "open" | "closed", gate, offline, sites, server }.
  async function check() {
    const store = await kept();
    if (!store.server || !store.token) {
      await applyRules([]);
      await toolbar("off", "not set up, nothing is shielded. Open the options to connect a server.");
      return { state: "not-set-up" };
    }
    const asked = Date.now();
    let gate = null;
    let refused = false;
    try {
      const [answer, listed] = await Promise.all([request(store, "GET", "/api/gate"), request(store, "GET", "/api/gate/sites")]);
      refused = answer.status === 401;
      if (answer.ok) gate = await answer.json();
      if (listed.ok) store.sites = (await listed.json()).sites;
    } catch (error) {
      // offline: below
    }
    // The background and a page ask at once at times: an answer asked for before another's, or for a
    // server or token changed meanwhile, gives way (it would undo the newer one's rules).
    const latest = await kept();
    if (latest.server !== store.server || latest.token !== store.token) return check();
    if (latest.last && latest.last.asked > asked) return check();
    if (refused) {
      await applyRules([]);
      await toolbar("!", "the server refused the token (revoked?), nothing is shielded. Connect again in the options.");
      return { state: "refused", server: store.server };
    }
    const now = Date.now();
    const offline = !gate;
    if (gate) {
      store.last = { gate, savedAt: now, asked, date: localDate(now) };
      await chrome.storage.local.set({ sites: store.sites || [], last: store.last });
    } else {
      const last = store.last;
      const holds = last && last.date === localDate(now) && !(last.gate.nextChange && Date.parse(last.gate.nextChange) <= now);
      gate = holds ? last.gate : null;
    }
    const open = Boolean(gate?.open);
    const sites = allSites(store);
    await applyRules(open ? [] : sites);
    const time = store.last ? new Date(store.last.savedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : null;
    const known = offline ? (gate ? ` (offline: as known at ${time})` : " (offline: nothing known today, so closed)") : "";
    const left = gate?.pending?.length || 0;
    await toolbar(open ? "" : left ? String(left) : "•",
      `${open ? "open" : `closed${left ? `: ${gate.pending.map((habit) => habit.name).join(", ")}` : ""}`}${known}`);
    return { state: open ? "open" : "closed", gate, offline, sites, server: store.server, savedAt: store.last?.savedAt };
  }

  /// Spends an excuse: opens the gate for the rest of the day (the server's answer), or throws its error.
  async function unlock(reason) {
    const store = await kept();
    const response = await request(store, "POST", "/api/gate/unlock", { reason });
    const reply = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(reply.error || `HTTP ${response.status}`);
    return check();
  }

  /// Exchanges a pairing code for a gate token on `server`, and keeps both.
  async function pair(server, code, name) {
    const response = await fetch(`${server}/api/gate/pair`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code, name }),
      cache: "no-store", credentials: "omit",
    });
    const reply = await response.json().catch(() => ({}));
    if (response.status !== 201) throw new Error(reply.error || `HTTP ${response.status}`);
    await chrome.storage.local.set({ server, token: reply.token, last: null });
    return check();
  }

  return { check, unlock, pair, kept, shielded, allSites, patternFor };
})();
