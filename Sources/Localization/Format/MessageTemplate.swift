/// A message text with named placeholders in Python's brace syntax: `Solve a task for {app}.`
///
/// Names are identifiers (`[A-Za-z_][A-Za-z0-9_]*`); `{{` and `}}` stand for
/// literal braces. Conversions and format specs (`{app!r}`, `{n:>3}`) are not
/// part of the syntax: a text that uses them, or has an unmatched brace, does
/// not parse, and the localizer then falls back to the next language.
public struct MessageTemplate: Hashable, Sendable {
  /// A run of literal text or a placeholder.
  public enum Segment: Hashable, Sendable {
    case text(String)
    case placeholder(String)
  }

  /// Why a text is not a valid template.
  public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The offset in characters where it was found.
    public var offset: Int

    public var description: String { "\(message) at character \(offset + 1)" }
  }

  public let segments: [Segment]

  /// Parses `text`.
  ///
  /// - Throws: ``SyntaxError`` on an unmatched brace or a placeholder that is not a plain name.
  public init(parsing text: String) throws(SyntaxError) {
    // Braces are ASCII, so the scan is over UTF-8 bytes; literal runs are copied whole.
    var segments: [Segment] = []
    var literal = ""
    let bytes = text.utf8
    var runStart = bytes.startIndex
    var index = bytes.startIndex
    func fail(_ message: String, at position: String.Index) -> SyntaxError {
      SyntaxError(message: message, offset: text[..<position].count)
    }
    while index < bytes.endIndex {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") else {
        bytes.formIndex(after: &index)
        continue
      }
      literal += text[runStart..<index]
      let next = bytes.index(after: index)
      if next < bytes.endIndex, bytes[next] == byte {
        literal += byte == UInt8(ascii: "{") ? "{" : "}"
        index = bytes.index(after: next)
        runStart = index
        continue
      }
      guard byte == UInt8(ascii: "{") else { throw fail("a lone '}'", at: index) }
      guard let close = bytes[next...].firstIndex(of: UInt8(ascii: "}")) else {
        throw fail("a '{' without its '}'", at: index)
      }
      let name = String(text[next..<close])
      guard Self.isName(name) else {
        throw fail("'{\(name.prefix(20))}' is not a placeholder name", at: index)
      }
      if !literal.isEmpty { segments.append(.text(literal)) }
      literal = ""
      segments.append(.placeholder(name))
      index = bytes.index(after: close)
      runStart = index
    }
    literal += text[runStart..<bytes.endIndex]
    if !literal.isEmpty { segments.append(.text(literal)) }
    self.segments = segments
  }

  /// A template from segments, such as a pseudo-locale's rewrite.
  public init(segments: [Segment]) { self.segments = segments }

  /// The names of the placeholders, in order, repeated names included.
  public var placeholders: [String] {
    segments.compactMap {
      if case .placeholder(let name) = $0 { name } else { nil }
    }
  }

  /// The literal text only, without the placeholders.
  public var literalText: String {
    segments.map {
      if case .text(let text) = $0 { text } else { "" }
    }.joined()
  }

  /// Fills the placeholders; `nil` when one of them has no value, so that no placeholder reaches the screen.
  public func format(_ values: [String: String]) -> String? {
    var result = ""
    for segment in segments {
      switch segment {
      case .text(let text): result += text
      case .placeholder(let name):
        guard let value = values[name] else { return nil }
        result += value
      }
    }
    return result
  }

  /// Whether `name` is an identifier: `[A-Za-z_][A-Za-z0-9_]*`.
  static func isName(_ name: String) -> Bool {
    guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
    return name.utf8.allSatisfy { byte in
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }
  }
}
