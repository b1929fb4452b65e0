"""Browser tests of the page on an insecure address: opened at http://morningproof.test:PORT (a
real host name over http, as on a home server or a VPS without https; a Chromium of its own resolves
it to 127.0.0.1 by --host-resolver-rules, which the shared one must not have: with it, Playwright's
offline emulation no longer reaches the page's `offline` event), the page is not a secure context, so the browser
gives it no service worker, no push and no install. The page says so once, with the cause and
where to read how to fix it, and Settings never blames the browser. At http://127.0.0.1 (a secure
context, as localhost is) it says nothing of the kind. Run by test_web_app.py's main.
"""
import re

from playwright.sync_api import expect

from test_web_app import CHROMIUM, PASSWORD, SHOTS, at, question

HOST = "morningproof.test"
BLAMES_THE_BROWSER = "cannot show notifications"


def signed_up(page, origin):
    page.goto(origin + "/")
    at(page, "2026-11-20T07:00:00-05:00")
    page.get_by_role("button", name="Create an account").click()
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(question(page)).to_be_visible()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()


def an_insecure_address_says_https_is_needed_and_does_not_blame_the_browser(server, context, page):
    browser = context.browser.browser_type.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", f"--host-resolver-rules=MAP {HOST} 127.0.0.1"])
    try:
        on_the_host_name(server, browser.new_context(viewport={"width": 360, "height": 800}).new_page())
    finally:
        browser.close()


def on_the_host_name(server, page):
    origin = server.url.replace("127.0.0.1", HOST)
    signed_up(page, origin)
    assert page.evaluate("() => window.isSecureContext") is False
    notice = page.locator("#insecure-address")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(f"This page is on an insecure address ({origin})")
    expect(notice).to_contain_text("Working offline, notifications on this phone and installing")
    expect(notice).to_contain_text("https://")
    expect(notice).to_contain_text("docs/deploy.md")
    page.screenshot(path=str(SHOTS / "phone-insecure-address.png"))
    # Settings: the cause is the address, said in one line that points at the notice.
    page.get_by_role("button", name="Settings").click()
    status = page.locator("#push-status")
    expect(status).to_contain_text("need an https:// address")
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(status).to_contain_text("need an https:// address")
    expect(page.locator("body")).not_to_contain_text(BLAMES_THE_BROWSER)
    page.locator("#notifications").screenshot(path=str(SHOTS / "phone-insecure-address-notifications.png"))
    # Said once: "Got it" hides it, and it stays hidden on a reload in this visit.
    page.get_by_role("button", name="Got it", exact=True).click()
    expect(notice).to_be_hidden()
    page.reload()
    expect(page.get_by_role("button", name="Today")).to_be_visible()
    expect(notice).to_be_hidden()


def localhost_is_secure_and_says_nothing_of_the_address(server, context, page):
    signed_up(page, server.url)
    assert page.evaluate("() => window.isSecureContext") is True
    expect(page.locator("#insecure-address")).to_be_hidden()
    page.get_by_role("button", name="Settings").click()
    expect(page.locator("#push-status")).not_to_contain_text(re.compile("https://|" + BLAMES_THE_BROWSER))


TESTS = [
    an_insecure_address_says_https_is_needed_and_does_not_blame_the_browser,
    localhost_is_secure_and_says_nothing_of_the_address,
]
