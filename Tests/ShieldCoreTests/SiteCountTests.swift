import Model
import Posix
import ShieldCore
import Testing

/// Who decides that a browser's site counts (issue 21, point 1): the desktop
/// where it reports focus, the browser's own word only where it does not.
@Suite("A browser's site counts while the browser is in front")
struct SiteCountTests {
  static let instagram = Site("instagram.com")!
  static let rules = RuleSet([
    Rule(
      name: "social", apps: [AppPattern(name: "Instagram", sites: [instagram])], dailyLimitMinutes: 600,
      warnMinutes: 0),
    Rule(
      name: "browsers", apps: [AppPattern(name: "Browser", classes: ["Browser"], executables: ["browser"])],
      dailyLimitMinutes: 600, warnMinutes: 0),
  ])
  static let browser = AppIdentity(windowClass: "Browser", executable: "browser", pid: 300)
  static let terminal = AppIdentity(instance: "xterm", windowClass: "XTerm", pid: 200)

  /// A core fed as the service feeds it, with a clock the test moves.
  struct Day {
    var core: ShieldCore
    var now = CoreHarness.start

    init(countsRunning: Bool) {
      core = ShieldCore(
        rules: SiteCountTests.rules, ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: now)
      _ = core.handle(.desktopStarted(countsRunning: countsRunning), at: now)
    }

    mutating func send(_ input: ShieldInput) {
      _ = core.handle(input, at: now)
    }

    mutating func pass(seconds: Int64) {
      now = MeterInstant(
        monotonic: MonotonicTime(nanoseconds: now.monotonic.nanoseconds + UInt64(seconds) * 1_000_000_000),
        wall: now.wall.adding(seconds: seconds))
      send(.tick)
    }

    func used(_ rule: String) -> Int { core.usages.first { $0.rule == rule }?.usedSeconds ?? -1 }

    var counting: Set<String> { Set(core.usages.filter(\.counting).map(\.rule)) }
  }

  static func report(focused: Bool) -> ShieldInput {
    .sites([SiteReport(site: instagram, browserPID: browser.pid ?? 0, windowFocused: focused)])
  }

  @Test func withFocusTheDesktopDecidesWhateverTheBrowserSaysOfItsOwnFocus() {
    var day = Day(countsRunning: false)
    // The browser blurred and never heard that it came back: its word is stale, the desktop's is not.
    day.send(Self.report(focused: false))
    day.send(.focus(Self.browser))
    #expect(day.counting == ["social"])
    day.pass(seconds: 10)
    // Alt+Tab to a terminal: the browser still says it is focused (no event), the desktop says otherwise.
    day.send(Self.report(focused: true))
    day.send(.focus(Self.terminal))
    #expect(day.counting.isEmpty)
    day.pass(seconds: 5)
    // And back, five times, with every combination of what the browser says.
    for round in 0..<5 {
      day.send(Self.report(focused: round.isMultiple(of: 2)))
      day.send(.focus(Self.browser))
      day.pass(seconds: 3)
      day.send(.focus(Self.terminal))
      day.pass(seconds: 2)
    }
    #expect(day.used("social") == 10 + 5 * 3)
    #expect(day.used("browsers") == 0)
  }

  @Test func withFocusAnotherBrowsersWindowInFrontDoesNotCountTheSite() {
    var day = Day(countsRunning: false)
    day.send(Self.report(focused: true))
    let other = AppIdentity(windowClass: "Browser", executable: "browser", pid: 301)
    day.send(.focus(other))
    day.pass(seconds: 4)
    #expect(day.used("social") == 0)
    #expect(day.used("browsers") == 4)
  }

  @Test func withoutFocusTheBrowsersOwnFocusDecides() {
    var day = Day(countsRunning: true)
    day.send(.running([Self.browser]))
    day.send(Self.report(focused: true))
    #expect(day.counting == ["social"])
    day.pass(seconds: 6)
    // Blurred: the site stops; the browser runs, so a rule covering it counts as itself.
    day.send(Self.report(focused: false))
    #expect(day.counting == ["browsers"])
    day.pass(seconds: 4)
    day.send(Self.report(focused: true))
    day.pass(seconds: 2)
    #expect(day.used("social") == 8)
    #expect(day.used("browsers") == 4)
    // No site at all: the browser as itself.
    day.send(.sites([]))
    #expect(day.counting == ["browsers"])
  }
}
