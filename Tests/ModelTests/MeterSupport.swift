import Model
import Posix

/// Three clocks a test moves by hand: the monotonic one measures, the wall one
/// names the day, the boot time (which counts suspend) checks the wall one.
///
/// `pass` moves all three together, as real time does; `setWall` moves the wall
/// clock alone, as a user or NTP setting the time does; `suspend` moves the
/// wall and boot clocks, as a machine that sleeps does.
struct MeterClock {
  private(set) var monotonicNanoseconds: UInt64 = 1_000_000_000_000
  /// Ahead of the monotonic reading by the suspends so far.
  private(set) var bootNanoseconds: UInt64 = 1_000_000_000_000
  private(set) var wallNanoseconds: Int64

  init(wall: WallTime) {
    wallNanoseconds = wall.secondsSince1970 * 1_000_000_000 + Int64(wall.nanoseconds)
  }

  var now: MeterInstant {
    MeterInstant(
      monotonic: MonotonicTime(nanoseconds: monotonicNanoseconds), wall: wall,
      boot: BootTime(nanoseconds: bootNanoseconds))
  }

  var wall: WallTime {
    let seconds = wallNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    return seconds.remainder >= 0
      ? WallTime(secondsSince1970: seconds.quotient, nanoseconds: Int32(seconds.remainder))
      : WallTime(secondsSince1970: seconds.quotient - 1, nanoseconds: Int32(seconds.remainder + 1_000_000_000))
  }

  /// Real time passes: both clocks move by `duration`.
  mutating func pass(_ duration: Duration) {
    let nanoseconds = Self.nanoseconds(duration)
    monotonicNanoseconds += UInt64(nanoseconds)
    bootNanoseconds += UInt64(nanoseconds)
    wallNanoseconds += nanoseconds
  }

  /// The machine sleeps for `duration`: the wall and boot clocks move, the monotonic one does not.
  mutating func suspend(_ duration: Duration) {
    let nanoseconds = Self.nanoseconds(duration)
    bootNanoseconds += UInt64(nanoseconds)
    wallNanoseconds += nanoseconds
  }

  /// Real time passes until the monotonic reading `deadline`.
  mutating func pass(until deadline: MonotonicTime) {
    pass(.nanoseconds(Int64(deadline.nanoseconds) - Int64(monotonicNanoseconds)))
  }

  /// The wall clock alone is set `duration` later (earlier when negative).
  mutating func setWall(by duration: Duration) {
    wallNanoseconds += Self.nanoseconds(duration)
  }

  /// The monotonic clock alone reads `duration` earlier (never on Linux; the meter guards anyway).
  mutating func setMonotonicBack(by duration: Duration) {
    monotonicNanoseconds -= UInt64(Self.nanoseconds(duration))
    bootNanoseconds -= UInt64(Self.nanoseconds(duration))
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }
}

/// The social rule of the seeds: 5 minutes a day, 5 more per task, at most 5 tasks, a warning 1 minute before.
func socialRule(
  dailyLimitMinutes: Int = 5, grantMinutes: Int = 5, maxGrantsPerDay: Int = 5, warnMinutes: Int = 1
) -> Rule {
  Rule(
    name: "social", apps: ["Instagram", "TikTok"], dailyLimitMinutes: dailyLimitMinutes,
    grantMinutes: grantMinutes, maxGrantsPerDay: maxGrantsPerDay, warnMinutes: warnMinutes)
}

/// A meter over `rules` with one-minute minutes, starting at `clock`'s now.
func makeMeter(_ rules: [Rule], ledger: Ledger = Ledger(), clock: MeterClock) -> UsageMeter {
  UsageMeter(settings: UsageMeter.Settings(rules: RuleSet(rules), calendar: .system), ledger: ledger, now: clock.now)
}

/// Local noon (give or take a DST hour) on `day`, in the process's zone.
func localNoon(_ day: String) -> WallTime {
  LocalDay(day)!.start.adding(seconds: 12 * 3_600)
}

extension UsageMeter {
  /// The exact time `rule` has used today.
  func used(_ rule: String) -> Duration {
    usage(of: rule)?.used ?? .zero
  }
}
