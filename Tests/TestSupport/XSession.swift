import Foundation
public import Spawn
import Synchronization

/// An X desktop of a test's own: Xvfb, optionally a window manager, and
/// client windows, with the command-line tools to drive them.
///
/// Each session has its own display (`-displayfd`), its own home and runtime
/// folder, and, under i3, its own IPC socket, so sessions run side by side.
/// Every wait is bounded and checks the state it needs (the manager's
/// `_NET_SUPPORTING_WM_CHECK`, the window's `WM_STATE`). Releasing the session
/// stops every process it started: clients first, then the manager, then the
/// server. A missing tool is an error naming its package, never a skip.
public final class XSession: Sendable {
  /// Which window manager runs on the display.
  public enum WindowManager: String, Sendable {
    /// No manager: windows map as their clients ask; nothing sets EWMH properties.
    case none
    /// openbox: EWMH alone (iconify, `_NET_ACTIVE_WINDOW`).
    case openbox
    /// i3: EWMH and the i3 IPC on ``XSession/i3Socket``.
    case i3
    /// KDE's `kwin_x11` (no compositing), on the session bus ``XSession/sessionBus``; owns `org.kde.KWin` there.
    case kwin
    /// Xfce's `xfwm4` (no compositing) with its default settings (`/usr/share/xfwm4/defaults`:
    /// Alt+Tab cycles the windows, minimized ones left out), served by `xfconfd`, which it needs and
    /// which the session starts on ``XSession/sessionBus`` first.
    case xfwm4
  }

  public let server: XvfbServer
  public let windowManager: WindowManager
  /// A private `HOME`, `XDG_RUNTIME_DIR` and `XDG_CONFIG_HOME` (mode 700).
  public let home: TemporaryDirectory
  /// i3's IPC socket (`ipc-socket` in its configuration); `nil` for other managers.
  public let i3Socket: String?
  /// The session bus the programs of this display use (KWin's), or `nil` for none.
  public let sessionBus: String?
  private let manager = Mutex<BackgroundProcess?>(nil)
  private let clients = Mutex<[BackgroundProcess]>([])

  /// The X display, such as `:12`.
  public var display: String { server.display }

  /// Starts Xvfb and `windowManager`, and returns once the manager has taken the display.
  ///
  /// - Throws: ``DesktopError`` when a tool is missing or the manager does not start within 15 s.
  /// - Parameter sessionBus: The session bus for the display's programs; KWin needs one.
  public init(windowManager: WindowManager = .none, sessionBus: String? = nil) async throws {
    for (tool, package) in [
      ("xdotool", "xdotool"), ("xprop", "x11-utils"), ("xwininfo", "x11-utils"), ("xset", "x11-xserver-utils"),
    ] {
      _ = try requiredTool(tool, package: package)
    }
    self.windowManager = windowManager
    self.sessionBus = sessionBus
    home = try TemporaryDirectory(prefix: "shieldbridge-x")
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
    server = try await XvfbServer()
    switch windowManager {
    case .none:
      i3Socket = nil
    case .openbox:
      _ = try requiredTool("openbox", package: "openbox")
      i3Socket = nil
      // openbox sets _NET_SUPPORTING_WM_CHECK before it manages windows; the startup
      // command runs once it does (a window mapped earlier is never managed).
      try startManager(["openbox", "--sm-disable", "--startup", "touch \(home.file("manager.ready"))"])
    case .i3:
      _ = try requiredTool("i3", package: "i3-wm")
      _ = try requiredTool("i3-msg", package: "i3-wm")
      let socket = home.file("i3.sock")
      i3Socket = socket
      // No bar, no wizard; focus moves only when a test asks, not with the pointer; `exec`
      // runs once i3 manages windows.
      let configuration =
        "ipc-socket \(socket)\nfocus_follows_mouse no\nmouse_warping none\nexec touch \(home.file("manager.ready"))\n"
      try configuration.write(toFile: home.file("i3.conf"), atomically: true, encoding: .utf8)
      try startManager(["i3", "-c", home.file("i3.conf")])
    case .kwin:
      i3Socket = nil
      guard sessionBus != nil else { throw DesktopError("kwin_x11 needs a session bus") }
      try startKWin()
      try await waitForManager("kwin_x11", restart: startKWin)
    case .xfwm4:
      i3Socket = nil
      _ = try requiredTool("xfwm4", package: "xfwm4")
      guard let sessionBus else { throw DesktopError("xfwm4 needs a session bus for its settings") }
      try await startXfconf(on: sessionBus)
      // No session manager to register with; GTK's accessibility bridge and GSettings kept off the bus.
      let start = {
        try self.startManager(
          ["xfwm4", "--compositor=off", "--sm-client-disable"],
          extra: ["NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory"])
      }
      try start()
      try await waitForManager("xfwm4", restart: start)
    }
    if windowManager == .openbox || windowManager == .i3 {
      let ready = home.file("manager.ready")
      do {
        _ = try await poll("\(windowManager) to start on \(server.display)", timeout: .seconds(15)) {
          FileManager.default.fileExists(atPath: ready) && (i3Socket.map(FileManager.default.fileExists) ?? true)
            ? true : nil
        }
        _ = try await poll(
          "\(windowManager) to take \(server.display)", timeout: .seconds(15), every: .milliseconds(50)
        ) {
          let result = try await self.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"])
          return result.output.contains("window id #") ? true : nil
        }
      } catch {
        let output = manager.withLock { $0.map { "\($0.standardOutput) \($0.standardError)" } } ?? ""
        throw DesktopError("\(windowManager) did not take \(server.display) within 15 s: \(output)")
      }
    }
  }

  /// Starts Xfce's settings daemon on `bus` (xfwm4 refuses to run without it) and waits until it
  /// owns `org.xfce.Xfconf`; it keeps its settings under this session's home.
  private func startXfconf(on bus: String) async throws {
    let xfconfd = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
    guard FileManager.default.isExecutableFile(atPath: xfconfd) else {
      throw DesktopError("\(xfconfd) is not installed: install the Debian package xfconf ('make test' does)")
    }
    let process = try BackgroundProcess([xfconfd], environment: environment)
    clients.withLock { $0.append(process) }
    do {
      _ = try await poll("xfconfd to own org.xfce.Xfconf", timeout: .seconds(30), every: .milliseconds(50)) {
        let owner = try await self.run([
          "dbus-send", "--bus=\(bus)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
          "org.freedesktop.DBus.NameHasOwner", "string:org.xfce.Xfconf",
        ])
        return owner.output.contains("boolean true") ? true : nil
      }
    } catch {
      throw DesktopError("\(error): xfconfd said \(process.standardError.suffix(2000))")
    }
  }

  /// Waits until `name`, the manager started, has taken the display (`_NET_SUPPORTING_WM_CHECK` on the root).
  ///
  /// A manager that ends before it took the display is started again by
  /// `restart`, twice at most: under load kwin_x11 has aborted at its start
  /// with "could not connect to display" while the same Xvfb served `xprop`.
  private func waitForManager(_ name: String, restart: () throws -> Void) async throws {
    var restarts = 0
    var earlier = ""
    do {
      _ = try await poll("\(name) to take \(server.display)", timeout: .seconds(30), every: .milliseconds(100)) {
        let result = try await self.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"])
        if result.output.contains("window id #") { return true }
        if restarts < 2, let ended = manager.withLock({ $0?.process.exitStatus }) {
          earlier += "\(name) ended (\(ended)) at its start: \(managerOutput.suffix(1000)); "
          restarts += 1
          try restart()
        }
        return nil
      }
    } catch {
      let probe = try? await run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"])
      let alive = server.process.process.exitStatus == nil ? "runs" : "has exited"
      let ended = manager.withLock { $0?.process.exitStatus }.map { "ended (\($0))" } ?? "runs"
      throw DesktopError(
        "\(name) did not take \(server.display) within 30 s: \(earlier)\(managerOutput.suffix(2000)); \(name) \(ended); "
          + "Xvfb \(alive); "
          + "xprop -root: \(probe.map { $0.output + $0.error } ?? "did not run")")
    }
  }

  /// Starts `kwin_x11` (again, after ``killWindowManager()``): it takes the display and `org.kde.KWin`.
  public func startKWin() throws {
    _ = try requiredTool("kwin_x11", package: "kwin-x11")
    let process = try BackgroundProcess(["kwin_x11"], environment: environment.merging(["KWIN_COMPOSE": "N"]) { $1 })
    manager.withLock { $0 = process }
  }

  /// What the window manager printed so far (for a test's failure message).
  public var managerOutput: String {
    manager.withLock { $0.map { "\($0.standardOutput) \($0.standardError)" } } ?? ""
  }

  private func startManager(_ arguments: [String], extra: [String: String] = [:]) throws {
    let process = try BackgroundProcess(arguments, environment: environment.merging(extra) { $1 })
    manager.withLock { $0 = process }
  }

  deinit {
    clients.withLock { $0.removeAll() }
    manager.withLock { state in
      state?.process.terminate(grace: .seconds(2))
      state = nil
    }
    Subprocess.killOrphans(startedWith: "XDG_RUNTIME_DIR=" + home.path)
  }

  /// The environment for programs on this display: no session bus, private folders.
  public var environment: [String: String] {
    [
      "DISPLAY": server.display, "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "XDG_CONFIG_HOME": home.path,
      "XDG_CACHE_HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": sessionBus ?? "", "I3SOCK": i3Socket ?? "",
      "SWAYSOCK": "",
      "WAYLAND_DISPLAY": "",
    ]
  }

  /// Runs `arguments` against this display on a thread of its own and returns how it ended.
  public func run(_ arguments: [String], timeout: Duration = HangBound.wait) async throws -> Subprocess.Result {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    return try await onOwnThread { try Subprocess.run(arguments, environment: environment, timeout: timeout) }
  }

  /// Runs `arguments` and returns its trimmed output.
  ///
  /// - Throws: ``DesktopError`` with its stderr when it does not exit with 0.
  @discardableResult
  public func checked(_ arguments: [String], timeout: Duration = HangBound.wait) async throws -> String {
    let result = try await run(arguments, timeout: timeout)
    guard result.status == 0 else {
      throw DesktopError(
        "\(arguments.joined(separator: " ")) failed (\(result.termination.map { "\($0)" } ?? "timed out")): "
          + result.error)
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `xdotool ARGUMENTS` on this display.
  @discardableResult
  public func xdotool(_ arguments: [String]) async throws -> String {
    try await checked(["xdotool"] + arguments)
  }

  /// `xprop ARGUMENTS` on this display.
  public func xprop(_ arguments: [String]) async throws -> String {
    try await checked(["xprop"] + arguments)
  }

  /// `xset ARGUMENTS` on this display.
  public func xset(_ arguments: [String]) async throws {
    try await checked(["xset"] + arguments)
  }

  /// `i3-msg -s SOCKET ARGUMENTS`: a command (or `-t TYPE`) sent to this session's i3.
  ///
  /// - Throws: ``DesktopError`` when the session does not run i3, or i3 refuses.
  @discardableResult
  public func i3msg(_ arguments: [String]) async throws -> String {
    guard let i3Socket else { throw DesktopError("this session runs \(windowManager), not i3") }
    return try await checked(["i3-msg", "-s", i3Socket] + arguments)
  }

  /// Starts `xterm -class NAME -e sleep 600` and waits until its window is mapped and, under a
  /// window manager, managed (`WM_STATE` Normal and listed in `_NET_CLIENT_LIST`).
  ///
  /// The xterm's `WM_CLASS` is instance `xterm`, class `windowClass`.
  public func launchXterm(windowClass: String, timeout: Duration = .seconds(20)) async throws -> XClient {
    _ = try requiredTool("xterm", package: "xterm")
    let process = try BackgroundProcess(
      ["xterm", "-class", windowClass, "-e", "sleep", "600"], environment: environment)
    clients.withLock { $0.append(process) }
    let window = try await waitForWindow(pid: process.process.pid, windowClass: windowClass, timeout: timeout)
    return XClient(window: window, process: process)
  }

  /// Waits until a window of `pid` with class `windowClass` is mapped (and managed, under a
  /// window manager); returns its id.
  public func waitForWindow(pid: Int32, windowClass: String, timeout: Duration = .seconds(20)) async throws
    -> UInt64
  {
    let manager = windowManager
    do {
      return try await poll(
        "a window of class \(windowClass) (pid \(pid)) on \(display)", timeout: timeout, every: .milliseconds(50)
      ) {
        let search = try await self.run([
          "xdotool", "search", "--all", "--pid", String(pid), "--class", "^\(windowClass)$",
        ])
        for line in search.output.split(separator: "\n") {
          guard let window = UInt64(line.trimmingCharacters(in: .whitespaces)) else { continue }
          if try await self.isReady(window, managed: manager != .none) { return window }
        }
        return nil
      }
    } catch let error as PollTimedOut {
      let output = clients.withLock { $0.last.map { $0.standardError } } ?? ""
      throw DesktopError("\(error): \(output)")
    }
  }

  /// Waits until the window manager manages `window` (its `WM_STATE` is Normal and it is in
  /// `_NET_CLIENT_LIST`), or without a manager until it is viewable.
  public func waitUntilManaged(_ window: UInt64, timeout: Duration = .seconds(20)) async throws {
    let managed = windowManager != .none
    _ = try await poll(
      "window \(XClient.hex(window)) to be managed on \(display)", timeout: timeout, every: .milliseconds(50)
    ) {
      try await self.isReady(window, managed: managed) ? true : nil
    }
  }

  private func isReady(_ window: UInt64, managed: Bool) async throws -> Bool {
    let id = XClient.hex(window)
    if !managed {
      let attributes = try await run(["xwininfo", "-id", id])
      return attributes.output.contains("IsViewable")
    }
    let state = try await run(["xprop", "-id", id, "WM_STATE"])
    guard state.output.contains("Normal") else { return false }
    let list = try await run(["xprop", "-root", "_NET_CLIENT_LIST"])
    return list.output.contains(id + ",") || list.output.hasSuffix(id + "\n") || list.output.hasSuffix(id)
  }

  /// The root window's `_NET_ACTIVE_WINDOW`, or `nil` when it names no window.
  public func activeWindow() async throws -> UInt64? {
    let output = try await xprop(["-root", "_NET_ACTIVE_WINDOW"])
    // xfwm4 writes two values ("0xc0000c, 0x0"); the first is the window.
    guard
      let hex = output.split(separator: "#").last?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces),
      hex.hasPrefix("0x"), let value = UInt64(hex.dropFirst(2), radix: 16), value != 0
    else { return nil }
    return value
  }

  /// `WM_STATE` of `window` as xprop prints its state: `Normal`, `Iconic`, `Withdrawn`, or `nil`.
  public func windowState(_ window: UInt64) async throws -> String? {
    let output = try await run(["xprop", "-id", XClient.hex(window), "WM_STATE"]).output
    for state in ["Normal", "Iconic", "Withdrawn"] where output.contains("window state: \(state)") {
      return state
    }
    return nil
  }

  /// Stops the window manager (SIGKILL, as a crash ends it) and waits until it has gone.
  public func killWindowManager() async {
    guard let process = manager.withLock({ $0 }) else { return }
    process.process.signalGroup(SIGKILL)
    _ = await process.finish(timeout: .seconds(5))
  }

  /// Shuts the X server down and waits until it has gone: every client loses its connection.
  public func stopServer() async {
    await server.shutDown()
  }
}

/// A client window started by an ``XSession``: its X window id and its process.
public struct XClient: Sendable {
  /// The client's top-level window (the one with `WM_CLASS`).
  public let window: UInt64
  public let process: BackgroundProcess

  /// The client's process id.
  public var pid: Int32 { process.process.pid }

  /// The window id as xprop and xdotool print it: `0x1a00022`.
  public var hexWindow: String { XClient.hex(window) }

  static func hex(_ window: UInt64) -> String { "0x" + String(window, radix: 16) }
}
