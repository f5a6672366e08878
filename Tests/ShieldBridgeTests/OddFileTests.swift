import Config
import DBus
import Foundation
import JSON
import Model
import Notifications
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// Something other than a plain small file, put where the program expects one.
///
/// The tests run as root, who reads a file of mode 000 anyway: a directory
/// and a dangling symbolic link stand for a file that cannot be read.
enum OddFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// A FIFO nobody writes to (or reads from): an open or read that waits for the other end never ends.
  case fifo
  case directory
  /// A link to a regular file that is not ours: read, it is not JSON; it must never be written through.
  case linkToPasswd
  /// A link to `/dev/zero`, an endless file.
  case linkToDevice
  /// A sparse regular file of 4 GiB: only its size is large.
  case huge
  /// A link into a folder that does not exist: neither there nor creatable.
  case dangling

  var testDescription: String { rawValue }

  /// The kinds that are refused as not regular files, whatever reads them.
  var isNotRegular: Bool { self == .fifo || self == .directory || self == .linkToDevice }

  /// Makes this kind of file at `path`, creating its folder.
  func make(at path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let made: Int32
    switch self {
    case .fifo: made = mkfifo(path, 0o600)
    case .directory: made = mkdir(path, 0o700)
    case .linkToPasswd: made = symlink("/etc/passwd", path)
    case .linkToDevice: made = symlink("/dev/zero", path)
    case .dangling: made = symlink("/nonexistent-shieldbridge-odd-file/missing", path)
    case .huge:
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw OddFileNotMade(path: path, errno: errno) }
      defer { close(descriptor) }
      made = ftruncate(descriptor, 4 << 30)
    }
    guard made == 0 else { throw OddFileNotMade(path: path, errno: errno) }
  }
}

struct OddFileNotMade: Error, CustomStringConvertible {
  var path: String
  var errno: Int32
  var description: String { "cannot make the odd file \(path): \(String(cString: strerror(errno)))" }
}

/// Every run is bounded: a hang ends the run and fails the test instead of the whole test run.
private let bound = Duration.seconds(10)

/// Runs `shieldbridge` with `environment` on a thread of its own, killed after ``bound``.
private func runBounded(
  _ arguments: [String], input: String = "", environment: [String: String]
) async throws -> Subprocess.Result {
  try await ShieldBridgeTool.run(arguments, input: input, environment: environment, timeout: bound)
}

/// `/etc/passwd` must come out of every test as it went in.
private func passwdUnchanged<T>(_ body: () async throws -> T) async throws -> T {
  let before = try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))
  let result = try await body()
  #expect(try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd")) == before)
  return result
}

/// How a run ended, for the message of a failed expectation.
private func ended(_ result: Subprocess.Result) -> String {
  "termination \(String(describing: result.termination)), stderr: \(result.error)"
}

@Suite("Odd files (FIFO, directory, links, device, huge) in the place of config.json, the ledger and its lock")
struct OddStateFileTests {
  @Test("config.json: status ends with 78 and names the file", arguments: OddFile.allCases)
  func configurationForStatus(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try odd.make(at: sandbox.configPath)
    let result = try await passwdUnchanged {
      try await runBounded(["status"], environment: sandbox.isolatedEnvironment)
    }
    if odd == .dangling {
      // Nothing is there to read: the defaults, as without a file.
      #expect(result.status == 0, "\(ended(result))")
    } else {
      #expect(result.status == 78, "\(ended(result))")
      #expect(result.error.contains(sandbox.configPath), "\(result.error)")
    }
  }

  @Test("config.json: serve ends with 78 at once", arguments: OddFile.allCases)
  func configurationForServe(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try odd.make(at: sandbox.configPath)
    if odd == .dangling {
      // Nothing is there to read: it serves with the defaults until SIGTERM.
      let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
      let watcher = try await ServiceWatcher(address: desk.bus.address)
      let serve = try await ServeProcess(sandbox: sandbox, address: desk.bus.address, watcher: watcher)
      let finished = await serve.terminate()
      #expect(finished.status == 0, "\(finished.termination as Any) \(finished.error)")
      return
    }
    let bus = try BusDaemon()
    let serve = try BackgroundProcess(
      shieldbridge: ["serve", "--address", bus.address],
      environment: sandbox.serviceEnvironment(address: bus.address))
    let finished = try await passwdUnchanged { await serve.finish(timeout: bound) }
    #expect(finished.status == 78, "\(finished.termination as Any) \(finished.error)")
    #expect(finished.error.contains(sandbox.configPath), "\(finished.error)")
  }

  @Test("ledger.json: status refuses what is not a file (74), keeps a damaged one aside", arguments: OddFile.allCases)
  func ledgerForStatus(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    try odd.make(at: sandbox.ledgerPath)
    let result = try await passwdUnchanged {
      try await runBounded(["status"], environment: sandbox.isolatedEnvironment)
    }
    expectLedgerOutcome(odd, result, sandbox: sandbox, success: 0)
  }

  @Test("ledger.json: puzzle refuses what is not a file (74), or records the grant", arguments: OddFile.allCases)
  func ledgerForPuzzle(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    try odd.make(at: sandbox.ledgerPath)
    let answer = tasks(seed: 42, count: 1)[0].answer
    let result = try await passwdUnchanged {
      try await runBounded(
        ["puzzle", "--app", "Instagram", "--seed", "42"], input: "\(answer)\n",
        environment: sandbox.isolatedEnvironment)
    }
    expectLedgerOutcome(odd, result, sandbox: sandbox, success: 0)
    if !odd.isNotRegular {
      let store = sandbox.store
      #expect(try store.load().value.grants(for: "social", on: store.today) == 1)
    }
  }

  @Test("ledger.lock: puzzle refuses what is not a regular file (74), never waits", arguments: OddFile.allCases)
  func lockForPuzzle(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let lockPath = sandbox.stateDirectory + "/ledger.lock"
    try odd.make(at: lockPath)
    let answer = tasks(seed: 42, count: 1)[0].answer
    let result = try await passwdUnchanged {
      try await runBounded(
        ["puzzle", "--app", "Instagram", "--seed", "42"], input: "\(answer)\n",
        environment: sandbox.isolatedEnvironment)
    }
    switch odd {
    case .fifo, .directory, .linkToDevice, .dangling:
      #expect(result.status == 74, "\(ended(result))")
      #expect(result.error.contains(lockPath), "\(result.error)")
      // Refused before the task is asked, not after the right answer.
      #expect(!result.output.contains("What is"), "\(result.output)")
    case .linkToPasswd, .huge:
      // A regular file: it is only locked, never read or written.
      #expect(result.status == 0, "\(ended(result))")
    }
  }

  @Test("ledger.json: serve answers Status with an error, then SIGTERM ends it with 0", arguments: OddFile.allCases)
  func ledgerForServe(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    try odd.make(at: sandbox.ledgerPath)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let serve = try await ServeProcess(sandbox: sandbox, address: desk.bus.address, watcher: watcher)
    for _ in 0..<2 {
      do {
        let reply = try await watcher.call(ServiceInterface.status.name)
        #expect(!odd.isNotRegular, "Status answered \(reply)")
      } catch let error as DBusError {
        #expect(odd.isNotRegular, "\(error)")
      }
    }
    let finished = try await passwdUnchanged { await serve.terminate() }
    #expect(finished.status == 0, "\(finished.termination as Any) \(finished.error)")
  }

  private func expectLedgerOutcome(
    _ odd: OddFile, _ result: Subprocess.Result, sandbox: Sandbox, success: Int32
  ) {
    switch odd {
    case .fifo, .directory, .linkToDevice:
      #expect(result.status == 74, "\(ended(result))")
      #expect(result.error.contains(sandbox.ledgerPath), "\(result.error)")
      if odd == .fifo { #expect(result.error.contains("it is a FIFO, not a regular file"), "\(result.error)") }
    case .linkToPasswd, .huge:
      // Not a ledger: kept aside (the link itself is renamed, nothing is written through it).
      #expect(result.status == success, "\(ended(result))")
      #expect(result.error.contains("it was kept as \(sandbox.ledgerPath).corrupt-"), "\(result.error)")
    case .dangling:
      #expect(result.status == success, "\(ended(result))")
    }
  }
}

@Suite("Odd files in the place of a PO catalog, the notification id store and the record")
struct OddOtherFileTests {
  /// The source tree's `locales/`.
  static let locales = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("locales").path

  /// A copy of the template in a folder of the test's own.
  private func catalogFolder() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: Self.locales + "/shieldbridge.pot", toPath: folder.file("shieldbridge.pot"))
    return folder
  }

  @Test(
    "locales check reports the file and exits 65", arguments: OddFile.allCases, ["de.po", "shieldbridge.pot"])
  func catalogForCheck(_ odd: OddFile, _ name: String) async throws {
    let folder = try catalogFolder()
    if name == "shieldbridge.pot" { try FileManager.default.removeItem(atPath: folder.file(name)) }
    try odd.make(at: folder.file(name))
    let result = try await passwdUnchanged {
      try await runBounded(
        ["locales", "check", "--dir", folder.path], environment: ["LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""])
    }
    #expect(result.status == 65, "\(ended(result))")
    #expect((result.output + result.error).contains(folder.file(name)), "\(result.output)\(result.error)")
  }

  @Test("locales check --dir that is not a folder exits 66", arguments: OddFile.allCases.filter { $0 != .directory })
  func catalogFolderForCheck(_ odd: OddFile) async throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("locales")
    try odd.make(at: path)
    let result = try await runBounded(["locales", "check", "--dir", path], environment: ["LANG": "C.UTF-8"])
    #expect(result.status == 66, "\(ended(result))")
    #expect(result.error.contains("no catalog folder at '\(path)'"), "\(result.error)")
  }

  @Test("A catalog the messages would come from is skipped: English, exit 0", arguments: OddFile.allCases)
  func catalogForMessages(_ odd: OddFile) async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(socialConfiguration)
    let folder = try catalogFolder()
    try odd.make(at: folder.file("de.po"))
    let environment = sandbox.isolatedEnvironment.merging([
      "SHIELDBRIDGE_LOCALEDIR": folder.path, "LANGUAGE": "de", "LANG": "de_DE.UTF-8",
    ]) { $1 }
    let result = try await passwdUnchanged { try await runBounded(["status"], environment: environment) }
    #expect(result.status == 0, "\(ended(result))")
    #expect(result.output.contains("social"), "\(result.output)")
  }

  /// The three places of the id store under `$XDG_RUNTIME_DIR`.
  enum IDStorePlace: String, CaseIterable, Sendable {
    case folder = "shieldbridge"
    case file = "shieldbridge/notification-ids.json"
    case lock = "shieldbridge/notification-ids.json.lock"

    /// What the warning of a post says, when there is one: the post itself never fails.
    func warning(for odd: OddFile) -> String? {
      switch (self, odd) {
      case (.folder, .directory): nil
      case (.folder, _): "exists and is not a folder"
      // Replaced by rename, so only a directory stops it; a FIFO or a device is never opened.
      case (.file, .directory): "cannot rename"
      case (.file, _): nil
      case (.lock, .fifo): "it is a FIFO, not a regular file"
      case (.lock, .linkToDevice): "it is a character device, not a regular file"
      case (.lock, .directory): "Is a directory"
      case (.lock, .dangling): "No such file or directory"
      case (.lock, .linkToPasswd), (.lock, .huge): nil
      }
    }
  }

  @Test(
    "notify --id posts whatever is in the id store's place, and warns when it cannot remember",
    arguments: OddFile.allCases, IDStorePlace.allCases)
  func idStore(_ odd: OddFile, _ place: IDStorePlace) async throws {
    let runtime = try TemporaryDirectory()
    if place != .folder {
      try FileManager.default.createDirectory(atPath: runtime.file("shieldbridge"), withIntermediateDirectories: false)
      chmod(runtime.file("shieldbridge"), 0o700)
    }
    try odd.make(at: runtime.file(place.rawValue))
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let environment = ["XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": "", "LANG": "C.UTF-8"]
    for post in 0..<2 {
      let result = try await passwdUnchanged {
        try await runBounded(
          ["notify", "odd \(post)", "--id", "odd", "--address", desk.bus.address], environment: environment)
      }
      #expect(result.status == 0, "\(ended(result))")
      if let warning = place.warning(for: odd) {
        #expect(result.error.contains("warning: ") && result.error.contains(warning), "\(result.error)")
      } else {
        #expect(result.error.isEmpty)
      }
      _ = try await desk.notification(after: post, "post \(post)")
    }
  }

  @Test(
    "demo with TMPDIR that is not a folder stops at once with 70",
    arguments: OddFile.allCases.filter { $0 != .directory })
  func demoTemporaryFolder(_ odd: OddFile) async throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("tmp")
    try odd.make(at: path)
    let result = try await passwdUnchanged {
      try await runBounded(["demo"], environment: ["TMPDIR": path, "LANG": "C.UTF-8"])
    }
    #expect(result.status == 70, "\(ended(result))")
    #expect(result.error.contains("cannot make a temporary directory"), "\(result.error)")
  }

  @Test(
    "notification-server --record refuses what is not a regular file with 73, at once",
    arguments: [OddFile.fifo, .directory, .linkToDevice, .dangling])
  func record(_ odd: OddFile) async throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("record.jsonl")
    try odd.make(at: path)
    let bus = try BusDaemon()
    let result = try await runBounded(
      ["notification-server", "--address", bus.address, "--record", path], environment: ["LANG": "C.UTF-8"])
    #expect(result.status == 73, "\(ended(result))")
    #expect(result.error.contains(path), "\(result.error)")
  }
}
