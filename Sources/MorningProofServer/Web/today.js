// Today (and yesterday, one tap away): "Friday, 27 November", "2 of 4 done" over the habits due, due
// habits first, a weekly or monthly target's count so far, a metric habit's value against its goal, one
// large round check per habit that completes on a press-and-hold (a keyboard's Enter or Space, and a
// screen reader, press it as a plain button), Skip and Undo behind the row's menu, and a photo proof
// with the picture and the verdict's reasons. Every state is the server's.
import { friendlyDate } from "/clock.js";
import { showExcuses } from "/excuses.js";
import { checkFor, wireHoldCheck } from "/holdcheck.js";
import { photoProof, wirePhotoProof } from "/photoproof.js";

// The shield (shield.js) draws its habits with Today's check and photo proof.
export { checkFor, photoProof };

const FRIENDLY_DATE = "morningproof.friendlyDate"; // "en-GB 2026-11-27\nFriday 27 November": todaysDate's last
const $ = (id) => document.getElementById(id);
let deps = null;
let day = "today"; // or "yesterday": the day shown
let shownDate = null; // the date of the day shown (YYYY-MM-DD): what an action is recorded for
const menus = new Set(); // the habit ids whose row menu is open: a repaint keeps it open

const ORDER = { pending: 0, done: 1, skipped: 2, travel: 2, notDue: 3 };
const WORDS = { notDue: "not due", pending: "to do", missed: "not done", travel: "travel day: your streak is safe" };

/// The days of a habit's report from the day `from` (YYYY-MM-DD) to today, with the server's states.
async function reportDays(habit, from) {
  const report = await deps.api("GET", `/api/habits/${habit.id}/report?from=${from}`);
  return report.habits[0]?.days || [];
}

/// The habits of the day shown, each with its state for that day.
async function habitsOfTheDay() {
  const list = await deps.api("GET", "/api/habits");
  const habits = list.habits.filter((habit) => habit.kind !== "checkin");
  // The API says "not due" (the CLI's words); the page keys its states without the space.
  habits.forEach((habit) => { if (habit.state === "not due") habit.state = "notDue"; });
  if (day === "today" && deps.newDay()) {
    // Opened offline on a day after the one saved here: every habit waits to be done, nothing of the
    // saved day is shown as today's, and the streaks are the last the server confirmed.
    habits.forEach((habit) => Object.assign(habit, { state: "pending", period: undefined, unconfirmed: true }));
  }
  if (day === "today") return { habits, date: deps.today() };
  const date = new Date(`${deps.today()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  const yesterday = date.toISOString().slice(0, 10);
  const days = await Promise.all(habits.map((habit) => reportDays(habit, yesterday)));
  habits.forEach((habit, index) => {
    habit.state = days[index].find((entry) => entry.day === yesterday)?.state || "notDue";
    // A habit made today did not exist yesterday: nothing to record for it there.
    if (habit.createdDay > yesterday) Object.assign(habit, { state: "notDue", notYet: true });
  });
  return { habits, date: yesterday };
}

export async function loadToday() {
  const [{ habits, date }, quote, status] = await Promise.all([habitsOfTheDay(), deps.api("GET", "/api/quote"),
    day === "today" ? deps.api("GET", "/api/status").catch(() => null) : null]);
  shownDate = date;
  // An action waiting to be sent shows as done (or skipped, or undone) at once, marked as waiting.
  for (const habit of habits) {
    const waiting = deps.waitingFor(habit.id, date);
    if (!waiting) continue;
    habit.state = waiting.kind === "undo" ? "pending" : waiting.status;
    habit.waiting = true;
  }
  $("today-which").textContent = day === "today" ? "Today" : "Yesterday";
  $("today-day").textContent = date ? todaysDate(date) : "";
  $("today-day").setAttribute("datetime", date || "");
  $(day === "today" ? "show-today" : "show-yesterday").checked = true;
  habits.sort((a, b) => (ORDER[a.state] ?? 1) - (ORDER[b.state] ?? 1));
  const due = habits.filter((habit) => !["notDue", "skipped", "travel"].includes(habit.state));
  const done = due.filter((habit) => habit.state === "done").length;
  const skipped = habits.length - due.length - habits.filter((habit) => habit.state === "notDue").length;
  $("today-summary").textContent = habits.length === 0 ? ""
    : due.length === 0 ? `Nothing due ${day}${skipped ? `; ${skipped} skipped` : ""}.`
    : `${done} of ${due.length + skipped} done${skipped ? `; ${skipped} skipped or on a travel day, not done` : ""}`;
  if (day === "today" && deps.newDay()) {
    $("today-summary").textContent += " · a new day since the last connection: confirmed when the server has it";
  }
  showExcuses(status); // "1 excuse left this week" (excuses.js)
  $("no-habits").hidden = habits.length > 0;
  // A weekly, monthly or N-day target: the server's count of the period holding today ("2 of 3 this week").
  $("habit-list").replaceChildren(...habits.map((habit) => habitCard(habit, day === "today" ? habit.period?.words : null)));
  deps.quoteFigure($("today-quote"), quote);
  if (day === "today") showBadge(due.length - done);
  document.dispatchEvent(new Event("today-drawn")); // the shield (shield.js) asks the gate again
}

/// Today's date in words (clock.js's friendlyDate), the last one kept (localStorage): the browser's
/// first date formatting of a page loads its rules, a tenth of a second of a phone's first paint.
function todaysDate(date) {
  const kept = localStorage.getItem(FRIENDLY_DATE)?.split("\n");
  const key = `${navigator.languages?.join(",")} ${date}`;
  if (kept?.[0] === key) return kept[1];
  const text = friendlyDate(date);
  localStorage.setItem(FRIENDLY_DATE, `${key}\n${text}`);
  return text;
}

/// The installed app's icon shows the habits still due today (the Badging API, where the browser has it).
function showBadge(due) {
  const badge = due > 0 ? navigator.setAppBadge?.(due) : navigator.clearAppBadge?.();
  badge?.catch?.(() => {});
}

function goalLine(habit) {
  const line = deps.element("p", { class: "muted" });
  if (habit.todayText === undefined) {
    line.textContent = `Today: no data yet · goal: ${habit.goal.summary}`;
    return line;
  }
  line.textContent = `Today: ${habit.todayText} · goal: ${habit.goal.summary}`;
  if (habit.goal.target > 0) {
    const meter = deps.element("meter", {
      min: "0", max: String(habit.goal.target), value: String(Math.min(habit.todayValue, habit.goal.target)),
      "aria-label": `${habit.name}: ${habit.todayText} of ${habit.goal.summary}`,
    });
    return deps.element("div", {}, line, meter);
  }
  return line;
}

function habitCard(habit, period) {
  const words = habit.notYet ? "not started yet" : WORDS[habit.state] || habit.state;
  const state = deps.element("span", {
    class: `state-${habit.state}`, text: habit.waiting ? `${words}, waiting to sync` : words,
  });
  const parts = [];
  if (period) parts.push(period);
  // The streak the server last confirmed, never one counting what waits to be sent.
  if (day === "today" && habit.currentStreak !== undefined) {
    const streak = `${habit.currentStreak} ${habit.currentStreak === 1 ? "day" : "days"}`;
    // A new habit has no streak yet, and says nothing of one.
    if (habit.waiting || habit.unconfirmed) parts.push(`last confirmed streak ${streak}`);
    else if (habit.currentStreak > 0) parts.push(`streak ${streak}`);
    // Only a streak can break: a new habit has none yet.
    if (habit.currentStreak > 0 && habit.state === "pending" && !habit.waiting && !habit.unconfirmed) {
      const left = habit.daysUntilBreak;
      parts.push(left > 0 ? `${left} ${left === 1 ? "day" : "days"} to spare` : "do it today to keep it");
    }
  }
  const recorded = habit.state === "done" || habit.state === "skipped";
  const button = (text, status) => deps.element("button", {
    type: "button", "aria-label": `${text}: ${habit.name}`, text, "data-offline": "works",
    onclick: () => mark(habit, status),
  });
  // The menu's choices: Skip while nothing is recorded, Undo once it is.
  const choices = habit.notYet ? [] : recorded ? [button("Undo", null)] : [button("Skip", "skipped")];
  const card = deps.element("li", { class: `habit ${recorded ? "recorded" : ""}` },
    checkFor(habit, recorded),
    deps.element("div", { class: "about" },
      deps.element("h3", { text: habit.name }),
      deps.element("p", {}, state, parts.length ? ` · ${parts.join(", ")}` : "")),
    choices.length ? rowMenu(habit, choices) : "");
  if (habit.goal && day === "today") card.append(goalLine(habit));
  if (habit.kind === "photo" && day === "today") card.append(...photoProof(habit));
  return card;
}

function closeMenus() {
  if (menus.size === 0) return;
  menus.clear();
  for (const menu of document.querySelectorAll("#habit-list .menu")) menu.hidden = true;
  for (const more of document.querySelectorAll("#habit-list .more")) more.setAttribute("aria-expanded", "false");
}

/// "More: Read" opens the row's menu (Skip, or Undo); it stays open across a repaint.
function rowMenu(habit, choices) {
  const id = `menu-${habit.id}`;
  const open = menus.has(habit.id);
  const toggle = deps.element("button", {
    type: "button", class: "more", "aria-label": `More: ${habit.name}`, "aria-expanded": String(open),
    "aria-controls": id, "data-offline": "works", text: "⋯",
  });
  const menu = deps.element("div", { id, class: "menu", hidden: open ? undefined : "" }, ...choices);
  toggle.addEventListener("click", () => {
    if (menus.has(habit.id)) menus.delete(habit.id);
    else menus.add(habit.id);
    menu.hidden = !menus.has(habit.id);
    toggle.setAttribute("aria-expanded", String(menus.has(habit.id)));
  });
  return deps.element("div", { class: "actions" }, toggle, menu);
}

/// Done or skipped (`status`), or undone (null), for the date shown: kept with its instant and sent
/// at once, or when the network is back.
async function mark(habit, status) {
  try {
    const action = { kind: status ? "entry" : "undo", habitId: habit.id, habitName: habit.name, day: shownDate };
    // A day this page worked out offline: the server names it from the action's instant.
    if (day === "today" && deps.newDay()) action.dayName = "today";
    await deps.record(status ? { ...action, status } : action);
    await loadToday();
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

/// Wires Today to the app: `api`, `element`, `notice`, `quoteFigure`, `today()` (the server's day),
/// `record(action)` and `waitingFor(habit id, day)` (sync.js), `offline()`, and `newDay()` (the day shown
/// is one the page worked out offline, after the one it saved), and `addHabit()` (Habits with its form open).
export function wireToday(app) {
  deps = app;
  wireHoldCheck({ element: app.element, notice: app.notice, complete: (habit) => mark(habit, "done") });
  wirePhotoProof({ api: app.api, element: app.element, offline: app.offline, proved: loadToday });
  // A press anywhere else, or Escape, closes the row menus.
  document.addEventListener("pointerdown", (event) => {
    if (!event.target.closest?.(".actions")) closeMenus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeMenus();
  });
  // One way to add a habit: Habits' form (`addHabit()` opens it).
  $("add-habit").addEventListener("click", () => deps.addHabit().catch((error) => deps.notice(error.message, "error")));
  for (const input of document.querySelectorAll("input[name=day]")) {
    input.addEventListener("change", () => {
      day = input.value;
      loadToday().catch((error) => deps.notice(error.message, "error"));
    });
  }
}
