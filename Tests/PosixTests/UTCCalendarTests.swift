import Glibc
import Posix
import Testing

/// Time's UTC calendar is pure Swift; the C library's `gmtime_r` and `timegm` are the reference.
@Suite("UTC fields from Time's own arithmetic are gmtime_r's and timegm's")
struct UTCCalendarTests {
  /// Instants across eras and leap days, the ends of what `struct tm` holds, and a spread between.
  static let instants: [Int64] = {
    var values: [Int64] = [
      0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800,
      -62_135_596_800, -62_135_596_801, 253_402_300_799, 253_402_300_800, 67_767_976_233_532_799,
      -67_768_040_609_740_800, 1_795_947_303,
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Int64(bitPattern: state) % 400_000_000_000)
    }
    return values
  }()

  @Test func fieldsAreGmtimes() {
    for seconds in Self.instants + [Int64.max, Int64.min, 67_767_976_233_532_800, -67_768_040_609_740_801] {
      var time = time_t(seconds)
      var fields = tm()
      let expected =
        gmtime_r(&time, &fields) == nil
        ? nil
        : CalendarTime(
          year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
          hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
      #expect(WallTime(secondsSince1970: seconds).utc == expected, "\(seconds)")
    }
  }

  @Test func instantsAreTimegms() throws {
    for seconds in Self.instants {
      let fields = try #require(WallTime(secondsSince1970: seconds).utc)
      #expect(WallTime(utc: fields) == WallTime(secondsSince1970: seconds), "\(seconds)")
    }
    // Fields out of range are normalised as timegm normalises them.
    for (year, month, day, hour) in [
      (2026, 13, 1, 0), (2026, 0, 1, 0), (2026, 2, 30, 0), (2024, 3, 0, 25), (2026, -11, -3, -2),
    ] {
      var parts = tm()
      parts.tm_year = Int32(year - 1900)
      parts.tm_mon = Int32(month - 1)
      parts.tm_mday = Int32(day)
      parts.tm_hour = Int32(hour)
      let expected = Int64(timegm(&parts))
      #expect(
        WallTime(utc: CalendarTime(year: year, month: month, day: day, hour: hour))?.secondsSince1970 == expected,
        "\(year)-\(month)-\(day) \(hour)h")
    }
    #expect(LocalCalendar.utc.fields(WallTime(secondsSince1970: 0)) == CalendarTime(year: 1970, month: 1, day: 1))
  }
}
