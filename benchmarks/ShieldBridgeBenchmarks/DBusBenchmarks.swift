import DBus
import Foundation
import Spawn
import Synchronization

/// Blocking round trips and pipelined async calls to a method exported on a
/// second connection, against the C baseline (`benchmarks/c/dbus_baseline.c`)
/// on the same private bus in the same run.
///
/// `ShieldBridgeBenchmarks dbus BASELINE_BINARY [ROUNDS]`
enum DBusBenchmarks {
  /// How many calls each round makes; `BLOCKING_CALLS` and `PIPELINED_CALLS` change them (for profiling).
  static let blockingCalls = count("BLOCKING_CALLS", default: 20_000)
  static let pipelinedCalls = count("PIPELINED_CALLS", default: 100_000)
  static let window = 1_000

  static func count(_ variable: String, default value: Int) -> Int {
    ProcessInfo.processInfo.environment[variable].flatMap(Int.init) ?? value
  }

  static func run(_ arguments: [String]) async throws {
    guard let baseline = arguments.first else {
      throw BenchmarkFailure("usage: ShieldBridgeBenchmarks dbus BASELINE_BINARY [ROUNDS]")
    }
    let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let client = try Connection(.address(bus.address))
    let path = try ObjectPath("/org/example/Bench")
    let interface = try InterfaceName("org.example.Bench")
    try server.export(
      [
        try Interface(
          interface.rawValue,
          methods: [
            try Method("Echo", inputs: "s", outputs: "s") { call in [.string(try call.decode(String.self))] }
          ])
      ], at: path)
    let destination = server.uniqueName
    let member = try MemberName("Echo")
    @Sendable func makeCall() throws -> Message {
      let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
      try message.append("payload")
      return message
    }

    var swiftBlocking: [Double] = []
    var swiftPipelined: [Double] = []
    var cBlocking: [Double] = []
    var cPipelined: [Double] = []
    var crossBlocking: [Double] = []
    var swiftHandlers: [Double] = []
    for _ in 0..<rounds {
      // Blocking: a plain thread, as a C program would call.
      swiftBlocking.append(
        try await onThread {
          let start = ContinuousClock.now
          for _ in 0..<blockingCalls {
            _ = try client.callBlocking(try makeCall()).decode(String.self)
          }
          return (ContinuousClock.now - start).nanoseconds / Double(blockingCalls)
        })

      // Pipelined: up to `window` calls in flight at once.
      let start = ContinuousClock.now
      try await withThrowingTaskGroup(of: Void.self) { group in
        var started = 0
        while started < min(window, pipelinedCalls) {
          group.addTask { _ = try await client.call(try makeCall()).decode(String.self) }
          started += 1
        }
        while try await group.next() != nil {
          if started < pipelinedCalls {
            group.addTask { _ = try await client.call(try makeCall()).decode(String.self) }
            started += 1
          }
        }
      }
      swiftPipelined.append(Double(pipelinedCalls) / ((ContinuousClock.now - start).nanoseconds / 1e9))

      // Pipelined with completion handlers: the C baseline's pattern, no task per call.
      let handlerStart = ContinuousClock.now
      try await Pipeline(total: pipelinedCalls, window: window, makeCall: makeCall).run(on: client)
      swiftHandlers.append(Double(pipelinedCalls) / ((ContinuousClock.now - handlerStart).nanoseconds / 1e9))

      let result = try Subprocess.run(
        [baseline, bus.address, String(blockingCalls), String(pipelinedCalls), String(window)],
        timeout: .seconds(300))
      guard result.status == 0 else { throw BenchmarkFailure("C baseline failed: \(result.error)") }
      for line in result.output.split(separator: "\n") {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[1]) else { continue }
        if parts[0] == "blocking_ns_per_call" { cBlocking.append(value) }
        if parts[0] == "pipelined_calls_per_second" { cPipelined.append(value) }
      }
      // The C client against the Swift server: tells the two sides apart.
      let cross = try Subprocess.run(
        [baseline, bus.address, String(blockingCalls), "1", "1", server.uniqueName.rawValue], timeout: .seconds(300))
      for line in cross.output.split(separator: "\n") where line.hasPrefix("blocking_ns_per_call ") {
        if let value = Double(line.split(separator: " ")[1]) { crossBlocking.append(value) }
      }
    }
    Measure.report(
      "dbus", "blocking call, C client → Swift server", Measure.median(crossBlocking.sorted()) / 1000, "µs/call")
    let blocking = (Measure.median(swiftBlocking.sorted()), Measure.median(cBlocking.sorted()))
    let pipelined = (Measure.median(swiftPipelined.sorted()), Measure.median(cPipelined.sorted()))
    Measure.report("dbus", "blocking call, Swift", blocking.0 / 1000, "µs/call", "\(Int(1e9 / blocking.0)) calls/s")
    Measure.report("dbus", "blocking call, C", blocking.1 / 1000, "µs/call", "\(Int(1e9 / blocking.1)) calls/s")
    Measure.report("dbus", "blocking ratio Swift/C", blocking.0 / blocking.1, "×", "target ≤ 1.2")
    Measure.report("dbus", "pipelined, Swift tasks", pipelined.0, "calls/s", "window \(window), a task per call")
    let handlers = Measure.median(swiftHandlers.sorted())
    Measure.report("dbus", "pipelined, Swift handlers", handlers, "calls/s", "window \(window), completion handlers")
    Measure.report("dbus", "pipelined, C", pipelined.1, "calls/s", "window \(window)")
    Measure.report("dbus", "pipelined ratio Swift tasks/C", pipelined.0 / pipelined.1 * 100, "%", "target ≥ 70")
    Measure.report("dbus", "pipelined ratio Swift handlers/C", handlers / pipelined.1 * 100, "%", "target ≥ 70")
    print("dbus\trounds\t\(rounds) (medians; Swift and C alternate on one bus)")
  }

  /// Keeps `window` calls in flight with completion handlers: each reply sends the next call.
  final class Pipeline: Sendable {
    let total: Int
    let window: Int
    let makeCall: @Sendable () throws -> Message
    private let state = Mutex((sent: 0, done: 0, finished: nil as CheckedContinuation<Void, any Error>?))

    init(total: Int, window: Int, makeCall: @escaping @Sendable () throws -> Message) {
      self.total = total
      self.window = window
      self.makeCall = makeCall
    }

    func run(on connection: Connection) async throws {
      try await withCheckedThrowingContinuation { continuation in
        state.withLock { $0.finished = continuation }
        for _ in 0..<min(window, total) { sendNext(on: connection) }
      }
    }

    private func sendNext(on connection: Connection) {
      guard
        state.withLock({ state -> Bool in
          guard state.sent < total else { return false }
          state.sent += 1
          return true
        })
      else { return }
      do {
        try connection.call(try makeCall()) { [self] result in
          let finished = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.done += 1
            return state.done == total ? state.finished : nil
          }
          if case .failure(let error) = result { print("dbus\tpipelined call failed\t\(error)") }
          if let finished { finished.resume() } else { sendNext(on: connection) }
        }
      } catch {
        state.withLock { $0.finished }?.resume(throwing: error)
      }
    }
  }

  /// Runs `body` on a new thread and waits for it without blocking the concurrency pool.
  static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      detachThread { continuation.resume(with: Result { try body() }) }
    }
  }
}
