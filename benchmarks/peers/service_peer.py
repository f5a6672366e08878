#!/usr/bin/python3
"""Peer for the service suite: the smallest program that does the service's cycle.

It owns org.shieldbridge.ShieldBridge on the bus at ADDRESS and exports
Shield(s) -> u and the signal Dispatched(s) at /org/shieldbridge/ShieldBridge1,
as `shieldbridge serve` does. Shield posts one notification with a default
action (replacing the last one), and an ActionInvoked from the notification
server's current owner for a notification it posted spawns PROGRAM (reaped by
GLib), logs a line on stderr and emits Dispatched with a JSON record.

What it leaves out, and the service does: the config file, rules, the ledger
read behind every shield and click, links built and resolved, localized text,
capabilities and presentation, activation tokens, double-click and in-flight
coalescing. It is a floor to put the service's figures in context.

Usage: service_peer.py ADDRESS PROGRAM   (Debian's python3 with python3-dbus and python3-gi)
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "org.shieldbridge.ShieldBridge1"
PATH = "/org/shieldbridge/ShieldBridge1"
NOTIFICATIONS = "org.freedesktop.Notifications"


class Peer(dbus.service.Object):
    def __init__(self, bus, program):
        super().__init__(bus, PATH)
        self.bus = bus
        self.program = program
        self.server = bus.get_object(NOTIFICATIONS, "/org/freedesktop/Notifications", introspect=False)
        self.owner = bus.get_name_owner(NOTIFICATIONS)
        self.shown = set()
        self.last = 0
        bus.add_signal_receiver(
            self.action_invoked, signal_name="ActionInvoked", dbus_interface=NOTIFICATIONS,
            path="/org/freedesktop/Notifications", sender_keyword="sender")
        bus.add_signal_receiver(
            self.closed, signal_name="NotificationClosed", dbus_interface=NOTIFICATIONS,
            path="/org/freedesktop/Notifications", sender_keyword="sender")

    @dbus.service.method(INTERFACE, in_signature="s", out_signature="u")
    def Shield(self, app):
        hints = dbus.Dictionary({"urgency": dbus.Byte(1)}, signature="sv")
        self.last = int(self.server.Notify(
            "ShieldBridge", dbus.UInt32(self.last), "", "%s is paused" % app,
            "Solve a short task to unlock 5 more minutes for %s." % app,
            dbus.Array(["default", "Solve a task"], signature="s"), hints, dbus.Int32(-1),
            dbus_interface=NOTIFICATIONS, timeout=2))
        self.shown.add(self.last)
        return self.last

    @dbus.service.signal(INTERFACE, signature="s")
    def Dispatched(self, record):
        pass

    def closed(self, notification, reason, sender=None):
        if sender == self.owner:
            self.shown.discard(int(notification))

    def action_invoked(self, notification, key, sender=None):
        if sender != self.owner or int(notification) not in self.shown or key != "default":
            return
        pid, _, _, _ = GLib.spawn_async(
            [self.program], flags=GLib.SpawnFlags.DO_NOT_REAP_CHILD | GLib.SpawnFlags.SEARCH_PATH)
        GLib.child_watch_add(GLib.PRIORITY_DEFAULT, pid, lambda pid, status: GLib.spawn_close_pid(pid))
        record = {"action": "puzzle", "id": int(notification), "outcome": "handler", "detail": self.program}
        sys.stderr.write("dispatched puzzle: handler (%s)\n" % self.program)
        self.Dispatched(json.dumps(record, separators=(",", ":")))


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: service_peer.py ADDRESS PROGRAM\n")
        return 64
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(sys.argv[1])
    peer = Peer(bus, sys.argv[2])
    name = dbus.service.BusName("org.shieldbridge.ShieldBridge", bus, do_not_queue=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, loop.quit)
    loop.run()
    del name, peer
    return 0


if __name__ == "__main__":
    sys.exit(main())
