/// One message of a PO file: its source text, its translation and the comments around it.
///
/// Entries marked obsolete (`#~`) are never produced: the parser skips them.
public struct POEntry: Hashable, Sendable {
  /// `msgctxt`: the context that tells apart two messages with the same `msgid`.
  public var context: String?
  /// `msgid`: the English source text.
  public var id: String
  /// `msgid_plural`: the English plural source text, for messages with plural forms.
  public var idPlural: String?
  /// `msgstr`, or `msgstr[0]`, `msgstr[1]`, … in order for messages with plural forms.
  public var translations: [String]
  /// `# ` lines, written by translators.
  public var translatorComments: [String] = []
  /// `#.` lines, written by developers for translators.
  public var extractedComments: [String] = []
  /// `#:` references to the source code, split at whitespace.
  public var references: [String] = []
  /// `#,` flags such as `fuzzy` or `python-brace-format`, split at commas.
  public var flags: [String] = []
  /// `#|` lines: the previous source text after a merge.
  public var previous: [String] = []
  /// The line where the entry starts (its first comment or keyword), counted from 1.
  public var line: Int
  /// The line of `msgid`.
  public var idLine: Int
  /// The line of each `msgstr` keyword, parallel to ``translations``.
  public var translationLines: [Int]

  /// Creates an entry; the line numbers default to 0 for entries built in code.
  public init(
    context: String? = nil, id: String, idPlural: String? = nil, translations: [String],
    flags: [String] = [], line: Int = 0, idLine: Int = 0, translationLines: [Int] = []
  ) {
    self.context = context
    self.id = id
    self.idPlural = idPlural
    self.translations = translations
    self.flags = flags
    self.line = line
    self.idLine = idLine
    self.translationLines = translationLines
  }

  /// Whether the entry is flagged `fuzzy`: a guess that runtime lookups ignore.
  public var isFuzzy: Bool { flags.contains("fuzzy") }

  /// Whether this is the header entry (empty `msgid`, no context).
  public var isHeader: Bool { context == nil && id.isEmpty }

  /// Whether every translation form is filled in.
  public var isTranslated: Bool { !translations.isEmpty && translations.allSatisfy { !$0.isEmpty } }

  /// The lookup key of the entry, `context` EOT `id` as in gettext's MO files.
  public var key: MessageLookupKey { MessageLookupKey(context: context, id: id) }
}

/// The identity of a message in a catalog: its context and its `msgid`.
///
/// Compared and hashed byte by byte, as gettext compares msgids: two texts
/// that are canonically equivalent but encoded differently are different
/// messages. It also spares the Unicode normalization that `String`'s own
/// hashing does, which dominates a cold catalog load.
public struct MessageLookupKey: Hashable, Sendable, CustomStringConvertible {
  public var context: String?
  public var id: String

  public init(context: String?, id: String) {
    self.context = context
    self.id = id
  }

  public static func == (lhs: MessageLookupKey, rhs: MessageLookupKey) -> Bool {
    guard lhs.id.utf8.elementsEqual(rhs.id.utf8) else { return false }
    switch (lhs.context, rhs.context) {
    case (nil, nil): return true
    case (let left?, let right?): return left.utf8.elementsEqual(right.utf8)
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    var id = id
    id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    if var context {
      hasher.combine(1 as UInt8)
      context.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    } else {
      hasher.combine(0 as UInt8)
    }
  }

  public var description: String {
    context.map { "\"\(id)\" (context \"\($0)\")" } ?? "\"\(id)\""
  }
}
