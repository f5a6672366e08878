import DBus
import Desktop
import Foundation
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

  static func focusAndHide(chroot: Trixie?) async throws {
    let bus = try BusDaemon()
    let session = try await KWinWaylandSession(sessionBus: bus.address, chroot: chroot)
    try await KWinReady.wait(on: bus)
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
