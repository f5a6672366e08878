import DeepLink
import Foundation
import Model

/// `ShieldBridgeBenchmarks deeplink BIN_DIR PYTHON_PEER [encode|parse|process|links]`:
/// percent-encoding, parse and resolve, and the whole `link parse --json`
/// process, each against its peer in the same run; all three without a part
/// named. `links` prints the links that `parse` alone measures, one a line,
/// for `benchmarks/deeplink-instructions`.
enum DeepLinkBenchmarks {
  static let suite = "deeplink"

  static func run(_ arguments: [String]) async throws {
    let parts = ["encode", "parse", "process"]
    guard arguments.count == 2 || (arguments.count == 3 && (parts + ["links"]).contains(arguments[2])) else {
      throw BenchmarkFailure("usage: ShieldBridgeBenchmarks deeplink BIN_DIR PYTHON_PEER [encode|parse|process|links]")
    }
    let selected = arguments.count == 3 ? [arguments[2]] : parts
    var generator = SeededRandom(seed: 2048)
    if selected == ["links"] {
      for _ in 0..<1000 { print(typicalLink(using: &generator)) }
      return
    }
    if selected.contains("encode") {
      encoding(name: "ascii", text: asciiText(bytes: 1 << 20, using: &generator))
      encoding(name: "latin-cjk", text: mixedText(bytes: 1 << 20, using: &generator))
      shortNames(using: &generator)
    }
    if selected.contains("parse") {
      try parsing((0..<1000).map { _ in typicalLink(using: &generator) })
    }
    if selected.contains("process") {
      try wholeProcess(binary: arguments[0] + "/shieldbridge", peer: arguments[1], using: &generator)
    }
  }

  // MARK: Encoding

  /// The unreserved set as Foundation spells it: ASCII letters, digits, `-._~`, nothing else.
  static let foundationSet = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  static func encoding(name: String, text: String) {
    let bytes = Double(text.utf8.count)
    var ours = ""
    var theirs: String?
    let samples = interleaved(rounds: 10, oursPerRound: 3) {
      ours = PercentEncoding.encode(text, using: .strictUnreserved)
    } theirs: {
      theirs = text.addingPercentEncoding(withAllowedCharacters: foundationSet)
    }
    let same = ours == theirs ? "same output" : "OUTPUTS DIFFER"
    let oursRate = bytes / Measure.median(samples.ours)  // bytes per ns = GB/s
    let theirRate = bytes / Measure.median(samples.theirs)
    Measure.report(suite, "encode-\(name)-1MiB", oursRate * 1000, "MB/s", "median of 30")
    Measure.report(suite, "encode-\(name)-1MiB-foundation", theirRate * 1000, "MB/s", "median of 10, \(same)")
    Measure.report(suite, "encode-\(name)-speedup", oursRate / theirRate, "x", "target >= 20")
  }

  /// Samples of `ours` and `theirs` taken in turns, so that both see the same
  /// load on a shared machine; each sorted.
  static func interleaved(rounds: Int, oursPerRound: Int, _ ours: () -> Void, theirs: () -> Void) -> (
    ours: [Double], theirs: [Double]
  ) {
    var oursSamples: [Double] = []
    var theirSamples: [Double] = []
    for _ in 0..<rounds {
      oursSamples += Measure.samples(oursPerRound, ours)
      theirSamples += Measure.samples(1, theirs)
    }
    return (oursSamples.sorted(), theirSamples.sorted())
  }

  /// Encoding many short app names, the builder's everyday work.
  static func shortNames(using generator: inout SeededRandom) {
    let names = (0..<10_000).map { _ in mixedText(bytes: Int.random(in: 4...24, using: &generator), using: &generator) }
    var total = 0
    let samples = interleaved(rounds: 10, oursPerRound: 3) {
      for name in names { total &+= PercentEncoding.encode(name).utf8.count }
    } theirs: {
      for name in names { total &+= name.addingPercentEncoding(withAllowedCharacters: foundationSet)?.utf8.count ?? 0 }
    }
    let count = Double(names.count)
    Measure.report(suite, "encode-short-name", Measure.median(samples.ours) / count, "ns/name", "4-24 bytes")
    Measure.report(
      suite, "encode-short-name-foundation", Measure.median(samples.theirs) / count, "ns/name", "checksum \(total % 10)"
    )
  }

  // MARK: Parsing

  static func parsing(_ links: [String]) throws {
    let router = Router(configuration: .standard)
    let expected = try links.map { try router.resolve($0).action }
    guard links.map(foundationResolve) == expected else {
      throw BenchmarkFailure("URLComponents resolves the links differently")
    }
    let meanLength = Double(links.reduce(0) { $0 + $1.utf8.count }) / Double(links.count)
    var resolved = 0
    let samples = interleaved(rounds: 30, oursPerRound: 10) {
      for link in links {
        do {
          resolved &+= try router.resolve(link).action.identifier.utf8.count
        } catch {
          resolved &+= 1
        }
      }
    } theirs: {
      for link in links {
        resolved &+= foundationResolve(link)?.identifier.utf8.count ?? 1
      }
    }
    let count = Double(links.count)
    let oursMedian = Measure.median(samples.ours) / count
    let theirMedian = Measure.median(samples.theirs) / count
    let note = "\(links.count) links, mean \(Int(meanLength.rounded())) bytes"
    Measure.report(suite, "parse-resolve", oursMedian, "ns/link", "median of 300, \(note), target <= 150")
    Measure.report(suite, "parse-resolve-p90", Measure.quantile(samples.ours, 0.9) / count, "ns/link")
    Measure.report(suite, "parse-resolve-best", Measure.quantile(samples.ours, 0) / count, "ns/link")
    Measure.report(
      suite, "parse-resolve-foundation", theirMedian, "ns/link", "URLComponents + queryItems, median of 30")
    Measure.report(suite, "parse-resolve-speedup", theirMedian / oursMedian, "x", "target >= 20")
  }

  /// The same link with Foundation: `URLComponents`, `queryItems`, and the same rules for values.
  static func foundationResolve(_ link: String) -> ShieldAction? {
    guard let components = URLComponents(string: link), components.scheme?.lowercased() == "shieldbridge",
      let route = components.host?.lowercased(), components.path.isEmpty
    else { return nil }
    var app: String?
    var grant = 5
    var id = "shield-open"
    var view = "home"
    var seen: Set<String> = []
    for item in components.queryItems ?? [] {
      guard seen.insert(item.name).inserted, let value = item.value else { return nil }
      switch item.name {
      case "app": app = value.isEmpty ? nil : value
      case "grant":
        guard let number = Int(value), (1...120).contains(number) else { return nil }
        grant = number
      case "id": id = value
      case "view": view = value
      default: break
      }
    }
    guard Tokens.isIdentifier(id) else { return nil }
    switch route {
    case "puzzle": return .puzzle(app: app, grant: grant, id: id)
    case "view":
      guard let app, Tokens.isViewName(view) else { return nil }
      return .view(app: app, view: view, id: id)
    default: return nil
    }
  }

  // MARK: Whole process

  static func wholeProcess(binary: String, peer: String, using generator: inout SeededRandom) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deeplink-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("links.txt")
    var text = ""
    text.reserveCapacity(80_000_000)
    let count = 1_000_000
    for index in 0..<count {
      // One link in a hundred is broken in one of the usual ways.
      text += index % 100 == 99 ? brokenLink(using: &generator) : typicalLink(using: &generator)
      text += "\n"
    }
    try Data(text.utf8).write(to: input)
    let megabytes = Double(text.utf8.count) / 1e6

    let ours = try timeProcess(
      [binary, "link", "parse", "--json"], input: input, output: directory.appendingPathComponent("ours.jsonl"))
    let theirs = try timeProcess(
      ["/usr/bin/env", "python3", peer], input: input, output: directory.appendingPathComponent("theirs.jsonl"))
    let agreement = try compare(
      directory.appendingPathComponent("ours.jsonl"), directory.appendingPathComponent("theirs.jsonl"))
    let note = "1M links, \(String(format: "%.1f", megabytes)) MB, wall time, best of 3"
    Measure.report(suite, "cli-parse-json-1M", ours.seconds, "s", "\(note), exit \(ours.status), target < 1")
    Measure.report(suite, "cli-parse-json-1M-cpu", ours.cpuSeconds, "s", "user + system of that run")
    Measure.report(suite, "cli-parse-json-1M-peak-rss", Double(ours.peakKilobytes) / 1024, "MiB")
    Measure.report(
      suite, "cli-parse-json-1M-python", theirs.seconds, "s", "urllib.parse peer, exit \(theirs.status), \(agreement)")
    Measure.report(suite, "cli-parse-json-1M-python-cpu", theirs.cpuSeconds, "s")
    Measure.report(suite, "cli-parse-json-1M-python-peak-rss", Double(theirs.peakKilobytes) / 1024, "MiB")
    Measure.report(suite, "cli-parse-json-1M-speedup", theirs.seconds / ours.seconds, "x", "target > 1")
  }

  struct ProcessTiming {
    var seconds: Double
    /// User and system time, which a busy machine inflates less than wall time.
    var cpuSeconds: Double
    var status: Int32
    var peakKilobytes: Int
  }

  /// The best wall time of three runs of `arguments` with `input` on stdin and stdout into `output`.
  ///
  /// The child is spawned directly and reaped with `wait4` for its own CPU
  /// time. Its peak memory is polled from `/proc/PID/status` (`VmHWM`) while it
  /// runs: `ru_maxrss` would report this process's size, which the spawned
  /// child shares until it calls `exec`.
  static func timeProcess(_ arguments: [String], input: URL, output: URL) throws -> ProcessTiming {
    var best = ProcessTiming(seconds: .infinity, cpuSeconds: 0, status: -1, peakKilobytes: 0)
    for _ in 0..<3 {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      let argv = arguments.map { strdup($0) } + [nil]
      defer {
        for argument in argv { free(argument) }
      }
      var pid: pid_t = 0
      let start = ContinuousClock.now
      let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
      guard spawned == 0 else { throw BenchmarkFailure("cannot start \(arguments[0]): \(spawned)") }
      var status: Int32 = 0
      var usage = rusage()
      var peak = 0
      while true {
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        if reaped == pid { break }
        if reaped < 0 && errno != EINTR { throw BenchmarkFailure("wait4 failed: \(errno)") }
        peak = max(peak, peakKilobytes(of: pid) ?? 0)
        usleep(2000)
      }
      let elapsed = (ContinuousClock.now - start).nanoseconds / 1e9
      let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
      if elapsed < best.seconds {
        best = ProcessTiming(seconds: elapsed, cpuSeconds: cpu, status: (status >> 8) & 0xFF, peakKilobytes: peak)
      }
    }
    return best
  }

  /// The peak resident size of a running process, `VmHWM` in `/proc/PID/status`.
  static func peakKilobytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.dropFirst(6).filter(\.isNumber)) }
  }

  /// Whether both outputs have the same lines for valid links and errors for the same lines.
  static func compare(_ ours: URL, _ theirs: URL) throws -> String {
    let left = try String(contentsOf: ours, encoding: .utf8).split(separator: "\n")
    let right = try String(contentsOf: theirs, encoding: .utf8).split(separator: "\n")
    guard left.count == right.count else { return "LINE COUNTS DIFFER: \(left.count) vs \(right.count)" }
    var differences = 0
    for (a, b) in zip(left, right) {
      let bothFailed = a.hasPrefix(#"{"ok":false"#) && b.hasPrefix(#"{"ok":false"#)
      if a != b && !bothFailed { differences += 1 }
    }
    return differences == 0 ? "same answers" : "\(differences) ANSWERS DIFFER"
  }

  // MARK: Inputs

  static let words = [
    "Instagram", "Reels", "the", "feed", "Photos", "and", "Messages", "TikTok", "YouTube", "Shorts", "news",
    "Mail", "2024", "v2.1", "Signal", "chat", "x", "Home", "Explore", "Stories", "Settings", "Weekly", "digest",
  ]
  static let punctuation = [" ", " ", " ", " ", " - ", ", ", ": ", " & ", "/", "+", "!", "?", "(", ")"]
  static let latinAndCJK = [
    "Café", "Fußball", "Ærø", "naïve", "Zoë", "piñata", "Ørsted", "señor", "東京", "日本語", "微信", "抖音", "카카오톡",
    "ニュース", "小红书", "写真", "Éditions", "Übersicht",
  ]

  /// About `bytes` bytes of ASCII prose: words, spaces and punctuation.
  static func asciiText(bytes: Int, using generator: inout SeededRandom) -> String {
    var text = ""
    while text.utf8.count < bytes {
      text += words.randomElement(using: &generator) ?? ""
      text += punctuation.randomElement(using: &generator) ?? ""
    }
    return text
  }

  /// About `bytes` bytes mixing ASCII words with accented Latin and CJK.
  static func mixedText(bytes: Int, using generator: inout SeededRandom) -> String {
    var text = ""
    while text.utf8.count < bytes {
      let pool = Bool.random(using: &generator) ? words : latinAndCJK
      text += pool.randomElement(using: &generator) ?? ""
      text += " "
    }
    return text
  }

  /// A link as a shield writes it: 60 to 90 bytes, puzzle or view.
  static func typicalLink(using generator: inout SeededRandom) -> String {
    while true {
      let router = Router(configuration: .standard)
      let app = (words + latinAndCJK).randomElement(using: &generator) ?? "App"
      let second = Bool.random(using: &generator) ? " " + (words.randomElement(using: &generator) ?? "") : ""
      let id = ["shield-open", "shield.instagram", "n-42", "focus_2"].randomElement(using: &generator) ?? "x"
      let action: ShieldAction =
        Int.random(in: 0..<4, using: &generator) == 0
        ? .view(
          app: app + second, view: ["messages", "home", "inbox"].randomElement(using: &generator) ?? "home", id: id)
        : .puzzle(app: app + second, grant: Int.random(in: 1...120, using: &generator), id: id)
      guard let link = try? router.link(for: action).description else { continue }
      if (60...90).contains(link.utf8.count) { return link }
    }
  }

  /// A link broken the way links break: a raw space, a bad escape, a foreign scheme, a grant out of range.
  static func brokenLink(using generator: inout SeededRandom) -> String {
    [
      "shieldbridge://puzzle?app=Insta gram&grant=5&id=shield-open",
      "shieldbridge://puzzle?app=Insta%G1gram&grant=5&id=shield-open",
      "https://example.org/puzzle?app=Instagram&grant=5",
      "shieldbridge://puzzle?app=Instagram&grant=500&id=shield-open",
      "shieldbridge://view?view=messages&id=shield-open",
    ].randomElement(using: &generator) ?? ""
  }
}

/// The token rules of the standard routes, checked the plain way.
enum Tokens {
  static func isIdentifier(_ text: String) -> Bool {
    (1...64).contains(text.utf8.count)
      && text.utf8.allSatisfy {
        isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
      }
  }

  static func isViewName(_ text: String) -> Bool {
    (1...32).contains(text.utf8.count)
      && text.utf8.allSatisfy {
        ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || $0 == UInt8(ascii: "-")
      }
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    let lower = byte | 0x20
    return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }
}
