import Foundation
public import Spawn
import Synchronization

/// KWin as a Wayland compositor of a test's own: `kwin_wayland --virtual` with Xwayland, on a given session bus.
///
/// Debian installs `kwin_wayland` with a file capability (`cap_sys_resource`)
/// that a container refuses to exec ("Operation not permitted"); a copy
/// of the binary carries no capability and starts. The copy keeps the name
/// `kwin_wayland`: KWin's own Qt platform plugin refuses to load into a
/// program whose path does not end with that name. Clients are X11 ones
/// through Xwayland (foot dies with SIGFPE on the virtual output here);
/// KWin starts Xwayland on a display it picks itself and tells it to the
/// program given on its command line, which writes it to a file.
///
/// With a ``Trixie`` tree, KWin is Debian 13's (KWin 6) run in that chroot as
/// it is (its binary's `cap_sys_nice` is allowed here); the bus, the folders,
/// Xwayland's socket and the xterm clients are on this machine, at paths the
/// chroot shares.
public final class KWinWaylandSession: Sendable {
  /// `HOME` and `XDG_RUNTIME_DIR` (mode 700), with the copy of `kwin_wayland`.
  public let home: TemporaryDirectory
  /// The session bus KWin owns `org.kde.KWin` on.
  public let sessionBus: String
  /// The Wayland socket's name, in ``home``.
  public let waylandDisplay = "wayland-sb"
  /// Xwayland's display, such as `:3`.
  public let display: String
  private let compositor: BackgroundProcess
  private let clients = Mutex<[BackgroundProcess]>([])
  private let slot: DesktopSlot
  /// The Debian 13 tree KWin runs in, or `nil` for this machine's KWin.
  public let chroot: Trixie?

  /// Starts KWin and returns once Xwayland accepts clients.
  ///
  /// - Throws: ``DesktopError`` when a tool is missing or KWin does not start within 30 s.
  /// - Parameter chroot: A Debian 13 tree to run its KWin in instead of this machine's.
  public init(sessionBus: String, chroot: Trixie? = nil) async throws {
    // The chroot has its own KWin and Xwayland.
    let original = chroot == nil ? try requiredTool("kwin_wayland", package: "kwin-wayland") : nil
    if chroot == nil { _ = try requiredTool("Xwayland", package: "xwayland") }
    self.chroot = chroot
    for (tool, package) in [("xdotool", "xdotool"), ("xprop", "x11-utils"), ("xterm", "xterm")] {
      _ = try requiredTool(tool, package: package)
    }
    await DesktopSlots.shared.take()
    slot = DesktopSlot()
    self.sessionBus = sessionBus
    home = try TemporaryDirectory(prefix: "shieldbridge-kwl")
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
    try FileManager.default.createDirectory(atPath: home.file("bin"), withIntermediateDirectories: true)
    let kwin: String
    if let original {
      kwin = home.file("bin/kwin_wayland")
      // Copied by cp, not here: a file this process held open for writing could be inherited by a
      // child another test spawns meanwhile, and exec of the copy would then fail with ETXTBSY.
      let copied = try Subprocess.run(["cp", original, kwin], timeout: .seconds(30))
      guard copied.status == 0 else { throw DesktopError("cannot copy \(original): \(copied.error)") }
    } else {
      kwin = "/usr/bin/kwin_wayland"
    }
    let displayFile = home.file("display")
    // The reporter stays as KWin's session program; KWin does not end the programs it started when
    // it is stopped, so the session ends it as it ends every program it left (`killOrphans`).
    try writeExecutable(
      home.file("tell-display"),
      "#!/bin/sh\n"
        + "printf '%s\\n' \"$DISPLAY\" > \(displayFile).new && mv \(displayFile).new \(displayFile)\n"
        + "exec sleep 100000\n")
    // Until Xwayland runs, no Xvfb of this process picks a number (see DesktopSlots.displayNumbers),
    // and the numbers below a free one from 50 up carry locks of this process, so that KWin's
    // search lands there and never on an Xvfb that another process started without a lock.
    await DesktopSlots.displayNumbers.take()
    let steering = Self.lockLowDisplays()
    defer {
      for path in steering { unlink(path) }
      DesktopSlots.displayNumbers.give()
    }
    let arguments = [
      kwin, "--virtual", "--xwayland", "--no-lockscreen", "--socket", waylandDisplay, "--width", "1024",
      "--height", "768", home.file("tell-display"),
    ]
    compositor = try BackgroundProcess(
      chroot?.command(arguments) ?? arguments,
      environment: [
        "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.path,
        "DBUS_SESSION_BUS_ADDRESS": sessionBus, "DISPLAY": "", "WAYLAND_DISPLAY": "",
      ])
    let compositor = self.compositor
    do {
      display = try await poll("kwin_wayland to start Xwayland", timeout: .seconds(30), every: .milliseconds(50)) {
        guard let text = try? String(contentsOfFile: displayFile, encoding: .utf8) else { return nil }
        let display = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return display.hasPrefix(":") ? display : nil
      }
    } catch {
      throw DesktopError(
        "kwin_wayland did not start Xwayland within 30 s: \(compositor.standardOutput) \(compositor.standardError)")
    }
  }

  /// Writes a lock file with this process's pid for every display number below the first one from
  /// 50 up that has neither a lock nor a socket; returns the files it made.
  ///
  /// KWin gives Xwayland the lowest number below 100 without a live lock and removes the
  /// socket it finds there; Xvfb with `-displayfd` writes no lock, so an Xvfb of any other
  /// process would lose its socket to it. Xvfb counts up from 0, so 50 and above are free here.
  private static func lockLowDisplays() -> [String] {
    let free = (50..<100).first { number in
      !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
    }
    guard let free else { return [] }
    return DesktopSlots.lockDisplays(0..<free)
  }

  deinit {
    clients.withLock { $0.removeAll() }
    compositor.process.terminate(grace: .seconds(2))
    // Its group too, for anything else KWin left; the display reporter (`sleep`) has left it.
    compositor.process.signalGroup(SIGKILL)
    Subprocess.killOrphans(startedWith: "XDG_RUNTIME_DIR=" + home.path)
  }

  /// The environment of this session's programs: Wayland, Xwayland, the bus, private folders.
  public var environment: [String: String] {
    [
      "DISPLAY": display, "WAYLAND_DISPLAY": waylandDisplay, "XDG_SESSION_TYPE": "wayland", "HOME": home.path,
      "XDG_RUNTIME_DIR": home.path, "XDG_CONFIG_HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": sessionBus,
      "I3SOCK": "", "SWAYSOCK": "",
    ]
  }

  /// Runs `arguments` in this session and returns its trimmed output.
  ///
  /// - Throws: ``DesktopError`` when it does not exit with 0.
  @discardableResult
  public func checked(_ arguments: [String]) async throws -> String {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    let result = try await onOwnThread {
      try Subprocess.run(arguments, environment: environment, timeout: .seconds(10))
    }
    guard result.status == 0 else {
      throw DesktopError("\(arguments.joined(separator: " ")) failed: \(result.error)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs `arguments` in this session on a thread of its own and returns how it ended.
  public func run(_ arguments: [String], timeout: Duration = HangBound.wait) async throws -> Subprocess.Result {
    let environment = ShieldBridgeTool.mergedEnvironment(self.environment)
    return try await onOwnThread { try Subprocess.run(arguments, environment: environment, timeout: timeout) }
  }

  /// `xdotool ARGUMENTS` on Xwayland; its trimmed output.
  ///
  /// - Throws: ``DesktopError`` when it does not exit with 0.
  @discardableResult
  public func xdotool(_ arguments: [String]) async throws -> String {
    try await checked(["xdotool"] + arguments)
  }

  /// Xwayland's root `_NET_ACTIVE_WINDOW` (KWin sets it for X clients), or `nil` when it names none.
  public func activeWindow() async throws -> UInt64? {
    let output = try await checked(["xprop", "-root", "_NET_ACTIVE_WINDOW"])
    guard let hex = output.split(separator: "#").last?.trimmingCharacters(in: .whitespaces),
      hex.hasPrefix("0x"), let value = UInt64(hex.dropFirst(2), radix: 16), value != 0
    else { return nil }
    return value
  }

  /// Starts `xterm -class NAME` on Xwayland and waits until KWin manages it (`WM_STATE` Normal).
  public func launchXterm(windowClass: String) async throws -> XClient {
    let process = try BackgroundProcess(
      ["xterm", "-class", windowClass, "-e", "sleep", "600"], environment: environment)
    clients.withLock { $0.append(process) }
    let pid = process.process.pid
    let window = try await poll(
      "an Xwayland window of class \(windowClass)", timeout: .seconds(20), every: .milliseconds(50)
    ) { () async throws -> UInt64? in
      let found = (try? await self.checked(["xdotool", "search", "--pid", String(pid), "--class", "^\(windowClass)$"]))
      for line in (found ?? "").split(separator: "\n") {
        guard let window = UInt64(line.trimmingCharacters(in: .whitespaces)) else { continue }
        if try await self.windowState(window) == "Normal" { return window }
      }
      return nil
    }
    return XClient(window: window, process: process)
  }

  /// `WM_STATE` of `window`: `Normal`, `Iconic`, `Withdrawn`, or `nil`.
  public func windowState(_ window: UInt64) async throws -> String? {
    let output = (try? await checked(["xprop", "-id", XClient.hex(window), "WM_STATE"])) ?? ""
    for state in ["Normal", "Iconic", "Withdrawn"] where output.contains("window state: \(state)") { return state }
    return nil
  }
}
