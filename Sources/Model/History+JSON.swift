public import JSON
import Text
import Time

extension History {
  /// The history as stored, days and names sorted so that equal histories are equal files:
  /// `{"version":1,"days":[{"date":"2026-11-29","rules":{"social":{"usedSeconds":190,`
  /// `"apps":{"Instagram":130,"TikTok":60},"limitSeconds":600,"grants":1,"shieldsShown":1,`
  /// `"tasksAsked":1,"tasksSolved":1,"backedOut":0}}}]}`, and `"forgottenBefore":"2026-11-20"`
  /// after `report --forget`. Every figure is written, zeros included; `limitSeconds` only when known.
  public var json: JSONValue {
    let entries = days.keys.sorted().map { day -> JSONValue in
      let rules = (days[day] ?? [:]).sorted { $0.key < $1.key }.map { name, entry in
        (name, entry.json)
      }
      return .object([("date", .string(day.description)), ("rules", .object(rules))])
    }
    var members: [(String, JSONValue)] = [("version", .integer(History.formatVersion))]
    if let forgottenBefore { members.append(("forgottenBefore", .string(forgottenBefore.description))) }
    members.append(("days", .array(entries)))
    return .object(members)
  }

  /// The file as the store writes it: ``json`` with one day a line, so that
  /// a report of a few days reads only their lines (``init(fileBytes:only:)``);
  /// the whole file is the same JSON value.
  public var fileBytes: [UInt8] {
    var bytes = History.fileHeader(forgottenBefore: forgottenBefore)
    let sorted = days.keys.sorted()
    for (index, day) in sorted.enumerated() {
      History.appendLine(of: day, days[day] ?? [:], to: &bytes)
      bytes += Array((index == sorted.count - 1 ? "\n" : ",\n").utf8)
    }
    bytes += Array("]}\n".utf8)
    return bytes
  }

  /// The file's first line, up to the days: `{"version":1,"forgottenBefore":"…","days":[`.
  private static func fileHeader(forgottenBefore: LocalDay?) -> [UInt8] {
    var bytes = Array("{\"version\":\(History.formatVersion)".utf8)
    if let forgottenBefore { bytes += Array(",\"forgottenBefore\":\"\(forgottenBefore)\"".utf8) }
    return bytes + Array(",\"days\":[\n".utf8)
  }

  /// The line of `day` as ``fileBytes`` writes it, without its comma.
  private static func appendLine(of day: LocalDay, _ rules: [String: HistoryEntry], to bytes: inout [UInt8]) {
    let members = rules.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }
    JSONValue.object([("date", .string(day.description)), ("rules", .object(members))]).write(to: &bytes)
  }

  /// Changes the days of `touched` alone in a file of ``fileBytes``'s layout:
  /// only their lines are read, `change` is given a history of them (with the
  /// file's ``forgottenBefore``), and the file is written again with the other
  /// days' lines copied as they are and the days `keeps` refuses left out, as
  /// ``forgetOldDays(keeping:today:)`` leaves them out. So a save of today
  /// costs today's line and a copy, however many days the file holds.
  ///
  /// - Returns: `nil` when the file is not laid out so, or a touched line does not read, or a
  ///   date is in it twice (read it whole, and judge it so); else the history
  ///   `change` left, and the new file, `nil` when nothing changed.
  package static func changingDays(
    _ touched: Set<LocalDay>, inFile bytes: [UInt8], keeps: (LocalDay) -> Bool, _ change: (inout History) -> Void
  ) -> (history: History, file: [UInt8]?)? {
    guard let file = dayLines(of: bytes) else { return nil }
    var seen = Set<LocalDay>(minimumCapacity: file.lines.count)
    var read: [LocalDay: [String: HistoryEntry]] = [:]
    var reader = HistoryLine.Reader()
    for (day, line) in file.lines {
      guard seen.insert(day).inserted else { return nil }
      guard touched.contains(day) else { continue }
      guard let rules = History.rules(ofLine: line, day: day, reader: &reader) else { return nil }
      read[day] = rules
    }
    let before = History(days: read, forgottenBefore: file.forgottenBefore)
    var changed = before
    change(&changed)
    // A day `change` holds is written from it; a touched day it dropped is dropped.
    let copied = file.lines.filter { changed.days[$0.day] == nil && !touched.contains($0.day) && keeps($0.day) }
    let kept = changed.days.filter { keeps($0.key) }
    // Unchanged: the days read come back as they were, and no line is left out.
    if changed.forgottenBefore == file.forgottenBefore, kept == read, copied.count + read.count == file.lines.count {
      return (changed, nil)
    }
    var out = fileHeader(forgottenBefore: changed.forgottenBefore)
    out.reserveCapacity(bytes.count + 4_096)
    var lines = copied.map { (day: $0.day, line: Optional($0.line)) } + kept.keys.map { (day: $0, line: nil) }
    lines.sort { $0.day < $1.day }
    for (index, entry) in lines.enumerated() {
      if let line = entry.line {
        out += line
      } else {
        appendLine(of: entry.day, kept[entry.day] ?? [:], to: &out)
      }
      out += Array((index == lines.count - 1 ? "\n" : ",\n").utf8)
    }
    out += Array("]}\n".utf8)
    return (changed, out)
  }

  /// Reads only the days in `range` from a file of ``fileBytes``'s layout,
  /// parsing no other day's line; `nil` when the file is not laid out so (a
  /// hand edit, damage, a newer version): then read it whole with ``init(json:)``.
  public init?(fileBytes bytes: [UInt8], only range: ClosedRange<LocalDay>) {
    self.init(fileBytes: bytes, where: range.contains)
  }

  /// Reads the days `wanted` accepts from a file of ``fileBytes``'s layout
  /// (every line but the last ending in a comma), as ``init(fileBytes:only:)``.
  ///
  /// Each wanted line is read by ``HistoryLine`` when it has the store's
  /// exact shape, by the general JSON parser otherwise: the same figures
  /// either way, several times faster for the lines the store wrote.
  package init?(fileBytes bytes: [UInt8], where wanted: (LocalDay) -> Bool) {
    guard let file = History.dayLines(of: bytes) else { return nil }
    var days: [LocalDay: [String: HistoryEntry]] = [:]
    days.reserveCapacity(file.lines.count)
    var reader = HistoryLine.Reader()
    for (day, line) in file.lines where wanted(day) {
      guard days[day] == nil, let rules = History.rules(ofLine: line, day: day, reader: &reader) else { return nil }
      days[day] = rules
    }
    self.init(days: days, forgottenBefore: file.forgottenBefore)
  }

  /// The days of a file of ``fileBytes``'s layout (every line but the last
  /// ending in a comma), each with its line without the comma, none read
  /// yet; `nil` when the file is not laid out so. A date may appear twice:
  /// the reader of the days decides.
  package static func dayLines(
    of bytes: [UInt8]
  ) -> (forgottenBefore: LocalDay?, lines: [(day: LocalDay, line: ArraySlice<UInt8>)])? {
    guard let file = bytes.withUnsafeBufferPointer({ dayLines(in: $0) }) else { return nil }
    return (file.forgottenBefore, file.lines.map { ($0.day, bytes[$0.range]) })
  }

  /// ``dayLines(of:)`` of bytes in memory (a file read into memory of its own), each line as its place in them.
  package static func dayLines(
    in bytes: UnsafeBufferPointer<UInt8>
  ) -> (forgottenBefore: LocalDay?, lines: [(day: LocalDay, range: Range<Int>)])? {
    var lines = History.lines(in: bytes)[...]
    guard let firstRange = lines.popFirst(), case let first = bytes[firstRange],
      first.starts(with: Array("{\"version\":".utf8)),
      first.reversed().starts(with: Array("[:\"syad\"".utf8)),
      let header = try? JSONValue(parsing: Array(first) + Array("]}".utf8)),
      let version = header["version"]?.integerValue, version == History.formatVersion,
      lines.last.map({ Array(bytes[$0]) }) == Array("]}".utf8)
    else { return nil }
    lines.removeLast()
    var forgottenBefore: LocalDay?
    if let value = header["forgottenBefore"] {
      guard let day = value.stringValue.flatMap(LocalDay.init) else { return nil }
      forgottenBefore = day
    }
    let prefix = Array("{\"date\":\"".utf8)
    var days: [(day: LocalDay, range: Range<Int>)] = []
    days.reserveCapacity(lines.count)
    let lastLine = lines.endIndex - 1
    for (index, range) in zip(lines.indices, lines) {
      let line = bytes[range]
      guard line.starts(with: prefix), line.count > prefix.count + 11 else { return nil }
      // The JSON array's commas: after every day but the last.
      guard (line.last == UInt8(ascii: ",")) == (index != lastLine) else { return nil }
      let dateStart = range.lowerBound + prefix.count
      guard let day = LocalDay(String(decoding: bytes[dateStart..<dateStart + 10], as: UTF8.self)) else {
        return nil
      }
      days.append((day, index == lastLine ? range : range.lowerBound..<range.upperBound - 1))
    }
    return (forgottenBefore, days)
  }

  /// The rules of `day` from its line (without the comma): read by
  /// ``HistoryLine`` when it has the store's exact shape, by the general
  /// JSON parser otherwise (the same figures either way, several times
  /// faster for the lines the store wrote); `nil` when it is neither.
  static func rules(
    ofLine line: ArraySlice<UInt8>, day: LocalDay, reader: inout HistoryLine.Reader
  ) -> [String: HistoryEntry]? {
    if let read = reader.read(line) { return read.rules }
    guard let json = try? JSONValue(parsing: line), json["date"]?.stringValue == day.description,
      let rules = json["rules"]?.objectValue
    else { return nil }
    var read: [String: HistoryEntry] = [:]
    for (name, value) in rules {
      guard read[name] == nil, let entry = try? HistoryEntry(json: value, at: name) else { return nil }
      read[name] = entry
    }
    return read
  }

  /// The non-empty lines of `bytes`, as their places: `memchr` over the
  /// buffer, many times faster than the generic `split` on a file of megabytes.
  static func lines(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    while let index = bytes.firstIndex(ofByte: 0x0A, from: start) {
      if index > start { ranges.append(start..<index) }
      start = index + 1
    }
    if bytes.count > start { ranges.append(start..<bytes.count) }
    return ranges
  }

  /// Reads a history from its stored form.
  ///
  /// Strict about the shape (a date twice, a count that is no whole number:
  /// the file is damaged), lenient about the size of a count, which is kept
  /// within what a day holds (``HistoryEntry/clamp()``).
  ///
  /// - Throws: ``LedgerFormatError`` (with `isNewerVersion` for a newer file).
  public init(json: JSONValue) throws(LedgerFormatError) {
    guard json.objectValue != nil else { throw LedgerFormatError("expected an object") }
    guard let version = json["version"]?.integerValue else {
      throw LedgerFormatError("\"version\" is missing or not a whole number")
    }
    guard version <= History.formatVersion else {
      throw LedgerFormatError("version \(version) is newer than this ShieldBridge reads", newer: true)
    }
    guard version >= 1 else { throw LedgerFormatError("unknown version \(version)") }
    var forgottenBefore: LocalDay?
    if let value = json["forgottenBefore"] {
      guard let text = value.stringValue, let day = LocalDay(text) else {
        throw LedgerFormatError("\"forgottenBefore\" is not a date like 2026-11-29")
      }
      forgottenBefore = day
    }
    guard let entries = json["days"]?.arrayValue else {
      throw LedgerFormatError("\"days\" is missing or not an array")
    }
    var days: [LocalDay: [String: HistoryEntry]] = [:]
    for (index, entry) in entries.enumerated() {
      guard let text = entry["date"]?.stringValue, let day = LocalDay(text) else {
        throw LedgerFormatError("days[\(index)].date is not a date like 2026-11-29")
      }
      guard days[day] == nil else { throw LedgerFormatError("days[\(index)]: \(day) appears twice") }
      guard let rules = entry["rules"]?.objectValue else {
        throw LedgerFormatError("days[\(index)].rules is missing or not an object")
      }
      var read: [String: HistoryEntry] = [:]
      for (name, value) in rules {
        guard read[name] == nil else { throw LedgerFormatError("days[\(index)].rules: '\(name)' appears twice") }
        read[name] = try HistoryEntry(json: value, at: "days[\(index)].rules.\(name)")
      }
      days[day] = read
    }
    self.init(days: days, forgottenBefore: forgottenBefore)
  }
}

extension HistoryEntry {
  /// The entry as stored (see ``History/json``).
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("usedSeconds", .int(usedSeconds))]
    members.append(("apps", .object(appParts.map { ($0.name, .int($0.seconds)) })))
    if let limitSeconds { members.append(("limitSeconds", .int(limitSeconds))) }
    members += [
      ("grants", .int(grants)), ("shieldsShown", .int(shieldsShown)), ("tasksAsked", .int(tasksAsked)),
      ("tasksSolved", .int(tasksSolved)), ("backedOut", .int(backedOut)),
    ]
    return .object(members)
  }

  init(json: JSONValue, at path: String) throws(LedgerFormatError) {
    guard json.objectValue != nil else { throw LedgerFormatError("\(path) is not an object") }
    func count(_ key: String) throws(LedgerFormatError) -> Int {
      guard let value = json[key] else { return 0 }
      guard let number = value.integerValue else {
        throw LedgerFormatError("\(path).\(key) is not a whole number")
      }
      return Int(clamping: number)
    }
    self.init()
    usedSeconds = try count("usedSeconds")
    if json["limitSeconds"] != nil { limitSeconds = try count("limitSeconds") }
    grants = try count("grants")
    shieldsShown = try count("shieldsShown")
    tasksAsked = try count("tasksAsked")
    tasksSolved = try count("tasksSolved")
    backedOut = try count("backedOut")
    if let value = json["apps"] {
      guard let members = value.objectValue else { throw LedgerFormatError("\(path).apps is not an object") }
      var read: [String: Int] = [:]
      for (name, seconds) in members {
        guard let seconds = seconds.integerValue else {
          throw LedgerFormatError("\(path).apps.\(name) is not a whole number")
        }
        read[name] = Int(clamping: seconds)
      }
      apps = read
    }
    clamp()
  }
}
