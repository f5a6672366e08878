import Posix

/// A parsed PO (or POT) file: its header and its live entries, in file order.
public struct POFile: Hashable, Sendable {
  /// The path or name the file was read from, used in diagnostics.
  public var path: String
  /// The header entry, when the file has one.
  public var headerEntry: POEntry?
  /// The header's fields, when the file has a header entry.
  public var header: POHeader?
  /// The entries except the header; obsolete (`#~`) entries are not included.
  public var entries: [POEntry]

  /// The largest file the parser reads: catalogs are small, and this bounds memory on hostile input.
  public static let maximumSize = 4 << 20

  /// Parses a PO file's bytes.
  ///
  /// - Parameters:
  ///   - bytes: The file's content, UTF-8 (a byte-order mark is skipped).
  ///   - path: The name used in errors.
  ///   - keepingComments: `false` keeps only the flags (`#,`) of the entries,
  ///     which is all a runtime lookup needs; the file is checked the same way.
  /// - Throws: ``POParseError`` naming the file and the line of the first problem.
  public init(parsing bytes: [UInt8], path: String, keepingComments: Bool = true)
    throws(POParseError)
  {
    guard bytes.count <= Self.maximumSize else {
      throw POParseError(
        .tooLarge, file: path, line: 0, "the file is larger than \(Self.maximumSize) bytes")
    }
    let (consumer, fieldLines) = try bytes.withUnsafeBufferPointer {
      (buffer) throws(POParseError) in
      var parser = POParser(
        bytes: buffer, path: path, keepComments: keepingComments, consumer: EntryCollector())
      try parser.parse()
      return (parser.consumer, parser.headerFieldLines)
    }
    self.path = path
    headerEntry = consumer.header
    header = consumer.header.map { entry in
      POHeader(
        text: entry.translations.first ?? "", line: entry.translationLines.first ?? entry.line,
        fieldLines: fieldLines)
    }
    entries = consumer.entries
  }

  /// Reads and parses the PO file at `path`; see ``init(parsing:path:keepingComments:)``.
  ///
  /// - Throws: ``POParseError`` when the file cannot be read or parsed.
  public init(contentsOf path: String, keepingComments: Bool = true) throws(POParseError) {
    try self.init(parsing: try Self.read(path), path: path, keepingComments: keepingComments)
  }

  /// The bytes of the file at `path`, at most ``maximumSize``.
  ///
  /// - Throws: ``POParseError`` with code `unreadable` or `tooLarge`.
  static func read(_ path: String) throws(POParseError) -> [UInt8] {
    do throws(ReadFileError) {
      return try FileSystem.readFile(path, limit: maximumSize)
    } catch .tooLarge(let limit) {
      throw POParseError(.tooLarge, file: path, line: 0, "the file is larger than \(limit) bytes")
    } catch {
      throw POParseError(
        .unreadable, file: path, line: 0, "cannot read the file: \(error.description)")
    }
  }
}

/// Keeps every entry of a file as a ``POEntry``, the header apart.
private struct EntryCollector: POEntryConsumer {
  var header: POEntry?
  var entries: [POEntry] = []

  mutating func consume(_ raw: inout RawPOEntry, isFirst: Bool, path: String) throws(POParseError) {
    let entry = try raw.build(path: path)
    if isFirst, entry.isHeader {
      header = entry
    } else {
      entries.append(entry)
    }
  }
}
