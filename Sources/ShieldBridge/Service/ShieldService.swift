public import Brake
public import DBus
import DeepLink
public import Desktop
import JSON
public import Localization
public import Notifications
import Synchronization

/// The service: shield → notification → click → route → puzzle or app view.
///
/// It owns `org.shieldbridge.ShieldBridge` on its bus and exports
/// `org.shieldbridge.ShieldBridge1` (`Shield(s app) → u`, `Open(s link) → s`,
/// `Status() → s`, `Usage() → s`, `SiteFocus(s site, u browserPid) → s`, and the signals `Dispatched(s record)`,
/// `LimitReached(s rule, s app)` and `Unlocked(s rule, u minutes)`). With a
/// desktop backend in its options it runs the meter (``MeterLoop``). Notifications go
/// through one ``NotificationClient`` on the same connection, so that clicks
/// come back to it, and only from the verified notification server. Each
/// dispatch is logged as one line and emitted as `Dispatched`.
public actor ShieldService {
  /// What the service works with; everything outside the bus is here, so tests can set it.
  public struct Options: Sendable {
    public var configuration: Configuration
    public var ledger: LedgerStore
    public var localizer: Localizer
    /// Starts handlers, terminals and `xdg-open`, with this environment.
    public var launcher: Launcher
    /// The `shieldbridge` executable a terminal runs for the puzzle.
    public var executable: String
    /// Makes the inline puzzles repeatable (tests, the demo); random when `nil`.
    public var puzzleSeed: UInt64?
    /// Repeats of the same click within this time are dropped.
    public var doubleClickWindow: Duration
    /// How long each call to the notification server may take.
    public var notificationTimeout: Duration
    /// How long ``ShieldService/stop()`` waits for the posts still in flight
    /// before it closes what was posted.
    public var stopTimeout: Duration
    /// The desktop the meter watches, opened by the caller (`serve` passes
    /// the one `Desktop.open` chose); `nil` runs the service without a meter.
    public var desktop: (any DesktopBackend)?
    /// Opens the backend to go on with when the desktop is lost, given every
    /// kind lost so far; `nil` (the default, or its answer) goes on without one.
    public var fallbackDesktop: (@Sendable (_ lost: Set<DesktopKind>) async -> (any DesktopBackend)?)?
    /// The meter's timings: idle limit, the length of a minute, the save interval, the grace periods.
    public var meter: MeterSettings
    /// Where log lines go (stderr for `serve`).
    public var log: @Sendable (String) -> Void
    /// The `config.json` that ``configuration`` came from, watched for
    /// changes and reloaded (see ``ShieldService/reloadConfiguration()``);
    /// `nil` (the default) watches nothing.
    public var configurationPath: String?

    /// - Parameter meter: The meter's timings; `nil` takes the defaults with the
    ///   idle limit from the configuration's `idleMinutes`.
    public init(
      configuration: Configuration, ledger: LedgerStore, localizer: Localizer, launcher: Launcher,
      executable: String, puzzleSeed: UInt64? = nil, doubleClickWindow: Duration = .seconds(1),
      notificationTimeout: Duration = .seconds(2), stopTimeout: Duration = .seconds(5),
      desktop: (any DesktopBackend)? = nil,
      fallbackDesktop: (@Sendable (_ lost: Set<DesktopKind>) async -> (any DesktopBackend)?)? = nil,
      meter: MeterSettings? = nil, configurationPath: String? = nil,
      log: @escaping @Sendable (String) -> Void
    ) {
      self.configurationPath = configurationPath
      self.desktop = desktop
      self.fallbackDesktop = fallbackDesktop
      self.meter = meter ?? MeterSettings(idleLimit: .seconds(60 * configuration.idleMinutes))
      self.configuration = configuration
      self.ledger = ledger
      self.localizer = localizer
      self.launcher = launcher
      self.executable = executable
      self.puzzleSeed = puzzleSeed
      self.doubleClickWindow = doubleClickWindow
      self.notificationTimeout = notificationTimeout
      self.stopTimeout = stopTimeout
      self.log = log
    }
  }

  /// A shield notification this service posted: the links its actions lead to.
  private struct Shown {
    var links: [String: String]
    /// Counts the shields this service posted. A server may give a new
    /// notification the id of one that was closed (dunst does, for the
    /// `replaces_id` of a notification it no longer shows); a click on the new
    /// one is no repeat of a click on the old one.
    var posting: UInt64
    /// The rule the shield was for: a dismissal holds back the meter's next shield for it today.
    var rule: String
  }

  /// A task asked in a notification, waiting for its inline reply.
  private struct InlinePuzzle {
    var app: String?
    var rule: Rule
    var identifier: String
    var run: PuzzleRun<SeededRandom>
  }

  public nonisolated let connection: Connection
  public nonisolated let client: NotificationClient
  /// The options the service started with; the configuration in them is the first one.
  nonisolated let startOptions: Options
  /// The configuration in force: the last good one read (see ``reloadConfiguration()``).
  nonisolated let currentConfiguration: Mutex<Configuration>
  /// Watches `config.json` while the service runs; `nil` without ``Options/configurationPath``.
  var configurationWatcher: ConfigurationWatcher?
  nonisolated let router: Router<ShieldAction>
  nonisolated let links: LinkConfiguration
  nonisolated let texts: ShieldTexts
  nonisolated let deduplicator: ActionDeduplicator<ContinuousClock>
  private var shown: [UInt32: Shown] = [:]
  /// Shields closed lately, still clickable from the server's history.
  private var closedShields = RecentlyClosed<Shown>(capacity: ShieldService.closedShieldsKept)
  /// How many closed shields keep their links.
  static let closedShieldsKept = 16
  /// The rules whose shield the user dismissed without acting, and the day:
  /// the meter does not post it again that day (see ``shieldFromMeter(app:)``).
  var dismissed: [String: LocalDay] = [:]
  private var postings: UInt64 = 0
  private var tokens: [UInt32: String] = [:]
  private var puzzles: [UInt32: InlinePuzzle] = [:]
  /// Every notification posted and not known to be closed: shields, tasks and results alike.
  private var posted: Set<UInt32> = []
  /// Admits the posts; ``stop()`` closes it.
  nonisolated let gate = StopGate()
  private var random: SeededRandom
  private var listener: Task<Void, Never>?
  /// The meter, while a desktop is watched (see ShieldService+Meter.swift).
  var meterLoop: MeterLoop?
  /// The connections that report a browser's site, by unique name (see ShieldService+Sites.swift).
  var siteCallers: [BusName: SiteCaller] = [:]

  /// Starts the service on `connection`: follows the notification server,
  /// exports the interface, listens for clicks, takes the well-known name, and
  /// then starts the meter on ``Options/desktop``.
  ///
  /// The service owns the desktop backend from here on: it stops it in
  /// ``stop()``, or at once when starting fails.
  ///
  /// - Throws: ``ServiceError`` `already-running` when another process owns
  ///   the name, `bad-link` for a scheme the router refuses, `bus` when the bus fails.
  public static func start(on connection: Connection, options: Options) async throws(ServiceError) -> ShieldService {
    do {
      let service = try await starting(on: connection, options: options)
      await service.startMeter()
      await service.watchConfiguration()
      return service
    } catch {
      options.desktop?.stop()
      throw error
    }
  }

  private static func starting(on connection: Connection, options: Options) async throws(ServiceError)
    -> ShieldService
  {
    let links: LinkConfiguration
    do {
      links = try LinkConfiguration(scheme: options.configuration.scheme)
    } catch {
      throw ServiceError(.badLink, "the scheme in config.json cannot be used: \(error.message)")
    }
    let client: NotificationClient
    do {
      client = try await NotificationClient(connection: connection, timeout: options.notificationTimeout)
    } catch {
      throw ServiceError(.bus, "cannot follow the notification server: \(error.message)")
    }
    let service = ShieldService(connection: connection, client: client, options: options, links: links)
    do {
      try connection.export([try service.interface()], at: ServiceNames.path)
    } catch {
      throw ServiceError(.bus, "cannot export the service interface: \(error.message)")
    }
    await service.listen()
    let reply: Connection.RequestNameReply
    do {
      reply = try await connection.requestName(ServiceNames.busName, flags: [.doNotQueue])
    } catch {
      throw ServiceError(.bus, "cannot ask for \(ServiceNames.busName): \(error.message)")
    }
    guard reply == .primaryOwner || reply == .alreadyOwner else {
      await service.stopListening()
      connection.unexport(ServiceNames.path)
      throw ServiceError(.alreadyRunning, "another ShieldBridge service already owns \(ServiceNames.busName)")
    }
    return service
  }

  private init(connection: Connection, client: NotificationClient, options: Options, links: LinkConfiguration) {
    self.connection = connection
    self.client = client
    startOptions = options
    currentConfiguration = Mutex(options.configuration)
    self.links = links
    router = Router(configuration: links)
    texts = ShieldTexts(localizer: options.localizer)
    deduplicator = ActionDeduplicator(window: options.doubleClickWindow, clock: ContinuousClock())
    random = SeededRandom(seed: options.puzzleSeed ?? UInt64.random(in: .min ... .max))
  }

  /// Stops: takes no new calls, waits for the posts in flight, closes every
  /// notification the service posted, and stops listening.
  ///
  /// The order matters with calls in flight. First nothing new is admitted
  /// (`Shield` and `Open` are answered with `…Error.Stopping`, and the name is
  /// given back, so that new callers find no service), then the posts already
  /// sent are waited for, at most ``Options/stopTimeout``: each answer is a
  /// notification that would otherwise stay open with nobody behind its
  /// clicks. Only then is everything that was posted closed, what was posted
  /// while stopping included.
  public func stop() async {
    configurationWatcher?.stop()
    configurationWatcher = nil
    await meterLoop?.stop()
    meterLoop = nil
    forgetSiteCallers()
    gate.close()
    _ = try? await connection.releaseName(ServiceNames.busName)
    if !(await gate.drained(within: options.stopTimeout)) {
      options.log("stopping without the answer to some notifications after \(options.stopTimeout)")
    }
    posted.formUnion(shown.keys)
    posted.formUnion(puzzles.keys)
    // A close is a round trip; a post that ends meanwhile adds its id, which this loop then takes.
    while let id = posted.popFirst() {
      try? await client.close(id)
    }
    shown = [:]
    closedShields = RecentlyClosed(capacity: Self.closedShieldsKept)
    puzzles = [:]
    connection.unexport(ServiceNames.path)
    stopListening()
  }

  // MARK: The interface

  /// Shields `app`: posts the localized shield notification and returns its id.
  ///
  /// With today's grants used up the notification says so and offers nothing
  /// to click. Posting again replaces the notification (fixed identifier).
  ///
  /// - Throws: ``ServiceError`` `not-covered` (also for no app while rules
  ///   are configured), `state`, `notifications`, or `stopping` once ``stop()`` began.
  public func shield(app rawApp: String?) async throws(ServiceError) -> UInt32 {
    try refuseWhenStopping()
    let app = rawApp.flatMap { $0.isEmpty ? nil : $0 }
    // Configured rules name their apps: a shield for no app in particular
    // would be a guess at the rule and a notification nobody can place.
    // Only the built-in rule, which covers every app, takes an unnamed one.
    if app == nil && !options.configuration.rules.isBuiltIn {
      throw ServiceError(
        .notCovered,
        "name the app that was blocked (shield --app NAME): config.json has rules, and each covers its own apps")
    }
    let rule = try rule(for: app)
    // Asked for by name: the user (or a script on their behalf) wants it shown again.
    dismissed[rule.name] = nil
    return try await postShield(app: app, rule: rule)
  }

  /// The meter's shield at a limit, unless the user dismissed this rule's shield today.
  ///
  /// A dismissal without a click is an answer: the shield does not come back
  /// by itself that day. `Shield` (the `shield` command) still posts it, and
  /// a grant (the rule unlocked) forgets the dismissal. Kept in memory only:
  /// a restarted service shows the shield again at the next limit.
  ///
  /// - Returns: The notification's id, or `nil` when it was held back.
  func shieldFromMeter(app: String) async throws(ServiceError) -> UInt32? {
    try refuseWhenStopping()
    let rule = try rule(for: app)
    if let day = dismissed[rule.name], day == options.ledger.today {
      options.log("meter: not showing the shield for \(app) again today: it was dismissed (shield --app to show it)")
      return nil
    }
    dismissed[rule.name] = nil
    return try await postShield(app: app, rule: rule)
  }

  private func postShield(app: String?, rule: Rule) async throws(ServiceError) -> UInt32 {
    let status = try ruleStatus(rule)
    let identifier = links.identifier
    let notification: Notification
    if status.isUsedUp {
      notification = texts.usedUp(app: app, identifier: identifier)
    } else {
      let views = app.map { options.configuration.views.views(for: $0).map(\.name) } ?? []
      do {
        notification = try texts.shield(
          app: app, minutes: rule.grantMinutes, views: views, identifier: identifier, router: router)
      } catch {
        throw ServiceError(.badLink, "cannot build the link: \(error.message)")
      }
    }
    let id = try await post(notification)
    var offered: [String: String] = [:]
    for action in notification.actions { offered[action.key] = action.link }
    postings += 1
    if id != 0 { shown[id] = Shown(links: offered, posting: postings, rule: rule.name) }
    options.log("shielded \(app ?? "an unnamed app"): notification \(id)")
    return id
  }

  /// Resolves `link` and dispatches its action, as a click on it would.
  ///
  /// - Throws: ``ServiceError`` `bad-link` with the parser's code and offset,
  ///   `stopping` once ``stop()`` began.
  @discardableResult
  public func open(_ link: String) async throws(ServiceError) -> DispatchRecord {
    try refuseWhenStopping()
    let resolution: Resolution<ShieldAction>
    do {
      resolution = try router.resolve(link)
    } catch {
      throw ServiceError(.badLink, "\(error.code) at byte \(error.offset): \(error.message)")
    }
    return await dispatch(resolution.action, link: link, token: nil)
  }

  /// Today's rules and grants, as `status --json` prints them.
  ///
  /// - Throws: ``ServiceError`` `state` when the ledger cannot be read.
  public nonisolated func status() throws(ServiceError) -> DayStatus {
    do {
      return try options.ledger.status(of: options.configuration.rules).value
    } catch {
      throw ServiceError(.state, "\(error)")
    }
  }

  nonisolated func interface() throws(DBusError) -> Interface {
    try Interface(
      ServiceNames.interface.rawValue,
      methods: [
        try Method(
          ServiceNames.shield.rawValue, inputs: "s", outputs: "u", inputNames: ["app"], outputNames: ["id"],
          async: { [weak self] call in
            guard let self else { throw DBusError(.failed, "the service is stopping") }
            let app = try call.decode(String.self)
            do throws(ServiceError) { return [.uint32(try await self.shield(app: app))] } catch {
              throw error.dbusError
            }
          }),
        try Method(
          ServiceNames.open.rawValue, inputs: "s", outputs: "s", inputNames: ["link"], outputNames: ["record"],
          async: { [weak self] call in
            guard let self else { throw DBusError(.failed, "the service is stopping") }
            let link = try call.decode(String.self)
            do throws(ServiceError) {
              return [.string(try await self.open(link).json.serialized)]
            } catch { throw error.dbusError }
          }),
        try Method(ServiceNames.status.rawValue, outputs: "s", outputNames: ["status"]) { [weak self] _ in
          guard let self else { throw DBusError(.failed, "the service is stopping") }
          do throws(ServiceError) { return [.string(try self.status().json.serialized)] } catch {
            throw error.dbusError
          }
        },
        try Method(
          ServiceNames.usage.rawValue, outputs: "s", outputNames: ["usage"],
          async: { [weak self] _ in
            guard let self else { throw DBusError(.failed, "the service is stopping") }
            return [.string(await self.usage().json.serialized)]
          }),
        try Method(
          ServiceNames.siteFocus.rawValue, inputs: "su", outputs: "s", inputNames: ["site", "browserPid"],
          outputNames: ["state"],
          async: { [weak self] call in
            guard let self else { throw DBusError(.failed, "the service is stopping") }
            let (site, pid) = try call.decode(String.self, UInt32.self)
            return [.string(try await self.siteFocus(site, browserPID: pid, caller: call.sender))]
          }),
      ],
      signals: [
        try SignalDeclaration(ServiceNames.dispatched.rawValue, signature: "s", argumentNames: ["record"]),
        try SignalDeclaration(ServiceNames.limitReached.rawValue, signature: "ss", argumentNames: ["rule", "app"]),
        try SignalDeclaration(ServiceNames.unlocked.rawValue, signature: "su", argumentNames: ["rule", "minutes"]),
      ])
  }

  // MARK: Clicks

  private func listen() {
    let events = client.events()
    listener = Task { [weak self] in
      for await event in events {
        guard let self else { return }
        await self.handle(event)
      }
    }
  }

  private func stopListening() {
    listener?.cancel()
    listener = nil
  }

  private func handle(_ event: NotificationEvent) async {
    switch event {
    case .activationToken(let id, let token):
      tokens[id] = token
    case .action(let id, let key):
      await click(id, key: key)
    case .replied(let id, let text):
      await answer(id, text: text)
    case .closed(let id, let reason):
      posted.remove(id)
      tokens[id] = nil
      if let shield = shown.removeValue(forKey: id) {
        // A server with a history can show it again under this id; its click must still dispatch.
        closedShields.insert(shield, for: id)
        if reason == .dismissed {
          dismissed[shield.rule] = options.ledger.today
          options.log("shield notification \(id) was dismissed; the meter will not show it again today")
        }
      }
      if let puzzle = puzzles.removeValue(forKey: id) {
        deduplicator.endActivation(of: puzzle.identifier)
        options.log("puzzle notification \(id) was closed unanswered")
      }
    }
  }

  private func click(_ id: UInt32, key: String) async {
    let token = tokens.removeValue(forKey: id)
    // Only the links this service offered on this notification are followed,
    // also on one closed lately and shown again from the server's history.
    guard let offered = shown[id] ?? closedShields[id] else {
      options.log(
        "ignored a click on notification \(id): not a shield this service shows, nor one of the last "
          + "\(Self.closedShieldsKept) closed (run shieldbridge shield --app APP for a new one)")
      return
    }
    guard let link = offered.links[key] else { return }
    guard let resolution = try? router.resolve(link) else { return }
    // A repeat is the same key on the same posting, whatever id the server reused.
    guard deduplicator.admitInvocation(notification: id, actionKey: "\(offered.posting) \(key)") else {
      report(DispatchRecord(action: resolution.action, scheme: links.scheme, outcome: .duplicate))
      return
    }
    await dispatch(resolution.action, link: link, token: token)
  }

  // MARK: Dispatch

  @discardableResult
  private func dispatch(_ action: ShieldAction, link: String, token: String?) async -> DispatchRecord {
    let record: DispatchRecord
    switch action {
    case .puzzle(let app, _, let id):
      record = await dispatchPuzzle(action, app: app, identifier: id, link: link, token: token)
    case .view(let app, let view, let id):
      record = await dispatchView(action, app: app, view: view, identifier: id, link: link, token: token)
    }
    report(record)
    return record
  }

  private func dispatchPuzzle(
    _ action: ShieldAction, app: String?, identifier: String, link: String, token: String?
  ) async -> DispatchRecord {
    func outcome(_ outcome: DispatchRecord.Outcome, _ detail: String = "") -> DispatchRecord {
      DispatchRecord(action: action, scheme: links.scheme, outcome: outcome, detail: detail)
    }
    guard deduplicator.beginActivation(of: identifier) else {
      return outcome(.coalesced, "a puzzle for \(identifier) is already open")
    }
    let inlineReply = (try? await client.presentation())?.inlineReply ?? false
    let plan = DispatchPlanner(options: options).puzzle(
      app: app, identifier: identifier, link: link, inlineReply: inlineReply, interactive: false)
    switch plan {
    case .handler(let argv, _), .terminal(let argv, _), .here(let argv, _):
      let kind: DispatchRecord.Outcome = if case .handler = plan { .handler } else { .terminal }
      let record = await launchWatched(argv, token: token, activation: identifier, action: action, outcome: kind)
      if record.outcome == .failed {
        // The click must lead somewhere: say what to run instead.
        _ = try? await post(texts.closeOnly(app: app, identifier: identifier))
      }
      return record
    case .inline(let rule):
      let (asked, detail) = await askInline(app: app, rule: rule, identifier: identifier)
      if asked != .inlineReply { deduplicator.endActivation(of: identifier) }
      return outcome(asked, detail)
    case .refused(let reason):
      deduplicator.endActivation(of: identifier)
      return outcome(.refused, reason)
    case .failed(let reason):
      deduplicator.endActivation(of: identifier)
      return outcome(.failed, reason)
    case .usedUp(let status):
      deduplicator.endActivation(of: identifier)
      _ = try? await post(texts.usedUp(app: app, identifier: identifier))
      return outcome(.usedUp, "\(status.grantsToday) of \(status.rule.maxGrantsPerDay) grants used today")
    case .unavailable:
      deduplicator.endActivation(of: identifier)
      _ = try? await post(texts.closeOnly(app: app, identifier: identifier))
      return outcome(
        .unavailable, "no puzzle handler, no inline reply, and no display or no terminal on PATH to open")
    }
  }

  private func dispatchView(
    _ action: ShieldAction, app: String, view: String, identifier: String, link: String, token: String?
  ) async -> DispatchRecord {
    switch DispatchPlanner(options: options).view(app: app, view: view, identifier: identifier, link: link) {
    case .failure(let refusal):
      return DispatchRecord(action: action, scheme: links.scheme, outcome: .refused, detail: refusal.reason)
    case .success(let argv):
      // Views have activations of their own: a puzzle in flight must not hold them back.
      let activation = "view:" + identifier
      guard deduplicator.beginActivation(of: activation) else {
        return DispatchRecord(action: action, scheme: links.scheme, outcome: .coalesced, detail: "already opening")
      }
      return await launchWatched(argv, token: token, activation: activation, action: action, outcome: .opened)
    }
  }

  /// Starts a puzzle's handler or terminal, or a view's opener, and waits a moment to see that it did not fail at once.
  private func launchWatched(
    _ argv: [String], token: String?, activation: String, action: ShieldAction, outcome: DispatchRecord.Outcome
  ) async -> DispatchRecord {
    let deduplicator = self.deduplicator
    let start = await options.launcher.launch(argv, activationToken: token, grace: .seconds(1)) { _ in
      deduplicator.endActivation(of: activation)
    }
    switch start {
    case .started:
      return DispatchRecord(action: action, scheme: links.scheme, outcome: outcome, detail: argv[0])
    case .failed(let reason):
      // A spawn that failed has no exit to end the activation; one that exited has ended it already.
      deduplicator.endActivation(of: activation)
      return DispatchRecord(action: action, scheme: links.scheme, outcome: .failed, detail: reason)
    }
  }

  private nonisolated func report(_ record: DispatchRecord) {
    options.log(record.logLine)
    try? connection.emit(
      path: ServiceNames.path, interface: ServiceNames.interface, member: ServiceNames.dispatched,
      record.json.serialized)
  }

  // MARK: The inline puzzle

  /// Asks a task in a notification, on the one puzzle path (``PuzzleRun``):
  /// `.inlineReply` when it was posted, or what stood in the way.
  private func askInline(
    app: String?, rule: Rule, identifier: String
  ) async -> (DispatchRecord.Outcome, String) {
    let run: PuzzleRun<SeededRandom>
    do {
      let prepared = try PuzzleRun.prepare(for: rule, in: options.ledger, random: nextRandom())
      for warning in prepared.warnings { options.log("\(warning)") }
      switch prepared.value {
      case .ready(let ready):
        run = ready
      case .usedUp(let status):
        _ = try? await post(texts.usedUp(app: app, identifier: identifier))
        return (.usedUp, "\(status.grantsToday) of \(status.rule.maxGrantsPerDay) grants used today")
      case .notAtLimit(let status):
        _ = try? await post(texts.notAtLimit(app: app, identifier: identifier))
        let refusal = LedgerError.notAtLimit(
          rule: rule.name, grantsToday: status.grantsToday, day: options.ledger.today)
        return (.notAtLimit, refusal.description)
      }
    } catch {
      return (.failed, "\(error)")
    }
    let notification = texts.puzzle(
      app: app, minutes: rule.grantMinutes, task: run.puzzle, afterWrongAnswer: false, replacing: 0)
    guard let id = try? await post(notification) else { return (.failed, "the task could not be posted") }
    puzzles[id] = InlinePuzzle(app: app, rule: rule, identifier: identifier, run: run)
    return (.inlineReply, "")
  }

  private func answer(_ id: UInt32, text: String) async {
    guard var puzzle = puzzles.removeValue(forKey: id) else { return }
    let attempt = puzzle.run.check(text)
    guard case .solved(let solved) = attempt else {
      let wrong = if case .wrong = attempt { true } else { false }
      let again = texts.puzzle(
        app: puzzle.app, minutes: puzzle.rule.grantMinutes, task: puzzle.run.puzzle,
        afterWrongAnswer: wrong, replacing: id)
      if let newID = try? await post(again) {
        puzzles[newID] = puzzle
      } else {
        deduplicator.endActivation(of: puzzle.identifier)
      }
      options.log("puzzle notification \(id): \(wrong ? "wrong answer, new task" : "blank answer")")
      return
    }
    deduplicator.endActivation(of: puzzle.identifier)
    do {
      let outcome = try solved.grant()
      for warning in outcome.warnings { options.log("\(warning)") }
      switch outcome.value {
      case .granted(let grant):
        await meterLoop?.granted(puzzle.rule.name, grantsToday: grant.status.grantsToday)
        await lifted(rule: puzzle.rule.name)
        _ = try? await post(texts.solved(app: puzzle.app, minutes: puzzle.rule.grantMinutes, replacing: id))
        options.log(
          "puzzle solved: \(puzzle.rule.grantMinutes) more minutes for \(puzzle.app ?? "the app") "
            + "(grant \(grant.status.grantsToday) of \(puzzle.rule.maxGrantsPerDay) today)")
      case .usedUp:
        _ = try? await post(texts.usedUp(app: puzzle.app, identifier: puzzle.identifier))
        options.log("puzzle solved, but today's grants were used up meanwhile; nothing was recorded")
      case .notAtLimit:
        _ = try? await post(texts.notAtLimit(app: puzzle.app, identifier: puzzle.identifier))
        options.log("puzzle solved, but \(puzzle.rule.name) is no longer at its limit; nothing was recorded")
      }
    } catch {
      options.log("puzzle solved, but the grant could not be recorded: \(error)")
    }
  }

  /// The rule was unlocked: its shields have done their work.
  ///
  /// A grant is the user acting on the shield, so the next limit shows it
  /// again; and the shields still open for the rule are closed, since a
  /// resident one (servers with `persistence`) would otherwise stay on screen
  /// after its puzzle was solved.
  func lifted(rule: String) async {
    dismissed[rule] = nil
    for (id, shield) in shown where shield.rule == rule {
      try? await client.close(id)
    }
  }

  private func nextRandom() -> SeededRandom {
    SeededRandom(seed: random.next())
  }

  // MARK: Helpers

  /// Posts through the gate: nothing once ``stop()`` began, and stopping waits for what was admitted.
  func post(_ notification: Notification) async throws(ServiceError) -> UInt32 {
    guard gate.enter() else { throw Self.stopping }
    defer { gate.leave() }
    do {
      let id = try await client.post(notification)
      // 0 (notify-osd's answer) names nothing that could be closed later.
      if id != 0 { posted.insert(id) }
      // The server gave the id to a new notification: the old one's history entry is gone.
      closedShields.remove(id)
      return id
    } catch {
      throw ServiceError(.notifications, error.message)
    }
  }

  private static let stopping = ServiceError(.stopping, "the ShieldBridge service is stopping; it takes no new calls")

  private nonisolated func refuseWhenStopping() throws(ServiceError) {
    if gate.isClosed { throw Self.stopping }
  }

  private nonisolated func rule(for app: String?) throws(ServiceError) -> Rule {
    do {
      return try options.configuration.rules.rule(for: app)
    } catch {
      throw ServiceError(.notCovered, error.description)
    }
  }

  private nonisolated func ruleStatus(_ rule: Rule) throws(ServiceError) -> RuleStatus {
    do {
      let result = try options.ledger.status(of: rule)
      for warning in result.warnings { options.log("\(warning)") }
      return result.value
    } catch {
      throw ServiceError(.state, "\(error)")
    }
  }
}
