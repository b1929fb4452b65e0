"""Browser tests of issue 40's polish (polish40): the screens that Today does not need come with
import() after the first load and still open offline from the service worker's cache.
Run by test_web_app.py's main (MORNINGPROOF_BROWSER_TEST=polish40 runs only these).
"""
from playwright.sync_api import expect

from test_offline import OFFLINE_ERRORS, ready_offline
from test_web_app import question, sign_up

FRIDAY = "2026-11-20T07:00:00-05:00"


def answered(server, page, instant=FRIDAY):
    token = sign_up(server, page, instant=instant)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    return token


def polish40_settings_and_habits_open_offline_after_one_online_visit(server, context, page):
    answered(server, page)
    # Online once: Settings and Habits seen (what they showed is kept in IndexedDB).
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("textbox", name="Time zone")).to_have_value("America/New_York")
    page.get_by_role("button", name="Habits").click()
    expect(page.get_by_role("button", name="New habit")).to_be_visible()
    page.get_by_role("button", name="Today").click()
    ready_offline(context, page)
    # A new page with no network: its modules, the lazy ones too, can only come from the worker's cache.
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("heading", name="Settings", exact=True)).to_be_visible()
    expect(page.get_by_role("textbox", name="Time zone")).to_have_value("America/New_York")
    page.get_by_role("button", name="Habits").click()
    expect(page.get_by_role("heading", name="Habits", exact=True)).to_be_visible()
    expect(page.locator("#notice")).not_to_contain_text("offline: check the connection")
    context.set_offline(False)


polish40_settings_and_habits_open_offline_after_one_online_visit.service_workers = "allow"
polish40_settings_and_habits_open_offline_after_one_online_visit.console_allows = OFFLINE_ERRORS

TESTS = [
    polish40_settings_and_habits_open_offline_after_one_online_visit,
]
