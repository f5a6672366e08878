import Config
import DBus
import Foundation
import Notifications
import Posix
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
/// `serve=.build/release/shieldbridge`); the peer comes after them. Each
/// program gets a home of its own under WORK_DIR (config, state, runtime
/// directory, and its stderr in `stderr.log`).
///
/// All programs run at once, each on a bus of its own, and take turns: one
/// cycle of each, then the next. A cycle: `Shield("Bench")` is called over the
/// bus (the notification is posted to the embedded server in this process),
/// then the server clicks its default action, and the cycle ends when
/// `Dispatched` arrives. Before each click the previous handler (`true`) must
/// have exited and been reaped (`/proc/PID/task/*/children` is empty): the
/// service ends a puzzle's activation before its handler is reaped, so its
/// coalescing of an identifier still in flight does not apply. Every record's
/// outcome is counted, and anything but `handler` fails the run.
enum ServiceBenchmarks {
  static let suite = "service"
  static let app = "Bench"

  static func run(_ arguments: [String]) async throws {
    let usage = "usage: ShieldBridgeBenchmarks service WORK_DIR PYTHON PEER_SCRIPT CYCLES WARMUP NAME=SHIELDBRIDGE…"
    guard arguments.count >= 6, let cycles = Int(arguments[3]), let warmUp = Int(arguments[4]), cycles > 0 else {
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

    var rigs: [Rig] = []
    for subject in subjects { rigs.append(try await Rig.start(subject)) }
    for rig in rigs { rig.idle = try await rig.process.settledMemory() }
    // A cycle that waits longer than this for its signal ends the run with an error.
    let watchdog = Watchdog(limit: .seconds(20)) { [arrivals = rigs.map(\.arrivals)] in
      for continuation in arrivals { continuation.finish() }
    }
    defer { watchdog.stop() }

    // One cycle of each program in turn, starting with a different one each
    // time, so that a change in the machine's load falls on all of them alike.
    let traceEvery = max(1, cycles / 10)
    for cycle in 0..<(warmUp + cycles) {
      if cycle == warmUp {
        for rig in rigs {
          try await rig.process.waitForNoChildren()
          rig.afterWarmUp = try await rig.process.settledMemory()
          rig.cpu = try rig.process.cpuTicks()
        }
      }
      for turn in 0..<rigs.count {
        let rig = rigs[(cycle + turn) % rigs.count]
        if cycle >= warmUp, (cycle - warmUp) % traceEvery == 0 {
          rig.trace.append(try rig.process.memory().anonymous)
        }
        try await rig.cycle(measured: cycle >= warmUp)
        watchdog.progress()
      }
    }
    for rig in rigs {
      try await rig.process.waitForNoChildren()
      rig.cpu = try rig.process.cpuTicks() - rig.cpu
      rig.after = try await rig.process.settledMemory()
    }

    print("\(suite)\tcycles\t\(cycles) of each program in turn, after a warm-up of \(warmUp)")
    for rig in rigs { try rig.finish(cycles: cycles, traceEvery: traceEvery) }
  }

  /// A program under test: its argv for a bus address.
  struct Subject {
    var name: String
    var home: Home
    var argv: (String) -> [String]
  }

  /// When a `Dispatched` signal arrived, and its record.
  typealias Arrival = (instant: ContinuousClock.Instant, record: String)

  /// One program under test on a private bus of its own, with its own embedded
  /// notification server and a connection that drives it; and its figures.
  private final class Rig {
    let subject: Subject
    let bus: BusDaemon
    let server: NotificationServer
    let driver: Connection
    let subscription: SignalSubscription
    let arrivals: AsyncStream<Arrival>.Continuation
    var records: AsyncStream<Arrival>.Iterator
    let child: Subprocess
    let process: ProcessUnderTest

    var idle = ProcessUnderTest.Memory()
    var afterWarmUp = ProcessUnderTest.Memory()
    var after = ProcessUnderTest.Memory()
    /// CPU ticks after the warm-up; then those of the measured cycles.
    var cpu = 0
    var latencies: [Double] = []
    var outcomes: [String: Int] = [:]
    /// Anonymous memory every tenth of the cycles: growth that goes on is a leak, growth that stops is a cache.
    var trace: [Int] = []

    private init(
      subject: Subject, bus: BusDaemon, server: NotificationServer, driver: Connection,
      subscription: SignalSubscription, records: AsyncStream<Arrival>, arrivals: AsyncStream<Arrival>.Continuation,
      child: Subprocess
    ) {
      self.subject = subject
      self.bus = bus
      self.server = server
      self.driver = driver
      self.subscription = subscription
      self.records = records.makeAsyncIterator()
      self.arrivals = arrivals
      self.child = child
      process = ProcessUnderTest(pid: child.pid)
    }

    deinit {
      subscription.cancel()
      if child.exitStatus == nil { child.terminate() }
      bus.stop()
    }

    /// Starts the bus, the server, the driver and the program, and waits until the program owns the service's name.
    static func start(_ subject: Subject) async throws -> Rig {
      let home = subject.home
      try home.create()
      let bus = try BusDaemon()
      let server = try NotificationServer(
        connection: try Connection(.address(bus.address)),
        configuration: NotificationServer.Configuration(capabilities: [
          Capability.actions, Capability.body, Capability.bodyMarkup, Capability.bodyHyperlinks,
        ]))
      try await server.start()
      let driver = try Connection(.address(bus.address))
      let (records, arrivals) = AsyncStream.makeStream(of: Arrival.self, bufferingPolicy: .unbounded)
      let subscription = try await driver.addSignalHandler(
        matching: MatchRule(interface: ServiceInterface.name, member: ServiceInterface.dispatched.name)
      ) { message in
        let now = ContinuousClock.now
        arrivals.yield((now, (try? message.decode(String.self)) ?? ""))
      }
      let logNumber = open(home.file("stderr.log"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      guard logNumber >= 0 else { throw BenchmarkFailure("cannot create \(home.file("stderr.log"))") }
      let log = FileDescriptor(owning: logNumber)
      let child = try Subprocess(
        subject.argv(bus.address), environment: home.environment, standardInput: .null, standardOutput: .null,
        standardError: .descriptor(log))
      try? log.close()
      let rig = Rig(
        subject: subject, bus: bus, server: server, driver: driver, subscription: subscription, records: records,
        arrivals: arrivals, child: child)
      try await rig.waitForName()
      return rig
    }

    /// Shield, wait until the last handler is gone, click, and wait for `Dispatched`.
    func cycle(measured: Bool) async throws {
      let message = try Message.methodCall(
        destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceInterface.name,
        member: ServiceInterface.shield.name)
      try message.append(ServiceBenchmarks.app)
      let id = try await driver.call(message, timeout: .seconds(10)).decode(UInt32.self)
      try await process.waitForNoChildren()
      let clicked = ContinuousClock.now
      try server.click(id)
      guard let arrival = await records.next() else {
        throw BenchmarkFailure("\(subject.name): no Dispatched signal within 20 s")
      }
      guard measured else { return }
      latencies.append((arrival.instant - clicked).nanoseconds)
      outcomes[Self.outcome(of: arrival.record), default: 0] += 1
    }

    /// Prints the figures, stops the program and checks how it ended and what it logged.
    func finish(cycles: Int, traceEvery: Int) throws {
      let name = subject.name
      report("idle", idle)
      report("after warm-up", afterWarmUp)
      report("after the cycles", after)
      Measure.report(
        suite, "\(name) RSS growth over the cycles", Double(after.rss - afterWarmUp.rss), "KiB",
        "anonymous \(after.anonymous - afterWarmUp.anonymous) KiB, file \(after.file - afterWarmUp.file) KiB; "
          + "peak VmHWM \(after.peak) KiB, \(after.threads) threads")
      print("\(suite)\t\(name) anonymous KiB every \(traceEvery) cycles\t\(trace + [after.anonymous])")
      latencies.sort()
      for (figure, q) in [("median", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0)] {
        Measure.report(suite, "\(name) click to Dispatched \(figure)", Measure.quantile(latencies, q) / 1000, "µs")
      }
      let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
      Measure.report(
        suite, "\(name) CPU per cycle", Double(cpu) / ticksPerSecond * 1e6 / Double(cycles), "µs",
        "user + system time of the process, handlers not counted")
      let counted = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      print("\(suite)\t\(name) outcomes\t\(counted)")

      let ended = child.terminate(grace: .seconds(10))
      guard ended == .exited(0) else { throw BenchmarkFailure("\(name) \(ended) after SIGTERM") }
      let unexpected = try String(contentsOfFile: subject.home.file("stderr.log"), encoding: .utf8)
        .split(separator: "\n")
        .filter { !($0.contains("dispatched puzzle") && $0.hasSuffix(": handler (true)")) && !$0.contains("shielded") }
        .filter { !$0.contains("serving ") && !$0.hasSuffix("stopped") }
      if !unexpected.isEmpty {
        print("\(suite)\t\(name) other log lines\t\(unexpected.count), first: \(unexpected[0])")
      }
      if outcomes.count != 1 || outcomes["handler"] != cycles {
        throw BenchmarkFailure("\(name): not every cycle dispatched the handler: \(counted)")
      }
    }

    private func report(_ when: String, _ memory: ProcessUnderTest.Memory) {
      Measure.report(
        suite, "\(subject.name) RSS \(when)", Double(memory.rss) / 1024, "MiB",
        "anonymous \(memory.anonymous) KiB, file \(memory.file) KiB, PSS \(memory.proportional) KiB")
    }

    private static func outcome(of record: String) -> String {
      guard let json = try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any] else {
        return "unreadable record"
      }
      return json["outcome"] as? String ?? "no outcome"
    }

    /// Waits until the program owns the service's name (or has died).
    private func waitForName() async throws {
      let deadline = ContinuousClock.now + .seconds(20)
      while ContinuousClock.now < deadline {
        if let ended = child.exitStatus {
          let text = (try? String(contentsOfFile: subject.home.file("stderr.log"), encoding: .utf8)) ?? ""
          throw BenchmarkFailure("\(subject.name) \(ended) before it owned \(ServiceNames.busName): \(text)")
        }
        if try await driver.nameOwner(ServiceNames.busName) != nil { return }
        try await Task.sleep(for: .milliseconds(10))
      }
      throw BenchmarkFailure("\(subject.name) did not own \(ServiceNames.busName) within 20 s")
    }
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
