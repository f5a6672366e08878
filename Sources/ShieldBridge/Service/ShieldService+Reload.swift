import Config
import Model
import Posix
import ShieldCore

extension ShieldService {
  /// The options in force: those the service started with, with the configuration last read.
  nonisolated var options: Options {
    var options = startOptions
    options.configuration = currentConfiguration.withLock { $0 }
    return options
  }

  /// Starts watching ``Options/configurationPath``, when there is one, and the ledger.
  ///
  /// A grant another process records (the terminal task, the browser's
  /// shield page) reaches the core as the ledger it wrote, at once.
  func watchFiles() {
    let ledger = startOptions.ledger
    let inbox = self.inbox
    do {
      ledgerWatcher = try FileWatcher(path: ledger.path, label: "the ledger", log: log) {
        guard let loaded = try? ledger.load() else { return }
        inbox.yield(Envelope(.ledger(loaded.value), at: .now(wall: ledger.clock)))
      }
    } catch {
      log.warning("the ledger is not watched (\(error)); grants from other processes count from the next start")
    }
    guard let path = startOptions.configurationPath else { return }
    do {
      configurationWatcher = try FileWatcher(path: path, label: "config.json", log: log) { [weak self] in
        Task { await self?.reloadConfiguration() }
      }
    } catch {
      log.warning("config.json is not watched (\(error)); changes take effect at the next start")
    }
  }

  /// Reads ``Options/configurationPath`` again and puts it in force.
  ///
  /// A good file replaces the views and handlers at once, and the rules as
  /// far as it tightens them; what it loosens waits for the next day's start
  /// (``RulesInForce``), and the log says so. The meter is rebuilt from the
  /// ledger with the rules in force, each with the day of the rules it takes
  /// over (``Model/RuleSet/change(to:)``), and the first rules open the
  /// desktop, so that what a reload reaches is what a start with the same
  /// files reaches. A file that cannot be
  /// used (broken JSON, a bad rule) keeps the configuration in force, and the
  /// log says why. A removed file puts the defaults back, as at a start
  /// without one (today's rules stay in force). What the running service
  /// cannot change is kept as it
  /// was, and the log says that a restart is needed: the link scheme (the
  /// links already posted, and the router, use it), `desktop` and
  /// `idleMinutes` (the backend was opened with them).
  ///
  /// - Returns: Whether a new configuration was put in force.
  @discardableResult
  public func reloadConfiguration() async -> Bool {
    guard let path = startOptions.configurationPath, !gate.isClosed else { return false }
    let loaded: LoadedConfiguration
    do {
      loaded = try Configuration.load(from: path)
    } catch {
      log.error("config.json changed but cannot be used, so the last good one stays in force: \(error)")
      return false
    }
    for warning in loaded.warnings { log.warning("\(warning)") }
    var new = loaded.configuration
    let old = currentConfiguration.withLock { $0 }
    let configured = new.rules
    let change = old.rules.change(to: configured)
    new.rules = change.rules
    let changed = configured != configuredRules
    configuredRules = configured
    guard new != old || changed else { return false }
    var needsRestart: [String] = []
    if new.scheme != old.scheme {
      needsRestart.append("the scheme")
      new.scheme = old.scheme
    }
    if new.desktop != old.desktop { needsRestart.append("\"desktop\"") }
    if new.idleMinutes != old.idleMinutes { needsRestart.append("\"idleMinutes\"") }
    // The day start the ledger store and the meter were given at the start.
    if new.dayStartsAt != old.dayStartsAt {
      needsRestart.append("\"dayStartsAt\" (then from the next day's start)")
      new.dayStartsAt = old.dayStartsAt
    }
    currentConfiguration.withLock { $0 = new }
    if new.weeklySummary != old.weeklySummary { await tellWeeklySummary() }
    if new.rules != old.rules {
      await settle(.rulesReplaced(change, Self.storedLedger(options)))
      // The ledger has them (the core's save), then the file.
      keepRulesInForce()
      await meter(new.rules)
    }
    let rules = new.rules.isBuiltIn ? "the built-in rule" : new.rules.rules.map(\.name).joined(separator: ", ")
    log.notice("config.json reloaded from \(loaded.path): rules \(rules)")
    if changed && new.rules != configured {
      log.notice(
        "config.json loosens the rules: that takes effect at the next day's start ('shieldbridge status' says what)")
    }
    if !needsRestart.isEmpty {
      log.warning(
        "config.json: kept until the service restarts (systemctl --user restart shieldbridge): "
          + needsRestart.joined(separator: ", "))
    }
    return true
  }

  /// Stores what the service starts from: the rules in force with the
  /// counts they took over, in the ledger in one write, then in the file.
  func keepStartingRules() {
    // The built-in rule alone has nothing to keep: no copy says what the configuration says.
    if !core.rules.isBuiltIn, let starting = core.startingSave(at: instant()) { _ = save(starting) }
    keepRulesInForce()
  }

  /// Writes the rules in force on `day` (today by default) to
  /// ``RulesInForce``'s file, so that a restart, the terminal task and the
  /// browser's host keep them also without the ledger's copy (which the
  /// core's saves write).
  func keepRulesInForce(day: LocalDay? = nil) {
    let store = startOptions.ledger
    let held = RulesInForce(day: day ?? store.today, rules: options.configuration.rules)
    do {
      try held.save(to: RulesInForce.path(in: store))
    } catch {
      log.warning("cannot keep today's rules in \(error.path) (\(error.errno)): a restart today may loosen them")
    }
  }

  /// A new day: the rules as config.json says them are in force from now on.
  func beginDay(_ day: LocalDay) -> [ShieldInput] {
    let inForce = options.configuration.rules
    let configured = configuredRules
    currentConfiguration.withLock { $0.rules = configured }
    keepRulesInForce(day: day)
    guard configured != inForce else { return [] }
    log.notice("a new day: config.json's rules are in force as it says them")
    return [.rulesReplaced(RuleChange(rules: configured), Self.storedLedger(options))]
  }
}
