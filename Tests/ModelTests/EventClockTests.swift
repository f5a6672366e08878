import Model
import Posix
import Testing

@Suite("An X server's 32-bit millisecond stamps become monotonic readings")
struct EventClockTests {
  /// A monotonic reading `seconds` (and `milliseconds`) after an arbitrary start.
  func at(_ seconds: Int, _ milliseconds: Int = 0) -> MonotonicTime {
    MonotonicTime(nanoseconds: 5_000_000_000_000 + UInt64(seconds) * 1_000_000_000 + UInt64(milliseconds) * 1_000_000)
  }

  @Test("The smallest handled-minus-stamp is the offset; a late batch keeps its own times")
  func lateBatch() {
    var clock = EventClock()
    // The server's clock reads 1,000 ms at our 0 s; handled 3 ms late.
    #expect(clock.instant(ofStamp: 1_000, handledAt: at(0, 3)) == at(0, 3))
    // Handled 1 ms late: a better estimate, by 2 ms.
    #expect(clock.instant(ofStamp: 2_000, handledAt: at(1, 1)) == at(1, 1))
    // Stopped: two events at 3 s and 5 s, both handled at 120 s.
    #expect(clock.instant(ofStamp: 4_000, handledAt: at(120)) == at(3, 1))
    #expect(clock.instant(ofStamp: 6_000, handledAt: at(120)) == at(5, 1))
    // The earlier estimate is kept: a handled-late event does not move it.
    #expect(clock.instant(ofStamp: 121_000, handledAt: at(120, 500)) == at(120, 1))
  }

  @Test("A stamp is never placed after the moment it was handled")
  func neverLater() {
    var clock = EventClock()
    _ = clock.instant(ofStamp: 1_000, handledAt: at(0, 50))
    // The server runs 40 ms ahead of what was learned: the offset falls by itself.
    #expect(clock.instant(ofStamp: 2_000, handledAt: at(0, 1_010)) == at(0, 1_010))
    #expect(clock.instant(ofStamp: 3_000, handledAt: at(2, 500)) == at(2, 10))
  }

  @Test("The 32-bit milliseconds wrap (every 49.7 days) without a jump")
  func wrap() {
    var clock = EventClock()
    let nearEnd = UInt32.max - 999  // 1 s before the wrap
    #expect(clock.instant(ofStamp: nearEnd, handledAt: at(0)) == at(0))
    // 3 s later by the server, 0x7D0 ms after the wrap, handled at 30 s (a stop).
    #expect(clock.instant(ofStamp: 2_000, handledAt: at(30)) == at(3))
  }

  @Test("A quiet spell longer than the 32-bit range's half is unwrapped by the handling time")
  func longQuiet() {
    var clock = EventClock()
    _ = clock.instant(ofStamp: 10, handledAt: at(0))
    let thirtyDays = 30 * 86_400
    let later = UInt32(truncatingIfNeeded: 10 + thirtyDays * 1_000 - 2_000)
    // Happened 2 s before it was handled, 30 days on.
    #expect(clock.instant(ofStamp: later, handledAt: at(thirtyDays)) == at(thirtyDays - 2))
  }

  @Test("A clock that went back (a server restarted) starts the estimate again")
  func backwardJump() {
    var clock = EventClock()
    _ = clock.instant(ofStamp: 3_600_000, handledAt: at(0))
    // 5 s back is still the same clock, out of order: read by the learned offset.
    #expect(
      clock.instant(ofStamp: 3_595_000, handledAt: at(1))
        == MonotonicTime(nanoseconds: at(0).nanoseconds - 5_000_000_000))
    // An hour back: a new clock; what was learned is dropped.
    #expect(clock.instant(ofStamp: 10, handledAt: at(2)) == at(2))
    #expect(clock.instant(ofStamp: 1_010, handledAt: at(3, 7)) == at(3))
  }
}
