/// The fields of a PO file's header entry (the `msgstr` of the empty `msgid`).
public struct POHeader: Hashable, Sendable {
  /// One `Name: value` line of the header.
  public struct Field: Hashable, Sendable {
    public var name: String
    public var value: String
    /// The line of the file that holds the field.
    public var line: Int
  }

  /// The fields in the order they appear.
  public var fields: [Field]
  /// The line of the header entry's `msgstr`.
  public var line: Int

  /// Splits the header text into fields; lines without a colon are ignored, as gettext does.
  public init(text: String, line: Int, fieldLines: [Int] = []) {
    self.line = line
    var fields: [Field] = []
    let bytes = Array(text.utf8)
    var lineStart = 0
    var lineIndex = 0
    while lineStart < bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
      if let colon = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")) {
        let name = Self.trimmed(bytes[lineStart..<colon])
        if !name.isEmpty {
          fields.append(
            Field(
              name: String(decoding: name, as: UTF8.self),
              value: String(decoding: Self.trimmed(bytes[colon + 1..<lineEnd]), as: UTF8.self),
              line: lineIndex < fieldLines.count ? fieldLines[lineIndex] : line))
        }
      }
      lineStart = lineEnd + 1
      lineIndex += 1
    }
    self.fields = fields
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = bytes
    while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
    while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
    return slice
  }

  /// The first field called `name`, compared case-insensitively.
  public func field(_ name: String) -> Field? {
    fields.first { $0.name.utf8.elementsEqual(name.utf8) { Self.lower($0) == Self.lower($1) } }
  }

  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  /// The value of the first field called `name`, compared case-insensitively.
  public subscript(name: String) -> String? { field(name)?.value }

  /// The `charset` parameter of `Content-Type`, lowercased.
  public var charset: String? {
    guard let contentType = self["Content-Type"] else { return nil }
    for parameter in contentType.split(separator: ";") {
      let trimmed = parameter.trimmingSpaces()
      if trimmed.asciiLowercased.hasPrefix("charset=") {
        return String(trimmed.dropFirst("charset=".count)).asciiLowercased
      }
    }
    return nil
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingSpaces() -> Substring {
    let text = Substring(self)
    let bytes = text.utf8
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 {
      bytes.formIndex(after: &start)
    }
    while start < end {
      let before = bytes.index(before: end)
      guard bytes[before] == 0x20 || bytes[before] == 0x09 else { break }
      end = before
    }
    return text[start..<end]
  }

  /// The text with ASCII letters lowercased and everything else unchanged.
  var asciiLowercased: String {
    String(
      decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
