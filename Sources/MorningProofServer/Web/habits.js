// The Habits tab: every habit (active, then archived), and one form for a new habit and for changing
// one, with every field of POST/PATCH /api/habits. The server checks everything; its message names
// the JSON field it refuses, and the page shows it beside that field.
import { showReferences, wireReferences } from "/references.js";

const $ = (id) => document.getElementById(id);
let deps = null;
let editing = null; // the habit the form changes; null for a new one

/// The schedule as the form's fields, from the fields the server gives with it (those a request takes).
function scheduleFields(habit) {
  if (!habit || habit.every === 1) return { schedule: "daily" };
  if (habit.every) return { schedule: "every", days: habit.every };
  if (habit.per) return { schedule: habit.per, times: habit.times };
  if (habit.within) return { schedule: "within", times: habit.times, days: habit.within };
  return { schedule: "daily" };
}

function describe(habit) {
  const parts = [habit.schedule];
  if (habit.remindAt) parts.push(`reminder ${habit.remindAt}`);
  if (habit.goal) parts.push(habit.goal.summary);
  if (habit.kind === "photo") parts.push("photo proof");
  if (habit.required) parts.push("required");
  return parts.join(" · ");
}

function row(habit, index, list) {
  const item = deps.element("li", { "data-habit": String(habit.id) },
    deps.element("button", {
      type: "button", class: "row", "aria-label": `Edit: ${habit.name}`, onclick: () => openForm(habit),
    }, deps.element("strong", { text: habit.name }), deps.element("span", { class: "muted", text: describe(habit) })));
  if (habit.archived || list.length < 2) return item;
  const move = (label, by, disabled) => deps.element("button", {
    type: "button", class: "move", text: label, "aria-label": `${label}: ${habit.name}`,
    ...(disabled ? { disabled: "" } : {}), onclick: () => moveHabit(habit, by),
  });
  // The grip is for a finger or a mouse; a keyboard or a screen reader has Move up and Move down.
  item.prepend(deps.element("span", {
    class: "grip", "aria-hidden": "true", title: `Drag to move ${habit.name}`, text: "⠿",
    onpointerdown: (event) => drag(event, habit, item),
  }));
  item.append(deps.element("span", { class: "order" },
    move("Move up", -1, index === 0), move("Move down", 1, index === list.length - 1)));
  return item;
}

/// Saves the active habits (all but the check-in, which keeps its place) in `ids`' order.
async function saveOrder(ids) {
  const next = [...ids];
  const shownIds = new Set(ids);
  await deps.api("PUT", "/api/habits/order", { ids: order.map((id) => (shownIds.has(id) ? next.shift() : id)) });
}

/// Drags `item` by its grip (pointer events: a mouse, a pen or a finger, as the grip takes no
/// scrolling touch): the row moves among the others as the pointer passes their middles, and its
/// new place is saved when it is let go.
function drag(event, habit, item) {
  if (event.button > 0) return;
  event.preventDefault();
  const list = item.parentElement;
  const before = [...list.children].map((li) => Number(li.dataset.habit));
  try {
    event.target.setPointerCapture(event.pointerId);
  } catch (error) {
    // a pointer the browser does not track (a synthetic one): the window's listeners still follow it
  }
  item.classList.add("dragging");
  const follow = (move) => {
    if (move.pointerId !== event.pointerId) return;
    const after = [...list.children].find((li) => li !== item
      && move.clientY < li.getBoundingClientRect().top + li.getBoundingClientRect().height / 2);
    if (after !== item.nextElementSibling) list.insertBefore(item, after || null);
  };
  const drop = async (end) => {
    if (end.pointerId !== event.pointerId) return;
    window.removeEventListener("pointermove", follow);
    window.removeEventListener("pointerup", drop);
    window.removeEventListener("pointercancel", drop);
    item.classList.remove("dragging");
    const ids = [...list.children].map((li) => Number(li.dataset.habit));
    if (ids.join() === before.join()) return;
    try {
      await saveOrder(end.type === "pointercancel" ? before : ids);
      if (end.type !== "pointercancel") deps.notice(`${habit.name} moved to place ${ids.indexOf(habit.id) + 1}.`);
    } catch (error) {
      deps.notice(error.message, "error");
    }
    await loadHabits();
  };
  window.addEventListener("pointermove", follow);
  window.addEventListener("pointerup", drop);
  window.addEventListener("pointercancel", drop);
}

let order = []; // every active habit's id (the check-in's too), in the server's order
let shown = []; // the active habits listed (all but the check-in), in that order

/// The button of the habit named `name` whose accessible name starts with `action`.
const buttonOf = (action, name) => [...document.querySelectorAll("#habits-active button")]
  .find((button) => button.getAttribute("aria-label") === `${action}: ${name}`);

/// Moves `habit` one place up (-1) or down (1) past its neighbour in the list: PUT /api/habits/order
/// with every active id once, as the server requires. The focus stays on the habit's buttons.
async function moveHabit(habit, by) {
  const neighbour = shown[shown.findIndex((item) => item.id === habit.id) + by];
  if (!neighbour) return;
  const ids = shown.map((item) => item.id).filter((id) => id !== habit.id);
  ids.splice(ids.indexOf(neighbour.id) + (by > 0 ? 1 : 0), 0, habit.id);
  try {
    await saveOrder(ids);
    deps.notice(`${habit.name} moved ${by < 0 ? "up" : "down"}.`);
    await loadHabits();
    const same = buttonOf(by < 0 ? "Move up" : "Move down", habit.name);
    (same && !same.disabled ? same : buttonOf(by < 0 ? "Move down" : "Move up", habit.name))?.focus();
  } catch (error) {
    deps.notice(error.message, "error");
  }
}

/// Lists every habit but the check-in, active ones first, in the server's order.
export async function loadHabits() {
  const list = await deps.api("GET", "/api/habits?archived=true");
  order = list.habits.filter((habit) => !habit.archived).map((habit) => habit.id);
  const habits = list.habits.filter((habit) => habit.kind !== "checkin");
  const active = habits.filter((habit) => !habit.archived);
  const archived = habits.filter((habit) => habit.archived);
  shown = active;
  $("habits-active").replaceChildren(...active.map(row));
  if (active.length === 0) $("habits-active").append(deps.element("li", { class: "muted", text: "No habits yet." }));
  $("habits-archived").replaceChildren(...archived.map(row));
  $("habits-archived-title").hidden = archived.length === 0;
  if (editing) {
    editing = habits.find((habit) => habit.id === editing.id) || null;
    if (!editing) closeForm();
  }
}

function showScheduleFields() {
  const schedule = $("hf-schedule").value;
  $("hf-times-field").hidden = !["week", "month", "within"].includes(schedule);
  $("hf-days-field").hidden = !["every", "within"].includes(schedule);
}

/// A new habit's first day can be set in the past, except a photo habit's (each day needs its photo).
function showStartField() {
  $("hf-start-field").hidden = Boolean(editing) || $("hf-kind").value === "photo";
}

function clearErrors() {
  for (const node of document.querySelectorAll("#habit-form .error")) node.textContent = "";
  for (const node of document.querySelectorAll("#habit-form [aria-invalid]")) node.removeAttribute("aria-invalid");
}

export function openForm(habit) {
  editing = habit;
  clearErrors();
  $("hf-confirm").hidden = true;
  $("habit-form-title").textContent = habit ? `Change ${habit.name}` : "New habit";
  $("hf-name").value = habit?.name || "";
  $("hf-kind").value = habit?.kind || "manual";
  const schedule = scheduleFields(habit);
  $("hf-schedule").value = schedule.schedule;
  $("hf-times").value = schedule.times ?? "";
  $("hf-days").value = schedule.days ?? "";
  $("hf-remind").value = habit?.remindAt || "";
  $("hf-required").checked = habit?.required || false;
  $("hf-note").value = habit?.note || "";
  $("hf-metric").value = habit?.goal?.metric || "";
  $("hf-comparison").value = habit?.goal?.comparison || "atLeast";
  $("hf-target").value = habit?.goal ? String(habit.goal.target) : "";
  $("hf-activity").value = habit?.goal?.activity || "";
  $("hf-start").value = "";
  showStartField();
  $("hf-manage").hidden = !habit;
  $("hf-archive").textContent = habit?.archived ? "Restore" : "Archive";
  $("hf-archive").setAttribute("aria-label", habit ? `${habit.archived ? "Restore" : "Archive"}: ${habit.name}` : "Archive");
  showScheduleFields();
  showReferences(habit).catch((error) => deps.notice(error.message, "error"));
  $("habit-form").hidden = false;
  $("habit-form-title").focus();
}

function closeForm() {
  editing = null;
  $("habit-form").hidden = true;
}

/// The request body: every field the form has. On a change, a field emptied is sent as null, which
/// clears it (the reminder, the note, the goal, the activity); left out, the server would keep it.
function body() {
  const number = (id) => (($(id).value.trim() === "") ? undefined : Number($(id).value));
  const request = { name: $("hf-name").value.trim(), kind: $("hf-kind").value, required: $("hf-required").checked };
  const schedule = $("hf-schedule").value;
  if (schedule === "daily") request.every = 1;
  if (schedule === "every") request.every = number("hf-days");
  if (schedule === "week" || schedule === "month") Object.assign(request, { times: number("hf-times"), per: schedule });
  if (schedule === "within") Object.assign(request, { times: number("hf-times"), within: number("hf-days") });
  if ($("hf-remind").value) request.remindAt = $("hf-remind").value.slice(0, 5);
  else if (editing?.remindAt) request.remindAt = null;
  if (!$("hf-start-field").hidden && $("hf-start").value) request.startDay = $("hf-start").value;
  if ($("hf-note").value.trim()) request.note = $("hf-note").value.trim();
  else if (editing?.note) request.note = null;
  if (!$("hf-metric").value && editing?.goal) request.metric = null;
  if ($("hf-metric").value) {
    request.metric = $("hf-metric").value;
    const target = $("hf-target").value.trim();
    if (target) request[$("hf-comparison").value] = /^\d+(\.\d+)?$/.test(target) ? Number(target) : target;
    if ($("hf-activity").value.trim()) request.activity = $("hf-activity").value.trim();
    else if (editing?.goal?.activity) request.activity = null;
  }
  for (const key of Object.keys(request)) if (request[key] === undefined) delete request[key];
  return request;
}

/// The form's input for each JSON field.
const INPUTS = {
  name: "hf-name", kind: "hf-kind", every: "hf-days", within: "hf-days", times: "hf-times", per: "hf-schedule",
  remindAt: "hf-remind", required: "hf-required", note: "hf-note", metric: "hf-metric", atLeast: "hf-target",
  atMost: "hf-target", activity: "hf-activity", startDay: "hf-start",
};

/// Shows `error` beside the field its message names (the first one quoted that the form has), or
/// under the form.
function showError(error) {
  const fields = error.status === 409 ? ["name"] : [...error.message.matchAll(/"(\w+)"/g)].map((m) => m[1]);
  for (const field of fields) {
    const place = [...document.querySelectorAll("#habit-form .error[data-field]")]
      .find((node) => node.dataset.field.split(" ").includes(field));
    if (place) {
      place.textContent = error.message;
      $(INPUTS[field]).setAttribute("aria-invalid", "true");
      $(INPUTS[field]).focus();
      return;
    }
  }
  $("hf-error").textContent = error.message;
}

async function save(event) {
  event.preventDefault();
  clearErrors();
  try {
    const saved = editing
      ? await deps.api("PATCH", `/api/habits/${editing.id}`, body())
      : await deps.api("POST", "/api/habits", body());
    deps.notice(`Saved: ${saved.name}, ${describe(saved)}.`);
    closeForm();
    await loadHabits();
  } catch (error) {
    showError(error);
  }
}

async function archive() {
  const habit = editing;
  try {
    const saved = await deps.api("PATCH", `/api/habits/${habit.id}`, { archived: !habit.archived });
    deps.notice(saved.archived ? `${saved.name} is archived: its history is kept.` : `${saved.name} is back.`);
    closeForm();
    await loadHabits();
  } catch (error) {
    showError(error);
  }
}

function askDelete() {
  $("hf-confirm-text").textContent =
    `Delete ${editing.name} and every day recorded for it? This cannot be undone; archive it to keep its history.`;
  $("hf-confirm").hidden = false;
  $("hf-confirm-no").focus();
}

async function remove() {
  const habit = editing;
  try {
    await deps.api("DELETE", `/api/habits/${habit.id}`);
    deps.notice(`${habit.name} is deleted.`);
    closeForm();
    await loadHabits();
  } catch (error) {
    showError(error);
  }
}

/// Wires the tab to the app's `api`, `element` and `notice`.
export function wireHabits(app) {
  deps = app;
  wireReferences(app);
  $("habit-new").addEventListener("click", () => openForm(null));
  $("habit-form").addEventListener("submit", save);
  $("hf-cancel").addEventListener("click", closeForm);
  $("hf-schedule").addEventListener("change", showScheduleFields);
  // A goal makes a habit a metric one, and another kind has none: the two fields follow each other.
  $("hf-metric").addEventListener("change", () => {
    if ($("hf-metric").value) $("hf-kind").value = "metric";
    showStartField();
  });
  $("hf-kind").addEventListener("change", () => {
    if ($("hf-kind").value !== "metric") $("hf-metric").value = "";
    showStartField();
  });
  $("hf-archive").addEventListener("click", archive);
  $("hf-delete").addEventListener("click", askDelete);
  $("hf-confirm-yes").addEventListener("click", remove);
  $("hf-confirm-no").addEventListener("click", () => {
    $("hf-confirm").hidden = true;
    $("hf-delete").focus();
  });
}
