import Model
import Testing

/// Today's use and grants belong to the apps and sites, not to a rule's name:
/// a rule renamed, split or merged keeps the day of what it covers, and the
/// tightest limit that covered an app today stays in force for it.
@Suite("A rule renamed, split, merged or given another's app keeps the day of what it covers")
struct RuleTakeOverTests {
  static let day = LocalDay(year: 2026, month: 12, day: 2)!
  static let instagram = AppIdentity(instance: "instagram", windowClass: "Instagram", pid: 1)
  static let tiktok = AppIdentity(instance: "tiktok", windowClass: "TikTok", pid: 2)

  static func rule(_ name: String, _ apps: [AppPattern], limit: Int = 5, grants: Int = 5) -> Rule {
    Rule(name: name, apps: apps, dailyLimitMinutes: limit, maxGrantsPerDay: grants)
  }

  /// A ledger with today's `used` seconds, grants and tasks asked per rule.
  static func ledger(used: [String: Int], grants: [String: Int] = [:], asked: [String: Int] = [:]) -> Ledger {
    var ledger = Ledger()
    ledger.recordUsedSeconds(used, on: day)
    // A request is counted once per shield (a grant count): each of them at a shield of its own.
    for (rule, count) in asked {
      for shield in 0..<count {
        ledger.recordKnownGrants([day: [rule: shield]])
        ledger.recordTaskAsked(for: rule, on: day)
      }
    }
    ledger.recordKnownGrants([day: grants])
    return ledger
  }

  @Test("A rename keeps the limit, the use, the grants and the requests of the day")
  func rename() throws {
    let held = RuleSet([Self.rule("social", ["Instagram"], limit: 5)])
    let change = held.change(to: RuleSet([Self.rule("social2", ["Instagram"], limit: 5)]))
    #expect(change.rules.rules.map(\.name) == ["social2"])
    #expect(change.takeOver == ["social2": ["social"]])
    let carried = Self.ledger(used: ["social": 300], grants: ["social": 1], asked: ["social": 2])
      .takingOver(change.takeOver, on: Self.day)
    #expect(carried.usedSeconds(for: "social2", on: Self.day) == 300)
    #expect(carried.grants(for: "social2", on: Self.day) == 1)
    #expect(carried.tasksAsked(for: "social2", on: Self.day) == 2)
    #expect(change.rules.match(Self.instagram)?.rule.name == "social2")
  }

  @Test("Renamed twice with a higher limit: one rule, the first day's limit and use")
  func renameTwiceHigher() throws {
    let held = RuleSet([Self.rule("social", ["Instagram"], limit: 5)])
    let once = held.change(to: RuleSet([Self.rule("social2", ["Instagram"], limit: 5)]))
    let ledger = Self.ledger(used: ["social": 300]).takingOver(once.takeOver, on: Self.day)
    let twice = once.rules.change(to: RuleSet([Self.rule("social3", ["Instagram"], limit: 500)]))
    #expect(twice.rules.rules.count == 1)
    #expect(twice.rules.rules.first?.name == "social3")
    #expect(twice.rules.rules.first?.dailyLimitMinutes == 5)
    #expect(twice.takeOver == ["social3": ["social2"]])
    #expect(ledger.takingOver(twice.takeOver, on: Self.day).usedSeconds(for: "social3", on: Self.day) == 300)
  }

  @Test("Renamed back: the day is not counted twice")
  func renameBack() {
    let social = Self.rule("social", ["Instagram"])
    let first = RuleSet([social]).change(to: RuleSet([Self.rule("social2", ["Instagram"])]))
    var ledger = Self.ledger(used: ["social": 300]).takingOver(first.takeOver, on: Self.day)
    ledger.recordUsedSeconds(350, for: "social2", on: Self.day)
    let back = first.rules.change(to: RuleSet([social]))
    #expect(back.takeOver == ["social": ["social2"]])
    #expect(ledger.takingOver(back.takeOver, on: Self.day).usedSeconds(for: "social", on: Self.day) == 350)
  }

  @Test("A split gives each part the whole day and the limit of the rule it came from")
  func split() {
    let held = RuleSet([Self.rule("social", ["Instagram", "TikTok"], limit: 10)])
    let change = held.change(
      to: RuleSet([Self.rule("photos", ["Instagram"], limit: 30), Self.rule("clips", ["TikTok"], limit: 30)]))
    #expect(change.rules.rules.map(\.name) == ["photos", "clips"])
    #expect(change.rules.rules.map(\.dailyLimitMinutes) == [10, 10])
    #expect(change.rules.rules.map { $0.apps.map(\.name) } == [["Instagram"], ["TikTok"]])
    #expect(change.takeOver == ["photos": ["social"], "clips": ["social"]])
    let carried = Self.ledger(used: ["social": 300], grants: ["social": 2]).takingOver(change.takeOver, on: Self.day)
    #expect(carried.usedSeconds(for: "photos", on: Self.day) == 300)
    #expect(carried.usedSeconds(for: "clips", on: Self.day) == 300)
    #expect(carried.grants(for: "clips", on: Self.day) == 2)
  }

  @Test("A merge sums the day and keeps the tightest of each limit")
  func merge() {
    var photos = Self.rule("photos", ["Instagram"], limit: 5, grants: 3)
    photos.onLimit = .close
    let clips = Self.rule("clips", ["TikTok"], limit: 10, grants: 1)
    let change = RuleSet([photos, clips]).change(
      to: RuleSet([Self.rule("social", ["Instagram", "TikTok"], limit: 30, grants: 5)]))
    let social = change.rules.rules.first
    #expect(change.rules.rules.count == 1)
    #expect(social?.dailyLimitMinutes == 5)
    #expect(social?.maxGrantsPerDay == 1)
    #expect(social?.onLimit == .close)
    #expect(change.takeOver == ["social": ["photos", "clips"]])
    let carried = Self.ledger(used: ["photos": 100, "clips": 200], grants: ["photos": 1, "clips": 1])
      .takingOver(change.takeOver, on: Self.day)
    #expect(carried.usedSeconds(for: "social", on: Self.day) == 300)
    #expect(carried.grants(for: "social", on: Self.day) == 2)
  }

  @Test("An app moved to another rule brings its rule's day and limit with it")
  func appMoved() {
    let held = RuleSet([
      Self.rule("photos", ["Instagram", "TikTok"], limit: 5), Self.rule("video", ["YouTube"], limit: 30),
    ])
    let change = held.change(
      to: RuleSet([Self.rule("photos", ["Instagram"], limit: 5), Self.rule("video", ["TikTok", "YouTube"], limit: 30)]))
    #expect(change.rules.rules.map { $0.apps.map(\.name) } == [["Instagram"], ["TikTok", "YouTube"]])
    #expect(change.rules.rules.map(\.dailyLimitMinutes) == [5, 5])
    #expect(change.takeOver == ["video": ["photos", "video"]])
    let carried = Self.ledger(used: ["photos": 300, "video": 60]).takingOver(change.takeOver, on: Self.day)
    #expect(carried.usedSeconds(for: "video", on: Self.day) == 360)
    #expect(carried.usedSeconds(for: "photos", on: Self.day) == 300)
    #expect(change.rules.match(Self.tiktok)?.rule.name == "video")
  }

  @Test("An entry rewritten under the same name is one entry that still covers what it covered")
  func entryRewritten() throws {
    let held = RuleSet([Self.rule("social", ["Instagram"])])
    let site = AppPattern(name: "Instagram", sites: [Site("instagram.com")!])
    let change = held.change(to: RuleSet([Self.rule("social", [site])]))
    let apps = try #require(change.rules.rules.first?.apps)
    #expect(apps.count == 1)
    #expect(change.rules.match(Self.instagram)?.rule.name == "social")
    #expect(change.rules.match(site: Site("www.instagram.com")!)?.rule.name == "social")
    #expect(change.takeOver.isEmpty)
    // The class narrowed to one no window has: the window stays covered today.
    let narrowed = change.rules.change(
      to: RuleSet([Self.rule("social", [AppPattern(name: "Instagram", classes: ["Nothing"])])]))
    #expect(narrowed.rules.match(Self.instagram)?.rule.name == "social")
    #expect(narrowed.rules.rules.first?.apps.count == 1)
  }

  @Test("A rule nothing configured touches stays today; a new one counts at once")
  func untouched() {
    let social = Self.rule("social", ["Instagram"])
    let video = Self.rule("video", ["YouTube"], limit: 30)
    let change = RuleSet([social]).change(to: RuleSet([video]))
    #expect(change.rules.rules == [video, social])
    #expect(change.takeOver.isEmpty)
  }

  @Test("Settled: the same configuration again changes nothing and takes over nothing more")
  func settled() {
    let changes: [(RuleSet, RuleSet)] = [
      (
        RuleSet([Self.rule("social", ["Instagram", "TikTok"])]),
        RuleSet([Self.rule("a", ["Instagram"]), Self.rule("b", ["TikTok"])])
      ),
      (
        RuleSet([Self.rule("a", ["Instagram"]), Self.rule("b", ["TikTok"])]),
        RuleSet([Self.rule("m", ["Instagram", "TikTok"])])
      ),
      (RuleSet([Self.rule("social", ["Instagram"])]), RuleSet([Self.rule("social2", ["Instagram"], limit: 60)])),
    ]
    for (held, configured) in changes {
      let once = held.change(to: configured)
      let again = once.rules.change(to: configured)
      #expect(again.rules == once.rules)
      #expect(again.takeOver.isEmpty)
    }
  }

  // MARK: The law, over seeded random rules

  /// The apps the generated rules are made of: each has a window (class and instance) and a site.
  static let appNames = ["Instagram", "TikTok", "YouTube", "Reddit", "Signal", "Telegram"]
  static let ruleNames = ["social", "Social2", "video", "chat", "news", "social2x", "fun"]

  static func identity(_ app: String) -> AppIdentity {
    AppIdentity(instance: "c" + app.lowercased(), windowClass: app, pid: 7)
  }

  static func site(_ app: String) -> Site { Site(app.lowercased() + ".com")! }

  /// One of the ways `config.json` may write the app.
  static func pattern(_ app: String, _ random: inout SeededRandom) -> AppPattern {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: AppPattern(name: app)
    case 1: AppPattern(name: app, classes: ["c" + app.lowercased()])
    case 2: AppPattern(name: app, sites: [site(app)])
    default: AppPattern(name: app, classes: [app], sites: [site(app)])
    }
  }

  /// Rules as `config.json` may hold them: each app in one rule at most, names unique without regard to case.
  static func rules(_ random: inout SeededRandom) -> RuleSet {
    let apps = appNames.filter { _ in Bool.random(using: &random) }
    guard !apps.isEmpty else { return .builtIn }
    var names = ruleNames.shuffled(using: &random)
    var rules: [Rule] = []
    for app in apps {
      if rules.isEmpty || Int.random(in: 0..<3, using: &random) == 0 {
        rules.append(rule(names.removeFirst(), [], limit: Int.random(in: 0...60, using: &random)))
      }
      rules[Int.random(in: 0..<rules.count, using: &random)].apps.append(pattern(app, &random))
    }
    return RuleSet(rules.filter { !$0.apps.isEmpty })
  }

  @Test("Over random changes: no app twice, settled, and the tightest limit of each app stays", arguments: 0..<100)
  func law(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var inForce = RuleSet.builtIn
    var tightest: [String: Int] = [:]
    for step in 0..<12 {
      let configured = Self.rules(&random)
      let change = inForce.change(to: configured)
      let rules = change.rules
      let context = "seed \(seed), step \(step): \(rules.rules)"
      var appNames: Set<String> = []
      var sites: Set<Site> = []
      var ruleNames: Set<String> = []
      for rule in rules.rules {
        #expect(ruleNames.insert(rule.name.lowercased()).inserted, "\(context)")
        for app in rule.apps {
          #expect(appNames.insert(app.name.lowercased()).inserted, "\(context)")
          for site in app.sites { #expect(sites.insert(site).inserted, "\(context)") }
        }
      }
      let again = rules.change(to: configured)
      #expect(again.rules == rules && again.takeOver.isEmpty, "\(context)")
      // What covered an app today still covers it, no looser, within the rule that took over its day.
      for app in Self.appNames {
        let byWindow = rules.match(Self.identity(app)) ?? rules.match(site: Self.site(app))
        if let held = inForce.match(Self.identity(app)) ?? inForce.match(site: Self.site(app)) {
          let covering = rules.rules.first { rule in
            rule.apps.contains { $0.overlaps(AppPattern(name: app)) } || rule.name == held.rule.name
          }
          #expect(covering != nil, "\(app) is no longer covered: \(context)")
          #expect(byWindow != nil, "\(app) is no longer matched: \(context)")
          if let byWindow {
            #expect(byWindow.rule.dailyLimitMinutes <= (tightest[app] ?? .max), "\(app): \(context)")
            let day = [byWindow.rule.name] + (change.takeOver[byWindow.rule.name] ?? [])
            #expect(
              day.contains(held.rule.name) || byWindow.rule.name.lowercased() == held.rule.name.lowercased(),
              "\(app): \(context)")
          }
        }
        if let configuredRule = configured.rules.first(where: { $0.apps.contains { $0.name == app } }) {
          #expect(byWindow?.rule.name == configuredRule.name, "\(app) in \(configuredRule.name): \(context)")
        }
        if let byWindow {
          tightest[app] = min(tightest[app] ?? .max, byWindow.rule.dailyLimitMinutes)
        } else {
          tightest[app] = nil
        }
      }
      inForce = rules
    }
  }
}
