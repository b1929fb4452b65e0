"""Browser tests of Settings, "Notifications", and of the service worker's push and tap handlers.

The browser's own push service is out of reach offline, so `PushManager.prototype.subscribe` (and
only it) is stood in for: it answers with an https endpoint and a real P-256 key and auth secret,
as Chromium's would. The server's push message is then delivered to the real service worker with
the DevTools protocol (`ServiceWorker.deliverPushMessage`), and the tap is a `notificationclick`
dispatched in the service worker for the notification it showed. Run by test_web_app.py's main.
"""
import hashlib
import hmac
import http.server
import json
import os
import pathlib
import re
import subprocess
import threading
import time

from playwright.sync_api import expect

from test_web_app import ROOT, SERVER, SHOTS, at, question, sign_up

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # scripts/bootstrap installs it beside Playwright
    Axe = None

# Stands in for the browser's push service: records what the page asked for and answers with a
# subscription whose toJSON() is what Chromium gives (endpoint, expirationTime, keys).
FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = async function (options) {
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const p256dh = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const auth = crypto.getRandomValues(new Uint8Array(16));
  const endpoint = `https://fcm.googleapis.com/fcm/send/${b64(crypto.getRandomValues(new Uint8Array(24)))}`;
  const key = new Uint8Array(options.applicationServerKey);
  window.subscribedWith = { userVisibleOnly: options.userVisibleOnly, key: b64(key), endpoint };
  const json = { endpoint, expirationTime: null, keys: { p256dh: b64(p256dh), auth: b64(auth) } };
  return {
    endpoint, expirationTime: null, options: { userVisibleOnly: true, applicationServerKey: key.buffer },
    toJSON: () => json,
    unsubscribe: async () => { window.unsubscribed = true; return true; },
  };
};
"""

NOTIFICATIONS = """async (tag) => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications(tag ? { tag } : {})).map((n) => ({
    title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }));
}"""

# The tap: the notificationclick the browser dispatches for it, dispatched in the service worker.
# waitUntil is the browser's to call on its own events (a script's event may not extend itself), so
# here the test keeps the promise the handler hands it and waits for it.
TAP = """async (tag) => {
  const [notification] = await self.registration.getNotifications({ tag });
  if (!notification) return "no notification with that tag";
  const event = new NotificationEvent("notificationclick", { notification });
  let work = Promise.resolve();
  event.waitUntil = (promise) => { work = promise; };
  self.dispatchEvent(event);
  await work;
  return (await self.registration.getNotifications({ tag })).length;
}"""


def eventually(read, check, what, seconds=10):
    """`read()` until `check` holds for it (within `seconds`); the last value otherwise fails."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if check(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: {value!r}")
        time.sleep(0.1)


def accessible(page, selector="#notifications"):
    """axe-core over `selector` in the light and the dark theme: no violations."""
    if Axe is None:
        assert os.environ.get("MORNINGPROOF_REQUIRE_BROWSER") != "1", "no axe-playwright-python: run scripts/bootstrap"
        print("note: axe-playwright-python is missing (scripts/bootstrap installs it): accessibility not checked")
        return
    for scheme in ("light", "dark"):
        # Reduced motion: no colour transition is caught half way between the themes.
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        results = Axe().run(page, context=selector)
        assert results.violations_count == 0, f"{scheme}: {results.generate_report()}"
    page.emulate_media(color_scheme="light")


def settings(page):
    page.get_by_role("button", name="Settings").click()
    expect(page.get_by_role("heading", name="Notifications")).to_be_visible()


def push_registration(context, page, origin):
    """The service worker's registration id, as DevTools reports it (ServiceWorker.enable)."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")

    def current():
        page.wait_for_timeout(50)  # lets the session's events arrive
        return [r for r in registrations if r["scopeURL"] == origin + "/" and not r["isDeleted"]]
    found = eventually(current, bool, "no service worker registration")
    return cdp, found[-1]["registrationId"]


def a_tapped_notify_me_subscribes_and_a_pushed_reminder_opens_today(server, context, page):
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(FAKE_SUBSCRIBE)
    token = sign_up(server, page, instant="2026-11-20T07:00:00-05:00")
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()
    server.api("POST", "/api/habits", token, {"name": "Steps", "metric": "steps", "atLeast": 8000},
               now="2026-11-20T07:00:00-05:00")
    settings(page)
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(page.locator("#push-status")).to_have_text("Notifications are on for this phone.")
    expect(page.get_by_role("button", name="Turn off")).to_be_focused()
    # The page asked with the server's key, for visible notifications only, and sent what it got.
    asked = page.evaluate("() => window.subscribedWith")
    assert asked["userVisibleOnly"] is True, asked
    assert asked["key"] == server.api("GET", "/api/push/key", token)["publicKey"], asked
    stored = [entry["endpoint"] for entry in server.api("GET", "/api/notifications/channels", token)["push"]]
    assert stored == [asked["endpoint"]], (stored, asked)
    page.locator("#notifications").screenshot(path=str(SHOTS / "phone-notifications.png"))
    accessible(page)
    # "Turn off" unsubscribes and the server forgets the endpoint; on again, it has the new one.
    page.get_by_role("button", name="Turn off").click()
    expect(page.locator("#push-status")).to_have_text("Notifications are off for this phone.")
    assert server.api("GET", "/api/notifications/channels", token)["push"] == []
    assert page.evaluate("() => window.unsubscribed") is True
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(page.locator("#push-status")).to_have_text("Notifications are on for this phone.")
    again = page.evaluate("() => window.subscribedWith.endpoint")
    assert [entry["endpoint"] for entry in server.api("GET", "/api/notifications/channels", token)["push"]] == [again]

    # The server's push message (NotificationDelivery's PushMessage), delivered to the service worker
    # as the push service would.
    message = {"body": "Steps: 9,000 steps, at least 8,000 steps met", "day": "2026-11-20", "event": "goal.met",
               "habit": "Steps", "title": "Goal met: Steps", "url": "/"}
    cdp, registration = push_registration(context, page, server.url)
    cdp.send("ServiceWorker.deliverPushMessage",
             {"origin": server.url, "registrationId": registration, "data": json.dumps(message)})
    tag = "goal.met|Steps|2026-11-20"
    shown = eventually(lambda: page.evaluate(NOTIFICATIONS, tag), bool, "no notification shown")
    assert shown == [{"title": "Goal met: Steps", "body": message["body"], "tag": tag, "url": "/"}], shown
    # A push whose data is not the message still shows something (a silent push is penalised).
    cdp.send("ServiceWorker.deliverPushMessage",
             {"origin": server.url, "registrationId": registration, "data": "not json"})
    generic = eventually(lambda: page.evaluate(NOTIFICATIONS, "morningproof"), bool, "no generic notification")
    assert generic[0]["title"] == "MorningProof", generic

    # Tapping it closes it and brings the open app to Today.
    expect(page.locator("#settings")).to_be_visible()
    worker = context.service_workers[0] if context.service_workers else context.wait_for_event("serviceworker")
    assert worker.evaluate(TAP, tag) == 0, "the tapped notification is still shown"
    expect(page.locator("#today")).to_be_visible()
    expect(page.locator("#settings")).to_be_hidden()
    expect(page.get_by_role("button", name="Today")).to_have_attribute("aria-current", "page")
    expect(page.get_by_role("button", name="Done: Steps")).to_be_visible()


a_tapped_notify_me_subscribes_and_a_pushed_reminder_opens_today.service_workers = "allow"


class Receiver(http.server.BaseHTTPRequestHandler):
    """A webhook receiver on loopback: keeps each request's headers and body."""
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.received.append(({name.lower(): value for name, value in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    do_PUT = do_POST

    def log_message(self, *arguments):
        pass


def ntfy_and_a_webhook_are_saved_tested_and_removed(server, context, page):
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    Receiver.received = []
    try:
        token = sign_up(server, page)
        page.get_by_role("button", name="Yes", exact=True).click()
        expect(question(page)).to_be_hidden()
        settings(page)
        expect(page.locator("#notify-none")).to_be_visible()
        hook = f"http://127.0.0.1:{receiver.server_address[1]}/morningproof"
        page.get_by_label("ntfy topic URL").fill("https://ada:secret@ntfy.example.com/morning")  # credentials in a URL are refused
        page.get_by_role("button", name="Save ntfy and webhook").click()
        expect(page.locator("#channels-status")).to_contain_text("Not saved")
        assert server.api("GET", "/api/notifications/channels", token)["ntfy"] is None
        topic = f"http://127.0.0.1:{receiver.server_address[1]}/ntfy/morning"
        page.get_by_label("ntfy topic URL").fill(topic)
        page.get_by_label("ntfy access token (optional)").fill("tk_secret")
        page.get_by_role("button", name="Save ntfy and webhook").click()
        expect(page.locator("#channels-status")).to_have_text("Saved: ntfy.")
        expect(page.locator("#ntfy-token-hint")).to_contain_text("A token is saved for this topic")
        # Adding the webhook keeps the topic's token, which the page never saw.
        page.get_by_label("Webhook URL").fill(hook)
        page.get_by_role("button", name="Save ntfy and webhook").click()
        expect(page.locator("#channels-status")).to_have_text("Saved: ntfy and webhook.")
        assert server.api("GET", "/api/notifications/channels", token)["ntfy"] == {"url": topic, "hasToken": True}
        expect(page.locator("#webhook-secret")).to_contain_text("Copy it now; it will not be shown again.")
        secret = page.get_by_label("Webhook secret", exact=True).input_value()
        assert len(secret) >= 16, secret
        assert server.api("GET", "/api/notifications/channels", token)["webhook"] == {"url": hook}
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator("#notifications").screenshot(path=str(SHOTS / "desktop-notifications.png"))
        page.set_viewport_size({"width": 360, "height": 800})

        # The test message: the webhook's result in words, and a body signed with the secret shown.
        page.get_by_role("button", name="Send a test notification").click()
        results = page.locator("#notify-results")
        outcome = r"delivered, HTTP 2\d\d\."
        expect(results).to_contain_text(re.compile(r"Webhook \(127\.0\.0\.1:\d+\): " + outcome))
        expect(results).to_contain_text(re.compile(r"ntfy \(127\.0\.0\.1:\d+\): " + outcome))
        accessible(page)
        headers, body = [request for request in Receiver.received if "x-morningproof-signature" in request[0]][-1]
        signature = headers["x-morningproof-signature"]
        assert signature == "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest(), signature
        ntfy = [request for request in Receiver.received if request[0].get("authorization")][-1][0]
        assert ntfy["authorization"] == "Bearer tk_secret" and ntfy.get("tags") == "test_tube", ntfy
        page.emulate_media(color_scheme="dark")
        page.locator("#notifications").screenshot(path=str(SHOTS / "phone-notifications-dark.png"))

        # After a reload the secret is not shown again; Remove clears the channels.
        page.reload()
        settings(page)
        expect(page.get_by_label("Webhook URL")).to_have_value(hook)
        expect(page.locator("#webhook-secret")).to_be_hidden()
        page.get_by_role("button", name="Remove both").click()
        expect(page.locator("#channels-status")).to_have_text("Removed: no ntfy topic or webhook.")
        expect(page.get_by_label("Webhook URL")).to_have_value("")
        channels = server.api("GET", "/api/notifications/channels", token)
        assert channels["webhook"] is None and channels["ntfy"] is None, channels
    finally:
        receiver.shutdown()
        receiver.server_close()


ntfy_and_a_webhook_are_saved_tested_and_removed.server_arguments = ["--allow-local-notify-targets"]


def an_iphone_outside_the_home_screen_is_told_to_add_it_first(server, context, page):
    token = sign_up(server, page)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(question(page)).to_be_hidden()  # the answer reached the server
    iphone = context.browser.new_context(
        viewport={"width": 390, "height": 844}, service_workers="block", timezone_id="America/New_York",
        user_agent="Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
                   "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
    try:
        other = iphone.new_page()
        other.goto(server.url + "/")
        other.evaluate("(token) => localStorage.setItem('morningproof.token', token)", token)
        at(other, "2026-11-20T07:00:00-05:00")  # the moment of sign_up: today is answered
        other.reload()
        settings(other)
        status = other.locator("#push-status")
        expect(status).to_contain_text("Add to Home Screen first, then open MorningProof from there")
        other.get_by_role("button", name="Notify me on this phone").click()
        expect(status).to_contain_text("Add to Home Screen first")
        assert server.api("GET", "/api/notifications/channels", token)["push"] == []
    finally:
        iphone.close()


def the_last_seven_days_list_what_was_sent_and_what_failed(server, context, page):
    # The owner's reminders, claimed and delivered by the CLI's pass on the server's database: the
    # first to stdout, the second to a hook that fails.
    db = str(pathlib.Path(server.folder.name) / "data.sqlite")

    def cli(*arguments):
        subprocess.run([str(ROOT / ".build/debug/morningproof"), "--db", db, *arguments], check=True,
                       capture_output=True, text=True)
    cli("config", "set", "timezone", "America/New_York")
    cli("--now", "2026-11-20T07:00:00-05:00", "habit", "add", "Make bed", "--remind-at", "07:30")
    cli("--now", "2026-11-20T07:45:00-05:00", "check")
    hook = pathlib.Path(server.folder.name) / "hook"
    hook.write_text("#!/bin/sh\necho 'the receiver is down' >&2\nexit 3\n")
    hook.chmod(0o755)
    cli("config", "set", "notify.hook", str(hook))
    cli("--now", "2026-11-20T07:00:00-05:00", "habit", "add", "Read", "--remind-at", "07:40")
    cli("--now", "2026-11-20T07:50:00-05:00", "check")
    created = subprocess.run([str(SERVER), "token", "create", "--db", db, "--name", "browser"],
                             check=True, capture_output=True, text=True)
    owner = created.stdout.strip().splitlines()[-1]
    page.goto(server.url + "/")
    page.evaluate("(token) => localStorage.setItem('morningproof.token', token)", owner)
    at(page, "2026-11-20T08:00:00-05:00")
    page.reload()
    page.wait_for_load_state("networkidle")
    if question(page).is_visible():
        page.get_by_role("button", name="Yes", exact=True).click()
        expect(question(page)).to_be_hidden()  # the answer reached the server
    settings(page)
    events = page.locator("#notify-events li")
    expect(events).to_have_count(2)
    expect(page.locator("#notify-none")).to_be_hidden()
    made = events.filter(has_text="Reminder: Make bed")
    # Where each stands, in plain words (issue 40): not "delivered at …, 1 attempt".
    expect(made).to_contain_text(re.compile(r"2026-11-20 · sent \d\d:\d\d$"))
    read = events.filter(has_text="Reminder: Read")
    expect(read).to_contain_text(re.compile(r"2026-11-20 · failed, will retry at \d\d:\d\d"))
    expect(read).to_contain_text("Last error:")
    page.locator("#notify-events").screenshot(path=str(SHOTS / "phone-notifications-events.png"))
    accessible(page)


TESTS = [
    the_last_seven_days_list_what_was_sent_and_what_failed,
    a_tapped_notify_me_subscribes_and_a_pushed_reminder_opens_today,
    ntfy_and_a_webhook_are_saved_tested_and_removed,
    an_iphone_outside_the_home_screen_is_told_to_add_it_first,
]
