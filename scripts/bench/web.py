"""scripts/bench/web's browser half: Today's first and largest contentful paint on a throttled phone
profile, cold and from the service worker, the bytes of HTML + JS + CSS, and the same paints of a
static page of one heading (the peer). Run by scripts/bench/web, which starts both servers.

usage: web.py APP-URL PEER-URL RUNS
"""
import datetime
import gzip
import json
import os
import statistics
import sys
import urllib.request

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("MORNINGPROOF_CHROMIUM", "/usr/bin/chromium")
PASSWORD = "bench password 1"
# Lighthouse's mobile profile: a slow 4G link (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and
# a CPU four times slower. DevTools takes bytes per second.
NETWORK = {"offline": False, "latency": float(os.environ.get("LATENCY_MS", 150)),
           "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWDOWN = 4
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
SHELL_TYPES = {"Document", "Script", "Stylesheet"}

# FCP and LCP of this page load, from the buffered entries (startTime is from navigation start).
PAINTS = """() => new Promise((resolve) => {
  const found = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") found.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    found.lcp = entries[entries.length - 1].startTime;
    found.lcpElement = entries[entries.length - 1].element?.outerHTML.slice(0, 80) || null;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(() => resolve(found), 200);
})"""


# Each request of the page load: when it started and ended, from navigation start.
TIMELINE = """() => performance.getEntriesByType("resource").map((entry) => ({
  name: new URL(entry.name).pathname + new URL(entry.name).search, start: entry.startTime, end: entry.responseEnd }))"""


def api(url, method, path, token=None, body=None, now=None):
    request = urllib.request.Request(url + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if now:
        request.add_header("X-MorningProof-Now", now.isoformat())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        text = response.read().decode()
        return json.loads(text) if text else {}


def seed(url):
    """An account with the question answered today and five habits made a week ago, each done on some
    of the days since: Today shows real cards, not the question or the block screen."""
    now = datetime.datetime.now(datetime.timezone.utc)
    week_ago = now - datetime.timedelta(days=7)
    token = api(url, "POST", "/api/auth/signup", body={
        "email": "bench@example.com", "password": PASSWORD, "timezone": "UTC"}, now=week_ago)["token"]
    api(url, "POST", "/api/checkin/setup", token, {"preset": "general"})
    api(url, "POST", "/api/checkin", token, {"answer": "yes"})
    habits = [
        {"name": "Read", "remindAt": "06:45", "required": True}, {"name": "Make bed", "kind": "photo"},
        {"name": "Gym", "times": 3, "per": "week"}, {"name": "Steps", "metric": "steps", "atLeast": 8000},
        {"name": "Stretch"},
    ]
    for index, body in enumerate(habits):
        habit = api(url, "POST", "/api/habits", token, body, now=week_ago)
        if body.get("kind") == "photo":
            continue  # done only by a photo (422 proof_required): its days stay open
        for days in range(1 + index % 2, 7, 2):
            day = (now - datetime.timedelta(days=days)).date().isoformat()
            api(url, "PUT", f"/api/habits/{habit['id']}/entries/{day}", token, {"status": "done"})
    return token


def throttled_page(context):
    """A new page of `context` under the phone's link and CPU, and the CDP session that watches it."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return page, cdp


def load(context, url, ready):
    """Opens `url` in a new throttled page of `context`, waits for `ready` (a selector), and returns its
    paints and what it transferred: {url: (type, encoded bytes, content-encoding, from the SW)}."""
    page, cdp = throttled_page(context)
    responses, transferred = {}, {}
    cdp.on("Network.responseReceived", lambda event: responses.__setitem__(event["requestId"], event))

    def finished(event):
        response = responses.get(event["requestId"])
        if response:
            headers = {name.lower(): value for name, value in response["response"]["headers"].items()}
            transferred[response["response"]["url"]] = (
                response["type"], event["encodedDataLength"], headers.get("content-encoding", "identity"),
                response["response"].get("fromServiceWorker", False))
    cdp.on("Network.loadingFinished", finished)
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    paints = page.evaluate(PAINTS)
    return page, paints, transferred


class ServiceWorkerLink:
    """The phone's link on the app's service worker too: its own fetches (a network-first worker
    revalidating the shell) go through the same emulation as the page's. DevTools reaches a worker
    through the browser's session (Target.attachToTarget, messages in and out as text); a worker
    takes no CPU throttling ("only supported for pages"). Counts the bytes of what it fetches."""

    def __init__(self, browser, origin):
        self.cdp = browser.new_browser_cdp_session()
        workers = [t for t in self.cdp.send("Target.getTargets")["targetInfos"]
                   if t["type"] == "service_worker" and t["url"].startswith(origin)]
        assert len(workers) == 1, f"expected the app's one service worker: {workers}"
        self.session = self.cdp.send("Target.attachToTarget", {"targetId": workers[0]["targetId"], "flatten": False})["sessionId"]
        self.responses, self.transferred, self.next = {}, {}, 0
        self.cdp.on("Target.receivedMessageFromTarget", self.received)
        self.send("Network.enable")
        self.send("Network.emulateNetworkConditions", NETWORK)

    def send(self, method, params=None):
        self.next += 1
        self.cdp.send("Target.sendMessageToTarget", {"sessionId": self.session, "message": json.dumps(
            {"id": self.next, "method": method, "params": params or {}})})

    def received(self, event):
        message = json.loads(event["message"])
        params = message.get("params", {})
        if message.get("method") == "Network.responseReceived":
            self.responses[params["requestId"]] = params
        elif message.get("method") == "Network.loadingFinished" and params["requestId"] in self.responses:
            response = self.responses[params["requestId"]]
            self.transferred[response["response"]["url"]] = (response["type"], params["encodedDataLength"])

    def shell_bytes(self):
        # What the worker fetched for the page, but the API (which it leaves to the network).
        return sum(size for url, (_, size) in self.transferred.items() if "/api/" not in url)

    def close(self):
        self.cdp.detach()


def median(values):
    return statistics.median(values) if values else float("nan")


def shell_bytes(transferred):
    """HTML + JS + CSS the page fetched from the network (not answered by its service worker)."""
    return sum(size for kind, size, _, worker in transferred.values() if kind in SHELL_TYPES and not worker)


def main():
    app, peer, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    token = seed(app)
    # The page reads its token from localStorage before its own scripts run.
    init = f"localStorage.setItem('morningproof.token', {json.dumps(token)})"
    today = "#habit-list li"
    cold, warm, floor, first = [], [], [], None
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for _ in range(runs):
            context = browser.new_context(**PHONE, service_workers="allow")
            context.add_init_script(init)
            page, paints, transferred = load(context, app + "/", today)
            paints["requests"] = page.evaluate(TIMELINE)
            cold.append(paints)
            first = first or transferred
            # The service worker installed by that visit controls the next one in the same context.
            page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            page.close()
            worker = ServiceWorkerLink(browser, app)
            page, paints, again = load(context, app + "/", today)
            assert page.evaluate("() => navigator.serviceWorker.controller !== null"), "not served by the SW"
            page.wait_for_timeout(300)  # the worker's last answers arrive
            paints["shellBytes"] = shell_bytes(again) + worker.shell_bytes()
            paints["requests"] = page.evaluate(TIMELINE)
            warm.append(paints)
            worker.close()
            context.close()
            context = browser.new_context(**PHONE)
            page, paints, _ = load(context, peer + "/", "h1")
            floor.append(paints)
            context.close()
        browser.close()

    print(f"Today of a phone ({runs} run{'' if runs == 1 else 's'}, median; {NETWORK['latency']:.0f} ms latency, 1.6 Mbit/s down, "
          f"750 kbit/s up, CPU x{CPU_SLOWDOWN}):")
    print(f"{'page':<34} {'FCP ms':>8} {'LCP ms':>8} {'ratio LCP':>10} {'aim LCP':>8}")
    peer_lcp = median([p["lcp"] for p in floor])
    rows = [("static heading (peer)", floor, None), ("Today, cold cache", cold, 2500),
            ("Today, from the service worker", warm, 1000)]
    for name, values, aim in rows:
        lcp = median([p["lcp"] for p in values])
        print(f"{name:<34} {median([p['fcp'] for p in values]):>8.0f} {lcp:>8.0f} {lcp / peer_lcp:>9.2f}x "
              f"{'' if aim is None else f'< {aim}':>8}")
    for name, loads in (("cold", cold), ("from the service worker", warm)):
        print(f"LCP element, {name}: {loads[-1].get('lcpElement')}")
        print(f"The last load's requests, {name} (ms from navigation start; FCP and LCP between them):")
        marks = sorted([(r["start"], r["end"], r["name"]) for r in loads[-1]["requests"]]
                       + [(loads[-1]["fcp"], loads[-1]["fcp"], "· first contentful paint"),
                          (loads[-1]["lcp"], loads[-1]["lcp"], "· largest contentful paint")])
        for start, end, what in marks:
            print(f"  {start:>6.0f} {end:>6.0f}  {what}")
    print("\nHTML + JS + CSS of the cold load (bytes on the wire, headers included):")
    encodings = set()
    total = 0
    gzipped = 0
    for url, (kind, size, encoding, _) in sorted(first.items()):
        if kind not in SHELL_TYPES:
            continue
        body = urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"}))
        encodings.add(body.headers.get("Content-Encoding", "identity"))
        data = body.read()
        packed = len(gzip.compress(data, 9)) if body.headers.get("Content-Encoding") is None else len(data)
        total += size
        gzipped += packed
        print(f"  {url.split('/', 3)[-1] or '/':<20} {kind:<11} {size:>7,} B  ({encoding}; gzip -9 of the body {packed:,} B)")
    print(f"  total {total:,} B ({total / 1024:.1f} KB); aim < 50 KB gzipped; gzip -9 of the same bodies "
          f"{gzipped:,} B ({gzipped / 1024:.1f} KB)")
    print(f"  the server's Content-Encoding when asked for gzip: {', '.join(sorted(encodings))}"
          + ("  (it does not compress)" if encodings == {"identity"} else ""))
    print(f"  opened from the service worker: {median([p['shellBytes'] for p in warm]):,.0f} B of HTML + JS + CSS "
          "over the wire (the page's and the worker's fetches, headers included)")


if __name__ == "__main__":
    main()
