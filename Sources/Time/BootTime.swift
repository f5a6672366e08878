/// An instant of the boot-time clock (`CLOCK_BOOTTIME`): the monotonic clock
/// that also counts the time the machine was suspended.
///
/// It never jumps with the wall clock, so it tells how much real time passed
/// between two readings of one boot, the nights a laptop slept included:
/// the meter checks a wall clock that says a day has passed against it.
public struct BootTime: Hashable, Comparable, Sendable {
  /// Nanoseconds since the boot.
  public var nanoseconds: UInt64

  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// The first field of a `/proc/uptime` line (`"614.77 570.50\n"`) as a
  /// reading; `nil` unless it is digits, optionally a dot and up to nine more.
  public static func uptime(parsing bytes: [UInt8]) -> BootTime? {
    let field = bytes.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
    let parts = field.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, (1...12).contains(whole.count),
      whole.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    var seconds: UInt64 = 0
    for digit in whole { seconds = seconds * 10 + UInt64(digit - UInt8(ascii: "0")) }
    var fraction: UInt64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...9).contains(digits.count), digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
      else { return nil }
      for digit in digits { fraction = fraction * 10 + UInt64(digit - UInt8(ascii: "0")) }
      for _ in digits.count..<9 { fraction *= 10 }
    }
    return BootTime(nanoseconds: seconds * 1_000_000_000 + fraction)
  }

  /// The time from `earlier` to this reading (zero when `earlier` is later).
  public func duration(since earlier: BootTime) -> Duration {
    .nanoseconds(Int64(clamping: nanoseconds > earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0))
  }

  public static func < (left: BootTime, right: BootTime) -> Bool {
    left.nanoseconds < right.nanoseconds
  }
}
