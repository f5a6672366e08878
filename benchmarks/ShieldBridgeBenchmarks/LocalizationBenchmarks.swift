import Foundation
import Localization

/// `ShieldBridgeBenchmarks localization LOCALES_DIR PEER_COMMAND… [-- ROUNDS]`.
///
/// Cold figures: each round is a fresh process that loads every catalog and
/// renders one notification (summary, body, two action labels) in German,
/// timed inside the process, so that process start-up is left out for both
/// sides. The peer is any command that prints its own in-process time in
/// nanoseconds (benchmarks/peers/python_gettext.py: Python's gettext on the
/// same catalogs compiled to .mo). Warm figures repeat the work in this process.
enum LocalizationBenchmarks {
  static func run(_ arguments: [String]) async throws {
    if arguments.first == "--once" {
      try once(directory: arguments.count > 1 ? arguments[1] : "locales")
      return
    }
    guard let directory = arguments.first else {
      throw BenchmarkError(
        "usage: ShieldBridgeBenchmarks localization LOCALES_DIR PEER_COMMAND… [-- ROUNDS]")
    }
    var peer = Array(arguments.dropFirst())
    var rounds = 50
    if let separator = peer.firstIndex(of: "--") {
      rounds = peer.count > separator + 1 ? Int(peer[separator + 1]) ?? rounds : rounds
      peer = Array(peer[..<separator])
    }
    let ours = try (0..<rounds).map { _ in
      try child([CommandLine.arguments[0], "localization", "--once", directory])
    }.sorted()
    report("cold: load all catalogs + render one notification", ours)
    if !peer.isEmpty {
      let theirs = try (0..<rounds).map { _ in try child(peer) }.sorted()
      report("peer cold: \(peerName(peer)), same catalogs as .mo, same work", theirs)
    }
    let catalogDirectory = CatalogDirectory(path: directory)
    let warm = Measure.samples(2000) {
      _ = render(CatalogSet.load(from: catalogDirectory))
    }
    report("warm: load all catalogs + render one notification", warm)
    let negotiated = Measure.samples(2000) {
      _ = Localizer.current(environment: ["LANG": "de_DE.UTF-8"], directory: catalogDirectory)
        .render(.shieldSummary(app: "Firefox"))
    }
    report("warm: negotiate, load the chain's catalog, render the summary", negotiated)
    let catalogs = CatalogSet.load(from: catalogDirectory)
    let renderOnly = Measure.samples(20_000) { _ = render(catalogs) }
    report("warm: render one notification (catalogs loaded)", renderOnly)
  }

  /// One cold round, in this fresh process: prints the nanoseconds it took.
  private static func once(directory: String) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let catalogs = CatalogSet.load(from: CatalogDirectory(path: directory))
    let length = render(catalogs)
    let elapsed = clock.now - start
    guard catalogs.catalogs.count >= 4, length > 0 else {
      throw BenchmarkError("no catalogs in \(directory)")
    }
    print(Int(elapsed.nanoseconds))
  }

  /// Renders the shield notification in German; returns its length so the work is not optimized away.
  private static func render(_ catalogs: CatalogSet) -> Int {
    let localizer = catalogs.localizer(chain: [LocaleTag("de") ?? .source])
    let texts = [
      localizer.render(.shieldSummary(app: "Firefox")),
      localizer.render(.shieldBody(app: "Firefox", minutes: 5), markup: true),
      localizer.render(.actionPuzzle),
      localizer.render(.actionView(view: "direct")),
    ]
    return texts.reduce(0) { $0 + $1.utf8.count }
  }

  /// Runs a command that prints nanoseconds, and reads them.
  private static func child(_ command: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0, let value = Double(text) else {
      throw BenchmarkError(
        "\(command.joined(separator: " ")) printed '\(text)' and exited \(process.terminationStatus)"
      )
    }
    return value
  }

  /// The peer's script name, such as `python_gettext.py`.
  private static func peerName(_ command: [String]) -> String {
    URL(fileURLWithPath: command.count > 1 ? command[1] : command[0]).lastPathComponent
  }

  private static func report(_ name: String, _ sorted: [Double]) {
    Measure.report(
      "localization", name, Measure.median(sorted) / 1000, "µs median",
      "p90 \(Int((Measure.quantile(sorted, 0.9) / 1000).rounded())) µs, n=\(sorted.count)")
  }
}

/// A benchmark that could not run, with the reason.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
