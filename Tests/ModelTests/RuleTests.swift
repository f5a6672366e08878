import DeepLink
import Model
import Testing

@Suite("Rules decide which limit an app falls under")
struct RuleTests {
  let social = Rule(name: "social", apps: ["Instagram", "TikTok", "YouTube"])
  let video = Rule(
    name: "video", apps: ["Netflix", "YouTube"], dailyLimitMinutes: 30, grantMinutes: 10)

  @Test("The defaults are 5 minutes a day, 5 minutes a grant, 5 grants a day")
  func defaults() {
    #expect(social.dailyLimitMinutes == 5)
    #expect(social.grantMinutes == 5)
    #expect(social.maxGrantsPerDay == 5)
  }

  @Test("Today's limit is the daily limit plus the grants times the minutes per grant")
  func limit() {
    let day = LocalDay(year: 2026, month: 12, day: 2)!
    #expect(social.limitMinutes(grants: 0, on: day) == 5)
    #expect(social.limitMinutes(grants: 1, on: day) == 10)
    #expect(video.limitMinutes(grants: 3, on: day) == 60)
  }

  @Test("App names match whatever their case")
  func caseInsensitive() throws {
    let rules = RuleSet([social, video])
    #expect(try rules.rule(for: "youtube").name == "social")
    #expect(try rules.rule(for: "NETFLIX").name == "video")
    #expect(Rule(name: "news", apps: ["Süddeutsche"]).covers("SÜDDEUTSCHE"))
    #expect(social.covers("Tiktok"))
  }

  @Test("An app no rule lists is refused")
  func notCovered() {
    #expect(throws: RuleLookupError.notCovered(app: "Reddit")) {
      try RuleSet([social]).rule(for: "Reddit")
    }
  }

  @Test("Without an app, the only rule applies; with several rules an app must be named")
  func noApp() throws {
    #expect(try RuleSet([social]).rule(for: nil) == social)
    #expect(try RuleSet([social]).rule(for: "") == social)
    #expect(throws: RuleLookupError.noApp(rules: ["social", "video"])) {
      try RuleSet([social, video]).rule(for: nil)
    }
  }

  @Test("With no rules configured, the built-in default rule covers every app")
  func builtIn() throws {
    let rules = RuleSet([])
    #expect(rules.isBuiltIn)
    #expect(try rules.rule(for: "Anything").name == "default")
    #expect(try rules.rule(for: nil) == Rule.builtIn)
    #expect(Rule.builtIn.limitMinutes(grants: 5, on: LocalDay(year: 2026, month: 12, day: 2)!) == 30)
  }

  @Test("The checking initialiser refuses the first limit outside its range, and names it")
  func checking() throws {
    #expect(
      try Rule(checking: "video", apps: ["Netflix"], grantMinutes: 10)
        == Rule(
          name: "video", apps: ["Netflix"], grantMinutes: 10))
    #expect(throws: RuleError(limit: .grantMinutes, value: 121)) {
      try Rule(checking: "video", apps: [], grantMinutes: 121)
    }
    #expect(throws: RuleError(limit: .dailyLimitMinutes, value: -1)) {
      try Rule(checking: "video", apps: [], dailyLimitMinutes: -1, maxGrantsPerDay: 101)
    }
    #expect(
      RuleError(limit: .maxGrantsPerDay, value: 101).description
        == "maxGrantsPerDay must be a whole number from 0 to 100, not 101")
    #expect(Rule.grantMinutesRange == LinkConfiguration.grantRange)
    for limit in Rule.Limit.allCases {
      #expect(limit.range.contains(limit.defaultValue))
    }
  }
}
