import DBus
import Foundation
import ShieldBridge
import TestSupport
import Testing

@Suite("serve stops with shields in flight: no new calls, then every notification it posted is closed")
struct ServeStoppingTests {
  /// A few rounds each: before the fix a single round left notifications behind only most of the time.
  private static let rounds = 3

  @Test func sigtermWithTwentyConnectionsShieldingLeavesNoNotificationOpen() async throws {
    for _ in 0..<Self.rounds { try await stopWhileShielding(with: SIGTERM) }
  }

  @Test func sighupStopsLikeSigtermAndLeavesNoNotificationOpen() async throws {
    for _ in 0..<Self.rounds { try await stopWhileShielding(with: SIGHUP) }
  }

  /// Starts `serve`, has 20 connections call `Shield` over and over (for two
  /// apps of one rule, so that the calls overlap on the server), sends `signal`
  /// once 20 calls were answered, and checks the end: exit 0, and not one of
  /// the notifications that any of the calls posted still open.
  private func stopWhileShielding(with signal: Int32) async throws {
    let running = try await RunningService()
    let address = running.desk.bus.address
    let answered = EventLog<UInt32>()
    let refusals = EventLog<String>()
    let callers = Task {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<20 {
          group.addTask {
            guard let connection = try? Connection(.address(address)) else { return }
            defer { connection.close() }
            let app = index.isMultiple(of: 2) ? "Instagram" : "YouTube"
            // Until the service stops answering: the first refusal ends this caller.
            while true {
              do {
                let reply = try await connection.call(
                  ServiceNames.busName, ServiceNames.path, ServiceInterface.name, ServiceInterface.shield.name, app,
                  timeout: HangBound.answer)
                answered.append(try reply.decode(UInt32.self))
              } catch let error as DBusError {
                refusals.append(error.name)
                return
              } catch {
                refusals.append("\(error)")
                return
              }
            }
          }
        }
      }
    }
    _ = try await answered.first("20 answered Shield calls", after: 19)
    let ended = await running.serve.terminate(with: signal)
    await callers.value

    #expect(ended.status == 0, "\(ended.error)")
    #expect(ended.error.hasSuffix("shieldbridge serve: info: stopped\n"), "\(ended.error)")
    // serve waited for the answer to every close it sent, so the server's state is final now.
    let open = running.desk.server.notifications
    #expect(open.map { "\($0.id) \($0.summary)" } == [])
    // A caller is told that the service stops, or finds no service at all.
    let known: Set<String> = [
      ServiceNames.Error.stopping, "org.freedesktop.DBus.Error.ServiceUnknown",
      "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply",
    ]
    let refused = Set(refusals.events)
    #expect(refused.isSubset(of: known), "\(refused)")
  }
}
