import Foundation
import Model
import Store

/// `ShieldBridgeBenchmarks ledger [DIRECTORY]`: recording a grant (lock, read,
/// atomic write with two fsyncs), reading today's status, and drawing puzzles.
enum LedgerBenchmark {
  static func run(_ arguments: [String]) throws {
    let directory = arguments.first ?? NSTemporaryDirectory() + "/shieldbridge-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = LedgerStore(directory: directory)
    let rule = Rule(name: "social", apps: ["Instagram"], maxGrantsPerDay: 10_000)
    let others = (0..<20).map { Rule(name: "rule-\($0)", apps: [AppPattern(name: "App\($0)")]) }
    // A realistic ledger: a week of days with a few rules each.
    for rule in others { _ = try store.recordGrant(for: rule) }

    let grants = try Measure.samples(1_000) { _ = try store.recordGrant(for: rule) }
    Measure.report("ledger", "record grant p50", Measure.median(grants) / 1_000, "us")
    Measure.report("ledger", "record grant p99", Measure.quantile(grants, 0.99) / 1_000, "us")

    let rules = RuleSet([rule] + others)
    let reads = try Measure.samples(2_000) { _ = try store.status(of: rules) }
    Measure.report("ledger", "status p50", Measure.median(reads) / 1_000, "us")
    Measure.report("ledger", "status p99", Measure.quantile(reads, 0.99) / 1_000, "us")

    var random = SeededRandom(seed: 1)
    var sum = 0
    let count = 1_000_000
    let elapsed = ContinuousClock().measure {
      for _ in 0..<count { sum &+= Puzzle.random(using: &random).answer }
    }
    Measure.report(
      "ledger", "puzzle draw", elapsed.nanoseconds / Double(count), "ns", "checksum \(sum)")
  }
}
