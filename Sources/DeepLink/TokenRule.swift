/// Which ASCII characters a token value may hold, and how many.
///
/// Written like a regular-expression class: `TokenRule("A-Za-z0-9._-",
/// length: 1...64)` is `[A-Za-z0-9._-]{1,64}`. A `-` at either end of the
/// class stands for itself.
public struct TokenRule: Hashable, Sendable, CustomStringConvertible {
  /// The identifier of a notification and its actions: `[A-Za-z0-9._-]{1,64}`.
  public static let identifier = TokenRule(unchecked: "A-Za-z0-9._-", length: 1...64)
  /// The name of an app view: `[a-z0-9-]{1,32}`.
  public static let viewName = TokenRule(unchecked: "a-z0-9-", length: 1...32)

  /// The characters, as written to the initialiser.
  public let characterClass: String
  /// How many characters a token has.
  public let length: ClosedRange<Int>
  /// One bit per allowed ASCII byte, 0–63 and 64–127.
  private let low: UInt64
  private let high: UInt64

  /// A rule for tokens of `length` characters from `characterClass`.
  ///
  /// Returns `nil` when the class is empty, holds a non-ASCII or control
  /// character, or has a range running backwards, or when `length` starts below 1.
  public init?(_ characterClass: String, length: ClosedRange<Int>) {
    guard length.lowerBound >= 1, let masks = TokenRule.masks(characterClass) else { return nil }
    self.characterClass = characterClass
    self.length = length
    (low, high) = masks
  }

  private init(unchecked characterClass: String, length: ClosedRange<Int>) {
    self.characterClass = characterClass
    self.length = length
    (low, high) = TokenRule.masks(characterClass) ?? (0, 0)
  }

  /// `[class]{min,max}`.
  public var description: String {
    "[\(characterClass)]{\(length.lowerBound),\(length.upperBound)}"
  }

  /// Whether `text` is a token of this rule.
  public func matches(_ text: String) -> Bool {
    problem(text.utf8) == nil
  }

  /// Whether `byte` may stand in a token.
  func allows(_ byte: UInt8) -> Bool {
    guard byte < 0x80 else { return false }
    return ((byte < 64 ? low : high) >> UInt64(byte & 63)) & 1 == 1
  }

  /// Why `bytes` is not a token of this rule, with the offset of the problem; `nil` when it is one.
  func problem(_ bytes: some Collection<UInt8>) -> (offset: Int, message: String)? {
    for (offset, byte) in bytes.enumerated() where !allows(byte) {
      return (offset, "\(ASCII.describe(byte)) is not allowed; the value must match \(self)")
    }
    guard length.contains(bytes.count) else {
      return (0, "the value has \(bytes.count) characters; it must match \(self)")
    }
    return nil
  }

  private static func masks(_ characterClass: String) -> (UInt64, UInt64)? {
    let bytes = Array(characterClass.utf8)
    guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
    var low: UInt64 = 0
    var high: UInt64 = 0
    var index = 0
    while index < bytes.count {
      var last = bytes[index]
      let first = last
      if index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "-") {
        last = bytes[index + 2]
        index += 3
      } else {
        index += 1
      }
      guard first <= last else { return nil }
      for byte in first...last {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
      }
    }
    return (low, high)
  }
}
