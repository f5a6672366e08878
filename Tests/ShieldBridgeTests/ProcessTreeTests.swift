import Foundation
import Glibc
import Posix
import Spawn
import TestSupport
import Testing

@Suite("A test ends what it started: the whole tree, and what a session's programs left without a parent")
struct ProcessTreeTests {
  /// Whether `pid` is a process that has not ended (a zombie has).
  private func running(_ pid: Int32) -> Bool {
    guard let stat = try? FileSystem.readPrefix("/proc/\(pid)/stat", limit: 4096),
      let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count
    else { return false }
    return stat[close + 2] != UInt8(ascii: "Z")
  }

  /// The pid `sh -c` prints after starting `command` in the background, once `sh` has ended.
  private func leftBehind(_ command: String, environment: [String: String] = [:]) async throws -> Int32 {
    let shell = try BackgroundProcess(
      ["/bin/sh", "-c", "\(command) >/dev/null 2>&1 & echo $!"], environment: environment)
    let started = await shell.finish()
    let pid = try #require(Int32(started.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(running(pid))
    return pid
  }

  @Test("killTree ends a child that left the group for a session of its own, as a terminal's does")
  func killTreeEndsADetachedChild() async throws {
    let folder = try TemporaryDirectory()
    let parent = try BackgroundProcess(["/bin/sh", "-c", "setsid sleep 600 & echo $! > \(folder.file("child")); wait"])
    // Once it leads a group of its own: a signal to the parent's group alone would miss it.
    let child = try await poll("the detached child's pid, once it left the group") {
      (try? String(contentsOfFile: folder.file("child"), encoding: .utf8))
        .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        .flatMap { getpgid($0) == $0 ? $0 : nil }
    }
    parent.process.killTree()
    parent.process.wait()
    _ = try await poll("the detached child to end") { running(child) ? nil : true }
  }

  @Test("killOrphans ends a process whose parent is gone, started with the entry; not another, not one of ours")
  func killOrphansEndsOnlyMarkedOrphans() async throws {
    let entry = (name: "SHIELDBRIDGE_ORPHAN_TEST", value: "\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    let marked = try await leftBehind("sleep 600", environment: [entry.name: entry.value])
    let unmarked = try await leftBehind("sleep 600")
    defer { kill(unmarked, SIGKILL) }
    let ours = try BackgroundProcess(["sleep", "600"], environment: [entry.name: entry.value])
    Subprocess.killOrphans(startedWith: entry.name + "=" + entry.value)
    _ = try await poll("the marked orphan to end") { running(marked) ? nil : true }
    #expect(running(unmarked))
    #expect(running(ours.process.pid))
  }
}
