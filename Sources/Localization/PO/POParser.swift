/// A line-by-line reader of the PO syntax described in the gettext manual, "The Format of PO Files".
///
/// It works on bytes, keeps no recursion and no state beyond the entry being
/// read, so its time and memory are linear in the input whatever the input is.
struct POParser {
  private let bytes: [UInt8]
  private let path: String
  private var entries: [POEntry] = []
  private var pending = Comments()
  private var current: EntryBuilder?
  /// For the header entry: the file line where each line of its text starts.
  private var headerFieldLines: [Int] = []

  init(bytes: [UInt8], path: String) {
    self.bytes = bytes
    self.path = path
  }

  /// Reads every entry; returns them with the lines of the header's fields.
  mutating func parse() throws(POParseError) -> ([POEntry], [Int]) {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    var lineNumber = 0
    while start < bytes.count {
      lineNumber += 1
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      var lineEnd = end
      if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      try readLine(start..<lineEnd, number: lineNumber)
      start = end + 1
    }
    try finishAtEnd(line: lineNumber)
    return (entries, headerFieldLines)
  }

  // MARK: Lines

  private mutating func readLine(_ range: Range<Int>, number: Int) throws(POParseError) {
    var index = range.lowerBound
    while index < range.upperBound, isBlank(bytes[index]) { index += 1 }
    guard index < range.upperBound else { return }
    if bytes[range].contains(0) {
      throw error(.unexpectedLine, number, "the line holds a NUL byte")
    }
    switch bytes[index] {
    case UInt8(ascii: "#"):
      try readComment(index + 1..<range.upperBound, number: number)
    case UInt8(ascii: "\""):
      guard var entry = current, let field = entry.lastField else {
        throw error(.unexpectedLine, number, "a string that continues no keyword")
      }
      try readStrings(index..<range.upperBound, number: number, into: &entry, field: field)
      current = entry
    default:
      try readKeyword(index..<range.upperBound, number: number)
    }
  }

  private mutating func readComment(_ range: Range<Int>, number: Int) throws(POParseError) {
    let marker = range.isEmpty ? nil : bytes[range.lowerBound]
    if marker == UInt8(ascii: "~") {
      // An obsolete entry: skipped, and the comments gathered for it go with it.
      guard current?.isInProgress != true else {
        throw error(
          .misplacedKeyword, number, "an obsolete line inside an entry, before its msgstr")
      }
      try finishCurrent()
      pending = Comments()
      return
    }
    if let current, current.isInProgress {
      throw error(
        .misplacedKeyword, number,
        "a comment inside an entry; the msgstr of the entry on line \(current.startLine) is missing"
      )
    }
    try finishCurrent()
    let text = try decodeComment(range.dropFirst(marker == nil ? 0 : 1), number: number)
    if pending.line == nil { pending.line = number }
    switch marker {
    case UInt8(ascii: "."): pending.extracted.append(String(text.trimmingSpaces()))
    case UInt8(ascii: ":"):
      pending.references += text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    case UInt8(ascii: ","):
      pending.flags += text.split(separator: ",").map { String($0.trimmingSpaces()) }.filter {
        !$0.isEmpty
      }
    case UInt8(ascii: "|"): pending.previous.append(String(text.trimmingSpaces()))
    default:
      // `# text`, a bare `#`, or `#text`: all translator comments.
      let whole = try decodeComment(range, number: number)
      pending.translator.append(String(whole.hasPrefix(" ") ? whole.dropFirst() : whole[...]))
    }
  }

  private func decodeComment(_ range: Range<Int>, number: Int) throws(POParseError) -> String {
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw error(.invalidUTF8, number, "the comment is not valid UTF-8")
    }
    return text
  }

  private mutating func readKeyword(_ range: Range<Int>, number: Int) throws(POParseError) {
    var index = range.lowerBound
    while index < range.upperBound, isKeywordByte(bytes[index]) { index += 1 }
    let word = String(decoding: bytes[range.lowerBound..<index], as: UTF8.self)
    var pluralIndex: Int?
    if word == "msgstr", index < range.upperBound, bytes[index] == UInt8(ascii: "[") {
      var digitsEnd = index + 1
      while digitsEnd < range.upperBound, isDigit(bytes[digitsEnd]), digitsEnd - index <= 4 {
        digitsEnd += 1
      }
      guard digitsEnd > index + 1, digitsEnd < range.upperBound,
        bytes[digitsEnd] == UInt8(ascii: "]"),
        let value = Int(String(decoding: bytes[index + 1..<digitsEnd], as: UTF8.self))
      else {
        throw error(.badPluralIndex, number, "msgstr[ must be followed by a number and ]")
      }
      pluralIndex = value
      index = digitsEnd + 1
    }
    guard index < range.upperBound, isBlank(bytes[index]) || bytes[index] == UInt8(ascii: "\"")
    else {
      let shown = String(decoding: bytes[range].prefix(24), as: UTF8.self)
      throw error(.unexpectedLine, number, "expected a keyword and a string, found '\(shown)'")
    }
    let field: EntryBuilder.Field
    switch (word, pluralIndex) {
    case ("msgctxt", nil):
      try startEntry(number: number)
      field = .context
    case ("msgid", nil):
      if current?.id != nil || current?.isComplete == true { try startEntry(number: number) }
      if current == nil { try startEntry(number: number) }
      field = .id
    case ("msgid_plural", nil):
      guard let current, current.id != nil, current.idPlural == nil, current.translations.isEmpty
      else {
        throw error(.misplacedKeyword, number, "msgid_plural must follow the msgid of its entry")
      }
      field = .idPlural
    case ("msgstr", nil):
      guard let current, current.id != nil, current.translations.isEmpty else {
        throw error(.misplacedKeyword, number, "msgstr must follow the msgid of its entry")
      }
      guard current.idPlural == nil else {
        throw error(
          .badPluralIndex, number, "an entry with msgid_plural needs msgstr[0], msgstr[1], …")
      }
      field = .translation(0)
    case ("msgstr", let index?):
      guard let current, current.id != nil else {
        throw error(
          .misplacedKeyword, number, "msgstr[\(index)] must follow the msgid of its entry")
      }
      guard current.idPlural != nil else {
        throw error(.badPluralIndex, number, "msgstr[\(index)] in an entry without msgid_plural")
      }
      guard index == current.translations.count else {
        throw error(
          .badPluralIndex, number,
          "msgstr[\(index)] where msgstr[\(current.translations.count)] was expected")
      }
      field = .translation(index)
    default:
      throw error(.unexpectedLine, number, "unknown keyword '\(word.prefix(24))'")
    }
    guard var entry = current else {
      throw error(.misplacedKeyword, number, "a keyword outside an entry")
    }
    entry.begin(field, line: number)
    try readStrings(index..<range.upperBound, number: number, into: &entry, field: field)
    current = entry
  }

  /// Reads one or more quoted strings and appends their bytes to `field`.
  private mutating func readStrings(
    _ range: Range<Int>, number: Int, into entry: inout EntryBuilder, field: EntryBuilder.Field
  ) throws(POParseError) {
    var index = range.lowerBound
    var count = 0
    while true {
      while index < range.upperBound, isBlank(bytes[index]) { index += 1 }
      guard index < range.upperBound else { break }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw error(.badString, number, "unexpected text after the string")
      }
      var decoded: [UInt8] = []
      index = try POString.decode(bytes, from: index + 1, end: range.upperBound, into: &decoded) {
        (code, message) throws(POParseError) in throw error(code, number, message)
      }
      if entries.isEmpty, entry.isHeaderTranslation(field) {
        noteHeaderLines(decoded, line: number, entry: entry)
      }
      entry.append(decoded, to: field)
      count += 1
    }
    guard count > 0 else { throw error(.badString, number, "a keyword without its string") }
  }

  private mutating func noteHeaderLines(_ decoded: [UInt8], line: Int, entry: EntryBuilder) {
    var atLineStart = (entry.translations.last?.last).map { $0 == 0x0A } ?? true
    for byte in decoded {
      if atLineStart {
        headerFieldLines.append(line)
        atLineStart = false
      }
      if byte == 0x0A { atLineStart = true }
    }
  }

  // MARK: Entries

  private mutating func startEntry(number: Int) throws(POParseError) {
    if let current, current.isInProgress {
      throw error(
        .missingTranslation, current.idLine ?? current.startLine,
        "the entry has no msgstr before line \(number)")
    }
    try finishCurrent()
    current = EntryBuilder(startLine: pending.line ?? number, comments: pending)
    pending = Comments()
  }

  private mutating func finishCurrent() throws(POParseError) {
    guard let builder = current else { return }
    current = nil
    entries.append(
      try builder.build { (code, line, message) throws(POParseError) in
        throw error(code, line, message)
      })
  }

  private mutating func finishAtEnd(line: Int) throws(POParseError) {
    if let current, current.isInProgress {
      throw error(
        .missingTranslation, current.idLine ?? current.startLine, "the entry has no msgstr")
    }
    try finishCurrent()
  }

  // MARK: Helpers

  private func error(_ code: POParseError.Code, _ line: Int, _ message: String) -> POParseError {
    POParseError(code, file: path, line: line, message)
  }

  private func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0C || byte == 0x0B
  }
  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private func isKeywordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "_")
      || isDigit(byte)
  }
}

/// The comments gathered for the next entry.
private struct Comments {
  var line: Int?
  var translator: [String] = []
  var extracted: [String] = []
  var references: [String] = []
  var flags: [String] = []
  var previous: [String] = []
}

/// An entry being read: the raw bytes of each field and the lines they started on.
private struct EntryBuilder {
  enum Field: Equatable {
    case context
    case id
    case idPlural
    case translation(Int)
  }

  let startLine: Int
  let comments: Comments
  var context: [UInt8]?
  var contextLine: Int?
  var id: [UInt8]?
  var idLine: Int?
  var idPlural: [UInt8]?
  var idPluralLine: Int?
  var translations: [[UInt8]] = []
  var translationLines: [Int] = []
  var lastField: Field?

  init(startLine: Int, comments: Comments) {
    self.startLine = startLine
    self.comments = comments
  }

  /// Started (a context or an id was read) but without any `msgstr` yet.
  var isInProgress: Bool { (context != nil || id != nil) && translations.isEmpty }
  var isComplete: Bool { !translations.isEmpty }

  func isHeaderTranslation(_ field: Field) -> Bool {
    field == .translation(0) && context == nil && id?.isEmpty == true && idPlural == nil
  }

  mutating func begin(_ field: Field, line: Int) {
    lastField = field
    switch field {
    case .context:
      context = []
      contextLine = line
    case .id:
      id = []
      idLine = line
    case .idPlural:
      idPlural = []
      idPluralLine = line
    case .translation:
      translations.append([])
      translationLines.append(line)
    }
  }

  mutating func append(_ bytes: [UInt8], to field: Field) {
    switch field {
    case .context: context?.append(contentsOf: bytes)
    case .id: id?.append(contentsOf: bytes)
    case .idPlural: idPlural?.append(contentsOf: bytes)
    case .translation(let index): translations[index].append(contentsOf: bytes)
    }
  }

  func build(
    _ fail: (POParseError.Code, Int, String) throws(POParseError) -> Never
  ) throws(POParseError) -> POEntry {
    func text(_ bytes: [UInt8], _ line: Int, _ name: String) throws(POParseError) -> String {
      guard let string = String(validating: bytes, as: UTF8.self) else {
        try fail(.invalidUTF8, line, "the \(name) is not valid UTF-8")
      }
      return string
    }
    let idLine = self.idLine ?? startLine
    guard let id else {
      try fail(.missingTranslation, contextLine ?? startLine, "msgctxt without msgid")
    }
    var entry = POEntry(
      context: try context.map { (bytes) throws(POParseError) in
        try text(bytes, contextLine ?? startLine, "msgctxt")
      },
      id: try text(id, idLine, "msgid"),
      idPlural: try idPlural.map { (bytes) throws(POParseError) in
        try text(bytes, idPluralLine ?? idLine, "msgid_plural")
      },
      translations: [], line: startLine, idLine: idLine, translationLines: translationLines)
    for (index, bytes) in translations.enumerated() {
      entry.translations.append(try text(bytes, translationLines[index], "msgstr"))
    }
    entry.translatorComments = comments.translator
    entry.extractedComments = comments.extracted
    entry.references = comments.references
    entry.flags = comments.flags
    entry.previous = comments.previous
    return entry
  }
}
