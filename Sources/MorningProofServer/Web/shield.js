// The shield page (issue 42): /shield?from=HOST, where a shielded site, the browser extension or a
// phone automation sends a person while the gate is closed. The quote of the moment, what is still
// pending with a direct way to do it (Today's hold-to-complete check, Today's photo proof), the
// excuses left with "Unlock for today", and once the gate opens "Continue to HOST", only to an
// http(s) host on the account's shielded list (never another scheme, never another host).
import { checkFor, loadToday, photoProof } from "/today.js";
import { excuseWords } from "/excuses.js";

const $ = (id) => document.getElementById(id);
let deps = null;
let sites = null; // the account's shielded host patterns (GET /api/gate/settings), asked once a visit

/// Whether the host `host` is one `site` shields: `instagram.com` shields it and www.instagram.com,
/// `*.reddit.com` reddit.com and every subdomain of it (the extension's rule).
export function shields(site, host) {
  if (site.startsWith("*.")) return host === site.slice(2) || host.endsWith(site.slice(1));
  return host === site || host === `www.${site}`;
}

/// Where "Continue" leads for `from` (a host, or an http(s) address), or null: another scheme, a
/// host with a user name, or a host that is not on `list`, is never a destination.
export function destination(from, list) {
  if (!from) return null;
  let url;
  try {
    if (from.includes("://")) url = new URL(from);
    else if (/^[a-z0-9.-]+(:[0-9]{1,5})?$/i.test(from)) url = new URL(`https://${from}/`);
    else return null;
  } catch (error) {
    return null;
  }
  if (!["https:", "http:"].includes(url.protocol) || url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  return list.some((site) => shields(site, host)) ? url.href : null;
}

/// The host the page names: the `from` parameter's host (an http(s) address), or its text when it is
/// a host or a plain word (`from=instagram`, from a phone automation); null for anything else.
function fromName() {
  const from = new URLSearchParams(location.search).get("from") || "";
  if (/^[a-z0-9.-]{1,100}(:[0-9]{1,5})?$/i.test(from)) return from;
  try {
    const url = new URL(from);
    return ["https:", "http:"].includes(url.protocol) ? url.hostname : null;
  } catch (error) {
    return null;
  }
}

const OPEN = {
  done: "Your morning is proved: the gate is open.",
  unlocked: "Unlocked for today: the gate is open.",
  cutoff: "Past the cutoff: the gate is open for the rest of the day.",
  off: "The shield is off today: the gate is open.",
};

/// Shows the shield for the gate as the server has it now.
export async function openShield() {
  await loadToday(); // the day an action is recorded for, as Today has it
  sites ??= (await deps.api("GET", "/api/gate/settings").catch(() => ({ sites: [] }))).sites;
  await drawGate(await deps.api("GET", "/api/gate"));
  deps.show("shield");
}

async function refresh() {
  if ($("shield").hidden) return;
  try {
    await drawGate(await deps.api("GET", "/api/gate"));
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

function drawGate(gate) {
  const name = fromName();
  $("shield-title").textContent = gate.open ? "The gate is open" : name ? `${name} waits for your morning` : "Your morning first";
  deps.quoteFigure($("shield-quote"), { ...gate.quote, bookTitle: gate.quote.book });
  const cutoff = gate.reason === "pending" && gate.nextChange
    ? ` It opens anyway at ${gate.nextChange.slice(11, 16)}.` : "";
  $("shield-state").textContent = gate.open ? OPEN[gate.reason] || "The gate is open."
    : `Closed until what is left is done.${cutoff}`;
  $("shield-left").hidden = gate.open;
  $("shield-pending").replaceChildren(...gate.pending.map(pendingRow));
  if (["unanswered", "no"].includes(gate.checkin)) $("shield-pending").append(questionRow(gate.checkin));
  $("shield-unlock").hidden = gate.open;
  $("shield-excuses").textContent = `${excuseWords(gate)}.`;
  $("shield-unlock-button").disabled = gate.excusesLeft < 1;
  const to = gate.open ? destination(new URLSearchParams(location.search).get("from"), sites || []) : null;
  $("shield-continue").hidden = !to;
  if (to) {
    $("shield-continue").href = to;
    $("shield-continue").textContent = `Continue to ${new URL(to).host}`;
  }
}

/// One pending habit with the way to do it here: hold the check (by hand), take the photo (a photo
/// habit), or wait for the health data (a metric goal).
function pendingRow(pending) {
  const habit = { ...pending, state: "pending" };
  const about = deps.element("div", { class: "about" }, deps.element("h3", { text: habit.name }));
  if (habit.kind === "photo") {
    return deps.element("li", { class: "habit" }, deps.element("span", { class: "round-check", "aria-hidden": "true" }),
      about, ...photoProof(habit, "shield-photo"));
  }
  if (habit.kind === "metric") {
    about.append(deps.element("p", { class: "muted", text: "Done when the health data meets its goal." }));
    return deps.element("li", { class: "habit" }, deps.element("span", { class: "round-check", "aria-hidden": "true" }), about);
  }
  about.append(deps.element("p", { class: "muted", text: "Press and hold the circle when it is done." }));
  return deps.element("li", { class: "habit" }, checkFor(habit, false), about);
}

function questionRow(state) {
  return deps.element("li", { class: "habit" },
    deps.element("span", { class: "round-check", "aria-hidden": "true" }),
    deps.element("div", { class: "about" },
      deps.element("h3", { text: "The daily question" }),
      deps.element("p", { class: "muted", text: state === "no" ? "Answered no today." : "Not answered yet." }),
      deps.element("button", { type: "button", text: "Answer the daily question", onclick: deps.ask })));
}

async function unlock(event) {
  event.preventDefault();
  $("shield-unlock-error").textContent = "";
  try {
    await drawGate(await deps.api("POST", "/api/gate/unlock", { reason: $("shield-reason").value.trim() }));
    $("shield-reason").value = "";
  } catch (error) {
    $("shield-unlock-error").textContent = error.message;
  }
}

/// Wires the shield to the app: `api`, `element`, `notice`, `quoteFigure`, `show(screen)`, `ask()` (the
/// daily question).
export function wireShield(app) {
  deps = app;
  $("shield-unlock-form").addEventListener("submit", unlock);
  // A habit done or proved here (today.js draws Today again then): the gate may have opened.
  document.addEventListener("today-drawn", refresh);
}
