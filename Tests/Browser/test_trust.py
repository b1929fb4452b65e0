"""Browser tests of trust (issue 39): the person decides their zone (a device in another zone changes
nothing until "Move my days" is tapped; "Keep" is remembered on that device), a photo habit is done
only by a photo (one "Take photo", no Done), and a habit's first day set in the form. Run by
test_web_app.py's main.
"""
from playwright.sync_api import expect

from test_web_app import PASSWORD, question

MORNING = "2026-11-20T07:00:00-05:00"


def berlin_account(server, page):
    """An account in Europe/Berlin, opened in this page (a browser in America/New_York): its token."""
    token = server.api("POST", "/api/auth/signup", None,
                       {"email": "ada@example.com", "password": PASSWORD, "timezone": "Europe/Berlin"},
                       now=MORNING)["token"]
    page.goto(server.url + "/")
    page.evaluate("(token) => localStorage.setItem('morningproof.token', token)", token)
    page.evaluate("(now) => localStorage.setItem('morningproof.now', now)", MORNING)
    page.reload()
    expect(page.locator("#today")).to_be_visible()
    expect(question(page)).to_be_hidden()
    return token


def zone_of(server, token):
    return server.api("GET", "/api/auth/me", token, now=MORNING)["timezone"]


def another_zone_changes_nothing_until_the_person_moves_their_days(server, context, page):
    token = berlin_account(server, page)
    page.wait_for_load_state("networkidle")
    zone = zone_of(server, token)
    assert zone == "Europe/Berlin", f"opening the app in New York moved the account's days to {zone}"
    line = page.locator("#zone-line")
    expect(line).to_contain_text("This phone is on New York time; your days follow Berlin.")
    # "Keep Berlin": the line goes, and stays gone on this device after a reload; the zone is Berlin.
    page.get_by_role("button", name="Keep Berlin").click()
    expect(line).to_be_hidden()
    page.reload()
    expect(page.locator("#today")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(line).to_be_hidden()
    assert zone_of(server, token) == "Europe/Berlin"
    # Another device (no "Keep" remembered there) is offered the move, and the tap makes it.
    other = context.browser.new_context(timezone_id="America/New_York", viewport={"width": 360, "height": 800},
                                        service_workers="block")
    try:
        phone = other.new_page()
        phone.goto(server.url + "/")
        phone.evaluate("(token) => localStorage.setItem('morningproof.token', token)", token)
        phone.reload()
        expect(phone.locator("#zone-line")).to_contain_text("your days follow Berlin")
        assert zone_of(server, token) == "Europe/Berlin"
        phone.get_by_role("button", name="Move my days to New York").click()
        expect(phone.locator("#zone-line")).to_be_hidden()
        expect(phone.locator("#notice")).to_have_text("Your days now follow New York time.")
        assert zone_of(server, token) == "America/New_York"
    finally:
        other.close()


TESTS = [another_zone_changes_nothing_until_the_person_moves_their_days]
