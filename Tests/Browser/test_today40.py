"""Browser tests of Today worth opening every morning (issue 40): a friendly date and words that read
naturally, hold-to-complete with Skip and Undo behind the row's menu, notices as toasts, one slim
status chip, an install hint at most once a week, the tab bar at the bottom of a phone, Yesterday
with only the habits that existed then, and the app badge. Run by test_web_app.py's main
(MORNINGPROOF_BROWSER_TEST=today40 runs only these).
"""
import re

from playwright.sync_api import expect

from test_every_screen import photograph
from test_offline import card
from test_web_app import SCENES, at, hold, menu_item, question, sign_up

FRIDAY = "2026-11-27T07:00:00-05:00"  # Friday, 27 November
THURSDAY = "2026-11-26T07:00:00-05:00"
# The page's English: British, as a phone set to English (UK) has it.
BRITISH = "Object.defineProperty(navigator, 'languages', { get: () => ['en-GB', 'en'] });"
# The Badging API, recorded: what the installed app's icon would show.
BADGE = """
window.badges = [];
navigator.setAppBadge = async (count) => { window.badges.push(count); };
navigator.clearAppBadge = async () => { window.badges.push(0); };
"""
# A tenth of a 390x844 phone screen.
TENTH = 84.4


def on_today(server, page, habits, instant=FRIDAY, created=FRIDAY):
    """A new account, its question answered, with `habits` (API bodies) made at `created`: the token
    and the habits by name."""
    token = sign_up(server, page, instant=instant)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    made = {body["name"]: server.api("POST", "/api/habits", token, body, now=created) for body in habits}
    page.reload()
    expect(question(page)).to_be_hidden()
    page.wait_for_load_state("networkidle")
    return token, made


def badge_becomes(page, count):
    """Waits (up to 30 s) until the last badge the page set is `count` (0: cleared)."""
    for _ in range(300):
        if page.evaluate("() => window.badges.at(-1)") == count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the badge is {page.evaluate('() => window.badges')}, not {count}")


def state_of(server, token, habit, now=FRIDAY):
    return next(h for h in server.api("GET", "/api/habits", token, now=now)["habits"] if h["id"] == habit["id"])["state"]


def today40_words_read_naturally(server, context, page):
    context.add_init_script(BRITISH)
    token, made = on_today(server, page, [{"name": "Read"}, {"name": "Gym", "times": 3, "per": "week"},
                                          {"name": "Make bed", "kind": "photo"}])
    # The date as a person says it, not ISO; the machine's date stays in the <time> element.
    expect(page.locator("#today-day")).to_have_text(re.compile(r"^Friday,? 27 November$"))
    expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-27")
    expect(card(page, "Gym")).to_contain_text("0 of 3 this week")
    # A new habit has no streak to break.
    expect(card(page, "Read")).not_to_contain_text("until break")
    expect(page.locator("#habit-list")).not_to_contain_text("0 days")
    # The verdict's reasons in everyday words (the server's, so the CLI says the same).
    page.get_by_label("Take photo").set_input_files(str(SCENES / "made-1.jpg"))
    verdict = page.locator(".verdict").first
    expect(verdict).to_contain_text("the covers look smooth", timeout=60000)  # the photo's decode, on a busy machine
    for jargon in ("energy", "slanted", "edges"):
        expect(verdict).not_to_contain_text(jargon)
    photograph(page, "today40-today")
    # Weekday names capitalised in Settings; History's first day is "1 day", not "1 days".
    page.get_by_role("button", name="Settings").click()
    options = page.locator("#week-start option").all_text_contents()
    assert options[0] == "Monday" and all(name[0].isupper() for name in options), options
    page.get_by_role("button", name="History").click()
    expect(page.locator("#history")).to_contain_text("(1 day)")
    expect(page.locator("#history")).not_to_contain_text("(1 days)")


def today40_hold_to_complete(server, context, page):
    token, made = on_today(server, page, [{"name": "Read"}, {"name": "Walk"}])
    check = page.get_by_role("button", name="Done: Read", exact=True)
    box = check.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, box
    # No equal Skip button beside it: Skip sits behind the row's menu.
    expect(page.get_by_role("button", name="Skip: Read", exact=True)).to_be_hidden()
    # A plain tap completes nothing and says how.
    check.click()
    expect(page.locator("#notice")).to_have_text("Hold to complete")
    # A short press either.
    hold(page, "Done: Read", seconds=0.15)
    page.wait_for_timeout(1000)
    assert state_of(server, token, made["Read"]) == "pending"
    expect(card(page, "Read")).to_contain_text("to do")
    # While held, the check fills (animated, unless the person asked for reduced motion).
    page.emulate_media(reduced_motion="no-preference")
    fill = check.locator(".fill")
    assert fill.evaluate("(f) => getComputedStyle(f).transform") != "none"
    check.evaluate("(c) => c.classList.add('holding')")
    assert fill.evaluate("(f) => getComputedStyle(f).transitionDuration") == "0.5s"
    page.emulate_media(reduced_motion="reduce")
    assert fill.evaluate("(f) => getComputedStyle(f).transitionDuration") == "0s"
    check.evaluate("(c) => c.classList.remove('holding')")
    # Held half a second and more: done.
    hold(page, "Done: Read")
    expect(card(page, "Read")).to_contain_text("done")
    assert state_of(server, token, made["Read"]) == "done"
    # A keyboard gets a normal button: Enter completes at once.
    page.get_by_role("button", name="Done: Walk", exact=True).focus()
    page.keyboard.press("Enter")
    expect(card(page, "Walk")).to_contain_text("done")
    assert state_of(server, token, made["Walk"]) == "done"
    # Undo is behind the row's menu.
    undo = menu_item(page, "Undo: Read")
    expect(undo).to_be_visible()
    photograph(page, "today40-menu")
    undo.click()
    expect(card(page, "Read")).to_contain_text("to do")
    assert state_of(server, token, made["Read"]) == "pending"


def today40_toasts_chip_and_install_hint(server, context, page):
    token, made = on_today(server, page, [{"name": "Read"}])
    # A notice fades after about 4 s.
    page.get_by_role("button", name="Done: Read", exact=True).click()
    expect(page.locator("#notice")).to_have_text("Hold to complete")
    expect(page.locator("#toast")).to_be_hidden(timeout=15000)
    # An error stays until dismissed.
    page.get_by_role("button", name="Settings").click()
    page.locator("#zone").fill("Nowhere/Atlantis")
    page.locator("#profile-form button[type=submit]").click()
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    page.wait_for_timeout(6000)
    expect(toast).to_be_visible()
    page.get_by_role("button", name="Dismiss the message").click()
    expect(toast).to_be_hidden()
    # The install hint, then "Not now": not offered again within the week, offered after it.
    page.get_by_role("button", name="Today").click()
    offer = """() => {
        const offer = new Event("beforeinstallprompt", { cancelable: true });
        offer.prompt = async () => {};
        window.dispatchEvent(offer);
    }"""
    page.evaluate(offer)
    expect(page.locator("#install-hint")).to_be_visible()
    # Offline with a change waiting: one slim chip says both.
    server.pause()
    at(page, "2026-11-27T07:10:00-05:00")
    hold(page, "Done: Read")
    expect(page.locator("#waiting")).to_contain_text("1 change waiting to sync")
    context.set_offline(True)
    page.evaluate("() => window.dispatchEvent(new Event('offline'))")
    expect(page.locator("#offline")).to_be_visible()
    chip = page.locator("#status-chip")
    assert chip.bounding_box()["height"] <= 40, chip.bounding_box()
    # Before the habits, nothing of this covers more than a tenth of a 390x844 screen.
    page.set_viewport_size({"width": 390, "height": 844})
    covered = page.evaluate("""() => ["status-chip", "install-hint", "toast"]
        .map((id) => document.getElementById(id)).filter((node) => node.checkVisibility())
        .reduce((sum, node) => sum + node.getBoundingClientRect().height, 0)""")
    assert covered <= TENTH, f"{covered} px of 844 covered"
    photograph(page, "today40-offline-install")
    page.get_by_role("button", name="Not now").click()
    context.set_offline(False)
    server.resume()
    page.reload()
    page.evaluate(offer)
    page.wait_for_timeout(500)
    expect(page.locator("#install-hint")).to_be_hidden()
    page.evaluate("() => localStorage.setItem('morningproof.installDeclinedAt', String(Date.now() - 8 * 86400000))")
    page.evaluate(offer)
    expect(page.locator("#install-hint")).to_be_visible()


def today40_tab_bar_at_the_bottom_of_a_phone(server, context, page):
    on_today(server, page, [{"name": "Read"}])
    page.set_viewport_size({"width": 390, "height": 844})
    tabs = page.get_by_role("navigation", name="Screens")
    expect(tabs.get_by_role("button")).to_have_text([re.compile(f"{name}$") for name in ("Today", "History", "Habits", "Settings")])
    bar = tabs.bounding_box()
    assert abs(bar["y"] + bar["height"] - 844) <= 1, bar
    for button in tabs.get_by_role("button").all():
        assert button.bounding_box()["height"] >= 44
    # The last habit is not hidden behind it.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    quote = page.locator("#today-quote").bounding_box()
    assert quote["y"] + quote["height"] <= bar["y"] + 1, (quote, bar)
    page.set_viewport_size({"width": 1280, "height": 800})
    bar = tabs.bounding_box()
    assert bar["y"] < 80, bar
    photograph(page, "today40-tabs")


def today40_yesterday_only_habits_that_existed(server, context, page):
    token, made = on_today(server, page, [{"name": "Read"}], instant=THURSDAY, created=THURSDAY)
    server.api("POST", "/api/habits", token, {"name": "Walk"}, now=FRIDAY)
    at(page, FRIDAY)
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.get_by_role("radio", name="Yesterday").check()
    expect(page.locator("#today-which")).to_have_text("Yesterday")
    expect(page.get_by_role("button", name="Done: Read", exact=True)).to_be_visible()
    # Walk was made today: nothing to record for it yesterday.
    expect(page.get_by_role("button", name="Done: Walk", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="More: Walk", exact=True)).to_have_count(0)
    expect(card(page, "Walk")).to_contain_text("not started yet")
    expect(page.locator("#today-day")).to_have_attribute("datetime", "2026-11-26")


def today40_the_badge_counts_what_is_still_due(server, context, page):
    context.add_init_script(BADGE)
    on_today(server, page, [{"name": "Read"}, {"name": "Walk"}])
    badge_becomes(page, 2)
    hold(page, "Done: Read")
    badge_becomes(page, 1)
    hold(page, "Done: Walk")
    badge_becomes(page, 0)


# The requests the page tried while the server was down.
today40_toasts_chip_and_install_hint.console_allows = ("ERR_CONNECTION_REFUSED", "Failed to fetch",
                                                       "ERR_INTERNET_DISCONNECTED")

TESTS = [
    today40_words_read_naturally,
    today40_hold_to_complete,
    today40_toasts_chip_and_install_hint,
    today40_tab_bar_at_the_bottom_of_a_phone,
    today40_yesterday_only_habits_that_existed,
    today40_the_badge_counts_what_is_still_due,
]
