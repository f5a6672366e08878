#if canImport(Glibc)
  import Glibc
#endif

// `ShieldBridgeBenchmarks SUITE [ARGS…]`: runs one suite and prints its figures.
// Build it in release mode (`swift build -c release`); `benchmarks/run` runs them all.

let suites: [(name: String, run: @Sendable ([String]) async throws -> Void)] = [
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let suite = suites.first(where: { $0.name == name }) else {
  let names = suites.map(\.name).joined(separator: "|")
  fputs("usage: ShieldBridgeBenchmarks \(names.isEmpty ? "SUITE" : names) [ARGS…]\n", stderr)
  exit(64)
}
do {
  try await suite.run(Array(arguments.dropFirst()))
} catch {
  fputs("\(name): \(error)\n", stderr)
  exit(1)
}
