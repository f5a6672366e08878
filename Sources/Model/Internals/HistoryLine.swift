import Text
import Time

/// Reads one day's line of `history.json` as ``History/fileBytes`` writes it,
/// straight from the bytes, without building a ``JSON/JSONValue`` first.
///
/// A year of 100 rules is 6 MiB of such lines; the general parser builds a
/// tree of values, strings and arrays for each and took most of a year's
/// report. This reader accepts only the exact shape the store writes
/// (no spaces, the known keys at most once each, whole numbers of at most 18
/// digits, strings without escapes) and answers `nil` for anything else,
/// which the caller then reads with the general parser: so what it accepts
/// it reads exactly as ``HistoryEntry/init(json:at:)`` does, and what it
/// does not accept is read as before.
package struct HistoryLine {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index: Int
  /// The names read from the lines before, by their place in the line.
  private var names: NameCache

  private init(_ bytes: UnsafeBufferPointer<UInt8>, names: NameCache) {
    self.bytes = bytes
    index = 0
    self.names = names
  }

  /// Every day's line names the same rules and apps in the same order, so
  /// the name at each place in a line is most likely the one at that place in
  /// the line before: compared byte for byte, it is taken again instead of
  /// being checked as UTF-8 and made into a new string.
  struct NameCache {
    var names: [(bytes: [UInt8], string: String)] = []
    var next = 0

    mutating func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
      defer { next += 1 }
      if next < names.count {
        let cached = names[next]
        let same = cached.bytes.withUnsafeBufferPointer { $0.hasSameBytes(as: bytes) }
        if same { return cached.string }
      }
      // ASCII is valid UTF-8 as it is; anything else is checked as the general parser checks it.
      let string =
        bytes.allSatisfy { $0 < 0x80 }
        ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
      guard let string else { return nil }
      if next < names.count {
        names[next] = (Array(bytes), string)
      } else {
        names.append((Array(bytes), string))
      }
      return string
    }
  }

  /// Reads lines one after another, keeping its buffers: each dictionary is
  /// then made once at its size, not grown an element at a time.
  struct Reader {
    private var rules: [(String, HistoryEntry)] = []
    private var apps: [AppPart] = []
    private var names = NameCache()

    /// The day and its rules from `line` (without its trailing comma); `nil`
    /// when it is not in the store's exact shape, or names a rule twice.
    mutating func read(_ line: ArraySlice<UInt8>) -> (day: LocalDay, rules: [String: HistoryEntry])? {
      line.withUnsafeBufferPointer { buffer in
        // The cache moves into the line's reader and back, so that it is never copied.
        var reader = HistoryLine(buffer, names: names)
        names = NameCache()
        defer { names = reader.names }
        reader.names.next = 0
        return reader.day(rules: &rules, apps: &apps)
      }
    }
  }

  /// Reads lines straight into a report's stored figures
  /// (``HistoryReport/StoredDay``): the rules the report does not show are
  /// read and dropped, no ``HistoryEntry`` is kept, no dictionary made, and
  /// the rules' names are looked up once per place in the line, not once per line.
  package struct ReportReader {
    private var names = NameCache()
    private var apps: [AppPart] = []
    /// Per place of a rule in the lines read, its name and its place in the report (`nil`: not shown).
    private var places: [(name: String, place: Int?)] = []
    /// For a line in another shape.
    private var lines = Reader()

    package init() {}

    /// Puts the figures of `line` (the line of `day`, without its comma)
    /// into `stored` (cleared); `false` when the line cannot be read, in
    /// the store's shape or otherwise (``History/rules(ofLine:day:reader:)``).
    package mutating func read(
      _ line: UnsafeBufferPointer<UInt8>, day: LocalDay, into stored: inout HistoryReport.StoredDay
    ) -> Bool {
      // The cache moves into the line's reader and back, so that it is never copied.
      var reader = HistoryLine(line, names: names)
      names = NameCache()
      reader.names.next = 0
      let read = reader.reportDay(into: &stored, places: &places, apps: &apps)
      names = reader.names
      if read { return true }
      stored.clear()
      guard let rules = History.rules(ofLine: ArraySlice(line), day: day, reader: &lines) else { return false }
      stored.fill(rules)
      return true
    }
  }

  private mutating func reportDay(
    into stored: inout HistoryReport.StoredDay, places: inout [(name: String, place: Int?)],
    apps pairs: inout [AppPart]
  ) -> Bool {
    // The date is the one `History.dayLines(of:)` read from the same bytes.
    guard literal("{\"date\":"), let date = stringBytes(), date.count == 10, literal(",\"rules\":{") else {
      return false
    }
    var position = 0
    var previous: String?
    if !take(UInt8(ascii: "}")) {
      repeat {
        guard let name = string(), take(UInt8(ascii: ":")) else { return false }
        // The store writes a day's rules sorted, each once; a line that is not is left to the general reader.
        if let previous, !(previous < name) { return false }
        previous = name
        let place: Int?
        if position < places.count, places[position].name == name {
          place = places[position].place
        } else {
          place = stored.layout.places[name]
          if position < places.count { places[position] = (name, place) } else { places.append((name, place)) }
        }
        position += 1
        guard let entry = entry(apps: &pairs, keepingApps: false) else { return false }
        if let place { stored.fill(place: place, entry, apps: pairs) }
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")) else { return false }
    }
    return take(UInt8(ascii: "}")) && index == bytes.count
  }

  private mutating func day(
    rules pairs: inout [(String, HistoryEntry)], apps: inout [AppPart]
  ) -> (day: LocalDay, rules: [String: HistoryEntry])? {
    guard literal("{\"date\":"), let dateBytes = stringBytes(), dateBytes.count == 10,
      let day = LocalDay(String(decoding: dateBytes, as: UTF8.self)),
      literal(",\"rules\":{")
    else { return nil }
    pairs.removeAll(keepingCapacity: true)
    if !take(UInt8(ascii: "}")) {
      repeat {
        guard let name = string(), take(UInt8(ascii: ":")), let entry = entry(apps: &apps) else { return nil }
        pairs.append((name, entry))
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")) else { return nil }
    }
    guard take(UInt8(ascii: "}")), index == bytes.count else { return nil }
    var rules: [String: HistoryEntry] = Dictionary(minimumCapacity: pairs.count)
    for (name, entry) in pairs {
      // A rule named twice: the general reader decides (it refuses the file).
      guard rules.updateValue(entry, forKey: name) == nil else { return nil }
    }
    return (day, rules)
  }

  /// One rule's figures: `{"usedSeconds":…,"apps":{…},…}`, missing counts
  /// zero, as ``HistoryEntry/init(json:at:)`` reads them.
  ///
  /// With `keepingApps` false, the apps are left in `pairs` as they came
  /// (empty when there are none) and the entry has none.
  private mutating func entry(apps pairs: inout [AppPart], keepingApps: Bool = true) -> HistoryEntry? {
    guard take(UInt8(ascii: "{")) else { return nil }
    var entry = HistoryEntry(appParts: [])
    var seen: UInt16 = 0
    if !take(UInt8(ascii: "}")) {
      repeat {
        guard let key = stringBytes(), take(UInt8(ascii: ":")), let field = Field(key),
          seen & field.bit == 0
        else { return nil }
        seen |= field.bit
        if field == .apps {
          guard appPairs(&pairs) else { return nil }
          if keepingApps { entry.appParts = HistoryLine.parts(pairs) }
          continue
        }
        guard let value = integer() else { return nil }
        switch field {
        case .usedSeconds: entry.usedSeconds = value
        case .limitSeconds: entry.limitSeconds = value
        case .grants: entry.grants = value
        case .shieldsShown: entry.shieldsShown = value
        case .tasksAsked: entry.tasksAsked = value
        case .tasksSolved: entry.tasksSolved = value
        case .backedOut: entry.backedOut = value
        case .apps: break
        }
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")) else { return nil }
    }
    if seen & Field.apps.bit == 0 {
      while !pairs.isEmpty { pairs.removeLast() }
    }
    entry.clamp()
    return entry
  }

  /// `{"name":seconds,…}` into `pairs`, as they come.
  private mutating func appPairs(_ pairs: inout [AppPart]) -> Bool {
    guard take(UInt8(ascii: "{")) else { return false }
    // A few each: taken off one by one, which is cheaper than removeAll(keepingCapacity:).
    while !pairs.isEmpty { pairs.removeLast() }
    if take(UInt8(ascii: "}")) { return true }
    repeat {
      guard let name = string(), take(UInt8(ascii: ":")), let seconds = integer() else { return false }
      pairs.append(AppPart(name: name, seconds: seconds))
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}"))
  }

  /// The apps of `pairs` as an entry keeps them: a name given twice keeps
  /// its last seconds, as the general reader does. The store writes the
  /// names sorted, as ``HistoryEntry/appParts`` keeps them: those are taken
  /// as they are, without a dictionary.
  static func parts(_ pairs: [AppPart]) -> [AppPart] {
    var sorted = true
    for index in pairs.indices.dropFirst() where sorted { sorted = pairs[index - 1].name < pairs[index].name }
    if sorted { return pairs }
    var apps: [String: Int] = Dictionary(minimumCapacity: pairs.count)
    for part in pairs { apps[part.name] = part.seconds }
    return AppPart.sorted(apps)
  }

  private enum Field: UInt16 {
    case usedSeconds, apps, limitSeconds, grants, shieldsShown, tasksAsked, tasksSolved, backedOut

    var bit: UInt16 { 1 << rawValue }

    init?(_ key: UnsafeBufferPointer<UInt8>) {
      let candidates: (Field, Field?)
      switch key.count {
      case 4: candidates = (.apps, nil)
      case 6: candidates = (.grants, nil)
      case 9: candidates = (.backedOut, nil)
      case 10: candidates = (.tasksAsked, nil)
      case 11: candidates = (.usedSeconds, .tasksSolved)
      case 12: candidates = (.limitSeconds, .shieldsShown)
      default: return nil
      }
      if HistoryLine.equal(key, candidates.0.name) {
        self = candidates.0
      } else if let other = candidates.1, HistoryLine.equal(key, other.name) {
        self = other
      } else {
        return nil
      }
    }

    var name: StaticString {
      switch self {
      case .usedSeconds: "usedSeconds"
      case .apps: "apps"
      case .limitSeconds: "limitSeconds"
      case .grants: "grants"
      case .shieldsShown: "shieldsShown"
      case .tasksAsked: "tasksAsked"
      case .tasksSolved: "tasksSolved"
      case .backedOut: "backedOut"
      }
    }
  }

  private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
    bytes.hasSameBytes(as: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func literal(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - index >= count,
      UnsafeBufferPointer(rebasing: bytes[index..<index + count]).hasSameBytes(
        as: UnsafeBufferPointer(start: text.utf8Start, count: count))
    else { return false }
    index += count
    return true
  }

  /// The bytes between a pair of quotes; `nil` for a string with an escape
  /// or a control character (the general parser reads those).
  private mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
      }
      guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
    return nil
  }

  /// A string of valid UTF-8, as the general parser reads it.
  private mutating func string() -> String? {
    guard let bytes = stringBytes() else { return nil }
    return names.name(bytes)
  }

  /// A whole number written as JSON writes one (`-` and digits, no leading
  /// zero), of at most 18 digits so that it fits; nothing else.
  private mutating func integer() -> Int? {
    let negative = take(UInt8(ascii: "-"))
    let start = index
    var value = 0
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
      // More digits than fit: the general parser decides.
      guard index - start < 18 else { return nil }
      value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
      index += 1
    }
    let digits = index - start
    guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
    // A fraction or an exponent: the general parser decides.
    if index < bytes.count,
      bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
    {
      return nil
    }
    return negative ? -value : value
  }
}

extension HistoryReport.StoredDay {
  /// Takes `entry` (read without its apps) as the figures of the rule at
  /// `place`, with its apps as the line gave them in `pairs`.
  mutating func fill(place: Int, _ entry: HistoryEntry, apps pairs: [AppPart]) {
    // What the store writes: the names sorted, each once, every part above
    // zero and all within the seconds used. Those are the entry's parts as
    // they are (``HistoryEntry/clamp()`` leaves them), looked up in place.
    var plain = true
    var sum = 0
    for index in pairs.indices where plain {
      let (next, overflow) = sum.addingReportingOverflow(pairs[index].seconds)
      plain = pairs[index].seconds > 0 && !overflow && (index == 0 || pairs[index - 1].name < pairs[index].name)
      sum = next
    }
    if plain, sum <= entry.usedSeconds {
      fill(place: place, entry) { name in
        for pair in pairs where pair.name == name { return pair.seconds }
        return 0
      }
      return
    }
    var whole = entry
    whole.appParts = HistoryLine.parts(pairs)
    whole.clamp()
    fill(place: place, whole) { whole.appParts.seconds(of: $0) }
  }
}
