"""Browser tests of the shield in the web app (issue 42): /shield?from=HOST shows the quote, what is
still pending with a way to do it there (hold-to-complete, a photo), the excuses left with "Unlock for
today", and once the gate opens "Continue to HOST", only to an http(s) host on the shielded list;
Settings' "Connect a browser or a phone automation" card. Chromium tests run by test_web_app.py's main
(MORNINGPROOF_BROWSER_TEST=shield42 runs only these); WEBKIT_TESTS by test_webkit.py's.
"""
import re
import urllib.request

from playwright.sync_api import expect

from test_every_screen import photograph
from test_notifications import accessible
from test_today40 import FRIDAY, on_today, state_of
from test_web_app import SCENES, hold

SITES = {"sites": ["blocked.test", "*.example.org"], "cutoff": None, "days": []}


def gate_of(server, token):
    return server.api("GET", "/api/gate", token, now=FRIDAY)


def shield(server, page, token, source="blocked.test"):
    """The account shields SITES; the page opens the shield for `source`."""
    server.api("PUT", "/api/gate/settings", token, {**SITES, "days": ["monday", "tuesday", "wednesday", "thursday",
                                                                      "friday", "saturday", "sunday"]})
    page.goto(f"{server.url}/shield?from={urllib.request.quote(source, safe='')}")
    expect(page.locator("#shield")).to_be_visible()


def shield42_shows_the_quote_and_pending_and_continues_once_proved(server, context, page):
    token, made = on_today(server, page, [{"name": "Read", "required": True}, {"name": "Make bed", "kind": "photo", "required": True}])
    shield(server, page, token)
    expect(page.get_by_role("heading", name="blocked.test waits for your morning")).to_be_visible()
    quote = gate_of(server, token)["quote"]
    expect(page.locator("#shield-quote blockquote")).to_have_text(f"“{quote['text']}”")
    expect(page.locator("#shield-quote figcaption")).to_contain_text(quote["book"])
    expect(page.locator("#shield-excuses")).to_have_text("2 excuses left this week.")
    expect(page.get_by_role("link", name=re.compile("Continue"))).to_have_count(0)
    # No tab bar: the page is the shield, not the app's screens.
    expect(page.locator("#tabs")).to_be_hidden()
    photograph(page, "shield42-closed")
    # Read, held as on Today: done, and no longer pending.
    hold(page, "Done: Read", within=page.locator("#shield"))
    expect(page.locator("#shield-pending")).not_to_contain_text("Read")
    assert state_of(server, token, made["Read"]) == "done"
    assert not gate_of(server, token)["open"]
    # The bed, proved by its photo on the shield: the gate opens, and Continue leads back.
    page.locator("#shield").get_by_label("Take photo: Make bed").set_input_files(str(SCENES / "made-1.jpg"))
    go = page.get_by_role("link", name="Continue to blocked.test")
    expect(go).to_be_visible(timeout=30000)
    assert go.get_attribute("href") == "https://blocked.test/"
    expect(page.locator("#shield-state")).to_have_text("Your morning is proved: the gate is open.")
    expect(page.locator("#shield-unlock")).to_be_hidden()
    assert gate_of(server, token)["open"]
    photograph(page, "shield42-open")


def shield42_unlocks_for_today_and_never_continues_elsewhere(server, context, page):
    token, _ = on_today(server, page, [{"name": "Read", "required": True}])
    shield(server, page, token, "javascript:alert(document.cookie)")
    expect(page.locator("#shield-title")).to_have_text("Your morning first")
    page.get_by_label("Reason").fill("on call this morning")
    page.get_by_role("button", name="Unlock for today").click()
    expect(page.locator("#shield-state")).to_have_text("Unlocked for today: the gate is open.")
    gate = gate_of(server, token)
    assert gate["open"] and gate["reason"] == "unlocked" and gate["excusesLeft"] == 1, gate
    # Open, but never a link to another scheme, a host off the list, or one with a user name.
    for source in ("javascript:alert(document.cookie)", "data:text/html,hi", "evil.test", "https://evil.test/",
                   "https://blocked.test@evil.test/", "javascript://blocked.test/%0aalert(1)", "ftp://blocked.test/"):
        page.goto(f"{server.url}/shield?from={urllib.request.quote(source, safe='')}")
        expect(page.locator("#shield-state")).to_have_text("Unlocked for today: the gate is open.")
        expect(page.locator("#shield-continue")).to_be_hidden()
        assert page.locator("#shield-continue").get_attribute("href") is None, source
    # An address on the list, http or https, and a subdomain of a *. pattern: Continue leads there.
    for source, href in (("http://blocked.test:8080/feed?x=1", "http://blocked.test:8080/feed?x=1"),
                         ("www.blocked.test", "https://www.blocked.test/"),
                         ("news.example.org", "https://news.example.org/")):
        page.goto(f"{server.url}/shield?from={urllib.request.quote(source, safe='')}")
        expect(page.locator("#shield-continue")).to_be_visible()
        assert page.locator("#shield-continue").get_attribute("href") == href, source


def shield42_says_when_no_excuse_is_left(server, context, page):
    token, _ = on_today(server, page, [{"name": "Read", "required": True}], created="2026-11-23T07:00:00-05:00")
    # Wednesday and Thursday unlocked: the week's two excuses are spent.
    for day in ("2026-11-25", "2026-11-26"):
        server.api("POST", "/api/gate/unlock", token, {"reason": "travel"}, now=f"{day}T07:00:00-05:00")
    shield(server, page, token)
    expect(page.locator("#shield-excuses")).to_have_text("No excuses left this week; the next comes back on Wednesday.")
    expect(page.get_by_role("button", name="Unlock for today")).to_be_disabled()
    assert not gate_of(server, token)["open"]


def shield42_settings_connects_a_browser_and_an_automation(server, context, page):
    token, _ = on_today(server, page, [{"name": "Read", "required": True}])
    page.get_by_role("button", name="Settings").click()
    card = page.locator("#shield-settings")
    expect(card.get_by_role("heading", name="Connect a browser or a phone automation")).to_be_visible()
    card.get_by_label("Shielded sites").fill("Instagram.com\n*.reddit.com")
    card.get_by_label("Open anyway after").fill("10:30")
    card.get_by_label("Sat").uncheck()
    card.get_by_label("Sun").uncheck()
    card.get_by_role("button", name="Save the shield").click()
    expect(page.locator("#shield-settings-status")).to_have_text("Saved: 2 sites shielded, open anyway after 10:30.")
    settings = server.api("GET", "/api/gate/settings", token)
    assert settings == {"sites": ["instagram.com", "*.reddit.com"], "cutoff": "10:30",
                        "days": ["monday", "tuesday", "wednesday", "thursday", "friday"]}, settings
    # A bad site: said, and nothing changed.
    card.get_by_label("Shielded sites").fill("news.example.com\nbad_host!")
    card.get_by_role("button", name="Save the shield").click()
    expect(page.locator("#shield-settings-status")).to_contain_text("Not saved")
    assert server.api("GET", "/api/gate/settings", token) == settings
    # The pairing code, shown once, works once with the extension's exchange.
    card.get_by_role("button", name="Make a pairing code").click()
    code = page.locator("#shield-code")
    expect(code).to_have_text(re.compile(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$"))
    expect(page.locator("#shield-code-hint")).to_contain_text("works once")
    paired = server.api("POST", "/api/gate/pair", None, {"code": code.text_content(), "name": "Firefox"})
    assert paired["scope"] == "gate", paired
    # The automation: a URL and a header line that answer the gate in one line.
    card.get_by_role("button", name="Make a token for an automation").click()
    # Filled once the token is made (a request): waited for, not read at once.
    expect(page.locator("#shield-automation-settings")).to_be_visible()
    url = page.locator("#shield-url").input_value()
    header = page.locator("#shield-header").input_value()
    assert url == f"{server.url}/api/gate?format=text", url
    name, value = header.split(": ", 1)
    request = urllib.request.Request(url, headers={name: value, "X-MorningProof-Now": FRIDAY})
    with urllib.request.urlopen(request) as response:
        assert response.read().decode() == "closed: Read"
    accessible(page, "#shield-settings")
    photograph(page, "shield42-settings")


TESTS = [
    shield42_shows_the_quote_and_pending_and_continues_once_proved,
    shield42_unlocks_for_today_and_never_continues_elsewhere,
    shield42_says_when_no_excuse_is_left,
    shield42_settings_connects_a_browser_and_an_automation,
]


# MARK: - WebKit (Selenium: test_webkit.Page)

def webkit_shield_shows_the_quote_and_opens_once_done(server, page):
    from test_webkit import signed_up
    token = signed_up(server, page)
    server.api("POST", "/api/habits", token, {"name": "Read", "required": True}, now="2026-11-20T07:00:00-05:00")
    server.api("PUT", "/api/gate/settings", token, {"sites": ["blocked.test"], "cutoff": None})
    page.go("/shield?from=blocked.test")
    page.wait_text("#shield-title", "blocked.test waits for your morning")
    page.wait(lambda: page.text("#shield-quote blockquote").startswith("“"), "the quote")
    page.shot("shield-closed")
    page.hold("Done: Read")
    page.wait_text("#shield-continue", "Continue to blocked.test")
    assert page.visible("#shield-continue")[0].get_attribute("href") == "https://blocked.test/"
    page.shot("shield-open")
    # An unlock on another morning: the reason and the button.
    page.go("/shield?from=javascript:alert(1)")
    page.wait_text("#shield-state", "Your morning is proved")
    assert not page.visible("#shield-continue")


WEBKIT_TESTS = [webkit_shield_shows_the_quote_and_opens_once_done]
