import Foundation

// `ShieldBridgeBenchmarks SUITE [ARGS…]`: runs one suite and prints its figures.
// Build it in release mode (`swift build -c release`); `benchmarks/run` runs them all.

let suites: [(name: String, run: @Sendable ([String]) async throws -> Void)] = [
  ("dbus", DBusBenchmarks.run),
  ("ledger", LedgerBenchmark.run),
  ("localization", LocalizationBenchmarks.run),
  ("notifications", NotificationsBenchmarks.run),
  ("deeplink", DeepLinkBenchmarks.run),
  ("service", ServiceBenchmarks.run),
  ("report", ReportBenchmark.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites.first(where: { $0.name == name }) else {
  let names = suites.isEmpty ? "SUITE" : suites.map(\.name).joined(separator: "|")
  FileHandle.standardError.write(Data("usage: ShieldBridgeBenchmarks \(names) [ARGS…]\n".utf8))
  exit(64)
}
do {
  try await suite.run(Array(arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
  exit(1)
}
