import Posix

/// A line-by-line reader of the PO syntax described in the gettext manual, "The Format of PO Files".
///
/// It works on bytes, keeps no recursion and no state beyond the entry being
/// read, so its time and memory are linear in the input whatever the input is.
/// Catalogs are read when a program starts, where every microsecond shows, so
/// it reads through a buffer pointer (which ``POFile`` lends it for the parse
/// only), decodes strings straight into the entry's buffers, and compares
/// keywords as bytes.
struct POParser<Consumer: POEntryConsumer> {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let path: String
  /// Whether comments other than the `fuzzy` flag are kept; runtime lookups need only that flag.
  private let keepComments: Bool
  /// Receives each entry as it is finished.
  private(set) var consumer: Consumer
  /// For the header: the file line where each line of its text starts.
  private(set) var headerFieldLines: [Int] = []
  private var isFirstEntry = true
  private var pending = POComments()
  private var entry = RawPOEntry()

  init(
    bytes: UnsafeBufferPointer<UInt8>, path: String, keepComments: Bool = true, consumer: Consumer
  ) {
    self.bytes = bytes
    self.path = path
    self.keepComments = keepComments
    self.consumer = consumer
  }

  /// Reads every entry and hands it to the consumer.
  mutating func parse() throws(POParseError) {
    var start = 0
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
    if let offset = bytes.firstIndex(ofByte: 0) {
      let line = bytes[..<offset].count { $0 == 0x0A } + 1
      throw error(.unexpectedLine, line, "the line holds a NUL byte")
    }
    var lineNumber = 0
    while start < bytes.count {
      lineNumber += 1
      let end = bytes.firstIndex(ofByte: 0x0A, from: start) ?? bytes.count
      var lineEnd = end
      if lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      try readLine(start..<lineEnd, number: lineNumber)
      start = end + 1
    }
    if entry.isInProgress {
      throw error(.missingTranslation, entry.idLine ?? entry.startLine, "the entry has no msgstr")
    }
    try finishEntry()
  }

  // MARK: Lines

  private mutating func readLine(_ range: Range<Int>, number: Int) throws(POParseError) {
    var index = range.lowerBound
    while index < range.upperBound, isBlank(bytes[index]) { index += 1 }
    guard index < range.upperBound else { return }
    switch bytes[index] {
    case UInt8(ascii: "#"):
      try readComment(index + 1..<range.upperBound, number: number)
    case UInt8(ascii: "\""):
      guard let field = entry.lastField else {
        throw error(.unexpectedLine, number, "a string that continues no keyword")
      }
      try readStrings(index..<range.upperBound, number: number, field: field)
    default:
      try readKeyword(index..<range.upperBound, number: number)
    }
  }

  private mutating func readComment(_ range: Range<Int>, number: Int) throws(POParseError) {
    let marker = range.isEmpty ? nil : bytes[range.lowerBound]
    if entry.isInProgress {
      let what = marker == UInt8(ascii: "~") ? "an obsolete line" : "a comment"
      throw error(
        .misplacedKeyword, number,
        "\(what) inside an entry; the msgstr of the entry on line \(entry.startLine) is missing")
    }
    try finishEntry()
    if marker == UInt8(ascii: "~") {
      // An obsolete entry: skipped, and the comments gathered for it go with it.
      pending = POComments()
      return
    }
    if pending.line == nil { pending.line = number }
    let body = marker == nil ? range : range.lowerBound + 1..<range.upperBound
    if marker == UInt8(ascii: ",") {
      for piece in pieces(body, separatedBy: { $0 == UInt8(ascii: ",") }) {
        let flag = trimmed(piece)
        if keepComments {
          if !flag.isEmpty { pending.flags.append(try text(flag, number)) }
        } else if isFuzzy(flag) {
          pending.flags.append("fuzzy")
        }
      }
      if !keepComments { try validate(body, number) }
      return
    }
    guard keepComments else {
      // Still refused when it is not UTF-8, so that both modes accept the same files.
      try validate(range, number)
      return
    }
    switch marker {
    case UInt8(ascii: "."): pending.extracted.append(try text(trimmed(body), number))
    case UInt8(ascii: "|"): pending.previous.append(try text(trimmed(body), number))
    case UInt8(ascii: ":"):
      for piece in pieces(body, separatedBy: isBlank) {
        pending.references.append(try text(piece, number))
      }
    default:
      // `# text`, a bare `#`, or `#text`: all translator comments.
      let start = marker == UInt8(ascii: " ") ? range.lowerBound + 1 : range.lowerBound
      pending.translator.append(try text(start..<range.upperBound, number))
    }
  }

  private mutating func readKeyword(_ range: Range<Int>, number: Int) throws(POParseError) {
    var index = range.lowerBound
    while index < range.upperBound, isKeywordByte(bytes[index]) { index += 1 }
    let word = range.lowerBound..<index
    var field: RawPOEntry.Field
    if matches(word, "msgctxt") {
      try startEntry(number: number)
      field = .context
    } else if matches(word, "msgid") {
      if entry.id != nil || !entry.translations.isEmpty || !entry.isStarted {
        try startEntry(number: number)
      }
      field = .id
    } else if matches(word, "msgid_plural") {
      guard entry.id != nil, entry.idPlural == nil, entry.translations.isEmpty else {
        throw error(.misplacedKeyword, number, "msgid_plural must follow the msgid of its entry")
      }
      field = .idPlural
    } else if matches(word, "msgstr") {
      guard entry.id != nil else {
        throw error(.misplacedKeyword, number, "msgstr must follow the msgid of its entry")
      }
      if index < range.upperBound, bytes[index] == UInt8(ascii: "[") {
        let (form, end) = try pluralIndex(after: index, in: range, number: number)
        index = end
        guard entry.idPlural != nil else {
          throw error(.badPluralIndex, number, "msgstr[\(form)] in an entry without msgid_plural")
        }
        guard form == entry.translations.count else {
          throw error(
            .badPluralIndex, number,
            "msgstr[\(form)] where msgstr[\(entry.translations.count)] was expected")
        }
        field = .translation(form)
      } else {
        guard entry.translations.isEmpty else {
          throw error(.misplacedKeyword, number, "a second msgstr in one entry")
        }
        guard entry.idPlural == nil else {
          throw error(
            .badPluralIndex, number, "an entry with msgid_plural needs msgstr[0], msgstr[1], …")
        }
        field = .translation(0)
      }
    } else {
      let shown = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[word.prefix(24)]), as: UTF8.self)
      throw error(.unexpectedLine, number, "unknown keyword '\(shown)'")
    }
    guard index < range.upperBound, isBlank(bytes[index]) || bytes[index] == UInt8(ascii: "\"")
    else {
      let shown = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[range.prefix(24)]), as: UTF8.self)
      throw error(.unexpectedLine, number, "expected a keyword and a string, found '\(shown)'")
    }
    entry.begin(field, line: number)
    try readStrings(index..<range.upperBound, number: number, field: field)
  }

  /// Reads `[N]` at `start`: the number and the index after the bracket.
  private func pluralIndex(
    after start: Int, in range: Range<Int>, number: Int
  ) throws(POParseError) -> (Int, Int) {
    var index = start + 1
    var value = 0
    while index < range.upperBound, isDigit(bytes[index]), index - start <= 4 {
      value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    guard index > start + 1, index < range.upperBound, bytes[index] == UInt8(ascii: "]") else {
      throw error(.badPluralIndex, number, "msgstr[ must be followed by a number and ]")
    }
    return (value, index + 1)
  }

  /// Reads one or more quoted strings and appends their bytes to `field` of the entry.
  private mutating func readStrings(
    _ range: Range<Int>, number: Int, field: RawPOEntry.Field
  ) throws(POParseError) {
    let path = self.path
    let fail = { (code: POParseError.Code, message: String) throws(POParseError) -> Never in
      throw POParseError(code, file: path, line: number, message)
    }
    let isHeaderText = isFirstEntry && entry.isHeaderTranslation(field)
    var index = range.lowerBound
    var count = 0
    while true {
      while index < range.upperBound, isBlank(bytes[index]) { index += 1 }
      guard index < range.upperBound else { break }
      guard bytes[index] == UInt8(ascii: "\"") else {
        throw error(.badString, number, "unexpected text after the string")
      }
      let before = isHeaderText ? entry.translations[0].count : 0
      switch field {
      case .context:
        index = try POString.decode(
          bytes, from: index + 1, end: range.upperBound, into: &entry.contextBytes, fail: fail)
      case .id:
        index = try POString.decode(
          bytes, from: index + 1, end: range.upperBound, into: &entry.idBytes, fail: fail)
      case .idPlural:
        index = try POString.decode(
          bytes, from: index + 1, end: range.upperBound, into: &entry.idPluralBytes, fail: fail)
      case .translation(let form):
        index = try POString.decode(
          bytes, from: index + 1, end: range.upperBound, into: &entry.translations[form], fail: fail
        )
      }
      if isHeaderText { noteHeaderLines(from: before, line: number) }
      count += 1
    }
    guard count > 0 else { throw error(.badString, number, "a keyword without its string") }
  }

  /// Records the file line of each line of the header's text that starts in the bytes from `start`.
  private mutating func noteHeaderLines(from start: Int, line: Int) {
    let text = entry.translations[0]
    var atLineStart = start == 0 || text[start - 1] == 0x0A
    for byte in text[start...] {
      if atLineStart {
        headerFieldLines.append(line)
        atLineStart = false
      }
      if byte == 0x0A { atLineStart = true }
    }
  }

  // MARK: Entries

  private mutating func startEntry(number: Int) throws(POParseError) {
    if entry.isInProgress {
      throw error(
        .missingTranslation, entry.idLine ?? entry.startLine,
        "the entry has no msgstr before line \(number)")
    }
    try finishEntry()
    entry.startLine = pending.line ?? number
    entry.comments = pending
    pending = POComments()
  }

  private mutating func finishEntry() throws(POParseError) {
    guard entry.isStarted else { return }
    try consumer.consume(&entry, isFirst: isFirstEntry, path: path)
    entry = RawPOEntry()
    isFirstEntry = false
  }

  // MARK: Bytes

  private func error(_ code: POParseError.Code, _ line: Int, _ message: String) -> POParseError {
    POParseError(code, file: path, line: line, message)
  }

  /// The bytes of a comment as text.
  private func text(_ range: Range<Int>, _ number: Int) throws(POParseError) -> String {
    guard let text = String(validatingUTF8: UnsafeBufferPointer(rebasing: bytes[range])) else {
      throw error(.invalidUTF8, number, "the comment is not valid UTF-8")
    }
    return text
  }

  private func validate(_ range: Range<Int>, _ number: Int) throws(POParseError) {
    guard String.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) else {
      throw error(.invalidUTF8, number, "the comment is not valid UTF-8")
    }
  }

  private func matches(_ range: Range<Int>, _ word: StaticString) -> Bool {
    range.count == word.utf8CodeUnitCount
      && word.withUTF8Buffer { $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[range])) }
  }

  private func isFuzzy(_ range: Range<Int>) -> Bool { matches(range, "fuzzy") }

  /// `range` without the spaces and tabs at its ends.
  private func trimmed(_ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, isBlank(bytes[lower]) { lower += 1 }
    while upper > lower, isBlank(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }

  /// The non-empty parts of `range` between separator bytes.
  private func pieces(_ range: Range<Int>, separatedBy isSeparator: (UInt8) -> Bool) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = range.lowerBound
    for index in range where isSeparator(bytes[index]) {
      if index > start { result.append(start..<index) }
      start = index + 1
    }
    if range.upperBound > start { result.append(start..<range.upperBound) }
    return result
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
