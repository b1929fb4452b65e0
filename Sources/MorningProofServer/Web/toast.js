// Notices as a toast over the bottom of the screen: it fades after about 4 s; an error stays until
// it is dismissed with its close button.
const $ = (id) => document.getElementById(id);

// A notice fades after this long; an error ("error") stays until it is dismissed.
const NOTICE_SHOWN = 4000;
let noticeTimer = null;

/// Shows `text` as a toast over the bottom of the screen (`kind` "error": it stays, with a close button).
export function notice(text, kind = "info") {
  clearTimeout(noticeTimer);
  const error = kind === "error" && Boolean(text);
  $("notice").textContent = text;
  $("notice").hidden = !text;
  $("toast").hidden = !text;
  $("toast").classList.toggle("error", error);
  $("toast").classList.remove("leaving");
  $("notice-close").hidden = !error;
  if (!text || error) return;
  noticeTimer = setTimeout(() => {
    $("toast").classList.add("leaving"); // fades out (CSS), then goes
    noticeTimer = setTimeout(() => notice(""), 400);
  }, NOTICE_SHOWN - 400);
}

export function wireToast() {
  $("notice-close").addEventListener("click", () => notice(""));
}
