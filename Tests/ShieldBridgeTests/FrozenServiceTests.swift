import DBus
import Foundation
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// Issue 22, point 3: `serve` stopped with `kill -STOP` while a covered window
/// is in front, the focus moved (or the screen saver started) 2 s into the
/// stop, `kill -CONT` 10 s after the stop: only the 2 s count.
@Suite("A stopped service counts only the time the covered window really was in front")
struct FrozenServiceTests {
  /// The seconds of the stop, and when in it the desktop changes.
  static let stopped: Duration = .seconds(10)
  static let changeAfter: Duration = .seconds(2)

  /// A running `serve` on `session` with one covered (Instagram) and one uncovered xterm, the covered one in front.
  struct Running {
    let session: XSession
    let covered: XClient
    let other: XClient
    let serve: ServeProcess
    let watcher: ServiceWatcher
    let desk: EmbeddedNotifications
    /// Kept for the test's life: its folders go with it.
    let sandbox: Sandbox

    init(windowManager: XSession.WindowManager, desktop: String) async throws {
      session = try await XSession(windowManager: windowManager)
      covered = try await session.launchXterm(windowClass: "Instagram")
      other = try await session.launchXterm(windowClass: "Other")
      sandbox = try Sandbox()
      try sandbox.writeConfig(
        #"{"desktop":"\#(desktop)","rules":[{"name":"social","apps":["Instagram"],"#
          + #""dailyLimitMinutes":600,"warnMinutes":0,"onLimit":"notify"}]}"#)
      desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
      watcher = try await ServiceWatcher(address: desk.bus.address)
      var environment = ["DISPLAY": session.display]
      if let i3 = session.environment["I3SOCK"], !i3.isEmpty { environment["I3SOCK"] = i3 }
      // Saved every second while it counts, so a timer is always due soon: the one the stop makes late.
      serve = try await ServeProcess(
        sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: environment,
        arguments: ["--save-interval", "1000"])
    }

    func focus(_ client: XClient) async throws {
      if session.windowManager == .i3 {
        try await session.i3msg(["[id=\"\(client.window)\"] focus"])
      } else {
        try await session.xdotool(["windowactivate", client.hexWindow])
      }
      _ = try await poll("the X server to say \(client.hexWindow) is in front") {
        try await session.activeWindow() == client.window ? true : nil
      }
    }

    /// The rule as `Usage()` answers it; `nil` while the meter has not started.
    func social() async throws -> JSONValue? {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      return try JSONValue(parsing: try reply.decode(String.self)).usageRule("social")
    }

    /// The seconds counted while `serve` was stopped and `change` happened `changeAfter` into the stop.
    func countedWhileStopped(_ change: () async throws -> Void) async throws -> Int {
      do {
        _ = try await poll("the covered xterm to count", timeout: .seconds(120)) {
          let rule = try await social()
          return rule?["counting"]?.boolValue == true && (rule?["usedSeconds"]?.integerValue ?? 0) >= 1 ? rule : nil
        }
      } catch {
        let rule = try await social()
        throw CommandFailed(description: "\(error): social \(String(describing: rule)); serve: \(serve.logLines)")
      }
      let before = try #require(try await social()?["usedSeconds"]?.integerValue)
      let pid = serve.process.process.pid
      let stoppedAt = ContinuousClock.now
      serve.process.process.signal(SIGSTOP)
      _ = try await poll("serve to be stopped") { processState(pid) == "T" ? true : nil }
      // The scenario's own times, not a wait for something: the change comes 2 s into the stop.
      try await Task.sleep(until: stoppedAt + FrozenServiceTests.changeAfter)
      try await change()
      try await Task.sleep(until: stoppedAt + FrozenServiceTests.stopped)
      serve.process.process.signal(SIGCONT)
      let after = try await poll("the change to reach the meter", timeout: .seconds(120)) {
        let rule = try await social()
        return rule?["counting"]?.boolValue == false ? rule : nil
      }
      let used = try #require(after["usedSeconds"]?.integerValue)
      return Int(used - before)
    }

    /// The seconds counted while `serve` was frozen (no signal) for ``stopped`` and then the focus moved away.
    func countedWhileFrozen() async throws -> Int {
      _ = try await poll("the covered xterm to count", timeout: .seconds(120)) {
        let rule = try await social()
        return rule?["counting"]?.boolValue == true && (rule?["usedSeconds"]?.integerValue ?? 0) >= 1 ? rule : nil
      }
      let before = try #require(try await social()?["usedSeconds"]?.integerValue)
      let pid = serve.process.process.pid
      let freezer = try Freezer(name: "shieldbridge-frozen-\(pid)")
      let frozenAt = ContinuousClock.now
      do {
        try await freezer.freeze(pid)
        // The scenario's own time, not a wait for something.
        try await Task.sleep(until: frozenAt + FrozenServiceTests.stopped)
        try freezer.thaw(pid)
      } catch {
        try? freezer.thaw(pid)
        throw error
      }
      try await focus(other)
      let after = try await poll("the focus change to reach the meter", timeout: .seconds(120)) {
        let rule = try await social()
        return rule?["counting"]?.boolValue == false ? rule : nil
      }
      let used = try #require(after["usedSeconds"]?.integerValue)
      return Int(used - before)
    }
  }

  @Test("x11: the focus moved 2 s into a 10 s stop: about 2 s counted, not 10")
  func x11Focus() async throws {
    let running = try await Running(windowManager: .openbox, desktop: "x11")
    try await running.focus(running.covered)
    let counted = try await running.countedWhileStopped { try await running.focus(running.other) }
    #expect((1...3).contains(counted), "counted \(counted) s; \(running.serve.logLines)")
    _ = await running.serve.terminate()
  }

  @Test("x11: the screen saver started 2 s into a 10 s stop: about 2 s counted, not 10")
  func x11ScreenSaver() async throws {
    let running = try await Running(windowManager: .openbox, desktop: "x11")
    try await running.focus(running.covered)
    let counted = try await running.countedWhileStopped { try await running.session.xset(["s", "activate"]) }
    #expect((1...3).contains(counted), "counted \(counted) s; \(running.serve.logLines)")
    try await running.session.xset(["s", "reset"])
    _ = await running.serve.terminate()
  }

  @Test("i3: the focus moved 2 s into a 10 s stop: no more than 2 s (±1) counted")
  func i3Focus() async throws {
    let running = try await Running(windowManager: .i3, desktop: "i3")
    try await running.focus(running.covered)
    let counted = try await running.countedWhileStopped { try await running.focus(running.other) }
    // i3's IPC gives no times: the span from the first missed timer on is not counted.
    #expect((0...3).contains(counted), "counted \(counted) s; \(running.serve.logLines)")
    #expect(running.serve.logLines.contains { $0.contains("the service did not run for") }, "\(running.serve.logLines)")
    _ = await running.serve.terminate()
  }

  @Test("i3: the screen saver started 2 s into a 10 s stop: no more than 2 s (±1) counted")
  func i3ScreenSaver() async throws {
    let running = try await Running(windowManager: .i3, desktop: "i3")
    try await running.focus(running.covered)
    let counted = try await running.countedWhileStopped { try await running.session.xset(["s", "activate"]) }
    #expect((0...3).contains(counted), "counted \(counted) s; \(running.serve.logLines)")
    try await running.session.xset(["s", "reset"])
    _ = await running.serve.terminate()
  }
}

/// A service that does not run for a while without being stopped (a busy
/// machine, the cgroup freezer) gets no SIGCONT: the desktop's state held
/// meanwhile, so the covered window kept in front counts the whole span.
@Suite("A service that did not run but was not stopped counts the window kept in front")
struct BusyServiceTests {
  @Test("i3: frozen 10 s without a signal, the covered window in front: about 10 s counted")
  func i3Frozen() async throws {
    let running = try await FrozenServiceTests.Running(windowManager: .i3, desktop: "i3")
    try await running.focus(running.covered)
    let counted = try await running.countedWhileFrozen()
    #expect((9...14).contains(counted), "counted \(counted) s; \(running.serve.logLines)")
    #expect(
      !running.serve.logLines.contains { $0.contains("the service did not run for") }, "\(running.serve.logLines)")
    _ = await running.serve.terminate()
  }
}

/// The state letter of `/proc/PID/stat` (`T`: stopped), or `nil` when it cannot be read.
private func processState(_ pid: Int32) -> String? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return nil }
  return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
}
