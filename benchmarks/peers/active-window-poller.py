#!/usr/bin/python3
"""The peer of the meter's wake-up figure: ActivityWatch's way of metering the focused window.

Usage: DISPLAY=:N /usr/bin/python3 benchmarks/peers/active-window-poller.py [INTERVAL]

ActivityWatch's X11 window watcher (aw-watcher-window) asks the X server
for `_NET_ACTIVE_WINDOW` on the root window, and the active window's
`WM_CLASS`, once every INTERVAL seconds (1 by default, its default
`poll_time`), whether anything changed or not. This does the same with
python-xlib (Debian's python3-xlib, hence /usr/bin/python3) and prints one
line each time the focused window's class changes, as a meter would count
it; it never reads a window's title. It runs until it is terminated.
"""
import signal
import sys
import time

from Xlib import X, display, error


def active_class(connection, root, active_atom):
    """The class of the focused window, or None when there is none (or it vanished meanwhile)."""
    reply = root.get_full_property(active_atom, X.AnyPropertyType)
    if reply is None or not reply.value or reply.value[0] == 0:
        return None
    try:
        window = connection.create_resource_object("window", reply.value[0])
        names = window.get_wm_class()
    except (error.BadWindow, error.BadValue):
        return None
    return names[1] if names else None


def main():
    interval = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    connection = display.Display()
    root = connection.screen().root
    active_atom = connection.intern_atom("_NET_ACTIVE_WINDOW")
    last = object()
    while True:
        current = active_class(connection, root, active_atom)
        if current != last:
            print(f"{time.monotonic():.3f}\t{current}", flush=True)
            last = current
        time.sleep(interval)


if __name__ == "__main__":
    main()
