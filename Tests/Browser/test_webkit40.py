"""WebKit (Safari's engine), every screen as the Chromium suite photographs it (test_every_screen.py):
at 390x844 and 1280x800, in the light and the dark scheme (MiniBrowser's --dark-mode), in
.build/screenshots/webkit/<screen>-<width>x<height>-<scheme>.png; on the way, the flows issue 40 names
that the other WebKit tests leave out: the block screen after a "no", and Habits reordered with Move
down and a finger's drag; and a queue waiting for a server that was away long enough for the back-off
to grow past 10 s sent within 10 s of its return. Run by test_webkit.py's main
(MORNINGPROOF_BROWSER_TEST=webkit40 runs these).
"""
import struct
import time

from test_app40 import TOUCH_DRAG
from test_every_screen import CREATED, FRIDAY, SIZES, seed
from test_offline import OFFLINE, instant
from test_sync import RESEND_BOUND, WATCH, wait_for_entry
from test_webkit import SHOTS_WEBKIT, create_account, with_read


def png_size(path):
    with open(path, "rb") as file:
        header = file.read(24)
    return struct.unpack(">II", header[16:24])


def photograph(page, screen, scheme):
    """`screen` at both sizes in `scheme` (the session's): the page's own colour scheme checked, and the
    viewport's screenshot saved, its size checked."""
    page.js("const debug = document.getElementById('debug'); if (debug) debug.hidden = true;")
    dark = page.js("return matchMedia('(prefers-color-scheme: dark)').matches")
    assert dark == (scheme == "dark"), f"{screen}: the page's colour scheme is not {scheme}"
    for width, height in SIZES:
        got = page.viewport(width, height)
        path = SHOTS_WEBKIT / f"{screen}-{width}x{height}-{scheme}.png"
        page.driver.save_screenshot(str(path))
        assert got == [width, height], f"{screen}: a viewport of {got}, not {width}x{height}"
        assert png_size(path)[0] >= width, f"{path.name}: {png_size(path)}"
    page.viewport(390, 844)


def radio(page, element_id):
    page.js(f"document.getElementById('{element_id}').click()")


def every_screen(server, page, scheme):
    page.go()
    page.wait(lambda: page.visible("#signin-form"), "the sign-in page")
    photograph(page, "signin", scheme)
    create_account(page, CREATED)
    photograph(page, "question", scheme)
    # "No": the block screen, calm, with what could be done; then "I've done it" opens Today.
    page.click("No")
    page.wait(lambda: page.visible("#block") and page.text("#block figure blockquote"), "the block screen")
    photograph(page, "block", scheme)
    page.click("I've done it")
    page.wait(lambda: page.visible("#first-run"), "Today with the first run")
    photograph(page, "first-run", scheme)
    token = page.js("return localStorage.getItem('morningproof.token')")
    habits = seed(server, token)
    page.at(FRIDAY)
    page.reload()
    page.click("Yes")
    page.wait(lambda: page.button("Done: Read") and "2 of 3 this week" in page.text("#habit-list"), "Today's habits")
    photograph(page, "today", scheme)
    page.hold("Done: Read")
    page.wait(lambda: page.in_menu("Undo: Read"), "Undo: Read in the row's menu")
    photograph(page, "today-done-menu", scheme)
    radio(page, "show-yesterday")
    page.wait(lambda: page.js("return document.getElementById('today-day').getAttribute('datetime')") == "2026-11-19",
              "yesterday")
    photograph(page, "today-yesterday", scheme)
    radio(page, "show-today")
    page.click("History")
    page.click_first(f"#history article[data-habit='{habits['Read']['id']}'] button[data-day='2026-11-06']")
    page.wait_text("#history .day-panel", "skipped")
    photograph(page, "history", scheme)
    # Habits: Move down for a keyboard, a drag for a finger; the server keeps the order.
    page.click("Habits")
    page.wait(lambda: page.button("Move down: Read"), "Habits")
    photograph(page, "habits", scheme)
    page.click("Move down: Read")
    order = lambda: [h["name"] for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"]  # noqa: E731
                     if h["kind"] != "checkin"]
    page.wait(lambda: order() == ["Make bed", "Read", "Gym", "Steps"], "Read one place down")
    page.wait(lambda: page.button("Move up: Read"), "the list drawn again")
    grip = page.visible("#habits-active li[data-habit] .grip")[-1]
    top = page.js("return document.querySelector('#habits-active li').getBoundingClientRect().top + 4")
    page.js(f"({TOUCH_DRAG})(arguments[0], arguments[1])", grip, top)  # a finger's drag (pointerType touch)
    page.wait(lambda: order() == ["Steps", "Make bed", "Read", "Gym"], "Steps dragged to the top")
    page.click("Edit: Read")
    page.wait(lambda: page.visible("#habit-form"), "the habit form")
    photograph(page, "habit-form", scheme)
    page.click("Settings")
    page.wait(lambda: page.visible("#week-start") and page.text("#session-list"), "Settings")
    photograph(page, "settings", scheme)


def webkit40_every_screen_light(server, page):
    every_screen(server, page, "light")


def webkit40_every_screen_dark(server, page):
    every_screen(server, page, "dark")


# MiniBrowser's own switch: the page's prefers-color-scheme is dark.
webkit40_every_screen_dark.browser_arguments = ("--dark-mode",)

# Counts the page's PUTs that found no server (the queue's sends).
COUNT_FAILED_SENDS = """
window.failedSends = 0;
const send = window.fetch;
window.fetch = (...request) => send(...request).catch((error) => {
    if (request[1]?.method === "PUT") window.failedSends += 1;
    throw error;
});
"""


def webkit40_a_long_outage_still_resends_within_10_s_of_the_server_coming_back(server, page):
    token, read = with_read(server, page)
    page.js(WATCH)
    # History: no quote asked every 15 s there, whose answer would send the queue as well.
    page.click("History")
    article = f"#history article[data-habit='{read['id']}']"
    page.click_first(f"{article} button[data-day='2026-11-20']")
    page.js(COUNT_FAILED_SENDS)
    server.pause()
    page.at(OFFLINE)
    page.click_first(f"{article} .day-panel button.primary")
    page.wait_text("#waiting", "1 change waiting to sync")
    # Away long enough for the back-off to grow past 10 s: the send and the retries 5, 15 and 35 s
    # after it fail.
    started = time.monotonic()
    page.wait(lambda: page.js("return window.failedSends") >= 4, "four sends that found no server", 120)
    server.resume()
    waited, entry = wait_for_entry(server, token, read, RESEND_BOUND)
    print(f"     WebKit: after {time.monotonic() - started:.0f} s away, the queued Done reached the server "
          f"{waited:.1f} s after it was back")
    assert entry["status"] == "done" and instant(entry["recordedAt"]) == instant(OFFLINE), entry
    assert page.js("return window.onlineEvents") == 0


WEBKIT_TESTS = [webkit40_every_screen_light, webkit40_every_screen_dark,
                webkit40_a_long_outage_still_resends_within_10_s_of_the_server_coming_back]
