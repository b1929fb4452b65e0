"""Browser tests of issue 40's History, first run, Habits and Settings points: Settings' code in
settings.js; History like Loop's (the map from the habit's first day, cells of 28 px in 44 px tap
areas, weekday names, missed and empty days 3:1 apart in both themes, a saved note shown and marked,
the score curve's axes); the first run of a new account; Habits reordered by drag; Settings as
grouped cards. Run by test_web_app.py's main (MORNINGPROOF_BROWSER_TEST=app40 runs only these).
"""
import re

from playwright.sync_api import expect

from test_every_screen import photograph
from test_web_app import at, day_cell, question, sign_up

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
    # Settings is fetched when it opens (screens.js), not with Today.
    screens = page.evaluate("() => fetch('/screens.js').then((r) => r.text())")
    assert "function loadSettings" not in app and 'import("/settings.js")' in screens
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Your own question").fill("Did you stretch?")
    page.get_by_role("button", name="Change the question").click()
    expect(page.locator("#notice")).to_contain_text("Did you stretch?")
    assert server.api("GET", "/api/checkin", token, now=FRIDAY)["question"] == "Did you stretch?"


# MARK: - Point 2: History like Loop's

def luminance(css):
    """The relative luminance (WCAG 2) of a computed `rgb(r, g, b)` colour."""
    channels = [int(value) / 255 for value in re.findall(r"[\d.]+", css)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one, other):
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def app40_history_starts_at_the_first_day_with_big_cells_notes_and_axes(server, context, page):
    page.set_viewport_size({"width": 390, "height": 844})
    token = answered(server, page, CREATED)
    walk = server.api("POST", "/api/habits", token, {"name": "Walk"}, now=CREATED)
    for day, status in {"2026-11-10": "done", "2026-11-11": "done", "2026-11-16": "done"}.items():
        server.api("PUT", f"/api/habits/{walk['id']}/entries/{day}", token, {"status": status}, now=FRIDAY)
    server.api("PUT", f"/api/habits/{walk['id']}/entries/2026-11-12", token,
               {"status": "skipped", "note": "rain all day"}, now=FRIDAY)
    reopened(page, FRIDAY)
    page.get_by_role("button", name="History").click()
    history = page.locator(f"#history article[data-habit='{walk['id']}']")
    expect(history.locator("button[data-day='2026-11-10']")).to_be_visible()

    # From the habit's first day, not a year of blanks: two weeks (from Monday 9 and 16 November).
    weeks = history.locator(".week").count()
    assert weeks == 2, f"{weeks} weeks drawn for a habit 11 days old"
    first = history.locator("button[data-day]").evaluate_all("(cells) => cells.map((c) => c.dataset.day).sort()[0]")
    assert first == "2026-11-10", first
    # Cells of at least 28 CSS px, each in a tap area of at least 44.
    sizes = history.locator("button[data-day]").evaluate_all("""(cells) => cells.map((cell) => {
        const box = cell.getBoundingClientRect(), style = getComputedStyle(cell);
        return [box.width, box.height, box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)];
    })""")
    smallest = [min(size[i] for size in sizes) for i in range(4)]
    assert smallest[0] >= 44 and smallest[1] >= 44, f"tap area {smallest[:2]} px"
    assert smallest[2] >= 28 and smallest[3] >= 28, f"cell {smallest[2:]} px"
    # The weekdays' names beside the map, from the week's start (Monday).
    expect(history.locator(".weekdays")).to_have_text(re.compile(r"Mon\s*Tue\s*Wed\s*Thu\s*Fri\s*Sat\s*Sun"))
    # Missed and empty days at least 3:1 apart, in both themes, from the computed styles.
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        missed = history.locator("button[data-day='2026-11-13']")
        expect(missed).to_have_class(re.compile(r"\bmissed\b"))
        colours = page.evaluate("""([missed, empty]) => [missed, empty].map((cell) => getComputedStyle(cell).backgroundColor)""",
                                [missed.element_handle(), history.locator(".week span.cell.none").first.element_handle()])
        ratio = contrast(*colours)
        print(f"     {scheme}: missed {colours[0]} against empty {colours[1]}: {ratio:.2f}:1")
        assert ratio >= 3, f"{scheme}: missed {colours[0]} and empty {colours[1]} are {ratio:.2f}:1 apart"
    page.emulate_media(color_scheme="light")
    # A saved note: marked on its cell, shown in the day panel.
    noted = day_cell(history, "Walk", "2026-11-12", "skipped, with a note")
    expect(noted).to_have_class(re.compile(r"\bnoted\b"))
    noted.click()
    expect(history.locator(".day-panel")).to_contain_text("Note: rain all day")
    # The score curve's axes: the score up the side, the days along the bottom.
    expect(history.locator(".score .y-axis")).to_have_text(re.compile(r"100%\s*50%\s*0%"))
    expect(history.locator(".score .x-axis")).to_have_text(re.compile(r"10 Nov\s*today"))
    # The side's labels span the curve: 100% at its top, 0% at its bottom.
    axis, curve = (history.locator(f".score {part}").first.bounding_box() for part in (".y-axis", ".curve"))
    assert abs(axis["y"] - curve["y"]) <= 2 and abs(axis["height"] - curve["height"]) <= 2, (axis, curve)
    # A longest streak of one day names that day once: "longest 1 day (10 Nov)".
    expect(page.locator("#history .streaks").first).to_contain_text("longest 1 day (10 Nov);")
    photograph(page, "app40-history")


# MARK: - Point 3: the first run of a new account

def first_run(page):
    return page.locator("#first-run")


def app40_a_new_account_is_walked_through_three_steps_once(server, context, page):
    token = answered(server, page, FRIDAY)
    card = first_run(page)
    expect(card).to_be_visible()
    expect(card).to_contain_text("Step 1 of 3")
    for suggestion in ("Make bed, proved with a photo", "Read", "Pray", "Walk 8,000 steps"):
        expect(card.get_by_label(suggestion, exact=False)).to_be_visible()
    photograph(page, "app40-first-run")
    card.get_by_label("Read", exact=True).check()
    card.get_by_label("Walk 8,000 steps", exact=False).check()
    card.get_by_label("Or your own").fill("Stretch")
    card.get_by_role("button", name="Next").click()
    expect(card).to_contain_text("Step 2 of 3")
    habits = {h["name"]: h for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"]}
    assert {"Read", "Walk", "Stretch"} <= set(habits), habits
    assert habits["Walk"]["kind"] == "metric" and habits["Walk"]["goal"]["target"] == 8000, habits["Walk"]
    # Today lists them below the card at once.
    expect(page.locator("#habit-list")).to_contain_text("Stretch")
    # The daily question off.
    card.get_by_label("Do not ask").check()
    card.get_by_role("button", name="Next").click()
    expect(card).to_contain_text("Step 3 of 3")
    assert server.api("GET", "/api/checkin", token, now=FRIDAY)["configured"] is False
    # Reminders at a time of the person's choosing, on the habits just made.
    card.get_by_label("Remind me at").fill("06:45")
    expect(card.get_by_role("button", name="Notify me on this phone")).to_be_visible()
    card.get_by_role("button", name="Finish").click()
    expect(card).to_be_hidden()
    expect(page.locator("#notice")).to_contain_text("You are set: Read, Walk, Stretch.")
    reminders = {h["name"]: h.get("remindAt") for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"]}
    assert reminders["Read"] == reminders["Walk"] == reminders["Stretch"] == "06:45", reminders
    # Never again: not on a reload, not on the next day.
    at(page, "2026-11-21T07:00:00-05:00")
    page.reload()
    expect(page.locator("#habit-list")).to_contain_text("Stretch")
    expect(card).to_be_hidden()


def app40_the_first_run_is_skipped_for_good(server, context, page):
    token = answered(server, page, FRIDAY)
    card = first_run(page)
    expect(card).to_be_visible()
    card.get_by_role("button", name="Skip setup").first.click()
    expect(card).to_be_hidden()
    page.reload()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#today-title")).to_be_visible()
    expect(card).to_be_hidden()
    assert [h for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"] if h["kind"] != "checkin"] == []


# MARK: - Point 4: Habits reordered by drag

def names(page):
    return page.locator("#habits-active strong").all_inner_texts()


def drag_with_mouse(page, grip, target, above=True):
    start, end = grip.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    goal = end["y"] + (4 if above else end["height"] - 4)
    for n in range(1, 11):
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + (goal - start["y"]) * n / 10)
    page.mouse.up()


# A finger's drag, as the pointer events a touch screen sends (pointerType "touch").
TOUCH_DRAG = """(grip, y) => {
    const box = grip.getBoundingClientRect(), x = box.left + box.width / 2, from = box.top + box.height / 2;
    const send = (type, target, clientY) => target.dispatchEvent(new PointerEvent(type, {
        pointerId: 7, pointerType: "touch", isPrimary: true, button: 0, buttons: type === "pointerup" ? 0 : 1,
        clientX: x, clientY, bubbles: true, cancelable: true }));
    send("pointerdown", grip, from);
    for (let n = 1; n <= 10; n += 1) send("pointermove", window, from + (y - from) * n / 10);
    send("pointerup", window, y);
}"""


def app40_habits_are_reordered_by_dragging_with_a_mouse_or_a_finger(server, context, page):
    token = answered(server, page, FRIDAY)
    for name in ("Walk", "Read", "Swim"):
        server.api("POST", "/api/habits", token, {"name": name}, now=FRIDAY)
    page.get_by_role("button", name="Habits").click()
    expect(page.locator("#habits-active strong")).to_have_text(["Walk", "Read", "Swim"])
    expect(page.locator("#habits")).to_contain_text("Today lists your habits in this order, those still to do first: drag a habit")
    row = lambda name: page.locator("#habits-active li").filter(has_text=name)
    grip = lambda name: row(name).locator(".grip")
    assert grip("Swim").evaluate("(g) => getComputedStyle(g).touchAction") == "none"
    box = grip("Swim").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    # A mouse: Swim to the top.
    drag_with_mouse(page, grip("Swim"), row("Walk"), above=True)
    expect(page.locator("#notice")).to_contain_text("Swim moved to place 1.")
    expect(page.locator("#habits-active strong")).to_have_text(["Swim", "Walk", "Read"])
    saved = [h["name"] for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"] if h["kind"] != "checkin"]
    assert saved == ["Swim", "Walk", "Read"], saved
    # A finger: Walk to the bottom.
    bottom = row("Read").bounding_box()
    grip("Walk").evaluate(TOUCH_DRAG, bottom["y"] + bottom["height"] - 4)
    expect(page.locator("#habits-active strong")).to_have_text(["Swim", "Read", "Walk"])
    saved = [h["name"] for h in server.api("GET", "/api/habits", token, now=FRIDAY)["habits"] if h["kind"] != "checkin"]
    assert saved == ["Swim", "Read", "Walk"], saved
    # Move up and Move down stay for keyboards; Today follows.
    expect(page.get_by_role("button", name="Move up: Swim")).to_be_disabled()
    photograph(page, "app40-habits")
    page.get_by_role("button", name="Today").click()
    expect(page.locator("#habit-list .habit h3")).to_have_text(["Swim", "Read", "Walk"])


# MARK: - Point 5: Settings as grouped cards

NEVER_SUBSCRIBES = """
Notification.requestPermission = async () => "granted";
navigator.serviceWorker.register = () => new Promise(() => {});
"""


def app40_settings_are_grouped_cards_without_the_sign_in_token(server, context, page):
    answered(server, page, FRIDAY)
    page.get_by_role("button", name="Settings").click()
    # This phone's sign-in is under Account, not among the tokens for scripts to revoke.
    expect(page.locator("#session-list")).to_contain_text("(this device)")
    expect(page.locator("#token-list li")).to_have_count(0)
    cards = page.locator("#settings > section.card > h3")
    titles = cards.all_inner_texts()
    assert titles[:5] == ["Account", "Daily question", "Health data", "Notifications", "Tokens for scripts"], titles
    page.get_by_label("Token name").fill("cron")
    page.get_by_role("button", name="Create token").click()
    expect(page.locator("#new-token")).to_contain_text("shown once")
    expect(page.locator("#token-list li")).to_have_count(1)
    expect(page.locator("#token-list")).to_contain_text("cron")
    photograph(page, "app40-settings")


def app40_notify_me_gives_up_after_15_seconds_and_says_so(server, context, page):
    context.add_init_script(NEVER_SUBSCRIBES)
    answered(server, page, FRIDAY)
    page.get_by_role("button", name="Settings").click()
    button = page.get_by_role("button", name="Notify me on this phone")
    started = page.evaluate("() => performance.now()")
    button.click()
    status = page.locator("#push-status")
    expect(status).to_contain_text("Turning notifications on")
    expect(status).to_contain_text("No answer from this phone's push service after 15 seconds", timeout=60000)
    waited = (page.evaluate("() => performance.now()") - started) / 1000
    print(f"     gave up after {waited:.1f} s")
    assert waited >= 14.5, waited
    expect(button).to_have_attribute("aria-describedby", "push-status")


def app40_notify_me_explains_itself_without_push(server, context, page):
    context.add_init_script("delete window.PushManager;")
    answered(server, page, FRIDAY)
    page.get_by_role("button", name="Settings").click()
    expect(page.locator("#push-status")).to_contain_text("This browser cannot show notifications from a web page")


TESTS = [
    app40_settings_code_is_its_own_module_and_still_saves,
    app40_history_starts_at_the_first_day_with_big_cells_notes_and_axes,
    app40_a_new_account_is_walked_through_three_steps_once,
    app40_the_first_run_is_skipped_for_good,
    app40_habits_are_reordered_by_dragging_with_a_mouse_or_a_finger,
    app40_settings_are_grouped_cards_without_the_sign_in_token,
    app40_notify_me_gives_up_after_15_seconds_and_says_so,
    app40_notify_me_explains_itself_without_push,
]
