/// Why a PO file could not be read, and where.
public struct POParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A stable identifier of the kind of problem.
  public enum Code: String, Hashable, Sendable {
    /// The file could not be opened or read.
    case unreadable
    /// The file is larger than the parser accepts.
    case tooLarge = "too-large"
    /// The bytes are not valid UTF-8.
    case invalidUTF8 = "invalid-utf8"
    /// A line that is neither a comment, a keyword nor a string.
    case unexpectedLine = "unexpected-line"
    /// A keyword in the wrong place, such as `msgstr` before `msgid`.
    case misplacedKeyword = "misplaced-keyword"
    /// A string without the closing quote, or text after it.
    case badString = "bad-string"
    /// A backslash sequence that is not one of C's.
    case badEscape = "bad-escape"
    /// An entry that ends without its `msgstr`.
    case missingTranslation = "missing-translation"
    /// `msgstr[N]` out of order, or the wrong kind of `msgstr` for the entry.
    case badPluralIndex = "bad-plural-index"
  }

  public var code: Code
  /// The file as it was named to the parser.
  public var file: String
  /// The line of the problem, counted from 1 (0 when the whole file is concerned).
  public var line: Int
  /// What was wrong, in words.
  public var message: String

  public init(_ code: Code, file: String, line: Int, _ message: String) {
    self.code = code
    self.file = file
    self.line = line
    self.message = message
  }

  public var description: String { "\(file):\(line): \(message)" }
}
