import DBus
import DeepLink
import Foundation
import JSON
import Posix
import Spawn
import TestSupport
import Testing

/// A sandbox and a private bus on which no service runs.
private final class NoService: Sendable {
  let sandbox: Sandbox
  let bus: BusDaemon

  init() throws {
    sandbox = try Sandbox()
    bus = try BusDaemon()
  }

  /// Runs `shieldbridge` on this bus: ``Sandbox/run(_:address:changes:timeout:)``.
  func run(
    _ arguments: [String], environment: [String: String] = [:], timeout: Duration = HangBound.wait
  ) async throws -> Subprocess.Result {
    try await sandbox.run(arguments, address: bus.address, changes: environment, timeout: timeout)
  }
}

@Suite("shield and open when no service runs")
struct WithoutServiceTests {
  @Test func shieldExits69WithinItsTimeoutAndSaysHowToStartTheService() async throws {
    let none = try NoService()
    // shield gives the service 10 s to answer; it would be killed here and have no status.
    let result = try await none.run(["shield", "--app", "Instagram"], timeout: .seconds(10))
    #expect(result.status == 69)
    #expect(result.output.isEmpty)
    #expect(result.error.contains("no ShieldBridge service is running"))
    #expect(result.error.contains("start it with 'shieldbridge serve'"))
  }

  @Test func shieldWithoutAnyBusExits69() async throws {
    let none = try NoService()
    let result = try await none.run(["shield", "--app", "Instagram"], environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    #expect(result.status == 69)
    #expect(result.error.contains("no message bus"))
  }

  @Test func openRunsTheConfiguredPuzzleHandlerWithEachValueAsOneWholeArgument() async throws {
    let none = try NoService()
    let trap = none.sandbox.root.file("injected")
    let app = "Candy Crush; touch \(trap)"
    let handler = try none.sandbox.recordingHandler("puzzle")
    try none.sandbox.writeServiceConfig(apps: [app], puzzleHandler: [handler, "{app}", "--minutes={grant}", "{link}"])
    let link = "shieldbridge://puzzle?app=\(PercentEncoding.encode(app))&grant=5"
    #expect(link.hasPrefix("shieldbridge://puzzle?app=Candy%20Crush%3B%20touch%20%2F"))
    let result = try await none.run(["open", link])
    #expect(result.status == 0, "\(result.error)")
    #expect(try JSONValue(parsing: result.output).outcome == "handler")
    #expect(
      try await none.sandbox.handlerOutput("puzzle") == [
        "arg=\(app)", "arg=--minutes=5", "arg=\(link)", "token=", "startup=",
      ])
    #expect(!FileManager.default.fileExists(atPath: trap))
  }

  @Test func openReturnsItsLineWhileTheProgramItStartedStillRuns() async throws {
    let none = try NoService()
    let (started, release, ended) = (
      none.sandbox.root.file("started"), none.sandbox.root.file("release"), none.sandbox.root.file("ended")
    )
    let handler = none.sandbox.root.file("slow.sh")
    try writeExecutable(
      handler,
      """
      #!/bin/sh
      # Stays open, as a puzzle window would, until the test releases it; gives up after 60 s.
      touch "\(started)"
      i=0
      while [ ! -e "\(release)" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
      touch "\(ended)"

      """)
    try none.sandbox.writeServiceConfig(puzzleHandler: [handler])
    // Whatever happens here, the handler does not outlive the test by a minute.
    defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
    let open = try Subprocess(
      [ShieldBridgeTool.path, "open", "shieldbridge://puzzle?app=Instagram"],
      environment: ShieldBridgeTool.mergedEnvironment(none.sandbox.serviceEnvironment(address: none.bus.address)),
      standardInput: .null, standardOutput: .pipe, standardError: .null)
    // Whoever reads the line reads to the end of the file: it comes when `open` ends, not the handler.
    let output = await onOwnThread { readToEnd(open.standardOutput, within: .seconds(30)) }
    #expect(open.wait(timeout: .seconds(10)) == .exited(0))
    #expect(try JSONValue(parsing: try #require(output, "no end of file while the handler ran")).outcome == "handler")
    _ = try await poll("the handler to start") { FileManager.default.fileExists(atPath: started) ? true : nil }
    #expect(!FileManager.default.fileExists(atPath: ended))
    #expect(FileManager.default.createFile(atPath: release, contents: nil))
    _ = try await poll("the handler to end") { FileManager.default.fileExists(atPath: ended) ? true : nil }
  }

  @Test func aBadLinkExits65WithTheErrorCodeAndOffset() async throws {
    let none = try NoService()
    try none.sandbox.writeServiceConfig(puzzleHandler: [try none.sandbox.recordingHandler("puzzle")])
    let badEscape = try await none.run(["open", "shieldbridge://puzzle?app=%G1"])
    #expect(badEscape.status == 65)
    #expect(
      badEscape.error == "shieldbridge: bad-percent-escape at byte 26: '%' must be followed by two hexadecimal digits\n"
    )
    let badRoute = try await none.run(["open", "shieldbridge://feed?app=Instagram"])
    #expect(badRoute.status == 65)
    #expect(badRoute.error.hasPrefix("shieldbridge: unknown-route at byte 15: "))
    #expect(none.sandbox.handlerRuns("puzzle") == 0)
  }

  @Test func aViewThatIsNotConfiguredExits65AndOpensNothing() async throws {
    let none = try NoService()
    try none.sandbox.writeServiceConfig(viewHandler: [try none.sandbox.recordingHandler("view"), "{target}"])
    let refused = try await none.run(["open", "shieldbridge://view?app=Instagram&view=feed"])
    #expect(refused.status == 65)
    #expect(refused.error == "shieldbridge: the view 'feed' is not configured for Instagram\n")
    #expect(try JSONValue(parsing: refused.output).outcome == "refused")
    // The configured view opens, and it is the only thing the handler ever opened.
    let opened = try await none.run(["open", "shieldbridge://view?app=Instagram&view=direct"])
    #expect(opened.status == 0, "\(opened.error)")
    #expect(try await none.sandbox.handlerOutput("view").first == "arg=https://www.instagram.com/direct/inbox/")
    _ = try await poll("the view handler to finish") { none.sandbox.handlerRuns("view") > 0 ? true : nil }
    #expect(none.sandbox.handlerRuns("view") == 1)
  }
}

/// Everything readable from `descriptor` until the end of the file, or `nil`
/// when the end does not come within `timeout`.
private func readToEnd(_ descriptor: FileDescriptor?, within timeout: Duration) -> String? {
  guard let descriptor else { return nil }
  let deadline = ContinuousClock.now + timeout
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    // Both retry EINTR themselves.
    guard (try? descriptor.waitUntilReadable(timeout: deadline - ContinuousClock.now)) == true else { return nil }
    let count = (try? descriptor.read(into: &buffer)) ?? 0
    guard count > 0 else { break }
    bytes.append(contentsOf: buffer[..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}
