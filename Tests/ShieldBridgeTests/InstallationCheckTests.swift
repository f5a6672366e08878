import DBus
import Foundation
import Notifications
import Spawn
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge
@testable import ShieldBridgeCLI

/// What `setup` and `doctor` tell a user to do, in the words of how ShieldBridge came onto the
/// machine: the package's files staged as the package installs them (`scripts/install-browser-extension`,
/// which `make deb` runs) under a folder that stands for `/`.
@Suite struct InstallationCheckTests {
  private static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The package's extension files and autostart entry under `root`, as `apt-get install` puts them.
  private func stagePackage(root: String) async throws {
    _ = try requiredTool("openssl", package: "openssl")
    _ = try requiredTool("python3", package: "python3")
    let share = root + "/usr/share/shieldbridge"
    try FileManager.default.createDirectory(atPath: share, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Self.repository.appendingPathComponent("integrations/webextension").path,
      toPath: share + "/webextension")
    let script = Self.repository.appendingPathComponent("scripts/install-browser-extension").path
    let made = try await onOwnThread {
      try Subprocess.run([script, root, root + "/../packaging-key.pem"], timeout: .seconds(120))
    }
    #expect(made.status == 0, "\(made.error)")
    try FileManager.default.createDirectory(atPath: root + "/etc/xdg/autostart", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Self.repository.appendingPathComponent("examples/autostart/shieldbridge.desktop").path,
      toPath: root + "/etc/xdg/autostart/shieldbridge.desktop")
  }

  @Test func aPackageUserIsToldToRestartTheBrowserNotToLoadTheExtensionFromTheSourceTree() async throws {
    let folder = try TemporaryDirectory()
    let root = folder.file("root")
    try await stagePackage(root: root)
    // No systemd user manager here (Xfce's session on Debian 12): the autostart entry starts the service.
    let environment = ["HOME": folder.file("home"), "XDG_RUNTIME_DIR": folder.path]
    let check = await InstallationCheck.run(
      bus: .address("unix:path=" + folder.file("no-bus")), environment: environment,
      executable: "/usr/bin/shieldbridge", proc: folder.path, root: root)
    #expect(check.extensionInstall == .forBrowsers(["Chromium", "Google Chrome", "Firefox"]))
    #expect(check.serviceStart == .autostart(root + "/etc/xdg/autostart/shieldbridge.desktop"))
    var notRunning = check
    notRunning.serviceRuns = false
    let text = notRunning.lines.joined(separator: "\n")
    #expect(!text.contains("integrations/webextension") && !text.contains("source tree."), "\(text)")
    #expect(
      text.contains(
        "No browser extension answers. The package installed it for Chromium, Google Chrome and Firefox: restart "
          + "the browser, and where ShieldBridge is turned off in its extensions page (chrome://extensions, "
          + "about:addons), turn it on, then keep the browser open (docs/using/websites.md)."), "\(text)")
    #expect(
      text.contains(
        "The service is not running. The desktop starts it at log-in (\(root)/etc/xdg/autostart/shieldbridge.desktop): "
          + "log out and log in again."))
    #expect(!text.contains("systemctl"))
    let report = notRunning.reportLines.joined(separator: "\n")
    #expect(report.contains("browser extension: no browser runs it (to do: the package installed it for Chromium"))
    #expect(report.contains("service: not running (to do: the desktop starts it at log-in"))
    #expect(!report.contains("integrations/webextension") && !report.contains("!"))
  }

  @Test func theInstalledPackageIsAPackageInstallWhateverItsBrowsersFoldersHold() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: folder.file("var/lib/dpkg/info"), withIntermediateDirectories: true)
    try "/usr/bin/shieldbridge\n".write(
      toFile: folder.file("var/lib/dpkg/info/shieldbridge.list"), atomically: true, encoding: .utf8)
    let install = InstallationCheck.extensionInstall(executable: "/usr/bin/shieldbridge", root: folder.path)
    #expect(install == .forBrowsers([]))
    let check = InstallationCheck(serviceRuns: true, hostManifests: [], runningHosts: 0, extensionInstall: install)
    #expect(
      check.lines[2].hasPrefix("No browser extension answers. The package installed it for the browsers: restart"))
  }

  @Test func withASystemdUserManagerTheUnitIsNamed() throws {
    let folder = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: folder.file("systemd"), withIntermediateDirectories: true)
    // What the user manager makes in the runtime folder (a socket; its being there is what is asked).
    #expect(FileManager.default.createFile(atPath: folder.file("systemd/private"), contents: nil))
    let start = InstallationCheck.serviceStart(environment: ["XDG_RUNTIME_DIR": folder.path], root: folder.path)
    #expect(start == .systemd)
    let check = InstallationCheck(serviceRuns: false, hostManifests: [], runningHosts: 0, serviceStart: start)
    #expect(
      check.lines[0]
        == "The service is not running. Start it, and at every login: systemctl --user enable --now shieldbridge.")
  }

  @Test func makeInstallsUnpackedFolderIsNamedAndTheSourceTreeOtherwise() throws {
    let folder = try TemporaryDirectory()
    let prefix = folder.file("usr/local")
    try FileManager.default.createDirectory(
      atPath: prefix + "/share/shieldbridge", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Self.repository.appendingPathComponent("integrations/webextension").path,
      toPath: prefix + "/share/shieldbridge/webextension")
    let installed = InstallationCheck.extensionInstall(executable: prefix + "/bin/shieldbridge", root: folder.path)
    #expect(installed == .unpacked(prefix + "/share/shieldbridge/webextension"))
    let check = InstallationCheck(serviceRuns: true, hostManifests: [], runningHosts: 0, extensionInstall: installed)
    #expect(check.lines[2].contains("from \(prefix)/share/shieldbridge/webextension, then keep the browser open"))
    // A binary of the source tree's build: no folder beside it, nothing installed for the browsers.
    let tree = InstallationCheck.extensionInstall(
      executable: folder.file(".build/debug/shieldbridge"), root: folder.path)
    #expect(tree == .sourceTree)
  }

  @Test func theLogIsWhereTheServicesStandardErrorGoes() {
    func place(_ target: String, stream: String? = "5:77", journal: String? = nil, cgroup: String? = nil) -> String {
      ServiceLog.place(standardError: target, stream: stream, journalStream: journal, cgroup: cgroup, pid: 42).text
    }
    let unit = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/shieldbridge.service\n"
    #expect(place("socket:[77]", journal: "5:77", cgroup: unit) == "journalctl --user -u shieldbridge")
    #expect(
      place(
        "socket:[77]", journal: "5:77",
        cgroup: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/dbus.service\n")
        == "journalctl --user -u dbus.service")
    #expect(
      place("socket:[77]", journal: "5:77", cgroup: "0::/user.slice/session-2.scope\n") == "journalctl --user _PID=42")
    // A JOURNAL_STREAM inherited by a process whose standard error is elsewhere now is not the journal.
    #expect(place("/home/me/.xsession-errors", journal: "5:78") == "/home/me/.xsession-errors")
    #expect(place("/dev/pts/3") == "the terminal it was started in (/dev/pts/3)")
    #expect(place("/dev/null").hasPrefix("nowhere: its standard error is /dev/null"))
    #expect(place("pipe:[123]") == "its standard error (pipe:[123]), which the program that started it reads")
  }

  /// A service started as a display manager's session starts it: its standard error a file (~/.xsession-errors).
  @Test func doctorNamesTheFileARunningServiceLogsTo() async throws {
    let sandbox = try Sandbox()
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    // As the kernel names it: the temporary folder's path without a doubled slash.
    let log = sandbox.root.file(".xsession-errors").replacingOccurrences(of: "//", with: "/")
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher,
      launcher: ["/bin/sh", "-c", #"exec "$@" 2>>"$0""#, log])
    let doctor = try await sandbox.run(["doctor"], address: desk.bus.address)
    #expect(doctor.output.contains("\nservice: running (its log: \(log))\n"), "\(doctor.output)")
    let json = try await sandbox.run(["doctor", "--json"], address: desk.bus.address)
    #expect(json.output.contains(#""serviceLog":"\#(log)""#), "\(json.output)")
    _ = await serve.terminate()
    // What it logged is in that file.
    #expect(try String(contentsOfFile: log, encoding: .utf8).contains("shieldbridge serve: info: serving"))
  }
}
