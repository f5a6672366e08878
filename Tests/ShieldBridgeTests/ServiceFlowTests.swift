import DBus
import Foundation
import JSON
import Model
import Notifications
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge
@testable import ShieldBridgeDemo

@Suite("The whole flow against the embedded server, for every presentation")
struct ServiceFlowTests {
  @Test func withActionsAndInlineRepliesTheTaskIsAnsweredInTheNotification() async throws {
    let harness = try await ServiceHarness()
    let start = harness.activity.count
    let reply = try await harness.call(ServiceInterface.shield.name, "Instagram")
    let id = try reply.decode(UInt32.self)
    let shield = try await harness.notification(after: start, "the shield")
    #expect(shield.id == id)
    #expect(shield.summary == "Instagram is paused")
    // The way out first (issue 25 point 1), then the task and the view.
    #expect(
      shield.actions.map(\.key) == [
        "way-out", "default", "shieldbridge://view?app=Instagram&view=direct&id=shield-open",
      ])
    #expect(shield.actions.map(\.label) == ["Close Instagram", "Solve a task", "Open direct"])
    #expect(shield.hint(HintName.urgency) == .byte(1))

    let beforeClick = harness.activity.count
    let token = try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "inline-reply")
    #expect(record["app"]?.stringValue == "Instagram")
    var puzzle = try await harness.notification(after: beforeClick, "the task") {
      $0.actions.contains { $0.key == Notification.Action.inlineReplyKey }
    }
    #expect(puzzle.hint(HintName.replyPlaceholder) == .string("Type the answer"))
    #expect(!token.isEmpty)

    let beforeWrong = harness.activity.count
    try harness.server.reply(puzzle.id, text: String(try Demo.answer(of: puzzle) + 1))
    puzzle = try await harness.notification(after: beforeWrong, "the new task") { $0.summary == "A short task" }
    #expect(puzzle.body.hasPrefix("That is not the answer. Here is a new task."))
    #expect(
      try harness.sandbox.store.status(of: try #require(harness.service.options.configuration.rules.rules.first))
        .value.grantsToday == 0)

    let beforeRight = harness.activity.count
    try harness.server.reply(puzzle.id, text: String(try Demo.answer(of: puzzle)))
    let solved = try await harness.notification(after: beforeRight, "the solved notification")
    #expect(solved.body == "5 more minutes for Instagram are unlocked for today. Go back to it with your app switcher.")
    #expect(solved.actions.isEmpty)
    #expect(!solved.body.contains("!"))

    let status = try JSONValue(parsing: try await harness.call(ServiceInterface.status.name).decode(String.self))
    #expect(status["rules"]?.arrayValue?.first?["grantsToday"]?.integerValue == 1)
    #expect(status["rules"]?.arrayValue?.first?["limitTodayMinutes"]?.integerValue == 10)
  }

  @Test func theConfiguredPuzzleHandlerRunsWithWholeArgumentsAndTheActivationToken() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [handler, "{app}", "{grant}", "{link}"]),
      sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let token = try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "handler")
    let lines = try await harness.handlerOutput("puzzle")
    #expect(
      lines == [
        "arg=Instagram", "arg=5", "arg=shieldbridge://puzzle?app=Instagram&grant=5&id=shield-open",
        "token=\(token)", "startup=\(token)",
      ])
  }

  @Test func aConfiguredViewOpensAndAnyOtherIsRefused() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("view.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(viewHandler: [handler, "{target}", "{view}"]), sandbox: sandbox)
    _ = try harness.recordingHandler("view")
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let viewKey = "shieldbridge://view?app=Instagram&view=direct&id=shield-open"
    let token = try harness.server.click(id, action: viewKey)
    #expect(try await harness.record(after: 0).outcome == "opened")
    #expect(
      try await harness.handlerOutput("view") == [
        "arg=https://www.instagram.com/direct/inbox/", "arg=direct", "token=\(token)", "startup=\(token)",
      ])

    let refused = try JSONValue(
      parsing: try await harness.call(ServiceInterface.open.name, "shieldbridge://view?app=Instagram&view=feed").decode(
        String.self))
    #expect(refused.outcome == "refused")
    let other = try JSONValue(
      parsing: try await harness.call(ServiceInterface.open.name, "shieldbridge://view?app=YouTube&view=direct").decode(
        String.self))
    #expect(other.outcome == "refused")
  }

  @Test func withHyperlinksOnlyTheLinkIsInTheBodyAndOpenDispatchesIt() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      capabilities: [Capability.body, Capability.bodyHyperlinks, Capability.bodyMarkup],
      configuration: ServiceHarness.configuration(puzzleHandler: [handler, "{app}"]), sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    _ = try await harness.call(ServiceInterface.shield.name, "Instagram")
    let shield = try await harness.notification(after: 0, "the shield")
    #expect(shield.actions.isEmpty)
    #expect(shield.body.contains("<a href=\"shieldbridge://puzzle?app=Instagram&amp;grant=5&amp;id=shield-open\">"))
    // The user's click on the link runs `shieldbridge open`, which hands the link to the service.
    let answer = try await harness.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram&grant=5")
    #expect(try JSONValue(parsing: answer.decode(String.self)).outcome == "handler")
    #expect(try await harness.handlerOutput("puzzle").first == "arg=Instagram")
  }

  @Test func withNeitherActionsNorLinksTheTextSaysHowToGoOn() async throws {
    let harness = try await ServiceHarness(capabilities: [Capability.body])
    _ = try await harness.call(ServiceInterface.shield.name, "YouTube")
    let shield = try await harness.notification(after: 0, "the shield")
    #expect(shield.actions.isEmpty)
    #expect(shield.body.contains("shieldbridge puzzle"))
    #expect(!shield.body.contains("shieldbridge://"))
  }

  @Test func withoutHandlerInlineReplyOrDisplayThePuzzleIsUnavailableAndSaysSo() async throws {
    let harness = try await ServiceHarness(capabilities: [Capability.actions, Capability.body])
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    let before = harness.activity.count
    try harness.server.click(id)
    #expect(try await harness.record(after: 0).outcome == "unavailable")
    let notice = try await harness.notification(after: before, "the notice")
    #expect(notice.body.contains("shieldbridge puzzle"))
  }

  @Test func whenTodaysGrantsAreUsedUpTheShieldSaysSoAndNoPuzzleOpens() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let configuration = ServiceHarness.configuration(maxGrantsPerDay: 1, puzzleHandler: [handler])
    _ = try sandbox.store.recordGrant(for: try #require(configuration.rules.rules.first))
    let harness = try await ServiceHarness(configuration: configuration, sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    _ = try await harness.call(ServiceInterface.shield.name, "Instagram")
    let shield = try await harness.notification(after: 0, "the shield")
    #expect(shield.body == "Today’s extra time for Instagram is used up. The limit resets tomorrow.")
    #expect(shield.actions.isEmpty)
    let answer = try await harness.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=Instagram&grant=120")
    #expect(try JSONValue(parsing: answer.decode(String.self)).outcome == "used-up")
    #expect(!FileManager.default.fileExists(atPath: harness.sandbox.root.file("puzzle")))
  }

  @Test func noLinkGrantsTime() async throws {
    let sandbox = try Sandbox()
    // The view opens through a handler of the test's own, not the machine's browser.
    let harness = try await ServiceHarness(
      capabilities: [Capability.actions, Capability.body],
      configuration: ServiceHarness.configuration(viewHandler: [try sandbox.recordingHandler("view"), "{target}"]),
      sandbox: sandbox)
    let rule = try #require(harness.service.options.configuration.rules.rules.first)
    for link in [
      "shieldbridge://puzzle?app=Instagram&grant=120", "shieldbridge://puzzle?app=Instagram&grant=5&granted=1",
      "shieldbridge://view?app=Instagram&view=direct",
    ] {
      _ = try await harness.call(ServiceInterface.open.name, link)
    }
    #expect(try harness.sandbox.store.status(of: rule).value.grantsToday == 0)
  }

  @Test func anActionInvokedFromAThirdConnectionDispatchesNothing() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [handler, "{app}"]), sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let spoofer = try Connection(.address(harness.bus.address))
    let destination = harness.serviceConnection.uniqueName
    for target in [destination, nil] {
      try spoofer.emit(
        path: NotificationsNames.path, interface: NotificationsInterface.name,
        member: try MemberName("ActivationToken"), destination: target, id, "spoofed-token")
      try spoofer.emit(
        path: NotificationsNames.path, interface: NotificationsInterface.name,
        member: try MemberName("ActionInvoked"), destination: target, id, "default")
    }
    // The real click is dispatched, with the real token: the spoofed signals came first and were ignored.
    let token = try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "handler")
    #expect(try await harness.handlerOutput("puzzle").contains("token=\(token)"))
    // A second real shield and click is the barrier: exactly two dispatches in all.
    let second = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    try harness.server.click(second)
    _ = try await harness.dispatched.first("the second dispatch", after: 1)
    #expect(harness.dispatched.count == 2)
  }

  @Test func aDoubleClickDispatchesOnce() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [handler]), sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let destination = harness.serviceConnection.uniqueName
    // Two ActionInvoked for the same notification and key, from the real server, back to back.
    for _ in 0..<2 {
      try harness.server.connection.emit(
        path: NotificationsNames.path, interface: NotificationsInterface.name,
        member: try MemberName("ActionInvoked"), destination: destination, id, "default")
    }
    let first = try await harness.record(after: 0)
    let second = try await harness.record(after: 1)
    #expect(first.outcome == "handler")
    #expect(second.outcome == "duplicate")
  }

  @Test func activationsOfOneIdentifierAreCoalescedWhileTheFirstIsInFlight() async throws {
    let sandbox = try Sandbox()
    let release = sandbox.root.file("release")
    let script = sandbox.root.file("slow.sh")
    try writeExecutable(
      script,
      """
      #!/bin/sh
      # Stays open (as a puzzle window would) until the test releases it; gives up after 10 s.
      i=0
      while [ ! -e "\(release)" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done

      """)
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [script]), sandbox: sandbox)
    let link = "shieldbridge://puzzle?app=Instagram"
    let first = try JSONValue(parsing: try await harness.call(ServiceInterface.open.name, link).decode(String.self))
    let second = try JSONValue(parsing: try await harness.call(ServiceInterface.open.name, link).decode(String.self))
    #expect(first.outcome == "handler", "\(first.serialized)")
    #expect(second.outcome == "coalesced", "\(second.serialized)")
    #expect(FileManager.default.createFile(atPath: release, contents: nil))
    let again = try await poll("the puzzle to open again after the first closed") {
      let answer = try JSONValue(parsing: try await harness.call(ServiceInterface.open.name, link).decode(String.self))
      return answer.outcome == "handler" ? answer : JSONValue?.none
    }
    #expect(again.outcome == "handler")
  }

  @Test func badLinksAndUncoveredAppsAreErrorsWithTheirNames() async throws {
    let harness = try await ServiceHarness()
    let badLink = await #expect(throws: DBusError.self) {
      try await harness.call(ServiceInterface.open.name, "shieldbridge://puzzle?app=%G1")
    }
    #expect(badLink?.name == ServiceNames.Error.badLink)
    #expect(badLink?.message.contains("bad-percent-escape") == true)
    let notCovered = await #expect(throws: DBusError.self) {
      try await harness.call(ServiceInterface.shield.name, "Facebook")
    }
    #expect(notCovered?.name == ServiceNames.Error.notCovered)
  }

  @Test func theInterfaceIntrospectsWithItsMethodsAndSignal() async throws {
    let harness = try await ServiceHarness()
    let xml = try await harness.watcher.call(
      IntrospectableInterface.introspect, destination: ServiceNames.busName, path: ServiceNames.path)
    for part in [
      #"<method name="Shield">"#, #"<method name="Open">"#, #"<method name="Status">"#, #"<signal name="Dispatched">"#,
    ] {
      #expect(xml.contains(part))
    }
  }
}

@Suite("The service picks up a notification server that restarts")
struct ServiceServerRestartTests {
  @Test func aNewServerGetsFreshNotificationsAndItsClicksAreRouted() async throws {
    let sandbox = try Sandbox()
    let handler = sandbox.root.file("puzzle.sh")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [handler, "{app}"]), sandbox: sandbox)
    _ = try harness.recordingHandler("puzzle")
    let first = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    #expect(try await harness.notification(after: 0, "the first shield").id == first)

    // The first server quits; another one takes the name on the same bus.
    await harness.server.stop()
    harness.server.connection.close()
    let replacement = try NotificationServer(
      connection: try Connection(.address(harness.bus.address)),
      configuration: NotificationServer.Configuration(capabilities: ServiceHarness.allCapabilities))
    let seen = EventLog<NotificationServer.Activity>()
    let collector = seen.collect(replacement.activity())
    defer { collector.cancel() }
    try await replacement.start()

    _ = try await harness.call(ServiceInterface.shield.name, "Instagram")
    let event = try await seen.first("the shield on the new server") {
      if case .notified = $0 { return true }
      return false
    }
    guard case .notified(let shield) = event else { return }
    // The old server's id means nothing to the new one: it is not asked to replace it.
    #expect(shield.replacesID == 0)
    #expect(shield.summary == "Instagram is paused")
    try replacement.click(shield.id)
    #expect(try await harness.record(after: 0).outcome == "handler")
    #expect(try await harness.handlerOutput("puzzle").first == "arg=Instagram")
  }
}

@Suite("The shield's way out, taken on the embedded server")
struct WayOutServiceTests {
  @Test("Close Instagram: counted in the ledger once, the shield closed, no task opened")
  func wayOutCountedAndClosed() async throws {
    let harness = try await ServiceHarness()
    let start = harness.activity.count
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let shield = try await harness.notification(after: start, "the shield")
    #expect(shield.id == id)
    #expect(shield.actions.first?.label == "Close Instagram")

    _ = try harness.server.click(id, action: "way-out")
    let store = harness.sandbox.store
    _ = try await poll("the way out counted") {
      (try? store.load().value.backedOut(for: "social", on: store.today)) == 1 ? true : nil
    }
    _ = try await poll("the shield closed") {
      harness.activity.events.contains { if case .closed(id, _) = $0 { true } else { false } } ? true : nil
    }
    #expect(harness.server.notification(id) == nil)
    #expect(harness.dispatched.count == 0)
    let status = try JSONValue(parsing: try await harness.call(ServiceInterface.status.name).decode(String.self))
    #expect(status["rules"]?.arrayValue?.first?["grantsToday"]?.integerValue == 0)
    let ledger = try store.load().value
    #expect(ledger.backedOut(for: "social", on: store.today) == 1)
    #expect(ledger.tasksAsked(for: "social", on: store.today) == 0)
  }
}

@Suite("The rule's pause in the notification, on the embedded server")
struct PauseServiceTests {
  @Test("The reply field says to wait; an early reply gets the same task and the time left; then it is taken")
  func earlyReplyThenAnswer() async throws {
    var configuration = ServiceHarness.configuration()
    configuration.rules = RuleSet([Rule(name: "social", apps: ["Instagram", "YouTube"], pauseSeconds: 6)])
    let harness = try await ServiceHarness(configuration: configuration)
    let start = harness.activity.count
    let id = try await harness.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    _ = try await harness.notification(after: start, "the shield")
    let beforeClick = harness.activity.count
    let clicked = ContinuousClock.now
    _ = try harness.server.click(id)
    let puzzle = try await harness.notification(after: beforeClick, "the task") {
      $0.actions.contains { $0.key == Notification.Action.inlineReplyKey }
    }
    // The pause began when the service asked the task, before it was seen here.
    let shown = ContinuousClock.now
    #expect(puzzle.body.contains("Wait 6 seconds before you answer."), "\(puzzle.body)")
    #expect(puzzle.hint(HintName.replyPlaceholder) == .string("Wait 6 seconds before you answer."))
    let task = try #require(Puzzle.find(in: puzzle.body))

    let beforeEarly = harness.activity.count
    try harness.server.reply(puzzle.id, text: String(task.answer))
    let early = ContinuousClock.now - clicked
    let again = try await harness.notification(after: beforeEarly, "the answer to the early reply") {
      $0.summary == "A short task" || $0.body.contains("unlocked")
    }
    // Replied within the pause unless the machine took most of it to show the task.
    if early < .seconds(5) {
      #expect(Puzzle.find(in: again.body) == task)
      #expect(again.body.contains("before you answer."), "\(again.body)")
      #expect(!again.body.contains("That is not the answer"))
      let rule = try #require(harness.service.options.configuration.rules.rules.first)
      #expect(try harness.sandbox.store.status(of: rule).value.grantsToday == 0)

      // After the pause the same answer is taken.
      _ = try await poll("the pause over", timeout: .seconds(10), every: .milliseconds(100)) {
        ContinuousClock.now - shown >= .seconds(7) ? true : nil
      }
      let beforeRight = harness.activity.count
      try harness.server.reply(again.id, text: String(task.answer))
      let solved = try await harness.notification(after: beforeRight, "the solved notification") {
        $0.body.contains("unlocked")
      }
      #expect(solved.body.hasPrefix("5 more minutes for Instagram are unlocked"))
    }
  }
}
