import Testing

@testable import ShieldBridge

@Suite("The stop gate: nothing admitted once closed, and a bounded wait for what was admitted")
struct StopGateTests {
  @Test func aClosedGateAdmitsNothingAndAnEmptyOneIsDrainedAtOnce() async {
    let gate = StopGate()
    #expect(gate.enter())
    gate.leave()
    gate.close()
    #expect(gate.isClosed)
    #expect(!gate.enter())
    #expect(await gate.drained(within: .seconds(10)))
  }

  @Test func drainingEndsWhenTheLastAdmittedWorkLeaves() async {
    let gate = StopGate()
    #expect(gate.enter())
    #expect(gate.enter())
    gate.close()
    let drained = Task { await gate.drained(within: .seconds(10)) }
    gate.leave()
    gate.leave()
    #expect(await drained.value)
  }

  @Test func drainingGivesUpAfterItsLimitWhenWorkStaysInside() async {
    let gate = StopGate()
    #expect(gate.enter())
    gate.close()
    // It answers false while the work is still inside: it gave up instead of waiting for it.
    #expect(await !gate.drained(within: .milliseconds(50)))
    // Work that leaves late still ends cleanly.
    gate.leave()
    #expect(await gate.drained(within: .seconds(10)))
  }
}
