import Time

// The meter adds monotonic and wall-clock readings to durations; these are the
// conversions, rounded so that a deadline is never a nanosecond early.

extension Duration {
  /// The whole seconds in a duration, rounded down; 0 for a negative one.
  var wholeSeconds: Int {
    self <= .zero ? 0 : Int(clamping: components.seconds)
  }

  /// The whole milliseconds, rounded towards zero (negative for a negative duration).
  var wholeMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds &* 1000 &+ attoseconds / 1_000_000_000_000_000
  }

  /// The nanoseconds in a positive duration, rounded up, so that a deadline
  /// made of it is never before the moment it stands for.
  var nanosecondsRoundedUp: UInt64 {
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .max }
    let fraction = UInt64(attoseconds / 1_000_000_000) + (attoseconds % 1_000_000_000 == 0 ? 0 : 1)
    let (sum, carry) = whole.addingReportingOverflow(fraction)
    return carry ? .max : sum
  }
}

extension WallTime {
  /// This instant moved by `duration` (earlier when it is negative).
  func adding(_ duration: Duration) -> WallTime {
    let (seconds, attoseconds) = duration.components
    let total = Int64(nanoseconds) + attoseconds / 1_000_000_000
    let carry = total >= 0 ? total / 1_000_000_000 : (total - 999_999_999) / 1_000_000_000
    return WallTime(
      secondsSince1970: secondsSince1970 &+ seconds &+ carry, nanoseconds: Int32(total - carry * 1_000_000_000))
  }

  /// The time from `earlier` to this instant; negative when `earlier` is later.
  func duration(since earlier: WallTime) -> Duration {
    .seconds(secondsSince1970 &- earlier.secondsSince1970)
      + .nanoseconds(Int64(nanoseconds) - Int64(earlier.nanoseconds))
  }
}

extension MonotonicTime {
  /// The reading `duration` after this one (never past the clock's last value).
  func adding(_ duration: Duration) -> MonotonicTime {
    let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanosecondsRoundedUp)
    return MonotonicTime(nanoseconds: overflow ? .max : sum)
  }
}
