import Foundation

/// Timing helpers shared by the suites: repeated samples, medians and percentiles.
enum Measure {
  /// Runs `body` `samples` times and returns each run's duration in nanoseconds, sorted.
  static func samples(_ samples: Int, _ body: () throws -> Void) rethrows -> [Double] {
    var results: [Double] = []
    results.reserveCapacity(samples)
    let clock = ContinuousClock()
    for _ in 0..<samples {
      let elapsed = try clock.measure(body)
      results.append(elapsed.nanoseconds)
    }
    return results.sorted()
  }

  /// Runs `body` `count` times; each run's CPU time of the whole process in nanoseconds, sorted.
  static func cpuSamples(_ count: Int, _ body: () throws -> Void) rethrows -> [Double] {
    func cpu() -> Double {
      var time = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
      return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }
    var results: [Double] = []
    for _ in 0..<count {
      let start = cpu()
      try body()
      results.append(cpu() - start)
    }
    return results.sorted()
  }

  /// The value at quantile `q` (0…1) of sorted values.
  static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * q).rounded())))
    return sorted[index]
  }

  /// The median of sorted values.
  static func median(_ sorted: [Double]) -> Double { quantile(sorted, 0.5) }

  /// The resident set size of this process in kilobytes, from `/proc/self/status`.
  static func residentKilobytes(pid: Int32? = nil) -> Int? {
    let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
    guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return line.flatMap { Int($0.dropFirst(6).filter(\.isNumber)) }
  }

  /// Prints one result line: `suite  name  value unit  (note)`.
  static func report(_ suite: String, _ name: String, _ value: Double, _ unit: String, _ note: String = "") {
    let formatted = value >= 100 ? String(Int(value.rounded())) : String((value * 100).rounded() / 100)
    print("\(suite)\t\(name)\t\(formatted) \(unit)\(note.isEmpty ? "" : "\t\(note)")")
  }
}

extension Duration {
  /// The duration in nanoseconds.
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}

/// A suite that cannot run or whose peer disagrees: the message, and exit 1.
struct BenchmarkFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
