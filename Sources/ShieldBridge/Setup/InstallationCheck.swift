public import DBus
import Desktop
public import JSON
import Posix

/// What `setup` finds of the parts around the configuration: the service, the browsers' host, the extension.
///
/// Each finding says what it found and, when something is missing, the one
/// thing to do about it. Nothing is started or installed: the service is
/// asked for on the bus without activating it, the host manifests are
/// looked for where browsers read them, and the extension is known to
/// answer when a browser runs our host for it (`shieldbridge native-host`,
/// which the browser starts only for a loaded extension).
public struct InstallationCheck: Hashable, Sendable {
  /// The name of the host manifest browsers look for.
  public static let manifestName = "org.shieldbridge.shieldbridge.json"

  /// Whether a process owns the service's name on the bus; `nil` when there is no bus.
  public var serviceRuns: Bool?
  /// The host manifests found, as paths.
  public var hostManifests: [String]
  /// How many `shieldbridge native-host` processes the user runs: one per browser with the extension.
  public var runningHosts: Int

  public init(serviceRuns: Bool?, hostManifests: [String], runningHosts: Int) {
    self.serviceRuns = serviceRuns
    self.hostManifests = hostManifests
    self.runningHosts = runningHosts
  }

  /// Looks at this machine: the bus, the manifest folders of `environment`'s home, and the processes under `proc`.
  public static func run(bus: Connection.Bus, environment: [String: String], proc: String = "/proc") async
    -> InstallationCheck
  {
    InstallationCheck(
      serviceRuns: await serviceRuns(on: bus), hostManifests: hostManifests(environment: environment),
      runningHosts: runningHosts(proc: proc))
  }

  /// The lines `setup` prints: one per part, and what to do for each that is missing.
  public var lines: [String] {
    var lines: [String] = []
    switch serviceRuns {
    case true?:
      lines.append("The service runs: it reloads config.json by itself, so the rule counts from now on.")
    case false?:
      lines.append(
        "The service is not running. Start it, and at every login: systemctl --user enable --now shieldbridge "
          + "(docs/install.md).")
    case nil:
      lines.append(
        "No session bus was found, so the service cannot run in this session. Run setup again inside the desktop "
          + "session.")
    }
    if let manifest = hostManifests.first {
      lines.append("The browsers' host is installed (\(manifest)).")
    } else {
      lines.append(
        "The browsers' host is not installed, so sites are not counted. Install it: make install-user "
          + "(or scripts/install-native-host user) in the source tree (docs/websites.md).")
    }
    if runningHosts > 0 {
      lines.append(
        "The browser extension answers (\(runningHosts) \(runningHosts == 1 ? "browser" : "browsers")).")
    } else {
      lines.append(
        "No browser extension answers. Load it in Chromium or Firefox from integrations/webextension, "
          + "then keep the browser open (docs/websites.md).")
    }
    return lines
  }

  /// The lines `doctor` adds: `service:`, `browser host:` and `browser extension:`, each with what to do when missing.
  public var reportLines: [String] {
    let service: String =
      switch serviceRuns {
      case true?: "running"
      case false?: "not running (to do: systemctl --user enable --now shieldbridge)"
      case nil: "no session bus"
      }
    let host =
      hostManifests.first ?? "not installed (to do: make install-user, or scripts/install-native-host user)"
    let extensionLine =
      runningHosts > 0
      ? "answers (\(runningHosts) \(runningHosts == 1 ? "browser" : "browsers"))"
      : "no browser runs it (to do: load integrations/webextension in Chromium or Firefox)"
    return ["service: \(service)", "browser host: \(host)", "browser extension: \(extensionLine)"]
  }

  /// `{"service": true, "hostManifests": ["…"], "runningHosts": 1}`, `service` `null` without a bus.
  public var json: JSONValue {
    .object([
      ("service", serviceRuns.map { .bool($0) } ?? .null),
      ("hostManifests", .array(hostManifests.map { .string($0) })),
      ("runningHosts", .integer(Int64(runningHosts))),
    ])
  }

  /// Whether all three parts were found.
  public var isComplete: Bool { serviceRuns == true && !hostManifests.isEmpty && runningHosts > 0 }

  private static func serviceRuns(on bus: Connection.Bus) async -> Bool? {
    guard let connection = try? Connection(bus, timeout: .seconds(5)) else { return nil }
    guard let owner = try? await connection.nameOwner(ServiceNames.busName, timeout: .seconds(5)) else {
      return false
    }
    return owner.rawValue.isEmpty == false
  }

  /// The folders Chromium, Chrome and Firefox read host manifests from, the user's first.
  static func manifestFolders(environment: [String: String]) -> [String] {
    var folders: [String] = []
    if let home = environment["HOME"], home.hasPrefix("/") {
      let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
      folders += [
        config + "/chromium/NativeMessagingHosts", config + "/google-chrome/NativeMessagingHosts",
        home + "/.mozilla/native-messaging-hosts",
      ]
    }
    folders += [
      "/etc/chromium/native-messaging-hosts", "/etc/opt/chrome/native-messaging-hosts",
      "/usr/lib/mozilla/native-messaging-hosts", "/usr/lib64/mozilla/native-messaging-hosts",
    ]
    return folders
  }

  private static func hostManifests(environment: [String: String]) -> [String] {
    manifestFolders(environment: environment).map { $0 + "/" + manifestName }.filter(FileSystem.isRegularFile)
  }

  /// The user's processes whose command line is `…shieldbridge native-host …` (the launcher's exec included).
  private static func runningHosts(proc: String) -> Int {
    ProcessTable(root: proc).processIDs(ownedBy: CurrentProcess.userID).count { pid in
      guard let bytes = try? FileSystem.readPrefix("\(proc)/\(pid)/cmdline", limit: 4096) else { return false }
      let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard let index = words.firstIndex(of: "native-host"), index > 0 else { return false }
      return words[index - 1].hasSuffix("shieldbridge")
    }
  }
}
