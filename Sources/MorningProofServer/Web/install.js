// The "Install" hint: shown when the browser offers to install the app (`beforeinstallprompt`,
// Chromium), gone once installed or declined. iOS has no such event: there, Settings' notification
// section says to use Share, Add to Home Screen.
const $ = (id) => document.getElementById(id);
let offer = null;

export function wireInstall() {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // the page shows its own hint instead of the browser's mini bar
    offer = event;
    $("install-hint").hidden = false;
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
    $("install-hint").hidden = true;
  });
}
