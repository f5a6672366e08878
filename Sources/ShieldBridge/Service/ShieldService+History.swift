import Model
import ShieldCore
import Store

extension ShieldService {
  /// Writes the history (`history.json`) beside the ledger the meter has just
  /// saved: no timer of its own. A history that cannot be written is said
  /// in the log once per refusal; the ledger and the meter go on as before.
  func saveHistory(_ save: ShieldEffect.Save, ledger: Ledger) {
    let configuration = currentConfiguration.withLock { $0 }
    let today = core.meter.day
    let store = HistoryStore(beside: options.ledger)
    do {
      let result = try store.update(keeping: configuration.historyDays, today: today) { history in
        HistoryFigures.record(
          save, ledger: ledger, rules: configuration.rules, today: today, into: &history)
      }
      for warning in result.warnings { meterLog.warning("\(warning)") }
      if historyRefusal != nil {
        historyRefusal = nil
        meterLog.notice("the history is written again: \(store.path)")
      }
    } catch {
      if historyRefusal != error {
        historyRefusal = error
        meterLog.warning("cannot write the history: \(error); the ledger and the meter are not affected")
      }
    }
  }

  /// The history the core starts from (the split by app and the shields
  /// shown of the days the ledger holds); empty when it cannot be read, as the log says.
  static func storedHistory(_ options: Options) -> History {
    do {
      let loaded = try HistoryStore(beside: options.ledger).load()
      for warning in loaded.warnings { options.logger.for("meter").warning("\(warning)") }
      return loaded.value
    } catch {
      options.logger.for("meter").warning("the history cannot be read (\(error)); the split by app starts again")
      return History()
    }
  }
}
