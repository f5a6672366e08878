import Foundation
import Spawn
import Synchronization

/// A headless sway of a test's own, run as an unprivileged user (sway refuses root), and foot windows on it.
///
/// The user `shieldbridge-sway` is created when missing (`useradd -m`); its
/// runtime folder is a private temporary one, so sessions do not meet.
/// Releasing the session stops its clients, then sway.
///
/// Its configuration has the key bindings a person moves with
/// (``keyBindings``); ``press(_:)`` presses them on a virtual keyboard
/// (`wtype`), which sway takes from clients as from any keyboard.
public final class SwaySession: Sendable {
  public static let user = "shieldbridge-sway"
  /// The test run's mark for a command started with `env -i` as the user, so that
  /// `scripts/check-leftovers` sees what sway and its clients leave.
  private static var testRunMark: [String] { ShieldBridgeTool.testRunMark.map { "\($0)=\($1)" } }

  public let runtime: TemporaryDirectory
  /// sway's IPC socket, `sway-ipc.UID.PID.sock` in the runtime folder.
  public let socket: String
  public let waylandDisplay: String
  /// Xwayland's display (`:N`), when the session was started with it.
  public let xDisplay: String?
  private let sway: BackgroundProcess
  /// This sway's place among the desktops running at once.
  private let slot: DesktopSlot
  private let clients = Mutex<[BackgroundProcess]>([])

  /// The bindings in the session's configuration, as a person's sway config has them.
  public static let keyBindings = [
    "bindsym Mod1+Tab focus next", "bindsym Mod1+Shift+Tab focus prev", "bindsym Mod4+minus scratchpad show",
    "bindsym Mod4+Shift+space floating toggle",
  ]
  /// The size of the headless output.
  public static let outputSize = (width: UInt32(1024), height: UInt32(768))

  /// Starts sway.
  ///
  /// - Parameter xwayland: Also run Xwayland (sway starts it on the first X
  ///   client) and let root's clients use it: the user allows them with
  ///   `xhost +si:localuser:root`, as a user lets a root program onto their
  ///   display (sway's Xwayland has no authority file to share).
  public init(xwayland: Bool = false) async throws {
    for (tool, package) in [
      ("sway", "sway"), ("swaymsg", "sway"), ("foot", "foot"), ("useradd", "passwd"), ("runuser", "util-linux"),
    ] {
      _ = try requiredTool(tool, package: package)
    }
    try await Self.createUser()
    await DesktopSlots.shared.take()
    slot = DesktopSlot()
    runtime = try TemporaryDirectory(prefix: "shieldbridge-sway")
    try FileManager.default.setAttributes(
      [.ownerAccountName: Self.user, .posixPermissions: 0o700], ofItemAtPath: runtime.path)
    let configuration = runtime.file("config")
    var lines = ["output HEADLESS-1 resolution 1024x768", "focus_follows_mouse no"] + Self.keyBindings
    let displayFile = runtime.file("x-display")
    if xwayland {
      _ = try requiredTool("Xwayland", package: "xwayland")
      _ = try requiredTool("xhost", package: "x11-xserver-utils")
      // sway gives its children Xwayland's DISPLAY; the test reads it from there.
      lines += ["xwayland enable", #"exec sh -c 'echo "$DISPLAY" > "$XDG_RUNTIME_DIR/x-display"'"#]
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.ownerAccountName: Self.user, .posixPermissions: 0o600], ofItemAtPath: configuration)
    sway = try BackgroundProcess(
      [
        "runuser", "-u", Self.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/home/\(Self.user)",
      ] + Self.testRunMark + [
        "XDG_RUNTIME_DIR=\(runtime.path)", "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1",
        "WLR_RENDERER=pixman", "sway", "-c", configuration,
      ])
    let folder = runtime.path
    let sway = self.sway
    do {
      socket = try await poll("sway's IPC socket in \(folder)", timeout: .seconds(20), every: .milliseconds(50)) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.map { folder + "/" + $0 }
      }
      waylandDisplay = try await poll("sway's Wayland socket in \(folder)", timeout: .seconds(20)) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
      }
    } catch {
      throw DesktopError("sway did not start: \(error): \(sway.standardError)")
    }
    guard xwayland else {
      xDisplay = nil
      return
    }
    let display = try await poll("sway's Xwayland display in \(displayFile)", timeout: .seconds(20)) {
      let text = (try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? ""
      let display = text.trimmingCharacters(in: .whitespacesAndNewlines)
      return display.hasPrefix(":") ? display : nil
    }
    // The first X client: sway starts Xwayland for it.
    let allowed = try await runToEnd(
      [
        "runuser", "-u", Self.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "DISPLAY=\(display)", "xhost",
        "+si:localuser:root",
      ], timeout: HangBound.wait)
    guard allowed.status == 0 else {
      throw DesktopError("xhost on sway's Xwayland \(display) failed: \(allowed.error) \(sway.standardError)")
    }
    xDisplay = display
  }

  deinit {
    for client in clients.withLock({ $0 }) { client.process.killTree() }
    clients.withLock { $0.removeAll() }
    sway.process.signalGroup(SIGTERM)
    _ = sway.process.wait(timeout: .seconds(5))
    Subprocess.killOrphans(startedWith: "XDG_RUNTIME_DIR=" + runtime.path)
  }

  private static func createUser() async throws {
    let exists = try await runToEnd(["id", "-u", user])
    if exists.status == 0 { return }
    let made = try await runToEnd(["useradd", "-m", user])
    // 9: another test made it meanwhile.
    guard made.status == 0 || made.status == 9 else { throw DesktopError("useradd \(user) failed: \(made.error)") }
  }

  /// `swaymsg -s SOCKET ARGUMENTS`, its output.
  @discardableResult
  public func swaymsg(_ arguments: [String]) async throws -> String {
    let result = try await runToEnd(["swaymsg", "-s", socket] + arguments)
    guard result.status == 0 else {
      throw DesktopError("swaymsg \(arguments) failed: \(result.output) \(result.error)")
    }
    return result.output
  }

  /// The workspace of every container whose `app_id` is `appID`.
  public func workspaces(ofAppID appID: String) async throws -> [String] {
    try await windows().filter { $0.appID == appID }.map(\.workspace)
  }

  /// A window in sway's tree: a Wayland surface (`app_id`) or an Xwayland window (`class`).
  public struct Window: Sendable, Equatable {
    /// sway's container id (`[con_id=…]`).
    public var id: Int
    public var appID: String?
    public var windowClass: String?
    public var workspace: String
    public var focused: Bool
    public var floating: Bool
    /// Whether it is on sway's scratchpad: hidden, until `scratchpad show`.
    public var isHidden: Bool { workspace == "__i3_scratch" }
  }

  /// Every window in sway's tree, with its workspace.
  public func windows() async throws -> [Window] {
    let tree = try JSONSerialization.jsonObject(with: Data(try await swaymsg(["-t", "get_tree"]).utf8))
    var found: [Window] = []
    func walk(_ node: Any, workspace: String?) {
      guard let node = node as? [String: Any] else { return }
      var workspace = workspace
      if node["type"] as? String == "workspace" { workspace = node["name"] as? String }
      let appID = node["app_id"] as? String
      let windowClass = (node["window_properties"] as? [String: Any])?["class"] as? String
      if let id = node["id"] as? Int, appID != nil || windowClass != nil {
        found.append(
          Window(
            id: id, appID: appID, windowClass: windowClass, workspace: workspace ?? "?",
            focused: node["focused"] as? Bool ?? false, floating: node["type"] as? String == "floating_con"))
      }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key] as? [Any] ?? [] { walk(child, workspace: workspace) }
      }
    }
    walk(tree, workspace: nil)
    return found
  }

  /// The window in front, if any.
  public func focusedWindow() async throws -> Window? {
    try await windows().first(where: \.focused)
  }

  /// Presses keys on a virtual keyboard, as `wtype ARGUMENTS` does (`-M alt -k Tab -m alt`: Alt+Tab; a text: typed).
  public func press(_ arguments: [String]) async throws {
    let wtype = try requiredTool("wtype", package: "wtype")
    let result = try await runToEnd(
      ["env", "WAYLAND_DISPLAY=\(runtime.file(waylandDisplay))", "XDG_RUNTIME_DIR=\(runtime.path)", wtype]
        + arguments)
    guard result.status == 0 else { throw DesktopError("wtype \(arguments) failed: \(result.output) \(result.error)") }
  }

  /// A pointer of the test's own on this sway, for clicks (``WaylandPointer``).
  public func pointer() throws -> WaylandPointer {
    try WaylandPointer(
      socketPath: runtime.file(waylandDisplay), width: Self.outputSize.width, height: Self.outputSize.height)
  }

  /// Starts `foot -a APPID -e sleep 600` as the session's user and waits until sway shows its window.
  public func launchFoot(appID: String) async throws -> BackgroundProcess {
    let before = try await workspaces(ofAppID: appID).count
    let foot = try BackgroundProcess(
      [
        "runuser", "-u", Self.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/home/\(Self.user)",
      ] + Self.testRunMark + [
        "XDG_RUNTIME_DIR=\(runtime.path)", "WAYLAND_DISPLAY=\(waylandDisplay)", "foot", "-a", appID, "-e", "sleep",
        "600",
      ])
    clients.withLock { $0.append(foot) }
    _ = try await poll("foot's window \(appID) on sway", timeout: .seconds(20), every: .milliseconds(50)) {
      try await self.workspaces(ofAppID: appID).count > before ? true : nil
    }
    return foot
  }
}

/// Runs `arguments` to their end (killed after `timeout`) and returns how they ended and what they printed.
private func runToEnd(_ arguments: [String], timeout: Duration = .seconds(10)) async throws
  -> BackgroundProcess.Finished
{
  await (try BackgroundProcess(arguments)).finish(timeout: timeout)
}
