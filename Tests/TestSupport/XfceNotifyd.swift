public import DBus
import Foundation
import Spawn
import Synchronization

/// xfce4-notifyd, Xfce's notification server, as a real server for the tests:
/// started directly (not D-Bus activated) on a given bus and X display.
///
/// It needs neither a window manager nor `xfconfd`: without the settings
/// daemon on the bus it runs with its built-in defaults, and a click on its
/// bubble reaches it under a bare Xvfb. Accessibility and GSettings are kept
/// off the private bus (`NO_AT_BRIDGE`, the memory backend), so that it asks
/// for no service that is not there.
///
/// What version 0.7.3 (Debian 12) does, as `docs/reference/notification-servers.md`
/// records: every action with a label is a button, and a click on a button
/// sends `ActionInvoked(key)` then `NotificationClosed(2)`; a click anywhere
/// else on the bubble sends `NotificationClosed(2)` alone, also when the
/// notification has a `default` action. Both signals are broadcast.
///
/// Every wait is bounded and waits for the state itself (the bus name's
/// owner, the bubble's window); a missing xfce4-notifyd or xdotool is an
/// error that names the package, never a skipped test.
public final class XfceNotifyd: Sendable {
  /// Where Debian installs the server; it has no command on `PATH`.
  public static let executable = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"

  /// The environment the server and xdotool run with.
  public let environment: [String: String]
  private let process: Mutex<BackgroundProcess?>
  private let watcher: Connection
  private let tracker: NameOwnerTracker

  /// A bubble: one notification's window, with its size once it settled.
  public struct Bubble: Sendable, Hashable {
    /// The X window id, as xdotool prints it.
    public var window: String
    public var width: Int
    public var height: Int
  }

  /// Starts xfce4-notifyd on `bus` and `display` and returns when it owns `org.freedesktop.Notifications`.
  ///
  /// - Parameters:
  ///   - environment: The desktop's environment (its `DISPLAY`, private `HOME` and runtime folder);
  ///     the bus address is taken from `bus`.
  ///   - timeout: How long it may take to own the name; generous, for a busy machine.
  /// - Throws: ``DesktopError`` when xfce4-notifyd or xdotool is missing or the server does not start.
  public init(
    bus: BusDaemon, environment: [String: String], timeout: Duration = .seconds(20)
  ) async throws {
    guard FileManager.default.isExecutableFile(atPath: XfceNotifyd.executable) else {
      throw DesktopError(
        "\(XfceNotifyd.executable) is not installed: install the Debian package xfce4-notifyd ('make test' does)")
    }
    _ = try requiredTool("xdotool", package: "xdotool")
    var environment = environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    environment["NO_AT_BRIDGE"] = "1"
    environment["GSETTINGS_BACKEND"] = "memory"
    self.environment = environment
    watcher = try Connection(.address(bus.address))
    tracker = try await NameOwnerTracker.track(
      BusName("org.freedesktop.Notifications"), on: watcher)
    if let owner = tracker.owner {
      throw DesktopError("\(owner) already owns org.freedesktop.Notifications on this bus")
    }
    let started = try BackgroundProcess([XfceNotifyd.executable], environment: environment)
    process = Mutex(started)
    guard await tracker.waitForOwner(timeout: timeout) != nil else {
      let output = await started.finish(timeout: .milliseconds(100))
      throw DesktopError(
        "xfce4-notifyd did not take org.freedesktop.Notifications within \(timeout): \(output.error)")
    }
  }

  /// Starts xfce4-notifyd on a virtual desktop's bus and display (one made with `startDunst: false`).
  public convenience init(on desktop: VirtualDesktop, timeout: Duration = .seconds(20)) async throws {
    try await self.init(bus: desktop.bus, environment: desktop.environment, timeout: timeout)
  }

  deinit {
    // BackgroundProcess kills the server's whole process group when released.
    process.withLock { $0 = nil }
  }

  /// The unique bus name of the server while it runs.
  public var owner: BusName? { tracker.owner }

  /// The server's process id, while it runs.
  public var pid: Int32? { process.withLock { $0?.process.pid } }

  /// What the server printed on stderr so far (GTK's warnings, for a failure message).
  public var standardError: String { process.withLock { $0?.standardError ?? "" } }

  /// Stops the server (SIGTERM, then SIGKILL to its process group) and waits until it left the bus.
  public func stop(timeout: Duration = HangBound.wait) async throws {
    guard
      let running = process.withLock({ state in
        defer { state = nil }
        return state
      })
    else { return }
    running.process.signal(SIGTERM)
    _ = await running.finish(timeout: timeout)
    // Anything it started in its group goes with it.
    running.process.signalGroup(SIGKILL)
    _ = try await poll("xfce4-notifyd to leave the bus", timeout: timeout) {
      self.tracker.owner == nil ? true : nil
    }
  }

  /// The windows of the bubbles on screen now, as xdotool lists them.
  public func visibleBubbleWindows() async throws -> [String] {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    let result = try await onOwnThread {
      try Subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--class", "xfce4-notifyd"], environment: environment,
        timeout: .seconds(10))
    }
    // xdotool exits 1 when nothing matches.
    return result.output.split(separator: "\n").map(String.init)
  }

  /// Waits for a bubble that is not in `known` to be on screen with a settled size, and returns it.
  ///
  /// The size is read twice, 100 ms apart, and taken when both agree: GTK
  /// maps the window first and may size it again once the text is laid out.
  public func waitForBubble(excluding known: Set<String> = [], timeout: Duration = .seconds(20)) async throws
    -> Bubble
  {
    var last: Bubble?
    let what = "an xfce4-notifyd bubble on \(environment["DISPLAY"] ?? "?")"
    return try await poll(what, timeout: timeout, every: .milliseconds(100)) {
      guard let window = try await self.visibleBubbleWindows().first(where: { !known.contains($0) }),
        let bubble = try await self.geometry(of: window)
      else {
        last = nil
        return nil
      }
      defer { last = bubble }
      return bubble == last ? bubble : nil
    }
  }

  /// Waits until `bubble` is no longer on screen.
  public func waitUntilGone(_ bubble: Bubble, timeout: Duration = .seconds(20)) async throws {
    _ = try await poll("bubble \(bubble.window) to close", timeout: timeout, every: .milliseconds(50)) {
      try await self.visibleBubbleWindows().contains(bubble.window) ? nil : true
    }
  }

  /// Clicks the action button at `index` (0 is the leftmost) of a bubble showing `count` buttons.
  ///
  /// Version 0.7.3 packs the buttons at the right end of the bubble's
  /// bottom row, each as wide as the widest (at least 85 px, which short
  /// labels do not exceed), 7 px apart, 14 px from the edges. Only actions
  /// with a non-empty label get a button, `default` included.
  public func clickAction(_ index: Int, of count: Int, on bubble: Bubble) async throws {
    let fromRight = count - 1 - index
    let x = bubble.width - 14 - fromRight * (85 + 7) - 42
    let y = bubble.height - 30
    try await click(bubble, x: x, y: y)
  }

  /// Clicks the action button at `index` like ``clickAction(_:of:on:)`` and waits until the bubble has
  /// gone, which it does at once when the click lands; a bubble still there 10 s later did not get
  /// the click (seen once under stress), and is clicked again, three times at most.
  public func clickActionUntilGone(_ index: Int, of count: Int, on bubble: Bubble) async throws {
    for _ in 1..<3 {
      try await clickAction(index, of: count, on: bubble)
      if (try? await waitUntilGone(bubble, timeout: .seconds(10))) != nil { return }
    }
    try await clickAction(index, of: count, on: bubble)
    try await waitUntilGone(bubble, timeout: HangBound.wait)
  }

  /// Clicks the bubble's text, away from any button (its top left corner, on the summary).
  public func clickBody(of bubble: Bubble) async throws {
    try await click(bubble, x: 24, y: 18)
  }

  /// Moves the pointer to `x`, `y` in the bubble's window and clicks the left button.
  public func click(_ bubble: Bubble, x: Int, y: Int) async throws {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    let result = try await onOwnThread {
      try Subprocess.run(
        ["xdotool", "mousemove", "--window", bubble.window, String(x), String(y), "click", "1"],
        environment: environment, timeout: .seconds(10))
    }
    guard result.status == 0 else {
      throw DesktopError("xdotool could not click window \(bubble.window) at \(x),\(y): \(result.error)")
    }
  }

  /// The window's size, or `nil` once it is gone.
  private func geometry(of window: String) async throws -> Bubble? {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    let result = try await onOwnThread {
      try Subprocess.run(
        ["xdotool", "getwindowgeometry", "--shell", window], environment: environment, timeout: .seconds(10))
    }
    guard result.status == 0 else { return nil }
    var values: [String: Int] = [:]
    for line in result.output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
    }
    guard let width = values["WIDTH"], let height = values["HEIGHT"], width > 1, height > 1 else { return nil }
    return Bubble(window: window, width: width, height: height)
  }
}
