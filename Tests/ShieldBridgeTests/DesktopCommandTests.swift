import Foundation
import JSON
import TestSupport
import Testing

@Suite("shieldbridge desktop says which backend watches, and live which app is in front and which rule it matches")
struct DesktopCommandTests {
  /// A sandbox whose config covers Instagram, and the environment for `shieldbridge` on `session`.
  static func setUp(_ session: XSession) throws -> (Sandbox, [String: String]) {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"rules":[{"name":"social","apps":["TikTok","Instagram"]}]}"#)
    return (sandbox, sandbox.environment.merging(session.displayEnvironment) { $1 })
  }

  @Test("--once --json under i3: the backend, then the focused xterm's names and its rule")
  func onceUnderI3() async throws {
    let session = try await XSession(windowManager: .i3)
    let (sandbox, environment) = try Self.setUp(session)
    let client = try await session.launchXterm(windowClass: "Instagram")
    try await session.i3msg(["[class=\"^Instagram$\"] focus"])

    let result = try await ShieldBridgeTool.run(["desktop", "--once", "--json"], environment: environment)
    #expect(result.status == 0, "\(result.error)")
    let lines = try result.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    let backend = try #require(lines.first)
    #expect(backend["event"] == "desktop")
    #expect(backend["backend"] == "i3")
    #expect(backend["choice"] == "auto")
    #expect(backend["counting"] == "focus")
    #expect(backend["limitations"]?.arrayValue?.isEmpty == false)
    let focus = try #require(lines.last)
    #expect(focus["event"] == "focus")
    #expect(focus["class"] == "Instagram")
    #expect(focus["instance"] == "xterm")
    // i3 does not tell an X window's pid: the X11 backend on the same display does, and /proc the rest.
    #expect(focus["pid"]?.integerValue == Int64(client.pid))
    #expect(focus["exe"] == "xterm")
    #expect(focus["rule"] == "social")
    #expect(focus["app"] == "Instagram")
    // Never a title: xterm's is its command line, "sleep 600".
    #expect(!result.output.contains("sleep 600"))
    #expect(!result.output.lowercased().contains("title"))
    withExtendedLifetime((sandbox, client)) {}
  }

  @Test("Live under i3: one line per focus change, the rule or none, until SIGTERM (exit 0)")
  func liveUnderI3() async throws {
    let session = try await XSession(windowManager: .i3)
    let (sandbox, environment) = try Self.setUp(session)
    _ = try await session.launchXterm(windowClass: "Instagram")
    _ = try await session.launchXterm(windowClass: "Calculator")
    let watcher = try BackgroundProcess(shieldbridge: ["desktop"], environment: environment)
    _ = try await watcher.waitForLine(containing: "desktop: i3, chosen automatically")
    _ = try await watcher.waitForLine(containing: "focus: ")

    // Each change is awaited among the lines printed after the command that made it.
    func line(after command: String, containing text: String) async throws -> String {
      let before = watcher.outputLines.count
      try await session.i3msg([command])
      return try await poll("a line with '\(text)' after \(command)") {
        watcher.outputLines.dropFirst(before).first { $0.contains(text) }
      }
    }
    let covered = try await line(after: "[class=\"^Instagram$\"] focus", containing: "class=Instagram")
    #expect(covered.hasPrefix("focus: class=Instagram instance=xterm"))
    #expect(covered.hasSuffix("→ rule social, app Instagram"))
    let other = try await line(after: "[class=\"^Calculator$\"] focus", containing: "class=Calculator")
    #expect(other.contains("→ no rule"))

    watcher.process.signal(SIGTERM)
    let finished = await watcher.finish()
    #expect(finished.status == 0, "\(finished.error)")
    #expect(finished.output.hasPrefix("desktop: i3, chosen automatically; a covered app counts while its window"))
    withExtendedLifetime(sandbox) {}
  }

  @Test("\"desktop\": \"processes\": a program renamed like the app is found running, with its rule")
  func processes() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"desktop":"processes","rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let program = sandbox.root.file("Instagram")
    try copyExecutable(from: try requiredTool("sleep", package: "coreutils"), to: program)
    let app = try BackgroundProcess([program, "600"])
    // Until it has exec'd, the child is a copy of this test process.
    _ = try await poll("the renamed sleep to run") {
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(app.process.pid)/exe"))?.hasSuffix(
        "/Instagram") == true
        ? true : nil
    }
    let result = try await sandbox.run(["desktop", "--once", "--json"])
    #expect(result.status == 0, "\(result.error)")
    let lines = try result.output.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    #expect(lines.first?["backend"] == "processes")
    #expect(lines.first?["choice"] == "processes")
    #expect(lines.first?["counting"] == "running")
    let running = try #require(lines.last?["apps"]?.arrayValue)
    let found = try #require(running.first { $0["pid"]?.integerValue == Int64(app.process.pid) })
    #expect(found["exe"] == "Instagram")
    #expect(found["rule"] == "social")
    #expect(found["app"] == "Instagram")
  }

  @Test("A forced backend that is not there exits 69 and says why")
  func forcedBackendMissing() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"desktop":"sway","rules":[{"name":"social","apps":["Instagram"]}]}"#)
    var environment = sandbox.environment
    environment["SWAYSOCK"] = ""
    let result = try await ShieldBridgeTool.run(["desktop", "--once"], environment: environment)
    #expect(result.status == 69)
    #expect(result.error.contains("SWAYSOCK"), "\(result.error)")
  }

  @Test("\"desktop\": \"off\" says that nothing is watched, and exits 0")
  func off() async throws {
    let sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"desktop":"off","rules":[{"name":"social","apps":["Instagram"]}]}"#)
    let result = try await sandbox.run(["desktop"])
    #expect(result.status == 0)
    #expect(result.output.contains("desktop: off"))
  }
}

extension XSession {
  /// The variables that name this session's display and i3 (the sandbox keeps its own home and config).
  var displayEnvironment: [String: String] {
    environment.filter { ["DISPLAY", "I3SOCK", "SWAYSOCK", "WAYLAND_DISPLAY"].contains($0.key) }
  }
}
