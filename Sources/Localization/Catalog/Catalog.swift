/// The usable translations of one PO file, ready for lookups.
///
/// Only entries that are translated in full and not `fuzzy` are kept, so that
/// a lookup either finds a real translation or falls back to the source text.
/// The texts are kept as validated UTF-8 bytes and keyed by bytes, as gettext
/// keys its catalogs: loading then builds no strings at all.
public struct Catalog: Sendable {
  /// The language of the catalog.
  public let tag: LocaleTag
  /// The file the catalog was read from.
  public let path: String
  /// The catalog's `Plural-Forms`; `nil` when the header has none or an invalid one,
  /// in which case its plural messages are not used.
  public let pluralForms: PluralForms?
  private let messages: [Key: [[UInt8]]]

  /// A message's context and `msgid`, as bytes.
  struct Key: Hashable, Sendable {
    var context: [UInt8]?
    var id: [UInt8]

    init(context: [UInt8]?, id: [UInt8]) {
      self.context = context
      self.id = id
    }

    init(context: String?, id: String) {
      self.init(context: context.map { Array($0.utf8) }, id: Array(id.utf8))
    }

    func hash(into hasher: inout Hasher) {
      id.withUnsafeBytes { hasher.combine(bytes: $0) }
      if let context {
        hasher.combine(context.count)
        context.withUnsafeBytes { hasher.combine(bytes: $0) }
      } else {
        hasher.combine(-1)
      }
    }
  }

  /// Builds the catalog of a parsed file; the first of duplicate entries wins.
  public init(file: POFile, tag: LocaleTag) {
    self.tag = tag
    path = file.path
    pluralForms = file.header?["Plural-Forms"].flatMap { try? PluralForms(header: $0) }
    var messages: [Key: [[UInt8]]] = [:]
    for entry in file.entries where entry.isTranslated && !entry.isFuzzy {
      let key = Key(context: entry.context, id: entry.id)
      if messages[key] == nil { messages[key] = entry.translations.map { Array($0.utf8) } }
    }
    self.messages = messages
  }

  /// Reads the catalog at `path`.
  ///
  /// The file is read as ``POFile`` reads it, and refused for the same errors,
  /// but only the translations are kept.
  ///
  /// - Throws: ``POParseError`` when the file cannot be read or parsed.
  public init(contentsOf path: String, tag: LocaleTag) throws(POParseError) {
    let bytes = try POFile.read(path)
    let collector = try bytes.withUnsafeBufferPointer { (buffer) throws(POParseError) in
      var parser = POParser(
        bytes: buffer, path: path, keepComments: false, consumer: TranslationCollector())
      try parser.parse()
      return parser.consumer
    }
    self.tag = tag
    self.path = path
    pluralForms = collector.pluralForms
    messages = collector.messages
  }

  /// How many usable translations the catalog holds.
  public var count: Int { messages.count }

  /// The translation forms of a message (one, or one per plural form), if the catalog has them.
  public func translations(context: String?, id: String) -> [String]? {
    messages[Key(context: context, id: id)]?.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The translation of a message for the number `n`, if the catalog has a usable one.
  ///
  /// For a plural message (`plural` is `true`), the catalog's `Plural-Forms`
  /// picks the form; an expression that fails or an index without a form gives `nil`.
  public func translation(context: String?, id: String, plural: Bool, n: UInt64) -> String? {
    guard let forms = messages[Key(context: context, id: id)] else { return nil }
    let form: [UInt8]
    if plural {
      guard let pluralForms, let index = try? pluralForms.index(for: n), index < forms.count else {
        return nil
      }
      form = forms[index]
    } else {
      guard forms.count == 1 else { return nil }
      form = forms[0]
    }
    // Validated when the file was read.
    return String(decoding: form, as: UTF8.self)
  }
}

/// Keeps the usable translations of a file and its plural rule, as bytes.
private struct TranslationCollector: POEntryConsumer {
  var pluralForms: PluralForms?
  var messages: [Catalog.Key: [[UInt8]]] = [:]

  mutating func consume(_ raw: inout RawPOEntry, isFirst: Bool, path: String) throws(POParseError) {
    try raw.validate(path: path)
    if isFirst, raw.isHeader {
      let text = String(decoding: raw.translations.first ?? [], as: UTF8.self)
      pluralForms = POHeader(text: text, line: raw.startLine)["Plural-Forms"].flatMap {
        try? PluralForms(header: $0)
      }
      return
    }
    guard !raw.translations.isEmpty, raw.translations.allSatisfy({ !$0.isEmpty }),
      !raw.comments.flags.contains("fuzzy")
    else { return }
    let key = Catalog.Key(context: raw.contextLine == nil ? nil : raw.contextBytes, id: raw.idBytes)
    if messages[key] == nil {
      var forms: [[UInt8]] = []
      swap(&forms, &raw.translations)
      messages[key] = forms
    }
  }
}
