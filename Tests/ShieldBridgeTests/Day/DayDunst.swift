import DBus
import Foundation
import Spawn
import Synchronization
import TestSupport

/// dunst on an X display of a day's desk (i3's Xvfb, KWin's Xwayland), its
/// bubbles clicked as a person clicks them.
///
/// dunst draws no buttons: a middle click on a bubble's body is its way to
/// act (its default `mouse_middle_click = do_action, close_current`; a left
/// click only closes it, see Tests/Fixtures/dunstrc and docs/reference/notification-servers.md).
final class DayDunst: Sendable {
  /// The parts of a bubble whose click dunst acts on.
  static let shieldParts: [ShieldPart] = [.body]

  private let display: any XTaskDisplay
  /// dunst's and dunstctl's environment: the display and the session bus.
  private let environment: [String: String]
  private let process: Mutex<BackgroundProcess?>
  private let connection: Connection

  /// Starts dunst with `environment` (its X display, the session bus of `bus`) and returns once it
  /// owns `org.freedesktop.Notifications`.
  init(on display: any XTaskDisplay, bus: BusDaemon, environment: [String: String]) async throws {
    for tool in ["dunst", "dunstctl"] { _ = try requiredTool(tool, package: "dunst") }
    self.display = display
    self.environment = environment
    connection = try Connection(.address(bus.address))
    let tracker = try await NameOwnerTracker.track(BusName("org.freedesktop.Notifications"), on: connection)
    let started = try BackgroundProcess(
      ["dunst", "-config", VirtualDesktop.dunstConfiguration], environment: environment)
    process = Mutex(started)
    guard await tracker.waitForOwner(timeout: HangBound.wait) != nil else {
      let output = await started.finish(timeout: .milliseconds(100))
      connection.close()
      throw DesktopError("dunst did not take org.freedesktop.Notifications: \(output.error)")
    }
  }

  /// A middle click on the bubble for `.body`; dunst shows the newest notification on top, and the
  /// script clicks only while one is on screen.
  func click(_ part: ShieldPart, summary: String) async throws {
    guard part == .body else { throw DesktopError("dunst draws no buttons") }
    _ = try await poll("dunst's bubble (\(summary)) on screen") { try await self.displayed() == 1 ? true : nil }
    let bubble = try await poll("dunst's window") {
      let found = try await self.display.run(
        ["xdotool", "search", "--onlyvisible", "--class", "Dunst"], timeout: HangBound.wait)
      return found.output.split(separator: "\n").first.map(String.init)
    }
    try await display.xdotool(["mousemove", "--window", bubble, "20", "10", "click", "2"])
  }

  /// `dunstctl count displayed`: how many bubbles dunst shows.
  func displayed() async throws -> Int {
    let environment = ShieldBridgeTool.mergedEnvironment(environment)
    let count = try await onOwnThread {
      try Subprocess.run(["dunstctl", "count", "displayed"], environment: environment, timeout: .seconds(10))
    }
    return Int(count.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// Ends dunst.
  func stop() async {
    if let process = process.withLock({ state in
      defer { state = nil }
      return state
    }) {
      process.process.signal(SIGTERM)
      _ = await process.finish(timeout: .seconds(5))
    }
    connection.close()
  }
}
