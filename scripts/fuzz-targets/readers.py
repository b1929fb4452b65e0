#!/usr/bin/env python3
"""Fuzzes every reader of the built `morningproof` with seeded mutations of the test fixtures.

For each format, INPUTS inputs are made from its fixtures by 1 to 4 seeded mutations (bytes, lines,
numbers, dates, strings, nesting; SQL updates for Loop's .db), then fed to the command that reads
it, on a fresh copy of a small database, followed by the commands that show what it stored. A run
is a finding when it dies by a signal, prints Swift's "Fatal error", exits with a code that
docs/cli.md does not list (0 1 64 65 66 74 75), or outlives the timeout. Each finding is saved with
the command that shows it under .build-fuzz/findings/FORMAT/; copy it to Tests/Fixtures/fuzz/FORMAT/
and the replay test runs it forever after. The same seed makes the same inputs.

Called by scripts/fuzz; see there for the options.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
ALLOWED = {0, 1, 64, 65, 66, 74, 75}
NOW = "2026-03-09T12:00:00Z"
# What an import stored is then shown by these: a value that was stored but cannot be shown crashes here.
SHOW_HABITS = [["habit", "list"], ["report"]]
SHOW_METRICS = [["metrics", "show"]]

NUMBERS = [
    "0", "-0", "-1", "1", "0.5", "-0.5", "9999999999999999999", "-9999999999999999999", "18446744073709551616",
    "9223372036854775807", "-9223372036854775808", "2147483648", "1e308", "-1e308", "1e309", "1e-320", "NaN",
    "nan", "inf", "-inf", "Infinity", "0x10", "1,5", "00000000000000000000001", "2000000000000000000", "1e18",
    "",
]
DATES = [
    "0001-01-01", "0000-12-31", "9999-12-31", "10000-01-01", "1900-01-01", "1969-12-31", "1970-01-01",
    "2011-12-30", "2024-02-29", "2026-02-29", "2026-13-01", "2026-00-10", "2026-03-32", "1582-10-10", "2026-3-9",
]
INSTANTS = [
    "0001-01-01T00:00:00Z", "9999-12-31T23:59:59-12:00", "9999-12-31T23:59:59+14:00", "2026-03-08T02:30:00-05:00",
    "2026-03-09T12:00:00+25:00", "1969-12-31T23:59:59Z", "2026-03-09 12:00:00 -0500", "2026-03-09T12:00:00",
]
STRINGS = [
    "", " ", "\u0000", "é", "\U0001F6CF\uFE0F", "\u202e", "x" * 5000, '"', "\\", "\n", ",", "'", "%s%n", "\ufeff",
    "\uFFFD", "steps", "sleep", "HKQuantityTypeIdentifierStepCount", "Habits", "y", "n", "s",
]


def replace_one(text, rng, pattern, values):
    """One match of `pattern` replaced by one of `values`; None when nothing matches."""
    spans = [m.span() for m in re.finditer(pattern, text)]
    if not spans:
        return None
    a, b = rng.choice(spans)
    return text[:a] + rng.choice(values).encode("utf-8", "replace") + text[b:]


def numbers_swap(text, rng):
    values = NUMBERS if rng.random() < 0.8 else [str(rng.randint(-(2 ** 70), 2 ** 70))]
    return replace_one(text, rng, rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", values) or text


def dates_swap(text, rng):
    pattern = rb"\d{4}-\d{2}-\d{2}(?:[T ][0-9:]+(?: ?[-+][0-9:]+|Z)?)?"
    return replace_one(text, rng, pattern, DATES + INSTANTS) or numbers_swap(text, rng)


def strings_swap(text, rng):
    spans = [m.span() for m in re.finditer(rb'"(?:[^"\\\n]|\\.)*"', text)]
    if not spans:
        return lines_op(text, rng)
    a, b = rng.choice(spans)
    value = rng.choice(STRINGS)
    encoded = json.dumps(value).encode() if rng.random() < 0.7 else b'"' + value.encode("utf-8", "replace") + b'"'
    return text[:a] + encoded + text[b:]


def fields_swap(text, rng):
    """A field of a CSV or harsh line (between commas, colons or tabs) replaced."""
    return replace_one(text, rng, rb"[^,:\t\n]+", STRINGS + NUMBERS + DATES) or text


def lines_op(text, rng):
    lines = text.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(5)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines[i:i] = [lines[j]] * rng.choice([1, 2, 100, 3000])
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = lines[i] * rng.choice([2, 50, 2000])
    else:
        lines.insert(i, rng.choice(STRINGS).encode("utf-8", "replace"))
    return b"\n".join(lines)


def bytes_op(data, rng):
    data = bytearray(data)
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    op = rng.randrange(6)
    if op == 0:
        data[i] ^= 1 << rng.randrange(8)
    elif op == 1:
        data[i] = rng.choice([0, 0xFF, 0x7F, 0x80, ord('"'), ord(","), ord("\n"), ord("{"), ord("["), ord("<")])
    elif op == 2:
        del data[i:i + rng.choice([1, 4, 64, 4096])]
    elif op == 3:
        j = rng.randrange(len(data))
        data[i:i] = data[j:j + rng.choice([1, 8, 256])]
    elif op == 4:
        del data[i:]
    else:
        data[i:i] = bytes(rng.randrange(256) for _ in range(rng.choice([1, 4, 32])))
    return bytes(data)


def nesting(text, rng):
    """A value replaced by a deep nest of arrays or objects: the decoders' recursion."""
    depth = rng.choice([64, 1000, 20000])
    nest = b"[" * depth + b"1" + b"]" * depth if rng.random() < 0.5 else b'{"a":' * depth + b"1" + b"}" * depth
    spans = [m.span() for m in re.finditer(rb":\s*[^,{}\[\]\n]+", text)]
    if not spans:
        return text + nest
    a, b = rng.choice(spans)
    return text[:a] + b":" + nest + text[b:]


JSON_NUMBERS = [0, -1, 1, 0.5, -0.5, 10 ** 19, -(10 ** 19), 2 ** 63, 2 ** 64, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 10 ** 400]


def json_tree(text, rng):
    """One value of a JSON document changed where it sits (the document still parses): a number made
    huge, negative or fractional, a string an edge date or a hostile text, a key removed, an element
    repeated, a type changed."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return numbers_swap(text, rng)
    places = []

    def walk(node):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, child in items:
            places.append((node, key))
            walk(child)

    walk(document)
    if not places:
        return text
    # Numbers half the time: most leaves are names and days, and the numbers are where overflows hide.
    numbers = [(p, k) for p, k in places if isinstance(p[k], (int, float)) and not isinstance(p[k], bool)]
    parent, key = rng.choice(numbers if numbers and rng.random() < 0.5 else places)
    value = parent[key]
    op = rng.randrange(10)
    if op == 0 and isinstance(parent, dict):
        del parent[key]
    elif op == 1 and isinstance(parent, list):
        parent[key:key] = [value] * rng.choice([1, 2, 500])
    elif op == 2:
        parent[key] = rng.choice([None, True, "", [], {}, rng.choice(JSON_NUMBERS), rng.choice(STRINGS)])
    elif isinstance(value, bool) or value is None:
        parent[key] = rng.choice([not value, None, 1, "true"])
    elif isinstance(value, (int, float)):
        parent[key] = rng.choice(JSON_NUMBERS + [str(value), -value, value * 1000])
    elif isinstance(value, str):
        if re.match(r"\d{4}-\d{2}-\d{2}", value):
            parent[key] = rng.choice(DATES + INSTANTS) if "T" in value or len(value) == 10 else rng.choice(INSTANTS)
        else:
            parent[key] = rng.choice(STRINGS + NUMBERS)
    else:
        parent[key] = rng.choice([None, "", 0, rng.choice(JSON_NUMBERS)])
    return json.dumps(document, ensure_ascii=rng.random() < 0.5).encode()


TEXT_MUTATORS = [numbers_swap, numbers_swap, dates_swap, dates_swap, strings_swap, fields_swap, lines_op, bytes_op]
# Most JSON mutations keep the document whole: a decoder refuses any broken one at its first byte.
JSON_MUTATORS = [json_tree] * 12 + TEXT_MUTATORS + [nesting]


def mutate_text(data, rng, mutators=TEXT_MUTATORS):
    # A strict decoder refuses a document at its first fault: JSON gets fewer mutations at once.
    for _ in range(rng.randint(1, 2 if mutators is JSON_MUTATORS else 4)):
        data = rng.choice(mutators)(data, rng)
    return data


SQL_VALUES = [
    None, 0, -1, 1, 2, 3, -2, 9223372036854775807, -9223372036854775808, 2 ** 53, 10 ** 19 // 10, 1e308, -1e308,
    0.5, "", "x", "9999999999999999999", "2026-03-09", b"\x00\xff", "\U0001F6CF", "y" * 3000, 253402300800000,
    -62135596800000, 1e19,
]


def mutate_loop_db(path, rng):
    """SQL updates of random cells to hostile values, rows removed or repeated; sometimes bytes."""
    db = sqlite3.connect(path)
    try:
        for _ in range(rng.randint(1, 4)):
            table = rng.choice(["Habits", "Repetitions", "Repetitions"])
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            ids = [row[0] for row in db.execute(f"SELECT id FROM {table}")]
            if not ids:
                continue
            op = rng.randrange(10)
            try:
                if op < 7:
                    column = rng.choice(columns)
                    db.execute(
                        f'UPDATE {table} SET "{column}" = ? WHERE id = ?', (rng.choice(SQL_VALUES), rng.choice(ids)))
                elif op == 7:
                    db.execute(f"DELETE FROM {table} WHERE id = ?", (rng.choice(ids),))
                elif op == 8:
                    row = db.execute(f"SELECT * FROM {table} WHERE id = ?", (rng.choice(ids),)).fetchone()
                    values = list(row)
                    values[0] = None
                    if table == "Repetitions":
                        values[2] = rng.choice([values[2] + 86400000, values[2] - 1, 0, -(2 ** 62), 2 ** 62])
                    db.execute(f"INSERT INTO {table} VALUES ({','.join('?' * len(values))})", values)
                else:
                    db.execute(f'ALTER TABLE {table} DROP COLUMN "{rng.choice(columns[1:])}"')
            except sqlite3.DatabaseError:
                pass
        db.commit()
    finally:
        db.close()
    if rng.random() < 0.15:
        with open(path, "rb") as f:
            data = f.read()
        for _ in range(rng.randint(1, 3)):
            data = bytes_op(data, rng)
        with open(path, "wb") as f:
            f.write(data)


class Format:
    """One reader: its seeds, how a mutated input is written, and the commands that read it."""

    def __init__(self, name, seeds, kind, command, show, mutators=TEXT_MUTATORS):
        self.name, self.seeds, self.kind, self.command, self.show, self.mutators = (
            name, seeds, kind, command, show, mutators)

    def make(self, rng, work):
        """Writes one mutated input under `work`; returns its path."""
        seed = rng.choice(self.seeds)
        if self.kind == "folder":
            target = os.path.join(work, "input")
            shutil.copytree(seed, target)
            files = sorted(os.path.join(d, f) for d, _, fs in os.walk(target) for f in fs)
            for _ in range(rng.randint(1, 2)):
                victim = rng.choice(files)
                if rng.random() < 0.05:
                    os.remove(victim)
                    files.remove(victim)
                    if not files:
                        break
                    continue
                with open(victim, "rb") as f:
                    data = f.read()
                with open(victim, "wb") as f:
                    f.write(mutate_text(data, rng, self.mutators))
            return target
        target = os.path.join(work, "input" + os.path.splitext(seed)[1])
        if self.kind == "sqlite":
            shutil.copy(seed, target)
            mutate_loop_db(target, rng)
        elif self.kind == "zip" and rng.random() < 0.6:
            with zipfile.ZipFile(seed) as archive:
                members = [(info, archive.read(info)) for info in archive.infolist()]
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
                for info, data in members:
                    if info.filename.endswith(".xml"):
                        data = mutate_text(data, rng, self.mutators)
                    archive.writestr(info.filename, data)
        else:
            with open(seed, "rb") as f:
                data = f.read()
            if self.kind == "zip":
                for _ in range(rng.randint(1, 3)):
                    data = bytes_op(data, rng)
            else:
                data = mutate_text(data, rng, self.mutators)
            with open(target, "wb") as f:
                f.write(data)
        return target


def formats(seeds):
    health = os.path.join(FIXTURES, "health")
    metrics = lambda path: ["metrics", "import", path]
    return [
        Format("metrics-csv", [f"{health}/metrics.csv", f"{health}/intervals.csv"], "file", metrics, SHOW_METRICS),
        Format("jsonl", [f"{health}/metrics.jsonl"], "file", metrics, SHOW_METRICS, JSON_MUTATORS),
        Format("health-auto-export", [f"{health}/health-auto-export.json"], "file", metrics, SHOW_METRICS,
               JSON_MUTATORS),
        Format("apple-xml", [f"{health}/export.xml"], "file", metrics, SHOW_METRICS),
        Format("apple-zip", [f"{health}/export.zip"], "zip", metrics, SHOW_METRICS),
        Format("loop-db", [seeds["loop-db"]], "sqlite", lambda p: ["import", "loop", p, "--apply"], SHOW_HABITS),
        Format("loop-csv", [os.path.join(FIXTURES, "loop", "csv")], "folder",
               lambda p: ["import", "loop", p, "--apply"], SHOW_HABITS),
        Format("harsh", [os.path.join(FIXTURES, "harsh")], "folder", lambda p: ["import", "harsh", p, "--apply"],
               SHOW_HABITS),
        Format("export-json", [seeds["export-json"]], "file", lambda p: ["import", "json", p, "--apply"],
               SHOW_HABITS, JSON_MUTATORS),
        Format("quotes", [os.path.join(FIXTURES, "quotes", "seed-shape.json"),
                          os.path.join(ROOT, "Sources", "MorningProofCore", "default-quotes.json")], "file",
               lambda p: ["config", "set", "quotes.file", p],
               [["quote", "--at", "2026-03-09T07:00:00Z"], ["quote", "history"]], JSON_MUTATORS),
    ]


def run(binary, args, db, timeout, cwd):
    """One command: (exit code or -signal, or None after the timeout; stderr's tail)."""
    env = dict(os.environ, MORNINGPROOF_NOW=NOW, MORNINGPROOF_DB=db, NO_COLOR="1", TZ="UTC")
    try:
        done = subprocess.run(
            [binary] + args, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, done.stderr[-2000:].decode("utf-8", "replace")


def verdict(code, stderr):
    if code is None:
        return "hang"
    if code < 0:
        return f"crash (signal {-code})"
    if "Fatal error" in stderr:
        return "crash (Fatal error)"
    if code not in ALLOWED:
        return f"exit {code}, not in the list"
    return None


def make_seeds(binary, scratch, timeout):
    """The seeds that are built, not stored: Loop's backup from its SQL, and our own JSON export."""
    loop_db = os.path.join(scratch, "loop-backup.db")
    with open(os.path.join(FIXTURES, "loop", "backup.sql")) as f:
        script = f.read()
    db = sqlite3.connect(loop_db)
    db.executescript(script)
    db.close()
    source = os.path.join(scratch, "export-source.sqlite")
    export = os.path.join(scratch, "export.json")
    for args in (["import", "loop", loop_db, "--apply"], ["import", "harsh", os.path.join(FIXTURES, "harsh"), "--apply"],
                 ["export", "--out", export]):
        code, stderr = run(binary, args, source, timeout, scratch)
        if code != 0:
            sys.exit(f"fuzz: cannot make the seeds: morningproof {' '.join(args)} exited {code}: {stderr}")
    return {"loop-db": loop_db, "export-json": export}


def make_template(binary, scratch, timeout):
    """A small database every input starts from: habits of each kind, so that goals are judged."""
    template = os.path.join(scratch, "template.sqlite")
    for args in (["habit", "add", "Walk", "--metric", "steps", "--at-least", "8000"],
                 ["habit", "add", "Sleep", "--metric", "sleep", "--at-least", "420"], ["habit", "add", "Meditate"],
                 ["done", "Meditate"]):
        code, stderr = run(binary, args, template, timeout, scratch)
        if code != 0:
            sys.exit(f"fuzz: cannot make the template database: morningproof {' '.join(args)}: {stderr}")
    return template


def one(binary, fmt, index, seed, template, scratch, timeout):
    """Makes input `index` of `fmt` and runs it; returns the reader's exit code and a finding (dict) or None."""
    rng = random.Random(int(hashlib.sha256(f"{seed}:{fmt.name}:{index}".encode()).hexdigest()[:16], 16))
    work = tempfile.mkdtemp(prefix=f"{fmt.name}-{index}-", dir=scratch)
    try:
        try:
            path = fmt.make(rng, work)
        except (OSError, sqlite3.Error, zipfile.BadZipFile) as error:
            # A mutation this script could not apply (a seed it could not rewrite): no input, no run.
            print(f"fuzz: {fmt.name}: input {index} not made: {error}", file=sys.stderr)
            shutil.rmtree(work, ignore_errors=True)
            return "not made", None
        db = os.path.join(work, "db.sqlite")
        shutil.copy(template, db)
        commands = [fmt.command(path)] + [show for show in fmt.show]
        first = None
        for number, args in enumerate(commands):
            code, stderr = run(binary, args, db, timeout, work)
            first = code if number == 0 else first
            problem = verdict(code, stderr)
            if problem:
                return first, {"format": fmt.name, "index": index, "problem": problem, "args": args,
                               "stderr": stderr, "input": path, "work": work}
            if number == 0 and code != 0:
                break
        shutil.rmtree(work, ignore_errors=True)
        return first, None
    except Exception:
        shutil.rmtree(work, ignore_errors=True)
        raise


def keep(finding, findings_dir):
    """Copies a finding's input beside a note of the command, its problem and its stderr."""
    folder = os.path.join(findings_dir, finding["format"])
    os.makedirs(folder, exist_ok=True)
    source = finding["input"]
    name = f"input-{finding['index']}" + ("" if os.path.isdir(source) else os.path.splitext(source)[1])
    target = os.path.join(folder, name)
    if os.path.isdir(target):
        shutil.rmtree(target)
    (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, target)
    args = [a if a != source else target for a in finding["args"]]
    with open(target + ".txt", "w") as f:
        f.write(f"{finding['problem']}\nMORNINGPROOF_NOW={NOW} morningproof {' '.join(args)}\n{finding['stderr']}\n")
    shutil.rmtree(finding["work"], ignore_errors=True)
    return target


def main():
    parser = argparse.ArgumentParser(prog="scripts/fuzz")
    parser.add_argument("--inputs", type=int, default=200, help="inputs per format (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the mutations (default 1)")
    parser.add_argument("--timeout", type=float, default=20, help="seconds before a run is a hang (default 20)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "morningproof"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build-fuzz", "findings"))
    parser.add_argument("formats", nargs="*", help="formats to fuzz (default: all)")
    options = parser.parse_args()
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"fuzz: {options.binary} is not built (scripts/build)")
    scratch = tempfile.mkdtemp(prefix="morningproof-fuzz-")
    try:
        seeds = make_seeds(options.binary, scratch, options.timeout)
        template = make_template(options.binary, scratch, options.timeout)
        chosen = [f for f in formats(seeds) if not options.formats or f.name in options.formats]
        unknown = set(options.formats) - {f.name for f in chosen}
        if unknown:
            sys.exit(f"fuzz: no format {', '.join(sorted(unknown))}; formats: "
                     + " ".join(f.name for f in formats(seeds)))
        total_findings = 0
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
            for fmt in chosen:
                began = time.monotonic()
                futures = [pool.submit(one, options.binary, fmt, i, options.seed, template, scratch, options.timeout)
                           for i in range(options.inputs)]
                results = [f.result() for f in futures]
                findings = [finding for _, finding in results if finding]
                exits = {}
                for code, _ in results:
                    exits[code] = exits.get(code, 0) + 1
                kinds = {}
                for finding in findings:
                    kinds[finding["problem"]] = kinds.get(finding["problem"], 0) + 1
                    print(f"fuzz: {fmt.name}: {finding['problem']}: {keep(finding, options.out)} "
                          f"(morningproof {' '.join(finding['args'][:2])})", flush=True)
                total_findings += len(findings)
                summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no crash, hang or bad exit"
                read = " ".join(f"{'hang' if c is None else c}:{n}" for c, n in sorted(exits.items(), key=str))
                print(f"fuzz: {fmt.name}: {options.inputs} inputs in {time.monotonic() - began:.1f} s "
                      f"(the reader's exits {read}): {summary}", flush=True)
        print(f"fuzz: {len(chosen)} formats x {options.inputs} inputs (seed {options.seed}) in "
              f"{time.monotonic() - started:.1f} s: {total_findings} findings"
              + (f", kept under {options.out}" if total_findings else ""))
        return 1 if total_findings else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
