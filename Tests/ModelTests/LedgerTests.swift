import JSON
import Model
import Store
import Testing

@Suite("The ledger counts grants per rule and local day")
struct LedgerTests {
  let social = Rule(name: "social", apps: ["Instagram"])
  let today = LocalDay("2026-11-29")!

  @Test("Grants are recorded up to the most per day, then refused with a typed error")
  func mostGrantsPerDay() throws {
    var ledger = Ledger()
    for expected in 1...5 {
      #expect(try ledger.recordGrant(for: social, on: today) == expected)
    }
    #expect(throws: GrantRefusal.grantsUsedUp(rule: "social", maximum: 5, day: today)) {
      try ledger.recordGrant(for: social, on: today)
    }
    #expect(ledger.grants(for: "social", on: today) == 5)
    #expect(ledger.status(of: RuleSet([social]), on: today).rules[0].isUsedUp)
  }

  @Test("A rule that allows no grants refuses the first one")
  func noGrants() {
    var ledger = Ledger()
    let strict = Rule(name: "strict", apps: ["Game"], maxGrantsPerDay: 0)
    #expect(throws: GrantRefusal.self) { try ledger.recordGrant(for: strict, on: today) }
    #expect(ledger == Ledger())
  }

  @Test("Yesterday's grants never count today")
  func yesterdayDoesNotCount() throws {
    var ledger = Ledger()
    let yesterday = today.adding(days: -1)!
    for _ in 1...5 { try ledger.recordGrant(for: social, on: yesterday) }
    let status = ledger.status(of: RuleSet([social]), on: today)
    #expect(status.rules[0].grantsToday == 0)
    #expect(status.rules[0].limitTodayMinutes == 5)
    #expect(try ledger.recordGrant(for: social, on: today) == 1)
  }

  @Test("Rules count their grants apart")
  func rulesApart() throws {
    var ledger = Ledger()
    let video = Rule(name: "video", apps: ["Netflix"], grantMinutes: 10)
    try ledger.recordGrant(for: social, on: today)
    try ledger.recordGrant(for: video, on: today)
    try ledger.recordGrant(for: video, on: today)
    let status = ledger.status(of: RuleSet([social, video]), on: today)
    #expect(status.rules.map(\.grantsToday) == [1, 2])
    #expect(status.rules.map(\.limitTodayMinutes) == [10, 25])
  }

  @Test("Only the last week is kept")
  func forgetsOldDays() throws {
    var ledger = Ledger()
    for offset in -10...1 { try ledger.recordGrant(for: social, on: today.adding(days: offset)!) }
    ledger.forgetOldDays(before: today)
    #expect(ledger.days.keys.sorted().first == today.adding(days: -6))
    #expect(ledger.days.count == 8)
  }

  @Test("Days after today stay, but never more than a month of days in all")
  func boundsLaterDays() throws {
    var ledger = Ledger()
    for offset in 0..<100 { try ledger.recordGrant(for: social, on: today.adding(days: offset)!) }
    ledger.forgetOldDays(before: today)
    #expect(ledger.days.count == Ledger.maximumDays)
    #expect(ledger.days.keys.sorted().first == today)
    #expect(ledger.days.keys.sorted().last == today.adding(days: Ledger.maximumDays - 1))
  }

  @Test("The status prints as the documented JSON, keys in order")
  func statusJSON() throws {
    var ledger = Ledger()
    try ledger.recordGrant(
      for: Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"]), on: today)
    let status = ledger.status(
      of: RuleSet([Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"])]), on: today)
    #expect(
      status.json.serialized
        == #"{"date":"2026-11-29","rules":[{"name":"social","apps":["Instagram","TikTok","YouTube"],"dailyLimitMinutes":5,"grantMinutes":5,"maxGrantsPerDay":5,"grantsToday":1,"limitTodayMinutes":10}]}"#
    )
  }

  @Test("A ledger survives its stored form unchanged")
  func jsonRoundTrip() throws {
    var random = SeededRandom(seed: 2026)
    for _ in 0..<50 {
      var ledger = Ledger()
      for _ in 0..<Int(random.next() % 20) {
        let day = today.adding(days: -Int(random.next() % 7))!
        let rule = Rule(
          name: ["social", "video", "Spiele", "x\"y"][Int(random.next() % 4)], apps: [])
        _ = try? ledger.recordGrant(for: rule, on: day)
      }
      let text = ledger.json.serialized
      #expect(try Ledger(json: JSONValue(parsing: text)) == ledger)
      #expect(try Ledger(json: JSONValue(parsing: text)).json.serialized == text)
    }
  }

  @Test(
    "A stored ledger with a wrong shape is refused",
    arguments: [
      "[]", #"{"days":[]}"#, #"{"version":1}"#, #"{"version":1,"days":{}}"#,
      #"{"version":1,"days":[{"date":"2026-02-30","grants":{}}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29"}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":-1}}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{"social":"1"}}]}"#,
      #"{"version":1,"days":[{"date":"2026-11-29","grants":{}},{"date":"2026-11-29","grants":{}}]}"#,
      #"{"version":0,"days":[]}"#,
    ])
  func refusesBadShapes(text: String) throws {
    let json = try JSONValue(parsing: text)
    #expect(throws: LedgerFormatError.self) { try Ledger(json: json) }
    #expect((try? Ledger(json: json)) == nil)
  }

  @Test("A ledger from a newer version is told apart from a damaged one")
  func newerVersion() throws {
    let json = try JSONValue(parsing: #"{"version":2,"days":[]}"#)
    do {
      _ = try Ledger(json: json)
      Issue.record("a newer ledger was read")
    } catch {
      #expect(error.isNewerVersion)
    }
  }

  @Test("Unknown keys in a stored ledger are ignored")
  func unknownKeys() throws {
    let json = try JSONValue(
      parsing:
        #"{"version":1,"note":"x","days":[{"date":"2026-11-29","grants":{"social":2},"more":1}]}"#)
    #expect(try Ledger(json: json).grants(for: "social", on: today) == 2)
  }
}
