import Model
import Testing

/// Issue 25, point 6: a change of the rules tightens at once and loosens only from the next day's start.
@Suite("A change of the rules tightens at once and loosens tomorrow")
struct RuleLooseningTests {
  static let held = Rule(
    name: "social", apps: ["Instagram", AppPattern(name: "Reddit", sites: [Site("reddit.com")!])],
    dailyLimitMinutes: 10, grantMinutes: 5, maxGrantsPerDay: 3, warnMinutes: 1, onLimit: .hide)

  @Test("Each limit: the lower stays, the higher waits")
  func eachLimit() {
    let held = Self.held
    for (limit, keyPath) in [
      ("dailyLimitMinutes", \Rule.dailyLimitMinutes), ("grantMinutes", \Rule.grantMinutes),
      ("maxGrantsPerDay", \Rule.maxGrantsPerDay),
    ] {
      var looser = held
      looser[keyPath: keyPath] += 2
      #expect(held.tightened(by: looser) == held, "\(limit) raised")
      var tighter = held
      tighter[keyPath: keyPath] -= 1
      #expect(held.tightened(by: tighter) == tighter, "\(limit) lowered")
    }
  }

  @Test("The pause: the longer stays, a shorter one waits")
  func pause() {
    var held = Self.held
    held.pauseSeconds = 10
    var configured = held
    configured.pauseSeconds = 0
    #expect(held.tightened(by: configured).pauseSeconds == 10)
    configured.pauseSeconds = 30
    #expect(held.tightened(by: configured).pauseSeconds == 30)
  }

  @Test("The action at the limit: the stronger stays; the warning is no limit and changes at once")
  func actionAndWarning() {
    var configured = Self.held
    for action in LimitAction.allCases {
      configured.onLimit = action
      #expect(Self.held.tightened(by: configured).onLimit == max(action, .hide))
    }
    #expect(LimitAction.notify < .hide && LimitAction.hide < .close)
    configured = Self.held
    configured.warnMinutes = 5
    #expect(Self.held.tightened(by: configured).warnMinutes == 5)
  }

  @Test("An app or site taken out stays today; one added counts at once")
  func apps() {
    var configured = Self.held
    configured.apps = ["Instagram", "TikTok"]
    let inForce = Self.held.tightened(by: configured)
    #expect(inForce.apps.map(\.name) == ["Instagram", "TikTok", "Reddit"])
    #expect(inForce.apps[2].covers(site: Site("www.reddit.com")!))
  }

  @Test("A rule taken out stays today, a new one counts at once, in the file's order")
  func rules() {
    let video = Rule(name: "video", apps: ["YouTube"], dailyLimitMinutes: 30)
    let held = RuleSet([Self.held])
    #expect(held.tightened(by: RuleSet([video])).rules == [video, Self.held])
    #expect(held.tightened(by: RuleSet([video, Self.held])).rules == [video, Self.held])
    #expect(RuleSet([video, Self.held]).tightened(by: RuleSet([Self.held])).rules == [Self.held, video])
  }

  @Test("The file removed or emptied keeps today's rules; rules where the built-in one was count at once")
  func builtIn() {
    let held = RuleSet([Self.held])
    #expect(held.tightened(by: .builtIn) == held)
    #expect(RuleSet.builtIn.tightened(by: held) == held)
    #expect(RuleSet.builtIn.tightened(by: .builtIn) == .builtIn)
  }

  @Test("Tightening what is in force again changes nothing, whatever the order of the changes")
  func idempotent() {
    var looser = Self.held
    looser.dailyLimitMinutes = 60
    looser.apps = ["Instagram"]
    var tighter = Self.held
    tighter.maxGrantsPerDay = 1
    let held = RuleSet([Self.held])
    let once = held.tightened(by: RuleSet([looser]))
    #expect(once.tightened(by: RuleSet([looser])) == once)
    // Looser, then tighter, then looser again: the tightest of each stays.
    let inForce = once.tightened(by: RuleSet([tighter])).tightened(by: RuleSet([looser]))
    #expect(inForce.rules.first?.maxGrantsPerDay == 1)
    #expect(inForce.rules.first?.dailyLimitMinutes == 10)
    #expect(inForce.rules.first?.apps.map(\.name) == ["Instagram", "Reddit"])
  }
}
