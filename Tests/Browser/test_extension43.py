"""The browser extension's shield against other spellings of a shielded site's address (attack43):
the root's dot of a fully qualified name (`blocked.test.`, which browsers and most sites serve as
the host itself) and a user name before the host (`x@blocked.test`), for a host and for a
`*.` pattern. Each must land on the extension's shield page, as the plain address does, and a site
not on the list still loads. Chromium through Playwright with a persistent context that loads the
extension; every host resolves to loopback. Run by test_web_app.py's main
(MORNINGPROOF_BROWSER_TEST=extension43 runs only these).
"""
import re
import tempfile

from playwright.sync_api import expect

from test_extension42 import EXTENSION, SITE_TEXT, Site, account, connect, visit
from test_extension42 import run as run_extension42
from test_web_app import CHROMIUM


class Browser:
    """Chromium with the extension, every host name resolving to loopback."""

    def __init__(self, playwright):
        self.profile = tempfile.TemporaryDirectory(prefix="morningproof-extension43-")
        self.context = playwright.chromium.launch_persistent_context(
            self.profile.name, executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}",
                  "--host-resolver-rules=MAP * 127.0.0.1"])
        worker = self.context.service_workers[0] if self.context.service_workers else \
            self.context.wait_for_event("serviceworker", timeout=60000)
        self.id = worker.url.split("/")[2]
        self.page = self.context.new_page()

    def url(self, page):
        return f"chrome-extension://{self.id}/{page}"

    def close(self):
        self.context.close()
        self.profile.cleanup()


def extension43_other_spellings_of_a_shielded_address_meet_the_shield(server, browser, site):
    token, _ = account(server, sites=("blocked.test", "*.wild.test"))
    connect(browser, server, code=server.api("POST", "/api/gate/pairing", token)["code"])
    page = browser.page
    shield = re.compile(rf"^chrome-extension://{browser.id}/shield\.html#")
    for host in ["blocked.test.", "www.blocked.test.", "x@blocked.test", "x:y@www.blocked.test",
                 "a.wild.test.", "wild.test.", "x@a.wild.test"]:
        visit(page, site.url(host, "/feed"))
        page.wait_for_url(shield, timeout=30000)
        expect(page.get_by_role("heading", name=re.compile("waits for your morning"))).to_be_visible()
    # Not on the list, with the same spellings: untouched.
    for host in ["other.test.", "x@other.test", "blocked.test.other.test"]:
        visit(page, site.url(host, "/"))
        expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
        assert not page.url.startswith("chrome-extension://"), page.url


TESTS = [extension43_other_spellings_of_a_shielded_address_meet_the_shield]


def run(playwright, wanted=""):
    """This file's tests, run as test_extension42's are, in this file's Browser."""
    return run_extension42(playwright, wanted, tests=TESTS, launch=Browser)
