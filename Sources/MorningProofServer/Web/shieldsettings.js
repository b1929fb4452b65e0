// Settings' "Connect a browser or a phone automation" (issue 42): the shielded sites, the cutoff and
// the days of the shield (GET/PUT /api/gate/settings), a one-time pairing code for the browser
// extension (POST /api/gate/pairing: shown once, valid 10 minutes), and for a phone automation a
// gate token (POST /api/tokens with scope "gate") with the URL and the header line to paste.
const $ = (id) => document.getElementById(id);
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
let deps = null;

/// Fills the form from the server's settings.
export async function loadShieldSettings() {
  const settings = await deps.api("GET", "/api/gate/settings");
  $("shield-sites").value = settings.sites.join("\n");
  $("shield-cutoff").value = settings.cutoff || "";
  for (const day of DAYS) $(`shield-day-${day}`).checked = settings.days.includes(day);
  $("shield-settings-status").textContent = "";
}

async function save(event) {
  event.preventDefault();
  const sites = $("shield-sites").value.split(/[\s,]+/).filter(Boolean);
  const days = DAYS.filter((day) => $(`shield-day-${day}`).checked);
  try {
    const saved = await deps.api("PUT", "/api/gate/settings", { sites, cutoff: $("shield-cutoff").value || null, days });
    $("shield-sites").value = saved.sites.join("\n");
    const count = saved.sites.length === 1 ? "1 site" : `${saved.sites.length} sites`;
    $("shield-settings-status").textContent = `Saved: ${count} shielded${saved.cutoff ? `, open anyway after ${saved.cutoff}` : ""}.`;
  } catch (error) {
    $("shield-settings-status").textContent = `Not saved: ${error.message}`;
  }
}

async function makePairingCode() {
  try {
    const made = await deps.api("POST", "/api/gate/pairing");
    const until = new Date(made.expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    $("shield-code").textContent = made.code;
    $("shield-code-hint").textContent = `Type it in the extension's options before ${until}. It works once and is shown only now.`;
    $("shield-pairing-result").hidden = false;
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

async function connectAutomation() {
  try {
    const made = await deps.api("POST", "/api/tokens", { name: "Phone automation", scope: "gate" });
    $("shield-url").value = `${location.origin}/api/gate?format=text`;
    $("shield-header").value = `Authorization: Bearer ${made.token}`;
    $("shield-automation-settings").hidden = false;
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

async function copy(id) {
  try {
    await navigator.clipboard.writeText($(id).value);
    $("shield-copied").textContent = "Copied.";
  } catch (error) {
    $(id).select(); // no clipboard here: selected, to copy by hand
    $("shield-copied").textContent = "Selected: copy it by hand.";
  }
}

/// Wires the card to the app: `api`, `element`, `notice`.
export function wireShieldSettings(app) {
  deps = app;
  const names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  $("shield-days").append(...DAYS.map((day, index) => deps.element("label", {},
    deps.element("input", { id: `shield-day-${day}`, type: "checkbox", name: "days", value: day }), ` ${names[index]}`)));
  $("shield-settings-form").addEventListener("submit", save);
  $("shield-pairing").addEventListener("click", makePairingCode);
  $("shield-automation").addEventListener("click", connectAutomation);
  for (const button of document.querySelectorAll("#shield-automation-settings [data-copy]")) {
    button.addEventListener("click", () => copy(button.dataset.copy));
  }
}
