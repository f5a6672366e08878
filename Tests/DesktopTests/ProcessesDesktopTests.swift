import Desktop
import Foundation
import Model
import Posix
import TestSupport
import Testing

/// The process fallback against real processes: a copy of `sleep` named like the app.
@Suite struct ProcessesDesktopTests {
  /// A copy of `/bin/sleep` named `instagram` in a folder of its own, started with `600`.
  final class FakeApp: Sendable {
    let directory: TemporaryDirectory
    let process: BackgroundProcess

    /// Returns once the child runs the copy: until its `exec`, it is a copy of the test process.
    init() async throws {
      directory = try TemporaryDirectory(prefix: "shieldbridge-processes")
      let path = directory.file("instagram")
      try copyExecutable(from: "/bin/sleep", to: path)
      let process = try BackgroundProcess([path, "600"])
      self.process = process
      let pid = process.process.pid
      _ = try await poll("the copy to run as \(pid)") {
        let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        return comm == "instagram\n" && cmdline?.hasPrefix(path) == true ? true : nil
      }
    }

    var pid: Int32 { process.process.pid }
  }

  /// Named `instagram`, and only this test's own copy: other tests may run other `instagram`s at the same time.
  static func isInstagram(_ app: FakeApp) -> @Sendable (AppIdentity) -> Bool {
    let pid = app.pid
    return { $0.executable == "instagram" && $0.pid == pid }
  }

  @Test func theTableNamesAProcessByExecutableCommandAndFirstWord() async throws {
    let app = try await FakeApp()
    let identity = try #require(ProcessTable().identity(ofProcess: app.pid))
    #expect(identity.executable == "instagram")
    #expect(identity.command == "instagram")
    #expect(identity.commandLineName == "instagram")
    #expect(identity.pid == app.pid)
    #expect(ProcessTable().processIDs(ownedBy: CurrentProcess.userID).contains(app.pid))
    #expect(!ProcessTable().processIDs(ownedBy: 4_000_000).contains(app.pid))
  }

  @Test func aProcessThatIsGoneHasNoIdentity() throws {
    // Pids above the kernel's pid_max are never used.
    #expect(ProcessTable().identity(ofProcess: 4_194_305) == nil)
    let directory = try TemporaryDirectory()
    #expect(ProcessTable(root: directory.path).identities(ownedBy: 0).isEmpty)
    #expect(ProcessTable(root: directory.file("none")).identities(ownedBy: 0).isEmpty)
  }

  @Test func aFakeProcFolderIsReadWithTheSameRules() throws {
    let root = try TemporaryDirectory()
    let folder = root.file("4242")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "telegram-deskto\n".write(toFile: folder + "/comm", atomically: false, encoding: .utf8)
    try "/usr/bin/telegram-desktop\0--\0".write(toFile: folder + "/cmdline", atomically: false, encoding: .utf8)
    try "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.telegram.desktop-99.scope\n"
      .write(toFile: folder + "/cgroup", atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/exe", withDestinationPath: "/opt/telegram/telegram-desktop (deleted)")
    // Not a process: no number.
    try FileManager.default.createDirectory(atPath: root.file("self"), withIntermediateDirectories: true)
    let identities = ProcessTable(root: root.path).identities(ownedBy: CurrentProcess.userID)
    #expect(
      identities == [
        AppIdentity(
          executable: "telegram-desktop", command: "telegram-deskto", commandLineName: "telegram-desktop",
          scopeID: "org.telegram.desktop", pid: 4242)
      ])
  }

  @Test func aRunningCopyIsReportedAndItsEndToo() async throws {
    let app = try await FakeApp()
    let desktop = ProcessesDesktop(covers: Self.isInstagram(app))
    #expect(desktop.kind == .processes)
    #expect(desktop.countingSource == .running)
    #expect(desktop.limitations.joined().contains("not the time it is in front"))
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    let pid = app.pid
    let first = try await log.first("the first scan")
    guard case .running(let apps) = first else {
      Issue.record("first event \(first)")
      return
    }
    #expect(apps.map(\.pid) == [pid])
    #expect(apps.first?.command == "instagram")
    app.process.process.signal(SIGKILL)
    _ = await app.process.finish()
    _ = try await log.first("the app's end", after: 1) { $0 == .running([]) }
    desktop.stop()
    await task.value
  }

  @Test func closeSendsSIGTERMToTheMatchingProcesses() async throws {
    let app = try await FakeApp()
    let desktop = ProcessesDesktop(covers: { _ in false })
    let pids = try await desktop.close(where: Self.isInstagram(app))
    #expect(pids == [app.pid])
    let finished = await app.process.finish(timeout: .seconds(10))
    #expect(finished.termination == .signalled(SIGTERM))
  }

  @Test func hideCannotHideWithoutAWindowSystem() async throws {
    let desktop = ProcessesDesktop(covers: { _ in true })
    await #expect(throws: Desktop.DesktopError.self) { _ = try await desktop.hide { _ in true } }
  }
}
