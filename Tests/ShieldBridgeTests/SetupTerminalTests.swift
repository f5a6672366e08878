import Config
import Foundation
import JSON
import ShieldBridge
import TestSupport
import Testing

/// `shieldbridge setup` in a real terminal (tmux), answered as a person
/// would, beside a running `serve` on a private bus: the questions, a
/// mistake asked again, the rule written, the service reloading it, and the
/// checks saying what they find.
@Suite("setup in a real terminal (tmux)")
struct SetupTerminalTests {
  @Test func aPersonAnswersTheQuestionsAndTheRunningServiceTakesTheRule() async throws {
    let service = try await RunningService()
    let sandbox = service.sandbox
    let environment = sandbox.serviceEnvironment(address: service.desk.bus.address)
    // The browsers' host is installed for this user, and one browser runs it for the extension.
    let manifests = sandbox.root.file("config/chromium/NativeMessagingHosts")
    try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
    try "{}".write(toFile: manifests + "/org.shieldbridge.shieldbridge.json", atomically: true, encoding: .utf8)
    let host = try NativeHostProcess(environment: environment)
    defer { try? host.closeInput() }

    let tmux = try Tmux(sandbox: sandbox, environment: environment)
    try await tmux.start([ShieldBridgeTool.path, "setup"])
    let tiktok = CommonApps.all.firstIndex { $0.name == "TikTok" }! + 1
    let reddit = CommonApps.all.firstIndex { $0.name == "Reddit" }! + 1
    _ = try await tmux.waitForScreen("the list and the first question") {
      $0.contains("Which ones? Their numbers, such as 1 3 6:")
    }
    try await tmux.type("\(tiktok) \(reddit)")
    _ = try await tmux.waitForScreen("the daily minutes") { $0.contains("may be used, all together [5]:") }
    try await tmux.type("90s")
    _ = try await tmux.waitForScreen("the mistake said") { joined($0).contains("write 1m or 2m.") }
    try await tmux.type("20m")
    _ = try await tmux.waitForScreen("the task minutes") { $0.contains("Minutes one solved task adds [5]:") }
    try await tmux.type("")
    _ = try await tmux.waitForScreen("the tasks a day") { $0.contains("Tasks a day at most [5]:") }
    try await tmux.type("3")
    let screen = try await tmux.waitForScreen("the checks") { $0.contains("browser extension") }
    #expect(
      joined(screen).contains(
        "Wrote the rule \"social\" to \(sandbox.configPath): TikTok, Reddit; 20m a day, 5m per task, at most 3 tasks a day."
      ), "\(screen)")
    #expect(screen.contains("The service runs"), "\(screen)")
    #expect(screen.contains("The browsers' host is installed"), "\(screen)")
    #expect(screen.contains("The browser extension answers"), "\(screen)")
    #expect(!screen.contains("!"))
    _ = try await poll("the program to end") { try await tmux.programEnded() ? true : nil }

    let rules = try Configuration.load(from: sandbox.configPath).configuration.rules.rules
    #expect(rules.map(\.name) == ["social"])
    #expect(rules[0].apps.map(\.name) == ["TikTok", "Reddit"])
    #expect([rules[0].dailyLimitMinutes, rules[0].grantMinutes, rules[0].maxGrantsPerDay] == [20, 5, 3] as [Int])
    // The handlers the sandbox's config had are kept.
    #expect(try String(contentsOfFile: sandbox.configPath, encoding: .utf8).contains("\"handlers\""))
    _ = try await poll("serve to reload config.json") {
      service.serve.logLines.first { $0.contains("config.json reloaded from \(sandbox.configPath): rules social") }
    }
    _ = try await service.shield("TikTok")
    // doctor finds the same three, from the same check.
    let doctor = try await service.run(["doctor"])
    #expect(doctor.status == 0, "\(doctor.error)")
    // The test reads serve's standard error through a pipe: that is where its log goes.
    #expect(
      doctor.output.contains("\nservice: running (its log: its standard error (pipe:["), "\(doctor.output)")
    #expect(doctor.output.contains("\nbrowser host: \(manifests)/org.shieldbridge.shieldbridge.json\n"))
    #expect(doctor.output.contains("\nbrowser extension: answers ("))
    let json = try JSONValue(parsing: try await service.run(["doctor", "--json"]).output)
    #expect(json["installation"]?["service"] == true)
    #expect(
      json["installation"]?["hostManifests"] == .array([.string(manifests + "/org.shieldbridge.shieldbridge.json")]))
    _ = await service.serve.terminate()
  }

  @Test func withoutAServiceOrHostSetupSaysWhatToDo() async throws {
    let sandbox = try Sandbox()
    var environment = sandbox.isolatedEnvironment
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + sandbox.root.file("no-bus")
    let tmux = try Tmux(sandbox: sandbox, environment: environment)
    try await tmux.start([ShieldBridgeTool.path, "setup"])
    _ = try await tmux.waitForScreen("the first question") { $0.contains("Which ones?") }
    try await tmux.type("1")
    for prompt in ["may be used, all together [5]:", "Minutes one solved task adds [5]:", "Tasks a day at most [5]:"] {
      _ = try await tmux.waitForScreen(prompt) { $0.contains(prompt) }
      try await tmux.type("")
    }
    let screen = try await tmux.waitForScreen("the checks") { $0.contains("browser extension") }
    #expect(screen.contains("No session bus was found"), "\(screen)")
    #expect(screen.contains("The browsers' host is not installed"), "\(screen)")
    let doctor = try await ShieldBridgeTool.run(["doctor"], environment: environment)
    #expect(doctor.output.contains("service: no session bus"))
    #expect(doctor.output.contains("browser host: not installed (to do: make install-user"))
    #expect(try Configuration.load(from: sandbox.configPath).configuration.rules.rules.map(\.name) == ["social"])
    // status, with the file there now, no longer points to setup; without it, it does.
    let status = try await sandbox.run(["status"])
    #expect(!status.output.contains("shieldbridge setup"))
    let fresh = try Sandbox()
    let freshStatus = try await fresh.run(["status"]).output
    #expect(freshStatus.hasPrefix("No rule is set (there is no config.json yet)"), "\(freshStatus)")
    #expect(freshStatus.contains("Run 'shieldbridge setup'"))
  }
}

/// The screen with the terminal's wrapped lines joined (80 columns cut long lines without a break).
private func joined(_ screen: String) -> String {
  screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.count == 80 ? String($0) : $0 + "\n" }
    .joined()
}
