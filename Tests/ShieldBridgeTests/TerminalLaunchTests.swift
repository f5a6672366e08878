import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing

@testable import ShieldBridge

/// A folder of the sandbox's own that holds only links to `tools`, to use as
/// the launcher's whole `PATH`: only those are found.
private func pathWithOnly(_ tools: [String], in sandbox: Sandbox, named name: String = "bin") throws -> String {
  let folder = sandbox.root.file(name)
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  for tool in tools {
    let real = try requiredTool(tool, package: tool)
    try FileManager.default.createSymbolicLink(atPath: folder + "/" + tool, withDestinationPath: real)
  }
  return folder
}

/// The processes whose argv is `argv`, started with `HOME=home`, with their parents' executables.
private func processes(
  running argv: [String], home: String
) -> [(pid: Int32, argv: [String], parentExecutable: String)] {
  processes(home: home) { $0 == argv }
}

/// The processes whose argv satisfies `matches`, started with `HOME=home`
/// (this test's, not another test's puzzle with the same arguments, which
/// the test ends), with their parents' executables.
private func processes(
  home: String, where matches: ([String]) -> Bool
) -> [(pid: Int32, argv: [String], parentExecutable: String)] {
  var found: [(Int32, [String], String)] = []
  for pid in Subprocess.processes(startedWith: "HOME=" + home) {
    guard let argv = Subprocess.arguments(of: pid), matches(argv),
      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { continue }
    // stat: pid (comm) state ppid …; the name may hold spaces, so count after its ')'.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(parent)/exe")) ?? ""
    found.append((pid, argv, executable))
  }
  return found
}

@Suite("A click that always leads somewhere: terminals, {shieldbridge}, failing handlers")
struct TerminalLaunchTests {
  @Test func theTableFindsTerminalsOnTheLaunchersPathEachWithItsWayToRunACommand() throws {
    let sandbox = try Sandbox()
    let folder = sandbox.root.file("fake-bin")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for name in ["foot", "xterm", "konsole-not-executable"] {
      try writeExecutable(folder + "/" + name, "#!/bin/sh\n")
    }
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: folder + "/konsole-not-executable")
    let command = ["/opt/shieldbridge", "puzzle"]

    let foot = try #require(TerminalEmulator.find(in: ["PATH": "/nonexistent:" + folder]))
    #expect(foot.argv(running: command) == [folder + "/foot", "/opt/shieldbridge", "puzzle"])

    let chosen = try #require(TerminalEmulator.find(in: ["PATH": folder, "TERMINAL": "xterm"]))
    #expect(chosen.argv(running: command) == [folder + "/xterm", "-e", "/opt/shieldbridge", "puzzle"])

    #expect(TerminalEmulator.find(in: ["PATH": sandbox.root.file("nothing-here")]) == nil)
    #expect(TerminalEmulator.find(in: [:]) == nil)
    let gnome = TerminalEmulator.candidates.first { $0.program == "gnome-terminal" }
    #expect(gnome?.argv(running: command) == ["gnome-terminal", "--", "/opt/shieldbridge", "puzzle"])
  }

  @Test func theShieldbridgePlaceholderIsTheServicesOwnAbsolutePath() async throws {
    let sandbox = try Sandbox()
    let script = try sandbox.recordingHandler("puzzle-handler")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [script, "{shieldbridge}", "puzzle"]),
      sandbox: sandbox)
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    try harness.server.click(id)
    let output = try await harness.handlerOutput("puzzle-handler")
    #expect(output.prefix(2) == ["arg=\(ShieldBridgeTool.path)", "arg=puzzle"])
    #expect(ShieldBridgeTool.path.hasPrefix("/"))
    #expect(try await harness.record(after: 0).outcome == "handler")
  }

  @Test func aHandlerThatExitsNonZeroAtOnceIsFailedWithTheReasonAndTheNoticeSaysWhatToRun() async throws {
    let harness = try await ServiceHarness(configuration: ServiceHarness.configuration(puzzleHandler: ["false"]))
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    let before = harness.activity.count
    try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "failed", "\(record.serialized)")
    #expect(record["detail"]?.stringValue?.contains("false exited with status 1") == true, "\(record.serialized)")
    let notice = try await harness.notification(after: before, "the notice")
    #expect(notice.body.contains("shieldbridge puzzle"))
  }

  @Test func aHandlerThatCannotStartIsFailed() async throws {
    let sandbox = try Sandbox()
    let missing = sandbox.root.file("no-such-handler")
    let harness = try await ServiceHarness(
      configuration: ServiceHarness.configuration(puzzleHandler: [missing]), sandbox: sandbox)
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "failed", "\(record.serialized)")
    #expect(record["detail"]?.stringValue?.isEmpty == false)
  }

  @Test func withADisplayButNoTerminalOnPathTheNoticeSaysWhatToRun() async throws {
    let sandbox = try Sandbox()
    let empty = try pathWithOnly([], in: sandbox)
    let harness = try await ServiceHarness(
      capabilities: [Capability.actions, Capability.body], environment: ["DISPLAY": ":0", "PATH": empty],
      sandbox: sandbox)
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    let before = harness.activity.count
    try harness.server.click(id)
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "unavailable", "\(record.serialized)")
    let notice = try await harness.notification(after: before, "the notice")
    #expect(notice.body.contains("shieldbridge puzzle"))
  }

  @Test func withOnlyXtermOnPathTheClickRunsThePuzzleInXtermByAbsolutePath() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let xvfb = try await XvfbServer()
    let onlyXterm = try pathWithOnly(["xterm"], in: sandbox)
    var environment = sandbox.environment.filter { !$0.value.isEmpty }
    environment["DISPLAY"] = xvfb.display
    environment["PATH"] = onlyXterm
    let harness = try await ServiceHarness(
      capabilities: [Capability.actions, Capability.body], environment: environment, sandbox: sandbox)
    let id = try await harness.call(ServiceInterface.shield.name, "YouTube").decode(UInt32.self)
    try harness.server.click(id)

    let puzzle = [ShieldBridgeTool.path, "puzzle", "--grant", "5", "--app", "YouTube"]
    let running = try await poll("shieldbridge puzzle in xterm", timeout: .seconds(20)) {
      processes(running: puzzle, home: sandbox.root.path).first
    }
    defer {
      // The puzzle waits for an answer: end it, and xterm ends with it.
      kill(running.pid, SIGTERM)
    }
    #expect(running.parentExecutable.hasSuffix("/xterm"), "\(running)")
    let record = try await harness.record(after: 0)
    #expect(record.outcome == "terminal", "\(record.serialized)")
    #expect(record["detail"]?.stringValue == onlyXterm + "/xterm", "\(record.serialized)")
    _ = xvfb
  }

  @Test func withoutTheServiceOpenReportsAHandlerThatExitsNonZeroAtOnceAsFailed() async throws {
    let sandbox = try Sandbox()
    let bus = try BusDaemon()
    try sandbox.writeServiceConfig(puzzleHandler: ["false"])
    let result = try await sandbox.run(["open", "shieldbridge://puzzle?app=Instagram"], address: bus.address)
    let record = try JSONValue(parsing: result.output)
    #expect(record.outcome == "failed", "\(result.output) \(result.error)")
    #expect(record["detail"]?.stringValue?.contains("false exited with status 1") == true, "\(result.output)")
  }

  @Test func withoutTheServiceOpenReportsAViewOpenerThatExitsNonZeroAtOnceAsFailed() async throws {
    let sandbox = try Sandbox()
    let bus = try BusDaemon()
    try sandbox.writeServiceConfig(viewHandler: ["false", "{target}"])
    let result = try await sandbox.run(
      ["open", "shieldbridge://view?app=Instagram&view=direct"], address: bus.address)
    let record = try JSONValue(parsing: result.output)
    #expect(record.outcome == "failed", "\(result.output) \(result.error)")
    #expect(record["detail"]?.stringValue?.contains("false exited with status 1") == true, "\(result.output)")
  }
}

@Suite("A click on dunst's notification opens the puzzle in xterm, the only terminal on PATH")
struct TerminalDunstTests {
  @Test func aMiddleClickOnDunstRunsShieldbridgePuzzleInXtermByAbsolutePath() async throws {
    let desktop = try await VirtualDesktop()
    let sandbox = try Sandbox()
    try sandbox.writeServiceConfig()
    let onlyXterm = try pathWithOnly(["xterm"], in: sandbox)
    let watcher = try await ServiceWatcher(address: desktop.bus.address)
    // The service's own PATH has only xterm: no shieldbridge, no x-terminal-emulator.
    let serve = try await ServeProcess(
      sandbox: sandbox, address: desktop.bus.address, watcher: watcher,
      environment: [
        "DISPLAY": desktop.display, "XDG_RUNTIME_DIR": desktop.home.path, "PATH": onlyXterm, "TERMINAL": "",
      ])
    _ = try await sandbox.shield("Instagram", address: desktop.bus.address)
    try await desktop.waitUntilDisplayed(1)
    try await desktop.clickNotification(button: 2)

    let record = try await watcher.record(after: 0)
    #expect(record.outcome == "terminal", "\(record.serialized)")
    #expect(record["detail"]?.stringValue == onlyXterm + "/xterm", "\(record.serialized)")
    // serve names itself by /proc/self/exe: absolute, whatever folder links led to it.
    let tail = ["puzzle", "--grant", "5", "--app", "Instagram"]
    let running = try await poll("shieldbridge puzzle in xterm", timeout: .seconds(20)) {
      processes(home: sandbox.root.path) { argv in
        argv.count == 6 && argv[0].hasPrefix("/") && Array(argv.dropFirst()) == tail
      }.first
    }
    defer { kill(running.pid, SIGTERM) }
    #expect(running.parentExecutable.hasSuffix("/xterm"), "\(running)")
    #expect(URL(fileURLWithPath: running.argv[0]).lastPathComponent == "shieldbridge")
    _ = serve
  }
}
