import Foundation
import ShieldBridge
import Spawn
import TestSupport
import Testing

@Suite("The launcher reports how a started program ended, before the program is reaped")
struct LauncherTests {
  @Test func theExitHandlerRunsWhileTheProgramIsStillAChildAndItIsReapedAfter() async throws {
    let directory = try TemporaryDirectory()
    let pidFile = directory.file("pid")
    let ends = EventLog<(Termination, Set<Int32>)>()
    try Launcher(environment: [:]).launch(["/bin/sh", "-c", "echo $$ > \"$0\"", pidFile], activationToken: nil) {
      ends.append(($0, childrenOfThisProcess()))
    }
    let (termination, childrenThen) = try await ends.first("the exit handler")
    let pid = try #require(
      Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(termination == .exited(0))
    #expect(childrenThen.contains(pid))
    _ = try await poll("the child reaped") { childrenOfThisProcess().contains(pid) ? nil : true }
  }

  @Test(
    "Exit statuses and signals are reported as they happened",
    arguments: [("exit 3", Termination.exited(3)), ("kill -TERM $$", .signalled(SIGTERM))])
  func terminations(script: String, expected: Termination) async throws {
    let ends = EventLog<Termination>()
    try Launcher(environment: [:]).launch(["/bin/sh", "-c", script], activationToken: nil) { ends.append($0) }
    #expect(try await ends.first("the exit handler") == expected)
  }
}

/// The pids in `/proc/self/task/*/children`: every child of this process not yet reaped, zombies included.
private func childrenOfThisProcess() -> Set<Int32> {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  var pids: Set<Int32> = []
  for task in tasks {
    let text = (try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? ""
    for field in text.split(separator: " ") {
      if let pid = Int32(field.trimmingCharacters(in: .whitespacesAndNewlines)) { pids.insert(pid) }
    }
  }
  return pids
}
