#!/usr/bin/env python3
"""Peer for the ledger suite: the same grant (flock, read JSON, count, write a
temporary file, fsync, rename, fsync the directory) in plain Python, and the
same status read, so both are measured on the same disk in the same run."""
import fcntl, json, os, sys, tempfile, time

directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="ledger-peer-")
os.makedirs(directory, exist_ok=True)
path = os.path.join(directory, "ledger.json")
day = time.strftime("%Y-%m-%d")


def read():
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except FileNotFoundError:
        return {"version": 1, "days": []}


def grant(rule):
    with open(os.path.join(directory, "ledger.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ledger = read()
        days = {d["date"]: d["grants"] for d in ledger["days"]}
        days.setdefault(day, {})[rule] = days.get(day, {}).get(rule, 0) + 1
        ledger["days"] = [{"date": d, "grants": dict(sorted(g.items()))} for d, g in sorted(days.items())]
        temporary = "%s.tmp-%d" % (path, os.getpid())
        with open(temporary, "wb") as f:
            f.write(json.dumps(ledger, separators=(",", ":")).encode() + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.rename(temporary, path)
        descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        os.fsync(descriptor)
        os.close(descriptor)


def samples(count, body):
    results = []
    for _ in range(count):
        start = time.perf_counter_ns()
        body()
        results.append(time.perf_counter_ns() - start)
    return sorted(results)


def quantile(values, q):
    return values[min(len(values) - 1, max(0, round((len(values) - 1) * q)))]


for index in range(20):
    grant("rule-%d" % index)
grants = samples(1000, lambda: grant("social"))
reads = samples(2000, read)
for name, values in (("record grant", grants), ("status", reads)):
    for label, q in (("p50", 0.5), ("p99", 0.99)):
        print("ledger-peer\t%s %s\t%.2f us\tpython %s" % (name, label, quantile(values, q) / 1000, sys.version.split()[0]))
