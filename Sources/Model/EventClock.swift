public import Time

/// Turns a source's own timestamps (an X server's 32-bit milliseconds) into
/// readings of the monotonic clock, so that an event is booked at the moment
/// it happened rather than the moment it was handled.
///
/// Pure: it is told each stamp with the monotonic reading at which it was
/// handled. The offset between the two clocks is learned while the process
/// runs: the smallest handled-minus-stamp seen is the best estimate (the
/// event that waited least), so a batch handled late after the process was
/// stopped keeps the times its events happened. The 32-bit milliseconds wrap
/// every 49.7 days; a stamp is unwrapped against the value the time handled
/// since the previous stamp predicts, so neither a wrap nor a long quiet
/// spell is taken for a jump. A stamp earlier than the previous one by more
/// than ``backwardTolerance`` (a server that restarted its clock) starts the
/// estimate again; a stamp that runs ahead lowers the offset by itself. A
/// stamp never gives a reading later than the one it was handled at.
public struct EventClock: Sendable {
  /// How far a stamp may lie before the previous one and still be the same clock.
  public static let backwardTolerance: Duration = .seconds(10)

  /// The previous stamp, unwrapped to 64 bits, in milliseconds, and when it was handled.
  private var previous: (stamp: Int64, handled: MonotonicTime)?
  /// Handled minus stamp, in nanoseconds: the smallest seen since the last reset.
  private var offset: Int64?

  public init() {}

  /// The monotonic reading at which the event stamped `stamp` happened,
  /// given that it was handled at `handled`.
  public mutating func instant(ofStamp stamp: UInt32, handledAt handled: MonotonicTime) -> MonotonicTime {
    let handledNanoseconds = Int64(clamping: handled.nanoseconds)
    var unwrapped = Int64(stamp)
    if let previous {
      // What the stamp would be if it came exactly as much later as it was handled.
      let predicted = previous.stamp + handled.duration(since: previous.handled).wholeMilliseconds
      unwrapped = predicted + Int64(Int32(bitPattern: stamp &- UInt32(truncatingIfNeeded: predicted)))
      if unwrapped < previous.stamp - EventClock.backwardTolerance.wholeMilliseconds {
        // The source's clock went back (a server restarted): what was learned no longer holds.
        offset = nil
      }
    }
    previous = (unwrapped, handled)
    let (product, overflow) = unwrapped.multipliedReportingOverflow(by: 1_000_000)
    guard !overflow else { return handled }
    let candidate = handledNanoseconds - product
    let best = min(offset ?? candidate, candidate)
    offset = best
    let at = product + best
    return MonotonicTime(nanoseconds: UInt64(clamping: min(handledNanoseconds, max(0, at))))
  }
}
