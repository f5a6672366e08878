import DBus
import Notifications
import Spawn
import TestSupport
import Testing

/// What a `Notify` call carried that both clients must agree on: everything but the app name and the `sender-pid` hint.
private struct NotifyCall: Equatable, CustomStringConvertible {
  var replacesID: UInt32
  var icon: String
  var summary: String
  var body: String
  var actions: [String]
  var hints: [String: DBusValue]
  var expireTimeout: Int32

  init(_ received: ReceivedNotification) {
    replacesID = received.replacesID
    icon = received.icon
    summary = received.summary
    body = received.body
    actions = received.actions.map { "\($0.key)=\($0.label)" }
    hints = Dictionary(
      received.hints.filter { $0.name.rawValue != "sender-pid" }.map { ($0.name.rawValue, $0.value.unwrapped) },
      uniquingKeysWith: { _, last in last })
    expireTimeout = received.expireTimeout
  }

  var description: String {
    "replaces \(replacesID) icon '\(icon)' '\(summary)' '\(body)' \(actions) \(hints) timeout \(expireTimeout)"
  }
}

/// How one client ran: its exit status, what it printed, and the calls the server recorded.
private struct Run: Equatable {
  var statuses: [Int32?] = []
  var outputs: [String] = []
  var calls: [NotifyCall] = []
}

/// Command lines as notify-send 0.8 takes them, posted without waiting.
private let postingCommandLines: [[String]] = [
  ["Plain summary"],
  // No markup characters in bodies: shieldbridge escapes them for a markup server, notify-send sends them as they are.
  ["Summary", "A body with: colons, commas and émojis ✓"],
  [
    "-u", "critical", "-t", "600000", "-a", "Mail", "-i", "dialog-warning", "-c", "email.arrived", "-e", "New mail",
    "From Ann",
  ],
  ["--urgency=low", "--expire-time=0", "--icon=mail-unread", "--category=a.b,c.d", "--transient", "Long", "B"],
  // As GLib parses them: the letter of a word that takes a value takes the next word.
  ["-pu", "low", "-et", "0", "Values after a cluster"],
  ["-ip", "mail-unread", "A value before a flag"],
  [
    "-h", "int:x:5", "-h", "string:s:some text", "-h", "boolean:b:true", "-h", "double:d:2.5", "-h", "byte:y:7",
    "--hint=variant:v:uint32 3", "--hint", "variant:level:int64 -9", "Hints",
  ],
  ["-h", "string:category:from.hint", "-c", "from.option", "The hint wins"],
  ["-p", "Print the id"],
  ["-pe", "Clustered flags"],
  ["-r", "1", "Replaces the first"],
  ["--replace-id=2", "-p", "Replaces the second"],
  ["-u", "normal", "--", "-starts with a dash"],
]

@Suite("notify-send and shieldbridge notify send the same Notify calls for the same command line")
struct NotifySendDifferentialTests {
  /// Runs each command line with `tool` (notify-send's path, or nil for shieldbridge) against its own fresh server.
  private static func post(_ commandLines: [[String]], notifySend: String?) async throws -> Run {
    let fixture = try await EmbeddedServer()
    var run = Run()
    for arguments in commandLines {
      let result =
        if let notifySend {
          try Subprocess.run(
            [notifySend] + arguments,
            environment: ShieldBridgeTool.mergedEnvironment(["DBUS_SESSION_BUS_ADDRESS": fixture.bus.address]))
        } else {
          try await ShieldBridgeTool.run(
            ["notify", "--address", fixture.bus.address] + arguments,
            environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": try TemporaryDirectory().path])
        }
      run.statuses.append(result.status)
      run.outputs.append(result.output)
    }
    run.calls = fixture.server.notifications.map(NotifyCall.init)
    return run
  }

  @Test func postingCommandLinesGiveTheSameCallsOutputAndStatus() async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let expected = try await Self.post(postingCommandLines, notifySend: notifySend)
    let actual = try await Self.post(postingCommandLines, notifySend: nil)
    #expect(expected.statuses.allSatisfy { $0 == 0 })
    #expect(actual.statuses == expected.statuses)
    #expect(actual.outputs == expected.outputs)
    #expect(actual.calls.count == expected.calls.count)
    for (mine, theirs) in zip(actual.calls, expected.calls) {
      #expect(mine == theirs)
    }
  }

  /// Runs `arguments` with `tool` in the background, lets `act` answer its notification, and returns how it ended.
  private static func waiting(
    _ arguments: [String], notifySend: String?,
    act: @Sendable (NotificationServer, ReceivedNotification) async throws -> Void
  ) async throws -> (status: Int32?, output: String, call: NotifyCall) {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let process =
      if let notifySend {
        try BackgroundProcess(
          [notifySend] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": fixture.bus.address])
      } else {
        try BackgroundProcess(
          shieldbridge: ["notify", "--address", fixture.bus.address] + arguments,
          environment: ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": try TemporaryDirectory().path])
      }
    let notification = try await nextNotification(activity)
    try await act(fixture.server, notification)
    let result = await process.finish()
    return (result.status, result.output, NotifyCall(notification))
  }

  @Test func actionsWithoutANameAreNumberedAndAClickPrintsTheName() async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let arguments = ["-w", "-A", "Open", "-A", "later=Later", "-A", " Snooze ", "Pick one"]
    let click: @Sendable (NotificationServer, ReceivedNotification) async throws -> Void = { server, received in
      _ = try server.click(received.id, action: "2")
    }
    let theirs = try await Self.waiting(arguments, notifySend: notifySend, act: click)
    let mine = try await Self.waiting(arguments, notifySend: nil, act: click)
    #expect(theirs.call.actions == ["0=Open", "later=Later", "2=Snooze"])
    #expect(mine.call == theirs.call)
    #expect(theirs.status == 0)
    #expect(mine.status == theirs.status)
    #expect(mine.output == theirs.output)
  }

  @Test(arguments: [CloseReason.expired, .dismissed, .closed, .undefined])
  func waitExitsZeroOnAClose(reason: CloseReason) async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let close: @Sendable (NotificationServer, ReceivedNotification) async throws -> Void = { server, received in
      try server.close(received.id, reason: reason)
    }
    let theirs = try await Self.waiting(["--wait", "Closing"], notifySend: notifySend, act: close)
    let mine = try await Self.waiting(["--wait", "Closing"], notifySend: nil, act: close)
    #expect(mine.call == theirs.call)
    #expect(theirs.status == 0)
    #expect(mine.status == theirs.status)
    // notify-send prints nothing on a close; shieldbridge prints the reason.
    #expect(theirs.output.isEmpty)
    #expect(mine.output == reason.name + "\n")
  }
}
