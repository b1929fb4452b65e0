// Today's large round check per habit (at least 44x44 CSS px): it completes on a press held for about
// half a second, with a fill animation (CSS), so that a thumb scrolling past ticks nothing; a plain tap
// says "Hold to complete"; a keyboard's Enter or Space, and a screen reader, press it as a plain button.
let deps = null;
// A press held this long completes a habit: a thumb scrolling past ticks nothing.
const HOLD_MS = 500;
let holding = null; // { habit, start, timer, held }: the press under way on a round check
// The habit whose round check a finger or a mouse pressed last: its click is that press's end. A click
// with no press before it is a keyboard's, or a screen reader's double tap (VoiceOver, TalkBack).
let pressed = null;

/// The row's large round check: a button that completes on a press held for HOLD_MS (a plain tap says
/// "Hold to complete"), or at once from a keyboard or a screen reader (a click no press began). Done,
/// a photo habit (done only by its photo) and a habit that did not exist yet show the check only.
export function checkFor(habit, recorded) {
  const tick = deps.element("span", { class: "tick", "aria-hidden": "true" });
  if (recorded || habit.kind === "photo" || habit.notYet) {
    return deps.element("span", { class: `round-check ${habit.state === "done" ? "ticked" : ""}`, "aria-hidden": "true" }, tick);
  }
  const check = deps.element("button", {
    type: "button", class: "round-check", "aria-label": `Done: ${habit.name}`, "data-offline": "works",
    "aria-describedby": "hold-hint", "data-habit": habit.id,
  }, deps.element("span", { class: "fill", "aria-hidden": "true" }), tick);
  check.addEventListener("pointerdown", (event) => startHold(event, habit, check));
  check.addEventListener("contextmenu", (event) => event.preventDefault()); // a long press on a phone
  check.addEventListener("click", (event) => {
    const press = pressed === habit.id;
    if (press && holding?.held) return; // the end of a press held long enough: done already
    if (event.detail === 0 || !press) return deps.complete(habit); // Enter, Space, a screen reader's action
    deps.notice("Hold to complete");
  });
  if (holding?.habit.id === habit.id && !holding.held) check.classList.add("holding"); // a repaint mid-press
  return check;
}

function startHold(event, habit, check) {
  if (event.button !== 0) return;
  pressed = habit.id;
  stopHold();
  check.classList.add("holding");
  holding = { habit, start: event.timeStamp, x: event.clientX, y: event.clientY, held: false };
  holding.timer = setTimeout(() => completeHold(), HOLD_MS);
}

/// The press is over: long enough (by the events' own times, so that a busy page is not unfair), it
/// completes; shorter, it is let go. A finger that moves (a scroll) lets go as well.
function endHold(event) {
  if (event.type === "pointercancel") pressed = null; // a scroll took the press: no click ends it
  if (!holding || holding.held) return;
  const moved = event.type === "pointermove" && Math.hypot(event.clientX - holding.x, event.clientY - holding.y) > 12;
  if (event.type === "pointermove" && !moved) return;
  if (event.type === "pointerup" && event.timeStamp - holding.start >= HOLD_MS) return completeHold();
  stopHold();
}

function stopHold() {
  clearTimeout(holding?.timer);
  holding = null;
  document.querySelectorAll(".round-check.holding").forEach((check) => check.classList.remove("holding"));
}

function completeHold() {
  if (!holding || holding.held) return;
  clearTimeout(holding.timer);
  holding.held = true; // the click that ends this press shows no hint
  const { habit } = holding;
  navigator.vibrate?.(15);
  deps.complete(habit);
}

/// `element`, `notice`, and `complete(habit)` (Done, recorded by today.js).
export function wireHoldCheck(app) {
  deps = app;
  for (const type of ["pointerup", "pointercancel", "pointermove"]) window.addEventListener(type, endHold);
  // After the check's own listener: the press a click ended is over, wherever it landed (the row
  // drawn again under the finger too).
  window.addEventListener("click", () => { pressed = null; });
  window.addEventListener("blur", stopHold);
}
