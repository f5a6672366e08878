#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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

  /// The current reading.
  public static var now: BootTime {
    var now = timespec()
    clock_gettime(CLOCK_BOOTTIME, &now)
    return BootTime(nanoseconds: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
  }

  /// This boot's id (`/proc/sys/kernel/random/boot_id`, a new random UUID at
  /// each boot), read once; `nil` where the file cannot be read.
  ///
  /// A boot-time reading means something only beside others of the same
  /// boot: whoever stores one stores this id with it.
  public static let bootID: String? = {
    guard let bytes = try? FileSystem.readPrefix("/proc/sys/kernel/random/boot_id", limit: 128) else { return nil }
    let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
    return text.isEmpty ? nil : text
  }()

  /// The time from `earlier` to this reading (zero when `earlier` is later).
  public func duration(since earlier: BootTime) -> Duration {
    .nanoseconds(Int64(clamping: nanoseconds > earlier.nanoseconds ? nanoseconds - earlier.nanoseconds : 0))
  }

  public static func < (left: BootTime, right: BootTime) -> Bool {
    left.nanoseconds < right.nanoseconds
  }
}
