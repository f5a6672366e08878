import DBus
import Foundation
import JSON
import Notifications
import ShieldBridge
import Spawn
import TestSupport
import Testing

@Suite("shieldbridge serve as a process: shields, one log line per dispatch, and a clean end")
struct ServeCommandTests {
  @Test func shieldPrintsTheIDOfTheNotificationTheServerReceived() async throws {
    let running = try await RunningService()
    let result = try await running.run(["shield", "--app", "Instagram"])
    #expect(result.status == 0, "\(result.error)")
    let shield = try await running.desk.notification(after: 0, "the shield")
    #expect(result.output == "\(shield.id)\n")
    #expect(shield.sender == running.serve.uniqueName)
    #expect(shield.summary == "Instagram is paused")
    // The way out first, then the task as the default action (issue 25 point 1).
    #expect(shield.actions.map(\.key).prefix(2) == ["way-out", Notification.Action.defaultKey])
  }

  @Test func sigtermClosesItsNotificationsReleasesTheNameAndExitsZero() async throws {
    let running = try await RunningService()
    let id = try await running.shield("Instagram")
    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
    #expect(try await running.desk.closeReason(of: id) == .closed)
    // serve gave the name back (and had its reply) before it exited: no owner now.
    #expect(try await running.watcher.connection.nameOwner(ServiceNames.busName) == nil)
    #expect(ended.error.hasSuffix("shieldbridge serve: info: stopped\n"))
  }

  @Test func aSecondServeOnTheSameBusExitsZeroWithOneLineAndLeavesTheFirstServing() async throws {
    let running = try await RunningService()
    let second = try await running.run(["serve", "--address", running.desk.bus.address])
    #expect(second.status == 0)
    #expect(
      second.error == "shieldbridge serve: notice: another ShieldBridge service already serves "
        + "org.shieldbridge.ShieldBridge as \(running.serve.uniqueName); exiting\n")
    #expect(try await running.watcher.connection.nameOwner(ServiceNames.busName) == running.serve.uniqueName)
    _ = try await running.shield("YouTube")
  }

  @Test func losingTheBusEndsServeWith69AndSaysSo() async throws {
    let running = try await RunningService()
    running.desk.bus.stop()
    let ended = await running.serve.process.finish()
    #expect(ended.status == 69)
    #expect(ended.error.contains("shieldbridge: lost the message bus"))
    #expect(ended.error.hasSuffix("; stopping\n"))
  }

  @Test func everyDispatchIsOneLineOnStderrAndOneSignal() async throws {
    let running = try await RunningService()
    let opened = try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram")
    #expect(try JSONValue(parsing: opened.decode(String.self)).outcome == "handler")
    _ = try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://view?app=Instagram&view=feed")
    // A link that does not parse is an error for the caller, not a dispatch.
    await #expect(throws: DBusError.self) {
      try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=%G1")
    }
    let id = try await running.shield("Instagram")
    try running.desk.server.click(id, action: "shieldbridge://view?app=Instagram&view=direct&id=shield-open")
    _ = try await running.watcher.record(after: 2, "the click's dispatch")

    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
    let records = running.watcher.dispatched.events
    #expect(records.map(\.outcome) == ["handler", "refused", "opened"])
    let lines = ended.error.split(separator: "\n").filter { $0.hasPrefix("shieldbridge serve: notice: dispatched ") }
    let puzzleHandler = running.sandbox.root.file("puzzle.sh")
    let viewHandler = running.sandbox.root.file("view.sh")
    let expected: [Substring] = [
      "shieldbridge serve: notice: dispatched puzzle app=Instagram grant=5 id=shield-open: handler (\(puzzleHandler))",
      "shieldbridge serve: notice: dispatched view app=Instagram view=feed id=shield-open: refused "
        + "(the view 'feed' is not configured for Instagram)",
      "shieldbridge serve: notice: dispatched view app=Instagram view=direct id=shield-open: opened (\(viewHandler))",
    ]
    #expect(lines == expected)
    #expect(try await running.sandbox.handlerOutput("view").first == "arg=https://www.instagram.com/direct/inbox/")
  }

  @Test func shieldForAnAppNoRuleCoversExits78AndPostsNothing() async throws {
    let running = try await RunningService()
    let refused = try await running.run(["shield", "--app", "Facebook"])
    #expect(refused.status == 78)
    #expect(refused.error.contains("no rule covers the app 'Facebook'"))
    #expect(refused.output.isEmpty)
    // The next shield is the first notification the server sees.
    _ = try await running.shield("YouTube")
    #expect(try await running.desk.notification(after: 0, "the shield").summary == "YouTube is paused")
  }

  @Test func openHandsTheLinkToTheRunningService() async throws {
    let running = try await RunningService()
    let result = try await running.run(["open", "shieldbridge://puzzle?app=YouTube&grant=5"])
    #expect(result.status == 0, "\(result.error)")
    let printed = try JSONValue(parsing: result.output)
    #expect(printed.outcome == "handler")
    // Only the service emits Dispatched: the link went to it, and it ran the handler.
    #expect(try await running.watcher.record(after: 0) == printed)
    #expect(try await running.sandbox.handlerOutput("puzzle").prefix(2) == ["arg=YouTube", "arg=5"])
  }
}

@Suite("serve logs from the level --log-level or SHIELDBRIDGE_LOG_LEVEL names up")
struct ServeLogLevelTests {
  /// The levels of serve's lines, which all start with `shieldbridge serve: LEVEL: `.
  private static func levels(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map { line in
      let rest = line.dropFirst("shieldbridge serve: ".count)
      return String(rest.prefix { $0 != ":" })
    }
  }

  /// Runs serve until one dispatch and SIGTERM; what it wrote on stderr.
  private static func run(arguments: [String] = [], environment: [String: String] = [:]) async throws -> String {
    let running = try await RunningService(arguments: arguments, environment: environment)
    let opened = try await running.watcher.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram")
    #expect(try JSONValue(parsing: opened.decode(String.self)).outcome == "handler")
    let ended = await running.serve.terminate()
    #expect(ended.status == 0, "\(ended.error)")
    #expect(ended.error.split(separator: "\n").allSatisfy { $0.hasPrefix("shieldbridge serve: ") }, "\(ended.error)")
    return ended.error
  }

  @Test func byDefaultEveryLevelFromInfoIsWritten() async throws {
    let stderr = try await Self.run()
    #expect(Set(Self.levels(stderr)) == ["info", "notice"], "\(stderr)")
    #expect(stderr.contains("shieldbridge serve: info: serving "))
    #expect(stderr.contains("shieldbridge serve: notice: dispatched puzzle app=Instagram"))
  }

  @Test func logLevelNoticeLeavesOutTheInfoLinesAndKeepsTheDispatches() async throws {
    let stderr = try await Self.run(arguments: ["--log-level", "notice"])
    #expect(Self.levels(stderr) == ["notice"], "\(stderr)")
    #expect(stderr.hasPrefix("shieldbridge serve: notice: dispatched puzzle app=Instagram"))
  }

  @Test func theEnvironmentSetsTheLevelAndTheOptionWinsOverIt() async throws {
    let quiet = try await Self.run(environment: ["SHIELDBRIDGE_LOG_LEVEL": "warning"])
    #expect(quiet == "")
    let told = try await Self.run(arguments: ["--log-level", "info"], environment: ["SHIELDBRIDGE_LOG_LEVEL": "error"])
    #expect(told.hasSuffix("shieldbridge serve: info: stopped\n"), "\(told)")
  }

  @Test func aLevelNobodyKnowsInTheEnvironmentIsSaidAndTheDefaultTaken() async throws {
    let stderr = try await Self.run(environment: ["SHIELDBRIDGE_LOG_LEVEL": "loud"])
    #expect(
      stderr.hasPrefix(
        "shieldbridge serve: warning: SHIELDBRIDGE_LOG_LEVEL='loud' names no level (debug, info, notice, warning, "
          + "error); logging from info\n"), "\(stderr)")
    #expect(stderr.hasSuffix("shieldbridge serve: info: stopped\n"), "\(stderr)")
  }

  @Test func aLevelNobodyKnowsOnTheCommandLineIsAUsageError() async throws {
    let sandbox = try Sandbox()
    let result = try await sandbox.run(["serve", "--log-level", "loud"], address: "unix:path=/nonexistent")
    #expect(result.status == 64)
    #expect(
      result.error.hasPrefix(
        "shieldbridge: --log-level takes one of debug, info, notice, warning, error, not 'loud'\n"), "\(result.error)")
  }
}
