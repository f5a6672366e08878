public import DBus
import Dispatch
import JSON
public import Localization
public import Log
public import Model
public import Posix
import ShieldCore
import Spawn
public import Store

/// `shieldbridge native-host`: the browser extension's side of ShieldBridge.
///
/// It reads native-messaging frames from the browser (``NativeMessageReader``),
/// answers with frames (``NativeMessageWriter``) and relays the site in front
/// to the service's `SiteFocus`, starting the service through D-Bus
/// activation when it is not running. It follows `LimitReached` and
/// `Unlocked` from the service's current owner only, and the service's
/// restarts, and then asks again, so that the browser learns at once that its
/// site is shielded or unlocked; an `Unlocked` is also passed on as an
/// `"unlocked"` message, so that a shield page of that rule, which reports no
/// site, says so and goes back. The puzzle of the shield page runs here,
/// on the one puzzle path (``PuzzleRun``) the terminal puzzle and the
/// service take too, so its grant is recorded only at the limit; the texts
/// come from the catalogs, in the language the extension's `hello` names.
///
/// Focus messages are coalesced: only a change of site (or of the browser's
/// own focus) reaches the service (the same again is answered with the
/// service's last state for it),
/// at most one call per ``Options/focusInterval``, and a focus message that a
/// newer one overtook before its answer gets none (the newer one's answer
/// stands for both). The service keeps one site per host, so no flood can
/// make it count twice. Input waits for the message before it is handled,
/// one at a time, so a fast browser cannot fill the host's memory.
public actor NativeHost {
  /// What the host works with; tests set their own descriptors and bus.
  public struct Options: Sendable {
    public var bus: Connection.Bus
    public var input: FileDescriptor
    public var output: FileDescriptor
    /// The browser's process id, passed to `SiteFocus` (the host's parent).
    public var browserPID: Int32
    /// The rules at the start; ``reloadRules`` may give newer ones.
    public var rules: RuleSet
    /// Reads config.json again for each task asked (`nil`, or its `nil`: keep ``rules``),
    /// so that a site added meanwhile has its puzzle without a new host.
    public var reloadRules: (@Sendable () -> RuleSet?)?
    public var ledger: LedgerStore
    /// The catalogs' folder; located from the environment when `nil`.
    public var catalogDirectory: CatalogDirectory?
    /// The least time between two `SiteFocus` calls for focus messages.
    public var focusInterval: Duration
    /// How long a call to the service may take (its activation included).
    public var callTimeout: Duration
    /// Makes the tasks repeatable; random when `nil`.
    public var puzzleSeed: UInt64?
    /// The longest message taken from the browser.
    public var inputLimit: Int
    /// Where the host logs: stderr, which browsers keep in their log.
    public var logger: Logger
    /// The `config.json` that `limitSite` writes, as `rules add-site` does; `nil` refuses it.
    public var configurationPath: String?

    public init(
      bus: Connection.Bus, input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput,
      browserPID: Int32, rules: RuleSet, reloadRules: (@Sendable () -> RuleSet?)? = nil, ledger: LedgerStore,
      catalogDirectory: CatalogDirectory? = nil,
      focusInterval: Duration = .milliseconds(100), callTimeout: Duration = .seconds(10), puzzleSeed: UInt64? = nil,
      inputLimit: Int = NativeMessageReader.defaultLimit, logger: Logger, configurationPath: String? = nil
    ) {
      self.configurationPath = configurationPath
      self.bus = bus
      self.input = input
      self.output = output
      self.browserPID = browserPID
      self.rules = rules
      self.reloadRules = reloadRules
      self.ledger = ledger
      self.catalogDirectory = catalogDirectory
      self.focusInterval = focusInterval
      self.callTimeout = callTimeout
      self.puzzleSeed = puzzleSeed
      self.inputLimit = inputLimit
      self.logger = logger
    }
  }

  /// Why the host ended.
  public enum End: Hashable, Sendable {
    /// The browser closed stdin: the normal end.
    case inputClosed
    /// The stream of frames broke (a length over the limit, a cut frame, a failed read); the text says how.
    case badInput(String)
    /// The browser stopped reading (stdout closed).
    case outputClosed(String)
  }

  enum Event: Sendable {
    case message([UInt8])
    case inputEnded
    case inputFailed(NativeMessageError)
    /// `LimitReached` or `Unlocked` from the service.
    case serviceChanged
    /// `Unlocked(rule, minutes)` from the service: a grant made anywhere lifted the rule.
    case unlocked(rule: String)
    /// A new owner of the service's name.
    case serviceStarted(BusName)
    /// The service's name has no owner any more.
    case serviceStopped
    /// The coalesced focus is due.
    case focusDue
  }

  /// A task the shield page shows.
  struct OpenPuzzle {
    var id: Int
    var site: Site
    var match: AppMatch
    var run: PuzzleRun<SeededRandom>
    /// The requests for more time for the rule today, this one included (``PuzzleRun/ask()``).
    var asked: Int
    /// When the task was asked: no answer is taken before the rule's pause ran (``Model/Pause``).
    var askedAt: MonotonicTime? = .now
  }

  let options: Options
  let writer: NativeMessageWriter
  let events: AsyncStream<Event>
  let eventSink: AsyncStream<Event>.Continuation
  var connection: Connection?
  var subscriptions: [SignalSubscription] = []
  var tracker: NameOwnerTracker?
  var localizer: Localizer
  var random: SeededRandom

  /// What the browser said last and was not yet answered.
  var wanted: BrowserFront?
  /// What the service was told last, once told.
  var told: BrowserFront?
  /// The service's last answer for ``told``; a focus message for the same site is answered with it.
  var lastState: JSONValue?
  /// The unique name of the service that gave ``lastState``.
  var answeredBy: BusName?
  var lastCall: MonotonicTime?
  var focusTimer: Task<Void, Never>?
  var puzzle: OpenPuzzle?
  /// The ways out counted, once per shield shown.
  var wayOuts = WayOut.Tally()
  var nextPuzzleID = 1
  /// Set when output failed: the browser is gone.
  var outputFailure: String?

  init(options: Options) {
    self.options = options
    writer = NativeMessageWriter(descriptor: options.output)
    (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    localizer = Localizer.current(directory: options.catalogDirectory)
    random = SeededRandom(seed: options.puzzleSeed ?? UInt64.random(in: .min ... .max))
  }

  /// Serves the browser until it closes stdin or the stream breaks.
  public static func run(_ options: Options) async -> End {
    let host = NativeHost(options: options)
    return await host.serve()
  }

  private func serve() async -> End {
    await connect()
    // The reader waits for each message to be handled before it reads the
    // next: one message in memory at a time, whatever the browser sends.
    let handled = DispatchSemaphore(value: 0)
    let reader = NativeMessageReader(descriptor: options.input, limit: options.inputLimit)
    let sink = eventSink
    detachThread {
      while true {
        do throws(NativeMessageError) {
          guard let body = try reader.next() else {
            sink.yield(.inputEnded)
            return
          }
          sink.yield(.message(body))
          handled.wait()
        } catch {
          sink.yield(.inputFailed(error))
          return
        }
      }
    }
    defer { stopFollowing() }
    for await event in events {
      switch event {
      case .message(let body):
        await handle(body)
        handled.signal()
      case .inputEnded:
        return .inputClosed
      case .inputFailed(let error):
        options.logger.error(error.description)
        return .badInput(error.description)
      case .serviceChanged:
        await serviceChanged()
      case .unlocked(let rule):
        unlocked(rule: rule)
      case .serviceStarted(let owner):
        // The service this host's own call just started already has the site.
        if owner != answeredBy { await serviceChanged() }
      case .serviceStopped:
        serviceStopped()
      case .focusDue:
        focusTimer = nil
        await flushFocus()
      }
      if let outputFailure { return .outputClosed(outputFailure) }
    }
    return .inputClosed
  }

  // MARK: Output

  /// Writes one message to the browser; a failure ends the host (the browser stopped reading).
  func send(_ message: JSONValue) {
    guard outputFailure == nil else { return }
    do {
      try writer.write(message)
    } catch {
      outputFailure = "cannot write to the browser: \(error)"
      options.logger.error(outputFailure ?? "")
    }
  }

  static func error(_ message: String) -> JSONValue {
    .object([("type", .string("error")), ("message", .string(message))])
  }

  /// Logs a message the host could not take and tells the browser; the host goes on.
  func refuse(_ message: String) {
    options.logger.warning(message)
    send(Self.error(message))
  }
}
