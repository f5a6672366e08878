import DBus
import Foundation
import JSON
import Model
import TestSupport
import Testing

@Suite("shieldbridge status shows the time used today, with a bar, and which source counts it")
struct StatusUsageTests {
  static let config = #"{"rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":10}]}"#

  @Test("Without a service: the ledger's seconds, and that nothing counts now")
  func fromTheLedger() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.config)
    _ = try sandbox.store.recordUsage(["social": 190], on: sandbox.store.today)
    var environment = sandbox.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = ""

    let text = try await ShieldBridgeTool.run(["status"], environment: environment)
    #expect(text.status == 0, "\(text.error)")
    #expect(text.error.isEmpty)
    #expect(text.output.contains("\nsocial: 3 min 10 s of 10 min used today  [######--------------]\n"))
    #expect(
      text.output.contains(
        "\nnot counted: the service is not running; the figures are from the ledger and may be up to 30 s old\n"))
    #expect(text.output.contains("social: Instagram\n  limit today: 10 minutes\n"))

    let json = try await ShieldBridgeTool.run(["status", "--json"], environment: environment)
    #expect(json.status == 0)
    let today = sandbox.store.today.description
    #expect(
      json.output == """
        {"date":"\(today)","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":10,\
        "grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":0,"limitTodayMinutes":10,"usedSeconds":190,\
        "limitSeconds":600,"remainingSeconds":410,"counting":false,"overLimit":false}],\
        "source":{"backend":"off","counting":"none","limitations":[],"service":false}}

        """)
  }

  @Test("Without a service and without use today, the JSON is what it always was")
  func nothingUsed() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.config)
    var environment = sandbox.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = ""
    let json = try await ShieldBridgeTool.run(["status", "--json"], environment: environment)
    #expect(!json.output.contains("usedSeconds"))
    #expect(!json.output.contains("source"))
    let text = try await ShieldBridgeTool.run(["status"], environment: environment)
    #expect(text.output.contains("\nsocial: 0 s of 10 min used today  [--------------------]\n"))
  }

  @Test("status asks the service without starting it: the bus's service file is not run")
  func doesNotStartTheService() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.config)
    // A service file that would leave a mark if the bus ran it for the call.
    let services = sandbox.root.file("services")
    let marker = sandbox.root.file("started")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    try "[D-BUS Service]\nName=org.shieldbridge.ShieldBridge\nExec=/usr/bin/touch \(marker)\n".write(
      toFile: services + "/org.shieldbridge.ShieldBridge.service", atomically: true, encoding: .utf8)
    let bus = try BusDaemon(serviceDirectories: [services])
    let result = try await sandbox.run(["status", "--address", bus.address])
    #expect(result.status == 0)
    #expect(result.output.contains("not counted: the service is not running"))
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  @Test("With serve and \"desktop\": \"off\": the service answers, and says nothing is counted and why")
  func serviceWithoutMeter() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"off","rules":[{"name":"social","apps":["Instagram"],"dailyLimitMinutes":10}]}"#)
    _ = try sandbox.store.recordUsage(["social": 75], on: sandbox.store.today)
    let notifications = try await EmbeddedNotifications(capabilities: [.actions, .body])
    let address = notifications.bus.address
    let watcher = try await ServiceWatcher(address: address)
    let serve = try await ServeProcess(sandbox: sandbox, address: address, watcher: watcher)

    let text = try await ShieldBridgeTool.run(["status", "--address", address], environment: sandbox.environment)
    #expect(
      text.output.contains("\nsocial: 1 min 15 s of 10 min used today  [##------------------]\n"), "\(text.output)")
    #expect(text.output.contains("\nnot counted: \"desktop\" is \"off\" in config.json\n"), "\(text.output)")
    let json = try JSONValue(
      parsing: try await ShieldBridgeTool.run(
        ["status", "--json", "--address", address], environment: sandbox.environment
      )
      .output)
    #expect(json["source"]?["backend"] == "off")
    #expect(json["source"]?["service"] == true)
    #expect(json["rules"]?.arrayValue?.first?["usedSeconds"]?.integerValue == 75)
    #expect(await serve.terminate().status == 0)
    withExtendedLifetime((sandbox, notifications, watcher)) {}
  }

  @Test("With serve metering i3: the focused window counts, and the service says so")
  func fromTheService() async throws {
    let session = try await XSession(windowManager: .i3)
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.config)
    let notifications = try await EmbeddedNotifications(capabilities: [.actions, .body])
    let address = notifications.bus.address
    let watcher = try await ServiceWatcher(address: address)
    _ = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"^Instagram$\"] focus"])
    let serve = try await ServeProcess(
      sandbox: sandbox, address: address, watcher: watcher, environment: session.displayEnvironment)
    let environment = sandbox.environment.merging(session.displayEnvironment) { $1 }

    let json = try await poll("the service to count the focused xterm", timeout: .seconds(15)) {
      () async throws -> JSONValue? in
      let result = try await ShieldBridgeTool.run(["status", "--json", "--address", address], environment: environment)
      let json = try JSONValue(parsing: result.output)
      let rule = json["rules"]?.arrayValue?.first
      // Not `? json : nil`: JSONValue takes a nil literal itself, as `null`.
      guard rule?["counting"]?.boolValue == true, (rule?["usedSeconds"]?.integerValue ?? 0) >= 1 else {
        return Optional<JSONValue>.none
      }
      return json
    }
    #expect(json["source"]?["backend"] == "i3", "\(json.serialized)")
    #expect(json["source"]?["counting"] == "focus")
    #expect(json["source"]?["service"] == true)
    let rule = try #require(json["rules"]?.arrayValue?.first)
    #expect(rule["limitSeconds"]?.integerValue == 600)
    #expect(rule["overLimit"] == false)
    #expect(rule["grantsToday"]?.integerValue == 0)

    let text = try await ShieldBridgeTool.run(["status", "--address", address], environment: environment)
    #expect(text.output.contains("\ncounted: focused windows (i3)\n"), "\(text.output)")
    #expect(text.output.contains(" of 10 min used today  ["))
    #expect(text.output.contains("  counting now\n"))
    #expect(await serve.terminate().status == 0)
    withExtendedLifetime((sandbox, notifications, watcher)) {}
  }
}
