"""Browser tests of the web app: Playwright (PyPI) driving Debian's chromium, each test against a
morningproof-server of its own (a fresh database, --allow-clock-header, any free port).

Run by scripts/browser-tests (scripts/test runs it). Screenshots go to .build/screenshots/chromium/.
"""
import datetime
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
import zipfile

from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = ROOT / ".build/debug/morningproof-server"
SHOTS = ROOT / ".build/screenshots/chromium"  # WebKit's beside it, in webkit/
SCENES = ROOT / "SampleImages/scenes"
CHROMIUM = os.environ.get("MORNINGPROOF_CHROMIUM", "/usr/bin/chromium")
PASSWORD = "correct horse battery"


class Server:
    """A server on a fresh database in a temporary folder, stopped by `stop`; `pause` and `resume`
    stop it and start it again on the same address and database."""

    def __init__(self, arguments=()):
        self.folder = tempfile.TemporaryDirectory(prefix="morningproof-browser-")
        self.arguments = arguments
        self.log = open(pathlib.Path(self.folder.name) / "server.log", "w")
        self.url = self.start("0")

    def start(self, port):
        db = pathlib.Path(self.folder.name) / "data.sqlite"
        self.process = subprocess.Popen(
            [str(SERVER), "--db", str(db), "--port", port, "--allow-clock-header", "--bcrypt-cost", "4", *self.arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://[0-9.:]+", line)
        if not match:
            raise RuntimeError(f"the server did not start: {line}")
        return match.group(0)

    def pause(self):
        self.process.terminate()
        self.process.wait(10)

    def resume(self):
        assert self.start(self.url.rsplit(":", 1)[1]) == self.url

    def api(self, method, path, token=None, body=None, now=None):
        request = urllib.request.Request(self.url + path, method=method)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if now:
            request.add_header("X-MorningProof-Now", now)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, data) as response:
            text = response.read().decode()
            return json.loads(text) if text else {}

    def stop(self):
        self.pause()
        self.log.close()
        self.folder.cleanup()


class Run:
    def __init__(self, playwright):
        self.browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        self.failures = []

    def test(self, function):
        """Runs `function(server, context, page)`; its `server_arguments` attribute adds to the server's
        command line, its `service_workers` one ("allow") lets the page register sw.js."""
        name = function.__name__
        server = Server(getattr(function, "server_arguments", ()))
        context = self.browser.new_context(
            viewport={"width": 360, "height": 800}, timezone_id="America/New_York",
            service_workers=getattr(function, "service_workers", "block"))
        page = context.new_page()
        errors = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            function(server, context, page)
            # 4xx answers the page expects (a refused proof) show as network errors in the console, and
            # so do the requests a test that cuts the network expects to fail (its `console_allows`).
            allowed = ("status of 4", *getattr(function, "console_allows", ()))
            unexpected = [e for e in errors if not any(text in e for text in allowed)]
            assert not unexpected, f"console errors: {unexpected}"
            print(f"ok   {name}")
        except Exception:
            self.failures.append(name)
            print(f"FAIL {name}\n{traceback.format_exc()}", file=sys.stderr)
        finally:
            context.close()
            server.stop()


def at(page, instant):
    """Sets the moment the page asks the server to act at (honoured with --allow-clock-header)."""
    page.evaluate("(now) => localStorage.setItem('morningproof.now', now)", instant)


def sign_up(server, page, email="ada@example.com", instant="2026-11-20T07:00:00-05:00"):
    page.goto(server.url + "/")
    at(page, instant)
    page.get_by_role("button", name="Create an account").click()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(question(page)).to_be_visible()
    return page.evaluate("() => localStorage.getItem('morningproof.token')")


def day_panel_says(scope, day, state):
    """History's open day panel names `day` in words (its <time> carries the ISO day) and says `state`."""
    panel = scope.locator(".day-panel")
    expect(panel.locator("time")).to_have_attribute("datetime", day)
    expect(panel.locator("p[aria-live]")).to_contain_text(f": {state}")


def day_cell(scope, habit, day, state):
    """History's cell of `habit` on `day` (its ISO day in data-day), named in words as a screen reader
    reads it: "Walk, Thursday, 12 November: done" (or "Thursday, November 12": the browser's English)."""
    date = datetime.date.fromisoformat(day)
    cell = scope.locator(f"button[data-day='{day}'][aria-label^='{habit}, ']")
    words = rf"{date:%A},? (?:{date.day} {date:%B}|{date:%B} {date.day})"
    expect(cell).to_have_attribute("aria-label", re.compile(rf"^{re.escape(habit)}, {words}: {re.escape(state)}$"))
    return cell


def question(page):
    return page.get_by_role("dialog")


def hold(page, name, within=None, seconds=0.8):
    """Completes a habit as a thumb does on Today: a press held on its round check ("Done: Read") for
    `seconds` (hold-to-complete wants 0.5 s; a plain click only says "Hold to complete")."""
    check = (within or page).get_by_role("button", name=name, exact=True)
    check.hover()  # scrolled to, stable, and the one the pointer would press
    page.mouse.down()
    page.wait_for_timeout(seconds * 1000)
    page.mouse.up()
    if seconds >= 0.5:
        # Done (or waiting to sync): the row is drawn again with a check that is no longer a button.
        expect(check).to_have_count(0)


def menu_item(scope, name):
    """The button `name` ("Undo: Read", "Skip: Read") in its habit's row menu on Today, the menu opened
    with "More: Read" (it stays open while the page draws the row again)."""
    more = scope.get_by_role("button", name=f"More: {name.split(': ', 1)[1]}", exact=True)
    expect(more).to_be_visible()
    if more.get_attribute("aria-expanded") != "true":
        more.click()
    return scope.get_by_role("button", name=name, exact=True)


def health_export(folder, day, steps, offset="-0500"):
    """An export.zip as the Health app shares it (apple_health_export/export.xml inside), with one
    StepCount record of `steps` for each 10 minutes from 06:00 on `day` at the UTC `offset`."""
    records = "".join(
        f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ada’s iPhone" unit="count" '
        f'creationDate="{day} 06:{minute + 9:02d}:00 {offset}" startDate="{day} 06:{minute:02d}:00 {offset}" '
        f'endDate="{day} 06:{minute + 9:02d}:00 {offset}" value="{count}"/>\n'
        for minute, count in zip(range(0, 60, 10), steps))
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
           f' <ExportDate value="{day} 07:00:00 {offset}"/>\n <Me/>\n{records}</HealthData>\n')
    path = pathlib.Path(folder) / "export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("apple_health_export/export.xml", xml)
    return path


def page_fetch(page, method, path, token, body=None, content_type=None, now=None):
    """A request from the page's origin with `token` (not the page's own): its status and JSON."""
    return page.evaluate("""async ({ method, path, token, body, type, now }) => {
        const headers = { Authorization: `Bearer ${token}` };
        if (type) headers["Content-Type"] = type;
        if (now) headers["X-MorningProof-Now"] = now;
        const response = await fetch(path, { method, headers, body });
        const text = await response.text();
        return { status: response.status, json: text ? JSON.parse(text) : {} };
    }""", {"method": method, "path": path, "token": token, "body": body, "type": content_type, "now": now})


# MARK: - Tests

def signs_in_and_is_asked_on_the_first_visit(server, context, page):
    sign_up(server, page)
    dialog = question(page)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Have you spent time with God today?")
    # Escape does not dismiss it, and focus stays inside.
    page.keyboard.press("Escape")
    expect(dialog).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('[role=dialog]') !== null")
    page.screenshot(path=str(SHOTS / "phone-question.png"))
    # Signing out and in again: the question is still there, the account is the same.
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("Today"))).to_be_visible()
    expect(question(page)).to_be_hidden()


def no_blocks_until_done_even_after_a_reload(server, context, page):
    sign_up(server, page)
    page.get_by_role("button", name="No").click()
    block = page.locator("#block")
    expect(block).to_be_visible()
    expect(block).to_contain_text("Matthew 6:33")
    expect(block).to_contain_text("Read a chapter from the Bible")
    expect(block.locator("figure blockquote")).not_to_be_empty()
    page.screenshot(path=str(SHOTS / "phone-block.png"), full_page=True)
    page.reload()
    expect(page.locator("#block")).to_be_visible()
    page.get_by_role("button", name="I've done it").click()
    expect(page.locator("#today")).to_be_visible()
    expect(page.locator("#block")).to_be_hidden()


def marks_a_habit_done_and_proves_the_bed_with_a_photo(server, context, page):
    token = sign_up(server, page, instant="2026-11-18T07:00:00-05:00")
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    server.api("POST", "/api/habits", token, {"name": "Read"}, now="2026-11-18T07:00:00-05:00")
    server.api("POST", "/api/habits", token, {"name": "Make bed", "kind": "photo"}, now="2026-11-18T07:00:00-05:00")
    page.reload()
    expect(question(page)).to_be_hidden()
    page.wait_for_load_state("networkidle")
    hold(page, "Done: Read")
    expect(menu_item(page, "Undo: Read")).to_be_visible()
    page.get_by_label("Take photo").set_input_files(str(SCENES / "made-1.jpg"))
    # The verdict waits for the photo's decode on the server: generous on a machine as busy as CI's.
    expect(page.locator(".verdict").first).to_contain_text("Made", timeout=30000)
    # The camera opens on a phone, and the picture chosen shows beside its verdict and reasons.
    expect(page.get_by_label("Take photo")).to_have_attribute("capture", "environment")
    # Proved: the camera stays for another photo, as a quieter "Retake photo".
    camera = page.locator("#habit-list label.camera")
    expect(camera).to_have_text("Retake photo")
    expect(camera).to_have_class(re.compile(r"\bquiet\b"))
    expect(page.locator(".proof img").first).to_have_attribute("src", re.compile("^blob:"))
    assert page.locator(".proof img").first.evaluate("(image) => image.complete && image.naturalWidth > 0")
    expect(menu_item(page, "Undo: Make bed")).to_be_visible()
    page.screenshot(path=str(SHOTS / "phone-today.png"), full_page=True)
    # The same photo the next day is refused, with the reason.
    at(page, "2026-11-19T07:00:00-05:00")
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Take photo").set_input_files(str(SCENES / "made-1.jpg"))
    expect(page.locator(".verdict").first).to_contain_text("proof refused", timeout=30000)


def the_next_local_day_asks_again(server, context, page):
    sign_up(server, page, instant="2026-11-12T07:00:00-05:00")
    at(page, "2026-11-12T23:58:00-05:00")
    page.reload()
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    # Past midnight in New York the page, coming back to the front, asks again.
    at(page, "2026-11-13T00:01:00-05:00")
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(question(page)).to_be_visible()


def a_new_device_zone_is_offered_not_sent(server, context, page):
    token = sign_up(server, page)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    assert server.api("GET", "/api/auth/me", token)["timezone"] == "America/New_York"
    tokyo = context.browser.new_context(timezone_id="Asia/Tokyo", viewport={"width": 360, "height": 800},
                                        service_workers="block")
    try:
        other = tokyo.new_page()
        other.goto(server.url + "/")
        other.evaluate("(token) => localStorage.setItem('morningproof.token', token)", token)
        other.reload()
        # The person decides (issue 39): the device's zone is offered, the account's stays.
        expect(other.locator("#zone-line")).to_contain_text("This phone is on Tokyo time; your days follow New York.")
        other.wait_for_load_state("networkidle")
        assert server.api("GET", "/api/auth/me", token)["timezone"] == "America/New_York"
    finally:
        tokyo.close()


def offline_says_so_and_keeps_only_what_can_wait_usable(server, context, page):
    token = sign_up(server, page)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    server.api("POST", "/api/habits", token, {"name": "Read"}, now="2026-11-20T07:00:00-05:00")
    page.reload()
    expect(page.get_by_role("button", name="Done: Read")).to_be_visible()
    context.set_offline(True)
    # The browser says it is offline: the page says so; Done can wait for the network (test_offline.py).
    expect(page.locator("#offline")).to_be_visible()
    expect(page.get_by_role("button", name="Done: Read")).to_be_enabled()
    # An Apple Health export is not queued either: its input cannot be used until the connection is back.
    expect(page.get_by_label("Apple Health export")).to_be_disabled()
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.get_by_label("Apple Health export")).to_be_enabled()
    entries = server.api("GET", "/api/habits", token, now="2026-11-20T07:05:00-05:00")
    read = [habit for habit in entries["habits"] if habit["name"] == "Read"][0]
    assert read["state"] == "pending", read


def an_apple_health_export_uploaded_in_settings_shows_its_summary(server, context, page):
    token = sign_up(server, page, instant="2026-11-20T07:00:00-05:00")
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    server.api("POST", "/api/habits", token, {"name": "Steps", "metric": "steps", "atLeast": 8000},
               now="2026-11-20T07:00:00-05:00")
    page.reload()
    expect(question(page)).to_be_hidden()
    expect(page.get_by_role("button", name="Done: Steps")).to_be_visible()
    page.get_by_role("button", name="Settings").click()
    export = health_export(server.folder.name, "2026-11-20", [3000, 2500, 3500])
    page.get_by_label("Apple Health export").set_input_files(str(export))
    result = page.locator("#health-result")
    expect(result).to_contain_text("Read 3 records, 0 of them already known; the day 2026-11-20 changed.")
    progress = page.get_by_label("Upload progress")
    expect(progress).to_be_visible()
    assert progress.evaluate("(bar) => bar.value === bar.max"), "the progress bar is not full"
    # The export met the goal: the summary says so, and Today shows Steps done.
    expect(result).to_contain_text("Goals completed: Steps (2026-11-20: 9,000 of 8,000)")
    page.screenshot(path=str(SHOTS / "phone-health.png"), full_page=True)
    page.get_by_role("button", name="Today").click()
    expect(menu_item(page, "Undo: Steps")).to_be_visible()
    page.get_by_role("button", name="Settings").click()
    # The same file again stores nothing new; a file that is not an export is refused on the page.
    page.get_by_label("Apple Health export").set_input_files(str(export))
    expect(result).to_contain_text("Read 3 records, 3 of them already known; no day changed.")
    notes = pathlib.Path(server.folder.name) / "notes.txt"
    notes.write_text("not health data")
    page.get_by_label("Apple Health export").set_input_files(str(notes))
    expect(result).to_contain_text("notes.txt is not an Apple Health export")


def connecting_health_auto_export_gives_a_metrics_only_token(server, context, page):
    token = sign_up(server, page, instant="2026-11-20T07:00:00-05:00")
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    server.api("POST", "/api/habits", token, {"name": "Steps", "metric": "steps", "atLeast": 8000},
               now="2026-11-20T07:00:00-05:00")
    page.get_by_role("button", name="Settings").click()
    page.get_by_role("button", name="Connect Health Auto Export").click()
    url = page.get_by_label("URL", exact=True)
    expect(url).to_have_value(server.url + "/api/metrics")
    header = page.get_by_label("Header", exact=True).input_value()
    match = re.fullmatch(r"Authorization: Bearer (\S+)", header)
    assert match, header
    expect(page.get_by_label("Format", exact=True)).to_have_value(re.compile("JSON"))
    expect(page.locator("#hae-settings")).to_contain_text("shown once")
    expect(page.locator("#token-list")).to_contain_text("Health Auto Export (health data only")
    page.get_by_role("button", name="Copy the header").click()
    expect(page.locator("#hae-copied")).to_have_text(re.compile("^Header (copied|is selected)"))
    page.screenshot(path=str(SHOTS / "phone-health-auto-export.png"), full_page=True)
    metrics = match.group(1)
    payload = json.dumps({"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
        {"qty": 5000, "date": "2026-11-20 06:00:00 -0500", "source": "Ada’s iPhone"},
        {"qty": 4000, "date": "2026-11-20 06:30:00 -0500", "source": "Ada’s iPhone"}]}]}})
    posted = page_fetch(page, "POST", "/api/metrics", metrics, payload, "application/json",
                        now="2026-11-20T07:00:00-05:00")
    assert posted["status"] == 200, posted
    assert posted["json"]["records"] == 2, posted
    assert page_fetch(page, "GET", "/api/habits", metrics)["status"] == 401
    assert page_fetch(page, "GET", "/api/habits", token)["status"] == 200


# The requests still under way when the test cuts the network fail, and say so in the console.
offline_says_so_and_keeps_only_what_can_wait_usable.console_allows = ("ERR_INTERNET_DISCONNECTED",)


def the_shell_is_served_with_its_headers(server, context, page):
    response = page.goto(server.url + "/")
    headers = response.headers
    assert "script-src 'self'" in headers["content-security-policy"], headers
    assert headers["etag"].startswith('"') and headers["cache-control"] == "no-cache"
    again = urllib.request.Request(server.url + "/app.js", headers={"If-None-Match": "*"})
    try:
        urllib.request.urlopen(again)
        raise AssertionError("expected 304")
    except urllib.error.HTTPError as error:
        assert error.code == 304
    manifest = server.api("GET", "/manifest.webmanifest")
    assert manifest["display"] == "standalone"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SHOTS / "desktop-signin.png"))


def main():
    from test_notifications import TESTS as NOTIFICATION_TESTS
    from test_habits import TESTS as HABIT_TESTS
    from test_history import TESTS as HISTORY_TESTS
    from test_every_screen import TESTS as EVERY_SCREEN_TESTS
    from test_offline import TESTS as OFFLINE_TESTS
    from test_address import TESTS as ADDRESS_TESTS
    from test_sync import TESTS as SYNC_TESTS
    from test_trust import TESTS as TRUST_TESTS
    from test_trust39 import TESTS as TRUST39_TESTS
    from test_account41 import TESTS as ACCOUNT_TESTS
    from test_today40 import TESTS as TODAY40_TESTS
    from test_app40 import TESTS as APP40_TESTS
    from test_shield42 import TESTS as SHIELD42_TESTS
    from test_passkeys41 import TESTS as PASSKEY41_TESTS
    from test_datacare import TESTS as DATACARE_TESTS
    from test_polish40 import TESTS as POLISH40_TESTS
    from test_audit40 import TESTS as AUDIT40_TESTS
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        run = Run(playwright)
        for test in [
            signs_in_and_is_asked_on_the_first_visit, no_blocks_until_done_even_after_a_reload,
            marks_a_habit_done_and_proves_the_bed_with_a_photo,
            the_next_local_day_asks_again, a_new_device_zone_is_offered_not_sent,
            offline_says_so_and_keeps_only_what_can_wait_usable, the_shell_is_served_with_its_headers,
            an_apple_health_export_uploaded_in_settings_shows_its_summary,
            connecting_health_auto_export_gives_a_metrics_only_token, *NOTIFICATION_TESTS, *HABIT_TESTS, *HISTORY_TESTS,
            *EVERY_SCREEN_TESTS, *OFFLINE_TESTS, *ADDRESS_TESTS, *SYNC_TESTS, *TRUST_TESTS,
            *TRUST39_TESTS, *ACCOUNT_TESTS, *TODAY40_TESTS, *APP40_TESTS, *SHIELD42_TESTS, *PASSKEY41_TESTS,
            *DATACARE_TESTS,
            *POLISH40_TESTS, *AUDIT40_TESTS,
        ]:
            # MORNINGPROOF_BROWSER_TEST=words runs only the tests whose names contain the words.
            if os.environ.get("MORNINGPROOF_BROWSER_TEST", "") in test.__name__:
                run.test(test)
        run.browser.close()
        # The browser extension needs a browser of its own (a persistent context that loads it).
        from test_extension42 import run as run_extension_tests
        run.failures += run_extension_tests(playwright, os.environ.get("MORNINGPROOF_BROWSER_TEST", ""))
        from test_extension43 import run as run_extension43_tests
        run.failures += run_extension43_tests(playwright, os.environ.get("MORNINGPROOF_BROWSER_TEST", ""))
        from test_extension44 import run as run_extension44_tests
        run.failures += run_extension44_tests(playwright, os.environ.get("MORNINGPROOF_BROWSER_TEST", ""))
    if run.failures:
        print(f"{len(run.failures)} browser test(s) failed: {', '.join(run.failures)}", file=sys.stderr)
        sys.exit(1)
    print(f"browser tests passed; screenshots in {SHOTS}")


if __name__ == "__main__":
    main()
