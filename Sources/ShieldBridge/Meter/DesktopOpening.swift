import Brake
import Desktop
import Log

extension ShieldService.Options {
  /// Opens the desktop `config.json`'s `"desktop"` asks for, and the way down when it is lost.
  ///
  /// Nothing is opened without configured rules (nothing would be metered)
  /// or with `"desktop": "off"`. A forced backend that cannot be opened is
  /// logged and the next one down is taken, as when a backend is lost: i3 or
  /// sway → X11 → the running processes. The service never stops for want of a desktop.
  ///
  /// - Parameter environment: Where `SWAYSOCK`, `I3SOCK` and `DISPLAY` are read.
  public mutating func openDesktop(environment: [String: String]) {
    let rules = configuration.rules
    let choice = configuration.desktop
    guard !rules.isBuiltIn, choice != .off else { return }
    let covers: @Sendable (AppIdentity) -> Bool = { rules.match($0) != nil }
    let log = logger.for("meter")
    do {
      desktop = try choice.open(environment: environment, covers: covers)
    } catch {
      log.warning("the \(choice) desktop cannot be watched: \(error)")
      let lost: Set<DesktopKind> = choice.kind.map { [$0] } ?? []
      desktop = DesktopChoice.fallback(after: lost, environment: environment, covers: covers, log: log)
    }
    fallbackDesktop = { lost in
      DesktopChoice.fallback(after: lost, environment: environment, covers: covers, log: log)
    }
  }
}

extension DesktopChoice {
  /// The order a lost backend falls back in: X11 (the display may outlive its window manager), then processes.
  static let fallbackOrder: [DesktopChoice] = [.x11, .processes]

  /// The first backend down the line that is not among the `lost` and opens.
  static func fallback(
    after lost: Set<DesktopKind>, environment: [String: String], covers: @escaping @Sendable (AppIdentity) -> Bool,
    log: Logger
  ) -> (any DesktopBackend)? {
    for choice in fallbackOrder {
      guard let kind = choice.kind, !lost.contains(kind) else { continue }
      do {
        if let backend = try choice.open(environment: environment, covers: covers) { return backend }
      } catch {
        log.warning("cannot fall back to \(choice): \(error)")
      }
    }
    return nil
  }
}
