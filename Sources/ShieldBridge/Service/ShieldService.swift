public import Config
public import DBus
import DeepLink
public import Desktop
import JSON
public import Localization
public import Log
public import Model
public import Notifications
import Posix
import ShieldCore
public import Store
import Synchronization

/// The service: shield → notification → click → route → puzzle or app view.
///
/// It owns `org.shieldbridge.ShieldBridge` on its bus and exports
/// `org.shieldbridge.ShieldBridge1` (`Shield(s app) → u`, `Open(s link) → s`,
/// `Status() → s`, `Usage() → s`, `SiteFocus(s site, u browserPid, b windowFocused) → s`, and the signals `Dispatched(s record)`,
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
    /// Whether the service leaves the notification server's name to the desktop's own server
    /// for a while after its start (``ServerActivation/desktopWait(from:bound:)``), as `serve`
    /// does; otherwise every call may have the bus start one (docs/reference/notifications.md, "Which server").
    public var waitsForDesktopNotifications = false
    /// How long ``ShieldService/stop()`` waits for the posts still in flight
    /// before it closes what was posted.
    public var stopTimeout: Duration
    /// The desktop the meter watches, opened by the caller; `nil`: the one
    /// ``openingDesktop`` opens, or none (no meter).
    public var desktop: (any DesktopBackend)?
    /// Opens the desktop the meter watches when there are rules in force to
    /// meter, at the start or at the first reload that brings rules (`serve`
    /// sets it, ``openDesktop(environment:)``); `nil`: only ``desktop``.
    public var openingDesktop: (@Sendable () -> (any DesktopBackend)?)?
    /// The rules in force as the backends ``openingDesktop`` opens see them.
    public let coverage = DesktopCoverage()
    /// Opens the backend to go on with when the desktop is lost, given every
    /// kind lost so far; `nil` (the default, or its answer) goes on without one.
    public var fallbackDesktop: (@Sendable (_ lost: Set<DesktopKind>) async -> (any DesktopBackend)?)?
    /// The meter's timings: idle limit, the length of a minute, the save interval, the grace periods.
    public var meter: MeterSettings
    /// Where the service logs: its own lines under the logger's subsystem, the
    /// meter's under `meter`, the desktop's under `desktop.KIND` (stderr for `serve`).
    public var logger: Logger
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
      meter: MeterSettings? = nil, configurationPath: String? = nil, logger: Logger
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
      self.logger = logger
    }
  }

  public nonisolated let connection: Connection
  public nonisolated let client: NotificationClient
  /// The options the service started with; the configuration in them is the first one.
  nonisolated let startOptions: Options
  /// The service's own log lines.
  nonisolated var log: Logger { startOptions.logger }
  /// The meter's log lines (`meter`).
  nonisolated var meterLog: Logger { startOptions.logger.for("meter") }
  /// The configuration in force: the last good one read (see ``reloadConfiguration()``),
  /// its rules tightened by today's (``RulesInForce``).
  nonisolated let currentConfiguration: Mutex<Configuration>
  /// The rules as config.json says them; in force from the next day's start.
  var configuredRules: RuleSet
  /// Watches `config.json` while the service runs; `nil` without ``Options/configurationPath``.
  var configurationWatcher: FileWatcher?
  /// Watches the ledger, so that grants other processes record reach the core.
  var ledgerWatcher: FileWatcher?
  /// Why the last save of the meter failed; `nil` while saves succeed. The log says each refusal once.
  var ledgerRefusal: LedgerError?
  /// Why the last write of the history failed; `nil` while writes succeed. The log says each refusal once.
  var historyRefusal: LedgerError?
  nonisolated let router: Router<ShieldAction>
  nonisolated let links: LinkConfiguration
  nonisolated let texts: ShieldTexts
  /// Every decision; only the loop touches it (see ShieldService+Loop.swift).
  var core: ShieldCore
  /// Where every input goes: the one loop takes them in order.
  nonisolated let inbox: AsyncStream<ShieldService.Envelope>.Continuation
  let inputs: AsyncStream<ShieldService.Envelope>
  var loop: Task<Void, Never>?
  /// The callers waiting for the answer to what they asked, by the key the core carries.
  var answers: [PostKey: CheckedContinuation<Answer, Never>] = [:]
  var nextCallerKey: UInt64 = 0
  /// Every notification posted and not known to be closed: shields, tasks and results alike.
  var posted: Set<UInt32> = []
  /// Admits the posts; ``stop()`` closes it.
  nonisolated let gate = StopGate()
  private var listener: Task<Void, Never>?
  /// The desktop watched, and what it counts with (see ShieldService+Meter.swift).
  var backend: (any DesktopBackend)?
  /// ``Options/desktop`` while it is not watched yet (no rules to meter).
  var unwatchedDesktop: (any DesktopBackend)?
  /// Whether the meter runs, and why not.
  var meterState = MeterState.starting
  /// Counts the backends started, so that a late event of a lost one is dropped.
  var generation = 0
  var lostKinds: Set<DesktopKind> = []
  var reader: Task<Void, Never>?
  var timer: Task<Void, Never>?
  /// When ``timer`` fires, on the monotonic clock.
  var timerDeadline: MonotonicTime?
  /// A timer deadline missed by far (the process was stopped), not yet told
  /// to the core; and the last one told, so that it is told once.
  var missedDeadline: MonotonicTime?
  var toldMissedDeadline: MonotonicTime?
  /// The boot clock's offset from the kernel's uptime as last logged (``BootCheck/offset``): told once per change.
  var toldBootOffset: Int64 = 0
  var escalation: CloseEscalation
  var stopped = false
  /// What the panels were last told (`GlanceChanged`), for `Glance()`.
  var glance: Glance?
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
    // Today's rules, which config.json loosens only from tomorrow, also across a restart.
    var options = options
    let configured = options.configuration.rules
    let change = RulesInForce.resolved(configured: configured, store: options.ledger).change
    options.configuration.rules = change.rules
    do {
      let service = try await starting(
        on: connection, options: options, configured: configured, takeOver: change.takeOver)
      await service.keepStartingRules()
      await service.startLoop()
      await service.startMeter()
      await service.watchFiles()
      await service.tellWeeklySummary()
      return service
    } catch {
      options.desktop?.stop()
      throw error
    }
  }

  private static func starting(
    on connection: Connection, options: Options, configured: RuleSet, takeOver: [String: [String]]
  ) async throws(ServiceError) -> ShieldService {
    let links: LinkConfiguration
    do {
      links = try LinkConfiguration(scheme: options.configuration.scheme)
    } catch {
      throw ServiceError(.badLink, "the scheme in config.json cannot be used: \(error.message)")
    }
    let client: NotificationClient
    do {
      client = try await NotificationClient(
        connection: connection, timeout: options.notificationTimeout,
        activation: options.waitsForDesktopNotifications ? .desktopWait(from: .now) : .always)
    } catch {
      throw ServiceError(.bus, "cannot follow the notification server: \(error.message)")
    }
    let service = ShieldService(
      connection: connection, client: client, options: options, links: links, configured: configured,
      takeOver: takeOver)
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

  private init(
    connection: Connection, client: NotificationClient, options: Options, links: LinkConfiguration,
    configured: RuleSet, takeOver: [String: [String]]
  ) {
    self.connection = connection
    configuredRules = configured
    self.client = client
    startOptions = options
    currentConfiguration = Mutex(options.configuration)
    self.links = links
    router = Router(configuration: links)
    texts = ShieldTexts(localizer: options.localizer)
    var settings = ShieldCore.Settings(
      calendar: .system, idleLimit: options.meter.idleLimit, minuteLength: options.meter.minuteLength,
      saveInterval: options.meter.saveInterval, doubleClickWindow: options.doubleClickWindow,
      closedShieldsKept: Self.closedShieldsKept, puzzleSeed: options.puzzleSeed ?? UInt64.random(in: .min ... .max),
      bootID: options.ledger.clock.bootID())
    settings.dayStart = options.ledger.dayStart
    let stored = Self.readLedger(options)
    core = ShieldCore(
      rules: options.configuration.rules, ledger: stored.ledger, takeOver: takeOver,
      history: Self.storedHistory(options, beside: stored.ledger),
      settings: settings, links: links,
      now: .now(wall: options.ledger.clock))
    ledgerRefusal = stored.refusal
    escalation = CloseEscalation(closeGrace: options.meter.closeGrace, killGrace: options.meter.killGrace)
    unwatchedDesktop = options.desktop
    (inputs, inbox) = AsyncStream.makeStream(of: Envelope.self)
  }

  /// Whether the meter runs, and why not (see ShieldService+Meter.swift).
  enum MeterState: Hashable, Sendable {
    /// Not started yet.
    case starting
    /// A desktop is watched.
    case watching
    /// The built-in rule alone is in force: nothing to meter.
    case offWithoutRules
    /// Rules are in force, but no desktop could be opened (or `"desktop": "off"`).
    case offWithoutDesktop
    /// The desktop was lost with nothing to fall back on: until the service restarts.
    case lost
  }

  /// How many closed shields keep their links.
  static let closedShieldsKept = 16

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
    ledgerWatcher?.stop()
    ledgerWatcher = nil
    stopMeter()
    forgetSiteCallers()
    gate.close()
    _ = try? await connection.releaseName(ServiceNames.busName)
    if !(await gate.drained(within: options.stopTimeout)) {
      log.warning("stopping without the answer to some notifications after \(options.stopTimeout)")
    }
    inbox.finish()
    await loop?.value
    loop = nil
    saveAtStop()
    for (_, waiting) in answers { waiting.resume(returning: .stopping) }
    answers = [:]
    // A close is a round trip; a post that ends meanwhile adds its id, which this loop then takes.
    while let id = posted.popFirst() {
      try? await client.close(id)
    }
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
    // A ledger that cannot be read is this caller's error, said before anything is posted;
    // whether the grants are used up is the core's to say.
    _ = try ruleStatus(rule)
    switch await ask({ .shieldAsked(app: app, rule: rule.name, key: $0) }) {
    case .posted(.success(let id)): return id
    case .posted(.failure(let error)): throw error
    case .record, .done, .stopping: throw Self.stopping
    }
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
    switch await ask({ .linkOpened(resolution.action, link: link, key: $0) }) {
    case .record(let record): return record
    case .posted, .done, .stopping: throw Self.stopping
    }
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
      ServiceInterface.contract,
      methods: [
        Method(
          ServiceInterface.shield,
          async: { [weak self] _, app in
            guard let self else { throw Self.stopped }
            do throws(ServiceError) { return try await self.shield(app: app) } catch { throw error.dbusError }
          }),
        Method(
          ServiceInterface.open,
          async: { [weak self] _, link in
            guard let self else { throw Self.stopped }
            do throws(ServiceError) { return try await self.open(link).json.serialized } catch {
              throw error.dbusError
            }
          }),
        Method(ServiceInterface.status) { [weak self] _ in
          guard let self else { throw Self.stopped }
          do throws(ServiceError) { return try self.status().json.serialized } catch { throw error.dbusError }
        },
        Method(
          ServiceInterface.usage,
          async: { [weak self] _ in
            guard let self else { throw Self.stopped }
            return await self.usage().json.serialized
          }),
        Method(
          ServiceInterface.glance,
          async: { [weak self] _ in
            guard let self else { throw Self.stopped }
            return Glance.json(await self.glance)
          }),
        Method(
          ServiceInterface.siteFocus,
          async: { [weak self] call, site, pid, windowFocused in
            guard let self else { throw Self.stopped }
            return try await self.siteFocus(
              site, browserPID: pid, windowFocused: windowFocused, caller: call.sender)
          }),
      ])
  }

  /// The answer to a call that arrives while the service is being released.
  private static let stopped = DBusError(.failed, "the service is stopping")

  // MARK: Clicks

  /// Hands what the notification server sends to the loop, with the
  /// activation token a click came with.
  private func listen() {
    let events = client.events()
    let inbox = self.inbox
    let clock = startOptions.ledger.clock
    listener = Task { [weak self] in
      var tokens: [UInt32: String] = [:]
      for await event in events {
        switch event {
        case .activationToken(let id, let token):
          tokens[id] = token
        case .action(let id, let key) where key == ShieldService.weekActionKey:
          // The weekly summary's button is the service's own, not the core's.
          self?.openWeek(activationToken: tokens.removeValue(forKey: id))
        case .action(let id, let key):
          inbox.yield(Envelope(.action(id: id, key: key, token: tokens.removeValue(forKey: id)), at: .now(wall: clock)))
        case .replied(let id, let text):
          inbox.yield(Envelope(.replied(id: id, text: text), at: .now(wall: clock)))
        case .closed(let id, let reason):
          tokens[id] = nil
          inbox.yield(Envelope(.closed(id: id, byUser: reason == .dismissed), at: .now(wall: clock)))
        }
      }
    }
  }

  private func stopListening() {
    listener?.cancel()
    listener = nil
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
      return id
    } catch {
      throw ServiceError(.notifications, error.message)
    }
  }

  static let stopping = ServiceError(.stopping, "the ShieldBridge service is stopping; it takes no new calls")

  private nonisolated func refuseWhenStopping() throws(ServiceError) {
    if gate.isClosed { throw Self.stopping }
  }

  nonisolated func rule(for app: String?) throws(ServiceError) -> Rule {
    do {
      return try options.configuration.rules.rule(for: app)
    } catch {
      throw ServiceError(.notCovered, error.description)
    }
  }

  nonisolated func ruleStatus(_ rule: Rule) throws(ServiceError) -> RuleStatus {
    do {
      let result = try options.ledger.status(of: rule)
      for warning in result.warnings { log.warning("\(warning)") }
      return result.value
    } catch {
      throw ServiceError(.state, "\(error)")
    }
  }
}
