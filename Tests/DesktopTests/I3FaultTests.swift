import Desktop
import Foundation
import Model
import Spawn
import TestSupport
import Testing

/// The i3 client against a server that misbehaves: every fault ends in an error or `.lost`, soon, never a hang.
@Suite struct I3FaultTests {
  static let tree = #"{"id":1,"type":"root","nodes":[],"floating_nodes":[],"focused":false}"#

  /// Starts a fake server whose command connection answers GET_VERSION and GET_TREE,
  /// and whose event connection runs `events` after reading the subscription.
  func desktop(events: @escaping @Sendable (FakeI3Server.Peer) throws -> Void) throws -> (FakeI3Server, I3Desktop) {
    let server = try FakeI3Server { number, peer in
      if number == 0 {
        try peer.answerVersion()
        while let (type, _) = try peer.request() {
          try peer.send(type: type, payload: type == 4 ? Self.tree : #"[{"success":true}]"#)
        }
      } else {
        guard try peer.request()?.type == 2 else { return }
        try events(peer)
      }
    }
    return (server, try I3Desktop(socketPath: server.path))
  }

  /// The events until the stream ends (bounded).
  func eventsUntilTheEnd(of desktop: I3Desktop) async throws -> [DesktopEvent] {
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    _ = try await log.first("the desktop lost", timeout: .seconds(20)) {
      if case .lost = $0 { true } else { false }
    }
    // After `.lost` the stream ends: nothing else arrives.
    await task.value
    return log.events
  }

  func lostReason(_ events: [DesktopEvent]) -> String? {
    if case .lost(let reason)? = events.last { reason } else { nil }
  }

  @Test func garbageInsteadOfAMessageLosesTheDesktop() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.sendRaw(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
      peer.waitForClose()
    }
    let reason = lostReason(try await eventsUntilTheEnd(of: desktop))
    withExtendedLifetime(server) {}
    #expect(reason?.contains("not an i3 IPC message") == true, "\(reason ?? "no .lost")")
  }

  @Test func a100MBLengthIsNeverReadAndLosesTheDesktop() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":true}"#)
      try peer.send(type: 0x8000_0003, payload: #"{"change":"focus","container":{"#, announcing: 100_000_000)
      peer.waitForClose()
    }
    let events = try await eventsUntilTheEnd(of: desktop)
    withExtendedLifetime(server) {}
    #expect(events.first == .focus(nil))
    let reason = lostReason(events)
    #expect(reason?.contains("100000000 bytes") == true, "\(reason ?? "no .lost")")
  }

  @Test func halfAMessageThenTheEndLosesTheDesktop() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":true}"#)
      try peer.sendRaw(Array("i3-ipc".utf8) + [200, 0])
    }
    let reason = lostReason(try await eventsUntilTheEnd(of: desktop))
    withExtendedLifetime(server) {}
    #expect(reason?.contains("was closed") == true, "\(reason ?? "no .lost")")
  }

  @Test func halfAMessageThenSilenceLosesTheDesktopWithinTheTimeout() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":true}"#)
      try peer.send(type: 0x8000_0003, payload: #"{"change":"fo"#, announcing: 4000)
      peer.waitForClose()
    }
    let reason = lostReason(try await eventsUntilTheEnd(of: desktop))
    withExtendedLifetime(server) {}
    #expect(reason?.contains("in time") == true, "\(reason ?? "no .lost")")
  }

  @Test func malformedJSONLosesTheDesktop() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":true}"#)
      try peer.send(type: 0x8000_0003, payload: #"{"change":"focus","container":[1,2"#)
      peer.waitForClose()
    }
    let reason = lostReason(try await eventsUntilTheEnd(of: desktop))
    withExtendedLifetime(server) {}
    #expect(reason?.contains("malformed JSON") == true, "\(reason ?? "no .lost")")
  }

  @Test func aFocusEventThenTheEndGivesTheFocusThenLost() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":true}"#)
      let container =
        #"{"id":94,"type":"con","window":4194307,"name":"a secret title","window_properties":{"class":"Instagram","instance":"xterm","title":"a secret title"}}"#
      try peer.send(type: 0x8000_0003, payload: #"{"change":"focus","container":\#(container)}"#)
      try peer.send(type: 0x8000_0003, payload: #"{"change":"title","container":\#(container)}"#)
      try peer.send(type: 0x8000_0006, payload: #"{"change":"exit"}"#)
      peer.waitForClose()
    }
    let events = try await eventsUntilTheEnd(of: desktop)
    withExtendedLifetime(server) {}
    let app = AppIdentity(instance: "xterm", windowClass: "Instagram")
    #expect(events.dropLast() == [.focus(nil), .focus(FocusedWindow(window: WindowID(94), app: app))])
    #expect(lostReason(events) == "i3 is shutting down (exit)")
    #expect(!"\(events)".contains("secret"))
  }

  @Test func aRefusedSubscriptionLosesTheDesktop() async throws {
    let (server, desktop) = try desktop { peer in
      try peer.send(type: 2, payload: #"{"success":false}"#)
      peer.waitForClose()
    }
    let reason = lostReason(try await eventsUntilTheEnd(of: desktop))
    withExtendedLifetime(server) {}
    #expect(reason?.contains("refused the subscription") == true, "\(reason ?? "no .lost")")
  }

  @Test func aHugeReplyToACommandIsAnErrorAndTheNextCommandConnectsAgain() async throws {
    let server = try FakeI3Server { number, peer in
      if number == 0 { try peer.answerVersion() }
      guard let (type, _) = try peer.request() else { return }
      if number == 0 {
        try peer.send(type: type, payload: "{", announcing: 100_000_000)
        peer.waitForClose()
      } else {
        try peer.send(type: type, payload: Self.tree)
      }
    }
    let desktop = try I3Desktop(socketPath: server.path)
    await #expect(throws: Desktop.DesktopError.self) { _ = try await desktop.hide { _ in true } }
    #expect(try await desktop.hide { _ in true } == 0)
    #expect(server.connectionCount == 2)
  }

  @Test func aHugeOrMissingVersionReplyFailsTheConnection() async throws {
    let huge = try FakeI3Server { _, peer in
      _ = try peer.request()
      try peer.send(type: 7, payload: "", announcing: 100_000_000)
      peer.waitForClose()
    }
    #expect(throws: Desktop.DesktopError.self) { try I3Desktop(socketPath: huge.path) }
    let closing = try FakeI3Server { _, peer in _ = try peer.request() }
    #expect(throws: Desktop.DesktopError.self) { try I3Desktop(socketPath: closing.path) }
    let wrong = try FakeI3Server { _, peer in
      _ = try peer.request()
      try peer.send(type: 7, payload: #"{"hello":"world"}"#)
      peer.waitForClose()
    }
    #expect(throws: Desktop.DesktopError.self) { try I3Desktop(socketPath: wrong.path) }
    withExtendedLifetime((huge, closing)) {}
  }

  @Test func aServerThatNeverAnswersFailsWithinTheReplyTimeout() async throws {
    let silent = try FakeI3Server { _, peer in peer.waitForClose() }
    let path = silent.path
    let outcome = await onOwnThread { () -> String in
      do {
        _ = try I3Desktop(socketPath: path)
        return "connected"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome.contains("in time"), "\(outcome)")
    withExtendedLifetime(silent) {}
  }

  @Test func aSocketNobodyListensOnIsAnError() throws {
    let directory = try TemporaryDirectory()
    #expect(throws: Desktop.DesktopError.self) { try I3Desktop(socketPath: directory.file("none.sock")) }
    #expect(throws: Desktop.DesktopError.self) { try I3Desktop(socketPath: String(repeating: "x", count: 200)) }
  }

  @Test func commandFailuresAreReported() async throws {
    let server = try FakeI3Server { number, peer in
      if number == 0 { try peer.answerVersion() }
      while let (type, _) = try peer.request() {
        if type == 4 {
          try peer.send(
            type: 4,
            payload:
              #"{"id":1,"type":"root","nodes":[{"id":2,"type":"workspace","name":"1","nodes":[{"id":7,"type":"con","window":5,"window_properties":{"class":"Instagram"}}]}]}"#
          )
        } else {
          try peer.send(type: type, payload: #"[{"success":false,"error":"No such container"}]"#)
        }
      }
    }
    let desktop = try I3Desktop(socketPath: server.path)
    do {
      _ = try await desktop.hide { $0.windowClass == "Instagram" }
      Issue.record("hide succeeded")
    } catch {
      #expect(error.message.contains("No such container"))
    }
    withExtendedLifetime(server) {}
  }
}
