import Config
import Localization
import Model
import ShieldBridge
import Store

// How configuration and state problems end a command: a clear message and an
// exit status from sysexits.h (78 for the configuration, 74 for the state).

extension CommandFailure {
  /// `EX_CONFIG`: the file, key path and problem.
  init(_ error: ConfigurationError) {
    self.init(
      .configRefused(file: error.file, key: error.keyPath, problem: ConfigurationText.problem(error)),
      exitCode: .configError)
  }

  /// `EX_IOERR` for the state directory; `EX_TEMPFAIL` when another process
  /// holds the lock, or a grant must wait (used up, not at the limit).
  init(_ error: LedgerError) {
    switch error {
    case .lockTimeout(let path): self.init(.ledgerLocked(path: path), exitCode: .tryAgain)
    case .noStateDirectory: self.init(CommandMessage(.noStateDirectory), exitCode: .ioError)
    // not in the catalogs: the puzzle's refusals and the file system's, in Store's words.
    case .grantsUsedUp, .notAtLimit, .inDowntime: self.init(error.description, exitCode: .tryAgain)
    // not in the catalogs: as above.
    default: self.init(error.description, exitCode: .ioError)
    }
  }

  /// `EX_CONFIG` when no rule covers the app; a usage error when an app must be named.
  init(_ error: RuleLookupError) {
    switch error {
    case .notCovered(let app): self.init(CommandMessage(.notCovered, ["app": app]), exitCode: .configError)
    case .noApp(let rules):
      self.init(CommandMessage(.appNeeded, ["rules": Output.list(rules)]), exitCode: .usage)
    }
  }
}

/// Loads `config.json`, printing its warnings to stderr.
func loadConfiguration() throws(CommandFailure) -> Configuration {
  do {
    let loaded = try Configuration.load()
    for warning in loaded.warnings { Output.warn(warning) }
    return loaded.configuration
  } catch {
    throw CommandFailure(error)
  }
}

/// The user's ledger store, its days beginning at `dayStart` (the `dayStartsAt`
/// of the configuration the command read: `config.json` is read once per command).
func standardLedgerStore(dayStart: ClockTime) throws(CommandFailure) -> LedgerStore {
  do {
    return try LedgerStore.standard(dayStart: dayStart)
  } catch {
    throw CommandFailure(error)
  }
}

/// The ledger in `store`, its warnings printed.
func loadLedger(_ store: LedgerStore) throws(CommandFailure) -> Ledger {
  do {
    let loaded = try store.load()
    report(loaded.warnings)
    return loaded.value
  } catch {
    throw CommandFailure(error)
  }
}

/// Prints what the ledger reported while it went on (a damaged file kept aside).
func report(_ warnings: [LedgerWarning]) {
  for warning in warnings { Output.warn(warning) }
}
