// The extension's options: the server and a pairing code (exchanged for a gate token) or a gate
// token pasted, this browser's own sites beside the server's list, and where the shield stands.
/* global chrome, MorningProof */
"use strict";

const $ = (id) => document.getElementById(id);
const SITE = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function show(result, store) {
  const words = {
    "not-set-up": "Not set up: nothing is shielded.",
    refused: "The server refused the token: nothing is shielded. Connect again.",
    open: `Connected to ${store.server}: the gate is open.`,
    closed: `Connected to ${store.server}: the gate is closed${result.offline ? " (offline: the last answer known)" : ""}.`,
  };
  $("status").textContent = words[result.state];
  $("server-sites").replaceChildren(...(store.sites || []).map((site) => Object.assign(document.createElement("li"), { textContent: site })));
  if (!(store.sites || []).length) $("server-sites").append(Object.assign(document.createElement("li"), { textContent: "None yet." }));
}

async function refresh() {
  const result = await MorningProof.check();
  const store = await MorningProof.kept();
  if (!$("server").value) $("server").value = store.server || "";
  $("local-sites").value = (store.localSites || []).join("\n");
  show(result, store);
}

/// The address as typed, without a slash at the end; http(s) only.
function serverAddress() {
  const url = new URL($("server").value.trim());
  if (!["https:", "http:"].includes(url.protocol)) throw new Error("The server address starts with https://");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

$("connect-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("connect-error").textContent = "";
  try {
    const server = serverAddress();
    // Firefox asks for the host permission the manifest names; Chromium has granted it at install.
    await chrome.permissions?.request?.({ origins: ["<all_urls>"] })?.catch?.(() => {});
    const code = $("code").value.trim().toUpperCase();
    const token = $("token").value.trim();
    if (code) {
      await MorningProof.pair(server, code, navigator.userAgent.includes("Firefox") ? "Firefox" : "Browser extension");
    } else if (token) {
      await chrome.storage.local.set({ server, token, last: null });
    } else {
      throw new Error("Give a pairing code, or a gate token");
    }
    $("code").value = "";
    $("token").value = "";
    await refresh();
  } catch (error) {
    $("connect-error").textContent = error.message;
  }
});

$("disconnect").addEventListener("click", async () => {
  await chrome.storage.local.remove(["token", "last", "sites"]);
  await refresh();
});

$("local-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const sites = $("local-sites").value.toLowerCase().split(/[\s,]+/).filter(Boolean);
  const bad = sites.filter((site) => !SITE.test(site) || site.length > 253);
  if (sites.length > 100) {
    $("local-status").textContent = "Not saved: at most 100 sites here (and 100 on the server).";
    return;
  }
  if (bad.length) {
    $("local-status").textContent = `Not saved: ${bad.join(", ")} is not a host such as instagram.com or *.reddit.com.`;
    return;
  }
  await chrome.storage.local.set({ localSites: [...new Set(sites)] });
  $("local-status").textContent = "Saved.";
  await refresh();
});

refresh();
