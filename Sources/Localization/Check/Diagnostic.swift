/// The rules of `shieldbridge locales check`, each with a stable name.
public enum CheckRule: String, CaseIterable, Hashable, Sendable {
  /// The file is not valid PO syntax (error).
  case syntax
  /// The header entry is missing, or its charset, `Language` or `Plural-Forms` is wrong.
  case header
  /// Two entries with the same context and `msgid` (error).
  case duplicate
  /// An entry without translation (warning: English is shown).
  case untranslated
  /// An entry marked `fuzzy` (warning: English is shown).
  case fuzzy
  /// Placeholders of the translation differ from the source's, or are malformed.
  case placeholder
  /// The number of `msgstr[N]` differs from the header's `nplurals` (error).
  case pluralCount = "plural-count"
  /// The header's plural rule differs from CLDR's for the language.
  case pluralCLDR = "plural-cldr"
  /// The plural expression fails or gives an index outside `0..<nplurals`.
  case pluralRange = "plural-range"
  /// Tags or entities in the translation (they would show literally) or unbalanced tags (error).
  case markup
  /// Control characters (`\n`, `\t`, …) differ between source and translation (warning).
  case escape
  /// Leading or trailing whitespace differs, or the translation has doubled spaces.
  case whitespace
  /// A summary or button label longer than its budget (warning).
  case length
  /// An exclamation mark the source does not have: the product's tone is calm (warning).
  case tone
  /// A message of the template is not in the catalog (warning).
  case missing
  /// An entry that is not in the template any more (warning).
  case stale
}

/// How bad a finding is: errors make `locales check` exit 65.
public enum Severity: String, Hashable, Sendable, Comparable {
  case warning
  case error

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
}

/// One finding of `locales check`: where, how bad, which rule, and what.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// The file, as it was named to the check.
  public var file: String
  /// The line, counted from 1; 0 when the whole file is concerned.
  public var line: Int
  public var severity: Severity
  public var rule: CheckRule
  /// What is wrong, in words.
  public var message: String

  public init(file: String, line: Int, _ severity: Severity, _ rule: CheckRule, _ message: String) {
    self.file = file
    self.line = line
    self.severity = severity
    self.rule = rule
    self.message = message
  }

  /// `file:line: severity: message [rule]`, as compilers print it.
  public var description: String {
    "\(file):\(line): \(severity.rawValue): \(message) [\(rule.rawValue)]"
  }
}
