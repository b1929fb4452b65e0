// "Photos of your made bed" in the habit form of a photo habit (issue 39): its reference photos
// (GET/POST/DELETE /api/habits/{id}/references), each listed with its size and the day it was added,
// added with the camera, removed one by one. With references, a proof must show the same bedroom.
// Only each photo's features are kept on the server, never the picture.
const $ = (id) => document.getElementById(id);
let deps = null;
let habit = null; // the photo habit the form changes; null when the fieldset is hidden

/// "2026-11-20 07:00" from the server's ISO 8601 instant in the account's zone.
const when = (instant) => instant.slice(0, 16).replace("T", " ");

function fieldset() {
  let node = $("hf-references");
  if (node) return node;
  const input = deps.element("input", {
    id: "hf-reference-input", type: "file", accept: "image/*,.heic,.heif,.webp", capture: "environment",
    class: "camera-input", "aria-describedby": "hf-references-hint",
  });
  input.addEventListener("change", () => add(input));
  node = deps.element("fieldset", { id: "hf-references" },
    deps.element("legend", { text: "Photos of your made bed" }),
    deps.element("p", {
      id: "hf-references-hint", class: "muted",
      text: "Up to 5 photos of your own made bed: a proof must then show the same bedroom. Only the photos' features are kept, never the pictures.",
    }),
    deps.element("ul", { id: "hf-references-list", class: "references" }),
    input, deps.element("label", { for: input.id, class: "camera", text: "Add a photo of your made bed" }),
    deps.element("p", { id: "hf-references-status", role: "status", "aria-live": "polite" }));
  $("hf-error").before(node);
  return node;
}

/// Shows the fieldset for `shown` when it is a saved photo habit (references need its id), else hides it.
export async function showReferences(shown) {
  habit = shown && shown.kind === "photo" ? shown : null;
  const node = fieldset();
  node.hidden = !habit;
  $("hf-references-status").textContent = "";
  if (habit) await list();
}

async function list() {
  const asked = habit;
  try {
    const reply = await deps.api("GET", `/api/habits/${asked.id}/references`);
    if (habit !== asked) return;
    const items = reply.references.map((reference) => deps.element("li", {},
      `Photo ${reference.number} · ${reference.width}×${reference.height} · added ${when(reference.addedAt)} `,
      deps.element("button", {
        type: "button", text: "Remove", "aria-label": `Remove photo ${reference.number}`,
        onclick: () => remove(reference.number),
      })));
    if (items.length === 0) items.push(deps.element("li", { class: "muted", text: "No photos yet: any made bed proves the day." }));
    $("hf-references-list").replaceChildren(...items);
    const full = reply.references.length >= reply.limit;
    $("hf-reference-input").disabled = full;
    if (full) say(`${reply.limit} photos: remove one to add another.`);
  } catch (error) {
    say(error.message, true);
  }
}

// The fieldset's one line: what happened, in the error colour only when something went wrong.
function say(text, failed = false) {
  const status = $("hf-references-status");
  status.textContent = text;
  status.classList.toggle("error", failed);
}

async function add(input) {
  const file = input.files[0];
  if (!file || !habit) return;
  say("Adding the photo…");
  try {
    const added = await deps.api("POST", `/api/habits/${habit.id}/references`, file, file.type || "application/octet-stream");
    say(`Photo ${added.number} added.`);
  } catch (error) {
    say(`The photo could not be added: ${error.message}`, true);
  }
  input.value = "";
  await list();
}

async function remove(number) {
  try {
    await deps.api("DELETE", `/api/habits/${habit.id}/references/${number}`);
    say(`Photo ${number} removed.`);
  } catch (error) {
    say(error.message, true);
  }
  await list();
  $("hf-reference-input").focus();
}

/// Wires the fieldset to the app's `api` and `element`.
export function wireReferences(app) {
  deps = app;
}
