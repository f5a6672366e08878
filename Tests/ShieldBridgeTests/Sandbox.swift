import Foundation
import Model
import Spawn
import Store
import TestSupport

/// A home of its own for one test: config and state in a temporary directory,
/// never the real home.
final class Sandbox: Sendable {
  let root: TemporaryDirectory

  init() throws {
    root = try TemporaryDirectory()
  }

  /// Its home, config and state, and messages in the source language whatever
  /// the machine's locale (an empty value removes the variable).
  var environment: [String: String] {
    [
      "HOME": root.path, "XDG_CONFIG_HOME": root.file("config"),
      "XDG_STATE_HOME": root.file("state"),
      "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8",
    ]
  }

  var configPath: String { root.file("config/shieldbridge/config.json") }
  var stateDirectory: String { root.file("state/shieldbridge") }
  var ledgerPath: String { stateDirectory + "/ledger.json" }

  /// A store on the sandbox's state, for the test to look at or prepare.
  var store: LedgerStore { LedgerStore(directory: stateDirectory) }

  func writeConfig(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: root.file("config/shieldbridge"), withIntermediateDirectories: true)
    try text.write(toFile: configPath, atomically: true, encoding: .utf8)
  }

  /// Runs `shieldbridge` with the sandbox's environment.
  func run(_ arguments: [String], input: String = "") async throws -> Subprocess.Result {
    try await ShieldBridgeTool.run(arguments, input: input, environment: environment)
  }

  /// The names in the state directory, sorted.
  func stateFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: stateDirectory)) ?? []).sorted()
  }
}

/// The first `count` tasks `shieldbridge puzzle --seed seed` asks, drawn with the library.
func tasks(seed: UInt64, count: Int, grant: Int = 0) -> [Puzzle] {
  var random = SeededRandom(seed: seed)
  return (0..<count).map { _ in Puzzle.random(using: &random, grant: grant) }
}
