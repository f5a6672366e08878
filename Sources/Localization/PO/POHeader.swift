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
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      guard let colon = rawLine.firstIndex(of: ":") else { continue }
      let name = rawLine[..<colon].trimmingSpaces()
      guard !name.isEmpty else { continue }
      let value = rawLine[rawLine.index(after: colon)...].trimmingSpaces()
      let fieldLine = index < fieldLines.count ? fieldLines[index] : line
      fields.append(Field(name: String(name), value: String(value), line: fieldLine))
    }
    self.fields = fields
  }

  /// The first field called `name`, compared case-insensitively.
  public func field(_ name: String) -> Field? {
    let wanted = name.asciiLowercased
    return fields.first { $0.name.asciiLowercased == wanted }
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
  func trimmingSpaces() -> SubSequence {
    var start = startIndex
    var end = endIndex
    while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
    while end > start {
      let before = index(before: end)
      guard self[before] == " " || self[before] == "\t" else { break }
      end = before
    }
    return self[start..<end]
  }

  /// The text with ASCII letters lowercased and everything else unchanged.
  var asciiLowercased: String {
    String(
      decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
