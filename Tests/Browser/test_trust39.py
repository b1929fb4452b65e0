"""Browser tests of issue 39's last points: History offers no Done on a photo habit (today "Take
photo", Today's camera; another day only Skip and Undo), and the habit form's "Photos of your made
bed" (add with the camera, listed with their dates, removed). Run by test_web_app.py's main.
"""
from playwright.sync_api import expect

from test_trust import MORNING, signed_up
from test_web_app import SCENES, SHOTS, at, day_panel_says, menu_item, question

NEXT_MORNING = "2026-11-21T07:00:00-05:00"


def history_offers_take_photo_and_no_done_on_a_photo_habit(server, context, page):
    token = signed_up(server, page)
    bed = server.api("POST", "/api/habits", token, {"name": "Make bed", "kind": "photo"}, now=MORNING)
    walk = server.api("POST", "/api/habits", token, {"name": "Walk", "startDay": "2026-11-15"}, now=MORNING)
    page.reload()
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="History").click()
    history = page.locator(f"#history article[data-habit='{bed['id']}']")
    history.locator("button[data-day='2026-11-20']").click()
    panel = history.locator(".day-panel")
    expect(panel.locator("time")).to_have_attribute("datetime", "2026-11-20")
    # Today: no Done, one "Take photo" (Today's camera), Skip stays.
    expect(panel.get_by_role("button", name="Done", exact=True)).to_have_count(0)
    expect(panel.get_by_role("button", name="Skip", exact=True)).to_be_visible()
    take = panel.get_by_role("button", name="Take photo: Make bed (on Today)")
    expect(take).to_have_text("Take photo")
    take.click()
    expect(page.locator("#today")).to_be_visible()
    camera = page.locator(f"#photo-{bed['id']}")
    expect(camera).to_be_focused()
    camera.set_input_files(str(SCENES / "made-1.jpg"))
    # The verdict waits for the photo's decode on the server: generous on a machine as busy as CI's.
    expect(page.locator(".habit", has_text="Make bed").locator(".verdict")).to_contain_text("Made", timeout=60000)
    # The next morning, the day before in History: no Done and no camera (a photo proves only its own
    # morning), Skip and Undo stay.
    at(page, NEXT_MORNING)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="History").click()
    history.locator("button[data-day='2026-11-20']").click()
    day_panel_says(history, "2026-11-20", "done")
    expect(panel.get_by_role("button", name="Done", exact=True)).to_have_count(0)
    expect(panel.get_by_role("button", name="Take photo", exact=False)).to_have_count(0)
    expect(panel.get_by_role("button", name="Undo", exact=True)).to_be_visible()
    expect(panel.get_by_role("button", name="Skip", exact=True)).to_be_visible()
    # A manual habit keeps its Done in History.
    walk_card = page.locator(f"#history article[data-habit='{walk['id']}']")
    walk_card.locator("button[data-day='2026-11-17']").click()
    expect(walk_card.locator(".day-panel").get_by_role("button", name="Done", exact=True)).to_be_visible()
    page.screenshot(path=str(SHOTS / "trust39-history.png"), full_page=True)


def the_habit_form_adds_lists_and_removes_photos_of_your_made_bed(server, context, page):
    token = signed_up(server, page)
    bed = server.api("POST", "/api/habits", token, {"name": "Make bed", "kind": "photo"}, now=MORNING)
    server.api("POST", "/api/habits", token, {"name": "Read"}, now=MORNING)
    page.reload()
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Habits").click()
    form = page.locator("#habit-form")
    # Not a photo habit: no photos to give.
    page.get_by_role("button", name="Edit: Read").click()
    expect(form.locator("#hf-references")).to_be_hidden()
    form.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Edit: Make bed").click()
    photos = form.get_by_role("group", name="Photos of your made bed")
    expect(photos).to_be_visible()
    expect(photos).to_contain_text("No photos yet")
    expect(photos).to_contain_text("never the pictures")
    camera = photos.get_by_label("Add a photo of your made bed")
    expect(camera).to_have_attribute("capture", "environment")
    expect(camera).to_have_attribute("accept", "image/*,.heic,.heif,.webp")
    camera.set_input_files(str(SCENES / "made-1.jpg"))
    status = photos.locator("#hf-references-status")
    expect(status).to_have_text("Photo 1 added.")
    listed = server.api("GET", f"/api/habits/{bed['id']}/references", token, now=MORNING)["references"]
    assert [reference["number"] for reference in listed] == [1], listed
    item = photos.locator("li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(f"Photo 1 · {listed[0]['width']}×{listed[0]['height']} · added 2026-11-20 07:00")
    page.screenshot(path=str(SHOTS / "trust39-references.png"), full_page=True)
    # Removed: gone from the list and from the server.
    photos.get_by_role("button", name="Remove photo 1").click()
    expect(status).to_have_text("Photo 1 removed.")
    expect(photos).to_contain_text("No photos yet")
    assert server.api("GET", f"/api/habits/{bed['id']}/references", token, now=MORNING)["references"] == []


def today_says_the_excuses_left_this_week(server, context, page):
    token = signed_up(server, page)
    line = page.locator("#today-excuses")
    expect(line).to_have_text("2 excuses left this week.")
    for name in ("Run", "Walk"):
        server.api("POST", "/api/habits", token, {"name": name, "required": True}, now=MORNING)
    server.api("POST", "/api/habits", token, {"name": "Read"}, now=MORNING)
    page.reload()
    page.wait_for_load_state("networkidle")
    # A skip of a habit that is not required is free; one of a required habit spends an excuse.
    menu_item(page, "Skip: Read").click()
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    expect(line).to_have_text("2 excuses left this week.")
    menu_item(page, "Skip: Run").click()
    expect(line).to_have_text("1 excuse left this week.")
    menu_item(page, "Skip: Walk").click()
    expect(line).to_have_text("No excuses left this week; the next comes back on Friday next week.")
    status = server.api("GET", "/api/status", token, now=MORNING)
    assert status["excusesLeft"] == 0 and status["excuseBackOn"] == "2026-11-27", status
    # Yesterday has no line: the budget is today's.
    page.get_by_label("Yesterday").check()
    expect(line).to_be_hidden()


TESTS = [
    today_says_the_excuses_left_this_week,
    history_offers_take_photo_and_no_done_on_a_photo_habit,
    the_habit_form_adds_lists_and_removes_photos_of_your_made_bed,
]
