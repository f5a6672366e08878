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
      // Only the days the save has figures of are read and written; the other days' lines are copied.
      let days = HistoryFigures.days(of: save, ledger: ledger, today: today)
      let warnings = try store.update(days: days, keeping: configuration.historyDays, today: today) { history in
        HistoryFigures.record(
          save, ledger: ledger, rules: configuration.rules, today: today, into: &history)
      }
      for warning in warnings { meterLog.warning("\(warning)") }
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
  /// shown of the days the ledger holds, and the days beside today, which
  /// the meter's day may be); empty when it cannot be read, as the log says.
  /// The other days are not read: the service's memory does not grow with `historyDays`.
  static func storedHistory(_ options: Options, beside ledger: Ledger) -> History {
    let today = LocalDay.containing(options.ledger.clock.now())
    let days = HistoryFigures.days(of: ledger, today: today)
    let first = min(days.min() ?? today, today.adding(days: -1) ?? today)
    let last = max(days.max() ?? today, today.adding(days: 1) ?? today)
    do {
      let loaded = try HistoryStore(beside: options.ledger).load(only: first...last)
      for warning in loaded.warnings { options.logger.for("meter").warning("\(warning)") }
      return loaded.value
    } catch {
      options.logger.for("meter").warning("the history cannot be read (\(error)); the split by app starts again")
      return History()
    }
  }
}
