"""The browser extension (Extensions/browser, issue 42) in Chromium: Playwright with a persistent
context that loads it (--load-extension, --disable-extensions-except; headless Chromium runs
extensions), a site served on loopback under the host names blocked.test and other.test
(--host-resolver-rules), and a morningproof-server of its own for each test (test_web_app.Server).

Not set up, it shields nothing and says so in the toolbar; paired by a code, a shielded site opens the
extension's shield page with the quote; once the habit is proved through the API the site loads at
once after the shield page's own check; an unlock from the shield opens it; a site not on the list is
never touched. Run by test_web_app.py's main (MORNINGPROOF_BROWSER_TEST=extension42 runs only these).
"""
import http.server
import re
import sys
import tempfile
import threading
import time
import traceback

from playwright.sync_api import expect

from test_web_app import CHROMIUM, PASSWORD, ROOT, SHOTS, Server

EXTENSION = ROOT / "Extensions/browser"
SITE_TEXT = "The site itself"


class Site:
    """One page for every path, on a free loopback port: what blocked.test and other.test serve."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = f"<!doctype html><title>A site</title><h1>{SITE_TEXT}</h1>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, host, path="/"):
        return f"http://{host}:{self.port}{path}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """Chromium with the extension, in a profile of its own: the context, the extension's id and its worker."""

    def __init__(self, playwright):
        self.profile = tempfile.TemporaryDirectory(prefix="morningproof-extension-")
        self.context = playwright.chromium.launch_persistent_context(
            self.profile.name, executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}",
                  "--host-resolver-rules=MAP blocked.test 127.0.0.1, MAP other.test 127.0.0.1"])
        worker = self.context.service_workers[0] if self.context.service_workers else \
            self.context.wait_for_event("serviceworker", timeout=60000)
        self.worker = worker
        self.id = worker.url.split("/")[2]
        self.page = self.context.new_page()

    def url(self, page):
        return f"chrome-extension://{self.id}/{page}"

    def toolbar(self):
        return self.worker.evaluate("async () => [await chrome.action.getBadgeText({}), await chrome.action.getTitle({})]")

    def close(self):
        self.context.close()
        self.profile.cleanup()


def eventually(what, check, seconds=60):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.2)


def account(server, sites=("blocked.test",)):
    """An account in UTC with a habit "Read" due today (the server's real clock: the extension sends
    no test clock) and `sites` shielded: its token and the habit."""
    token = server.api("POST", "/api/auth/signup", None,
                       {"email": "ada@example.com", "password": PASSWORD, "timezone": "UTC"})["token"]
    read = server.api("POST", "/api/habits", token, {"name": "Read", "required": True})
    server.api("PUT", "/api/gate/settings", token, {"sites": list(sites), "cutoff": None})
    return token, read


def visit(page, url):
    """Opens `url` as a person types it; a navigation redirected to the extension may end in an abort."""
    try:
        page.goto(url)
    except Exception as error:  # the redirect to chrome-extension:// aborts the first navigation
        if "ERR_ABORTED" not in str(error) and "interrupted" not in str(error):
            raise


def connect(browser, server, code=None, token=None):
    page = browser.page
    page.goto(browser.url("options.html"))
    page.get_by_label("Server address").fill(server.url)
    if code:
        page.get_by_label("Pairing code").fill(code)
    if token:
        page.get_by_label("Or a gate token").fill(token)
    page.get_by_role("button", name="Connect", exact=True).click()
    expect(page.locator("#status")).to_have_text(f"Connected to {server.url}: the gate is closed.", timeout=30000)


def on_the_shield(browser, site, path):
    page = browser.page
    visit(page, site.url("blocked.test", path))
    page.wait_for_url(re.compile(rf"^chrome-extension://{browser.id}/shield\.html#"), timeout=30000)
    assert page.url.endswith("#" + site.url("blocked.test", path)), page.url
    expect(page.get_by_role("heading", name=f"blocked.test:{site.port} waits for your morning")).to_be_visible()


# MARK: - Tests

def extension42_not_set_up_shields_nothing_and_says_so(server, browser, site):
    account(server)
    badge, title = eventually("the toolbar to say so", lambda: (lambda t: t if "not set up" in t[1] else None)(browser.toolbar()))
    assert badge == "off", badge
    assert title == "MorningProof shield: not set up, nothing is shielded. Open the options to connect a server.", title
    visit(browser.page, site.url("blocked.test"))
    expect(browser.page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()


def extension42_pairs_by_code_shields_and_opens_once_proved(server, browser, site):
    token, read = account(server)
    code = server.api("POST", "/api/gate/pairing", token)["code"]
    connect(browser, server, code=code)
    expect(browser.page.locator("#server-sites")).to_have_text("blocked.test")
    assert browser.toolbar() == ["1", "MorningProof shield: closed: Read"], browser.toolbar()
    on_the_shield(browser, site, "/feed?day=1")
    page = browser.page
    gate = server.api("GET", "/api/gate", token)
    expect(page.locator("#quote-text")).to_have_text(f"“{gate['quote']['text']}”")
    expect(page.locator("#pending")).to_have_text("Read")
    expect(page.locator("#excuses")).to_have_text("2 excuses left this week.")
    assert page.locator("#do-it").get_attribute("href").startswith(f"{server.url}/shield?from=http%3A%2F%2Fblocked.test")
    page.screenshot(path=str(SHOTS / "extension42-shield.png"), full_page=True)
    # A site not on the list is never touched.
    visit(page, site.url("other.test", "/"))
    expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
    assert page.url == site.url("other.test", "/")
    # Proved through the API: the shield page's own check sends the page back to the site at once.
    on_the_shield(browser, site, "/feed?day=1")
    server.api("PUT", f"/api/habits/{read['id']}/entries/{gate['day']}", token, {"status": "done"})
    started = time.monotonic()
    page.get_by_role("button", name="Check again").click()
    page.wait_for_url(site.url("blocked.test", "/feed?day=1"), timeout=30000)
    expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
    print(f"     the site loaded {time.monotonic() - started:.1f} s after the shield's check")
    # Open: the rules are gone, the site opens as typed.
    visit(page, site.url("blocked.test", "/again"))
    expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
    assert browser.toolbar() == ["", "MorningProof shield: open"], browser.toolbar()


def extension42_an_unlock_from_the_shield_opens_the_site(server, browser, site):
    token, _ = account(server, sites=("*.blocked.test",))
    gate_token = server.api("POST", "/api/tokens", token, {"name": "Chromium", "scope": "gate"})["token"]
    connect(browser, server, token=gate_token)
    on_the_shield(browser, site, "/")
    page = browser.page
    page.get_by_label("Reason").fill("on call this morning")
    page.get_by_role("button", name="Unlock for today").click()
    page.wait_for_url(site.url("blocked.test", "/"), timeout=30000)
    expect(page.get_by_role("heading", name=SITE_TEXT)).to_be_visible()
    gate = server.api("GET", "/api/gate", token)
    assert gate["open"] and gate["reason"] == "unlocked" and gate["excusesLeft"] == 1, gate


TESTS = [
    extension42_not_set_up_shields_nothing_and_says_so,
    extension42_pairs_by_code_shields_and_opens_once_proved,
    extension42_an_unlock_from_the_shield_opens_the_site,
]


def run(playwright, wanted="", tests=None, launch=None):
    """Runs the tests whose names contain `wanted` (of `tests`, this file's by default), each with a
    server, a site and a browser of its own (`launch(playwright)`, this file's Browser by default):
    the names of those that failed."""
    failures = []
    for test in tests or TESTS:
        if wanted not in test.__name__:
            continue
        server, site, browser = Server(), Site(), None
        try:
            browser = (launch or Browser)(playwright)
            test(server, browser, site)
            print(f"ok   {test.__name__}")
        except Exception:
            failures.append(test.__name__)
            print(f"FAIL {test.__name__}\n{traceback.format_exc()}", file=sys.stderr)
        finally:
            if browser:
                browser.close()
            site.stop()
            server.stop()
    return failures
