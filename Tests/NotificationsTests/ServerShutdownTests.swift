import DBus
import Foundation
import JSON
import Notifications
import Spawn
import TestSupport
import Testing

@Suite("On SIGTERM the embedded server closes what it shows")
struct ServerShutdownTests {
  @Test func notifySendWaitingOnANotificationEndsWhenTheServerIsTerminated() async throws {
    let notifySend = try requiredTool("notify-send", package: "libnotify-bin")
    let directory = try TemporaryDirectory()
    let record = directory.file("record.jsonl")
    let bus = try BusDaemon()
    let server = try BackgroundProcess(
      shieldbridge: ["notification-server", "--address", bus.address, "--record", record])
    _ = try await server.waitForLine(containing: "serving org.freedesktop.Notifications")
    let waiting = try BackgroundProcess(
      [notifySend, "--wait", "--print-id", "waits"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
    // notify-send's stdout is a pipe, so its --print-id comes only at exit: the record says when it posted.
    let posted = try await poll("notify-send's notification in the record") {
      ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init)
    }
    let id = try #require(try JSONValue(parsing: posted)["id"]?.integerValue)
    server.process.signal(SIGTERM)
    let ended = await server.finish()
    #expect(ended.status == 0, "\(ended.error)")
    let result = await waiting.finish()
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "\(id)\n")
    let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    let closed = try JSONValue(parsing: String(try #require(lines.last)))
    #expect(closed["event"] == "closed")
    #expect(closed["id"]?.integerValue == id)
    #expect(closed["reason"] == "closed")
    #expect(closed["reason_code"] == 3)
  }
}
