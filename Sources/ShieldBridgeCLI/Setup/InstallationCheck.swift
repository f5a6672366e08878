public import DBus
import Desktop
public import JSON
import Localization
import Posix
import ShieldBridge

/// What `setup` finds of the parts around the configuration: the service, the browsers' host, the extension.
///
/// Each finding says what it found and, when something is missing, the one
/// thing to do about it, in the words of the way this machine got
/// ShieldBridge: the Debian package installs the extension for the browsers
/// and starts the service at log-in, so its user is never sent to a source
/// tree. Nothing is started or installed: the service is asked for on the
/// bus without activating it, the host manifests and the extension are
/// looked for where browsers read them, and the extension is known to
/// answer when a browser runs our host for it (`shieldbridge native-host`,
/// which the browser starts only for a loaded extension).
public struct InstallationCheck: Hashable, Sendable {
  /// The name of the host manifest browsers look for.
  public static let manifestName = "org.shieldbridge.shieldbridge.json"

  /// How the browser extension came onto this machine, as far as the browsers can take it up.
  public enum ExtensionInstall: Hashable, Sendable {
    /// Installed where the browsers take it up by themselves (the Debian package): the browsers, by
    /// name (none named when the package is installed but no folder of a browser holds it yet).
    case forBrowsers([String])
    /// Unpacked by `make install` at this folder: a browser loads it from there by hand.
    case unpacked(String)
    /// Neither: the source tree's `integrations/webextension`.
    case sourceTree
  }

  /// What starts the service at log-in, where it is not running.
  public enum ServiceStart: Hashable, Sendable {
    /// The systemd user manager runs: the unit, once enabled.
    case systemd
    /// No systemd user manager; the session starts this XDG autostart entry at log-in.
    case autostart(String)
    /// Neither.
    case none
  }

  /// Whether a process owns the service's name on the bus; `nil` when there is no bus.
  public var serviceRuns: Bool?
  /// The host manifests found, as paths.
  public var hostManifests: [String]
  /// How many `shieldbridge native-host` processes the user runs: one per browser with the extension.
  public var runningHosts: Int
  /// Where the browsers get the extension from.
  public var extensionInstall: ExtensionInstall
  /// What starts the service at log-in.
  public var serviceStart: ServiceStart
  /// Where the running service's log goes; `nil` when none runs or it cannot be read.
  public var serviceLog: ServiceLog?

  public init(
    serviceRuns: Bool?, hostManifests: [String], runningHosts: Int, extensionInstall: ExtensionInstall = .sourceTree,
    serviceStart: ServiceStart = .systemd, serviceLog: ServiceLog? = nil
  ) {
    self.serviceRuns = serviceRuns
    self.hostManifests = hostManifests
    self.runningHosts = runningHosts
    self.extensionInstall = extensionInstall
    self.serviceStart = serviceStart
    self.serviceLog = serviceLog
  }

  /// Looks at this machine: the bus, the manifest and extension folders, the autostart entries, and the processes under `proc`.
  ///
  /// - Parameters:
  ///   - executable: The running `shieldbridge`, whose prefix (`/usr/local` for `/usr/local/bin/shieldbridge`)
  ///     says where `make install` put the unpacked extension.
  ///   - root: Prefixed to the system's folders (`/usr/share/…`, `/etc/…`); `""` for this machine.
  public static func run(
    bus: Connection.Bus, environment: [String: String], executable: String? = nil, proc: String = "/proc",
    root: String = ""
  ) async -> InstallationCheck {
    let runs = await serviceRuns(on: bus)
    return InstallationCheck(
      serviceRuns: runs, hostManifests: hostManifests(environment: environment, root: root),
      runningHosts: runningHosts(proc: proc),
      extensionInstall: extensionInstall(executable: executable, root: root),
      serviceStart: serviceStart(environment: environment, root: root),
      serviceLog: runs == true ? await ServiceLog.find(on: bus, proc: proc) : nil)
  }

  /// What `setup` says: one message per part, and what to do for each that is missing.
  var setupMessages: [CommandMessage] {
    var messages: [CommandMessage] = []
    switch serviceRuns {
    case true?: messages.append(CommandMessage(.setupServiceRuns))
    case false?: messages.append(CommandMessage(.setupServiceNotRunning, ["todo": serviceToDo]))
    case nil: messages.append(CommandMessage(.setupNoBus))
    }
    messages.append(
      hostManifests.first.map { CommandMessage(.setupHost, ["path": $0]) } ?? CommandMessage(.setupHostMissing))
    messages.append(
      runningHosts > 0
        ? CommandMessage(.setupExtensionAnswers, count: runningHosts)
        : CommandMessage(.setupExtensionNone, ["todo": extensionToDo]))
    return messages
  }

  /// ``setupMessages`` as text, in the user's language.
  public var lines: [String] { setupMessages.map(Output.text) }

  /// What to do for a service that is not running, in the words of what starts it at log-in, as a sentence.
  var serviceToDo: String { Self.capitalisingFirst(Output.text(serviceToDoMessage)) }

  /// ``serviceToDo`` as a catalog message.
  var serviceToDoMessage: CommandMessage {
    switch serviceStart {
    case .systemd: CommandMessage(.startSystemd)
    case .autostart(let entry): CommandMessage(.startAutostart, ["entry": entry])
    case .none: CommandMessage(.startNothing)
    }
  }

  /// What to do for an extension that does not answer, in the words of how it was installed.
  var extensionToDo: String { Self.capitalisingFirst(Output.text(extensionToDoMessage)) }

  /// ``extensionToDo`` as a catalog message.
  var extensionToDoMessage: CommandMessage {
    switch extensionInstall {
    case .forBrowsers(let browsers): CommandMessage(.extensionPackaged, ["browsers": Self.list(browsers)])
    case .unpacked(let folder): CommandMessage(.extensionUnpacked, ["folder": folder])
    case .sourceTree: CommandMessage(.extensionSourceTree)
    }
  }

  /// `Chromium`, `Chromium and Firefox`, `Chromium, Google Chrome and Firefox`.
  private static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "the browsers" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }

  /// The lines `doctor` adds: `service:`, `browser host:` and `browser extension:`, each with what to do when missing.
  var reportMessages: [CommandMessage] {
    let localizer = Output.currentLocalizer
    let service: CommandMessage =
      switch serviceRuns {
      case true?:
        serviceLog.map { CommandMessage(.serviceRunningLog, ["log": $0.text]) } ?? CommandMessage(.serviceRunning)
      case false?: CommandMessage(.serviceNotRunning, ["todo": localizer.render(serviceToDoMessage)])
      case nil: CommandMessage(.serviceNoBus)
      }
    let host = hostManifests.first.map { CommandMessage(.host, ["path": $0]) } ?? CommandMessage(.hostMissing)
    let extensionLine =
      runningHosts > 0
      ? CommandMessage(.extensionAnswers, count: runningHosts)
      : CommandMessage(.extensionNone, ["todo": localizer.render(extensionToDoMessage)])
    return [service, host, extensionLine]
  }

  /// ``reportMessages`` as text, in the user's language.
  public var reportLines: [String] { reportMessages.map(Output.text) }

  private static func capitalisingFirst(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// `{"service": true, "hostManifests": ["…"], "runningHosts": 1, "serviceLog": "journalctl --user -u shieldbridge"}`,
  /// `service` `null` without a bus, `serviceLog` `null` when no service runs or its log cannot be told.
  public var json: JSONValue {
    .object([
      ("service", serviceRuns.map { .bool($0) } ?? .null),
      ("hostManifests", .array(hostManifests.map { .string($0) })),
      ("runningHosts", .integer(Int64(runningHosts))),
      ("serviceLog", serviceLog.map { .string($0.text) } ?? .null),
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
  static func manifestFolders(environment: [String: String], root: String = "") -> [String] {
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
    ].map { root + $0 }
    return folders
  }

  private static func hostManifests(environment: [String: String], root: String) -> [String] {
    manifestFolders(environment: environment, root: root).map { $0 + "/" + manifestName }
      .filter(FileSystem.isRegularFile)
  }

  /// The folders from which a browser takes up an extension by itself, by browser:
  /// Chromium's and Google Chrome's external extensions, Firefox's system add-ons.
  static let browserExtensionFolders = [
    ("Chromium", "/usr/share/chromium/extensions"), ("Google Chrome", "/usr/share/google-chrome/extensions"),
    ("Firefox", "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}"),
  ]

  /// The list of files dpkg keeps for the installed Debian package.
  static let packageFileList = "/var/lib/dpkg/info/shieldbridge.list"

  /// Where the browsers get the extension: installed for them (an entry of ours in their folders,
  /// or the Debian package installed, which puts them there), else unpacked beside the binary
  /// (`PREFIX/share/shieldbridge/webextension`), else the source tree.
  static func extensionInstall(executable: String?, root: String) -> ExtensionInstall {
    let browsers = browserExtensionFolders.compactMap { browser, folder -> String? in
      let entries = (try? FileSystem.contentsOfDirectory(root + folder)) ?? []
      return entries.contains { isOurs(entry: root + folder + "/" + $0) } ? browser : nil
    }
    if !browsers.isEmpty || FileSystem.isRegularFile(root + packageFileList) { return .forBrowsers(browsers) }
    if let executable, executable.hasPrefix("/") {
      let parts = executable.split(separator: "/", omittingEmptySubsequences: false)
      if parts.count >= 3, parts[parts.count - 2] == "bin" {
        let folder = parts.dropLast(2).joined(separator: "/") + "/share/shieldbridge/webextension"
        if FileSystem.isRegularFile(folder + "/manifest.json") { return .unpacked(folder) }
      }
    }
    return .sourceTree
  }

  /// Whether a browser's extension entry is ShieldBridge: named after it (Firefox's
  /// `shieldbridge@shieldbridge.org`), leading into a `shieldbridge` folder (a link to
  /// the unpacked extension), or a file that names one (Chromium's `ID.json`, whose
  /// `external_crx` is `/usr/share/shieldbridge/shieldbridge.crx`).
  private static func isOurs(entry path: String) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? ""
    if name.lowercased().includes("shieldbridge") { return true }
    if let target = FileSystem.resolvingLinks(path), target.includes("/shieldbridge/") { return true }
    if FileSystem.isRegularFile(path), let bytes = try? FileSystem.readPrefix(path, limit: 64 << 10) {
      return String(decoding: bytes, as: UTF8.self).includes("/shieldbridge/")
    }
    if FileSystem.isRegularFile(path + "/manifest.json"),
      let bytes = try? FileSystem.readPrefix(path + "/manifest.json", limit: 256 << 10)
    {
      return String(decoding: bytes, as: UTF8.self).includes("\"ShieldBridge\"")
    }
    return false
  }

  /// What starts the service at log-in: the systemd user manager where it runs (its private
  /// socket in `XDG_RUNTIME_DIR`), else an autostart entry (the user's first, then `XDG_CONFIG_DIRS`').
  static func serviceStart(environment: [String: String], root: String) -> ServiceStart {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
      FileSystem.exists(runtime + "/systemd/private")
    {
      return .systemd
    }
    var folders: [String] = []
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      folders.append(config)
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      folders.append(home + "/.config")
    }
    let system = (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
      .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    folders += system.map { root + $0 }
    for folder in folders where FileSystem.isRegularFile(folder + "/autostart/shieldbridge.desktop") {
      return .autostart(folder + "/autostart/shieldbridge.desktop")
    }
    return .none
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
