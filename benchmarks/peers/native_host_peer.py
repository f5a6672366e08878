#!/usr/bin/python3
"""Peer for the native-host benchmark: the plainest native-messaging host that does the job.

It reads frames from stdin (a 32-bit length in the machine's byte order, then
JSON), as the browsers' documentation shows a host in Python, and for every
`focus` message calls the service's SiteFocus(s site, u browserPid, b windowFocused) on the bus
and answers the state. What it leaves out, and `shieldbridge native-host`
does: a limit on the message length, UTF-8 and type checks, coalescing (every
focus message is a call), following the service's signals, the puzzle.

Usage: native_host_peer.py   (the bus from DBUS_SESSION_BUS_ADDRESS; Debian's python3 with python3-dbus)
"""
import json
import os
import struct
import sys

import dbus

INTERFACE = "org.shieldbridge.ShieldBridge1"
PATH = "/org/shieldbridge/ShieldBridge1"
SERVICE = "org.shieldbridge.ShieldBridge"


def main():
    bus = dbus.SessionBus()
    service = dbus.Interface(bus.get_object(SERVICE, PATH), INTERFACE)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    parent = os.getppid()
    while True:
        prefix = stdin.read(4)
        if len(prefix) < 4:
            return
        (length,) = struct.unpack("=I", prefix)
        message = json.loads(stdin.read(length))
        if message.get("type") == "focus":
            site = message.get("site") or ""
            focused = dbus.Boolean(message.get("focused", site != ""))
            state = json.loads(str(service.SiteFocus(site, dbus.UInt32(parent), focused)))
            reply = dict(type="state", **state)
        else:
            reply = {"type": "error", "message": "not handled"}
        body = json.dumps(reply, separators=(",", ":")).encode()
        stdout.write(struct.pack("=I", len(body)) + body)
        stdout.flush()


main()
