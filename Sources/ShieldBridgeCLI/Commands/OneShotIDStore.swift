import Notifications

/// Where a one-shot post remembers the ids of its identifiers: the file in
/// `$XDG_RUNTIME_DIR/shieldbridge/`, so that the next run replaces the
/// notification, or memory when that file cannot be used (with a warning).
struct OneShotIDStore {
  let store: any NotificationIDStore
  private let file: FileIDStore?
  private let command: String

  /// The store for `command` (`notify`, `locales preview`), named in its warnings.
  init(command: String) {
    self.command = command
    do {
      let standard = try FileIDStore.standard()
      store = standard
      file = standard
    } catch {
      Output.err(
        "shieldbridge \(command): warning: \(error.message); identifiers cannot replace across runs")
      store = MemoryIDStore()
      file = nil
    }
  }

  /// Warns when the identifier of the last post could not be remembered.
  func reportFailure() {
    if let failure = file?.lastError {
      Output.err(
        "shieldbridge \(command): warning: the identifier was not remembered: \(failure.message)")
    }
  }
}
