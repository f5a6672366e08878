#!/usr/bin/env python3
"""Peer of the localization benchmark: Python's gettext module on the same catalogs.

Loads every .mo file in MO_DIR (the PO catalogs compiled by msgfmt) and renders
the shield notification in German, as the Swift side does; prints the time it
took inside this process in nanoseconds (interpreter start and imports left out).
Usage: python_gettext.py MO_DIR
"""
import gettext
import os
import sys
import time

directory = sys.argv[1]
start = time.perf_counter_ns()
catalogs = {}
for name in sorted(os.listdir(directory)):
    if name.endswith(".mo"):
        with open(os.path.join(directory, name), "rb") as f:
            catalogs[name[:-3]] = gettext.GNUTranslations(f)
de = catalogs["de"]
texts = [
    de.gettext("{app} is paused").format(app="Firefox"),
    de.ngettext(
        "Solve a short task to unlock {minutes} more minute for {app}.",
        "Solve a short task to unlock {minutes} more minutes for {app}.",
        5,
    ).format(minutes=5, app="Firefox").replace("&", "&amp;").replace("<", "&lt;"),
    de.gettext("Solve a task"),
    de.gettext("Open {view}").format(view="direct"),
]
elapsed = time.perf_counter_ns() - start
assert len(catalogs) >= 4 and texts[0] == "Firefox ist pausiert", texts
print(elapsed)
