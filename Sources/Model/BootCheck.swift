public import Time

/// Whether a process's own boot-time clock can be believed: its reading of
/// `CLOCK_BOOTTIME` against the kernel's uptime, read from `/proc/uptime`
/// (``Posix/BootTime/kernelUptime``) at the same moment.
///
/// The boot time vouches for a wall clock that says a day has passed
/// (``DayAnchor``). A preload library such as libfaketime fakes
/// `CLOCK_BOOTTIME` and the monotonic clocks together with the wall clock
/// (its default, unless `FAKETIME_DONT_FAKE_MONOTONIC` is set), so the
/// process's own reading vouches for nothing by itself; a `read(2)` of a
/// `/proc` file is out of that library's reach. When the two readings differ
/// by more than ``tolerance``, the clock is not believed and the kernel's
/// uptime stands in for it: the check keeps the difference (``offset``), so
/// that later readings of the cheap clock are corrected without reading the
/// file again. A time namespace (`unshare --time --boottime`) moves both
/// readings alike, and they agree.
public struct BootCheck: Hashable, Sendable {
  /// How far the two readings may differ and still agree: `/proc/uptime`
  /// has hundredths of a second, the two are read one after the other (on a
  /// busy machine, seconds apart), and a few seconds more or less on a day's
  /// end is no attack (the wall clock itself is given
  /// ``UsageMeter/wallClockTolerance``).
  public static let tolerance: Duration = .seconds(10)

  /// The process's reading of `CLOCK_BOOTTIME`.
  public var clock: BootTime
  /// The kernel's uptime, read beside it; `nil` when `/proc/uptime` could not be read.
  public var kernel: BootTime?

  /// The check of `clock` against `kernel`, both read now.
  public init(clock: BootTime, kernel: BootTime?) {
    self.clock = clock
    self.kernel = kernel
  }

  /// Nanoseconds the clock is ahead of the kernel (behind: negative) when
  /// they disagree; 0 when they agree, or when there is no kernel reading to
  /// check the clock against (nothing to correct it with).
  public var offset: Int64 {
    guard let kernel else { return 0 }
    let difference = Int64(clamping: clock.nanoseconds) &- Int64(clamping: kernel.nanoseconds)
    let tolerance = Int64(clamping: Self.tolerance.nanosecondsRoundedUp)
    return difference.magnitude <= UInt64(tolerance) ? 0 : difference
  }

  /// Whether the clock agreed with the kernel's uptime (or there was none to check it against).
  public var isBelieved: Bool { offset == 0 }

  /// The boot time to believe for `reading`, a later reading of the same
  /// clock: the reading when the clock was believed, else moved by ``offset``
  /// onto the kernel's uptime.
  public func believed(_ reading: BootTime) -> BootTime {
    BootTime(moving: reading, by: offset)
  }
}

extension BootTime {
  /// `reading` moved back by `offset` nanoseconds (forward when it is negative), never below 0.
  init(moving reading: BootTime, by offset: Int64) {
    let moved = Int64(clamping: reading.nanoseconds).subtractingReportingOverflow(offset)
    self.init(nanoseconds: moved.overflow ? (offset < 0 ? .max : 0) : UInt64(max(0, moved.partialValue)))
  }
}
