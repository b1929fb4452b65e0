"""Browser tests of trust (issue 39): the person decides their zone (a device in another zone changes
nothing until "Move my days" is tapped; "Keep" is remembered on that device), a photo habit is done
only by a photo (one "Take photo", no Done), and a habit's first day set in the form. Run by
test_web_app.py's main.
"""
from playwright.sync_api import expect

from test_web_app import PASSWORD, SCENES, menu_item, question, sign_up

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


def signed_up(server, page):
    """An account in America/New_York made through the page at MORNING, past the question: its token."""
    token = sign_up(server, page, instant=MORNING)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    return token


def a_photo_habit_offers_one_take_photo_and_no_done(server, context, page):
    token = signed_up(server, page)
    server.api("POST", "/api/habits", token, {"name": "Read"}, now=MORNING)
    server.api("POST", "/api/habits", token, {"name": "Make bed", "kind": "photo"}, now=MORNING)
    page.reload()
    page.wait_for_load_state("networkidle")
    bed = page.locator(".habit", has_text="Make bed")
    expect(page.get_by_role("button", name="Done: Read")).to_be_visible()
    expect(page.get_by_role("button", name="Done: Make bed")).to_have_count(0)
    expect(menu_item(bed, "Skip: Make bed")).to_be_visible()
    # One clear "Take photo": a label styled as the page's main button, over the camera's input.
    take = bed.locator("label.camera")
    expect(take).to_have_text("Take photo")
    expect(take).to_be_visible()
    assert take.evaluate("(label) => getComputedStyle(label).backgroundColor") == page.evaluate(
        "() => getComputedStyle(document.querySelector('#habit-new')).backgroundColor")
    camera = bed.get_by_label("Take photo")
    expect(camera).to_have_attribute("capture", "environment")
    expect(camera).to_have_attribute("accept", "image/*,.heic,.heif,.webp")
    camera.set_input_files(str(SCENES / "made-1.jpg"))
    expect(bed.locator(".verdict")).to_contain_text("Made", timeout=60000)  # the photo's decode, on a busy machine
    expect(menu_item(bed, "Undo: Make bed")).to_be_visible()


def a_habits_first_day_is_set_in_the_form_but_not_for_a_photo_habit(server, context, page):
    token = signed_up(server, page)
    page.get_by_role("button", name="Habits").click()
    page.get_by_role("button", name="New habit").click()
    form = page.locator("#habit-form")
    form.get_by_label("Name").fill("Journal")
    first = form.get_by_label("First day")
    # A photo habit starts today: the field goes.
    form.get_by_label("Kind").select_option("photo")
    expect(first).to_be_hidden()
    form.get_by_label("Kind").select_option("manual")
    # A day in the future is refused beside the field, nothing stored.
    first.fill("2026-11-21")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#hf-start-error")).to_contain_text("in the future")
    assert all(h["name"] != "Journal" for h in server.api("GET", "/api/habits", token, now=MORNING)["habits"])
    first.fill("2026-11-02")
    form.get_by_role("button", name="Save").click()
    expect(form).to_be_hidden()
    journal = [h for h in server.api("GET", "/api/habits", token, now=MORNING)["habits"] if h["name"] == "Journal"]
    assert journal and journal[0]["createdDay"] == "2026-11-02", journal
    # Changing a habit does not offer it: a first day is set when the habit is made.
    page.get_by_role("button", name="Edit: Journal").click()
    expect(first).to_be_hidden()


TESTS = [
    another_zone_changes_nothing_until_the_person_moves_their_days, a_photo_habit_offers_one_take_photo_and_no_done,
    a_habits_first_day_is_set_in_the_form_but_not_for_a_photo_habit,
]
