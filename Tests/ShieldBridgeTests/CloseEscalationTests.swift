import Foundation
import Glibc
import Posix
import TestSupport
import Testing

@testable import ShieldBridge

@Suite("After the grace periods of a close: SIGTERM, then SIGKILL, only to the same process")
struct CloseEscalationTests {
  /// A process that ignores SIGTERM (an ignored signal stays ignored across exec).
  private func stubborn() throws -> BackgroundProcess {
    let process = try BackgroundProcess(["/bin/sh", "-c", "trap '' TERM; exec sleep 600"])
    return process
  }

  @Test("SIGTERM when the first period is over, SIGKILL when the second is")
  func escalates() async throws {
    let process = try stubborn()
    let pid = process.process.pid
    // The start time is read from /proc once sh has exec'd sleep: wait for the new comm.
    _ = try await poll("sleep to run") {
      (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("sleep") == true ? true : nil
    }
    var escalation = CloseEscalation(closeGrace: .seconds(10), killGrace: .seconds(10))
    let start = MonotonicTime.now
    escalation.closing([pid, pid], rule: "social", at: start)
    #expect(escalation.pending.count == 1)
    #expect(escalation.nextDeadline == start.advanced(by: .seconds(10)))
    #expect(escalation.fire(at: start.advanced(by: .seconds(9))).isEmpty)
    #expect(escalation.fire(at: start.advanced(by: .seconds(10))) == ["rule social: sent SIGTERM to process \(pid)"])
    #expect(process.process.exitStatus == nil)
    #expect(escalation.nextDeadline == start.advanced(by: .seconds(20)))
    #expect(escalation.fire(at: start.advanced(by: .seconds(20))) == ["rule social: sent SIGKILL to process \(pid)"])
    #expect(await process.finish(timeout: .seconds(10)).termination == .signalled(SIGKILL))
    #expect(escalation.pending.isEmpty)
  }

  @Test("A process that ended gets nothing, and a grant cancels what is pending")
  func otherProcess() async throws {
    let process = try BackgroundProcess(["sleep", "600"])
    let pid = process.process.pid
    var escalation = CloseEscalation(closeGrace: .zero, killGrace: .zero)
    escalation.closing([pid], rule: "social", at: .now)
    let started = try #require(escalation.pending.first?.started)
    #expect(CloseEscalation.startTime(of: pid) == started)
    process.process.signal(SIGKILL)
    _ = await process.finish()
    #expect(escalation.fire(at: .now.advanced(by: .seconds(1))) == ["rule social: process \(pid) has ended"])
    escalation.closing([CurrentProcess.id], rule: "social", at: .now.advanced(by: .seconds(60)))
    escalation.cancel(rule: "social")
    #expect(escalation.pending.isEmpty)

    // The start time that tells a reused pid: stable for one process, absent for none.
    #expect(CloseEscalation.startTime(of: CurrentProcess.id) != nil)
    #expect(CloseEscalation.startTime(of: CurrentProcess.id) == CloseEscalation.startTime(of: CurrentProcess.id))
    #expect(CloseEscalation.startTime(of: -1) == nil)
    #expect(CloseEscalation.startTime(of: Int32.max) == nil)
  }
}
