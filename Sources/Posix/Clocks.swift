import Synchronization
public import Time

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The readings of the values in Time: the system's clocks, the boot's id and
// the kernel's uptime, and the process's time zone as a LocalCalendar. Every
// module that imports Posix sees Time's values as its own.

extension MonotonicTime {
  /// The current reading (`CLOCK_MONOTONIC`).
  public static var now: MonotonicTime {
    MonotonicTime(nanoseconds: reading(CLOCK_MONOTONIC))
  }
}

extension BootTime {
  /// The current reading (`CLOCK_BOOTTIME`).
  public static var now: BootTime {
    BootTime(nanoseconds: reading(CLOCK_BOOTTIME))
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

  /// The kernel's own uptime (`/proc/uptime`, its first field: seconds with
  /// hundredths), read now; `nil` where the file cannot be read or parsed.
  ///
  /// It is the boot-time clock as the kernel gives it to a `read(2)` of a
  /// file, which no preload library that fakes `clock_gettime` (libfaketime)
  /// intercepts: a process cannot move it for itself. A time namespace
  /// (`unshare --time --boottime`) moves it together with `CLOCK_BOOTTIME`.
  /// Each reading costs an open, a read and a close, so the clock is checked
  /// against it where a day is decided, not at every event (Model's `BootCheck`).
  public static var kernelUptime: BootTime? {
    guard let bytes = try? FileSystem.readPrefix("/proc/uptime", limit: 128) else { return nil }
    return uptime(parsing: bytes)
  }
}

extension WallTime {
  /// The current instant (`clock_gettime(CLOCK_REALTIME)`).
  public static var now: WallTime {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return WallTime(secondsSince1970: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec))
  }

  /// The calendar fields of this instant in the process's time zone (`TZ`).
  ///
  /// The zone is looked up again (ZoneLookup) when `TZ` changed and at
  /// most a second after the last look, so a long-running service follows
  /// the user to another zone.
  public var local: CalendarTime? {
    var time = time_t(secondsSince1970)
    var fields = tm()
    ZoneLookup.refresh()
    guard localtime_r(&time, &fields) != nil else { return nil }
    return CalendarTime(
      year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
      hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec), nanoseconds: nanoseconds)
  }

  /// The instant `mktime` picks for the local time `fields`: normalised, and
  /// for a time that a DST change skips or repeats, one of the instants near it.
  ///
  /// - Returns: `nil` when `mktime` cannot represent it.
  public static func local(_ fields: CalendarTime) -> WallTime? {
    var parts = tm()
    parts.tm_year = Int32(clamping: fields.year - 1900)
    parts.tm_mon = Int32(clamping: fields.month - 1)
    parts.tm_mday = Int32(clamping: fields.day)
    parts.tm_hour = Int32(clamping: fields.hour)
    parts.tm_min = Int32(clamping: fields.minute)
    parts.tm_sec = Int32(clamping: fields.second)
    parts.tm_isdst = -1
    let seconds = mktime(&parts)
    // -1 is also one second before 1970; only the C fields tell an error from it.
    guard seconds != -1 || parts.tm_year == 69 else { return nil }
    return WallTime(secondsSince1970: Int64(seconds))
  }
}

extension LocalCalendar {
  /// The process's time zone, through the C library (`localtime_r`, `mktime`), which reads `TZ`
  /// (or `/etc/localtime`) as every other program on the desktop does.
  public static let system = LocalCalendar(name: "system", fields: { $0.local }, instant: { WallTime.local($0) })
}

/// The nanoseconds of a reading of `clock`.
private func reading(_ clock: clockid_t) -> UInt64 {
  var now = timespec()
  clock_gettime(clock, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// When `tzset` runs: `localtime_r` does not look at the zone again by
/// itself, and `tzset` stats `/etc/localtime` each time, which the meter
/// would otherwise do for every focus change. Again at once when `TZ`
/// changed (a test, a `setenv`), and otherwise at most once a second, so a
/// zone changed with `timedatectl` is followed within a second.
enum ZoneLookup {
  private struct Last {
    var zone: [CChar]?
    var at: UInt64 = 0
    var done = false
  }

  private static let last = Mutex(Last())

  static func refresh() {
    let zone = getenv("TZ").map { Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)) }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    last.withLock { last in
      guard !last.done || last.zone != zone || nanoseconds &- last.at >= 1_000_000_000 else { return }
      tzset()
      last = Last(zone: zone, at: nanoseconds, done: true)
    }
  }
}
