import DBus

/// How much of one notification the embedded server keeps in memory.
///
/// Sizes are bytes of the notification's JSON, as `list --json` prints it:
/// what the server keeps, and what a page of the control interface's
/// `ListPage` carries, is measured in one unit. A text is cut at a character
/// boundary; an action key or a hint is never cut (a shorter key would be
/// another action, a shorter image no image), it is dropped whole. Either way
/// the notification is marked ``ReceivedNotification/truncated``.
struct NotificationLimits: Sendable {
  /// The most one text (app name, icon, summary, body, an action's key or label, a hint) takes.
  var text: Int
  /// The most one notification takes, texts, actions and hints together.
  var notification: Int

  /// Room left for what is not a text: the numbers, the sender, the member names and punctuation.
  private static let fixedPart = 640

  /// Cuts `notification` down to these limits.
  func apply(to notification: inout ReceivedNotification) {
    var room = max(0, self.notification - Self.fixedPart)
    var truncated = notification.truncated
    func keep(_ text: String) -> String {
      let (kept, length, cut) = NotificationLimits.prefix(text, jsonBytes: min(self.text, room))
      room -= length
      truncated = truncated || cut
      return kept
    }
    notification.appName = keep(notification.appName)
    notification.icon = keep(notification.icon)
    notification.summary = keep(notification.summary)
    notification.body = keep(notification.body)
    // Actions take at most half of what is left, so that a flood of them
    // leaves room for the hints (urgency, resident), and the other way round.
    let hintShare = room / 2
    room -= hintShare
    var actions: [Notification.Action] = []
    for action in notification.actions {
      // `{"key":,"label":},` around the two strings.
      let keyLength = Self.jsonLength(action.key)
      guard keyLength <= text, keyLength + 20 <= room else {
        truncated = true
        continue
      }
      room -= keyLength + 20
      actions.append(Notification.Action(key: action.key, label: keep(action.label)))
    }
    notification.actions = actions
    room += hintShare
    var hints: [(name: HintName, value: DBusValue)] = []
    for hint in notification.hints {
      // `"name":` and a comma.
      let nameLength = Self.jsonLength(hint.name.rawValue) + 2
      guard nameLength <= min(text, room),
        let valueLength = Self.jsonLength(hint.value, limit: min(text, room - nameLength))
      else {
        truncated = true
        continue
      }
      room -= nameLength + valueLength
      hints.append(hint)
    }
    notification.hints = hints
    notification.truncated = truncated
  }

  /// What one byte of UTF-8 takes at most in JSON: the writer escapes control
  /// characters, DEL, U+2028 and U+2029 (which start with 0xE2) as `\uXXXX`,
  /// and a quote or backslash with a backslash.
  private static func jsonLength(of byte: UInt8) -> Int {
    switch byte {
    case 0..<0x20, 0x7F: 6
    case 0x22, 0x5C: 2
    case 0xE2: 4
    default: 1
    }
  }

  /// What `text` takes at most as a JSON string, with its quotes.
  static func jsonLength(_ text: String) -> Int {
    var total = 2
    for byte in text.utf8 { total += jsonLength(of: byte) }
    return total
  }

  /// The longest start of `text` whose JSON string takes at most `limit`
  /// bytes, cut before a character that would not fit; with the length it takes and whether it was cut.
  static func prefix(_ text: String, jsonBytes limit: Int) -> (String, length: Int, cut: Bool) {
    guard limit >= 2 else { return ("", 0, !text.isEmpty) }
    var text = text
    return text.withUTF8 { bytes in
      var total = 2
      var boundary = 0
      var lengthAtBoundary = 2
      for index in bytes.indices {
        let byte = bytes[index]
        if byte & 0xC0 != 0x80 {
          boundary = index
          lengthAtBoundary = total
        }
        total += jsonLength(of: byte)
        if total > limit {
          return (String(decoding: bytes[..<boundary], as: UTF8.self), lengthAtBoundary, true)
        }
      }
      return (String(decoding: bytes, as: UTF8.self), total, false)
    }
  }

  /// What `value` takes at most in JSON (numbers at their longest), or `nil` when that is over `limit`.
  static func jsonLength(_ value: DBusValue, limit: Int) -> Int? {
    var total = 0
    func add(_ value: DBusValue) -> Bool {
      switch value {
      // A double at its longest, or any number as a dictionary key (quoted).
      case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
        total += 26
      case .string(let text): total += jsonLength(text)
      case .objectPath(let path): total += jsonLength(path.rawValue)
      case .signature(let signature): total += jsonLength(signature.rawValue)
      case .variant(let inner):
        // `{"signature":"…","value":}` around what it holds (a signature needs no escapes).
        total += 26 + inner.type.description.utf8.count
        return total <= limit && add(inner)
      case .array(_, let values), .structure(let values):
        total += 2
        for element in values {
          total += 1
          guard add(element) else { return false }
        }
      case .dictionary(_, _, let entries):
        total += 2
        for entry in entries {
          // A key and a colon, or an array of two and a comma.
          total += 4
          guard add(entry.key), add(entry.value) else { return false }
        }
      }
      return total <= limit
    }
    return add(value) ? total : nil
  }
}
