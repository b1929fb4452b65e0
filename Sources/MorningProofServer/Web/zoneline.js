// Today's one line when this phone's zone is not the account's: "Move my days to …" or "Keep …".
import { element } from "/draw.js";
import { notice } from "/toast.js";

const $ = (id) => document.getElementById(id);
let deps = null;

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
export function showZoneLine() {
  const line = $("zone-line");
  const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = deps.profile()?.timezone;
  const kept = zone ? localStorage.getItem(keptKey(zone, device)) : "1";
  line.hidden = !device || !zone || zone === device || kept === "1";
  if (line.hidden) return line.replaceChildren();
  const [here, days] = [place(device), place(zone)];
  const keep = () => {
    localStorage.setItem(keptKey(zone, device), "1");
    showZoneLine();
  };
  const move = async () => {
    try {
      deps.profileChanged(await deps.api("PATCH", "/api/auth/profile", { timezone: device }));
      notice(`Your days now follow ${here} time.`);
      await deps.refresh();
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

/// `api`, `profile()` (GET /api/auth/me), `profileChanged(me)` (which shows this line again) and
/// `refresh()` (the day again).
export function wireZoneLine(app) {
  deps = app;
}
