// The extension's shield page: where a shielded site's navigation lands while the gate is closed
// (shield.html#ADDRESS, the address asked for after the #). It asks the gate at once (and every 30
// seconds while shown): the quote, what is left with a link to do it on the server's own /shield,
// the excuses left with "Unlock for today"; once the gate is open it goes back to ADDRESS by itself,
// only when ADDRESS is an http(s) address on the shielded list (never another scheme).
//
// No web page may show it: a page may reach it only at an address that changes every session
// (use_dynamic_url, so no page can load it to learn that the extension is there), no page may
// frame it (frame-ancestors 'none' in the manifest), and should a browser frame it anyway, it
// empties itself before anything is drawn or can be clicked ("Unlock for today" dressed up by
// another page).
/* global MorningProof */
"use strict";

if (window.top !== window.self) {
  document.body.replaceChildren();
  throw new Error("MorningProof's shield is not shown inside another page");
}

const $ = (id) => document.getElementById(id);
const asked = location.hash.slice(1);
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function hostOf(url) {
  try {
    return new URL(url).host;
  } catch (error) {
    return "";
  }
}

function excuseWords(gate) {
  if (gate.excusesLeft === 1) return "1 excuse left this week.";
  if (gate.excusesLeft > 1) return `${gate.excusesLeft} excuses left this week.`;
  if (!gate.excuseBackOn) return "No excuses left this week.";
  return `No excuses left this week; the next comes back on ${DAYS[new Date(`${gate.excuseBackOn}T00:00:00Z`).getUTCDay()]}.`;
}

function draw(result) {
  const gate = result.gate;
  const back = MorningProof.shielded(asked, result.sites || []) ? asked : null;
  if (result.state === "open" && back) {
    $("state").textContent = `The gate is open: back to ${hostOf(back)}…`;
    location.replace(back);
    return;
  }
  const host = hostOf(asked);
  $("title").textContent = result.state === "open" ? "The gate is open"
    : host ? `${host} waits for your morning` : "Your morning first";
  $("quote").hidden = !gate;
  if (gate) {
    $("quote-text").textContent = `“${gate.quote.text}”`;
    $("quote-by").textContent = `— ${gate.quote.author}, ${gate.quote.book}`;
  }
  const words = {
    "not-set-up": "The shield is not set up: nothing is shielded. Connect your MorningProof server in the options.",
    refused: "The server refused this browser's token: nothing is shielded. Connect again in the options.",
    open: "The gate is open.",
    closed: gate ? "Closed until what is left is done." : "Closed: the server cannot be reached and nothing is known today.",
  };
  const offline = result.offline && result.savedAt
    ? ` Offline: as known at ${new Date(result.savedAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.` : "";
  $("state").textContent = words[result.state] + (result.state === "closed" ? offline : "");
  const closed = result.state === "closed";
  $("left").hidden = !closed;
  $("unlock").hidden = !closed || !gate;
  if (closed) {
    const left = (gate?.pending || []).map((habit) => habit.name);
    if (["unanswered", "no"].includes(gate?.checkin)) left.push("The daily question");
    $("pending").replaceChildren(...left.map((name) => Object.assign(document.createElement("li"), { textContent: name })));
    $("do-it").href = `${result.server}/shield?from=${encodeURIComponent(back || host)}`;
  }
  if (gate) {
    $("excuses").textContent = excuseWords(gate);
    $("unlock-button").disabled = gate.excusesLeft < 1;
  }
  $("continue").hidden = !(result.state !== "closed" && back);
  if (back) {
    $("continue").href = back;
    $("continue").textContent = `Continue to ${hostOf(back)}`;
  }
}

async function refresh() {
  try {
    draw(await MorningProof.check());
  } catch (error) {
    $("state").textContent = `The shield could not ask the gate: ${error.message}`;
  }
}

$("again").addEventListener("click", refresh);
$("unlock-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("unlock-error").textContent = "";
  try {
    draw(await MorningProof.unlock($("reason").value.trim()));
  } catch (error) {
    $("unlock-error").textContent = error.message;
  }
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refresh();
});
setInterval(() => {
  if (document.visibilityState === "visible") refresh();
}, 30000);
refresh();
