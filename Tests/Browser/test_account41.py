"""Browser tests of the person's own account (issue 41): the password changed in Settings, the
sessions named by device with "Sign out everywhere else", and a forgotten password reset by the
link a real SMTP server on loopback received (Debian's python3-aiosmtpd, Tests/Fixtures/smtp_sink.py),
with axe over the account card, the sign-in page's forgot help and the reset page.
Run by test_web_app.py's main.
"""
import pathlib
import re
import subprocess
import tempfile
import time

from playwright.sync_api import expect

from test_notifications import accessible
from test_web_app import PASSWORD, ROOT, SHOTS, Server, question, sign_up

NEW_PASSWORD = "battery staple horse"
SINK = ROOT / "Tests/Fixtures/smtp_sink.py"


def settings(page):
    page.get_by_role("button", name="Settings").click()
    expect(page.locator("#account")).to_be_visible()


def changes_the_password_and_signs_out_everywhere_else(server, context, page):
    token = sign_up(server, page)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    # A second sign-in, from a phone: listed by its device, then signed out with the change.
    phone = server.api("POST", "/api/auth/login", body={"email": "ada@example.com", "password": PASSWORD})["token"]
    settings(page)
    sessions = page.locator("#session-list")
    expect(sessions).to_contain_text("(this device)")
    expect(sessions.locator("li")).to_have_count(2)
    expect(sessions).to_contain_text("Chrome on Linux")
    page.locator("#pw-current").fill("not my password")
    page.locator("#pw-new").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#pw-status")).to_contain_text("the current password is wrong")
    page.locator("#pw-current").fill(PASSWORD)
    page.locator("#pw-new").fill(NEW_PASSWORD)
    page.locator("#pw-others").check()
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#pw-status")).to_contain_text("Password changed; every other device is signed out.")
    expect(sessions.locator("li")).to_have_count(1)
    page.locator("#account").screenshot(path=str(SHOTS / "phone-account.png"))
    accessible(page, "#account")
    status = page.evaluate("""async (token) => (await fetch("/api/auth/me",
        { headers: { Authorization: `Bearer ${token}` } })).status""", phone)
    assert status == 401, status
    # Signed out and in again with the new password.
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("Today"))).to_be_visible()
    assert token


def without_mail_forgot_password_says_to_ask_the_operator(server, context, page):
    page.goto(server.url + "/")
    page.get_by_role("button", name="Forgot password?").click()
    expect(page.locator("#forgot-help")).to_contain_text("Ask the person who runs it for a reset link")
    accessible(page, "#signin")


def a_forgotten_password_is_reset_by_the_mailed_link(server, context, page):
    mail = tempfile.TemporaryDirectory(prefix="morningproof-mail-")
    sink = subprocess.Popen(["/usr/bin/python3", str(SINK), mail.name], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(sink.stdout.readline())
        mailing = Server(["--smtp-url", f"smtp://127.0.0.1:{port}", "--mail-from", "morningproof@habits.example",
                          "--public-url", "https://habits.example"])
        try:
            mailing.api("POST", "/api/auth/signup", body={"email": "ada@example.com", "password": PASSWORD,
                                                          "timezone": "America/New_York"})
            page.goto(mailing.url + "/")
            page.get_by_label("Email").fill("ada@example.com")
            page.get_by_role("button", name="Forgot password?").click()
            expect(page.locator("#forgot-help")).to_contain_text("a link to set a new password is on its way")
            link = wait_for_link(pathlib.Path(mail.name))
            assert link.startswith("https://habits.example/#reset="), link
            # The link as the phone opens it, on this server's address.
            page.goto(mailing.url + "/" + link[len("https://habits.example/"):])
            expect(page.get_by_role("heading", name="Set a new password")).to_be_visible()
            page.screenshot(path=str(SHOTS / "phone-reset.png"))
            accessible(page, "#reset")
            page.locator("#reset-new").fill(NEW_PASSWORD)
            page.get_by_role("button", name="Set the password").click()
            expect(page.locator("#signin-error")).to_contain_text("Your new password is set")
            page.get_by_label("Email").fill("ada@example.com")
            page.get_by_label("Password").fill(NEW_PASSWORD)
            page.get_by_role("button", name="Sign in", exact=True).click()
            expect(page.locator("#signin")).to_be_hidden()
            expect(page.get_by_role("button", name="Settings")).to_be_visible()
            # The link works once.
            page.goto(mailing.url + "/" + link[len("https://habits.example/"):])
            page.locator("#reset-new").fill("yet another password")
            page.get_by_role("button", name="Set the password").click()
            expect(page.locator("#reset-error")).to_contain_text("not valid")
        finally:
            mailing.stop()
    finally:
        sink.stdin.close()
        sink.wait(30)
        mail.cleanup()


def wait_for_link(folder, seconds=120):
    """The reset link of the first mail that arrives in `folder` (waits up to `seconds`: a busy machine)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.eml")):
            for line in path.read_text().splitlines():
                if "#reset=" in line:
                    return line.strip()
        time.sleep(0.2)
    raise AssertionError(f"no mail with a reset link arrived in {seconds} seconds")


a_forgotten_password_is_reset_by_the_mailed_link.console_allows = ("status of 4",)

TESTS = [
    changes_the_password_and_signs_out_everywhere_else,
    without_mail_forgot_password_says_to_ask_the_operator,
    a_forgotten_password_is_reset_by_the_mailed_link,
]
