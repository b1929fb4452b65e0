"""The extension's shield page kept from web pages (guard44). Any page could load
chrome-extension://ID/shield.html (the id is known: the store's, or the one an unpacked folder
gives) to learn that the extension is installed, or frame it and dress "Unlock for today" up for a
click. Now web pages may reach it only at an address that changes every session
(use_dynamic_url; the browser's own redirect of a shielded site still lands on it), no page may
frame it (frame-ancestors 'none'), and a frame it lands in anyway is emptied. Chromium through
Playwright with the unpacked extension, as test_extension42's tests run
(MORNINGPROOF_BROWSER_TEST=extension44 runs only these).
"""
from playwright.sync_api import expect

from test_extension42 import SITE_TEXT, account, connect, on_the_shield, visit
from test_extension42 import run as run_extension42

FETCH = """async (urls) => Promise.all(urls.map(async (url) => {
  try {
    const response = await fetch(url);
    return `${url}: ${response.status}, ${(await response.text()).length} bytes`;
  } catch (error) {
    return null;
  }
}))"""

FRAME = """(urls) => Promise.all(urls.map((url) => new Promise((done) => {
  const frame = document.createElement("iframe");
  frame.onload = () => done(url);
  frame.src = url;
  document.body.append(frame);
  setTimeout(() => done(url), 15000);
})))"""


def extension44_web_pages_can_neither_load_nor_frame_the_shield(server, browser, site):
    token, _ = account(server)
    connect(browser, server, code=server.api("POST", "/api/gate/pairing", token)["code"])
    page = browser.page
    fixed = browser.url("shield.html")
    # This session's own address of the page (a web page could not know it; the test does).
    session = browser.worker.evaluate("() => chrome.runtime.getURL('shield.html')")
    assert session != fixed, session
    # A web page (not shielded) probes for the extension at its fixed address.
    visit(page, site.url("other.test", "/probe"))
    expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
    fetched = page.evaluate(FETCH, [fixed, browser.url("shield.js")])
    assert fetched == [None, None], f"a web page read the extension's files: {fetched}"
    # It frames the shield, at both addresses: neither frame shows the shield or its unlock.
    page.evaluate(FRAME, [fixed, session])
    frames = page.frames[1:]
    assert len(frames) == 2, [frame.url for frame in frames]
    for frame in frames:
        shown = frame.locator("#unlock-form, #title, #quote").count()
        assert shown == 0, f"a frame of {frame.url} shows {shown} of the shield's parts"
    # A shielded site opened in the tab still meets the shield, with its unlock.
    on_the_shield(browser, site, "/after-the-probe")
    expect(page.get_by_role("button", name="Unlock for today")).to_be_visible()


TESTS = [extension44_web_pages_can_neither_load_nor_frame_the_shield]


def run(playwright, wanted=""):
    """This file's tests, run as test_extension42's are."""
    return run_extension42(playwright, wanted, tests=TESTS)
