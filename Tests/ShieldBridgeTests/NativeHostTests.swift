import Config
import DBus
import Foundation
import JSON
import Model
import Notifications
import ShieldBridge
import Spawn
import TestSupport
import Testing

/// A private bus that starts the real `serve` through D-Bus activation, as a
/// session bus does, with the embedded notification server on it; and the
/// sandbox whose config.json names sites.
final class SiteHarness: Sendable {
  let sandbox: Sandbox
  let bus: BusDaemon
  let server: NotificationServer

  /// `social` covers the Instagram app and instagram.com; `video` covers youtube.com only.
  static func configuration(dailyLimitMinutes: Int = 600, grantMinutes: Int = 5, maxGrantsPerDay: Int = 5) -> String {
    """
    {"desktop": "processes", "rules": [
      {"name": "social", "dailyLimitMinutes": \(dailyLimitMinutes), "grantMinutes": \(grantMinutes),
       "maxGrantsPerDay": \(maxGrantsPerDay), "warnMinutes": 0,
       "apps": [{"name": "Instagram", "class": "instagram", "sites": ["instagram.com"]}]},
      {"name": "video", "apps": [{"name": "YouTube", "sites": "youtube.com"}]}
    ]}
    """
  }

  /// - Parameter minuteLength: The length of the rules' minute for the activated `serve`, in milliseconds.
  init(configuration: String = SiteHarness.configuration(), minuteLength: Int = 60_000) async throws {
    sandbox = try Sandbox()
    try sandbox.writeConfig(configuration)
    let services = sandbox.root.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    let starter = sandbox.root.file("serve.sh")
    try writeExecutable(
      starter,
      """
      #!/bin/sh
      export HOME='\(sandbox.root.path)' XDG_CONFIG_HOME='\(sandbox.root.file("config"))'
      export XDG_STATE_HOME='\(sandbox.root.file("state"))' XDG_RUNTIME_DIR='\(sandbox.root.path)'
      export LANG=C.UTF-8
      unset DISPLAY WAYLAND_DISPLAY LANGUAGE LC_ALL LC_MESSAGES
      exec '\(ShieldBridgeTool.path)' serve --minute-length \(minuteLength) --save-interval 200 2>'\(sandbox.root.file("serve.log"))'

      """)
    try "[D-BUS Service]\nName=org.shieldbridge.ShieldBridge\nExec=\(starter)\n".write(
      toFile: services + "/org.shieldbridge.ShieldBridge.service", atomically: true, encoding: .utf8)
    bus = try BusDaemon(serviceDirectories: [services])
    server = try NotificationServer(
      connection: try Connection(.address(bus.address)),
      configuration: NotificationServer.Configuration(
        capabilities: NotificationServer.Configuration.defaultCapabilities))
    try await server.start()
  }

  /// A host started as Chromium starts it (or with `arguments`), on this bus.
  func host(arguments: [String] = [NativeHostProcess.origin]) throws -> NativeHostProcess {
    try NativeHostProcess(arguments: arguments, environment: sandbox.serviceEnvironment(address: bus.address))
  }

  /// What the activated service logged.
  var serviceLog: String { (try? String(contentsOfFile: sandbox.root.file("serve.log"), encoding: .utf8)) ?? "" }
}

@Suite("shieldbridge native-host through real pipes, with serve started by D-Bus activation")
struct NativeHostTests {
  @Test("A focus message is answered with the site's state: covered (subdomains too), uncovered, none")
  func focusStates() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.send(json(["type": "hello", "version": 1, "language": "en-US"]))
    try host.focus("www.Instagram.com")
    let covered = try await host.state("www.instagram.com")
    #expect(covered["covered"] == true)
    #expect(covered["rule"] == "social")
    #expect(covered["app"] == "Instagram")
    #expect(covered["shielded"] == false)
    #expect(covered["limitSeconds"]?.integerValue == 36_000)
    #expect(covered["usedSeconds"]?.integerValue != nil)

    try host.focus("example.org")
    let uncovered = try await host.state("example.org")
    #expect(uncovered == json(["type": "state", "site": "example.org", "covered": false, "shielded": false]))

    try host.focus(nil)
    let none = try await host.state(nil)
    #expect(none == json(["type": "state", "site": .null, "covered": false, "shielded": false]))

    try host.focus("m.youtube.com")
    #expect(try await host.state("m.youtube.com")["rule"] == "video")
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
    #expect(host.brokenOutput.events.isEmpty)
  }

  @Test("Bad messages get an error on stderr and an error reply, and the host keeps serving")
  func badMessagesKeepServing() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    let bad: [([UInt8], String)] = [
      (Array("{\"type\":".utf8), "is not JSON"),
      ([0x7B, 0x22, 0x74, 0xFF, 0xFE, 0x22, 0x7D], "is not valid UTF-8"),
      (Array("[1, 2]".utf8), "is not a JSON object"),
      (Array("{\"site\":\"instagram.com\"}".utf8), "has no \"type\""),
      (Array("{\"type\":\"teleport\"}".utf8), "unknown message type \"teleport\""),
      (Array("{\"type\":\"focus\",\"site\":\"https://instagram.com/p/1\"}".utf8), "is not a host name"),
      (Array("{\"type\":\"focus\",\"site\":\"\(String(repeating: "a", count: 300)).com\"}".utf8), "is not a host name"),
      (Array("{\"type\":\"answer\",\"puzzle\":7,\"answer\":\"3\"}".utf8), "is not the one open"),
      (Array("{\"type\":\"puzzle\",\"site\":\"example.org\"}".utf8), "no rule covers example.org"),
    ]
    for (body, text) in bad {
      let mark = host.received.count
      try host.write(raw: NativeHostProcess.frame(body))
      let reply = try await host.message("the error for a message that \(text)", after: mark)
      #expect(reply["type"] == "error", "\(reply)")
      #expect(reply["message"]?.stringValue?.contains(text) == true, "\(reply)")
    }
    // Still serving, and nothing counted for the bad ones.
    try host.focus("instagram.com")
    #expect(try await host.state("instagram.com")["covered"] == true)
    for (_, text) in bad { #expect(host.standardError.contains(text), "\(text)") }
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("A focus on something that is no host name stops the site reported before from counting")
  func badSiteStopsTheSiteBefore() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    #expect(try await harness.usage().usageRule("social")?["counting"] == true)

    let mark = host.received.count
    try host.focus("[::1]")
    let reply = try await host.message("the error for a site that is no host name", after: mark)
    #expect(reply["type"] == "error", "\(reply)")
    #expect(reply["message"]?.stringValue?.contains("is not a host name") == true, "\(reply)")
    let none = try await host.state(nil, after: mark)
    #expect(none["covered"] == false)
    _ = try await poll("social to stop counting") {
      try await harness.usage().usageRule("social")?["counting"] == false ? true : nil
    }
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("A length over the limit ends the host with a message: the stream cannot be resynchronised")
  func overLimitEnds() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    // 64 KiB and one byte: only the prefix is sent, the host must not wait for (or allocate) the body.
    var length = UInt32(64 * 1024 + 1)
    try host.write(raw: withUnsafeBytes(of: &length) { Array($0) })
    #expect(await host.exitStatus() == 65)
    #expect(host.standardError.contains("over the limit of 65536 bytes"), "\(host.standardError)")
    #expect(host.standardError.contains("cannot be resynchronised"), "\(host.standardError)")

    // A message of exactly the limit is taken (and refused as JSON, since it is spaces and a brace).
    let second = try harness.host()
    try second.write(raw: NativeHostProcess.frame(Array(repeating: 0x20, count: 64 * 1024 - 1) + [0x7B]))
    let reply = try await second.message("the error for a message of the limit's size")
    #expect(reply["type"] == "error")
    try second.closeInput()
    #expect(await second.exitStatus() == 0)
  }

  @Test("A prefix without its body, and a cut prefix, end the host with an error")
  func cutFrames() async throws {
    let harness = try await SiteHarness()
    let noBody = try harness.host()
    var length = UInt32(40)
    try noBody.write(raw: withUnsafeBytes(of: &length) { Array($0) } + Array("{\"type\":".utf8))
    try noBody.closeInput()
    #expect(await noBody.exitStatus() == 65)
    #expect(noBody.standardError.contains("8 of the 40 bytes of its body"), "\(noBody.standardError)")

    let cutPrefix = try harness.host()
    try cutPrefix.write(raw: [0x10, 0x00])
    try cutPrefix.closeInput()
    #expect(await cutPrefix.exitStatus() == 65)
    #expect(cutPrefix.standardError.contains("2 of the 4 bytes of its length prefix"), "\(cutPrefix.standardError)")

    let empty = try harness.host()
    try empty.closeInput()
    #expect(await empty.exitStatus() == 0)
  }

  @Test("A host not started by a browser refuses with exit 64; Firefox's arguments are taken")
  func notABrowser() async throws {
    let harness = try await SiteHarness()
    for arguments in [[], ["instagram.com"], ["chrome-extension://short/"], ["/tmp/x.json"]] {
      let host = try harness.host(arguments: arguments)
      #expect(await host.exitStatus() == 64, "\(arguments)")
      #expect(host.standardError.contains("native-host is started by a browser"), "\(host.standardError)")
    }
    let firefox = try harness.host(arguments: [
      "/usr/lib/mozilla/native-messaging-hosts/org.shieldbridge.shieldbridge.json", "shieldbridge@shieldbridge.org",
    ])
    try firefox.focus("example.org")
    _ = try await firefox.state("example.org")
    try firefox.closeInput()
    #expect(await firefox.exitStatus() == 0)
  }

  @Test("A flood of focus messages is coalesced: only changes reach the service, at a bounded rate")
  func floodIsCoalesced() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("example.org")
    _ = try await host.state("example.org")
    // Every SiteFocus call on the wire, as dbus-monitor sees it.
    let monitor = try BackgroundProcess([
      "dbus-monitor", "--address", harness.bus.address,
      "type='method_call',interface='org.shieldbridge.ShieldBridge1',member='SiteFocus'",
    ])
    _ = try await monitor.waitForLine(containing: "member=NameLost")
    func calls() -> Int { monitor.outputLines.filter { $0.contains("member=SiteFocus") }.count }

    let mark = host.received.count
    var burst: [UInt8] = []
    for index in 0..<5000 {
      let site = index % 2 == 0 ? "instagram.com" : "youtube.com"
      burst += NativeHostProcess.frame(Array(#"{"type":"focus","site":"\#(site)"}"#.utf8))
    }
    burst += NativeHostProcess.frame(Array(#"{"type":"focus","site":"www.instagram.com"}"#.utf8))
    try await onOwnThread { [burst] in try host.write(raw: burst) }
    let last = try await host.state("www.instagram.com", after: mark)
    #expect(last["rule"] == "social")
    _ = try await poll("the last SiteFocus call on the monitor") { calls() >= 1 ? true : nil }
    // At most ten calls a second: the burst takes well under ten seconds to read.
    #expect(calls() < 100, "\(calls()) SiteFocus calls for 5001 focus messages")
    #expect(host.received.count - mark <= 5001)
    // The service holds one site for this host: only social counts, not video as well.
    let usage = try await harness.usage()
    #expect(usage.usageRule("social")?["counting"] == true)
    #expect(usage.usageRule("video")?["counting"] == false)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("A service that dies is started again, and the host tells the new one its site")
  func serviceRestart() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    _ = try await host.state("instagram.com")
    #expect(try await harness.usage().usageRule("social")?["counting"] == true)

    let watcher = try Connection(.address(harness.bus.address))
    defer { watcher.close() }
    let owner = try #require(try await watcher.nameOwner(ServiceNames.busName))
    let pid = try await watcher.call(
      BusInterface.getConnectionUnixProcessID, destination: .bus, path: .bus, owner.rawValue, timeout: .seconds(10))
    kill(pid_t(pid), SIGKILL)
    _ = try await poll("the service to leave the bus") {
      try await watcher.nameOwner(ServiceNames.busName) == nil ? true : nil
    }
    // Usage() starts a new service; the host sees the new owner and tells it instagram.com again.
    let mark = host.received.count
    _ = try await poll("the new service to count the host's site", timeout: .seconds(20)) {
      try await harness.usage().usageRule("social")?["counting"] == true ? true : nil
    }
    let again = try await host.state("instagram.com", after: mark)
    #expect(again["covered"] == true)
    #expect(try await watcher.nameOwner(ServiceNames.busName) != owner)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("A task asked before the limit, while the service's meter counts the site, is refused with notAtLimit")
  func notAtLimit() async throws {
    let harness = try await SiteHarness()
    let host = try harness.host()
    try host.focus("instagram.com")
    let state = try await host.state("instagram.com")
    #expect(state["shielded"] == false)
    let mark = host.received.count
    try host.send(json(["type": "puzzle", "site": "instagram.com"]))
    let refused = try await host.message("the answer to the puzzle message", after: mark) {
      $0["type"] == "notAtLimit" || $0["type"] == "puzzle"
    }
    #expect(refused["type"] == "notAtLimit", "\(refused)")
    #expect(refused["site"] == "instagram.com")
    #expect(refused["rule"] == "social")
    #expect(
      refused["text"] == "Instagram is not at its limit yet: the task unlocks time only once today’s limit is used.")
    #expect(try harness.sandbox.store.load().value.grants(for: "social", on: harness.sandbox.store.today) == 0)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }

  @Test("Limit → a pushed shielded state; wrong answer → new task; right one → grant, unshielded; then used up")
  func limitPuzzleAndGrant() async throws {
    // A minute lasts three seconds (the site keeps counting while the test answers, so the grant's
    // 15 s must outlast a busy machine's answers); one grant a day.
    let harness = try await SiteHarness(
      configuration: SiteHarness.configuration(dailyLimitMinutes: 1, grantMinutes: 5, maxGrantsPerDay: 1),
      minuteLength: 3000)
    let host = try harness.host()
    try host.send(json(["type": "hello", "version": 1, "language": "de-DE"]))
    try host.focus("instagram.com")
    let first = try await host.state("instagram.com")
    #expect(first["shielded"] == false)
    // Nothing more is asked: the service's LimitReached makes the host push the new state.
    let shielded = try await host.state("instagram.com", after: 1) { $0["shielded"] == true }
    #expect(shielded["rule"] == "social")
    #expect((shielded["usedSeconds"]?.integerValue ?? 0) >= (shielded["limitSeconds"]?.integerValue ?? 1))

    var mark = host.received.count
    try host.send(json(["type": "puzzle", "site": "instagram.com"]))
    let task = try await host.message("a task", after: mark) { $0["type"] == "puzzle" }
    let question = try #require(task["question"]?.stringValue)
    #expect(task["text"]?.stringValue == "Wie viel ist \(question)?")
    #expect(task["prompt"]?.stringValue?.contains("Instagram") == true)
    #expect(task["rule"] == "social")
    // The first request of the day is counted; the prompt says the count only from the second.
    #expect(task["asked"]?.integerValue == 1)
    #expect(try harness.sandbox.store.load().value.tasksAsked(for: "social", on: harness.sandbox.store.today) == 1)
    let id = try #require(task["puzzle"]?.integerValue)

    mark = host.received.count
    try host.send(json(["type": "answer", "puzzle": .int(id), "answer": "  "]))
    let blank = try await host.message("the blank answer's result", after: mark) { $0["type"] == "answer" }
    #expect(blank["result"] == "blank")
    let same = try await host.message("the same task again", after: mark) { $0["type"] == "puzzle" }
    #expect(same == task)

    mark = host.received.count
    try host.send(json(["type": "answer", "puzzle": .int(id), "answer": "100000"]))
    let wrong = try await host.message("the wrong answer's result", after: mark) { $0["type"] == "answer" }
    #expect(wrong["result"] == "wrong")
    #expect(wrong["text"] == "Das ist nicht die Antwort. Hier ist eine neue Aufgabe.")
    let next = try await host.message("a new task", after: mark) { $0["type"] == "puzzle" }
    let nextID = try #require(next["puzzle"]?.integerValue)
    #expect(nextID != id)
    let nextQuestion = try #require(next["question"]?.stringValue)
    let right = try #require(answer(toQuestion: nextQuestion))

    mark = host.received.count
    try host.send(json(["type": "answer", "puzzle": .int(nextID), "answer": .string(" \(right) ")]))
    let solved = try await host.message("the solved result", after: mark) { $0["type"] == "answer" }
    #expect(solved["result"] == "solved")
    #expect(solved["minutes"]?.integerValue == 5)
    #expect(solved["text"]?.stringValue?.hasPrefix("5 weitere Minuten für Instagram") == true, "\(solved)")
    // A state pushed before the grant may still come first on a busy machine; the lifted one follows.
    let lifted = try await host.state("instagram.com", after: mark) { $0["shielded"] == false }
    #expect(lifted["limitSeconds"]?.integerValue == 18)
    #expect(try harness.sandbox.store.load().value.grants(for: "social", on: harness.sandbox.store.today) == 1)

    mark = host.received.count
    try host.send(json(["type": "puzzle", "site": "www.instagram.com"]))
    let usedUp = try await host.message("used up", after: mark) { $0["type"] == "usedUp" }
    #expect(usedUp["site"] == "www.instagram.com")
    #expect(usedUp["rule"] == "social")
    #expect(usedUp["text"]?.stringValue?.contains("Instagram") == true)
    try host.closeInput()
    #expect(await host.exitStatus() == 0)
  }
}

extension SiteHarness {
  /// `Usage()` of the activated service, parsed.
  func usage() async throws -> JSONValue {
    let connection = try Connection(.address(bus.address))
    defer { connection.close() }
    let reply = try await connection.call(
      ServiceNames.busName, ServiceNames.path, ServiceInterface.name, ServiceInterface.usage.name, timeout: .seconds(10)
    )
    return try JSONValue(parsing: try reply.decode(String.self))
  }
}

/// A JSON object with its members in the order written.
func json(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
  .object(members.map { ($0.key, $0.value) })
}
