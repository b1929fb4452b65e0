"""Browser tests of the Habits tab (the form with every field of the API), of Today's summary,
targets, goals and yesterday, and of installability (DevTools' Page.getInstallabilityErrors, the
icons, the iOS tags and the "Install" hint). Run by test_web_app.py's main.
"""
import struct
import tempfile
import urllib.request

from playwright.sync_api import expect

from test_notifications import accessible
from test_web_app import CHROMIUM, SHOTS, at, hold, menu_item, question, sign_up

MONDAY = "2026-11-16T07:00:00-05:00"
FRIDAY = "2026-11-20T07:00:00-05:00"


def habit_named(server, token, name):
    habits = server.api("GET", "/api/habits?archived=true", token, now=FRIDAY)["habits"]
    found = [habit for habit in habits if habit["name"] == name]
    return found[0] if found else None


def both_sizes(page, name, selector=None):
    """Screenshots at 390x844 (a phone) and 1280x800 (a desktop), of the page or of `selector`."""
    for label, size in (("phone", (390, 844)), ("desktop", (1280, 800))):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        target = page.locator(selector) if selector else page
        target.screenshot(path=str(SHOTS / f"{label}-{name}.png"), **({} if selector else {"full_page": True}))
    page.set_viewport_size({"width": 390, "height": 844})


def a_habit_is_made_changed_archived_restored_and_deleted_in_the_form(server, context, page):
    token = sign_up(server, page, instant=FRIDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("button", name="Habits").click()
    page.get_by_role("button", name="New habit").click()
    form = page.locator("#habit-form")
    form.get_by_label("Name").fill("Run")
    form.get_by_label("Schedule").select_option("week")
    form.get_by_label("Times (K)").fill("9")
    form.get_by_label("Remind at").fill("07:30")
    form.get_by_label("Required").check()
    form.get_by_label("Note").fill("Before breakfast")
    form.get_by_label("Metric").select_option("workoutMinutes")
    expect(form.get_by_label("Kind")).to_have_value("metric")
    form.get_by_label("Target").fill("30min")
    form.get_by_label("Activity (workouts only)").fill("Running")
    # 9 times a week is refused, the server's words shown beside the schedule, nothing stored.
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#hf-schedule-error")).to_contain_text('"times"')
    expect(form.get_by_label("Times (K)")).to_have_attribute("aria-invalid", "true")
    assert habit_named(server, token, "Run") is None
    form.get_by_label("Times (K)").fill("3")
    accessible(page, "#habits")
    both_sizes(page, "habit-form")
    form.get_by_role("button", name="Save").click()
    expect(form).to_be_hidden()
    expect(page.get_by_role("button", name="Edit: Run")).to_contain_text("3 times a week")
    run = habit_named(server, token, "Run")
    assert run["kind"] == "metric" and run["schedule"] == "3 times a week", run
    assert run["remindAt"] == "07:30" and run["required"] is True and run["note"] == "Before breakfast", run
    assert run["goal"]["metric"] == "workoutMinutes" and run["goal"]["comparison"] == "atLeast", run
    assert run["goal"]["target"] == 30 and run["goal"]["activity"] == "running", run

    # Changed: renamed, every 2 days, at most 90 minutes, no note; the form starts from what is stored.
    page.get_by_role("button", name="Edit: Run").click()
    expect(form.get_by_label("Times (K)")).to_have_value("3")
    expect(form.get_by_label("Remind at")).to_have_value("07:30")
    form.get_by_label("Name").fill("Morning run")
    form.get_by_label("Schedule").select_option("every")
    form.get_by_label("Days (N)").fill("2")
    form.get_by_label("Comparison").select_option("atMost")
    form.get_by_label("Target").fill("90")
    form.get_by_label("Note").fill("")
    form.get_by_label("Remind at").fill("06:45")
    form.get_by_role("button", name="Save").click()
    expect(page.get_by_role("button", name="Edit: Morning run")).to_contain_text("every 2 days")
    run = habit_named(server, token, "Morning run")
    assert run["schedule"] == "every 2 days" and run["remindAt"] == "06:45" and "note" not in run, run
    assert run["goal"]["comparison"] == "atMost" and run["goal"]["target"] == 90, run
    assert run["goal"]["activity"] == "running", run

    # The form starts from the schedule's fields; emptying "Remind at" and the metric removes them
    # (PATCH with null), the habit becoming a manual one.
    page.get_by_role("button", name="Edit: Morning run").click()
    expect(form.get_by_label("Schedule")).to_have_value("every")
    expect(form.get_by_label("Days (N)")).to_have_value("2")
    form.get_by_label("Remind at").fill("")
    form.get_by_label("Kind").select_option("manual")
    expect(form.get_by_label("Metric")).to_have_value("")
    form.get_by_role("button", name="Save").click()
    expect(form).to_be_hidden()
    run = habit_named(server, token, "Morning run")
    assert "remindAt" not in run and "goal" not in run and run["kind"] == "manual", run
    assert run["every"] == 2 and run["schedule"] == "every 2 days", run

    # Archived, listed under Archived, restored, then deleted after the confirmation.
    page.get_by_role("button", name="Edit: Morning run").click()
    page.get_by_role("button", name="Archive: Morning run").click()
    expect(page.locator("#habits-archived")).to_contain_text("Morning run")
    assert habit_named(server, token, "Morning run")["archived"] is True
    page.get_by_role("button", name="Edit: Morning run").click()
    page.get_by_role("button", name="Restore: Morning run").click()
    expect(page.locator("#habits-active")).to_contain_text("Morning run")
    assert habit_named(server, token, "Morning run")["archived"] is False
    page.get_by_role("button", name="Edit: Morning run").click()
    page.get_by_role("button", name="Delete", exact=True).click()
    confirm = page.get_by_role("alertdialog")
    expect(confirm).to_contain_text("cannot be undone")
    expect(page.get_by_role("button", name="Keep it")).to_be_focused()
    page.get_by_role("button", name="Keep it").click()
    assert habit_named(server, token, "Morning run") is not None
    page.get_by_role("button", name="Delete", exact=True).click()
    page.get_by_role("button", name="Delete for good").click()
    expect(page.locator("#habits-active")).to_contain_text("No habits yet.")
    assert habit_named(server, token, "Morning run") is None


def today_counts_the_due_habits_and_shows_targets_goals_and_yesterday(server, context, page):
    token = sign_up(server, page, instant=MONDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    read = server.api("POST", "/api/habits", token, {"name": "Read"}, now=MONDAY)
    gym = server.api("POST", "/api/habits", token, {"name": "Gym", "times": 3, "per": "week"}, now=MONDAY)
    server.api("POST", "/api/habits", token, {"name": "Steps", "metric": "steps", "atLeast": 8000}, now=MONDAY)
    server.api("PUT", f"/api/habits/{gym['id']}/entries/2026-11-17", token, {"status": "done"}, now=FRIDAY)
    request = urllib.request.Request(server.url + "/api/metrics", method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json", "X-MorningProof-Now": FRIDAY})
    body = ('{"data": {"metrics": [{"name": "step_count", "units": "count", "data": '
            '[{"qty": 5000, "date": "2026-11-20 06:00:00 -0500", "source": "phone"}]}]}}')
    urllib.request.urlopen(request, body.encode()).read()
    at(page, FRIDAY)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    summary = page.locator("#today-summary")
    expect(summary).to_have_text("0 of 3 done")
    gym_card = page.locator(".habit", has_text="Gym")
    expect(gym_card).to_contain_text("1 of 3 this week")
    steps = page.locator(".habit", has_text="Steps")
    expect(steps).to_contain_text("Today: 5,000 steps")
    expect(steps.get_by_role("meter")).to_have_attribute("value", "5000")
    hold(page, "Done: Read")
    expect(summary).to_have_text("1 of 3 done")
    hold(page, "Done: Gym")
    expect(summary).to_have_text("2 of 3 done")
    expect(gym_card).to_contain_text("2 of 3 this week")
    # Done habits go after the ones still to do.
    expect(page.locator(".habit h3").first).to_have_text("Steps")
    accessible(page, "#today")
    both_sizes(page, "today-summary")
    # Yesterday, one tap away: Read marked done for 2026-11-19.
    page.get_by_role("radio", name="Yesterday").check()
    expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-19")
    expect(summary).to_have_text("0 of 3 done")
    hold(page, "Done: Read")
    expect(summary).to_have_text("1 of 3 done")
    entries = server.api("GET", f"/api/habits/{read['id']}/entries", token, now=FRIDAY)["entries"]
    assert [entry["day"] for entry in entries] == ["2026-11-19", "2026-11-20"], entries
    accessible(page, "#today")
    both_sizes(page, "today-yesterday")
    page.get_by_role("radio", name="Today").check()
    expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-20")


def a_travel_day_offers_done_and_a_met_target_is_not_counted(server, context, page):
    token = sign_up(server, page, instant=MONDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    server.api("POST", "/api/habits", token, {"name": "Read"}, now=MONDAY)
    gym = server.api("POST", "/api/habits", token, {"name": "Gym", "times": 3, "per": "week"}, now=MONDAY)
    for day in ("2026-11-16", "2026-11-17", "2026-11-18"):
        server.api("PUT", f"/api/habits/{gym['id']}/entries/{day}", token, {"status": "done"}, now=FRIDAY)
    at(page, FRIDAY)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    # The week's three are done: Gym is not due, and not counted.
    expect(page.locator("#today-summary")).to_have_text("0 of 1 done")
    expect(page.locator(".habit", has_text="Gym")).to_contain_text("not due")
    # A trip: the account's zone changes today, which makes today a travel day for Read, still open.
    server.api("PATCH", "/api/auth/profile", token, {"timezone": "Europe/Lisbon"}, now=FRIDAY)
    page.reload()
    read = page.locator(".habit", has_text="Read")
    expect(read).to_contain_text("travel day: your streak is safe")
    hold(page, "Done: Read", within=read)
    expect(read).to_contain_text("done")
    expect(menu_item(read, "Undo: Read")).to_be_visible()


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    return struct.unpack(">II", data[16:24])


def installability_errors(browser_type, url):
    """Page.getInstallabilityErrors for `url` in a profile on disk (an incognito one is never installable)."""
    with tempfile.TemporaryDirectory(prefix="morningproof-profile-") as folder:
        context = browser_type.launch_persistent_context(folder, executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = context.new_page()
            page.goto(url)
            page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            return context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
        finally:
            context.close()


def the_app_is_installable_with_icons_ios_tags_and_an_install_hint(server, context, page):
    errors = installability_errors(context.browser.browser_type, server.url + "/")
    assert errors == [], errors
    page.goto(server.url + "/")
    manifest = server.api("GET", "/manifest.webmanifest")
    sizes = {}
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            data = urllib.request.urlopen(server.url + icon["src"]).read()
            assert png_size(data) == tuple(map(int, icon["sizes"].split("x"))), icon
            sizes.setdefault(icon["purpose"], []).append(icon["sizes"])
    assert "192x192" in sizes["any"] and "512x512" in sizes["any"] and sizes["maskable"] == ["512x512"], sizes
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert png_size(urllib.request.urlopen(server.url + touch).read()) == (180, 180)
    for name in ("apple-mobile-web-app-capable", "apple-mobile-web-app-status-bar-style", "apple-mobile-web-app-title"):
        assert page.locator(f'meta[name="{name}"]').get_attribute("content"), name
    # The browser's offer (beforeinstallprompt) shows the hint; "Install" hands it to the browser.
    page.evaluate("""() => {
        const offer = new Event("beforeinstallprompt", { cancelable: true });
        offer.prompt = async () => { window.prompted = true; };
        window.dispatchEvent(offer);
    }""")
    hint = page.locator("#install-hint")
    expect(hint).to_be_visible()
    both_sizes(page, "install-hint")
    accessible(page, "#install-hint")
    page.get_by_role("button", name="Install", exact=True).click()
    expect(hint).to_be_hidden()
    assert page.evaluate("() => window.prompted") is True


the_app_is_installable_with_icons_ios_tags_and_an_install_hint.service_workers = "allow"

def habits_move_up_and_down_and_today_follows(server, context, page):
    token = sign_up(server, page, instant=FRIDAY)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    for name in ("Walk", "Read", "Swim"):
        server.api("POST", "/api/habits", token, {"name": name}, now=FRIDAY)
    page.get_by_role("button", name="Habits").click()
    active = page.locator("#habits-active")
    expect(active.locator("strong")).to_have_text(["Walk", "Read", "Swim"])
    expect(page.get_by_role("button", name="Move up: Walk")).to_be_disabled()
    expect(page.get_by_role("button", name="Move down: Swim")).to_be_disabled()
    page.get_by_role("button", name="Move down: Walk").click()
    expect(active.locator("strong")).to_have_text(["Read", "Walk", "Swim"])
    expect(page.get_by_role("button", name="Move down: Walk")).to_be_focused()
    # From the keyboard: the focus stays with the habit moved.
    page.keyboard.press("Enter")
    expect(active.locator("strong")).to_have_text(["Read", "Swim", "Walk"])
    expect(page.get_by_role("button", name="Move up: Walk")).to_be_focused()
    page.get_by_role("button", name="Move up: Swim").click()
    expect(active.locator("strong")).to_have_text(["Swim", "Read", "Walk"])
    names = [habit["name"] for habit in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"]]
    assert [name for name in names if name in ("Walk", "Read", "Swim")] == ["Swim", "Read", "Walk"], names
    accessible(page, "#habits")
    both_sizes(page, "habits-order")
    page.get_by_role("button", name="Today").click()
    expect(page.locator("#habit-list .habit h3")).to_have_text(["Swim", "Read", "Walk"])


TESTS = [
    a_habit_is_made_changed_archived_restored_and_deleted_in_the_form,
    habits_move_up_and_down_and_today_follows,
    today_counts_the_due_habits_and_shows_targets_goals_and_yesterday,
    a_travel_day_offers_done_and_a_met_target_is_not_counted,
    the_app_is_installable_with_icons_ios_tags_and_an_install_hint,
]
