import Foundation
import Model
import Spawn
import TestSupport
import Testing

/// A folder nothing can be written to, even by root: a read-only tmpfs when
/// the tests run as root (root ignores permission bits), else mode 0555.
///
/// `populate` runs while it is still writable. ``release()`` makes it
/// writable again (unmounts), so that the sandbox can be removed.
private final class ReadOnlyFolder {
  let path: String
  private let mounted: Bool

  init(_ path: String, populate: (String) throws -> Void = { _ in }) throws {
    self.path = path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    mounted = geteuid() == 0
    if mounted {
      let mount = try requiredTool("mount", package: "mount")
      try run([mount, "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", path])
      try populate(path)
      try run([mount, "-o", "remount,ro", path])
    } else {
      try populate(path)
      try run(["/bin/chmod", "-R", "a-w", path])
    }
  }

  func release() {
    if mounted {
      _ = try? Subprocess.run(["/bin/umount", path])
    } else {
      _ = try? Subprocess.run(["/bin/chmod", "-R", "u+w", path])
    }
  }

  private func run(_ arguments: [String]) throws {
    let result = try Subprocess.run(arguments)
    try #require(result.status == 0, "\(arguments.joined(separator: " ")): \(result.error)")
  }
}

@Suite("shieldbridge puzzle checks that the grant can be written before it asks the task")
struct PuzzleStateCheckTests {
  /// Runs a puzzle whose answer is right, and checks that it stopped with 74 before asking.
  private func expectRefusedBeforeAsking(_ sandbox: Sandbox, mentioning text: String) async throws {
    let task = tasks(seed: 21, count: 1)[0]
    let result = try await sandbox.run(["puzzle", "--seed", "21"], input: "\(task.answer)\n")
    #expect(result.status == 74, "\(result.error)")
    #expect(result.output == "", "the task was asked")
    #expect(result.error.hasPrefix("shieldbridge: /"), "\(result.error)")
    #expect(result.error.contains("/state/shieldbridge"), "\(result.error)")
    #expect(result.error.contains(text), "\(result.error)")
    #expect(result.error.hasSuffix("\n") && result.error.split(separator: "\n").count == 1)
  }

  @Test("A read-only state home, where the state folder cannot be created")
  func stateHomeReadOnly() async throws {
    let sandbox = try Sandbox()
    let folder = try ReadOnlyFolder(sandbox.root.file("state"))
    // Unmounted before the sandbox is removed, however the test ends.
    defer { withExtendedLifetime(sandbox) { folder.release() } }
    try await expectRefusedBeforeAsking(sandbox, mentioning: "shieldbridge: create directory failed: ")
    #expect(sandbox.stateFiles().isEmpty)
  }

  @Test("A read-only state folder that already holds the ledger")
  func stateFolderReadOnly() async throws {
    let sandbox = try Sandbox()
    let folder = try ReadOnlyFolder(sandbox.root.file("state")) { _ in
      _ = try sandbox.store.recordGrant(for: Rule.builtIn)
    }
    // Unmounted before the sandbox is removed, however the test ends.
    defer { withExtendedLifetime(sandbox) { folder.release() } }
    let before = try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8)
    try await expectRefusedBeforeAsking(sandbox, mentioning: " failed: ")
    #expect(try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8) == before)
    #expect(try sandbox.store.status(of: Rule.builtIn).value.grantsToday == 1)
  }

  @Test("A ledger file that cannot be replaced (immutable) in a writable folder")
  func ledgerImmutable() async throws {
    let sandbox = try Sandbox()
    _ = try sandbox.store.recordGrant(for: Rule.builtIn)
    let before = try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8)
    if geteuid() == 0 {
      let chattr = try requiredTool("chattr", package: "e2fsprogs")
      let set = try Subprocess.run([chattr, "+i", sandbox.ledgerPath])
      try #require(set.status == 0, "chattr +i: \(set.error)")
      defer { _ = try? Subprocess.run([chattr, "-i", sandbox.ledgerPath]) }
      try await expectRefusedBeforeAsking(sandbox, mentioning: "ledger.json")
    } else {
      // Without root nothing can make a file in a writable folder immune to rename.
      try #require(chmod(sandbox.stateDirectory, 0o500) == 0)
      defer { chmod(sandbox.stateDirectory, 0o700) }
      try await expectRefusedBeforeAsking(sandbox, mentioning: " failed: ")
    }
    #expect(try String(contentsOfFile: sandbox.ledgerPath, encoding: .utf8) == before)
    #expect(sandbox.stateFiles() == ["ledger.json", "ledger.lock"])
  }
}
