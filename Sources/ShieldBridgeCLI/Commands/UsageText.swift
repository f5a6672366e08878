import Desktop
import Localization

/// How `shieldbridge status` writes a rule's time: durations in words, a
/// plain text bar, and which source counts.
///
/// Pure functions of whole seconds, so that the wording is tested without a
/// desktop or a clock. The bar is ASCII of a fixed width (no colours, no
/// block characters): it reads the same in a pipe, a log and every terminal.
enum UsageText {
  /// How many cells the bar has between its brackets.
  static let barWidth = 20

  /// `3 min 10 s`, `10 min`, `45 s`, `1 h 5 min`, `0 s`: the parts that are not zero, largest first.
  ///
  /// A negative count (which no ledger should hold) is written as `0 s`.
  /// The units are the catalogs' (`3 Min. 10 s`, `3分10秒`); the parts are joined by a space.
  static func duration(seconds: Int, localizer: Localizer = Output.currentLocalizer) -> String {
    let total = max(0, seconds)
    let hours = total / 3600
    let minutes = total % 3600 / 60
    let rest = total % 60
    var parts: [CommandMessage] = []
    if hours > 0 { parts.append(.hours(hours)) }
    if minutes > 0 { parts.append(.minutes(minutes)) }
    if rest > 0 || parts.isEmpty { parts.append(.seconds(rest)) }
    return parts.map(localizer.render).joined(separator: " ")
  }

  /// `1 minute`, `5 minutes`: a count of whole minutes in words.
  static func minutes(_ count: Int, localizer: Localizer = Output.currentLocalizer) -> String {
    localizer.render(.minutesWord(count))
  }

  /// `[######--------------]`: the used share of the limit, rounded down, in `width` cells.
  ///
  /// Any use at all shows at least one cell, and only a rule at or over its
  /// limit fills the bar, so that neither end of it is ever a rounding. A
  /// limit of 0 (no time at all today) is a full bar.
  static func bar(usedSeconds: Int, limitSeconds: Int, width: Int = barWidth) -> String {
    let cells = max(1, width)
    let used = max(0, usedSeconds)
    let filled: Int
    if limitSeconds <= 0 || used >= limitSeconds {
      filled = cells
    } else if used == 0 {
      filled = 0
    } else {
      // Whole seconds times a few dozen cells stays far from overflow for any day's limit.
      filled = min(cells - 1, max(1, used * cells / limitSeconds))
    }
    return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
  }

  /// `social: 3 min 10 s of 10 min used today  [######--------------]`, and what stands out:
  /// `, over the limit` or `, counting now`.
  static func line(
    rule: String, usedSeconds: Int, limitSeconds: Int, counting: Bool, localizer: Localizer = Output.currentLocalizer
  ) -> String {
    localizer.render(
      lineMessage(
        rule: rule, usedSeconds: usedSeconds, limitSeconds: limitSeconds, counting: counting, localizer: localizer))
  }

  /// The message of ``line(rule:usedSeconds:limitSeconds:counting:localizer:)``, for the writer.
  static func lineMessage(
    rule: String, usedSeconds: Int, limitSeconds: Int, counting: Bool, localizer: Localizer = Output.currentLocalizer
  ) -> CommandMessage {
    let key: CommandKey = usedSeconds >= limitSeconds ? .usageOver : counting ? .usageCounting : .usage
    return CommandMessage(
      key,
      [
        "rule": rule, "used": duration(seconds: usedSeconds, localizer: localizer),
        "limit": duration(seconds: limitSeconds, localizer: localizer),
        "bar": bar(usedSeconds: usedSeconds, limitSeconds: limitSeconds),
      ])
  }

  /// `counted: focused windows (i3)`, `counted: running processes (no window system seen)`,
  /// or `not counted: ` and why.
  ///
  /// - Parameters:
  ///   - backend, counting: What the service's meter watches; `nil` when it watches nothing.
  ///   - choice: config.json's `"desktop"`, which says whether the backend was forced.
  ///   - hasRules: Whether config.json has rules (the built-in rule names no app to meter).
  ///   - notRunning: Why the service's figures are missing (`the service is not running`);
  ///     `nil` when the service answered.
  ///   - log: Where the running service's log is (``ServiceLog/text``), named where it says why nothing counts.
  static func sourceLine(
    backend: DesktopKind?, counting: CountingSource?, choice: DesktopChoice, hasRules: Bool, notRunning: String?,
    log: String? = nil, localizer: Localizer = Output.currentLocalizer
  ) -> String {
    localizer.render(
      sourceMessage(
        backend: backend, counting: counting, choice: choice, hasRules: hasRules, notRunning: notRunning, log: log,
        localizer: localizer))
  }

  /// The message of ``sourceLine(backend:counting:choice:hasRules:notRunning:log:localizer:)``, for the writer.
  static func sourceMessage(
    backend: DesktopKind?, counting: CountingSource?, choice: DesktopChoice, hasRules: Bool, notRunning: String?,
    log: String? = nil, localizer: Localizer = Output.currentLocalizer
  ) -> CommandMessage {
    if let notRunning { return CommandMessage(.notCountedLedger, ["reason": notRunning]) }
    switch (backend, counting) {
    case (.x11?, .focus?): return CommandMessage(.countedFocus, ["desktop": "X11"])
    case (.i3?, .focus?): return CommandMessage(.countedFocus, ["desktop": "i3"])
    case (.sway?, .focus?): return CommandMessage(.countedFocus, ["desktop": "sway"])
    case (.kwin?, .focus?): return CommandMessage(.countedKWin)
    case (.gnome?, .focus?): return CommandMessage(.countedFocus, ["desktop": "GNOME Shell"])
    case (_?, .running?):
      return CommandMessage(choice == .processes ? .countedProcessesChosen : .countedProcesses)
    case (let backend?, _): return CommandMessage(.countedOther, ["backend": "\(backend)"])
    case (nil, _):
      if !hasRules { return CommandMessage(.notCountedNoRule) }
      if choice == .off { return CommandMessage(.notCountedOff) }
      return CommandMessage(
        .notCountedNoDesktop, ["log": log ?? localizer.render(CommandMessage(.seeDoctor))])
    }
  }
}
