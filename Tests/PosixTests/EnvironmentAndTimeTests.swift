import Glibc
import Posix
import Testing

@Suite("The environment and the clocks read as the C library gives them")
struct EnvironmentAndTimeTests {
  @Test func variablesAreReadOneByOneAndAllAtOnce() {
    setenv("POSIX_TEST_VARIABLE", "a=b", 1)
    setenv("POSIX_TEST_EMPTY", "", 1)
    #expect(Environment.value("POSIX_TEST_VARIABLE") == "a=b")
    #expect(Environment.all["POSIX_TEST_VARIABLE"] == "a=b")
    #expect(Environment.value("POSIX_TEST_EMPTY") == "")
    #expect(Environment.nonEmptyValue("POSIX_TEST_EMPTY") == nil)
    #expect(Environment.value("POSIX_TEST_UNSET_VARIABLE") == nil)
  }

  @Test func wallTimeBreaksIntoUTCFields() throws {
    let instant = WallTime(secondsSince1970: 1_795_947_303, nanoseconds: 123_456_789)
    let fields = try #require(instant.utc)
    #expect(
      fields == CalendarTime(year: 2026, month: 11, day: 29, hour: 10, minute: 15, second: 3, nanoseconds: 123_456_789))
    #expect(instant.description == "2026-11-29T10:15:03.123Z")
    #expect(fields.compactStamp == "20261129T101503")
    #expect(WallTime(secondsSince1970: -1).utc?.rfc3339() == "1969-12-31T23:59:59")
    #expect(instant.adding(seconds: -3).utc?.second == 0)
  }

  @Test func wallTimeIsNowAndOrdered() {
    let before = WallTime.now
    let after = WallTime.now
    #expect(before <= after)
    #expect(before.secondsSince1970 > 1_700_000_000)
    #expect(WallTime(secondsSince1970: 1, nanoseconds: 5) < WallTime(secondsSince1970: 2))
  }

  @Test func monotonicTimeMeasuresDurations() {
    let start = MonotonicTime.now
    usleep(20_000)
    let elapsed = MonotonicTime.now.duration(since: start)
    #expect(elapsed >= .milliseconds(20))
    #expect(start.duration(since: MonotonicTime.now) == .zero)
  }

  @Test("The boot time measures durations and is never behind the monotonic clock, which skips suspend")
  func bootTimeCountsAtLeastTheMonotonicTime() {
    let monotonic = MonotonicTime.now
    let start = BootTime.now
    #expect(start.nanoseconds >= monotonic.nanoseconds)
    usleep(20_000)
    #expect(BootTime.now.duration(since: start) >= .milliseconds(20))
    #expect(start.duration(since: BootTime.now) == .zero)
  }

  @Test("The boot id is the kernel's: one UUID for the whole boot")
  func bootIDIsTheKernels() throws {
    let id = try #require(BootTime.bootID)
    #expect(id.count == 36)
    #expect(id.filter { $0 == "-" }.count == 4)
    #expect(BootTime.bootID == id)
  }
}
