import Model
import Posix
import ShieldCore
import Testing

/// Issue 22, point 3, as the core sees it: a desktop input carries the
/// moment the event happened, and a span the process did not run, from a
/// source without times, is no use.
@Suite("The core books a late event at its stamp, and a span nobody saw as no use")
struct FrozenCountTests {
  @Test("Stopped with Instagram in front, the focus moved 2 s in, the timer first after 50 s: 2 s counted")
  func timerFirstThenStampedFocus() {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    harness.pass(.seconds(50))
    #expect(harness.used == 50)
    _ = harness.send(.focus(CoreHarness.terminal), at: harness.ago(48))
    #expect(harness.used == 2)
    harness.pass(.seconds(30))
    #expect(harness.used == 2)
  }

  @Test("A batch A→B→A read late: the seconds of B are not counted")
  func batch() {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    harness.pass(.seconds(40))
    _ = harness.send(.focus(CoreHarness.terminal), at: harness.ago(35))
    _ = harness.send(.focus(CoreHarness.instagram), at: harness.ago(20))
    #expect(harness.used == 25)
  }

  @Test("A screen saver started during a stop counts as no use from its stamp")
  func screenSaver() {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    harness.pass(.seconds(40))
    _ = harness.send(.screenVisible(false), at: harness.ago(37))
    #expect(harness.used == 3)
  }

  @Test("No stamp and a stop: the span from the missed timer on is not counted, and the log says so")
  func unobserved() {
    var harness = CoreHarness()
    harness.send(.focus(CoreHarness.instagram))
    harness.pass(.seconds(5))
    let due = harness.now
    harness.now = MeterInstant(
      monotonic: MonotonicTime(nanoseconds: harness.now.monotonic.nanoseconds + 100_000_000_000),
      wall: harness.now.wall.adding(seconds: 100))
    let effects = harness.send(.unobserved(since: due))
    #expect(harness.used == 5)
    let logged = effects.contains {
      if case .log(let entry) = $0 { entry.message.contains("did not run for 100 s") } else { false }
    }
    #expect(logged, "\(effects)")
    // The focus from the source without times, handled now: counted from now.
    harness.send(.focus(CoreHarness.terminal))
    harness.pass(.seconds(10))
    #expect(harness.used == 5)
  }

  @Test("A late change that reaches the limit shields at once")
  func lateChangeReachesTheLimit() {
    var harness = CoreHarness()
    harness.pass(.seconds(100))
    let effects = harness.send(.focus(CoreHarness.instagram), at: harness.ago(70))
    #expect(effects.contains(.enforce(rule: "social")))
  }
}

extension CoreHarness {
  /// The reading `seconds` before the harness's now.
  func ago(_ seconds: Int) -> MeterInstant {
    now.backdated(to: MonotonicTime(nanoseconds: now.monotonic.nanoseconds - UInt64(seconds) * 1_000_000_000))
  }

  /// Hands `input` to the core at `instant` (a stamp in the past), the clock staying where it is.
  mutating func send(_ input: ShieldInput, at instant: MeterInstant) -> [ShieldEffect] {
    let saved = now
    now = instant
    defer { now = saved }
    return send(input)
  }

  /// The whole seconds social has used today.
  var used: Int { core.meter.usage(of: "social")?.usedSeconds ?? -1 }
}
