import Desktop

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
  static func duration(seconds: Int) -> String {
    let total = max(0, seconds)
    let hours = total / 3600
    let minutes = total % 3600 / 60
    let rest = total % 60
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) h") }
    if minutes > 0 { parts.append("\(minutes) min") }
    if rest > 0 || parts.isEmpty { parts.append("\(rest) s") }
    return parts.joined(separator: " ")
  }

  /// `1 minute`, `5 minutes`: a count of whole minutes in words.
  static func minutes(_ count: Int) -> String {
    count == 1 ? "1 minute" : "\(count) minutes"
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
  static func line(rule: String, usedSeconds: Int, limitSeconds: Int, counting: Bool) -> String {
    var text =
      "\(rule): \(duration(seconds: usedSeconds)) of \(duration(seconds: limitSeconds)) used today  "
      + bar(usedSeconds: usedSeconds, limitSeconds: limitSeconds)
    if usedSeconds >= limitSeconds {
      text += "  over the limit"
    } else if counting {
      text += "  counting now"
    }
    return text
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
    log: String? = nil
  ) -> String {
    if let notRunning {
      return "not counted: \(notRunning); the figures are from the ledger and may be up to 30 s old"
    }
    switch (backend, counting) {
    case (.x11?, .focus?): return "counted: focused windows (X11)"
    case (.i3?, .focus?): return "counted: focused windows (i3)"
    case (.sway?, .focus?): return "counted: focused windows (sway)"
    case (.kwin?, .focus?): return "counted: focused windows (KWin, through its script)"
    case (.gnome?, .focus?): return "counted: focused windows (GNOME Shell)"
    case (_?, .running?):
      return choice == .processes
        ? "counted: running processes (\"desktop\": \"processes\" in config.json)"
        : "counted: running processes (no window system seen)"
    case (let backend?, _): return "counted: \(backend)"
    case (nil, _):
      if !hasRules { return "not counted: no rule is set, so no app is metered" }
      if choice == .off { return "not counted: \"desktop\" is \"off\" in config.json" }
      return "not counted: the service watches no desktop; its log says why: " + (log ?? "see 'shieldbridge doctor'")
    }
  }
}
