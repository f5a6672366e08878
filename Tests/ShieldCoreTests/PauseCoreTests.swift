import Model
import Posix
import ShieldCore
import Testing

@Suite("The notification's task waits out the rule's pause")
struct PauseCoreTests {
  func instant(_ seconds: Int64) -> MeterInstant {
    MeterInstant(
      monotonic: MonotonicTime(nanoseconds: UInt64(1 + seconds) * 1_000_000_000),
      wall: WallTime(secondsSince1970: 1_780_000_000 + seconds))
  }

  func taskPosts(_ effects: [ShieldEffect]) -> [(puzzle: Puzzle, wait: Int, replacing: UInt32)] {
    effects.compactMap {
      if case .post(.task(_, _, let puzzle, _, _, let wait, let replacing), _) = $0 {
        (puzzle, wait, replacing)
      } else {
        nil
      }
    }
  }

  @Test("A reply before the pause ran gets the same task and the seconds left; after it, the answer is taken")
  func earlyReply() throws {
    let rule = Rule(
      name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 2, warnMinutes: 0,
      pauseSeconds: 10)
    var core = ShieldCore(
      rules: RuleSet([rule]), ledger: Ledger(), settings: ShieldCore.Settings(calendar: .system), now: instant(0))
    _ = core.handle(.shieldAsked(app: "Instagram", rule: "social", key: PostKey(1)), at: instant(0))
    _ = core.handle(
      .posted(PostKey(1), id: 1, links: ["default": "shieldbridge://puzzle?app=Instagram&grant=1&id=shield-open"]),
      at: instant(0))
    let click = core.handle(.action(id: 1, key: "default", token: nil), at: instant(0))
    let request = try #require(click.compactMap { if case .openTask(let r) = $0 { r } else { nil } }.first)
    let opened = core.handle(
      .taskOpened(identifier: request.activation, rule: "social", .inline(app: "Instagram", grantMinutes: 1)),
      at: instant(0))
    let first = try #require(taskPosts(opened).first)
    #expect(first.wait == 10)
    let key = try #require(opened.compactMap { if case .post(_, let key) = $0 { key } else { nil } }.first)
    _ = core.handle(.posted(key, id: 2, links: [:]), at: instant(0))

    let early = core.handle(.replied(id: 2, text: String(first.puzzle.answer)), at: instant(3))
    let again = try #require(taskPosts(early).first)
    #expect(again.puzzle == first.puzzle)
    #expect(again.wait == 7)
    #expect(again.replacing == 2)
    #expect(!early.contains(.recordGrant(rule: "social")))
    let againKey = try #require(early.compactMap { if case .post(_, let key) = $0 { key } else { nil } }.first)
    _ = core.handle(.posted(againKey, id: 2, links: [:]), at: instant(3))

    let late = core.handle(.replied(id: 2, text: String(first.puzzle.answer)), at: instant(10))
    #expect(late.contains(.recordGrant(rule: "social")))
  }
}
