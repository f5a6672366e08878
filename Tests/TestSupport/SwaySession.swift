import Foundation
import Synchronization

/// A headless sway of a test's own, run as an unprivileged user (sway refuses root), and foot windows on it.
///
/// The user `shieldbridge-sway` is created when missing (`useradd -m`); its
/// runtime folder is a private temporary one, so sessions do not meet.
/// Releasing the session stops its clients, then sway.
public final class SwaySession: Sendable {
  public static let user = "shieldbridge-sway"

  public let runtime: TemporaryDirectory
  /// sway's IPC socket, `sway-ipc.UID.PID.sock` in the runtime folder.
  public let socket: String
  public let waylandDisplay: String
  private let sway: BackgroundProcess
  /// This sway's place among the desktops running at once.
  private let slot: DesktopSlot
  private let clients = Mutex<[BackgroundProcess]>([])

  public init() async throws {
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
    try "output HEADLESS-1 resolution 1024x768\nfocus_follows_mouse no\n".write(
      toFile: configuration, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.ownerAccountName: Self.user, .posixPermissions: 0o600], ofItemAtPath: configuration)
    sway = try BackgroundProcess([
      "runuser", "-u", Self.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/home/\(Self.user)",
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
  }

  deinit {
    for client in clients.withLock({ $0 }) { client.process.signalGroup(SIGTERM) }
    clients.withLock { $0.removeAll() }
    sway.process.signalGroup(SIGTERM)
    _ = sway.process.wait(timeout: .seconds(5))
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
    let tree = try JSONSerialization.jsonObject(with: Data(try await swaymsg(["-t", "get_tree"]).utf8))
    var found: [String] = []
    func walk(_ node: Any, workspace: String?) {
      guard let node = node as? [String: Any] else { return }
      var workspace = workspace
      if node["type"] as? String == "workspace" { workspace = node["name"] as? String }
      if node["app_id"] as? String == appID { found.append(workspace ?? "?") }
      for key in ["nodes", "floating_nodes"] {
        for child in node[key] as? [Any] ?? [] { walk(child, workspace: workspace) }
      }
    }
    walk(tree, workspace: nil)
    return found
  }

  /// Starts `foot -a APPID -e sleep 600` as the session's user and waits until sway shows its window.
  public func launchFoot(appID: String) async throws -> BackgroundProcess {
    let before = try await workspaces(ofAppID: appID).count
    let foot = try BackgroundProcess([
      "runuser", "-u", Self.user, "--", "env", "-i", "PATH=/usr/bin:/bin", "HOME=/home/\(Self.user)",
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

/// Runs `arguments` to their end (killed after 10 s) and returns how they ended and what they printed.
private func runToEnd(_ arguments: [String]) async throws -> BackgroundProcess.Finished {
  await (try BackgroundProcess(arguments)).finish(timeout: .seconds(10))
}
