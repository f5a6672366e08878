import DBus
import Desktop
import Foundation
import Spawn
import TestSupport
import Testing

/// The KWin backend under `kwin_wayland --virtual` (KWin as the Wayland compositor), with X clients on its Xwayland:
/// this machine's KWin 5.27, and Debian 13's KWin 6 in a chroot (its script's KWin 6 half).
@Suite("KWin on Wayland (kwin_wayland --virtual, Xwayland clients): the same script reports focus and hides")
struct KWinWaylandTests {
  @Test("Chosen for a Wayland session without the X11 backend beside it; focus, hide, activation again")
  func focusAndHide() async throws {
    try await Self.focusAndHide(chroot: nil)
  }

  @Test("KWin 6 (Debian 13 in a chroot): the script calls back with the active window; hide, close")
  func focusAndHideOnKWin6() async throws {
    let trixie = try await Trixie.shared()
    let version = try await trixie.run(["kwin_wayland", "--version"])
    #expect(version.hasPrefix("kwin 6."), "\(version)")
    try await Self.focusAndHide(chroot: trixie)
  }

  @Test("KWin 6: a foreign process calling the script's callbacks 16 times is refused; focus goes on, nothing hidden")
  func foreignCallersOnKWin6() async throws {
    let gjs = try requiredTool("gjs", package: "gjs")
    let trixie = try await Trixie.shared()
    let bus = try BusDaemon()
    let session = try await KWinWaylandSession(sessionBus: bus.address, chroot: trixie)
    try await KWinReady.wait(on: bus)
    let alpha = try await session.launchXterm(windowClass: "Alpha")
    let beta = try await session.launchXterm(windowClass: "Beta")
    let desktop = try KWinDesktop(busAddress: bus.address, runtimeFolder: session.home.path)
    defer { desktop.stop() }
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(600)))
    defer { task.cancel() }
    try await session.checked(["xdotool", "windowactivate", alpha.hexWindow])
    _ = try await log.first(
      "focus on Alpha", timeout: .seconds(20), where: KWinDesktopTests.isFocus(of: "Alpha", pid: alpha.pid))

    // A process of the session that is not KWin: it claims a focus 16 times, lists windows
    // and says a hide was done, each on a connection of its own, as the script's callbacks do.
    let folder = try TemporaryDirectory()
    let script = folder.file("foreign.js")
    try #"""
    const {Gio, GLib} = imports.gi;
    const [address, service] = ARGV;
    function call(method, parameters) {
        const connection = Gio.DBusConnection.new_for_address_sync(address,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            null, null);
        try {
            connection.call_sync(service, '/org/shieldbridge/KWin', 'org.shieldbridge.KWinScript1', method,
                parameters, null, Gio.DBusCallFlags.NONE, 20000, null);
            return method + ' served';
        } catch (error) {
            return method + ' ' + (Gio.DBusError.get_remote_error(error) || String(error));
        }
    }
    for (let i = 0; i < 16; i++)
        print(call('Activated', new GLib.Variant('(sssis)', ['Spoofed', 'spoofed', '', 1, '{0}'])));
    print(call('Windows', new GLib.Variant('(ss)', ['1', '[]'])));
    print(call('Done', new GLib.Variant('(si)', ['1', 1])));
    """#.write(toFile: script, atomically: true, encoding: .utf8)
    let foreign = try await onOwnThread {
      try Subprocess.run([gjs, script, bus.address, desktop.callbackName], timeout: HangBound.wait)
    }
    let refused = "org.freedesktop.DBus.Error.AccessDenied"
    let expected = Array(repeating: "Activated \(refused)", count: 16) + ["Windows \(refused)", "Done \(refused)"]
    #expect(foreign.output.split(separator: "\n").map(String.init) == expected, "\(foreign.output)\(foreign.error)")
    #expect(
      !log.events.contains { if case .focus(let window?) = $0 { window.app.windowClass == "Spoofed" } else { false } })
    // The script goes on reporting: focus follows the person.
    let mark = log.count
    try await session.checked(["xdotool", "windowactivate", beta.hexWindow])
    _ = try await log.first("focus on Beta", after: mark, where: KWinDesktopTests.isFocus(of: "Beta", pid: beta.pid))
    #expect(try await session.windowState(beta.window) == "Normal")
    #expect(try await session.windowState(alpha.window) == "Normal")
  }

  static func focusAndHide(chroot: Trixie?) async throws {
    let bus = try BusDaemon()
    let session = try await KWinWaylandSession(sessionBus: bus.address, chroot: chroot)
    try await KWinReady.wait(on: bus)
    try await KWinDesktopTests.expectTheDeclaredScriptingInterface(on: bus)
    let alpha = try await session.launchXterm(windowClass: "Alpha")
    let beta = try await session.launchXterm(windowClass: "Beta")
    let desktop = try #require(try DesktopChoice.auto.open(environment: session.environment) { _ in true })
    defer { desktop.stop() }
    #expect(desktop.kind == .kwin)
    // On Wayland no X display is watched beside KWin: idle and the screen are not seen, and it says so.
    #expect(desktop.limitations.contains { $0.contains("not visible") })
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(600)))
    defer { task.cancel() }

    try await session.checked(["xdotool", "windowactivate", alpha.hexWindow])
    _ = try await log.first(
      "focus on Alpha", timeout: .seconds(20), where: KWinDesktopTests.isFocus(of: "Alpha", pid: alpha.pid))
    try await session.checked(["xdotool", "windowactivate", beta.hexWindow])
    _ = try await log.first("focus on Beta", where: KWinDesktopTests.isFocus(of: "Beta", pid: beta.pid))
    #expect(try await desktop.hide(where: KWinDesktopTests.isClass("Beta")) == 1)
    _ = try await poll("Beta minimized") { try await session.windowState(beta.window) == "Iconic" ? true : nil }
    #expect(try await session.windowState(alpha.window) == "Normal")
    let mark = log.count
    try await session.checked(["xdotool", "windowactivate", beta.hexWindow])
    _ = try await log.first(
      "focus on Beta again", after: mark, where: KWinDesktopTests.isFocus(of: "Beta", pid: beta.pid))
    let pids = try await desktop.close(where: KWinDesktopTests.isClass("Alpha"))
    #expect(pids == [alpha.pid])
    #expect(await alpha.process.finish(timeout: .seconds(10)).termination != nil)
    #expect(!log.events.contains { if case .lost = $0 { true } else { false } })
  }
}
