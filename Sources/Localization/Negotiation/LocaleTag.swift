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
  /// Subtags after the region (variants such as `valencia`) are ignored.
  public init?(_ text: some StringProtocol) {
    var name = Substring(text)
    if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = name[..<cut] }
    let parts = name.split(separator: "_", omittingEmptySubsequences: false)
      .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
    guard let first = parts.first, (2...3).contains(first.utf8.count),
      first.utf8.allSatisfy(Self.isLetter)
    else {
      return nil
    }
    var script: String?
    var region: String?
    var rest = parts.dropFirst()
    if let next = rest.first, next.utf8.count == 4, next.utf8.allSatisfy(Self.isLetter) {
      script = next.prefix(1).uppercased() + next.dropFirst().asciiLowercased
      rest = rest.dropFirst()
    }
    if let next = rest.first,
      (next.utf8.count == 2 && next.utf8.allSatisfy(Self.isLetter))
        || (next.utf8.count == 3 && next.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    {
      region = next.uppercased()
    }
    self.init(checkedLanguage: first.asciiLowercased, script: script, region: region)
  }

  private init(checkedLanguage: String, script: String? = nil, region: String? = nil) {
    language = checkedLanguage
    self.script = script
    self.region = region
  }

  /// The BCP 47 form: `de-AT`.
  public var identifier: String {
    [language, script, region].compactMap { $0 }.joined(separator: "-")
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

  public static func < (lhs: LocaleTag, rhs: LocaleTag) -> Bool { lhs.identifier < rhs.identifier }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }
}
