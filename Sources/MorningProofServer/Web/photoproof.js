// A photo habit's proof: a styled "Take photo" button (the camera; "Retake photo", quieter, once the
// day is proved) over a file input, the picture chosen, and the server's verdict with its reasons in
// everyday words (POST /api/habits/{id}/proof).
let deps = null;
const proofs = new Map(); // habit id → { url, text, made }: the last photo chosen and its verdict

/// The photo proof's controls for `habit`, their ids prefixed with `prefix` (the shield has its own).
export function photoProof(habit, prefix = "photo") {
  const id = `${prefix}-${habit.id}`;
  const offline = deps.offline();
  // A proof is judged by the server: offline the control says so instead of failing.
  const hint = deps.element("p", {
    id: `${id}-offline`, class: "muted", "data-needs-server": "", hidden: offline ? undefined : "",
    text: "A photo proof needs the server: take it when the connection is back.",
  });
  // Proved today: the camera stays, quieter, for another photo.
  const words = habit.state === "done" ? "Retake photo" : "Take photo";
  const input = deps.element("input", {
    id, type: "file", accept: "image/*,.heic,.heif,.webp", capture: "environment", class: "camera-input",
    "aria-label": `${words}: ${habit.name}`, "aria-describedby": hint.id,
  });
  input.disabled = offline;
  const result = deps.element("figure", { class: "proof", role: "status", "aria-live": "polite" });
  const last = proofs.get(habit.id);
  if (last) showProof(result, habit, last);
  input.addEventListener("change", () => proveWith(habit, input, result));
  // The camera behind one clear button: the label, styled, opens the input it names.
  const camera = deps.element("label", { for: id, class: habit.state === "done" ? "camera quiet" : "camera", text: words });
  return [hint, input, camera, result];
}

function showProof(figure, habit, proof) {
  const children = [];
  if (proof.url) children.push(deps.element("img", { src: proof.url, alt: `The photo for ${habit.name}` }));
  children.push(deps.element("figcaption", { class: `verdict ${proof.made ? "state-done" : ""}`, text: proof.text }));
  figure.replaceChildren(...children);
}

async function proveWith(habit, input, figure) {
  const file = input.files[0];
  if (!file) return;
  if (proofs.get(habit.id)?.url) URL.revokeObjectURL(proofs.get(habit.id).url);
  const url = URL.createObjectURL(file);
  const proof = { url, text: "Checking the photo…", made: false };
  proofs.set(habit.id, proof);
  showProof(figure, habit, proof);
  try {
    const verdict = await deps.api("POST", `/api/habits/${habit.id}/proof`, file, file.type);
    const confidence = `confidence ${Math.round(verdict.confidence * 100)}%`;
    proof.made = verdict.made;
    proof.text = verdict.made
      ? `Made (${confidence}): ${verdict.reasons.join("; ")}. ${verdict.recorded ? "Today is proved." : ""}`
      : `Not made (${confidence}): ${verdict.reasons.join("; ")}. Nothing recorded.`;
    await deps.proved();
  } catch (error) {
    proof.text = error.code === "proof_refused" ? error.message : `The photo could not be used: ${error.message}`;
    const shown = document.getElementById(input.id)?.parentElement.querySelector(".proof");
    showProof(shown || figure, habit, proof);
  }
}

/// `api`, `element`, `offline()`, and `proved()` (Today drawn again: the verdict may have recorded it).
export function wirePhotoProof(app) {
  deps = app;
}
