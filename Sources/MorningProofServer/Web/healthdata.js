// Settings, "Health data": an Apple Health export sent from the phone to POST /api/metrics (with
// XMLHttpRequest, whose upload reports progress, which fetch does not), and Health Auto Export's
// connection (a token that can only post metrics, and what to paste into the app).
// Nothing here is queued offline: an upload needs the network while it runs, and says so.
const $ = (id) => document.getElementById(id);

/// The Content-Type of an export by its name's extension, as POST /api/metrics reads it.
const EXPORT_TYPES = { zip: "application/zip", xml: "application/xml" };

/// How many of an upload's warnings the page lists (the count says how many there were).
const WARNINGS_SHOWN = 5;

class UploadError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/// Connects the Health data controls to the app: `app` gives `api`, `element`, `notice`,
/// `authHeaders` (the token and, in tests, the clock), `signedOut`, `uploaded` and `tokensChanged`.
export function wireHealthData(app) {
  $("health-file").addEventListener("change", () => uploadExport(app));
  $("connect-hae").addEventListener("click", () => connectHealthAutoExport(app));
  for (const button of document.querySelectorAll("#hae-settings [data-copy]")) {
    button.addEventListener("click", () => copy($(button.dataset.copy)));
  }
}

function exportType(name) {
  const extension = name.toLowerCase().split(".").pop();
  return EXPORT_TYPES[extension] || null;
}

async function uploadExport(app) {
  const input = $("health-file");
  const file = input.files[0];
  if (!file) return;
  const result = $("health-result");
  const progress = $("health-progress");
  const type = exportType(file.name);
  if (!type) {
    result.replaceChildren(app.element("p", {
      class: "error", text: `${file.name} is not an Apple Health export: choose export.zip (or the export.xml inside it).`,
    }));
    input.value = "";
    return;
  }
  if (!navigator.onLine) {
    result.replaceChildren(app.element("p", {
      class: "error", text: "Offline: the export is not sent and not kept for later. Choose it again once the connection is back.",
    }));
    input.value = "";
    return;
  }
  progress.hidden = false;
  progress.value = 0;
  result.replaceChildren(app.element("p", { text: `Uploading ${file.name}…` }));
  try {
    const reply = await post(file, type, app.authHeaders(), (fraction) => {
      if (fraction < 1) {
        progress.value = Math.round(fraction * 100);
      } else {
        // Sent whole: the server reads it now, for as long as that takes.
        progress.removeAttribute("value");
        result.replaceChildren(app.element("p", { text: `${file.name} sent; reading it…` }));
      }
    });
    progress.value = 100;
    result.replaceChildren(...summary(reply, app.element));
    await app.uploaded();
  } catch (error) {
    progress.hidden = true;
    result.replaceChildren(app.element("p", { class: "error", text: error.message }));
    if (error.status === 401) app.signedOut();
  } finally {
    input.value = "";
  }
}

/// POSTs the file with progress reports (a fraction, 1 when the body is sent) and resolves with the
/// server's JSON answer, or rejects with its error message.
function post(file, type, headers, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/metrics");
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.setRequestHeader("Content-Type", type);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(event.loaded / event.total, 0.99));
    });
    request.upload.addEventListener("load", () => onProgress(1));
    request.addEventListener("load", () => {
      let body = {};
      try {
        body = request.responseText ? JSON.parse(request.responseText) : {};
      } catch (error) {
        body = {};
      }
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new UploadError(request.status, failure(request.status, body.error, file)));
    });
    request.addEventListener("error", () => reject(new UploadError(0, navigator.onLine
      ? `${file.name} (${size(file.size)}) was not sent whole: the connection closed before the server answered.`
      : "Offline: the upload stopped. Choose the export again once the connection is back.")));
    request.send(file);
  });
}

function failure(status, message, file) {
  const reason = message || `HTTP ${status}`;
  if (status === 413) return `${file.name} (${size(file.size)}) is larger than this server accepts (${reason}).`;
  if (status === 400 || status === 415) return `${file.name} could not be read: ${reason}.`;
  return `The upload failed: ${reason}.`;
}

function size(bytes) {
  if (bytes < 1e6) return `${Math.ceil(bytes / 1e3).toLocaleString()} kB`;
  return `${(bytes / 1e6).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;
}

function number(value) {
  return typeof value === "number" ? value.toLocaleString() : String(value);
}

/// The answer of POST /api/metrics in sentences: what was read, the goals it completed, the first
/// warnings.
function summary(reply, element) {
  const days = reply.daysTouched;
  const changed = !days ? "no day changed"
    : days.from === days.to ? `the day ${days.from} changed` : `the days ${days.from} to ${days.to} changed`;
  const nodes = [element("p", {
    text: `Read ${number(reply.records)} records, ${number(reply.duplicates)} of them already known; ${changed}.`,
  })];
  const completed = reply.completed || [];
  nodes.push(element("p", {
    class: completed.length ? "state-done" : "muted",
    text: completed.length
      ? `Goals completed: ${completed.map((goal) => `${goal.habit} (${goal.day}: ${number(goal.value)} of ${number(goal.target)})`).join(", ")}.`
      : "No goal was completed by this export.",
  }));
  const warnings = reply.warnings || [];
  if (warnings.length) {
    const first = warnings.slice(0, WARNINGS_SHOWN);
    nodes.push(
      element("p", { text: warnings.length > first.length ? `${warnings.length} warnings; the first ${first.length}:` : `Warnings:` }),
      element("ul", { class: "warnings" }, ...first.map((warning) => element("li", { text: `${warning.where}: ${warning.message}` }))));
  }
  return nodes;
}

async function connectHealthAutoExport(app) {
  try {
    const token = await app.api("POST", "/api/tokens", { name: "Health Auto Export", scope: "metrics" });
    $("hae-url").value = `${location.origin}/api/metrics`;
    $("hae-header").value = `Authorization: Bearer ${token.token}`;
    $("hae-format").value = "JSON, Export Version 2";
    $("hae-settings").hidden = false;
    $("hae-url").focus();
    await app.tokensChanged();
  } catch (error) {
    app.notice(error.message, "error");
  }
}

/// Puts the field's text on the clipboard; where the page may not (plain http on a phone), selects
/// it so that the phone's own Copy is one tap away.
async function copy(field) {
  const label = document.querySelector(`label[for="${field.id}"]`)?.textContent || "The text";
  try {
    await navigator.clipboard.writeText(field.value);
    $("hae-copied").textContent = `${label} copied.`;
  } catch (error) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
    const copied = document.execCommand && document.execCommand("copy");
    $("hae-copied").textContent = copied ? `${label} copied.` : `${label} is selected: copy it with the phone's Copy.`;
  }
}
