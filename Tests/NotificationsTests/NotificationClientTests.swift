import DBus
import Notifications
import TestSupport
import Testing
import Version

@Suite("The client posts, replaces, closes and reads the server")
struct NotificationClientPostingTests {
  @Test func postSendsEveryFieldAndReturnsTheServersID() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    var notification = Notification(
      summary: "Instagram is shielded", body: "Solve a puzzle for 5 more minutes",
      appName: "ShieldBridge",
      icon: "dialog-information",
      actions: [.init(key: "default", label: "Solve"), .init(key: "view", label: "Messages")],
      hints: .init(
        urgency: .critical, category: "im.received", desktopEntry: "shieldbridge", transient: true,
        resident: false,
        imagePath: "file:///tmp/x.png", soundName: "message-new-instant", suppressSound: true,
        x: 10, y: 20,
        custom: ["x-test": .uint64(7)]),
      expiry: .milliseconds(60_000))
    notification.replacesID = 0
    let id = try await client.post(notification)
    let received = try #require(fixture.server.notification(id))
    #expect(received.appName == "ShieldBridge")
    #expect(received.icon == "dialog-information")
    #expect(received.summary == "Instagram is shielded")
    #expect(received.body == "Solve a puzzle for 5 more minutes")
    #expect(received.actions.map(\.key) == ["default", "view"])
    #expect(received.actions.map(\.label) == ["Solve", "Messages"])
    #expect(received.expireTimeout == 60_000)
    #expect(received.sender == client.connection.uniqueName)
    #expect(received.hint("urgency") == .byte(2))
    #expect(received.hint("category") == .string("im.received"))
    #expect(received.hint("desktop-entry") == .string("shieldbridge"))
    #expect(received.hint("transient") == .boolean(true))
    #expect(received.hint("resident") == .boolean(false))
    #expect(received.hint("image-path") == .string("file:///tmp/x.png"))
    #expect(received.hint("sound-name") == .string("message-new-instant"))
    #expect(received.hint("suppress-sound") == .boolean(true))
    #expect(received.hint("x") == .int32(10))
    #expect(received.hint("y") == .int32(20))
    #expect(received.hint("x-test") == .uint64(7))
  }

  @Test func expiryMapsToTheSpecificationsValues() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let cases: [(Notification.Expiry, Int32)] = [
      (.serverDefault, -1), (.never, 0), (.milliseconds(1500), 1500),
    ]
    for (expiry, wire) in cases {
      // Read from the server's activity, not its open notifications: on a busy machine
      // the 1.5 s one can expire before the test looks.
      let activity = fixture.server.activity()
      let id = try await client.post(Notification(summary: "x", expiry: expiry))
      let notified = try await first("the Notify of \(id)", in: activity) { event in
        if case .notified(let notification) = event { notification.id == id } else { false }
      }
      guard case .notified(let received) = notified else { continue }
      #expect(received.expireTimeout == wire)
    }
  }

  @Test func postingTheSameIdentifierAgainReplacesTheNotification() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    var ids: [UInt32] = []
    for index in 0..<5 {
      ids.append(
        try await client.post(Notification(summary: "tap \(index)", identifier: "shield-open")))
    }
    #expect(Set(ids).count == 1)
    #expect(fixture.server.notifications.count == 1)
    #expect(fixture.server.notifications.first?.summary == "tap 4")
    #expect(fixture.server.notifications.first?.replacesID == ids[0])
    let other = try await client.post(Notification(summary: "other", identifier: "other"))
    #expect(other != ids[0])
  }

  @Test func stackTagHintsAreSetOnlyWhereTheServerAdvertisesThem() async throws {
    let plain = try await EmbeddedServer()
    let plainID = try await plain.client().post(
      Notification(summary: "x", identifier: "shield-open"))
    #expect(plain.server.notification(plainID)?.hint("x-dunst-stack-tag") == nil)

    let stacking = try await EmbeddedServer(capabilities: [
      "actions", "body", "x-dunst-stack-tag", "x-canonical-private-synchronous",
    ])
    let stackingID = try await stacking.client().post(
      Notification(summary: "x", identifier: "shield-open"))
    let received = try #require(stacking.server.notification(stackingID))
    #expect(received.hint("x-dunst-stack-tag") == .string("shield-open"))
    #expect(received.hint("x-canonical-private-synchronous") == .string("shield-open"))
  }

  @Test func closeClosesWithReason3AndTheEventComesBack() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(Notification(summary: "x"))
    try await client.close(id)
    let event = try await first("the close", in: events)
    #expect(event == .closed(id: id, reason: .closed))
    let error = await #expect(throws: NotificationError.self) { try await client.close(id) }
    #expect(error?.code == .unknownNotification)
  }

  @Test func capabilitiesAndServerInformationComeFromTheServer() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body", "body-markup"])
    let client = try await fixture.client()
    #expect(try await client.capabilities() == ["body", "body-markup"])
    let information = try await client.serverInformation()
    #expect(
      information
        == ServerInformation(
          name: "shieldbridge", vendor: "ShieldBridge", version: shieldBridgeVersion, specVersion: "1.3"))
    #expect(client.serverOwner == fixture.server.connection.uniqueName)
  }

  @Test func aClientThatReceivesNoEventsStillPostsReplacesAndCloses() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "x-dunst-stack-tag"])
    let client = try await NotificationClient.connect(
      to: .address(fixture.bus.address), receivesEvents: false)
    var ended = true
    for await _ in client.events() { ended = false }
    #expect(ended)
    #expect(client.serverOwner == nil)
    let first = try await client.post(Notification(summary: "one", identifier: "shield-open"))
    // The first post, which knows no id to replace, carries the stack tag; the second replaces it by id.
    #expect(fixture.server.notification(first)?.hint("x-dunst-stack-tag") == .string("shield-open"))
    let second = try await client.post(Notification(summary: "two", identifier: "shield-open"))
    #expect(first == second)
    try await client.close(first)
    #expect(fixture.server.notifications.isEmpty)
  }

  @Test func aClientThatReceivesNoEventsAsksForCapabilitiesOnlyWhenTheyChangeThePost() async throws {
    let bus = try BusDaemon()
    let server = try Connection(.address(bus.address))
    let calls = EventLog<String>()
    try server.export(
      [
        try Interface(
          "org.freedesktop.Notifications",
          methods: [
            try Method("GetCapabilities", outputs: "as") { _ in
              calls.append("GetCapabilities")
              return [.array(element: .string, [.string("body"), .string("body-markup")])]
            },
            try Method("Notify", inputs: "susssasa{sv}i", outputs: "u") { call in
              var reader = call.message.reader()
              _ = try reader.read(String.self)
              _ = try reader.read(UInt32.self)
              _ = try reader.read(String.self)
              _ = try reader.read(String.self)
              calls.append("Notify " + (try reader.read(String.self)))
              return [.uint32(UInt32(calls.count))]
            },
          ])
      ], at: NotificationsNames.path)
    _ = try await server.requestName(NotificationsNames.busName)
    let client = try await NotificationClient.connect(to: .address(bus.address), receivesEvents: false)
    #expect(client.connection.dispatching == .callingThread)
    _ = try await client.post(Notification(summary: "plain", body: "Solve a puzzle"))
    #expect(calls.events == ["Notify Solve a puzzle"])
    // Escaping depends on body-markup: now the server is asked first, and once.
    _ = try await client.post(Notification(summary: "escaped", body: "a & b"))
    _ = try await client.post(Notification(summary: "escaped", body: "c < d"))
    #expect(calls.events == ["Notify Solve a puzzle", "GetCapabilities", "Notify a &amp; b", "Notify c &lt; d"])
  }

  @Test func aTextWithANulByteIsRefusedBeforeItIsSent() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let error = await #expect(throws: NotificationError.self) {
      _ = try await client.post(Notification(summary: "a\u{0}b"))
    }
    #expect(error?.code == .invalidArgument)
    #expect(fixture.server.notifications.isEmpty)
  }
}

@Suite("The client's presentation follows the capabilities both ways")
struct NotificationClientPresentationTests {
  @Test func withBodyMarkupEveryInsertedValueIsEscaped() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "body-markup"])
    let id = try await fixture.client().post(
      Notification(summary: "<b>not escaped</b>", body: "<b>Tom & Jerry</b>"))
    let received = try #require(fixture.server.notification(id))
    #expect(received.body == "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;")
    #expect(received.summary == "<b>not escaped</b>")
  }

  @Test func withoutBodyMarkupTheBodyIsSentAsPlainText() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body"])
    let client = try await fixture.client()
    let plain = try await client.post(Notification(summary: "x", body: "<b>Tom & Jerry</b>"))
    #expect(fixture.server.notification(plain)?.body == "<b>Tom & Jerry</b>")
    var markup = Notification(summary: "x", body: "<b>Tom &amp; Jerry</b>")
    markup.bodyIsMarkup = true
    let stripped = try await client.post(markup)
    #expect(fixture.server.notification(stripped)?.body == "Tom & Jerry")
  }

  @Test func markupOnPurposeIsSentUnescapedToAMarkupServer() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body", "body-markup"])
    var notification = Notification(summary: "x", body: "<b>bold</b>")
    notification.bodyIsMarkup = true
    let id = try await fixture.client().post(notification)
    #expect(fixture.server.notification(id)?.body == "<b>bold</b>")
  }

  @Test func withoutActionsButWithHyperlinksTheLinksGoIntoTheBody() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body", "body-hyperlinks", "body-markup"])
    let notification = Notification(
      summary: "Shielded", body: "Earn time",
      actions: [
        .init(key: "default", label: "Solve a puzzle", link: "shieldbridge://puzzle?app=A%26B"),
        .init(key: "view", label: "Messages", link: "shieldbridge://view?app=A"),
      ])
    let id = try await fixture.client().post(notification)
    let received = try #require(fixture.server.notification(id))
    #expect(received.actions.isEmpty)
    #expect(
      received.body == """
        Earn time
        <a href="shieldbridge://puzzle?app=A%26B">Solve a puzzle</a>
        <a href="shieldbridge://view?app=A">Messages</a>
        """)
  }

  @Test func withNeitherTheNotificationIsCloseOnlyWithItsHint() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["body"])
    var notification = Notification(
      summary: "Shielded", body: "Earn time",
      actions: [.init(key: "default", label: "Solve", link: "shieldbridge://puzzle")])
    notification.closeOnlyText = "Run 'shieldbridge puzzle' to earn time."
    let client = try await fixture.client()
    #expect(try await client.presentation().style == .closeOnly)
    let id = try await client.post(notification)
    let received = try #require(fixture.server.notification(id))
    #expect(received.actions.isEmpty)
    #expect(received.body == "Earn time\nRun 'shieldbridge puzzle' to earn time.")
  }

  @Test func theInlineReplyActionIsOfferedOnlyWhereRepliesExist() async throws {
    let actions: [Notification.Action] = [
      .init(key: "default", label: "Solve"), .init(key: "inline-reply", label: "Answer"),
    ]
    let kde = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let kdeID = try await kde.client().post(Notification(summary: "7 × 13?", actions: actions))
    #expect(kde.server.notification(kdeID)?.actions.map(\.key) == ["default", "inline-reply"])
    let other = try await EmbeddedServer(capabilities: ["actions", "body"])
    let otherID = try await other.client().post(Notification(summary: "7 × 13?", actions: actions))
    #expect(other.server.notification(otherID)?.actions.map(\.key) == ["default"])
  }
}

@Suite("The client's event stream")
struct NotificationClientEventTests {
  @Test func aClickArrivesAsActivationTokenThenActionThenClose() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(
      Notification(summary: "x", actions: [.init(key: "default", label: "Open")]))
    let token = try fixture.server.click(id)
    let received = try await collect(3, "three events", from: events)
    #expect(
      received == [
        .activationToken(id: id, token: token), .action(id: id, key: "default"),
        .closed(id: id, reason: .dismissed),
      ])
  }

  @Test func anEventThatOvertakesTheNotifyReplyIsStillDelivered() async throws {
    let fixture = try await EmbeddedServer()
    let activity = fixture.server.activity()
    let client = try await fixture.client()
    let events = client.events()
    // The server clicks as soon as the notification arrives, before the client has read its id.
    let clicker = Task {
      for await case .notified(let notification) in activity {
        return try? fixture.server.click(notification.id)
      }
      return nil
    }
    let id = try await client.post(
      Notification(summary: "x", actions: [.init(key: "default", label: "Open")]))
    _ = await clicker.value
    let action = try await first("the action", in: events) {
      if case .action = $0 { true } else { false }
    }
    #expect(action == .action(id: id, key: "default"))
  }

  @Test func anExpiredNotificationEndsWithReasonExpired() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(Notification(summary: "x", expiry: .milliseconds(30)))
    #expect(try await first("the expiry", in: events) == .closed(id: id, reason: .expired))
  }

  @Test func aReplyArrivesWithInlineReply() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body", "inline-reply"])
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(
      Notification(
        summary: "7 × 13?", actions: [.init(key: "inline-reply", label: "Answer")],
        hints: .init(replyPlaceholder: "Your answer")))
    #expect(
      fixture.server.notification(id)?.hint("x-kde-reply-placeholder-text")
        == .string("Your answer"))
    try fixture.server.reply(id, text: "91")
    #expect(try await first("the reply", in: events) == .replied(id: id, text: "91"))
  }

  @Test func eventsAboutOtherProgramsNotificationsAreNotDelivered() async throws {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let other = try await fixture.client()
    let otherID = try await other.post(Notification(summary: "not ours"))
    let ownID = try await client.post(Notification(summary: "ours"))
    try await other.close(otherID)
    try await client.close(ownID)
    #expect(try await first("a close", in: events) == .closed(id: ownID, reason: .closed))
  }

  @Test func aSpoofedActionInvokedFromAThirdConnectionIsIgnoredWhileTheRealClickIsHonoured()
    async throws
  {
    let fixture = try await EmbeddedServer()
    let client = try await fixture.client()
    let events = client.events()
    let id = try await client.post(
      Notification(
        summary: "x",
        actions: [.init(key: "default", label: "Open"), .init(key: "view", label: "View")]))
    let spoofer = try fixture.connection()
    for destination in [client.connection.uniqueName, nil] {
      try spoofer.emit(
        path: NotificationsNames.path, interface: NotificationsInterface.name,
        member: MemberName("ActionInvoked"),
        destination: destination, id, "view")
    }
    // The spoofed signals reach the bus before the click does.
    _ = try await spoofer.nameOwner(.bus)
    try fixture.server.click(id, action: "default")
    let action = try await first("the action", in: events) {
      if case .action = $0 { true } else { false }
    }
    #expect(action == .action(id: id, key: "default"))
  }
}

@Suite("The client faces missing, slow and restarting servers")
struct NotificationClientFaultTests {
  @Test(arguments: [true, false])
  func withoutAServerAPostFailsAtOnceWithNoServer(receivesEvents: Bool) async throws {
    let bus = try BusDaemon()
    // A timeout long enough that the answer must be the prompt NoServer, also
    // when the parallel run delays this task for seconds.
    let client = try await NotificationClient.connect(
      to: .address(bus.address), timeout: HangBound.answer, receivesEvents: receivesEvents)
    let error = await #expect(throws: NotificationError.self) {
      _ = try await client.post(Notification(summary: "x"))
    }
    // A wait for the timeout would end in `timeout`, not `noServer`.
    #expect(error?.code == .noServer)
  }

  // The timeouts asked for here are longer than libdbus's default of 25 s, so that a call that
  // waited at least as long as asked used the timeout asked for: a lower bound, which a busy
  // machine cannot break (an upper one it can, by delaying this task's wake-ups).
  // libdbus counts its timeouts in whole milliseconds: 100 ms of slack below.
  static let longerThanLibdbusDefault: Duration = .seconds(30)

  @Test(.timeLimit(.minutes(3)))
  func aServerThatNeverAnswersGivesATimeoutAfterTheTimeout() async throws {
    let bus = try BusDaemon()
    let silent = try Connection(.address(bus.address))
    try silent.export(
      [
        try Interface(
          "org.freedesktop.Notifications",
          methods: [
            try Method(
              "GetCapabilities", outputs: "as",
              async: { _ in
                try await Task.sleep(for: .seconds(600))
                return []
              })
          ])
      ], at: NotificationsNames.path)
    _ = try await silent.requestName(NotificationsNames.busName)
    let timeout = Self.longerThanLibdbusDefault
    let client = try await NotificationClient.connect(to: .address(bus.address), timeout: timeout)
    let clock = ContinuousClock()
    let started = clock.now
    let error = await #expect(throws: NotificationError.self) {
      _ = try await client.post(Notification(summary: "x"))
    }
    #expect(error?.code == .timeout)
    #expect(clock.now - started >= timeout - .milliseconds(100))
  }

  @Test(.timeLimit(.minutes(3)), arguments: [true, false])
  func aBusThatNeverAnswersGivesATimeoutAfterTheTimeout(receivesEvents: Bool) async throws {
    let silent = try SilentSocket()
    let timeout = Self.longerThanLibdbusDefault
    let clock = ContinuousClock()
    let started = clock.now
    let error = await #expect(throws: NotificationError.self) {
      _ = try await NotificationClient.connect(
        to: .address(silent.address), timeout: timeout, receivesEvents: receivesEvents)
    }
    #expect(error?.code == .timeout)
    #expect(clock.now - started >= timeout - .milliseconds(100))
  }

  @Test func withoutABusConnectingFailsWithNoBus() async throws {
    let error = await #expect(throws: NotificationError.self) {
      _ = try await NotificationClient.connect(
        to: .address("unix:path=/nonexistent/shieldbridge-test-bus"))
    }
    #expect(error?.code == .noBus)
  }

  @Test func aRestartedServerIsPickedUpAndItsPredecessorsIDsAreNeverReused() async throws {
    let fixture = try await EmbeddedServer(capabilities: ["actions", "body"])
    let client = try await fixture.client()
    let events = client.events()
    let before = try await client.post(Notification(summary: "before", identifier: "shield-open"))
    #expect(try await client.capabilities() == ["actions", "body"])

    let oldOwner = fixture.server.connection.uniqueName
    let changes = client.serverChanges()
    await fixture.server.stop()
    fixture.server.connection.close()
    // The old server's notification ends with it.
    #expect(
      try await first("the end of the old notification", in: events)
        == .closed(id: before, reason: .undefined))
    let successor = try await EmbeddedServer.startServer(
      on: fixture.bus, capabilities: ["body", "body-markup"])
    let owner = successor.connection.uniqueName
    _ = try await first("the new owner", in: changes) { $0 == owner }
    #expect(successor.connection.uniqueName != oldOwner)

    #expect(try await client.capabilities() == ["body", "body-markup"])
    let second = try await client.post(
      Notification(summary: "after", body: "a & b", identifier: "shield-open"))
    let received = try #require(successor.notification(second))
    #expect(received.replacesID == 0)
    #expect(received.body == "a &amp; b")
    // The same identifier on the new server replaces what the new server showed.
    let third = try await client.post(Notification(summary: "again", identifier: "shield-open"))
    #expect(third == second)
    #expect(successor.notification(third)?.replacesID == second)
  }
}
