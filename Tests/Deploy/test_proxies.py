"""The web app through the reverse proxies docs/deploy.md sets up, started from deploy/'s own files
(deploy/Caddyfile, deploy/nginx/morningproof.conf) with only the host name, ports and certificate
paths changed, so that the docs and the tests cannot drift: Caddy (Debian's caddy, with the
certificate it gets by itself from its internal CA) and nginx (Debian's nginx, a certificate made
here with openssl), each in front of a debug morningproof-server on loopback. Chromium opens
https://morningproof.test:PORT (resolved to 127.0.0.1) and must find a secure context, register the
service worker, open offline after a reload, subscribe to push (the stand-in push service of
Tests/Browser/test_notifications.py), get a pushed message shown by the worker, and report no
installability error.

Run by scripts/deploy-tests (scripts/test runs it). Screenshots go to .build/screenshots/.
"""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/Browser"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from test_web_app import CHROMIUM, SHOTS, Server  # noqa: E402
from test_notifications import FAKE_SUBSCRIBE, NOTIFICATIONS, eventually, push_registration  # noqa: E402
from test_address import signed_up  # noqa: E402

HOST = "morningproof.test"
DEPLOY = ROOT / "deploy"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def substituted(text, replacements, what):
    """`text` with each (old, new) replaced; an old that is not there means the deploy file changed
    under the test, which fails rather than testing something else."""
    for old, new in replacements:
        assert old in text, f"{what} no longer has {old!r}: update Tests/Deploy/test_proxies.py with it"
        text = text.replace(old, new)
    return text


def wait_for_port(port, process, log, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode}: {pathlib.Path(log).read_text()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {seconds} s: {pathlib.Path(log).read_text()}")


def certificate(folder):
    """A self-signed certificate for morningproof.test (P-256), made with openssl, and its public
    key's SHA-256 in base64, which Chromium is told to accept (--ignore-certificate-errors-spki-list):
    a page whose certificate is merely ignored gets no service worker, so this one must count as valid."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "2", "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}",
         "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key, spki_of(cert)


def spki_of(pem_file):
    """The SHA-256 of the public key of the certificate in `pem_file`, in base64."""
    spki = subprocess.run(
        f"openssl x509 -in '{pem_file}' -pubkey -noout | openssl pkey -pubin -outform der"
        " | openssl dgst -sha256 -binary | base64", shell=True, check=True, capture_output=True, text=True)
    return spki.stdout.strip()


def served_certificate(port, folder, seconds=60):
    """The certificate served for morningproof.test on `port` (SNI), saved in `folder`: Caddy makes
    its own a moment after it listens."""
    deadline = time.monotonic() + seconds
    while True:
        shown = subprocess.run(
            ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-servername", HOST],
            input="", capture_output=True, text=True, timeout=30)
        begin, end = shown.stdout.find("-----BEGIN CERTIFICATE-----"), shown.stdout.find("-----END CERTIFICATE-----")
        if begin >= 0 and end > begin:
            pem = folder / "served.pem"
            pem.write_text(shown.stdout[begin:end + len("-----END CERTIFICATE-----")] + "\n")
            return pem
        if time.monotonic() > deadline:
            raise RuntimeError(f"no certificate served on {port} after {seconds} s: {shown.stderr[-500:]}")
        time.sleep(0.5)


class Caddy:
    """Caddy from deploy/Caddyfile: its site block as shipped, on a free port, for morningproof.test,
    with a certificate Caddy gets by itself from its own internal CA (`tls internal`) in place of
    Let's Encrypt's (which would need the internet), and global options that keep it on loopback
    and its files in a temporary folder. `spki` is the certificate it serves, for Chromium."""

    name = "caddy"

    def __init__(self, folder, upstream, cert, key):
        self.port = free_port()
        site = substituted((DEPLOY / "Caddyfile").read_text(), [
            ("morningproof.example.com {", f"https://{HOST}:{self.port} {{\n\ttls internal"),
            ("reverse_proxy 127.0.0.1:8080", f"reverse_proxy 127.0.0.1:{upstream}"),
        ], "deploy/Caddyfile")
        config = folder / "Caddyfile"
        config.write_text("{\n\tadmin off\n\tdefault_bind 127.0.0.1\n\tauto_https disable_redirects\n"
                          "\tskip_install_trust\n"
                          f"\tstorage file_system {folder / 'data'}\n}}\n\n" + site)
        environment = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
                       "XDG_CONFIG_HOME": str(folder / "config")}
        self.log = folder / "caddy.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                stdout=log, stderr=subprocess.STDOUT, env=environment)
        wait_for_port(self.port, self.process, self.log)
        self.spki = spki_of(served_certificate(self.port, folder))

    def stop(self):
        self.process.terminate()
        self.process.wait(20)


class Nginx:
    """nginx with deploy/nginx/morningproof.conf included as shipped but for its ports (free ones on
    127.0.0.1), the host name and the certificate's paths (one made here); the main file around it
    keeps nginx's files in a temporary folder."""

    name = "nginx"

    def __init__(self, folder, upstream, cert, key):
        self.port, plain = free_port(), free_port()
        (folder / "webroot").mkdir()
        site = substituted((DEPLOY / "nginx/morningproof.conf").read_text(), [
            ("    listen [::]:80;\n", ""),
            ("    listen [::]:443 ssl http2;\n", ""),
            ("listen 80;", f"listen 127.0.0.1:{plain};"),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{self.port} ssl http2;"),
            ("/etc/letsencrypt/live/morningproof.example.com/fullchain.pem", str(cert)),
            ("/etc/letsencrypt/live/morningproof.example.com/privkey.pem", str(key)),
            ("root /var/www/html;", f"root {folder / 'webroot'};"),
            ("morningproof.example.com", HOST),
            ("proxy_pass http://127.0.0.1:8080;", f"proxy_pass http://127.0.0.1:{upstream};"),
        ], "deploy/nginx/morningproof.conf")
        (folder / "morningproof.conf").write_text(site)
        temp = "".join(f"  {kind}_temp_path {folder / kind};\n" for kind in
                       ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            "events { worker_connections 256; }\n"
            f"http {{\n  access_log {folder / 'access.log'};\n{temp}  include {folder / 'morningproof.conf'};\n}}\n")
        check = subprocess.run(["nginx", "-t", "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                "-e", str(folder / "error.log")], capture_output=True, text=True)
        assert check.returncode == 0, f"nginx -t: {check.stderr}"
        self.log = folder / "error.log"
        self.process = subprocess.Popen(
            ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process, self.log)
        self.plain = plain

    def stop(self):
        self.process.terminate()
        self.process.wait(20)


def the_app_through(proxy, server, playwright, spki, profile):
    """The checks the issue lists, in Chromium at the proxy's https address. A profile of its own, not
    an incognito context (Playwright's usual), in which Chromium would refuse to install any app."""
    origin = f"https://{HOST}:{proxy.port}"
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, viewport={"width": 360, "height": 800},
        timezone_id="America/New_York", service_workers="allow", args=[
            "--no-sandbox", f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={spki}"])
    try:
        context.grant_permissions(["notifications"], origin=origin)
        context.add_init_script(FAKE_SUBSCRIBE)
        page = context.pages[0] if context.pages else context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(origin + "/")
        assert page.evaluate("() => window.isSecureContext") is True, "not a secure context"
        expect(page.locator("#insecure-address")).to_be_hidden()

        # Signed up through the proxy; the question answered.
        signed_up(page, origin)
        token = page.evaluate("() => localStorage.getItem('morningproof.token')")

        # The service worker registers and controls the page once reloaded.
        page.wait_for_function("() => navigator.serviceWorker.getRegistration().then((r) => !!r?.active)")
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")

        # Installable: Chromium's own check (what its Install offer waits for) finds nothing missing.
        cdp = context.new_cdp_session(page)
        installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert installability == [], f"installability errors: {installability}"
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest

        # Push: subscribed with the server's key through the proxy, and a pushed message shown.
        page.get_by_role("button", name="Settings").click()
        page.get_by_role("button", name="Notify me on this phone").click()
        expect(page.locator("#push-status")).to_have_text("Notifications are on for this phone.")
        endpoint = page.evaluate("() => window.subscribedWith.endpoint")
        stored = [entry["endpoint"] for entry in server.api("GET", "/api/notifications/channels", token)["push"]]
        assert stored == [endpoint], (stored, endpoint)
        worker, registration = push_registration(context, page, origin)
        message = {"title": "Reminder: Make bed", "body": "Make bed is still to do today.",
                   "event": "reminder", "habit": "Make bed", "day": "2026-11-20", "url": "/"}
        worker.send("ServiceWorker.deliverPushMessage",
                    {"origin": origin, "registrationId": registration, "data": json.dumps(message)})
        tag = "reminder|Make bed|2026-11-20"
        # 30 s, not the usual 10: at load average 29 the worker, woken for the push, took longer.
        shown = eventually(lambda: page.evaluate(NOTIFICATIONS, tag), bool, "no notification shown", seconds=30)
        assert shown[0]["title"] == "Reminder: Make bed", shown

        # Offline: the network cut, a reload opens the app from the service worker's cache.
        context.set_offline(True)
        page.reload()
        expect(page.locator("#offline")).to_be_visible()
        expect(page.get_by_role("button", name="Today")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"deploy-{proxy.name}-offline.png"))
        context.set_offline(False)
        assert not errors, f"page errors: {errors}"
    finally:
        context.close()


def main():
    SHOTS.mkdir(parents=True, exist_ok=True)
    failures, passed = [], 0
    certificates = pathlib.Path(tempfile.mkdtemp(prefix="morningproof-certificate-"))
    cert, key, spki = certificate(certificates)
    with sync_playwright() as playwright:
        for kind in (Caddy, Nginx):
            folder = pathlib.Path(tempfile.mkdtemp(prefix=f"morningproof-{kind.name}-"))
            server = proxy = None
            try:
                server = Server()
                proxy = kind(folder, server.url.rsplit(":", 1)[1], cert, key)
                # Caddy's own certificate, or the one made here for nginx.
                the_app_through(proxy, server, playwright, getattr(proxy, "spki", spki), folder / "profile")
                print(f"ok   the web app through {kind.name}")
                passed += 1
            except Exception:
                failures.append(kind.name)
                print(f"FAIL the web app through {kind.name}\n{traceback.format_exc()}", file=sys.stderr)
                for log in folder.glob("*.log"):
                    print(f"--- {log}:\n{log.read_text()[-3000:]}", file=sys.stderr)
            finally:
                if proxy:
                    proxy.stop()
                if server:
                    server.stop()
                shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(certificates, ignore_errors=True)
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
