// The phone's clock, as the offline queue needs it. Online, the server says what today is and when
// an action happened; offline, the page must (1) stamp each action with its instant, corrected by how
// far this phone's clock is from the server's (learnt from each answer's Date header), so that a
// phone whose clock runs fast is not refused as "in the future"; and (2) tell the day it saved from a
// new one, so that a morning opened offline is not shown, or recorded, as the evening before.

let skew = 0; // the server's clock minus this phone's, in ms; 0 within a few seconds

/// Learns the server's clock from an answer's `Date` header (whole seconds).
export function heardFrom(response) {
  const server = Date.parse(response.headers.get("Date") || "");
  if (Number.isNaN(server)) return;
  const difference = server - Date.now();
  skew = Math.abs(difference) > 5000 ? difference : 0;
}

/// Now in ms since 1970 by the server's clock as far as this phone knows it, or `fixed` (an ISO
/// instant: the tests' clock) when given.
export function nowMs(fixed) {
  return fixed ? Date.parse(fixed) : Date.now() + skew;
}

/// An instant as ISO 8601 with this phone's offset at that instant ("2026-11-20T07:10:00-05:00").
export function instantText(ms) {
  const offset = -new Date(ms).getTimezoneOffset();
  const pad = (number) => String(Math.floor(Math.abs(number))).padStart(2, "0");
  const local = new Date(ms + offset * 60000).toISOString().slice(0, 19);
  return `${local}${offset < 0 ? "-" : "+"}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/// The account's day (YYYY-MM-DD) at `ms`: its zone's date once its day start ("04:00") has passed.
export function accountDay(ms, zone, dayStart = "00:00") {
  const [hours, minutes] = dayStart.split(":").map(Number);
  const shifted = new Date(ms - (hours * 60 + minutes) * 60000);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone || undefined, year: "numeric", month: "2-digit", day: "2-digit",
  }).formatToParts(shifted);
  const part = (type) => parts.find((item) => item.type === type).value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/// "Friday, 27 November" for 2026-11-27, by the browser's rules for English (its first English
/// language; British order where it has none).
export function friendlyDate(date) {
  if (!friendly) {
    const locale = (navigator.languages || []).find((language) => /^en\b/i.test(language)) || "en-GB";
    friendly = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
  }
  return friendly.format(new Date(`${date}T12:00:00Z`));
}

/// friendlyDate's formatter, made once: History names each day of a year's map with it.
let friendly = null;
