"""Browser tests of passkeys (issue 41) in Chromium with DevTools' virtual authenticator (CTAP2,
internal transport, resident keys, user verification): a passkey added in Settings, the sign-in
with it after signing out, its removal, and axe over the Settings card. Run by test_web_app.py's
main.

The page is opened at http://localhost:PORT (loopback, a secure context): WebAuthn takes no IP
address as a relying party id, and without --public-url the server's relying party is the
request's Host, here `localhost`, and its origin http://localhost:PORT, the page's own.
"""
import re
from types import SimpleNamespace

from playwright.sync_api import expect

from test_web_app import SHOTS, question, sign_up
from test_notifications import accessible


def virtual_authenticator(context, page):
    """A platform authenticator in DevTools that holds passkeys and verifies its user at once."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True, "automaticPresenceSimulation": True,
    }})
    return cdp, added["authenticatorId"]


def a_passkey_is_added_signs_in_and_is_removed(server, context, page):
    sign_up(SimpleNamespace(url=server.url.replace("127.0.0.1", "localhost")), page)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    cdp, authenticator = virtual_authenticator(context, page)

    page.get_by_role("button", name="Settings").click()
    card = page.locator("#passkeys")
    expect(card).to_be_visible()
    expect(card).to_contain_text("No passkey yet.")
    card.get_by_label("Name (optional)").fill("Work laptop")
    card.get_by_role("button", name="Add a passkey").click()
    expect(page.locator("#passkey-status")).to_contain_text("Added Work laptop")
    expect(page.locator("#passkey-list li")).to_have_count(1)
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"], credentials
    assert credentials[0]["rpId"] == "localhost", credentials[0]["rpId"]
    accessible(page, "#passkeys")
    card.screenshot(path=str(SHOTS / "passkeys-settings.png"))

    page.get_by_role("button", name="Sign out", exact=True).click()
    expect(page.get_by_role("button", name="Sign in with a passkey")).to_be_visible()
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.get_by_role("heading", name=re.compile("Today"))).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('morningproof.token')").startswith("mp_")

    page.get_by_role("button", name="Settings").click()
    expect(page.locator("#passkey-list li")).to_have_count(1)
    expect(page.locator("#passkey-list")).to_contain_text("last used")
    page.get_by_role("button", name="Remove the passkey Work laptop").click()
    expect(page.locator("#passkey-status")).to_contain_text("Removed Work laptop.")
    expect(page.locator("#passkey-list li")).to_have_count(0)

    # The authenticator still holds it; the server refuses it now.
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.get_by_role("button", name="Sign in with a passkey").click()
    expect(page.locator("#signin-error")).to_contain_text("not registered here")


TESTS = [a_passkey_is_added_signs_in_and_is_removed]
