#!/usr/bin/env python3
"""Peer for the report suite: the same history.json read with Python's json
module (C accelerated) and the same 7-day figures per rule (seconds, limit,
apps, the week before for the change), as a script would compute them."""
import datetime, json, sys, time

path = sys.argv[1]
start = time.perf_counter()
cpu = time.process_time()
with open(path, "rb") as f:
    history = json.loads(f.read())
days = {d["date"]: d["rules"] for d in history["days"]}
today = max(days)
end = datetime.date.fromisoformat(today)
week = [(end - datetime.timedelta(days=i)).isoformat() for i in range(6, -1, -1)]
before = [(end - datetime.timedelta(days=i)).isoformat() for i in range(13, 6, -1)]
rules = sorted({name for d in days.values() for name in d})
report = []
for rule in rules:
    total = sum(days.get(d, {}).get(rule, {}).get("usedSeconds", 0) for d in week)
    previous = sum(days.get(d, {}).get(rule, {}).get("usedSeconds", 0) for d in before)
    apps = {}
    for d in week:
        for app, seconds in days.get(d, {}).get(rule, {}).get("apps", {}).items():
            apps[app] = apps.get(app, 0) + seconds
    report.append((rule, total, total // 7 - previous // 7, max(apps.items(), key=lambda a: a[1])[0] if apps else None))
json.dumps(report)
elapsed = (time.perf_counter() - start) * 1000
print("report\tpeer: python3 json + 7-day figures (in process)\t%.1f ms\tCPU %.1f ms" % (elapsed, (time.process_time() - cpu) * 1000))
