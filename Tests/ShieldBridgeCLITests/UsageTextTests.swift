import Desktop
import Testing

@testable import ShieldBridgeCLI

@Suite("status writes a rule's time in words and as a plain bar of fixed width")
struct UsageTextTests {
  @Test(
    "A duration names the parts that are not zero, largest first",
    arguments: [
      (0, "0 s"), (1, "1 s"), (59, "59 s"), (60, "1 min"), (190, "3 min 10 s"), (600, "10 min"),
      (3600, "1 h"), (3661, "1 h 1 min 1 s"), (3900, "1 h 5 min"), (86_400, "24 h"), (-5, "0 s"),
    ])
  func duration(seconds: Int, text: String) {
    #expect(UsageText.duration(seconds: seconds) == text)
  }

  @Test("Whole minutes: one minute is singular", arguments: [(0, "0 minutes"), (1, "1 minute"), (2, "2 minutes")])
  func minutes(count: Int, text: String) {
    #expect(UsageText.minutes(count) == text)
  }

  @Test("The bar has the same width whatever the figures")
  func fixedWidth() {
    for (used, limit) in [(0, 600), (190, 600), (600, 600), (10_000, 600), (5, 0), (0, 0), (-3, 600), (1, 86_400)] {
      let bar = UsageText.bar(usedSeconds: used, limitSeconds: limit)
      #expect(bar.count == UsageText.barWidth + 2, "\(used) of \(limit): \(bar)")
      #expect(bar.first == "[" && bar.last == "]")
      #expect(bar.dropFirst().dropLast().allSatisfy { $0 == "#" || $0 == "-" })
    }
  }

  @Test("The bar fills in proportion, rounded down")
  func proportion() {
    #expect(UsageText.bar(usedSeconds: 190, limitSeconds: 600, width: 10) == "[###-------]")
    #expect(UsageText.bar(usedSeconds: 300, limitSeconds: 600, width: 10) == "[#####-----]")
    #expect(UsageText.bar(usedSeconds: 0, limitSeconds: 600, width: 10) == "[----------]")
    #expect(UsageText.bar(usedSeconds: 190, limitSeconds: 600) == "[######--------------]")
  }

  @Test("Any use shows, and only the limit fills the bar")
  func ends() {
    #expect(UsageText.bar(usedSeconds: 1, limitSeconds: 86_400, width: 10) == "[#---------]")
    #expect(UsageText.bar(usedSeconds: 599, limitSeconds: 600, width: 10) == "[#########-]")
    #expect(UsageText.bar(usedSeconds: 600, limitSeconds: 600, width: 10) == "[##########]")
    #expect(UsageText.bar(usedSeconds: 9_999, limitSeconds: 600, width: 10) == "[##########]")
    // No time at all today: the limit is reached before anything is used.
    #expect(UsageText.bar(usedSeconds: 0, limitSeconds: 0, width: 10) == "[##########]")
  }

  @Test("A rule's line says the time used, the limit, and what stands out")
  func line() {
    #expect(
      UsageText.line(rule: "social", usedSeconds: 190, limitSeconds: 600, counting: false)
        == "social: 3 min 10 s of 10 min used today  [######--------------]")
    #expect(
      UsageText.line(rule: "social", usedSeconds: 190, limitSeconds: 600, counting: true)
        == "social: 3 min 10 s of 10 min used today  [######--------------]  counting now")
    #expect(
      UsageText.line(rule: "social", usedSeconds: 615, limitSeconds: 600, counting: true)
        == "social: 10 min 15 s of 10 min used today  [####################]  over the limit")
  }

  @Test("The source line says what counts, or why nothing does")
  func source() {
    func line(
      _ backend: DesktopKind?, _ counting: CountingSource?, choice: DesktopChoice = .auto, hasRules: Bool = true,
      notRunning: String? = nil
    ) -> String {
      UsageText.sourceLine(
        backend: backend, counting: counting, choice: choice, hasRules: hasRules, notRunning: notRunning)
    }
    #expect(line(.i3, .focus) == "counted: focused windows (i3)")
    #expect(line(.x11, .focus) == "counted: focused windows (X11)")
    #expect(line(.sway, .focus, choice: .sway) == "counted: focused windows (sway)")
    #expect(line(.processes, .running) == "counted: running processes (no window system seen)")
    #expect(
      line(.processes, .running, choice: .processes)
        == #"counted: running processes ("desktop": "processes" in config.json)"#)
    #expect(line(nil, nil, choice: .off) == #"not counted: "desktop" is "off" in config.json"#)
    #expect(line(nil, nil, hasRules: false) == "not counted: no rule is set, so no app is metered")
    // Where the log is, named: not "its log says why" without saying where it is.
    #expect(
      UsageText.sourceLine(
        backend: nil, counting: nil, choice: .auto, hasRules: true, notRunning: nil,
        log: "journalctl --user -u shieldbridge")
        == "not counted: the service watches no desktop; its log says why: journalctl --user -u shieldbridge")
    #expect(
      line(nil, nil) == "not counted: the service watches no desktop; its log says why: see 'shieldbridge doctor'")
    #expect(
      line(nil, nil, notRunning: "the service is not running")
        == "not counted: the service is not running; the figures are from the ledger and may be up to 30 s old")
  }
}
