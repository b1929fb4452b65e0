"""Browser tests of the gaps the audit of issue 40's whole text found (audit40): the screenshots in
.build/screenshots/<engine>/, the Habits list saying truthfully how Today orders it, errors that stay
until dismissed, the first run's "Notify me on this phone" explaining itself where push is not
available, a screen reader's activation of the round check, and History's counts read naturally.
Run by test_web_app.py's main (MORNINGPROOF_BROWSER_TEST=audit40 runs only these).
"""
import time

from playwright.sync_api import expect

from test_every_screen import SCHEMES, SIZES, photograph
from test_offline import OFFLINE, answered_with_read, card, instant
from test_sync import RESEND_BOUND, WATCH, wait_for_entry
from test_web_app import ROOT, at, day_cell, hold, question, sign_up

FRIDAY = "2026-11-20T07:00:00-05:00"
MONDAY = "2026-11-16T07:00:00-05:00"


def with_habits(server, page, names):
    """A new account, its question answered, with the habits `names` (made in that order): its token."""
    token = sign_up(server, page, instant=FRIDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    for name in names:
        server.api("POST", "/api/habits", token, {"name": name}, now=FRIDAY)
    page.reload()
    expect(page.get_by_role("button", name=f"Done: {names[-1]}", exact=True)).to_be_visible()
    return token


def audit40_chromium_screenshots_are_in_their_engines_folder(server, context, page):
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    photograph(page, "audit40-signin")
    # As WebKit's are in .build/screenshots/webkit/: one folder per engine.
    for width, height in SIZES:
        for scheme in SCHEMES:
            shot = ROOT / ".build/screenshots/chromium" / f"audit40-signin-{width}x{height}-{scheme}.png"
            assert shot.is_file(), f"no {shot.relative_to(ROOT)}"


def audit40_habits_say_truthfully_how_today_orders_them(server, context, page):
    with_habits(server, page, ["Walk", "Read"])
    hold(page, "Done: Walk")
    # Today: what is still to do first, then what is done.
    expect(page.locator("#habit-list .habit h3")).to_have_text(["Read", "Walk"])
    page.get_by_role("button", name="Habits").click()
    expect(page.locator("#habits-active strong")).to_have_text(["Walk", "Read"])
    # So the Habits list is not simply "the order Today shows them": it says the rest.
    words = page.locator("#habits p.muted").first
    expect(words).not_to_contain_text("In the order Today shows them")
    expect(words).to_contain_text("still to do first")


def audit40_an_error_stays_until_it_is_dismissed(server, context, page):
    with_habits(server, page, ["Walk", "Read"])
    page.get_by_role("button", name="Habits").click()
    # The server refuses the new order: its words stay on screen until they are dismissed.
    page.route("**/api/habits/order", lambda route: route.fulfill(
        status=409, content_type="application/json", body='{"error": "the list changed meanwhile", "code": "conflict"}'))
    page.get_by_role("button", name="Move down: Walk", exact=True).click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("the list changed meanwhile")
    page.wait_for_timeout(6000)  # past the 4 s of a notice
    expect(toast).to_be_visible()
    page.get_by_role("button", name="Dismiss the message").click()
    expect(toast).to_be_hidden()


def audit40_the_first_runs_notify_me_explains_itself_without_push(server, context, page):
    context.add_init_script("delete window.PushManager;")
    sign_up(server, page, instant=FRIDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    first_run = page.locator("#first-run")
    first_run.get_by_role("button", name="Next").click()
    expect(first_run).to_contain_text("Step 2 of 3")
    first_run.get_by_role("button", name="Next").click()
    expect(first_run).to_contain_text("Step 3 of 3")
    # Before any tap: why this browser gets no notifications, and what to use instead.
    expect(page.locator("#fr-push-status")).to_contain_text("This browser cannot show notifications from a web page")


def audit40_a_screen_readers_activation_completes_at_once(server, context, page):
    token = with_habits(server, page, ["Read"])
    # VoiceOver's and TalkBack's double tap: a click with no finger's press before it (detail 1).
    page.get_by_role("button", name="Done: Read", exact=True).dispatch_event("click", {"detail": 1})
    expect(card(page, "Read")).to_contain_text("done")
    read = next(h for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"] if h["name"] == "Read")
    assert read["state"] == "done", read
    # A finger's plain tap still only says how.
    server.api("POST", "/api/habits", token, {"name": "Walk"}, now=FRIDAY)
    page.reload()
    page.get_by_role("button", name="Done: Walk", exact=True).click()
    expect(page.locator("#notice")).to_have_text("Hold to complete")


def audit40_history_counts_read_naturally(server, context, page):
    token = with_habits(server, page, ["Read"])
    hold(page, "Done: Read")
    page.get_by_role("button", name="History").click()
    read = page.locator("#history article").filter(has=page.get_by_role("heading", name="Read", exact=True))
    streaks = read.locator(".streaks")
    expect(streaks).to_contain_text("Current streak 1 day")
    expect(streaks).not_to_contain_text("1 times")
    label = read.locator("svg.curve").get_attribute("aria-label")
    assert "1 days" not in label, label


def audit40_a_long_outage_still_resends_within_10_s_of_the_server_coming_back(server, context, page):
    context.add_init_script(WATCH)
    token, read = answered_with_read(server, page)
    # History: no quote asked every 15 s there, whose answer would send the queue as well.
    page.get_by_role("button", name="History").click()
    article = page.locator(f"#history article[data-habit='{read['id']}']")
    article.locator("button[data-day='2026-11-20']").click()
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url) if request.method == "PUT" else None)
    server.pause()
    at(page, OFFLINE)
    article.locator(".day-panel").get_by_role("button", name="Done", exact=True).click()
    expect(page.locator("#waiting")).to_contain_text("1 change waiting to sync")
    # The server stays away long enough for the back-off to grow past 10 s: the send, then the
    # retries 5, 15 and 35 s after it, all fail.
    started = time.monotonic()
    while len(failed) < 4:
        assert time.monotonic() - started < 120, f"{len(failed)} sends tried in 120 s"
        page.wait_for_timeout(250)
    server.resume()
    waited, entry = wait_for_entry(server, token, read, RESEND_BOUND)
    print(f"     after {time.monotonic() - started:.0f} s away, the queued Done reached the server {waited:.1f} s after it was back")
    assert entry["status"] == "done" and instant(entry["recordedAt"]) == instant(OFFLINE), entry
    expect(page.locator("#waiting")).to_be_hidden()
    assert page.evaluate("() => window.onlineEvents") == 0


# The requests the page tried while the server was down.
audit40_a_long_outage_still_resends_within_10_s_of_the_server_coming_back.console_allows = (
    "ERR_CONNECTION_REFUSED", "Failed to fetch")


def audit40_a_phones_habits_list_leaves_the_names_room(server, context, page):
    page.set_viewport_size({"width": 390, "height": 844})
    with_habits(server, page, ["Make bed", "Read"])
    page.get_by_role("button", name="Habits").click()
    row = page.get_by_role("button", name="Edit: Make bed", exact=True)
    expect(row).to_be_visible()
    # The name and its schedule, not the Move buttons, take the row: one line for "Make bed".
    width = row.bounding_box()["width"]
    assert width >= 250, f"the habit's row is {width:.0f} px of 390 wide"
    lines = row.locator("strong").evaluate(
        "(name) => Math.round(name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight))")
    assert lines == 1, f"'Make bed' on {lines} lines"
    for name in ("Move up: Read", "Move down: Make bed"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (name, box)


def audit40_history_tells_covered_days_from_skipped_ones(server, context, page):
    token = sign_up(server, page, instant=MONDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    gym = server.api("POST", "/api/habits", token, {"name": "Gym", "times": 1, "per": "week"}, now=MONDAY)
    server.api("PUT", f"/api/habits/{gym['id']}/entries/2026-11-16", token, {"status": "done"}, now=FRIDAY)
    at(page, FRIDAY)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="History").click()
    history = page.locator(f"#history article[data-habit='{gym['id']}']")
    # The week's one time done: the days after it are covered by the schedule, not skipped.
    covered = day_cell(history, "Gym", "2026-11-17", "covered")
    expect(covered).to_be_visible()
    expect(history.locator(".legend")).to_contain_text("covered by the schedule")
    colour = "(cell) => getComputedStyle(cell).backgroundColor"
    skipped = history.locator(".legend .cell.skipped").evaluate(colour)
    assert covered.evaluate(colour) != skipped, f"covered and skipped are both {skipped}"
    assert history.locator(".legend .cell.covered").evaluate(colour) == covered.evaluate(colour)


TESTS = [
    audit40_chromium_screenshots_are_in_their_engines_folder,
    audit40_habits_say_truthfully_how_today_orders_them,
    audit40_an_error_stays_until_it_is_dismissed,
    audit40_the_first_runs_notify_me_explains_itself_without_push,
    audit40_a_screen_readers_activation_completes_at_once,
    audit40_history_counts_read_naturally,
    audit40_a_long_outage_still_resends_within_10_s_of_the_server_coming_back,
    audit40_a_phones_habits_list_leaves_the_names_room,
    audit40_history_tells_covered_days_from_skipped_ones,
]
