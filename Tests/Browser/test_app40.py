"""Browser tests of issue 40's History, first run, Habits and Settings points: Settings' code in
settings.js; History like Loop's (the map from the habit's first day, cells of 28 px in 44 px tap
areas, weekday names, missed and empty days 3:1 apart in both themes, a saved note shown and marked,
the score curve's axes); the first run of a new account; Habits reordered by drag; Settings as
grouped cards. Run by test_web_app.py's main (MORNINGPROOF_BROWSER_TEST=app40 runs only these).
"""
import re

from playwright.sync_api import expect

from test_notifications import accessible
from test_web_app import at, question, sign_up

CREATED = "2026-11-10T07:00:00-05:00"  # a Tuesday
FRIDAY = "2026-11-20T07:00:00-05:00"


def answered(server, page, instant):
    token = sign_up(server, page, instant=instant)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    return token


def reopened(page, instant):
    at(page, instant)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()


# MARK: - Point 1: Settings in a file of its own

def app40_settings_code_is_its_own_module_and_still_saves(server, context, page):
    token = answered(server, page, FRIDAY)
    worker = page.evaluate("() => fetch('/sw.js').then((r) => r.text())")
    assert '"/settings.js"' in worker, "settings.js is not in the worker's shell"
    app = page.evaluate("() => fetch('/app.js').then((r) => r.text())")
    assert "function loadSettings" not in app and 'from "/settings.js"' in app
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Your own question").fill("Did you stretch?")
    page.get_by_role("button", name="Change the question").click()
    expect(page.locator("#notice")).to_contain_text("Did you stretch?")
    assert server.api("GET", "/api/checkin", token, now=FRIDAY)["question"] == "Did you stretch?"


TESTS = [
    app40_settings_code_is_its_own_module_and_still_saves,
]
