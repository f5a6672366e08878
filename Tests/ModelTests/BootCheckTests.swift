import Model
import Posix
import Store
import Synchronization
import TestSupport
import Testing

/// Clocks a test moves: the process's `CLOCK_BOOTTIME` (which libfaketime can fake) and the kernel's uptime.
private final class FakedClocks: Sendable {
  /// Nanoseconds of real time since the boot: the kernel's uptime.
  let uptime = Mutex<UInt64>(1_000 * 1_000_000_000)
  /// What the process's clock adds to it (libfaketime's offset).
  let fake = Mutex<Int64>(0)
  /// Whether `/proc/uptime` can be read.
  let kernelReadable = Mutex(true)
  /// How often the kernel's uptime was read.
  let kernelReads = Atomic<Int>(0)

  var clock: BootTime {
    let real = Int64(uptime.withLock { $0 })
    return BootTime(nanoseconds: UInt64(max(0, real + fake.withLock { $0 })))
  }

  var kernel: BootTime? {
    kernelReads.add(1, ordering: .relaxed)
    return kernelReadable.withLock { $0 } ? BootTime(nanoseconds: uptime.withLock { $0 }) : nil
  }

  func pass(seconds: Int64) { uptime.withLock { $0 += UInt64(seconds) * 1_000_000_000 } }

  func bootClock() -> CheckedBootClock {
    CheckedBootClock(clock: { self.clock }, kernel: { self.kernel })
  }
}

private let day: Int64 = 86_400

@Suite("A boot clock that disagrees with the kernel's uptime is not believed")
struct BootCheckTests {
  @Test("Clocks that agree within the tolerance are believed as they are; beyond it the kernel's uptime stands")
  func toleranceBoundary() {
    let kernel = BootTime(nanoseconds: 5_000 * 1_000_000_000)
    let tolerance = BootCheck.tolerance.components.seconds * 1_000_000_000
    // Each side of the tolerance, ahead and behind, by a nanosecond.
    let differences: [Int64] = [0, 1, 10_000_000, tolerance - 1, tolerance, -tolerance, tolerance + 1, -tolerance - 1]
    for difference in differences {
      let clock = BootTime(nanoseconds: UInt64(Int64(kernel.nanoseconds) + difference))
      let check = BootCheck(clock: clock, kernel: kernel)
      let agrees = difference.magnitude <= UInt64(tolerance)
      #expect(check.isBelieved == agrees, "\(difference) ns")
      #expect(check.offset == (agrees ? 0 : difference), "\(difference) ns")
      // A reading taken later is believed as the clock's, or moved onto the kernel's uptime.
      let later = BootTime(nanoseconds: clock.nanoseconds + 7_000_000_000)
      let expected = agrees ? later : BootTime(nanoseconds: kernel.nanoseconds + 7_000_000_000)
      #expect(check.believed(later) == expected, "\(difference) ns")
    }
  }

  @Test("libfaketime's faked boot clocks (a day ahead, the wall clock's seconds, behind) all give way to the kernel")
  func fakedClocks() {
    let kernel = BootTime(nanoseconds: 615 * 1_000_000_000)
    let fakes: [UInt64] = [
      // faketime -f +1d: a day ahead.
      kernel.nanoseconds + UInt64(day) * 1_000_000_000,
      // libfaketime 0.9.10 under `faketime -f +1d`: CLOCK_BOOTTIME reads as the faked wall clock.
      1_796_436_194 * 1_000_000_000,
      // A clock set back to the boot.
      0,
      // The farthest a reading can be.
      .max,
    ]
    for fake in fakes {
      let check = BootCheck(clock: BootTime(nanoseconds: fake), kernel: kernel)
      #expect(!check.isBelieved, "\(fake)")
      #expect(check.believed(BootTime(nanoseconds: fake)) == kernel, "\(fake)")
      #expect(check.believed(BootTime(nanoseconds: fake &+ 1_000_000_000)).duration(since: kernel) <= .seconds(1))
    }
  }

  @Test("Without a kernel reading the clock is all there is, and it is believed")
  func noKernelReading() {
    let clock = BootTime(nanoseconds: 123 * 1_000_000_000)
    let check = BootCheck(clock: clock, kernel: nil)
    #expect(check.isBelieved)
    #expect(check.believed(clock) == clock)
  }

  @Test("/proc/uptime's line is read as seconds with their fraction, and nothing else is")
  func uptimeParsing() {
    func parsed(_ text: String) -> UInt64? { BootTime.uptime(parsing: Array(text.utf8))?.nanoseconds }
    #expect(parsed("614.77 570.50\n") == 614_770_000_000)
    #expect(parsed("87017.44 570.50\n") == 87_017_440_000_000)
    #expect(parsed("3 1\n") == 3_000_000_000)
    #expect(parsed("0.000000001 0") == 1)
    for bad in [
      "", " 614.77", "614.", ".5 1", "6a4.77 1", "-5.00 1", "614.77.1 1", "1.0000000001 1", "9999999999999 1",
    ] {
      #expect(parsed(bad) == nil, "\(bad)")
    }
    // The kernel's own file reads, here and now, as a boot time no earlier than the boot clock's.
    let before = BootTime.now
    let kernel = BootTime.kernelUptime
    #expect(kernel != nil)
    #expect(BootCheck(clock: before, kernel: kernel).isBelieved)
  }

  @Test("The checked clock reads the kernel once, at its first reading, and again only where a day is decided")
  func kernelReadOnlyWhereDecided() {
    let clocks = FakedClocks()
    clocks.fake.withLock { $0 = day * 1_000_000_000 }
    let bootClock = clocks.bootClock()
    #expect(bootClock.now() == BootTime(nanoseconds: 1_000 * 1_000_000_000))
    for _ in 0..<1_000 {
      clocks.pass(seconds: 1)
      _ = bootClock.now()
    }
    #expect(clocks.kernelReads.load(ordering: .relaxed) == 1)
    // 1,000 s of real time: the faked day ahead is never believed.
    #expect(bootClock.now() == BootTime(nanoseconds: 2_000 * 1_000_000_000))
    #expect(bootClock.lastCheck?.isBelieved == false)
  }

  @Test("A fake changed while the process runs is corrected at the check the day's decision makes")
  func fakeChangedWhileRunning() {
    let clocks = FakedClocks()
    let bootClock = clocks.bootClock()
    #expect(bootClock.now() == BootTime(nanoseconds: 1_000 * 1_000_000_000))
    #expect(bootClock.lastCheck?.isBelieved == true)
    // The fake is moved a day on (libfaketime's FAKETIME_TIMESTAMP_FILE rewritten): the cheap reading follows it...
    clocks.fake.withLock { $0 = day * 1_000_000_000 }
    clocks.pass(seconds: 10)
    let unchecked = bootClock.now()
    #expect(unchecked == BootTime(nanoseconds: UInt64(1_010 + day) * 1_000_000_000))
    // ...until the check before a day's decision takes it back to the kernel's.
    #expect(bootClock.recheck(unchecked) == BootTime(nanoseconds: 1_010 * 1_000_000_000))
    #expect(bootClock.now() == BootTime(nanoseconds: 1_010 * 1_000_000_000))
    // The fake taken away again: believed as it is, with nothing left of the correction.
    clocks.fake.withLock { $0 = 0 }
    clocks.pass(seconds: 5)
    #expect(bootClock.recheck(bootClock.now()) == BootTime(nanoseconds: 1_015 * 1_000_000_000))
    #expect(bootClock.lastCheck?.isBelieved == true)
    // With no /proc, the clock is all there is.
    clocks.kernelReadable.withLock { $0 = false }
    clocks.fake.withLock { $0 = 3 * 1_000_000_000 }
    #expect(bootClock.recheck(bootClock.now()) == BootTime(nanoseconds: 1_018 * 1_000_000_000))
  }

  @Test("The ledger's day of a process with its boot clock faked a day ahead is the meter's day")
  func ledgerDayUnderAFakedBootClock() throws {
    let directory = try TemporaryDirectory()
    let clocks = FakedClocks()
    let noon = localNoon("2026-06-15")
    let wall = Mutex(noon)
    var meter = UsageMeter(
      settings: UsageMeter.Settings(
        rules: RuleSet([socialRule(dailyLimitMinutes: 1_440, warnMinutes: 0)]), calendar: .system),
      ledger: Ledger(),
      now: MeterInstant(monotonic: MonotonicTime(nanoseconds: 1), wall: noon, boot: clocks.clock), bootID: "boot-1")
    var ledger = Ledger()
    ledger.dayAnchor = meter.dayAnchor
    _ = meter.advance(to: MeterInstant(monotonic: MonotonicTime(nanoseconds: 2), wall: noon, boot: clocks.clock))

    // Every clock of the process a day ahead (libfaketime's default): the kernel's uptime says a minute passed.
    clocks.pass(seconds: 60)
    clocks.fake.withLock { $0 = day * 1_000_000_000 }
    wall.withLock { $0 = noon.adding(seconds: 60 + day) }
    let faked = LedgerStore(
      directory: directory.path, clock: WallClock(now: { wall.withLock { $0 } }, bootClock: clocks.bootClock()),
      dayStart: .midnight)
    let store = LedgerStore(
      directory: directory.path,
      clock: WallClock(now: { wall.withLock { $0 } }, bootClock: clocks.bootClock(), bootID: { "boot-1" }))
    #expect(faked.today(in: Ledger()) == LocalDay("2026-06-16"), "no anchor of this boot: the wall clock's day")
    #expect(store.today(in: ledger) == LocalDay("2026-06-15"))
    // Believed as it was, the faked boot clock would have vouched for the new day.
    let trusting = LedgerStore(
      directory: directory.path,
      clock: WallClock(now: { wall.withLock { $0 } }, boot: { clocks.clock }, bootID: { "boot-1" }))
    #expect(trusting.today(in: ledger) == LocalDay("2026-06-16"))
    // A day of real time later the kernel vouches for the next day: the real one, not the faked one after it.
    clocks.pass(seconds: day)
    wall.withLock { $0 = noon.adding(seconds: 60 + 2 * day) }
    #expect(store.today(in: ledger) == LocalDay("2026-06-16"))
    #expect(trusting.today(in: ledger) == LocalDay("2026-06-17"))
  }

  @Test("endsDay says when an input would move the meter to another day, and only then")
  func endsDayMatchesTheMove() {
    var clock = MeterClock(wall: localNoon("2026-06-15"))
    var meter = UsageMeter(
      settings: UsageMeter.Settings(
        rules: RuleSet([socialRule(dailyLimitMinutes: 1_440, warnMinutes: 0)]), calendar: .system),
      ledger: Ledger(), now: clock.now, bootID: "boot-1")
    // The wall clock alone a day ahead: no day ends.
    clock.setWall(by: .seconds(day))
    #expect(!meter.endsDay(at: clock.now))
    _ = meter.advance(to: clock.now)
    #expect(meter.day == LocalDay("2026-06-15"))
    clock.setWall(by: .seconds(-day))
    // Twelve hours less a second, then the real midnight.
    for (seconds, ends) in [(11 * 3_600 + 3_599, false), (1, true)] {
      clock.pass(.seconds(Int64(seconds)))
      #expect(meter.endsDay(at: clock.now) == ends)
      let before = meter.day
      _ = meter.advance(to: clock.now)
      #expect((meter.day != before) == ends)
      #expect(!meter.endsDay(at: clock.now))
    }
  }
}
