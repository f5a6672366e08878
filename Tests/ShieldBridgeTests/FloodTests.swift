import DBus
import Foundation
import JSON
import ShieldBridge
import Synchronization
import TestSupport
import Testing

@Suite("A flood of calls from twenty connections holds back neither a real click nor serve's memory")
struct FloodTests {
  /// How many connections flood at once.
  private static let connections = 20
  /// How many answered calls show that the flood is on, before the click.
  private static let warmUp = 100
  /// How long the click's dispatch may take: generous, for a loaded machine.
  private static let dispatchLimit = Duration.seconds(15)
  /// How much serve's resident memory may grow over the flood (it is some 20 MB to begin with).
  private static let memoryGrowthLimitKilobytes = 64 * 1024

  /// The calls the flood makes, in turn: shields (which replace the clicked
  /// notification), status reads, a link that does not parse and one whose
  /// view is refused (a dispatch of its own).
  private static func floodCall(_ turn: Int) throws -> Message {
    let member: MemberName
    var argument: String?
    switch turn % 4 {
    case 0:
      member = ServiceInterface.shield.name
      argument = turn.isMultiple(of: 8) ? "Instagram" : "YouTube"
    case 1:
      member = ServiceInterface.status.name
    case 2:
      member = ServiceInterface.open.name
      argument = "shieldbridge://puzzle?app=%G1"
    default:
      member = ServiceInterface.open.name
      argument = "shieldbridge://view?app=Instagram&view=feed"
    }
    let message = try Message.methodCall(
      destination: ServiceNames.busName, path: ServiceNames.path, interface: ServiceInterface.name, member: member)
    if let argument { try message.append(argument) }
    return message
  }

  /// The resident set size of process `pid`, in kilobytes, from `/proc`.
  private static func residentKilobytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return try #require(Int(line?.filter(\.isNumber) ?? ""))
  }

  @Test func aRealClickIsDispatchedDuringTheFloodAndMemoryStaysBounded() async throws {
    let running = try await RunningService()
    let pid = running.serve.process.process.pid
    let id = try await running.watcher.call(ServiceInterface.shield.name, "Instagram").decode(UInt32.self)
    let before = try Self.residentKilobytes(of: pid)

    let address = running.desk.bus.address
    let progress = FloodProgress()
    let floodIsOn = EventLog<Int>()
    let unexpected = EventLog<String>()
    // The flood goes on until the click was dispatched (or the test gave up):
    // on a busy machine a flood of a fixed length may end before it warmed up.
    defer { progress.stopped.store(true, ordering: .relaxed) }
    let flood = Task {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<Self.connections {
          group.addTask {
            guard let connection = try? Connection(.address(address)) else {
              unexpected.append("connection \(index) could not connect")
              return
            }
            defer { connection.close() }
            var turn = index
            while !progress.stopped.load(ordering: .relaxed) {
              turn += 1
              do {
                _ = try await connection.call(try Self.floodCall(turn), timeout: .seconds(10))
              } catch let error as DBusError where error.name == ServiceNames.Error.badLink {
              } catch {
                unexpected.append("\(error)")
              }
              let count = progress.answered.add(1, ordering: .relaxed).newValue
              if count == Self.warmUp { floodIsOn.append(count) }
            }
          }
        }
      }
    }
    _ = try await floodIsOn.first("\(Self.warmUp) answered calls", timeout: HangBound.wait)
    let dispatchedBefore = running.watcher.dispatched.count
    let clicked = ContinuousClock.now
    try running.desk.server.click(id)
    let record = try await running.watcher.dispatched.first(
      "the click's dispatch during the flood", after: dispatchedBefore, timeout: Self.dispatchLimit
    ) { $0.outcome != "refused" }
    let waited = ContinuousClock.now - clicked
    progress.stopped.store(true, ordering: .relaxed)
    await flood.value
    let calls = progress.answered.load(ordering: .relaxed)

    #expect(record.outcome == "handler", "\(record), \(waited) after the click, \(calls) calls")
    #expect(unexpected.events.isEmpty, "\(Set(unexpected.events))")
    let after = try Self.residentKilobytes(of: pid)
    #expect(
      after - before < Self.memoryGrowthLimitKilobytes,
      "serve grew from \(before) kB to \(after) kB over \(calls) calls")
    #expect(running.serve.process.process.exitStatus == nil)
    _ = try await running.watcher.call(ServiceInterface.status.name).decode(String.self)
  }
}

/// What the flooding tasks share: how many calls were answered, and whether to stop.
private final class FloodProgress: Sendable {
  let answered = Atomic<Int>(0)
  let stopped = Atomic<Bool>(false)
}
