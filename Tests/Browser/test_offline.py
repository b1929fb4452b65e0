"""Browser tests of the app offline: the shell opens from the service worker with no network, Today
shows what was last known, Done and the check-in answer given offline are kept in IndexedDB with
their instants and shown as waiting, and reach the server with those instants when the network
is back; a change another device made later wins, and the page says so. Run by test_web_app.py's main.
"""
import datetime
import os
import re
import signal

from playwright.sync_api import expect

from test_notifications import accessible, push_registration
from test_web_app import SHOTS, at, day_panel_says, hold, menu_item, page_fetch, question, sign_up

OPENED = "2026-11-20T07:00:00-05:00"
OFFLINE = "2026-11-20T07:10:00-05:00"  # the instant the person acts with no network
LATER = "2026-11-20T07:20:00-05:00"  # another device changes the same day
BACK = "2026-11-20T07:30:00-05:00"  # the network is back: what is sent counts as OFFLINE, not this
# What Chromium logs for each request the page tries with no network: expected here.
OFFLINE_ERRORS = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch")


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


# Playwright's set_offline does not reach the service worker, whose Background Sync would then send
# the queue at once, network or not: these tests leave the page without it (the page still sends
# on `online` and on open); offline_queue_is_sent_by_the_worker_on_a_background_sync tests the worker's side.
NO_BACKGROUND_SYNC = """Object.defineProperty(ServiceWorkerRegistration.prototype, "sync", { get: () => undefined });"""


def replay_idle(page):
    """Waits until no replay of the queue runs or waits (the page sends what waits when it opens)."""
    page.wait_for_function("""async () => {
        const { held, pending } = await navigator.locks.query();
        return ![...held, ...pending].some((lock) => lock.name === "morningproof-replay");
    }""")


def worker_sync(context, page, server):
    """Fires the worker's Background Sync now, through DevTools. Chromium's own scheduler fires a
    registered sync when it sees fit: once in a few runs, not within 90 s."""
    cdp, registration = push_registration(context, page, server.url)
    cdp.send("ServiceWorker.dispatchSyncEvent", {
        "origin": server.url, "registrationId": registration, "tag": "morningproof-replay", "lastChance": False})


def ready_offline(context, page):
    """Waits until the service worker controls the page (its shell cached), then cuts the network."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    context.set_offline(True)


def back_online(context, page):
    at(page, BACK)
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")


def card(page, name):
    return page.locator("#habit-list li.habit").filter(has=page.get_by_role("heading", name=name, exact=True))


def entry_of(server, token, habit, day="2026-11-20"):
    entries = server.api("GET", f"/api/habits/{habit['id']}/entries", token, now=BACK)["entries"]
    return next((entry for entry in entries if entry["day"] == day), None)


def answered_with_read(server, page, clock=OPENED):
    """An account whose question is answered, with a habit "Read", on Today at `clock` (the page
    saves its clock with the session in IndexedDB: what the worker sends with)."""
    token = sign_up(server, page, instant=OPENED)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    read = server.api("POST", "/api/habits", token, {"name": "Read"}, now=OPENED)
    at(page, clock)
    page.reload()
    expect(page.get_by_role("button", name="Done: Read")).to_be_visible()
    return token, read


def offline_done_and_answer_reach_the_server_with_their_instants(server, context, page):
    context.add_init_script(NO_BACKGROUND_SYNC)
    token = sign_up(server, page, instant=OPENED)
    read = server.api("POST", "/api/habits", token, {"name": "Read"}, now=OPENED)
    server.api("POST", "/api/habits", token, {"name": "Make bed", "kind": "photo"}, now=OPENED)
    page.reload()
    expect(question(page)).to_be_visible()
    expect(page.get_by_role("button", name="Done: Read")).to_be_visible()
    ready_offline(context, page)
    at(page, OFFLINE)

    # The question answered and Read marked done with no network: kept, shown at once as waiting.
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    hold(page, "Done: Read")
    expect(card(page, "Read")).to_contain_text("done, waiting to sync")
    expect(page.locator("#waiting")).to_contain_text("2 changes waiting to sync")

    # Reloaded with no network: the shell comes from the service worker, the day from IndexedDB.
    page.reload()
    expect(page.locator("#offline")).to_contain_text(re.compile(r"Offline: showing what was known at \d\d:\d\d"))
    expect(question(page)).to_be_hidden()
    expect(card(page, "Read")).to_contain_text("done, waiting to sync")
    # No streak the server has not confirmed: the last confirmed one, 0 days.
    expect(card(page, "Read")).to_contain_text("last confirmed streak 0 days")
    waiting = page.locator("#waiting")
    expect(waiting).to_contain_text("2 changes waiting to sync")
    expect(waiting).to_contain_text("the answer yes on Fri 20 Nov")
    expect(waiting).to_contain_text("Read done on Fri 20 Nov")
    expect(menu_item(page, "Undo: Read")).to_be_enabled()
    # A photo proof needs the server, and the control says so.
    expect(page.get_by_label("Take photo")).to_be_disabled()
    expect(page.locator("#today")).to_contain_text("A photo proof needs the server")
    page.screenshot(path=str(SHOTS / "phone-offline.png"), full_page=True)
    accessible(page, "body")
    assert server.api("GET", "/api/checkin", token, now=BACK)["answer"] is None

    # The network is back: both are sent, in order, with the instants they happened at.
    back_online(context, page)
    expect(waiting).to_be_hidden()
    expect(page.locator("#offline")).to_be_hidden()
    expect(card(page, "Read")).not_to_contain_text("waiting")
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    entry = entry_of(server, token, read)
    assert entry and entry["status"] == "done", entry
    assert instant(entry["recordedAt"]) == instant(OFFLINE), entry
    answered = server.api("GET", "/api/checkin", token, now=BACK)
    assert answered["day"] == "2026-11-20" and answered["answer"] == "yes", answered
    checkin = next(h for h in server.api("GET", "/api/habits", token, now=BACK)["habits"] if h["kind"] == "checkin")
    assert instant(entry_of(server, token, checkin)["recordedAt"]) == instant(OFFLINE)

    # Sent twice (the page and the worker, two tabs): the server's rule (LastWriter: the same instant
    # does not lose) makes the repeat harmless, and the day stays as the first one left it.
    again = page_fetch(page, "PUT", f"/api/habits/{read['id']}/entries/2026-11-20", token,
                       '{"status": "done", "at": "%s"}' % OFFLINE, "application/json", now=BACK)
    assert again["status"] == 200 and again["json"]["result"] == "unchanged", again
    answer = page_fetch(page, "POST", "/api/checkin", token, '{"answer": "yes", "at": "%s"}' % OFFLINE,
                        "application/json", now=BACK)
    assert answer["status"] == 200 and answer["json"]["answer"] == "yes", answer
    assert instant(entry_of(server, token, read)["recordedAt"]) == instant(OFFLINE)


def offline_queue_replayed_twice_at_once_sends_each_action_once(server, context, page):
    # The test's two replays only: not the worker's (no Background Sync), nor the page's on open.
    context.add_init_script(NO_BACKGROUND_SYNC)
    token, read = answered_with_read(server, page, clock=OFFLINE)
    replay_idle(page)
    # Two actions queued as the page queues them offline, then two replays of that queue at once (as
    # the page and the worker, or two tabs, would): one lock, so the second finds nothing left to
    # send, and the done is applied after the skip, in the order recorded.
    sent = page.evaluate("""async ({ id, at }) => {
        const store = self.morningproofOffline;
        const { account } = await store.session();
        const action = { habitId: id, habitName: "Read", day: "2026-11-20", at, account };
        await store.enqueue({ ...action, kind: "entry", status: "skipped" });
        await store.enqueue({ ...action, kind: "entry", status: "done" });
        const outcomes = await Promise.all([store.replay(), store.replay()]);
        return outcomes.map((outcome) => outcome.sent);
    }""", {"id": read["id"], "at": OFFLINE})
    assert sorted(sent) == [0, 2], sent
    entry = entry_of(server, token, read)
    assert entry["status"] == "done" and instant(entry["recordedAt"]) == instant(OFFLINE), entry
    assert page.evaluate("() => self.morningproofOffline.takeMessages()") == []


def offline_queue_is_sent_by_the_worker_on_a_background_sync(server, context, page):
    token, read = answered_with_read(server, page, clock=OFFLINE)
    # An action in the queue that the page does not send itself: the worker sends it on its sync tag,
    # with the token and clock it finds in IndexedDB, and tells the page, which shows the day again.
    replay_idle(page)
    page.evaluate("""async (id) => {
        const store = self.morningproofOffline;
        const { account } = await store.session();
        await store.enqueue({ kind: "entry", status: "done", habitId: id, habitName: "Read", day: "2026-11-20",
                              at: "%s", account });
    }""" % OFFLINE, read["id"])
    worker_sync(context, page, server)
    expect(menu_item(page, "Undo: Read")).to_be_visible(timeout=60000)
    entry = entry_of(server, token, read)
    assert entry and instant(entry["recordedAt"]) == instant(OFFLINE), entry


def offline_change_loses_to_a_later_one_from_another_device_and_says_so(server, context, page):
    context.add_init_script(NO_BACKGROUND_SYNC)
    token, read = answered_with_read(server, page)
    ready_offline(context, page)
    at(page, OFFLINE)
    hold(page, "Done: Read")
    expect(card(page, "Read")).to_contain_text("done, waiting to sync")

    # Another phone, online, skips the same day later.
    other = context.browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="America/New_York",
                                        service_workers="block")
    try:
        second = other.new_page()
        second.goto(page.url)
        second.evaluate("(token) => localStorage.setItem('morningproof.token', token)", token)
        at(second, LATER)
        second.reload()
        menu_item(second, "Skip: Read").click()
        expect(menu_item(second, "Undo: Read")).to_be_visible()
    finally:
        other.close()

    # Back online, the first phone's older done loses: it says so in words and shows the server's day.
    back_online(context, page)
    notice = page.locator("#notice")
    expect(notice).to_have_text(
        "Your change to Read on Fri 20 Nov was replaced by a later one from another device: it is skipped.")
    expect(card(page, "Read")).to_contain_text("skipped")
    expect(card(page, "Read")).not_to_contain_text("waiting")
    expect(page.locator("#waiting")).to_be_hidden()
    entry = entry_of(server, token, read)
    assert entry["status"] == "skipped" and instant(entry["recordedAt"]) == instant(LATER), entry


EVENING = "2026-11-20T21:00:00-05:00"  # Read done, then the network goes
MORNING = "2026-11-21T07:10:00-05:00"  # the next morning, opened with no network
MORNING_BACK = "2026-11-21T07:30:00-05:00"


def offline_a_morning_opened_offline_is_a_new_day_not_the_evening_before(server, context, page):
    context.add_init_script(NO_BACKGROUND_SYNC)
    token, read = answered_with_read(server, page, clock=EVENING)
    hold(page, "Done: Read")
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    ready_offline(context, page)

    # The next morning, still offline: the page opens from what it saved the evening before, but
    # shows a new day (asked again, Read to do, the streak the server last confirmed), not that evening.
    at(page, MORNING)
    page.reload()
    expect(question(page)).to_be_visible()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-21")
    expect(page.locator("#today-summary")).to_contain_text("a new day since the last connection")
    expect(card(page, "Read")).to_contain_text("to do")
    expect(card(page, "Read")).to_contain_text("last confirmed streak 1 day")
    hold(page, "Done: Read")
    expect(card(page, "Read")).to_contain_text("done, waiting to sync")
    expect(page.locator("#waiting")).to_contain_text("2 changes waiting to sync")

    # Back online: the morning's done and answer are the 21st's, with their instants; the 20th keeps its own.
    at(page, MORNING_BACK)
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#waiting")).to_be_hidden()
    expect(card(page, "Read")).to_contain_text("streak 2 days")
    entries = {entry["day"]: entry for entry in
               server.api("GET", f"/api/habits/{read['id']}/entries", token, now=MORNING_BACK)["entries"]}
    assert entries["2026-11-21"]["status"] == "done", entries
    assert instant(entries["2026-11-21"]["recordedAt"]) == instant(MORNING), entries
    assert entries["2026-11-20"]["status"] == "done", entries
    answered = server.api("GET", "/api/checkin", token, now=MORNING_BACK)
    assert answered["day"] == "2026-11-21" and answered["answer"] == "yes", answered


def offline_a_phone_clock_ahead_of_the_server_is_corrected(server, context, page):
    token, read = answered_with_read(server, page)
    # No test clock: the server's own, and a phone whose clock runs 10 minutes fast. The page learns
    # the difference from the server's answers, so Done is not refused as an action in the future.
    page.evaluate("() => localStorage.removeItem('morningproof.now')")
    server_now = datetime.datetime.now(datetime.timezone.utc)
    page.clock.set_system_time(server_now + datetime.timedelta(minutes=10))
    page.reload()
    # The server's today is a day the question was not answered on: the answer carries an instant too.
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    hold(page, "Done: Read")
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    expect(page.locator("#notice")).to_be_hidden()
    checkin = server.api("GET", "/api/checkin", token)
    assert checkin["answer"] == "yes", checkin
    day = checkin["day"]
    entries = server.api("GET", f"/api/habits/{read['id']}/entries", token)["entries"]
    entry = next(entry for entry in entries if entry["day"] == day)
    assert abs(instant(entry["recordedAt"]) - server_now) < datetime.timedelta(minutes=1), (entry, server_now)


def offline_a_day_changed_in_history_with_a_note_reaches_the_server(server, context, page):
    context.add_init_script(NO_BACKGROUND_SYNC)
    token, read = answered_with_read(server, page)
    page.get_by_role("button", name="History").click()
    history = page.locator(f"#history article[data-habit='{read['id']}']")
    expect(history.locator("button[data-day='2026-11-20']")).to_be_visible()
    ready_offline(context, page)
    at(page, OFFLINE)
    # History's Done, with a note, works offline as Today's does: kept, shown as waiting, sent later.
    history.locator("button[data-day='2026-11-20']").click()
    panel = history.locator(".day-panel")
    panel.get_by_label("Note (sent with Done or Skip)").fill("<b>on the train</b>")
    panel.get_by_role("button", name="Done", exact=True).click()
    day_panel_says(history, "2026-11-20", "done, waiting to sync")
    expect(page.locator("#waiting")).to_contain_text("1 change waiting to sync")
    accessible(page, "#history")
    back_online(context, page)
    expect(page.locator("#waiting")).to_be_hidden()
    entry = entry_of(server, token, read)
    assert entry["status"] == "done" and entry["note"] == "<b>on the train</b>", entry
    assert instant(entry["recordedAt"]) == instant(OFFLINE), entry


def offline_a_second_open_paints_what_it_kept_before_the_server_answers(server, context, page):
    """A second open paints Today from what it showed last time (localStorage, read at once) while
    the server has not answered; opened past the day's end the server gave (dayEndsAt), it paints a
    new day, not the evening before. Signing out forgets it."""
    context.add_init_script(NO_BACKGROUND_SYNC)
    token, read = answered_with_read(server, page, clock=EVENING)
    hold(page, "Done: Read")
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('morningproof.firstPaint'))")
    assert kept["paths"]["/api/checkin"]["json"]["dayEndsAt"] == "2026-11-21T00:00:00-05:00", kept["paths"].keys()

    os.kill(server.process.pid, signal.SIGSTOP)  # the server takes connections and answers none
    try:
        page.reload()
        expect(card(page, "Read")).to_contain_text("done")
        expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-20")
        at(page, MORNING)
        page.reload()
        expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-21")
        expect(page.locator("#today-summary")).to_contain_text("a new day since the last connection")
        expect(card(page, "Read")).to_contain_text("to do")
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    # The server answers: its day stands, and the question it asks.
    expect(question(page)).to_be_visible()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(card(page, "Read")).to_contain_text("to do")
    expect(page.locator("#today-summary")).not_to_contain_text("a new day since the last connection")

    page.get_by_role("button", name="Settings").click()
    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.get_by_role("button", name="Create an account")).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('morningproof.firstPaint')") is None


offline_queue_is_sent_by_the_worker_on_a_background_sync.service_workers = "allow"
for test in (offline_done_and_answer_reach_the_server_with_their_instants,
             offline_change_loses_to_a_later_one_from_another_device_and_says_so,
             offline_a_morning_opened_offline_is_a_new_day_not_the_evening_before,
             offline_a_second_open_paints_what_it_kept_before_the_server_answers,
             offline_a_day_changed_in_history_with_a_note_reaches_the_server):
    test.service_workers = "allow"
    test.console_allows = OFFLINE_ERRORS

def offline_another_tab_signing_in_as_another_account_sends_nothing_of_the_first_with_its_token(
        server, context, page):
    """Two tabs share the token (localStorage): another tab signing in as Bo made this tab, still
    showing Ada's day, send Ada's Done and answer with Bo's token (kept with Ada's account in the
    session the queue is sent with): the Done was refused as Bo's and dropped, the answer recorded as
    Bo's. This tab now follows the sign-in, and the session it keeps pairs each token with its account."""
    context.add_init_script(NO_BACKGROUND_SYNC)
    ada, read = answered_with_read(server, page)
    bo = server.api("POST", "/api/auth/signup", None,
                    {"email": "bo@example.com", "password": "bo-password-1", "timezone": "America/New_York"},
                    now=OPENED)
    server.api("POST", "/api/checkin/setup", bo["token"], {"preset": "general"}, now=OPENED)
    second = context.new_page()
    second.goto(server.url + "/")
    # What signing in as Bo in that tab leaves in the storage both tabs share.
    second.evaluate("(token) => localStorage.setItem('morningproof.token', token)", bo["token"])

    # This tab shows Bo's day now (Bo is asked the question), not Ada's Read to be sent as Bo.
    expect(question(page)).to_be_visible()
    expect(page.get_by_role("button", name="Done: Read")).to_have_count(0)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    kept = page.evaluate("() => self.morningproofOffline.session()")
    assert kept["token"] == bo["token"] and kept["account"] == bo["user"]["id"], kept
    assert server.api("GET", "/api/checkin", bo["token"], now=BACK)["answer"] == "yes"
    assert entry_of(server, ada, read) is None
    second.close()


TESTS = [
    offline_done_and_answer_reach_the_server_with_their_instants,
    offline_queue_replayed_twice_at_once_sends_each_action_once,
    offline_queue_is_sent_by_the_worker_on_a_background_sync,
    offline_change_loses_to_a_later_one_from_another_device_and_says_so,
    offline_a_morning_opened_offline_is_a_new_day_not_the_evening_before,
    offline_a_second_open_paints_what_it_kept_before_the_server_answers,
    offline_a_phone_clock_ahead_of_the_server_is_corrected,
    offline_a_day_changed_in_history_with_a_note_reaches_the_server,
    offline_another_tab_signing_in_as_another_account_sends_nothing_of_the_first_with_its_token,
]
