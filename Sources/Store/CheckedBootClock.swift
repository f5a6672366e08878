public import Model
public import Posix
import Synchronization

/// A process's boot time as ``BootCheck`` corrects it: the cheap reading of
/// `CLOCK_BOOTTIME` at every call, checked against the kernel's uptime at the
/// first reading and again wherever a day is decided (``recheck(_:)``).
///
/// So an event costs no read of `/proc` (the meter reads the boot time at
/// each one), and a clock faked for the process (libfaketime's default, a
/// debugger) vouches only for what the kernel vouches for: a fake set at
/// the start is corrected from the first reading on, and one changed while
/// the process runs at the next day's end it would bring, which is when it
/// would matter.
public final class CheckedBootClock: Sendable {
  /// The process's own clocks: `CLOCK_BOOTTIME` and `/proc/uptime`.
  public static let system = CheckedBootClock(clock: { BootTime.now }, kernel: { BootTime.kernelUptime })

  private let clock: @Sendable () -> BootTime
  private let kernel: @Sendable () -> BootTime?
  private let last = Mutex<BootCheck?>(nil)

  /// A clock that reads `clock` at every call and `kernel` at each check (tests give both).
  public init(clock: @escaping @Sendable () -> BootTime, kernel: @escaping @Sendable () -> BootTime?) {
    self.clock = clock
    self.kernel = kernel
  }

  /// The boot time to believe now: the clock's reading, corrected by the
  /// last check; the first call checks.
  public func now() -> BootTime {
    let reading = clock()
    if let check = last.withLock({ $0 }) { return check.believed(reading) }
    return check().believed(reading)
  }

  /// The last check, `nil` before the first reading.
  public var lastCheck: BootCheck? { last.withLock { $0 } }

  /// Checks the clock against the kernel's uptime now, and keeps the check for the readings after it.
  @discardableResult
  public func check() -> BootCheck {
    let uptime = kernel()
    let check = BootCheck(clock: clock(), kernel: uptime)
    last.withLock { $0 = check }
    return check
  }

  /// Checks again now, and returns `believed`, a reading of ``now()`` taken
  /// before, as this check has it: where a day is decided from it.
  ///
  /// When the check finds what the one before found, `believed` stands. When
  /// the fake changed since (or went away), `believed` was corrected by what
  /// no longer holds, and the boot time the kernel vouches for now stands for
  /// it: read a moment after it, it is at most that moment later, which only
  /// lets the day's end come that much sooner (a wall clock ahead of the boot
  /// time is believed only as far as the boot time has moved).
  public func recheck(_ believed: BootTime) -> BootTime {
    let before = last.withLock { $0?.offset }
    let check = check()
    guard check.offset != before else { return believed }
    return check.believed(check.clock)
  }
}
