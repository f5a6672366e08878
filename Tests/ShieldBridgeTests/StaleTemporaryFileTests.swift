import DBus
import Foundation
import JSON
import Model
import Notifications
import Posix
import Spawn
import TestSupport
import Testing

@Suite("An edit after a writer killed in the middle removes what the dead writer left")
struct StaleTemporaryFileTests {
  @Test("rules killed with -9 at its rename leaves its temporary file; the next edit removes it and nothing else")
  func rulesKilledAtItsRename() async throws {
    let strace = try requiredTool("strace", package: "strace")
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let folder = sandbox.root.file("config/shieldbridge")
    // SIGKILL at the rename, exactly as `kill -9` between the write and the rename would leave it.
    let killed = try await onOwnThread {
      try Subprocess.run(
        [
          strace, "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
          "-e", "inject=rename,renameat,renameat2:signal=SIGKILL", ShieldBridgeTool.path, "rules", "set", "social",
          "--limit", "7m",
        ], environment: ShieldBridgeTool.mergedEnvironment(sandbox.isolatedEnvironment), timeout: .seconds(30))
    }
    #expect(killed.status != 0, "\(killed.output) \(killed.error)")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("config.json.tmp-") }
    #expect(left.count == 1, "\(left)")
    // A live writer's file (this test process's pid) and one of another pattern stay.
    let live = "config.json.tmp-\(getpid())-abc"
    try "live\n".write(toFile: folder + "/" + live, atomically: false, encoding: .utf8)
    try "mine\n".write(toFile: folder + "/config.json.tmp-notes", atomically: false, encoding: .utf8)

    let edit = try await sandbox.run(["rules", "set", "social", "--limit", "9m"])
    #expect(edit.status == 0, "\(edit.error)")
    let after = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(after == ["config.json", "config.json.tmp-notes", "config.lock", live].sorted(), "\(after)")
    #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8).contains("\"dailyLimitMinutes\": 9"))
  }
}
