import Desktop
import Log
public import Model
import Synchronization

extension ShieldService.Options {
  /// Gets ready to open the desktop `config.json`'s `"desktop"` asks for, and the way down when it is lost.
  ///
  /// The service opens it when there are rules in force to meter: at its
  /// start, or at the first reload that brings rules (a service started at
  /// log-in before `config.json` existed meters from the moment `setup`
  /// writes it). Nothing is opened with `"desktop": "off"`. A forced backend
  /// that cannot be opened is logged and the next one down is taken, as when
  /// a backend is lost: i3 or sway → X11 → the running processes. The
  /// service never stops for want of a desktop.
  ///
  /// - Parameter environment: Where `SWAYSOCK`, `I3SOCK` and `DISPLAY` are read.
  public mutating func openDesktop(environment: [String: String]) {
    let choice = configuration.desktop
    guard choice != .off else { return }
    let coverage = self.coverage
    let covers: @Sendable (AppIdentity) -> Bool = { coverage.covers($0) }
    let log = logger.for("meter")
    openingDesktop = {
      do {
        return try choice.open(environment: environment, covers: covers)
      } catch {
        log.warning("the \(choice) desktop cannot be watched: \(error)")
        let lost: Set<DesktopKind> = choice.kind.map { [$0] } ?? []
        return DesktopChoice.fallback(after: lost, environment: environment, covers: covers, log: log)
      }
    }
    fallbackDesktop = { lost in
      DesktopChoice.fallback(after: lost, environment: environment, covers: covers, log: log)
    }
  }
}

/// The rules in force, as the desktop backends opened by
/// ``ShieldService/Options/openDesktop(environment:)`` see them: the service
/// puts each change in force here too, so that a backend that reports only
/// covered apps (the running processes) reports what the rules now cover.
public final class DesktopCoverage: Sendable {
  private let rules: Mutex<RuleSet>

  public init(_ rules: RuleSet = .builtIn) {
    self.rules = Mutex(rules)
  }

  /// Whether a rule in force covers the app.
  public func covers(_ app: AppIdentity) -> Bool {
    rules.withLock { $0.match(app) != nil }
  }

  /// Puts `rules` in force for the backends.
  public func update(_ rules: RuleSet) {
    self.rules.withLock { $0 = rules }
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
