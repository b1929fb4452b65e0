#!/usr/bin/env python3
"""The combined fairness check of issue 38 on one engine (scripts/bench/fairness runs it on both).

A `morningproof-server serve` (the build given, production settings but for a notification pass
every second and loopback targets allowed) with two accounts. Account B, the measured one, has five
habits; it reads GET /api/habits in a loop on one kept-alive connection, writes its first habit's
entry of today (PUT .../entries/today, done and skipped in turn) in another loop on a connection of
its own, and signs in every few seconds, first alone (the baseline), then while account A does everything heavy at once:
  - uploads a 49 MB Health Auto Export file (again and again; one upload stored before, so that
    the reads below have the nights of 443,000 sleep intervals to compute),
  - reads GET /api/metrics for a 10-day range in four loops,
  - has 200 habits whose reminders were due a minute ago and a webhook that accepts and never
    answers (a listener that never accepts),
  - opens uploads that drip one byte every 2 s (two at a time, again whenever one is cut).
Prints B's GET /api/habits p50/p99, its writes' p50/p99/max and sign-in times, baseline and under
load, their ratios, and what A's activities got. Aims under load: B's GET p99 under 200 ms, B's write
p99 under 200 ms and max under 500 ms (SQLite has one write lock: an upload must not hold it for
long), and every sign-in under 1 s; exit 1 when one is missed, 2 when the run could not be set up.

usage: fairness.py --server BIN --file EXPORT.json --engine sqlite|postgres [--duration S]
(postgres: inside scripts/with-postgres, which gives MORNINGPROOF_TEST_POSTGRES_URL)
"""
import argparse
import datetime as dt
import http.client
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PASSWORD = "correct horse battery"


def call(port, method, path, body=None, token=None, timeout=120, conn=None, content_type="application/json"):
    """(status, parsed JSON or None, seconds) of one request; on `conn` when given (kept alive)."""
    own = conn is None
    if own:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers(token, content_type))
    answer = conn.getresponse()
    data = answer.read()
    took = time.perf_counter() - start
    if own:
        conn.close()
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = None
    return answer.status, parsed, took


def headers(token, content_type="application/json"):
    return {"Content-Type": content_type} | ({"Authorization": f"Bearer {token}"} if token else {})


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else float("nan")


# A's workers, each in a process of its own (no GIL shared with B's measurement); each puts
# (name, summary) on `out` when `stop` is set.


def uploader(port, token, path, stop, out):
    with open(path, "rb") as f:
        data = f.read()
    results = {}
    while not stop.is_set():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        start = time.perf_counter()
        try:
            try:
                conn.request("POST", "/api/metrics", body=data, headers=headers(token))
            except BrokenPipeError:
                pass  # answered (and closed) before the whole body was sent: the answer is still there
            status = conn.getresponse().status
        except (OSError, http.client.HTTPException) as error:
            status = type(error).__name__
        conn.close()
        took = time.perf_counter() - start
        results.setdefault(status, []).append(took)
        if status != 200:
            time.sleep(1)
    summary = [f"{len(t)} x {s} (median {statistics.median(t):.1f} s)" for s, t in results.items()]
    out.put(("49 MB uploads", ", ".join(summary) or "none finished"))


def metrics_reader(port, token, first, last, stop, out):
    statuses, times = {}, []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    while not stop.is_set():
        try:
            status, _, took = call(port, "GET", f"/api/metrics?from={first}&to={last}", token=token, conn=conn)
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            statuses["error"] = statuses.get("error", 0) + 1
            continue
        statuses[status] = statuses.get(status, 0) + 1
        times.append(took)
    out.put(("GET /api/metrics loop", f"{statuses}, median {statistics.median(times) if times else 0:.2f} s"))


def dripper(port, token, stop, out):
    opened, cut, answers = 0, 0, {}
    while not stop.is_set():
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(
            (
                "POST /api/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Authorization: Bearer {token}\r\nContent-Length: 10000000\r\n\r\n"
            ).encode()
        )
        opened += 1
        s.settimeout(2)
        while not stop.is_set():
            try:
                s.sendall(b"{")
                reply = s.recv(200)
            except socket.timeout:
                continue
            except OSError:
                cut += 1
                break
            if not reply:
                cut += 1
                break
            status = reply.split(b" ")[1].decode() if reply.startswith(b"HTTP/") else "?"
            answers[status] = answers.get(status, 0) + 1
            time.sleep(1)
            break
        s.close()
    out.put(("dripping upload", f"{opened} opened, {cut} cut, answered {answers}"))


class DeadEndpoint:
    """Listens on loopback and never accepts: handshakes complete, nobody ever answers."""

    def __init__(self):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(1024)
        self.port = self.socket.getsockname()[1]


def start_server(server, engine, work):
    args = [server, "serve", "--port", "0", "--notify-interval", "1", "--allow-local-notify-targets"]
    if engine == "postgres":
        args += ["--database-url", os.environ["MORNINGPROOF_TEST_POSTGRES_URL"]]
    else:
        args += ["--db", os.path.join(work, "db.sqlite")]
    log = open(os.path.join(work, "server.log"), "w")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    if "listening on http://" not in line:
        sys.exit(f"fairness: the server did not start: {line}")
    port = int(line.split("listening on http://")[1].split()[0].rsplit(":", 1)[1])
    threading.Thread(target=lambda: process.stdout.read(), daemon=True).start()
    return process, port


def sign_up(port, email, zone):
    status, answer, _ = call(port, "POST", "/api/auth/signup", {"email": email, "password": PASSWORD, "timezone": zone})
    if status != 201 or not answer:
        sys.exit(f"fairness: sign-up of {email}: {status} {answer}")
    return answer["token"]


def measure(port, token, email, habit, seconds, sign_in_every):
    """B for `seconds`: GET /api/habits latencies, and (other threads) the writes' and sign-ins' times."""
    habits, writes, sign_ins, errors = [], [], [], []
    done = threading.Event()

    def writer():
        conn, n = http.client.HTTPConnection("127.0.0.1", port, timeout=60), 0
        while not done.is_set():
            body = {"status": "done" if n % 2 == 0 else "skipped"}
            n += 1
            try:
                status, _, took = call(port, "PUT", f"/api/habits/{habit}/entries/today", body, token, conn=conn)
            except (OSError, http.client.HTTPException) as error:
                errors.append(f"write {error}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            writes.append(took) if status in (200, 201) else errors.append(f"write {status}")
        conn.close()

    def signer():
        while not done.is_set():
            try:
                status, _, took = call(port, "POST", "/api/auth/login", {"email": email, "password": PASSWORD})
                sign_ins.append(took) if status == 200 else errors.append(f"sign-in {status}")
            except OSError as error:
                errors.append(f"sign-in {error}")
            done.wait(sign_in_every)

    threads = [threading.Thread(target=signer), threading.Thread(target=writer)]
    for thread in threads:
        thread.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            status, _, took = call(port, "GET", "/api/habits", token=token, conn=conn)
        except (OSError, http.client.HTTPException) as error:
            errors.append(f"habits {error}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        habits.append(took) if status == 200 else errors.append(f"habits {status}")
    done.set()
    for thread in threads:
        thread.join()
    return habits, writes, sign_ins, errors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--engine", choices=["sqlite", "postgres"], required=True)
    parser.add_argument("--duration", type=float, default=40)
    parser.add_argument("--baseline", type=float, default=8)
    parser.add_argument(
        "--load", default="upload,reads,drip", help="A's activities, any of upload, reads and drip (to find which one hurts)"
    )
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="morningproof-bench-fairness.")
    # A zone where it is about noon now, so that a minute ago is today.
    now = dt.datetime.now(dt.timezone.utc)
    offset = 12 - now.hour
    zone = f"Etc/GMT-{offset}" if offset >= 0 else f"Etc/GMT+{-offset}"
    local = now + dt.timedelta(hours=offset)
    process, port = start_server(args.server, args.engine, work)
    try:
        print(f"fairness ({args.engine}): server on port {port}, load average {open('/proc/loadavg').read().strip()}")
        ada = sign_up(port, f"ada{os.getpid()}@example.com", zone)
        bob_email = f"bob{os.getpid()}@example.com"
        bob = sign_up(port, bob_email, zone)
        habit = [call(port, "POST", "/api/habits", {"name": name}, bob)[1]["id"] for name in ["Make bed", "Read", "Walk", "Stretch", "Journal"]][1]
        # The export's last day is yesterday's (the script that makes it was told so).
        with open(args.file, "rb") as f:
            status, answer, took = call(port, "POST", "/api/metrics", f.read(), ada, timeout=600)
        print(f"A's first upload (stored before the load): {status} in {took:.1f} s, {answer and answer.get('records')} records")
        base_habits, base_writes, base_sign_ins, base_errors = measure(port, bob, bob_email, habit, args.baseline, 2)
        # A's 200 reminders, due a minute ago, and its dead webhook.
        due = (local - dt.timedelta(minutes=1)).strftime("%H:%M")
        dead = DeadEndpoint()
        for n in range(200):
            status, answer, _ = call(port, "POST", "/api/habits", {"name": f"Chore {n}", "remindAt": due}, ada)
            if status != 201:
                sys.exit(f"fairness: A's habit {n}: {status} {answer}")
        status, answer, _ = call(
            port, "PUT", "/api/notifications/channels", {"webhook": {"url": f"http://127.0.0.1:{dead.port}/hook"}}, ada
        )
        if status != 200:
            sys.exit(f"fairness: A's webhook: {status} {answer}")
        last = (now.date() - dt.timedelta(days=1)).isoformat()
        first = (now.date() - dt.timedelta(days=10)).isoformat()
        stop, out = mp.Event(), mp.Queue()
        load = args.load.split(",")
        workers = [mp.Process(target=uploader, args=(port, ada, args.file, stop, out))] if "upload" in load else []
        workers += [mp.Process(target=metrics_reader, args=(port, ada, first, last, stop, out)) for _ in range(4 if "reads" in load else 0)]
        workers += [mp.Process(target=dripper, args=(port, ada, stop, out)) for _ in range(2 if "drip" in load else 0)]
        # The upload first: the drippers then find the account's upload place taken, as they would.
        for worker in workers:
            worker.start()
            time.sleep(3 if worker is workers[0] else 0)
        habits, writes, sign_ins, errors = measure(port, bob, bob_email, habit, args.duration, 3)
        stop.set()
        summaries = [out.get(timeout=700) for _ in workers]
        for worker in workers:
            worker.join(timeout=30)
        _, notifications, _ = call(port, "GET", "/api/notifications", token=ada)
        print(f"load average after: {open('/proc/loadavg').read().strip()}")
    finally:
        process.terminate()
        process.wait(timeout=60)

    print(f"A did, in {args.duration:.0f} s:")
    for name, summary in summaries:
        print(f"  {name}: {summary}")
    failed = [n for n in (notifications or {}).get("notifications", []) if n.get("state") != "delivered"]
    print(f"  dead webhook: {len(failed)} reminders claimed and not delivered")
    p50, p99 = percentile(habits, 50), percentile(habits, 99)
    b50, b99 = percentile(base_habits, 50), percentile(base_habits, 99)
    w50, w99, wmax = percentile(writes, 50), percentile(writes, 99), max(writes, default=float("inf"))
    v50, v99, vmax = percentile(base_writes, 50), percentile(base_writes, 99), max(base_writes, default=float("nan"))
    worst, base_worst = max(sign_ins, default=float("inf")), max(base_sign_ins, default=float("nan"))
    print(f"B, {args.engine}:              alone          under A's load   ratio")
    print(f"  GET /api/habits       {len(base_habits):>6} requests  {len(habits):>6} requests")
    print(f"    p50                 {b50 * 1000:>8.1f} ms     {p50 * 1000:>8.1f} ms     {p50 / b50:>6.1f}x")
    print(f"    p99                 {b99 * 1000:>8.1f} ms     {p99 * 1000:>8.1f} ms     {p99 / b99:>6.1f}x   aim < 200 ms")
    print(f"  PUT .../entries/today {len(base_writes):>6} requests  {len(writes):>6} requests")
    print(f"    p50                 {v50 * 1000:>8.1f} ms     {w50 * 1000:>8.1f} ms     {w50 / v50:>6.1f}x")
    print(f"    p99                 {v99 * 1000:>8.1f} ms     {w99 * 1000:>8.1f} ms     {w99 / v99:>6.1f}x   aim < 200 ms")
    print(f"    max                 {vmax * 1000:>8.1f} ms     {wmax * 1000:>8.1f} ms     {wmax / vmax:>6.1f}x   aim < 500 ms")
    print(
        f"  sign-in (worst of)    {base_worst * 1000:>8.0f} ms     {worst * 1000:>8.0f} ms     {worst / base_worst:>6.1f}x"
        f"   aim < 1000 ms ({len(base_sign_ins)} and {len(sign_ins)} sign-ins)"
    )
    print(f"  sign-ins under load, ms: {' '.join(f'{t * 1000:.0f}' for t in sign_ins)}")
    for error in sorted(set(base_errors + errors))[:10]:
        print(f"  error: {error}")
    missed = [what for what, ok in [("p99", p99 < 0.2), ("write p99", w99 < 0.2), ("write max", wmax < 0.5), ("sign-in", worst < 1.0), ("errors", not errors)] if not ok]
    print(f"fairness ({args.engine}): {'aims met' if not missed else 'MISSED: ' + ', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
