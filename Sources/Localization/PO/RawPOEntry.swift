/// Receives the entries of a PO file from ``POParser`` as they are finished.
///
/// ``POFile`` turns each into a ``POEntry``; a ``Catalog`` keeps only the
/// translations, as bytes, which is all a lookup needs and spares building
/// strings and comments that a running program never reads.
protocol POEntryConsumer {
  /// Takes a finished entry; it may move the entry's buffers out.
  ///
  /// - Parameter isFirst: Whether it is the file's first entry, the only place for a header.
  /// - Throws: ``POParseError`` when a field is not valid UTF-8.
  mutating func consume(_ entry: inout RawPOEntry, isFirst: Bool, path: String) throws(POParseError)
}

/// The comments gathered for the next entry.
struct POComments {
  var line: Int?
  var translator: [String] = []
  var extracted: [String] = []
  var references: [String] = []
  var flags: [String] = []
  var previous: [String] = []
}

/// An entry as the parser reads it: the raw bytes of each field and the lines they started on.
///
/// It lives inside the parser and is never copied, so appending to its buffers
/// neither copies them nor needs the runtime's exclusivity checks.
struct RawPOEntry {
  enum Field: Equatable {
    case context
    case id
    case idPlural
    case translation(Int)
  }

  var startLine = 0
  var comments = POComments()
  var contextBytes: [UInt8] = []
  var contextLine: Int?
  var idBytes: [UInt8] = []
  var idLine: Int?
  var idPluralBytes: [UInt8] = []
  var idPluralLine: Int?
  var translations: [[UInt8]] = []
  var translationLines: [Int] = []
  var lastField: Field?

  var id: [UInt8]? { idLine == nil ? nil : idBytes }
  var idPlural: [UInt8]? { idPluralLine == nil ? nil : idPluralBytes }

  /// A context or an id was read.
  var isStarted: Bool { contextLine != nil || idLine != nil }
  /// Started, but without any `msgstr` yet.
  var isInProgress: Bool { isStarted && translations.isEmpty }
  /// The header entry: an empty `msgid` without context.
  var isHeader: Bool { contextLine == nil && idBytes.isEmpty }

  func isHeaderTranslation(_ field: Field) -> Bool {
    field == .translation(0) && contextLine == nil && idLine != nil && idBytes.isEmpty
      && idPluralLine == nil
  }

  mutating func begin(_ field: Field, line: Int) {
    lastField = field
    switch field {
    case .context: contextLine = line
    case .id: idLine = line
    case .idPlural: idPluralLine = line
    case .translation:
      translations.append([])
      translationLines.append(line)
    }
  }

  /// Checks that every field is UTF-8, in the order ``build(path:)`` reads them.
  ///
  /// - Throws: ``POParseError`` naming the line of the first field that is not.
  func validate(path: String) throws(POParseError) {
    for (index, bytes) in translations.enumerated() {
      try Self.validate(bytes, path, translationLines[index], "msgstr")
    }
    if let contextLine { try Self.validate(contextBytes, path, contextLine, "msgctxt") }
    guard let idLine else {
      throw POParseError(
        .missingTranslation, file: path, line: contextLine ?? startLine, "msgctxt without msgid")
    }
    try Self.validate(idBytes, path, idLine, "msgid")
    if let idPluralLine { try Self.validate(idPluralBytes, path, idPluralLine, "msgid_plural") }
  }

  /// The entry with its fields as text.
  ///
  /// - Throws: ``POParseError`` naming the line of the first field that is not UTF-8.
  func build(path: String) throws(POParseError) -> POEntry {
    try validate(path: path)
    // Validated above, so decoding repairs nothing.
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    var entry = POEntry(
      context: contextLine == nil ? nil : text(contextBytes), id: text(idBytes),
      idPlural: idPluralLine == nil ? nil : text(idPluralBytes),
      translations: translations.map(text),
      flags: comments.flags, line: startLine, idLine: idLine ?? startLine,
      translationLines: translationLines)
    entry.translatorComments = comments.translator
    entry.extractedComments = comments.extracted
    entry.references = comments.references
    entry.previous = comments.previous
    return entry
  }

  private static func validate(
    _ bytes: [UInt8], _ path: String, _ line: Int, _ name: String
  ) throws(POParseError) {
    guard bytes.withUnsafeBufferPointer({ String.isValidUTF8($0) }) else {
      throw POParseError(.invalidUTF8, file: path, line: line, "the \(name) is not valid UTF-8")
    }
  }
}
