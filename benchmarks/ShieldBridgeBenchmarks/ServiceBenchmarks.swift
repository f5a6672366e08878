import DBus
import Foundation
import Notifications
import ShieldBridge
import Spawn
import Synchronization

/// `shieldbridge serve` as its own process: resident memory idle and over many
/// shield → click → dispatch cycles, and the time from a click to the
/// `Dispatched` signal; against a minimal Python program doing the same cycle
/// (`benchmarks/peers/service_peer.py`), each on a private bus in the same run.
///
/// `ShieldBridgeBenchmarks service WORK_DIR PYTHON PEER_SCRIPT CYCLES WARMUP NAME=SHIELDBRIDGE…`
///
/// Each `NAME=SHIELDBRIDGE` is a build of `shieldbridge` to measure (such as
/// `serve=.build/release/shieldbridge`); the peer runs last. Each program gets
/// a home of its own under WORK_DIR (config, state, runtime directory, and its
/// stderr in `stderr.log`).
///
/// A cycle: `Shield("Bench")` is called over the bus (the notification is
/// posted to the embedded server in this process), then the server clicks its
/// default action, and the cycle ends when `Dispatched` arrives. Before each
/// click the previous handler (`true`) must have exited and been reaped
/// (`/proc/PID/task/*/children` is empty): the service ends a puzzle's
/// activation before its handler is reaped, so its coalescing of an identifier
/// still in flight does not apply. Every record's outcome is counted, and
/// anything but `handler` fails the run.
enum ServiceBenchmarks {
  static let suite = "service"
  static let app = "Bench"

  static func run(_ arguments: [String]) async throws {
    let usage = "usage: ShieldBridgeBenchmarks service WORK_DIR PYTHON PEER_SCRIPT CYCLES WARMUP NAME=SHIELDBRIDGE…"
    guard arguments.count >= 6, let cycles = Int(arguments[3]), let warmUp = Int(arguments[4]) else {
      throw BenchmarkFailure(usage)
    }
    let work = arguments[0]
    var subjects: [Subject] = []
    for pair in arguments.dropFirst(5) {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw BenchmarkFailure(usage) }
      subjects.append(
        Subject(name: parts[0], home: Home(path: "\(work)/\(parts[0])")) { [parts[1], "serve", "--address", $0] })
    }
    subjects.append(
      Subject(name: "peer", home: Home(path: work + "/peer")) { [arguments[1], arguments[2], $0, "true"] })
    print("\(suite)\tcycles\t\(cycles) after a warm-up of \(warmUp)")
    for subject in subjects {
      try await measure(subject, cycles: cycles, warmUp: warmUp)
    }
  }

  /// A program under test: its argv for a bus address.
  struct Subject {
    var name: String
    var home: Home
    var argv: (String) -> [String]
  }

  private static func measure(_ subject: Subject, cycles: Int, warmUp: Int) async throws {
    let home = subject.home
    try home.create()
    let bus = try BusDaemon()
    defer { bus.stop() }
    let server = try NotificationServer(
      connection: try Connection(.address(bus.address)),
      configuration: NotificationServer.Configuration(capabilities: [
        Capability.actions, Capability.body, Capability.bodyMarkup, Capability.bodyHyperlinks,
      ]))
    try await server.start()
    let driver = try Connection(.address(bus.address))
    let (records, arrivals) = AsyncStream.makeStream(
      of: (instant: ContinuousClock.Instant, record: String).self, bufferingPolicy: .unbounded)
    let subscription = try await driver.addSignalHandler(
      matching: MatchRule(interface: ServiceNames.interface, member: ServiceNames.dispatched)
    ) { message in
      let now = ContinuousClock.now
      arrivals.yield((now, (try? message.decode(String.self)) ?? ""))
    }
    defer { subscription.cancel() }

    let log = open(home.file("stderr.log"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard log >= 0 else { throw BenchmarkFailure("cannot create \(home.file("stderr.log"))") }
    let child = try Subprocess(
      subject.argv(bus.address), environment: home.environment, standardInput: .null, standardOutput: .null,
      standardError: .descriptor(log))
    close(log)
    defer { if child.exitStatus == nil { child.terminate() } }
    let process = ProcessUnderTest(pid: child.pid)
    try await waitForName(on: driver, child: child, log: home.file("stderr.log"))

    let idle = try await process.settledMemory()
    report(subject.name, "idle", idle)

    // A cycle that waits longer than this for its signal ends the run with an error.
    let watchdog = Watchdog(limit: .seconds(20)) { arrivals.finish() }
    defer { watchdog.stop() }
    var iterator = records.makeAsyncIterator()
    var latencies: [Double] = []
    latencies.reserveCapacity(cycles)
    var outcomes: [String: Int] = [:]
    var afterWarmUp = idle
    var cpuAfterWarmUp = 0
    // Anonymous memory every tenth of the cycles: growth that goes on is a leak, growth that stops is a cache.
    var trace: [Int] = []
    for cycle in 0..<(warmUp + cycles) {
      if cycle == warmUp {
        afterWarmUp = try await process.settledMemory()
        cpuAfterWarmUp = try process.cpuTicks()
      }
      if cycle >= warmUp, (cycle - warmUp) % max(1, cycles / 10) == 0 {
        trace.append(try process.memory().anonymous)
      }
      let id = try await shield(on: driver)
      try await process.waitForNoChildren()
      let clicked = ContinuousClock.now
      try server.click(id)
      guard let arrival = await iterator.next() else {
        throw BenchmarkFailure("\(subject.name): no Dispatched signal within 20 s in cycle \(cycle)")
      }
      watchdog.progress()
      guard cycle >= warmUp else { continue }
      latencies.append((arrival.instant - clicked).nanoseconds)
      outcomes[outcome(of: arrival.record), default: 0] += 1
    }
    try await process.waitForNoChildren()
    let cpu = try process.cpuTicks() - cpuAfterWarmUp
    let after = try await process.settledMemory()

    report(subject.name, "after warm-up", afterWarmUp)
    report(subject.name, "after the cycles", after)
    Measure.report(
      suite, "\(subject.name) RSS growth over the cycles", Double(after.rss - afterWarmUp.rss), "KiB",
      "anonymous \(after.anonymous - afterWarmUp.anonymous) KiB, file \(after.file - afterWarmUp.file) KiB; "
        + "peak VmHWM \(after.peak) KiB, \(after.threads) threads")
    print("\(suite)\t\(subject.name) anonymous KiB every \(max(1, cycles / 10)) cycles\t\(trace + [after.anonymous])")
    latencies.sort()
    for (name, q) in [("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)] {
      Measure.report(suite, "\(subject.name) click to Dispatched \(name)", Measure.quantile(latencies, q) / 1000, "µs")
    }
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    Measure.report(
      suite, "\(subject.name) CPU per cycle", Double(cpu) / ticksPerSecond * 1e6 / Double(cycles), "µs",
      "user + system time of the process, handlers not counted")
    let counted = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print("\(suite)\t\(subject.name) outcomes\t\(counted)")

    let ended = child.terminate(grace: .seconds(10))
    guard ended == .exited(0) else { throw BenchmarkFailure("\(subject.name) \(ended) after SIGTERM") }
    let unexpected = try String(contentsOfFile: home.file("stderr.log"), encoding: .utf8)
      .split(separator: "\n")
      .filter { !($0.contains("dispatched puzzle") && $0.hasSuffix(": handler (true)")) && !$0.contains("shielded") }
      .filter { !$0.contains("serving ") && !$0.hasSuffix("stopped") }
    if !unexpected.isEmpty {
      print("\(suite)\t\(subject.name) other log lines\t\(unexpected.count), first: \(unexpected[0])")
    }
    if outcomes.count != 1 || outcomes["handler"] != cycles {
      throw BenchmarkFailure("\(subject.name): not every cycle dispatched the handler: \(counted)")
    }
  }

  private static func report(_ name: String, _ when: String, _ memory: ProcessUnderTest.Memory) {
    Measure.report(
      suite, "\(name) RSS \(when)", Double(memory.rss) / 1024, "MiB",
      "anonymous \(memory.anonymous) KiB, file \(memory.file) KiB, PSS \(memory.proportional) KiB")
  }

  // MARK: One cycle

  private static func shield(on driver: Connection) async throws -> UInt32 {
    let message = try Message.methodCall(
      destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceNames.interface,
      member: ServiceNames.shield)
    try message.append(app)
    return try await driver.call(message, timeout: .seconds(10)).decode(UInt32.self)
  }

  private static func outcome(of record: String) -> String {
    guard let json = try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any] else {
      return "unreadable record"
    }
    return json["outcome"] as? String ?? "no outcome"
  }

  /// Waits until the program owns the service's name (or has died).
  private static func waitForName(on driver: Connection, child: Subprocess, log: String) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if let ended = child.exitStatus {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw BenchmarkFailure("\(child.pid) \(ended) before it owned \(ServiceNames.busName): \(text)")
      }
      if try await driver.nameOwner(ServiceNames.busName) != nil { return }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw BenchmarkFailure("nothing owned \(ServiceNames.busName) within 20 s")
  }
}

/// The process under test, as `/proc` shows it.
private struct ProcessUnderTest {
  let pid: Int32

  /// Resident memory from `/proc/PID/status` and `smaps_rollup`, in KiB.
  struct Memory {
    var rss = 0
    var anonymous = 0
    var file = 0
    var proportional = 0
    var peak = 0
    var threads = 0
  }

  /// The memory once VmRSS has not changed for a second (sampled every 100 ms, for at most 15 s).
  func settledMemory() async throws -> Memory {
    var last = -1
    var unchanged = 0
    for _ in 0..<150 {
      let current = try fields("status")["VmRSS"] ?? 0
      unchanged = current == last ? unchanged + 1 : 0
      last = current
      if unchanged >= 10 { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    return try memory()
  }

  /// The memory now.
  func memory() throws -> Memory {
    let status = try fields("status")
    let rollup = try fields("smaps_rollup")
    return Memory(
      rss: status["VmRSS"] ?? 0, anonymous: status["RssAnon"] ?? 0, file: status["RssFile"] ?? 0,
      proportional: rollup["Pss"] ?? 0, peak: status["VmHWM"] ?? 0, threads: status["Threads"] ?? 0)
  }

  /// User and system time so far, in clock ticks (`/proc/PID/stat` fields 14 and 15).
  func cpuTicks() throws -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { throw BenchmarkFailure("process \(pid) is gone") }
    // After the command name in brackets: field 3 (state) is the first.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
      throw BenchmarkFailure("cannot read the CPU times of \(pid)")
    }
    return user + system
  }

  /// Waits until the process has no child left (each handler exited and was reaped).
  func waitForNoChildren() async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while hasChildren {
      guard ContinuousClock.now < deadline else { throw BenchmarkFailure("a handler of \(pid) ran for 10 s") }
      try await Task.sleep(for: .microseconds(100))
    }
  }

  private var hasChildren: Bool {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.contains { task in
      let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
      return children.contains { $0.isNumber }
    }
  }

  /// The numeric `Name: value` lines of `/proc/PID/NAME` (kB figures in KiB).
  private func fields(_ name: String) throws -> [String: Int] {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(name)", encoding: .utf8) else {
      throw BenchmarkFailure("process \(pid) is gone")
    }
    var fields: [String: Int] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      if let value = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first, let number = Int(value) {
        fields[String(parts[0])] = number
      }
    }
    return fields
  }
}

/// Calls `expired` once when ``progress()`` has not been called for `limit`.
private final class Watchdog: Sendable {
  private final class LastProgress: Sendable {
    let instant = Mutex(ContinuousClock.now)
  }

  private let last = LastProgress()
  private let task: Task<Void, Never>

  init(limit: Duration, expired: @escaping @Sendable () -> Void) {
    let last = self.last
    task = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(1))
        if ContinuousClock.now - last.instant.withLock({ $0 }) > limit {
          expired()
          return
        }
      }
    }
  }

  func progress() { last.instant.withLock { $0 = ContinuousClock.now } }

  func stop() { task.cancel() }
}

/// The home of one program under test: its config, state, runtime directory and log.
struct Home {
  var path: String

  func file(_ name: String) -> String { path + "/" + name }

  /// The directories, and a config whose puzzle handler is `true`, so that each click dispatches at once.
  func create() throws {
    try FileManager.default.createDirectory(atPath: file("config/shieldbridge"), withIntermediateDirectories: true)
    try #"{"rules":[{"name":"bench","apps":["Bench"]}],"handlers":{"puzzle":["true"]}}"#.write(
      toFile: file("config/shieldbridge/config.json"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: file("runtime"), withIntermediateDirectories: true)
  }

  /// Its own home, config, state and runtime directory; the source language; no display; a
  /// system PATH, so that finding `true` costs the same for every program and on every machine.
  var environment: [String: String] {
    [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": path,
      "XDG_CONFIG_HOME": file("config"), "XDG_STATE_HOME": file("state"), "XDG_RUNTIME_DIR": file("runtime"),
      "LANG": "C.UTF-8",
    ]
  }
}
