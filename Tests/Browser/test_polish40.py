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


def polish40_today_links_to_the_habits_form_instead_of_its_own(server, context, page):
    token = answered(server, page)
    # One way to add a habit: Today has no form of its own, only the link to Habits' form.
    expect(page.locator("#today form#add-habit")).to_have_count(0)
    expect(page.locator("#today").get_by_label("New habit")).to_have_count(0)
    page.get_by_role("button", name="Add a habit").click()
    form = page.locator("#habit-form")
    expect(form).to_be_visible()
    expect(page.get_by_role("heading", name="Habits", exact=True)).to_be_visible()
    expect(page.locator("#tabs button[aria-current=page]")).to_have_text("Habits")
    expect(form.get_by_label("Name")).to_be_focused()
    page.keyboard.type("Stretch")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#habits-active")).to_contain_text("Stretch")
    assert any(h["name"] == "Stretch" for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"])
    page.get_by_role("button", name="Today").click()
    expect(page.get_by_role("button", name="Done: Stretch")).to_be_visible()


def polish40_first_run_choices_are_rows_of_at_least_44_px(server, context, page):
    answered(server, page)
    card = page.locator("#first-run")
    expect(card).to_be_visible()
    for box in card.locator("input[type=checkbox]").all():
        # The tap target is the whole row: the label around the box.
        row = box.locator("xpath=ancestor::label[1]").bounding_box()
        assert row["height"] >= 44 and row["width"] >= 44, row
    # A tap at the far end of a row, away from the box and its words, ticks it.
    read = card.get_by_label("Read", exact=True)
    row = read.locator("xpath=ancestor::label[1]")
    size = row.bounding_box()
    row.click(position={"x": size["width"] - 4, "y": size["height"] - 4})
    expect(read).to_be_checked()
    card.get_by_role("button", name="Next").click()
    expect(card).to_contain_text("Step 2 of 3")
    for choice in card.locator("input[type=radio]").all():
        row = choice.locator("xpath=ancestor::label[1]").bounding_box()
        assert row["height"] >= 44 and row["width"] >= 44, row


polish40_settings_and_habits_open_offline_after_one_online_visit.service_workers = "allow"
polish40_settings_and_habits_open_offline_after_one_online_visit.console_allows = OFFLINE_ERRORS

TESTS = [
    polish40_settings_and_habits_open_offline_after_one_online_visit,
    polish40_today_links_to_the_habits_form_instead_of_its_own,
    polish40_first_run_choices_are_rows_of_at_least_44_px,
]
