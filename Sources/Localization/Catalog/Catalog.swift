/// The usable translations of one PO file, ready for lookups.
///
/// Only entries that are translated in full and not `fuzzy` are kept, so that
/// a lookup either finds a real translation or falls back to the source text.
public struct Catalog: Sendable {
  /// The language of the catalog.
  public let tag: LocaleTag
  /// The file the catalog was read from.
  public let path: String
  /// The catalog's `Plural-Forms`; `nil` when the header has none or an invalid one,
  /// in which case its plural messages are not used.
  public let pluralForms: PluralForms?
  private let messages: [MessageLookupKey: [String]]

  /// Builds the catalog of a parsed file; the first of duplicate entries wins.
  public init(file: POFile, tag: LocaleTag) {
    self.tag = tag
    path = file.path
    pluralForms = file.header?["Plural-Forms"].flatMap { try? PluralForms(header: $0) }
    var messages: [MessageLookupKey: [String]] = [:]
    messages.reserveCapacity(file.entries.count)
    for entry in file.entries
    where entry.isTranslated && !entry.isFuzzy && messages[entry.key] == nil {
      messages[entry.key] = entry.translations
    }
    self.messages = messages
  }

  /// Reads the catalog at `path`.
  ///
  /// - Throws: ``POParseError`` when the file cannot be read or parsed.
  public init(contentsOf path: String, tag: LocaleTag) throws(POParseError) {
    self.init(file: try POFile(contentsOf: path, keepingComments: false), tag: tag)
  }

  /// How many usable translations the catalog holds.
  public var count: Int { messages.count }

  /// The translation forms of a message (one, or one per plural form), if the catalog has them.
  public func translations(context: String?, id: String) -> [String]? {
    messages[MessageLookupKey(context: context, id: id)]
  }

  /// The translation of a message for the number `n`, if the catalog has a usable one.
  ///
  /// For a plural message (`plural` is `true`), the catalog's `Plural-Forms`
  /// picks the form; an expression that fails or an index without a form gives `nil`.
  public func translation(context: String?, id: String, plural: Bool, n: UInt64) -> String? {
    guard let forms = translations(context: context, id: id) else { return nil }
    guard plural else { return forms.count == 1 ? forms[0] : nil }
    guard let pluralForms, let index = try? pluralForms.index(for: n), index < forms.count else {
      return nil
    }
    return forms[index]
  }
}
