import Model
public import Posix

/// Where the current time comes from: the system clock, or one a test controls.
///
/// The ledger asks its clock for "now" every time it decides which local day
/// a grant belongs to, so a test (or a demo) can move time across midnight
/// without waiting for it. The meter reads the boot time beside it
/// (``MeterInstant/now(wall:)``): a wall clock moved on alone is a clock set
/// forward, which opens no new day; a test that lets a day pass moves both.
/// The system's boot time is the one the kernel vouches for
/// (``CheckedBootClock``), so a process whose clocks are faked for it
/// (libfaketime) cannot move it on either.
public struct WallClock: Sendable {
  /// Returns the current instant.
  public var now: @Sendable () -> WallTime
  /// Returns the current boot time (`CLOCK_BOOTTIME`, which counts suspend),
  /// as far as the kernel vouched for it at the last check; no read of `/proc`.
  public var boot: @Sendable () -> BootTime
  /// Checks the boot time against the kernel's again, and returns a reading
  /// of ``boot`` taken before as that check corrects it: for a day's decision.
  public var recheckBoot: @Sendable (BootTime) -> BootTime
  /// Returns the id of the boot ``boot`` counts from (``BootTime/bootID``).
  public var bootID: @Sendable () -> String?
  /// The checked boot clock behind ``boot``; `nil` for a boot time a test makes up.
  public let bootClock: CheckedBootClock?

  /// A clock that answers with `now()`, beside the system's checked boot time
  /// (``CheckedBootClock/system``), or beside `boot()` as it is, and its boot's id.
  public init(
    now: @escaping @Sendable () -> WallTime, boot: (@Sendable () -> BootTime)? = nil,
    bootID: @escaping @Sendable () -> String? = { BootTime.bootID }
  ) {
    self.now = now
    self.bootID = bootID
    if let boot {
      self.boot = boot
      recheckBoot = { $0 }
      bootClock = nil
    } else {
      let system = CheckedBootClock.system
      self.boot = { system.now() }
      recheckBoot = { system.recheck($0) }
      bootClock = system
    }
  }

  /// A clock that answers with `now()`, beside `bootClock`'s boot time and `bootID()`.
  public init(
    now: @escaping @Sendable () -> WallTime, bootClock: CheckedBootClock,
    bootID: @escaping @Sendable () -> String? = { BootTime.bootID }
  ) {
    self.now = now
    self.bootID = bootID
    boot = { bootClock.now() }
    recheckBoot = { bootClock.recheck($0) }
    self.bootClock = bootClock
  }

  /// The system's real-time clock.
  public static let system = WallClock { WallTime.now }

  /// A clock that always answers `time`.
  public static func fixed(_ time: WallTime) -> WallClock {
    WallClock { time }
  }
}
