// The "Install" hint: shown when the browser offers to install the app (`beforeinstallprompt`,
// Chromium), gone once installed or declined; after "Not now", offered again a week later at the
// earliest. iOS has no such event: there, Settings' notification section says to use Share, Add to
// Home Screen.
const $ = (id) => document.getElementById(id);
let offer = null;
const DECLINED = "morningproof.installDeclinedAt";
const WEEK_MS = 7 * 24 * 3600 * 1000;

/// Whether "Not now" was said less than a week ago.
function declinedLately() {
  const at = Number(localStorage.getItem(DECLINED));
  return at > 0 && Date.now() - at < WEEK_MS;
}

export function wireInstall() {
  showInsecureAddress();
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the page shows its own hint instead of the browser's mini bar
    offer = event;
    $("install-hint").hidden = declinedLately();
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    $("install-hint").hidden = true;
  });
  $("install-yes").addEventListener("click", async () => {
    $("install-hint").hidden = true;
    if (!offer) return;
    const shown = offer;
    offer = null;
    await shown.prompt();
  });
  $("install-no").addEventListener("click", () => {
    localStorage.setItem(DECLINED, String(Date.now()));
    $("install-hint").hidden = true;
  });
}

// On an insecure address (http:// to a name or address other than this machine) the browser gives
// the page no service worker, no push and no install: the page says so once, at the top, with the
// cause, rather than letting each feature fail in its own words. "Got it" hides it for this visit.
const INSECURE_SEEN = "morningproof.insecureAddressSeen";

function showInsecureAddress() {
  if (window.isSecureContext || sessionStorage.getItem(INSECURE_SEEN)) return;
  $("insecure-origin").textContent = location.origin;
  $("insecure-address").hidden = false;
  $("insecure-ok").addEventListener("click", () => {
    sessionStorage.setItem(INSECURE_SEEN, "1");
    $("insecure-address").hidden = true;
  });
}
