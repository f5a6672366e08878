/// An instant of the monotonic clock (`CLOCK_MONOTONIC`), for measuring durations.
///
/// It never jumps with the wall clock and does not advance while the machine
/// sleeps; Posix reads it (`MonotonicTime.now`). Code that waits inside Swift concurrency uses `ContinuousClock`; this
/// is the raw reading for code that measures in nanoseconds.
public struct MonotonicTime: Hashable, Comparable, Sendable {
  /// Nanoseconds since an unspecified start (the boot, on Linux).
  public var nanoseconds: UInt64

  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// The time from `earlier` to this reading (zero when `earlier` is later).
  public func duration(since earlier: MonotonicTime) -> Duration {
    .nanoseconds(Int64(clamping: nanoseconds > earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0))
  }

  /// The reading `duration` after this one (this one for a negative duration).
  public func advanced(by duration: Duration) -> MonotonicTime {
    guard duration > .zero else { return self }
    let (seconds, attoseconds) = duration.components
    let whole = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let (sum, overflow) = nanoseconds.addingReportingOverflow(whole.partialValue &+ UInt64(attoseconds / 1_000_000_000))
    return MonotonicTime(nanoseconds: whole.overflow || overflow ? .max : sum)
  }

  public static func < (left: MonotonicTime, right: MonotonicTime) -> Bool {
    left.nanoseconds < right.nanoseconds
  }
}
