// A person's data as a whole (issue 41), three Settings cards: "Download my data" (GET /api/export,
// JSON or CSV), "Import from Loop, harsh or MorningProof" (POST /api/import, with an upload progress
// bar) and "Delete my account" (DELETE /api/auth/account, the download offered first). Self-contained:
// Settings calls `renderDataCare` once with the element to fill.

let app = null;

/// A DOM element: `attributes` (`text` is its text, `on…` a listener) and children.
function node(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") made.textContent = value;
    else if (key.startsWith("on")) made.addEventListener(key.slice(2), value);
    else made.setAttribute(key, value);
  }
  made.append(...children);
  return made;
}

function card(id, title, ...children) {
  return node("section", { id, class: "card", "aria-labelledby": `${id}-title` }, node("h3", { id: `${id}-title`, text: title }), ...children);
}

/// "1 habit", "412 days".
function count(n, noun) {
  return `${n.toLocaleString()} ${noun}${n === 1 ? "" : "s"}`;
}

// MARK: - Download

/// Fetches the export with the session's token and hands it to the browser as a download.
async function download(format, status) {
  status.textContent = "Preparing the download…";
  try {
    const response = await fetch(`/api/export?format=${format}`, { headers: app.authHeaders() });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.error || `the server answered ${response.status}`);
    }
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || `morningproof-export.${format}`;
    const url = URL.createObjectURL(await response.blob());
    const link = node("a", { href: url, download: name, hidden: "" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = `Downloaded ${name}.`;
  } catch (error) {
    status.textContent = `The download failed: ${error.message}.`;
  }
}

function downloadButtons(status) {
  return node("p", { class: "actions" },
    node("button", { type: "button", text: "Download my data (JSON)", onclick: () => download("json", status) }), " ",
    node("button", { type: "button", text: "Download as CSV", onclick: () => download("csv", status) }));
}

// MARK: - Import

/// The Content-Type of a file the import reads, by its name; the server reads the first bytes besides.
function importType(name) {
  const extension = name.toLowerCase().split(".").pop();
  return { db: "application/vnd.sqlite3", zip: "application/zip", json: "application/json" }[extension] || "application/octet-stream";
}

/// The body of the chosen files: harsh's habits and log as a form of two named parts, one file as itself.
function importBody(files) {
  if (files.length === 1) return { body: files[0], type: importType(files[0].name) };
  const named = (name) => files.find((file) => file.name.split(/[\\/]/).pop() === name);
  if (files.length !== 2 || !named("habits") || !named("log")) {
    throw new Error("choose one file, or harsh's two files named habits and log");
  }
  const form = new FormData();
  form.append("habits", named("habits"), "habits");
  form.append("log", named("log"), "log");
  return { body: form, type: null };
}

/// POSTs the import, reporting the fraction sent; resolves with the server's JSON or rejects with its message.
function send(body, type, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/import");
    for (const [name, value] of Object.entries(app.authHeaders())) request.setRequestHeader(name, value);
    if (type) request.setRequestHeader("Content-Type", type);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      let answer = {};
      try {
        answer = JSON.parse(request.responseText || "{}");
      } catch {
        answer = {};
      }
      if (request.status >= 200 && request.status < 300) resolve(answer);
      else reject(Object.assign(new Error(answer.error || `the server answered ${request.status}`), { status: request.status }));
    });
    request.addEventListener("error", () => reject(new Error("the connection closed before the server answered")));
    request.send(body);
  });
}

/// "Added 3 habits and 412 days", with the habits merged and the rows left out.
function summary(reply) {
  const added = reply.habitsCreated > 0 ? `Added ${count(reply.habitsCreated, "habit")} and ${count(reply.entriesAdded, "day")}`
    : reply.entriesAdded > 0 ? `Added ${count(reply.entriesAdded, "day")}` : "Nothing new: every day it holds is here already";
  const merged = reply.habitsMerged > 0 ? ` (${count(reply.habitsMerged, "habit")} already here, merged)` : "";
  const parts = [node("p", { text: `${added}${merged}.` })];
  if (reply.warnings?.length) {
    parts.push(node("p", { text: `${count(reply.warnings.length, "row")} left out:` }),
      node("ul", { class: "import-warnings" }, ...reply.warnings.map((warning) => node("li", { text: warning }))));
  }
  return parts;
}

async function importFiles(input, progress, result) {
  const files = [...input.files];
  if (files.length === 0) return;
  let request;
  try {
    request = importBody(files);
  } catch (error) {
    result.replaceChildren(node("p", { class: "error", text: `Not imported: ${error.message}.` }));
    input.value = "";
    return;
  }
  progress.hidden = false;
  progress.value = 0;
  result.replaceChildren(node("p", { text: `Uploading ${files.map((file) => file.name).join(" and ")}…` }));
  try {
    const reply = await send(request.body, request.type, (fraction) => {
      progress.value = Math.round(fraction * 100);
      if (fraction >= 1) result.replaceChildren(node("p", { text: "Sent; importing…" }));
    });
    progress.value = 100;
    result.replaceChildren(...summary(reply));
  } catch (error) {
    progress.hidden = true;
    result.replaceChildren(node("p", { class: "error", text: `Not imported: ${error.message}` }));
    if (error.status === 401) app.signedOut();
  } finally {
    input.value = "";
  }
}

function importCard() {
  const progress = node("progress", { id: "import-progress", max: "100", value: "0", "aria-label": "Import progress", hidden: "" });
  const result = node("div", { id: "import-result", role: "status", "aria-live": "polite" });
  const input = node("input", {
    // Styled as Today's "Take photo": the input hidden behind its label, which looks like a button.
    id: "import-file", type: "file", multiple: "", class: "camera-input", "aria-describedby": "import-hint",
  });
  input.addEventListener("change", () => importFiles(input, progress, result));
  return card("data-import", "Import from Loop, harsh or MorningProof",
    node("p", {
      id: "import-hint", class: "muted",
      text: "A Loop Habit Tracker backup (.db) or CSV export (.zip), harsh's two files habits and log (choose both), or a MorningProof download (.json). Habits already here are merged: the days recorded here stay, and importing the same file again adds nothing.",
    }),
    input, node("label", { for: "import-file", class: "camera", text: "Choose a file to import" }),
    progress, result);
}

// MARK: - Delete

async function deleteAccount(password, status) {
  if (!password.value) {
    status.textContent = "Type your password to delete the account.";
    password.focus();
    return;
  }
  if (!window.confirm("Delete your account and everything in it? This cannot be undone.")) return;
  try {
    await app.api("DELETE", "/api/auth/account", { password: password.value });
    password.value = "";
    app.signedOut("Your account and all its data were deleted.");
  } catch (error) {
    status.textContent = `Not deleted: ${error.message}.`;
  }
}

function deleteCard() {
  const status = node("p", { id: "delete-status", role: "status", "aria-live": "polite" });
  const password = node("input", { id: "delete-password", type: "password", autocomplete: "current-password" });
  return card("data-delete", "Delete my account",
    node("p", { text: "Everything goes: habits, days, proofs, health data, sessions. Download your data first if you may want it." }),
    downloadButtons(status),
    node("form", { onsubmit: (event) => { event.preventDefault(); deleteAccount(password, status); } },
      // A legend, not a label, says "password": the sign-in page's field keeps that name alone.
      node("fieldset", {}, node("legend", { text: "Password" }),
        node("label", { for: "delete-password", text: "Yours, to confirm" }), password),
      node("button", { type: "submit", class: "danger", text: "Delete my account" })),
    status);
}

/// Fills `container` with the three cards. `deps` gives `api` (JSON requests), `authHeaders()` (the
/// token and, in tests, the clock) and `signedOut(why)` (shows the sign-in page).
export function renderDataCare(container, deps) {
  app = deps;
  const status = node("p", { id: "download-status", role: "status", "aria-live": "polite" });
  container.replaceChildren(
    card("data-download", "Download my data",
      node("p", { text: "Your whole history: every habit with its days, as the JSON that MorningProof imports back, or as CSV for a spreadsheet." }),
      downloadButtons(status), status),
    importCard(), deleteCard());
}
