import DBus
import Foundation
import JSON
import Model
import Notifications
import Posix
import Spawn
import TestSupport
import Testing

@Suite("The embedded server ends with nothing open, also under a flood of Notify")
struct ServerShutdownFloodTests {
  /// How many connections flood at once, as in the adversarial pass.
  static let connections = 20

  @Test("20 connections post without pause; SIGTERM; every notification given an id is closed, in 8 runs out of 8")
  func floodThenTerminate() async throws {
    for run in 0..<8 {
      let directory = try TemporaryDirectory()
      let record = directory.file("record.jsonl")
      let bus = try BusDaemon()
      let server = try BackgroundProcess(
        shieldbridge: ["notification-server", "--address", bus.address, "--record", record])
      _ = try await server.waitForLine(containing: "serving org.freedesktop.Notifications")
      let stop = Shared(false)
      let flood = Task {
        await withTaskGroup(of: Void.self) { group in
          for index in 0..<Self.connections {
            group.addTask {
              guard let connection = try? Connection(.address(bus.address)) else { return }
              defer { connection.close() }
              var turn = 0
              while !stop.value.withLock({ $0 }) {
                turn += 1
                guard
                  let call = try? NotificationsInterface.notify.message(
                    destination: NotificationsNames.busName, path: NotificationsNames.path, "flood", UInt32(0), "",
                    "\(index) \(turn)", "", [String](), DictionaryEntries<String, Variant>([]), Int32(-1))
                else { return }
                // Refused once the server closes: the flood goes on until told.
                _ = try? await connection.call(call, timeout: .seconds(5))
              }
            }
          }
        }
      }
      _ = try await poll("the flood to be recorded", timeout: HangBound.wait) {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").count >= 200 ? true : nil
      }
      server.process.signal(SIGTERM)
      let ended = await server.finish()
      stop.value.withLock { $0 = true }
      await flood.value
      #expect(ended.status == 0, "run \(run): \(ended.error)")
      var open: Set<Int64> = []
      var notified = 0
      for line in try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n") {
        let event = try JSONValue(parsing: String(line))
        guard let id = event["id"]?.integerValue else { continue }
        if event["event"] == "notify" {
          open.insert(id)
          notified += 1
        } else if event["event"] == "closed" {
          open.remove(id)
        }
      }
      #expect(notified >= 200)
      #expect(open.isEmpty, "run \(run): \(open.count) of \(notified) notifications left open: \(open.sorted())")
    }
  }
}
