import JSON

/// The one layout `shieldbridge rules` and `setup` write `config.json` in.
///
/// The file is written whole, in a fixed pretty form: two spaces of indent,
/// each member of an object and each element of an array on a line of its
/// own, except an array of plain values (`["Instagram", "TikTok"]`) and an
/// object below a rule (an app, `{"name": "Reddit", "sites": ["reddit.com"]}`)
/// whose members are plain values or arrays of them: those stay on one line.
/// The file, its sections and each rule always take a line per member. The first edit of a file
/// written by hand may move its lines into this form; from then on each edit
/// changes only the lines of what it changed, so that a diff of two edits
/// shows the change alone. Keys keep their order, unknown keys included.
///
/// Numbers keep the text they were written with (`1.50` stays `1.50`, and
/// digits beyond 64 bits stay as they were): ``carryingNumberTexts(_:_:)``
/// stands each such number in for a marked string until ``text(of:)`` writes
/// it back.
enum ConfigurationLayout {
  /// The start of a string that stands for a number's text; no text a person writes holds U+0000 then U+E000.
  static let numberMarker = "\u{0}\u{E000}number:"

  /// `value` with each number whose text was kept (by JSON Pointer) replaced by a marked string holding the text.
  ///
  /// - Returns: `nil` when the file already holds a string that starts with the marker.
  static func carryingNumberTexts(_ value: JSONValue, _ texts: [String: String], pointer: String = "") -> JSONValue? {
    switch value {
    case .number:
      guard let text = texts[pointer] else { return value }
      return .string(numberMarker + text)
    case .string(let text):
      // `.none`, not `nil`: JSONValue is ExpressibleByNilLiteral, and a `nil` here would be `.null`.
      return text.hasPrefix(numberMarker) ? .none : value
    case .array(let elements):
      var carried: [JSONValue] = []
      for (index, element) in elements.enumerated() {
        guard let element = carryingNumberTexts(element, texts, pointer: pointer + "/\(index)") else { return .none }
        carried.append(element)
      }
      return .array(carried)
    case .object(let members):
      var carried: [(String, JSONValue)] = []
      for (key, member) in members {
        let memberPointer = pointer + "/" + JSONValue.pointerToken(key)
        guard let member = carryingNumberTexts(member, texts, pointer: memberPointer) else { return .none }
        carried.append((key, member))
      }
      return .object(carried)
    case .null, .bool, .integer:
      return value
    }
  }

  /// The text of the file: `value` in the layout, with a final newline.
  static func text(of value: JSONValue) -> String {
    var text = ""
    write(value, depth: 0, indent: "", into: &text)
    return text + "\n"
  }

  /// The depth from which an object of plain values stays on one line: the apps of a rule.
  private static let flatObjectDepth = 3

  private static func write(_ value: JSONValue, depth: Int, indent: String, into text: inout String) {
    switch value {
    case .array(let elements) where !elements.isEmpty && !isFlat(value):
      text += "[\n"
      for (index, element) in elements.enumerated() {
        text += indent + "  "
        write(element, depth: depth + 1, indent: indent + "  ", into: &text)
        text += index == elements.count - 1 ? "\n" : ",\n"
      }
      text += indent + "]"
    case .object(let members) where !members.isEmpty && (depth < flatObjectDepth || !isFlat(value)):
      text += "{\n"
      for (index, (key, member)) in members.enumerated() {
        text += indent + "  " + JSONValue.string(key).serialized + ": "
        write(member, depth: depth + 1, indent: indent + "  ", into: &text)
        text += index == members.count - 1 ? "\n" : ",\n"
      }
      text += indent + "}"
    default:
      writeOnOneLine(value, into: &text)
    }
  }

  private static func writeOnOneLine(_ value: JSONValue, into text: inout String) {
    switch value {
    case .string(let string) where string.hasPrefix(numberMarker):
      text += string.dropFirst(numberMarker.count)
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += ", " }
        writeOnOneLine(element, into: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, (key, member)) in members.enumerated() {
        if index > 0 { text += ", " }
        text += JSONValue.string(key).serialized + ": "
        writeOnOneLine(member, into: &text)
      }
      text += "}"
    default:
      text += value.serialized
    }
  }

  /// Whether a container stays on one line: its members are plain values or arrays of plain values.
  private static func isFlat(_ value: JSONValue) -> Bool {
    func isPlain(_ value: JSONValue) -> Bool {
      switch value {
      case .array, .object: false
      default: true
      }
    }
    switch value {
    case .array(let elements):
      return elements.allSatisfy(isPlain)
    case .object(let members):
      return members.allSatisfy { _, member in
        if case .array(let elements) = member { return elements.allSatisfy(isPlain) }
        return isPlain(member)
      }
    default:
      return true
    }
  }
}
