import Desktop
import Model
import Synchronization
import TestSupport
import Testing

/// What the i3 backend reads from a tree and sends for it, against a server that answers with a fixed tree.
@Suite struct I3TreeTests {
  /// A workspace with a split container (focused with `focus parent`) over two windows, a
  /// floating window, and one window in the scratchpad.
  static let tree = """
    {"id":1,"type":"root","focused":false,"nodes":[
      {"id":2,"type":"output","name":"__i3","nodes":[{"id":3,"type":"con","name":"content","nodes":[
        {"id":4,"type":"workspace","name":"__i3_scratch","nodes":[],"floating_nodes":[
          {"id":5,"type":"floating_con","nodes":[
            {"id":6,"type":"con","window":600,"window_properties":{"class":"Instagram","instance":"old"}}]}]}]}]},
      {"id":10,"type":"output","name":"screen","nodes":[{"id":11,"type":"con","name":"content","nodes":[
        {"id":12,"type":"workspace","name":"1","focus":[13],"nodes":[
          {"id":13,"type":"con","layout":"splith","focused":true,"focus":[15,14],"nodes":[
            {"id":14,"type":"con","window":1400,"window_properties":{"class":"Other","instance":"xterm"}},
            {"id":15,"type":"con","app_id":"org.telegram.desktop","pid":4242}]}],
          "floating_nodes":[{"id":16,"type":"floating_con","nodes":[
            {"id":17,"type":"con","window":1700,"window_properties":{"class":"Instagram","instance":"xterm"}}]}]}]}]}]}
    """

  final class Commands: Sendable {
    let sent = Mutex<[String]>([])
  }

  func server(_ commands: Commands) throws -> FakeI3Server {
    try FakeI3Server { number, peer in
      if number == 0 { try peer.answerVersion() }
      while let (type, payload) = try peer.request() {
        switch type {
        case 2: try peer.send(type: 2, payload: #"{"success":true}"#)
        case 4: try peer.send(type: 4, payload: Self.tree)
        default:
          commands.sent.withLock { $0.append(payload) }
          try peer.send(type: type, payload: #"[{"success":true}]"#)
        }
      }
    }
  }

  @Test func aFocusedSplitContainerStandsForTheWindowItsFocusListPutsFirst() async throws {
    let commands = Commands()
    let server = try server(commands)
    let desktop = try I3Desktop(socketPath: server.path, kind: .sway)
    let log = EventLog<DesktopEvent>()
    let task = log.collect(desktop.events(idleAfter: .seconds(300)))
    let first = try await log.first("the first focus")
    let telegram = AppIdentity(appID: "org.telegram.desktop", pid: 4242)
    #expect(first == .focus(FocusedWindow(window: WindowID(15), app: telegram)))
    desktop.stop()
    await task.value
    withExtendedLifetime(server) {}
  }

  @Test func hideSkipsTheScratchpadAndCloseNamesEveryMatchingContainer() async throws {
    let commands = Commands()
    let server = try server(commands)
    let desktop = try I3Desktop(socketPath: server.path)
    #expect(try await desktop.hide { $0.windowClass == "Instagram" } == 1)
    #expect(commands.sent.withLock { $0 } == ["[con_id=17] move scratchpad"])
    commands.sent.withLock { $0.removeAll() }
    #expect(try await desktop.close { $0.windowClass == "Instagram" || $0.appID != nil } == [4242])
    #expect(commands.sent.withLock { $0 } == ["[con_id=6] kill", "[con_id=15] kill", "[con_id=17] kill"])
    #expect(try await desktop.hide { _ in false } == 0)
    withExtendedLifetime(server) {}
  }
}
