import DBus
import Foundation
import JSON
import Model
import Notifications
import Posix
import Spawn
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// libfaketime's library, which Debian's faketime package installs.
func libfaketime() throws -> String {
  let lib = "/usr/lib"
  let folders = (try? FileManager.default.contentsOfDirectory(atPath: lib)) ?? []
  for folder in folders.sorted() {
    let path = "\(lib)/\(folder)/faketime/libfaketime.so.1"
    if FileManager.default.fileExists(atPath: path) { return path }
  }
  throw CommandFailed(
    description: "libfaketime is not installed: install the Debian package faketime ('make test' does)")
}

/// Runs a command through a shell under libfaketime. libfaketime's constructor
/// puts `FAKETIME_SHARED` into the environment, which moves `environ` in a
/// process that starts with the library, and the Swift runtime then finds no
/// arguments; the shell sets it first, so the program it execs starts with it set.
let throughShell = ["/bin/sh", "-c", #"exec "$0" "$@""#]

@Suite("A wall clock set forward under a running service gives no fresh budget (issue 22, point 4)")
struct ClockJumpTests {
  @Test("serve under libfaketime: a day forward keeps the day, its use and its limit; a day back again begins nothing")
  func forwardOneDay() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    defer { running.process.signal(SIGKILL) }
    try sandbox.writeConfig(
      #"{"desktop":"processes","rules":[{"name":"social","apps":["\#(app.name)"],"#
        + #""dailyLimitMinutes":2,"warnMinutes":0,"onLimit":"notify"}]}"#)
    // The service's wall clock is the file's offset from the real one; the monotonic and boot clocks stay real.
    let offset = sandbox.root.file("faketime")
    try "+0\n".write(toFile: offset, atomically: true, encoding: .utf8)
    let faked = [
      "LD_PRELOAD": try libfaketime(), "FAKETIME_TIMESTAMP_FILE": offset, "FAKETIME_NO_CACHE": "1",
      "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    ]
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: faked,
      arguments: ["--minute-length", "1000", "--save-interval", "1000"], launcher: throughShell)
    func usage() async throws -> JSONValue {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      return try JSONValue(parsing: try reply.decode(String.self))
    }

    let atLimit = try await poll("the rule at its limit of 2 s", timeout: .seconds(30)) {
      let report = try await usage()
      return report.usageRule("social")?["overLimit"]?.boolValue == true ? report : JSONValue?.none
    }
    let today = try #require(atLimit["date"]?.stringValue, "\(atLimit)")

    let usedAtLimit = try #require(atLimit.usageRule("social")?["usedSeconds"]?.integerValue)
    try "+1d\n".write(toFile: offset, atomically: true, encoding: .utf8)
    // Two more seconds counted under a wall clock a day on: Usage() reads the clocks each time.
    let after = try await poll("two more seconds counted", timeout: .seconds(30)) {
      let report = try await usage()
      let used = report.usageRule("social")?["usedSeconds"]?.integerValue ?? 0
      return used >= usedAtLimit + 2 ? report : JSONValue?.none
    }
    #expect(after["date"]?.stringValue == today)
    let rule = try #require(after.usageRule("social"))
    #expect(rule["overLimit"]?.boolValue == true)
    #expect(rule["grantsToday"]?.integerValue == 0)
    // status, under the same clock, shows the service's count: no fresh budget.
    let status = try await BackgroundProcess(
      throughShell + [ShieldBridgeTool.path, "status", "--json"],
      environment: sandbox.serviceEnvironment(address: desk.bus.address).merging(faked) { $1 }
    ).finish(timeout: .seconds(30))
    #expect(status.status == 0, "status: \(status.error)")
    let shown = try JSONValue(parsing: status.output).usageRule("social")
    #expect((shown?["usedSeconds"]?.integerValue ?? 0) >= usedAtLimit + 2, "\(status.output)")
    #expect(shown?["counting"]?.boolValue == true, "\(status.output)")

    try "+0\n".write(toFile: offset, atomically: true, encoding: .utf8)
    #expect(try await usage()["date"]?.stringValue == today)
    _ = await serve.terminate()
    #expect(!serve.logLines.contains { $0.contains("a new day") }, "\(serve.logLines)")
    // Nothing was booked on the day the clock jumped to.
    let ledger = try sandbox.store.load().value
    #expect(ledger.usedSecondsByDay.keys.map(\.description) == [today])
  }

  @Test("serve restarted with the clock a day ahead stays on the real day, and puzzle records on the meter's day")
  func restartWithClockAhead() async throws {
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    defer { running.process.signal(SIGKILL) }
    try sandbox.writeConfig(
      #"{"desktop":"processes","rules":[{"name":"social","apps":["\#(app.name)"],"#
        + #""dailyLimitMinutes":2,"grantMinutes":1,"warnMinutes":0,"onLimit":"notify"}]}"#)
    let offset = sandbox.root.file("faketime")
    try "+0\n".write(toFile: offset, atomically: true, encoding: .utf8)
    let faked = [
      "LD_PRELOAD": try libfaketime(), "FAKETIME_TIMESTAMP_FILE": offset, "FAKETIME_NO_CACHE": "1",
      "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    ]
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let arguments = ["--minute-length", "1000", "--save-interval", "1000"]
    func usage() async throws -> JSONValue {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      return try JSONValue(parsing: try reply.decode(String.self))
    }

    let first = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: faked, arguments: arguments,
      launcher: throughShell)
    let atLimit = try await poll("the rule at its limit of 2 s", timeout: .seconds(30)) {
      let report = try await usage()
      return report.usageRule("social")?["overLimit"]?.boolValue == true ? report : JSONValue?.none
    }
    let today = try #require(atLimit["date"]?.stringValue, "\(atLimit)")
    _ = await first.terminate()
    #expect(try sandbox.store.load().value.dayAnchor?.day.description == today)

    // A day ahead, and a new service: it takes the day from the anchor of this boot, not from the wall clock.
    try "+1d\n".write(toFile: offset, atomically: true, encoding: .utf8)
    let second = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: faked, arguments: arguments,
      launcher: throughShell)
    let restarted = try await usage()
    #expect(restarted["date"]?.stringValue == today, "\(restarted)")
    #expect(restarted.usageRule("social")?["overLimit"]?.boolValue == true, "\(restarted)")

    // puzzle, under the same clock, sees the rule at its limit and records the grant on the meter's day.
    let task = tasks(seed: 5, count: 1)[0]
    let environment = ShieldBridgeTool.mergedEnvironment(
      sandbox.serviceEnvironment(address: desk.bus.address).merging(faked) { $1 })
    let puzzle = try await onOwnThread {
      try Subprocess.run(
        throughShell + [ShieldBridgeTool.path, "puzzle", "--app", app.name, "--seed", "5"],
        input: Array("\(task.answer)\n".utf8), environment: environment, timeout: .seconds(30))
    }
    #expect(puzzle.status == 0, "\(puzzle.output) \(puzzle.error)")
    #expect(!puzzle.output.contains("not at its limit"), "\(puzzle.output)")
    let ledger = try sandbox.store.load().value
    #expect(ledger.days.keys.map(\.description) == [today], "\(ledger.json.serialized)")
    #expect(ledger.grants(for: "social", on: try #require(LocalDay(today))) == 1)
    let lifted = try await poll("the grant lifts the rule", timeout: .seconds(30)) {
      let report = try await usage()
      return report.usageRule("social")?["grantsToday"]?.integerValue == 1 ? report : JSONValue?.none
    }
    #expect(lifted["date"]?.stringValue == today)
    _ = await second.terminate()
    #expect(!second.logLines.contains { $0.contains("a new day") }, "\(second.logLines)")
  }

  @Test("faketime -f +1d with libfaketime's defaults (boot and monotonic clocks faked too) is no new day")
  func faketimeWithItsDefaults() async throws {
    let faketime = try requiredTool("faketime", package: "faketime")
    let sandbox = try Sandbox()
    let app = try RenamedSleep(in: sandbox)
    let running = try app.launch()
    defer { running.process.signal(SIGKILL) }
    try sandbox.writeConfig(
      #"{"desktop":"processes","rules":[{"name":"social","apps":["\#(app.name)"],"#
        + #""dailyLimitMinutes":2,"grantMinutes":1,"warnMinutes":0,"onLimit":"notify"}]}"#)
    let desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    let watcher = try await ServiceWatcher(address: desk.bus.address)
    let arguments = ["--minute-length", "1000", "--save-interval", "1000"]
    func usage() async throws -> JSONValue {
      let reply = try await watcher.call(ServiceInterface.usage.name)
      return try JSONValue(parsing: try reply.decode(String.self))
    }

    // A day's use recorded by a service on the real clocks.
    let first = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, arguments: arguments)
    let atLimit = try await poll("the rule at its limit of 2 s", timeout: .seconds(30)) {
      let report = try await usage()
      return report.usageRule("social")?["overLimit"]?.boolValue == true ? report : JSONValue?.none
    }
    let today = try #require(atLimit["date"]?.stringValue, "\(atLimit)")
    let limit = try #require(atLimit.usageRule("social")?["limitSeconds"]?.integerValue)
    _ = await first.terminate()
    let used = try sandbox.store.load().value.usedSeconds(for: "social", on: try #require(LocalDay(today)))
    #expect(used >= 2)

    // The attack as typed: faketime's own defaults, no FAKETIME_DONT_FAKE_MONOTONIC.
    let faked = [faketime, "-f", "+1d"] + throughShell
    let defaults = ["FAKETIME_DONT_FAKE_MONOTONIC": ""]
    let environment = sandbox.serviceEnvironment(address: desk.bus.address).merging(defaults) { $1 }
    let second = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: defaults, arguments: arguments,
      launcher: faked)
    let restarted = try await usage()
    #expect(restarted["date"]?.stringValue == today, "\(restarted)")
    let rule = try #require(restarted.usageRule("social"), "\(restarted)")
    #expect((rule["usedSeconds"]?.integerValue ?? 0) >= used, "\(restarted)")
    #expect(rule["limitSeconds"]?.integerValue == limit, "\(restarted)")
    #expect(rule["overLimit"]?.boolValue == true, "\(restarted)")
    // What notices it: the log names the faked clock.
    _ = try await poll("the log's word on the faked boot clock", timeout: .seconds(30)) {
      second.logLines.first { $0.contains("boot clock (CLOCK_BOOTTIME) is") && $0.contains("ahead of") }
    }

    // puzzle under the same faked clocks records on the same day.
    let task = tasks(seed: 5, count: 1)[0]
    let puzzle = try await onOwnThread {
      try Subprocess.run(
        faked + [ShieldBridgeTool.path, "puzzle", "--app", app.name, "--seed", "5"],
        input: Array("\(task.answer)\n".utf8), environment: ShieldBridgeTool.mergedEnvironment(environment),
        timeout: .seconds(30))
    }
    #expect(puzzle.status == 0, "\(puzzle.output) \(puzzle.error)")
    let ledger = try sandbox.store.load().value
    #expect(ledger.days.keys.map(\.description) == [today], "\(ledger.json.serialized)")
    #expect(ledger.grants(for: "social", on: try #require(LocalDay(today))) == 1)
    let lifted = try await poll("the grant lifts the rule", timeout: .seconds(30)) {
      let report = try await usage()
      return report.usageRule("social")?["grantsToday"]?.integerValue == 1 ? report : JSONValue?.none
    }
    #expect(lifted["date"]?.stringValue == today)
    _ = await second.terminate()
    #expect(!second.logLines.contains { $0.contains("a new day") }, "\(second.logLines)")
    // Nothing of the faked clock reached the ledger's anchor: a service on the real clocks resumes it.
    let anchor = try #require(try sandbox.store.load().value.dayAnchor)
    #expect(anchor.day.description == today)
    #expect(anchor.boot <= BootTime.now)
  }
}
