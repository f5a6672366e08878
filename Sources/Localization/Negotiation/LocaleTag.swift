/// A language tag as catalogs are named: a language, and optionally a script and a region (`de`, `de-AT`, `sr-Latn-RS`).
///
/// It reads both POSIX locale names (`de_AT.UTF-8@euro`: the codeset and the
/// modifier are dropped) and BCP 47 tags (`de-AT`), and prints the BCP 47 form.
public struct LocaleTag: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The language subtag, lowercase: `de`.
  public let language: String
  /// The script subtag, titlecase: `Latn`.
  public let script: String?
  /// The region subtag, uppercase: `AT`, or three digits: `419`.
  public let region: String?

  /// English, the language of the source texts (the msgids).
  public static let source = LocaleTag(checkedLanguage: "en")

  /// Reads a locale name or tag; `nil` for `C`, `POSIX`, and text that is no language tag.
  ///
  /// Subtags after the region (variants such as `valencia`) are ignored. The
  /// work is on ASCII bytes: tags are ASCII, and this runs while catalogs load.
  public init?(_ text: some StringProtocol) {
    var language: String?
    var script: String?
    var region: String?
    var subtag: [UInt8] = []
    var isDone = false
    // One subtag at a time: the language, then an optional script, then an optional region.
    func take() -> Bool {
      defer { subtag.removeAll(keepingCapacity: true) }
      if language == nil {
        guard (2...3).contains(subtag.count), subtag.allSatisfy(Self.isLetter) else { return false }
        language = Self.ascii(subtag, Self.lower)
      } else if script == nil, region == nil, subtag.count == 4, subtag.allSatisfy(Self.isLetter) {
        var titlecase = subtag.map(Self.lower)
        titlecase[0] = Self.upper(titlecase[0])
        script = String(decoding: titlecase, as: UTF8.self)
      } else if region == nil,
        (subtag.count == 2 && subtag.allSatisfy(Self.isLetter))
          || (subtag.count == 3 && subtag.allSatisfy(Self.isDigit))
      {
        region = Self.ascii(subtag, Self.upper)
        isDone = true
      } else {
        isDone = true
      }
      return true
    }
    for byte in text.utf8 {
      if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "@") { break }
      if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") {
        guard take() else { return nil }
        if isDone { break }
      } else {
        subtag.append(byte)
      }
    }
    if !isDone, !take() { return nil }
    guard let language else { return nil }
    self.init(checkedLanguage: language, script: script, region: region)
  }

  private init(checkedLanguage: String, script: String? = nil, region: String? = nil) {
    language = checkedLanguage
    self.script = script
    self.region = region
  }

  /// The BCP 47 form: `de-AT`.
  public var identifier: String {
    var identifier = language
    if let script { identifier += "-" + script }
    if let region { identifier += "-" + region }
    return identifier
  }

  public var description: String { identifier }

  /// This tag, then each less specific one: `sr-Latn-RS`, `sr-Latn`, `sr`.
  public var fallbacks: [LocaleTag] {
    var tags = [self]
    if region != nil, script != nil {
      tags.append(LocaleTag(checkedLanguage: language, script: script))
    }
    if region != nil || script != nil { tags.append(LocaleTag(checkedLanguage: language)) }
    return tags
  }

  /// The tag without script and region.
  public var languageOnly: LocaleTag { LocaleTag(checkedLanguage: language) }

  /// Orders by identifier, byte by byte (tags are ASCII).
  public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool {
    lhs.identifier.utf8.lexicographicallyPrecedes(rhs.identifier.utf8)
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private static func upper(_ byte: UInt8) -> UInt8 {
    byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
  }
  private static func lower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
  private static func ascii(_ bytes: [UInt8], _ transform: (UInt8) -> UInt8) -> String {
    String(decoding: bytes.map(transform), as: UTF8.self)
  }
}
