// Today's line of excuses (issue 39): what is left of the weekly budget that skips of required
// habits, empty travel days and gate unlocks share, in status's words ("1 excuse left this week",
// "No excuses left this week; the next comes back on Tuesday"), from GET /api/status's excusesLeft
// and excuseBackOn. The line sits under Today's summary.
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const date = (day) => new Date(`${day}T00:00:00Z`);

/// The sentence for `status` (GET /api/status), as the CLI's status says it.
export function excuseWords(status) {
  if (status.excusesLeft === 1) return "1 excuse left this week";
  if (status.excusesLeft > 1) return `${status.excusesLeft} excuses left this week`;
  if (!status.excuseBackOn) return "No excuses left this week (excuses.per-week is 0)";
  const back = date(status.excuseBackOn);
  const later = (back - date(status.day)) / 86400000 >= 7 ? " next week" : "";
  return `No excuses left this week; the next comes back on ${DAYS[back.getUTCDay()]}${later}`;
}

/// Shows the line under #today-summary for `status`, or hides it (null: another day, or offline).
export function showExcuses(status) {
  let line = document.getElementById("today-excuses");
  if (!line) {
    line = document.createElement("p");
    line.id = "today-excuses";
    line.className = "muted";
    document.getElementById("today-summary").after(line);
  }
  line.hidden = !status;
  line.textContent = status ? `${excuseWords(status)}.` : "";
}
