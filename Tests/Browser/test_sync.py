"""Browser tests of sync that cannot silently stop: a server that was unreachable while the page
believed it was online (no `online` event ever comes) gets the queue on its own once it is back, and
History keeps its open day, focus and scroll when the service worker's replay repaints it. Run by
test_web_app.py's main.
"""
import time

from playwright.sync_api import expect

from test_offline import OFFLINE, answered_with_read, entry_of, instant, worker_sync
from test_web_app import at, day_panel_says, hold, menu_item

# The page counts the `online` events it sees and writes down every status it shows: "Synced" is
# shown for a moment only.
WATCH = """
window.onlineEvents = 0;
window.addEventListener("online", () => { window.onlineEvents += 1; });
window.statusesShown = [];
new MutationObserver(() => {
    const synced = document.getElementById("synced");
    if (synced && !synced.hidden && synced.textContent) window.statusesShown.push(synced.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""
# A queue that waits for a server that is back is sent within this many seconds, with no tap.
RESEND_BOUND = 10


def wait_for_entry(server, token, habit, bound):
    """Seconds until the server has `habit`'s entry, or an AssertionError after `bound` seconds."""
    started = time.monotonic()
    while (entry := entry_of(server, token, habit)) is None:
        waited = time.monotonic() - started
        assert waited < bound, f"the queued action had not reached the server {waited:.1f} s after it was back"
        time.sleep(0.25)
    return time.monotonic() - started, entry


def sync_resends_to_a_server_back_on_the_same_address_with_no_tap_and_no_online_event(server, context, page):
    context.add_init_script(WATCH)
    token, read = answered_with_read(server, page)
    # The server goes (a restart, a captive Wi-Fi): the page still believes it is online.
    server.pause()
    at(page, OFFLINE)
    hold(page, "Done: Read")
    expect(page.locator("#waiting")).to_contain_text("1 change waiting to sync")
    assert page.evaluate("() => navigator.onLine")
    server.resume()
    waited, entry = wait_for_entry(server, token, read, RESEND_BOUND)
    print(f"     the queued Done reached the server {waited:.1f} s after it was back")
    assert entry["status"] == "done" and instant(entry["recordedAt"]) == instant(OFFLINE), entry
    expect(page.locator("#waiting")).to_be_hidden()
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    assert "Synced" in page.evaluate("() => window.statusesShown")
    assert page.evaluate("() => window.onlineEvents") == 0


# The requests the page tried while the server was down.
sync_resends_to_a_server_back_on_the_same_address_with_no_tap_and_no_online_event.console_allows = (
    "ERR_CONNECTION_REFUSED", "Failed to fetch")


def sync_history_keeps_its_open_day_focus_and_scroll_when_the_worker_repaints(server, context, page):
    token, read = answered_with_read(server, page)
    for name in ("Walk", "Pray", "Stretch"):
        server.api("POST", "/api/habits", token, {"name": name}, now=OFFLINE)
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.get_by_role("button", name="History").click()
    last = page.locator("#history article").last
    last.locator("button[data-day='2026-11-20']").click()
    panel = last.locator(".day-panel")
    panel.get_by_role("button", name="Done", exact=True).click()
    day_panel_says(last, "2026-11-20", "done")
    # Typing the next note, scrolled down to the last habit, when the worker's replay says it sent
    # the queue (as after every Done): the screen is drawn again from the server.
    note = panel.get_by_label("Note (sent with Done or Skip)")
    note.fill("half an hour")
    scrolled = page.evaluate("() => window.scrollY")
    assert scrolled > 0, "the last habit's day should be below the first screen"
    page.evaluate("""() => {
        document.querySelector("#history article:last-child").dataset.drawnBefore = "yes";
    }""")
    worker_sync(context, page, server)
    expect(page.locator("#history article[data-drawn-before]")).to_have_count(0, timeout=30000)
    expect(panel).to_be_visible()
    day_panel_says(last, "2026-11-20", "done")
    expect(note).to_be_focused()
    expect(note).to_have_value("half an hour")
    assert abs(page.evaluate("() => window.scrollY") - scrolled) <= 2, (scrolled, page.evaluate("() => window.scrollY"))


sync_history_keeps_its_open_day_focus_and_scroll_when_the_worker_repaints.service_workers = "allow"

TESTS = [
    sync_resends_to_a_server_back_on_the_same_address_with_no_tap_and_no_online_event,
    sync_history_keeps_its_open_day_focus_and_scroll_when_the_worker_repaints,
]
