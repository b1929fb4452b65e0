// The extension's background: asks the gate on start, every minute (chrome.alarms), and when the
// options change; gate.js does the asking and the rules. Chromium runs this file as the service
// worker (importScripts brings gate.js); Firefox loads gate.js and this file as background scripts.
/* global chrome, importScripts, MorningProof */
"use strict";

if (typeof MorningProof === "undefined") importScripts("gate.js");

const ALARM = "ask-the-gate";

function ask() {
  MorningProof.check().catch((error) => console.warn("MorningProof shield:", error));
}

chrome.runtime.onInstalled.addListener(ask);
chrome.runtime.onStartup.addListener(ask);
chrome.alarms.create(ALARM, { periodInMinutes: 1 });
chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === ALARM) ask();
});
chrome.storage.onChanged.addListener((changes) => {
  if (changes.server || changes.token || changes.localSites) ask();
});
ask();
