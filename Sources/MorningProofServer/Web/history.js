// History, as Loop draws it: per habit a map of its weeks from its first day (weeks starting on the
// account's week start, weekday names beside, a button per day to see and change it and its saved
// note; one Tab stop, arrow keys move between days, Enter opens one), its streaks, and its score
// curve over the days it has existed, with labelled axes.
// Every day's state is the server's (GET /api/habits/{id}/report); changing a day is PUT/DELETE of its entry.
import { friendlyDate } from "/clock.js";

let deps;
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const LEGEND = [["done", "done"], ["covered", "covered by the schedule"], ["skipped", "skipped"], ["missed", "missed"],
  ["travel", "travel"], ["none", "not due or empty"], ["noted", "with a note"]];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const dayText = (date) => date.toISOString().slice(0, 10);
const addDays = (date, count) => new Date(date.getTime() + count * 86400000);
const parseDay = (text) => new Date(`${text}T00:00:00Z`);
/// "1 day", "3 days": a count with its word.
const count = (number, one, many) => `${number} ${number === 1 ? one : many}`;

/// The score at the end of each day, as the report gives it (a day without one keeps the last).
function dailyScores(days) {
  let last = 0;
  return days.map((day) => (last = typeof day.score === "number" ? day.score : last));
}

function svg(tag, attributes = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

/// The score curve, Loop's way: the score (0 to 100%) up the side, the days from the habit's first
/// to today along the bottom.
function scoreCurve(habit, report, days, today) {
  if (days.length === 0) return deps.element("p", { class: "muted", text: "No score yet." });
  const scores = dailyScores(days);
  const width = Math.max(1, scores.length - 1);
  const points = scores.map((score, index) => `${index},${(100 * (1 - score)).toFixed(1)}`).join(" ");
  const picture = svg("svg", {
    class: "curve", viewBox: `0 0 ${width} 100`, preserveAspectRatio: "none", role: "img",
    "aria-label": `${habit.name}: score over its ${count(scores.length, "day", "days")}, now ${Math.round(report.score * 100)}%`,
  });
  picture.append(svg("polyline", { points: scores.length === 1 ? `0,${points.split(",")[1]} 1,${points.split(",")[1]}` : points }));
  const ticks = (kind, ...words) => deps.element("div", { class: kind, "aria-hidden": "true" },
    ...words.map((text) => deps.element("span", { text })));
  return deps.element("figure", { class: "score" },
    deps.element("div", { class: "chart" },
      ticks("y-axis", "100%", "50%", "0%"), picture, ticks("x-axis", shortDay(days[0].day), "today")),
    deps.element("figcaption", { class: "muted", text: `Score (up the side) from ${shortDay(days[0].day)} (${count(scores.length, "day", "days")}) to today (along the bottom)` }));
}

/// "2026-11-10" as a label under a chart: "10 Nov".
function shortDay(text) {
  const date = parseDay(text);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/// Arrow keys on the map: up and down a day, left and right a week; Home and End the first and last
/// day. The map is one Tab stop (a roving tabindex): the focused day holds it.
const STEPS = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };

function moveFocus(map, event) {
  const from = event.target.closest("button[data-day]");
  if (!from) return;
  let target = null;
  if (event.key in STEPS) {
    target = map.querySelector(`button[data-day="${dayText(addDays(parseDay(from.dataset.day), STEPS[event.key]))}"]`);
  } else if (event.key === "Home" || event.key === "End") {
    const days = [...map.querySelectorAll("button[data-day]")].sort((a, b) => a.dataset.day.localeCompare(b.dataset.day));
    target = event.key === "Home" ? days[0] : days[days.length - 1];
  } else {
    return;
  }
  event.preventDefault();
  if (!target) return;
  from.tabIndex = -1;
  target.tabIndex = 0;
  target.focus();
}

/// "Thursday, 12 November" for 2026-11-12 (friendlyDate), with the year when it is not `today`'s.
function inWords(day, today) {
  return day.slice(0, 4) === today.slice(0, 4) ? friendlyDate(day) : `${friendlyDate(day)} ${day.slice(0, 4)}`;
}

/// The habit's days as columns of weeks, each starting on `weekStart`, from the week of its first day
/// to this week (as Loop draws it, not a year of blanks): a month's name above the first week and
/// above each week holding a 1st, the weekdays' names beside, a dot on a day with a note.
function habitMap(habit, report, weekStart, today, chosen) {
  const notes = notesOf(habit);
  const states = new Map(report.days.map((entry) => [entry.day, entry.state]));
  const last = parseDay(today);
  const start = WEEKDAYS.indexOf(weekStart);
  const weekOf = (date) => addDays(date, -((date.getUTCDay() + 6 - start + 7) % 7));
  const first = weekOf(parseDay(habit.createdDay < today ? habit.createdDay : today));
  const weeks = deps.element("div", {
    class: "year", role: "group", "aria-label": `${habit.name}: every week since ${inWords(habit.createdDay, today)}`,
    "aria-describedby": "history-keys", onkeydown: (event) => moveFocus(weeks, event),
  });
  // Beside the newest week (the row is reversed), and kept in sight while the weeks scroll.
  weeks.append(deps.element("div", { class: "weekdays", "aria-hidden": "true" }, deps.element("span", { class: "month" }),
    ...[...Array(7).keys()].map((n) => deps.element("span", { text: weekdayName(WEEKDAYS[(start + n) % 7]) }))));
  for (let week = first; week <= last; week = addDays(week, 7)) {
    const column = deps.element("div", { class: "week" });
    const firstOfMonth = [...Array(7).keys()].map((n) => addDays(week, n)).find((day) => day.getUTCDate() === 1)
      || (week.getTime() === first.getTime() ? addDays(week, 6) : null);
    column.append(deps.element("span", { class: "month", "aria-hidden": "true", text: firstOfMonth ? MONTHS[firstOfMonth.getUTCMonth()] : "" }));
    for (let n = 0; n < 7; n += 1) {
      const day = dayText(addDays(week, n));
      const state = states.get(day);
      if (!state || day > today || day < habit.createdDay) {
        column.append(deps.element("span", { class: "cell none" }));
        continue;
      }
      const note = notes.get(day);
      column.append(deps.element("button", {
        type: "button", class: `cell ${state.replace(" ", "-")}${note ? " noted" : ""}`, "data-day": day,
        "aria-label": `${habit.name}, ${inWords(day, today)}: ${state}${note ? ", with a note" : ""}`,
        tabindex: "-1", "data-offline": "works",
        ...(day === chosen ? { "aria-pressed": "true" } : {}),
        onclick: () => render(habit, report, weekStart, today, day, true),
      }));
    }
    weeks.insertBefore(column, weeks.querySelector(".week"));  // newest first: the row is reversed, so the map opens on this week
  }
  // The Tab stop: the chosen day, else today, else the latest day shown.
  const stop = weeks.querySelector(`button[data-day="${chosen || today}"]`) || weeks.querySelector("button[data-day]");
  if (stop) stop.tabIndex = 0;
  return weeks;
}

/// "monday" as a map's row label: "Mon".
const weekdayName = (name) => name[0].toUpperCase() + name.slice(1, 3);

function legend() {
  return deps.element("ul", { class: "legend" }, ...LEGEND.map(([kind, words]) =>
    deps.element("li", {}, deps.element("span", { class: `cell ${kind}`, "aria-hidden": "true" }), words)));
}

/// What the chosen day is, with Done and Skip (with a note) and Undo for it: kept with their instant
/// and sent at once, or when the network is back (sync.js); the map is drawn again from the server.
function dayPanel(habit, report, weekStart, today, day) {
  const waiting = deps.waitingFor(habit.id, day);
  const known = report.days.find((entry) => entry.day === day)?.state || "empty";
  const state = !waiting ? known : `${waiting.kind === "undo" ? "empty" : waiting.status}, waiting to sync`;
  const saved = notesOf(habit).get(day);
  const note = deps.element("input", {
    id: `note-${habit.id}-${day}`, type: "text", maxlength: "500", autocomplete: "off", "data-offline": "works",
    value: saved,
  });
  const change = async (status) => {
    try {
      const action = { kind: status ? "entry" : "undo", habitId: habit.id, habitName: habit.name, day };
      if (status && note.value.trim()) action.note = note.value.trim();
      await deps.record(status ? { ...action, status } : action);
      const fresh = await reportOf(habit);
      render(habit, fresh, weekStart, today, day, true);
    } catch (error) {
      deps.notice(error.message, "error");
    }
  };
  const button = (text, status, primary) => deps.element("button", {
    type: "button", class: primary ? "primary" : undefined, text, "data-offline": "works", onclick: () => change(status),
  });
  // A photo habit is done only by a photo (issue 39): no Done; today, "Take photo" opens Today's camera.
  const photo = habit.kind === "photo";
  const buttons = photo ? [] : [button("Done", "done", true)];
  if (photo && day === today) buttons.push(takePhoto(habit));
  buttons.push(button("Skip", "skipped"));
  if (known === "done" || known === "skipped" || (waiting && waiting.kind !== "undo")) buttons.push(button("Undo", null));
  const words = friendlyDate(day);
  return deps.element("div", { class: "day-panel", role: "region", "aria-label": `${habit.name}, ${words}` },
    deps.element("p", { "aria-live": "polite" }, deps.element("time", { datetime: day, text: words }), `: ${state}`),
    ...(saved ? [deps.element("p", { class: "saved-note", text: `Note: ${saved}` })] : []),
    ...(photo ? [deps.element("p", { class: "muted", text: "Done only by a photo, taken on Today on the day itself." })] : []),
    deps.element("label", { for: note.id, text: photo ? "Note (sent with Skip)" : "Note (sent with Done or Skip)" }), note,
    deps.element("div", { class: "choices" }, ...buttons));
}

/// Today's camera for a photo habit: the Today tab, scrolled to the habit's "Take photo".
function takePhoto(habit) {
  return deps.element("button", {
    type: "button", class: "primary", text: "Take photo", "aria-label": `Take photo: ${habit.name} (on Today)`,
    onclick: async () => {
      // Today draws its list again on opening: wait for the habit's new camera (5 seconds at most).
      const before = document.getElementById(`photo-${habit.id}`);
      document.querySelector('#tabs button[data-screen="today"]')?.click();
      for (let tries = 0; tries < 50; tries += 1) {
        const camera = document.getElementById(`photo-${habit.id}`);
        if (camera && camera !== before) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      document.querySelector(`label[for="photo-${habit.id}"]`)?.scrollIntoView({ block: "center" });
      document.getElementById(`photo-${habit.id}`)?.focus({ preventScroll: true });
    },
  });
}

function render(habit, report, weekStart, today, chosen, focus) {
  const article = document.querySelector(`article[data-habit="${habit.id}"]`);
  const [start, end] = [report.longestStreakStart, report.longestStreakEnd];
  const longest = !start ? "" : start === end ? ` (${shortDay(start)})` : ` (${shortDay(start)} to ${shortDay(end)})`;
  const days = report.days.filter((entry) => entry.day >= habit.createdDay && entry.day <= today);
  article.replaceChildren(
    deps.element("h3", { text: report.name }),
    deps.element("p", { class: "streaks", text: `Current streak ${count(report.currentStreak, "day", "days")}; longest ${count(report.longestStreak, "day", "days")}${longest}; done ${report.totalDone === 1 ? "once" : `${report.totalDone} times`}` }),
    habitMap(habit, report, weekStart, today, chosen),
    legend(),
    ...(chosen ? [dayPanel(habit, report, weekStart, today, chosen)] : []),
    scoreCurve(habit, report, days, today));
  if (focus && chosen) article.querySelector(`button[data-day="${chosen}"]`)?.focus();
}

/// Each habit's saved notes by day (GET /api/habits/{id}/entries), read with its report.
const notes = new Map();
const notesOf = (habit) => notes.get(habit.id) || new Map();

/// The report covers the last year, or every day since the habit began when that is longer; the
/// notes are read with it.
async function reportOf(habit) {
  const weeks = Math.min(520, Math.max(54, Math.ceil((Date.now() - parseDay(habit.createdDay)) / 86400000 / 7) + 2));
  const [reply, entries] = await Promise.all([
    deps.api("GET", `/api/habits/${habit.id}/report?weeks=${weeks}`),
    deps.api("GET", `/api/habits/${habit.id}/entries?from=${habit.createdDay}`)]);
  notes.set(habit.id, new Map(entries.entries.filter((entry) => entry.note).map((entry) => [entry.day, entry.note])));
  return reply.habits[0];
}

export async function loadHistory() {
  const [list, me] = await Promise.all([deps.api("GET", "/api/habits"), deps.api("GET", "/api/auth/me")]);
  const reports = await Promise.all(list.habits.map(reportOf));
  const today = deps.today();
  // History on screen drawn again (the worker's replay, the network back): what the person was doing stays.
  const kept = deps.list().closest(".screen")?.hidden === false ? keepView() : null;
  deps.list().replaceChildren(...list.habits.map((habit) => deps.element("article", { class: "habit", "data-habit": String(habit.id) })));
  if (list.habits.length === 0) deps.list().append(deps.element("p", { class: "muted", text: "No habits yet." }));
  list.habits.forEach((habit, index) => render(habit, reports[index], me.weekStart, today, kept?.open.get(String(habit.id)) || null, false));
  if (kept) restoreView(kept);
}

/// What a repaint must not lose: the open day panels and the notes typed in them, the focus, and the
/// page's and each map's scroll.
function keepView() {
  const open = new Map();
  const notes = new Map();
  const maps = new Map();
  for (const article of deps.list().querySelectorAll("article[data-habit]")) {
    const chosen = article.querySelector('button[data-day][aria-pressed="true"]');
    if (chosen) open.set(article.dataset.habit, chosen.dataset.day);
    const note = article.querySelector(".day-panel input");
    if (note?.value) notes.set(note.id, note.value);
    maps.set(article.dataset.habit, article.querySelector(".year")?.scrollLeft || 0);
  }
  const active = deps.list().contains(document.activeElement) ? document.activeElement : null;
  const focus = active && {
    habit: active.closest("article")?.dataset.habit, id: active.id, day: active.dataset.day, text: active.textContent,
  };
  return { open, notes, maps, focus, x: window.scrollX, y: window.scrollY };
}

function restoreView(kept) {
  const articleOf = (habit) => deps.list().querySelector(`article[data-habit="${habit}"]`);
  for (const [id, value] of kept.notes) {
    const note = document.getElementById(id);
    if (note) note.value = value;
  }
  for (const [habit, left] of kept.maps) {
    const map = articleOf(habit)?.querySelector(".year");
    if (map) map.scrollLeft = left;
  }
  const was = kept.focus;
  if (was) {
    const article = articleOf(was.habit);
    const target = (was.id && document.getElementById(was.id))
      || (was.day && article?.querySelector(`button[data-day="${was.day}"]`))
      || [...(article?.querySelectorAll(".day-panel button") || [])].find((button) => button.textContent === was.text);
    target?.focus({ preventScroll: true });
  }
  window.scrollTo(kept.x, kept.y);
}

/// Wires History to the app: `api`, `element`, `notice`, `today()`, `list()`, and the queue's
/// `record(action)` and `waitingFor(habit id, day)` (sync.js).
export function wireHistory(app) {
  deps = app;
}
