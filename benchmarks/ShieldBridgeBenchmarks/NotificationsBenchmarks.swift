import DBus
import Foundation
import Notifications
import Posix
import Spawn
import Synchronization

/// `ShieldBridgeBenchmarks notifications BIN [--samples N] [--count N] [--dunstrc FILE] [--static-bin DIR]`
/// (`--samples 0` or `--count 0` skips a part; `--static-bin` adds a build
/// with the Swift runtime linked statically to the one-shot comparison).
///
/// 1. One-shot posts, whole process: `shieldbridge notify` against
///    `notify-send` posting the same notification to the same dunst (on a
///    virtual display and a private bus), interleaved run by run so that the
///    machine's load falls on both alike; medians and spread in milliseconds.
/// 2. Throughput: `Notify` calls pipelined over one connection to the embedded
///    server (`shieldbridge notification-server`, recording to a file), and
///    the server's resident memory afterwards; dunst takes the same load as
///    the peer.
enum NotificationsBenchmarks {
  static func run(_ arguments: [String]) async throws {
    guard let bin = arguments.first else {
      throw BenchmarkFailure(
        "usage: notifications BIN [--samples N] [--count N] [--dunstrc FILE] [--static-bin DIR]")
    }
    func option(_ name: String) -> String? {
      arguments.firstIndex(of: name).flatMap {
        arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
      }
    }
    let samples = option("--samples").flatMap(Int.init) ?? 200
    let count = option("--count").flatMap(Int.init) ?? 100_000
    let dunstrc = option("--dunstrc") ?? "Tests/Fixtures/dunstrc"
    let shieldbridge = bin + "/shieldbridge"
    let staticBuild = option("--static-bin").map { $0 + "/shieldbridge" }

    let desktop = try await Desktop(dunstrc: dunstrc)
    defer { desktop.stop() }
    if samples > 0 {
      try await oneShot(
        shieldbridge: shieldbridge, staticBuild: staticBuild, desktop: desktop, samples: samples)
    }
    if count > 0 {
      try await throughput(shieldbridge: shieldbridge, count: count, desktop: desktop)
    }
  }

  // MARK: One-shot posts

  private static func oneShot(
    shieldbridge: String, staticBuild: String?, desktop: Desktop, samples: Int
  ) async throws {
    let summary = "Instagram is shielded"
    let body = "Solve a puzzle for 5 more minutes"
    var commands: [(name: String, argv: [String])] = [
      (
        "shieldbridge notify",
        [shieldbridge, "notify", summary, body, "--app-name", "ShieldBridge"]
      ),
      ("notify-send", ["notify-send", "--app-name=ShieldBridge", summary, body]),
    ]
    if let staticBuild {
      commands.append(
        (
          "shieldbridge notify, static Swift runtime",
          [staticBuild, "notify", summary, body, "--app-name", "ShieldBridge"]
        ))
    }
    for command in commands {
      guard try await desktop.timedRun(command.argv) != nil else {
        throw BenchmarkFailure("\(command.name) failed; is it installed (libnotify-bin)?")
      }
    }
    // Warm the page cache and the bus for both before measuring.
    for _ in 0..<10 {
      for command in commands { _ = try await desktop.timedRun(command.argv) }
    }
    var times: [[Double]] = Array(repeating: [], count: commands.count)
    for sample in 0..<samples {
      // Every command goes first, last and in between equally often.
      let shift = sample % commands.count
      let rotated = Array(commands.indices[shift...]) + Array(commands.indices[..<shift])
      let order = (sample / commands.count) % 2 == 0 ? rotated : rotated.reversed()
      for index in order {
        try desktop.closeAll()
        guard let elapsed = try await desktop.timedRun(commands[index].argv) else {
          throw BenchmarkFailure("\(commands[index].name) failed during the measurement")
        }
        times[index].append(elapsed)
      }
    }
    let medians = times.map { Measure.median($0.sorted()) }
    for (index, command) in commands.enumerated() {
      let sorted = times[index].sorted()
      Measure.report(
        "notifications", "one-shot post, \(command.name), median", medians[index] / 1e6, "ms",
        "p10 \(milliseconds(Measure.quantile(sorted, 0.1))) ms, p90 \(milliseconds(Measure.quantile(sorted, 0.9))) ms, \(samples) runs interleaved"
      )
    }
    Measure.report(
      "notifications", "one-shot post, shieldbridge / notify-send", medians[0] / medians[1], "x")
    if commands.count > 2 {
      Measure.report(
        "notifications", "one-shot post, shieldbridge (static Swift runtime) / notify-send",
        medians[2] / medians[1], "x")
    }
  }

  // MARK: Throughput and memory

  private static func throughput(shieldbridge: String, count: Int, desktop: Desktop) async throws {
    let bus = try BusDaemon()
    let record = NSTemporaryDirectory() + "/shieldbridge-bench-record-\(getpid()).jsonl"
    defer { unlink(record) }
    let server = try Subprocess(
      [shieldbridge, "notification-server", "--address", bus.address, "--record", record],
      standardInput: .null, standardOutput: .null, standardError: .inherit)
    defer { server.terminate() }
    let watcher = try Connection(.address(bus.address))
    let tracker = try await NameOwnerTracker.track(NotificationsNames.busName, on: watcher)
    guard await tracker.waitForOwner(timeout: .seconds(10)) != nil else {
      throw BenchmarkFailure("the embedded server did not start")
    }
    let startKB = Measure.residentKilobytes(pid: server.pid) ?? 0
    for prepared in [true, false] {
      let cpuBefore = [server.pid, bus.pid, getpid()].map(cpuSeconds)
      let rate = try await pipelined(count / 2, to: bus.address, prepared: prepared)
      let cpu = zip([server.pid, bus.pid, getpid()].map(cpuSeconds), cpuBefore).map { $0 - $1 }
      let perPost = cpu.map { microseconds($0 / Double(count / 2)) }
      Measure.report(
        "notifications",
        "embedded server, \(count / 2) pipelined posts, "
          + (prepared ? "copies of one prepared call" : "each call built"),
        rate, "notifications/s",
        "CPU per post: server \(perPost[0]) µs, dbus-daemon \(perPost[1]) µs, client \(perPost[2]) µs"
      )
    }
    let endKB = Measure.residentKilobytes(pid: server.pid) ?? 0
    let peakKB = peakResidentKilobytes(pid: server.pid) ?? 0
    Measure.report(
      "notifications", "embedded server, resident memory after \(count)", Double(endKB) / 1024,
      "MB",
      "\(String(format: "%.1f", Double(startKB) / 1024)) MB at start, peak \(String(format: "%.1f", Double(peakKB) / 1024)) MB"
    )

    // The peer: dunst takes a tenth of the load on the same kind of private bus.
    let peerCount = max(1, count / 10)
    let peerRate = try await pipelined(peerCount, to: desktop.bus.address, prepared: true)
    let dunstKB = desktop.dunstPID.flatMap { Measure.residentKilobytes(pid: $0) } ?? 0
    Measure.report(
      "notifications", "dunst, \(peerCount) pipelined posts", peerRate, "notifications/s",
      "resident memory afterwards \(String(format: "%.1f", Double(dunstKB) / 1024)) MB")
  }

  /// Posts `count` notifications over one connection, keeping up to 256 calls
  /// in flight (each reply, with the id, is awaited); returns posts per second.
  ///
  /// Every reply posts the next notification from the connection's own
  /// thread (its completion handler), so that the client keeps the window
  /// full without handing each post to another thread.
  ///
  /// - Parameter prepared: Send copies of one prepared message instead of
  ///   building each (libdbus spends tens of microseconds building a `Notify`
  ///   call, since it rewrites the header for every top-level argument).
  private static func pipelined(_ count: Int, to address: String, prepared: Bool) async throws
    -> Double
  {
    let connection = try Connection(.address(address))
    defer { connection.close() }
    let template = try notifyMessage(0)
    let poster = Poster(connection: connection, count: count) { index throws(DBusError) in
      prepared ? try template.copy() : try notifyMessage(index)
    }
    let clock = ContinuousClock()
    let started = clock.now
    poster.start(window: 256)
    poster.finished.wait()
    let elapsed = clock.now - started
    if let (failed, first) = poster.failures {
      throw BenchmarkFailure("\(failed) posts failed, the first with \(first)")
    }
    return Double(count) / (elapsed.nanoseconds / 1e9)
  }

  private static func notifyMessage(_ index: Int) throws(DBusError) -> Message {
    let message = try Message.methodCall(
      destination: NotificationsNames.busName, path: NotificationsNames.path,
      interface: NotificationsInterface.name,
      member: MemberName("Notify"))
    try message.append(values: [
      .string("ShieldBridge"), .uint32(0), .string("dialog-information"),
      .string("Instagram is shielded"),
      .string("Solve a puzzle for 5 more minutes (\(index))"),
      .array(
        element: .string,
        [.string("default"), .string("Solve"), .string("view"), .string("Messages")]),
      .dictionary(
        key: .string, value: .variant,
        [
          .init(.string("urgency"), .variant(.byte(1))),
          .init(.string("category"), .variant(.string("x.shield"))),
          // dunst replaces the shown notification instead of stacking thousands; ours records it.
          .init(.string("x-dunst-stack-tag"), .variant(.string("shield-open"))),
        ]),
      .int32(0),
    ])
    return message
  }

  private static func microseconds(_ seconds: Double) -> String {
    String(format: "%.1f", seconds * 1e6)
  }

  /// The processor time (user and system) a process has used so far, from `/proc/PID/stat`.
  private static func cpuSeconds(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    // After the command: state is field 3; utime and stime are fields 14 and 15.
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  private static func milliseconds(_ nanoseconds: Double) -> String {
    String(format: "%.2f", nanoseconds / 1e6)
  }

  /// The highest resident set size of a process so far (`VmHWM`), in kilobytes.
  private static func peakResidentKilobytes(pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return nil
    }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.dropFirst(6).filter(\.isNumber)) }
  }
}

/// Keeps a window of `Notify` calls in flight: each reply posts the next one.
private final class Poster: Sendable {
  private let connection: Connection
  private let count: Int
  private let make: @Sendable (Int) throws(DBusError) -> Message
  private let state = Mutex<(next: Int, answered: Int, failed: Int, first: DBusError?)>((0, 0, 0, nil))
  /// Signalled once every post has its answer.
  let finished = DispatchSemaphore(value: 0)

  init(connection: Connection, count: Int, make: @escaping @Sendable (Int) throws(DBusError) -> Message) {
    self.connection = connection
    self.count = count
    self.make = make
  }

  /// How many posts failed and the first error, `nil` when none did.
  var failures: (Int, DBusError)? {
    state.withLock { state in state.first.map { (state.failed, $0) } }
  }

  /// Posts the first `window` notifications; their replies post the rest.
  func start(window: Int) {
    if count == 0 { finished.signal() }
    for _ in 0..<min(window, count) { postNext() }
  }

  private func postNext() {
    let index: Int? = state.withLock { state in
      guard state.next < count else { return nil }
      defer { state.next += 1 }
      return state.next
    }
    guard let index else { return }
    do {
      try connection.call(try make(index), timeout: .seconds(30)) { [self] result in
        answered(result.map { _ in () })
      }
    } catch {
      answered(.failure(error))
    }
  }

  private func answered(_ result: Result<Void, DBusError>) {
    let done = state.withLock { state in
      if case .failure(let error) = result {
        state.failed += 1
        if state.first == nil { state.first = error }
      }
      state.answered += 1
      return state.answered == count
    }
    if done { finished.signal() } else { postNext() }
  }
}

/// Xvfb, a private bus and dunst, for the peer measurements.
private final class Desktop: @unchecked Sendable {
  let bus: BusDaemon
  private let xvfb: Subprocess
  private let dunst: Subprocess
  private let runtime: String
  let environment: [String: String]

  init(dunstrc: String) async throws {
    xvfb = try Subprocess(
      ["Xvfb", "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
      standardInput: .null,
      standardOutput: .pipe, standardError: .null)
    guard let output = xvfb.standardOutput, let number = readLine(output), Int(number) != nil else {
      xvfb.terminate()
      throw BenchmarkFailure("Xvfb did not start (install xvfb)")
    }
    bus = try BusDaemon()
    runtime = NSTemporaryDirectory() + "/shieldbridge-bench-\(getpid())"
    mkdir(runtime, 0o700)
    environment = ProcessInfo.processInfo.environment.merging([
      "DISPLAY": ":" + number, "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime,
    ]) { $1 }
    dunst = try Subprocess(
      ["dunst", "-config", dunstrc], environment: environment, standardInput: .null,
      standardOutput: .null,
      standardError: .null)
    let watcher = try Connection(.address(bus.address))
    let tracker = try await NameOwnerTracker.track(NotificationsNames.busName, on: watcher)
    guard await tracker.waitForOwner(timeout: .seconds(10)) != nil else {
      throw BenchmarkFailure("dunst did not start (install dunst)")
    }
  }

  var dunstPID: Int32? { dunst.exitStatus == nil ? dunst.pid : nil }

  /// Runs `argv` on this desktop; returns its wall time in nanoseconds, or `nil` when it failed.
  func timedRun(_ argv: [String]) async throws -> Double? {
    let clock = ContinuousClock()
    let started = clock.now
    let child = try Subprocess(
      argv, environment: environment, standardInput: .null, standardOutput: .null,
      standardError: .null)
    let ended = child.wait()
    let elapsed = clock.now - started
    return ended.isSuccess ? elapsed.nanoseconds : nil
  }

  /// Clears the screen, so that every sample posts to the same state.
  func closeAll() throws {
    let result = try Subprocess.run(
      ["dunstctl", "close-all"], environment: environment, timeout: .seconds(10))
    guard result.status == 0 else {
      throw BenchmarkFailure("dunstctl close-all failed: \(result.error)")
    }
  }

  func stop() {
    dunst.terminate()
    xvfb.terminate()
    rmdir(runtime)
  }
}

/// One line from a descriptor (Xvfb's display number), waiting at most 10 s.
private func readLine(_ input: FileDescriptor) -> String? {
  var line: [UInt8] = []
  var byte: [UInt8] = [0]
  let deadline = ContinuousClock.now + .seconds(10)
  while true {
    guard (try? input.waitUntilReadable(timeout: deadline - ContinuousClock.now)) == true,
      (try? input.read(into: &byte)) == 1
    else { return nil }
    if byte[0] == 0x0A { return String(decoding: line, as: UTF8.self) }
    line.append(byte[0])
  }
}
