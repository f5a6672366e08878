import DBus
import Foundation
import JSON
import Model
import TestSupport
import Testing

@testable import Config
@testable import ShieldBridge

/// What the service says matches what happened: no shield for an unnamed app
/// under configured rules, no `opened` for a view whose opener refused.
@Suite struct HonestOutcomeTests {
  @Test func aShieldWithoutAnAppIsRefusedWhileRulesAreConfigured() async throws {
    let harness = try await ServiceHarness()
    await #expect(throws: ServiceError(.notCovered, Self.appNeeded)) {
      try await harness.service.shield(app: nil)
    }
    await #expect(throws: ServiceError(.notCovered, Self.appNeeded)) {
      try await harness.service.shield(app: "")
    }
    // Over the bus it is the not-covered error, which `shield` exits 78 for.
    await #expect(throws: DBusError.self) { try await harness.call(ServiceInterface.shield.name, "") }
    #expect(harness.activity.events.isEmpty)
    _ = try await harness.service.shield(app: "Instagram")
  }

  @Test func theBuiltInRuleStillShieldsAnUnnamedApp() async throws {
    let harness = try await ServiceHarness(configuration: Configuration(rules: .builtIn, views: Views([])))
    let id = try await harness.service.shield(app: nil)
    #expect(id != 0)
  }

  @Test func aViewWhoseOpenerExitsWithAnErrorIsReportedFailed() async throws {
    let sandbox = try Sandbox()
    let opener = sandbox.root.file("refusing-opener.sh")
    try writeExecutable(opener, "#!/bin/sh\nexit 4\n")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(viewHandler: [opener, "{target}"]), sandbox: sandbox)
    let record = try await harness.service.open("shieldbridge://view?app=Instagram&view=direct")
    #expect(record.outcome == .failed)
    #expect(record.detail == "\(opener) exited with status 4")
    // The activation ended with the opener: the next click is no repeat.
    let again = try await harness.service.open("shieldbridge://view?app=Instagram&view=direct")
    #expect(again.outcome == .failed)
  }

  static let appNeeded =
    "name the app that was blocked (shield --app NAME): config.json has rules, and each covers its own apps"
}
