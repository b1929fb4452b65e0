// The daily question: a dialog over the page (the rest inert) that is answered, not dismissed; Tab
// keeps to its two buttons.
const $ = (id) => document.getElementById(id);

/// Asks `question` (or the default one).
export function askQuestion(question) {
  $("question-text").textContent = question || "Have you done what matters most this morning?";
  $("question-backdrop").hidden = false;
  for (const section of document.querySelectorAll("header, main")) section.inert = true;
  $("answer-yes").focus();
}

export function closeQuestion() {
  $("question-backdrop").hidden = true;
  for (const section of document.querySelectorAll("header, main")) section.inert = false;
}

/// Whether the question is being asked now.
export function asking() {
  return !$("question-backdrop").hidden;
}

/// While the question is asked: Escape does nothing, Tab and Shift-Tab go round its two buttons.
function trapFocus(event) {
  if (!asking()) return;
  if (event.key === "Escape") {
    event.preventDefault();  // the question is answered, not dismissed
    return;
  }
  if (event.key !== "Tab") return;
  const buttons = [$("answer-yes"), $("answer-no")];
  const index = buttons.indexOf(document.activeElement);
  event.preventDefault();
  buttons[(index + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length].focus();
}

/// `answer(yes)` records the answer (Yes, No, and the block screen's "I've done it").
export function wireQuestion(answer) {
  $("answer-yes").addEventListener("click", () => answer(true));
  $("answer-no").addEventListener("click", () => answer(false));
  $("done-it").addEventListener("click", () => answer(true));
  document.addEventListener("keydown", trapFocus);
}
