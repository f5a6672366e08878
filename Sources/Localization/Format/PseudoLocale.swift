/// The generated locales that show untranslated, clipped or mirrored text at a glance; never stored in a catalog.
///
/// Both rewrite the English source text and leave placeholders untouched, so
/// that inserted values (app names, numbers) show as they are.
public enum PseudoLocale: String, CaseIterable, Sendable {
  /// `en-XA`: accented letters, about 40% longer, in brackets: `[Šöļvé á ţášķ one two]`.
  case accented = "en-XA"
  /// `ar-XB`: right-to-left; each run of text is shown mirrored, as Arabic script would flow.
  case bidi = "ar-XB"

  /// The pseudo-locale of `tag`, if it is one.
  public init?(tag: LocaleTag) {
    self.init(rawValue: tag.identifier)
  }

  /// The tag, `en-XA` or `ar-XB`.
  public var tag: LocaleTag { LocaleTag(rawValue) ?? .source }

  /// The text shown in this pseudo-locale for an English template.
  public func transform(_ template: MessageTemplate) -> MessageTemplate {
    switch self {
    case .accented: accent(template)
    case .bidi: mirror(template)
    }
  }

  private func accent(_ template: MessageTemplate) -> MessageTemplate {
    var segments: [MessageTemplate.Segment] = [.text("[")]
    var length = 0
    for segment in template.segments {
      switch segment {
      case .text(let text):
        length += text.unicodeScalars.count
        segments.append(
          .text(String(String.UnicodeScalarView(text.unicodeScalars.map(Self.accented)))))
      case .placeholder(let name):
        length += name.count + 2
        segments.append(segment)
      }
    }
    // Longer languages (German, Finnish) run about 40% over English; the filler makes clipping show.
    let target = (length * 2 + 4) / 5
    var filler = ""
    var word = 0
    while filler.count < target {
      filler += " " + Self.fillerWords[word % Self.fillerWords.count]
      word += 1
    }
    segments.append(.text(filler + "]"))
    return MessageTemplate(segments: Self.merged(segments))
  }

  private func mirror(_ template: MessageTemplate) -> MessageTemplate {
    // RLM makes the paragraph right-to-left; RLO … PDF lays each run out mirrored.
    var segments: [MessageTemplate.Segment] = [.text("\u{200F}")]
    for segment in template.segments {
      if case .text(let text) = segment {
        segments.append(.text("\u{202E}" + text + "\u{202C}"))
      } else {
        segments.append(segment)
      }
    }
    return MessageTemplate(segments: Self.merged(segments))
  }

  private static let fillerWords = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  ]

  private static func merged(_ segments: [MessageTemplate.Segment]) -> [MessageTemplate.Segment] {
    var result: [MessageTemplate.Segment] = []
    for segment in segments {
      if case .text(let next) = segment, case .text(let previous)? = result.last {
        result[result.count - 1] = .text(previous + next)
      } else {
        result.append(segment)
      }
    }
    return result
  }

  private static func accented(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard scalar.isASCII, let index = letters.firstIndex(of: scalar) else { return scalar }
    return accents[letters.distance(from: letters.startIndex, to: index)]
  }

  private static let letters = Array(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
  private static let accents = Array(
    "áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ".unicodeScalars)
}
