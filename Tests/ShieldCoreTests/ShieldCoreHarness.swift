import DeepLink
import Model
import Posix
import ShieldCore

/// Drives a ``ShieldCore`` as the service would, with a clock the test moves
/// and a notification server the test plays: posts get ids in order, and the
/// links a shield carries are the ones the service would put on it.
struct CoreHarness {
  var core: ShieldCore
  var now: MeterInstant
  var nextID: UInt32 = 1
  /// Every effect so far, in order.
  var effects: [ShieldEffect] = []
  /// What each posted notification was, by id.
  var notifications: [UInt32: ShieldEffect.Post] = [:]
  let social: Rule
  static let instagram = AppIdentity(instance: "instagram", windowClass: "Instagram", pid: 100)
  static let terminal = AppIdentity(instance: "xterm", windowClass: "XTerm", pid: 200)
  static let start = MeterInstant(
    monotonic: MonotonicTime(nanoseconds: 1_000_000_000), wall: WallTime(secondsSince1970: 1_780_000_000))

  /// The rule "social" on Instagram: 1 minute a day, 1 more per task, 2 tasks, no warning, unless given.
  init(
    metered: Bool = true,
    settings: ShieldCore.Settings = ShieldCore.Settings(calendar: .system, doubleClickWindow: .seconds(1)),
    rule: Rule = Rule(
      name: "social", apps: ["Instagram"], dailyLimitMinutes: 1, grantMinutes: 1, maxGrantsPerDay: 2, warnMinutes: 0)
  ) {
    social = rule
    now = Self.start
    core = ShieldCore(rules: RuleSet([social]), ledger: Ledger(), settings: settings, now: now)
    if metered { _ = send(.desktopStarted(countsRunning: false)) }
  }

  /// Hands `input` to the core at the current time, posts what it asks to be posted, and returns its effects.
  @discardableResult
  mutating func send(_ input: ShieldInput) -> [ShieldEffect] {
    var queue = core.handle(input, at: now)
    var all: [ShieldEffect] = []
    while !queue.isEmpty {
      let effect = queue.removeFirst()
      all.append(effect)
      if case .post(let post, let key) = effect {
        let id: UInt32
        switch post {
        case .task(_, _, _, _, _, _, let replacing) where replacing != 0: id = replacing
        case .solved(_, _, let replacing): id = replacing
        default:
          id = nextID
          nextID += 1
        }
        notifications[id] = post
        var links: [String: String] = [:]
        if case .shield(_, _, .task) = post {
          links["default"] = "shieldbridge://puzzle?app=Instagram&grant=1&id=shield-open"
        }
        queue += core.handle(.posted(key, id: id, links: links), at: now)
      }
    }
    effects += all
    return all
  }

  /// Moves the clock on by `duration` and wakes the core, as its timer would.
  @discardableResult
  mutating func pass(_ duration: Duration) -> [ShieldEffect] {
    now = MeterInstant(
      monotonic: MonotonicTime(
        nanoseconds: now.monotonic.nanoseconds + UInt64(duration.components.seconds) * 1_000_000_000),
      wall: now.wall.adding(seconds: duration.components.seconds))
    return send(.tick)
  }

  struct NoShield: Error {}
  struct NoTask: Error {}

  /// Uses Instagram until its limit: the shield is posted and its id returned.
  mutating func reachLimit() throws -> UInt32 {
    send(.focus(Self.instagram))
    let effects = pass(.seconds(61))
    guard effects.contains(.enforce(rule: "social")),
      let id = notifications.filter({ if case .shield = $0.value { true } else { false } }).keys.max()
    else { throw NoShield() }
    return id
  }

  /// Posts the shield by name, as `shieldbridge shield --app Instagram` does; its id.
  mutating func askShield() throws -> UInt32 {
    send(.shieldAsked(app: "Instagram", rule: "social", key: PostKey(1)))
    guard let id = notifications.keys.max() else { throw NoShield() }
    return id
  }

  /// Clicks the shield's task: what the core asks the service to open.
  mutating func clickTask(on shield: UInt32) throws -> TaskRequest {
    guard let request = send(.action(id: shield, key: "default", token: nil)).compactMap(Self.isTaskRequest).first
    else { throw NoTask() }
    return request
  }

  /// The service answers that the task is asked inline: the task's notification, its puzzle, and the effects.
  mutating func openInline(_ request: TaskRequest) throws -> (id: UInt32, puzzle: Puzzle, effects: [ShieldEffect]) {
    let effects = send(
      .taskOpened(identifier: request.activation, rule: "social", .inline(app: "Instagram", grantMinutes: 1)))
    for (id, post) in notifications {
      if case .task(_, _, let puzzle, _, _, _, _) = post { return (id, puzzle, effects) }
    }
    throw NoTask()
  }

  static func count(_ effects: [ShieldEffect], _ predicate: (ShieldEffect) -> Bool) -> Int {
    effects.filter(predicate).count
  }

  static func isShieldPost(_ effect: ShieldEffect) -> Bool {
    if case .post(.shield, _) = effect { true } else { false }
  }

  static func isTaskRequest(_ effect: ShieldEffect) -> TaskRequest? {
    if case .openTask(let request) = effect { request } else { nil }
  }
}
