import TestSupport

/// Random text from the scripts a shield meets: ASCII with its delimiters,
/// Latin with accents, CJK, emoji with joiners and modifiers, combining
/// marks, Arabic and Hebrew, and any other scalar.
enum RandomText {
  static let pools: [ClosedRange<UInt32>] = [
    0x20...0x7E,  // printable ASCII, with % & = + / ? # and space
    0x00...0x1F,  // C0 controls
    0x7F...0x9F,  // DEL and C1 controls
    0xA0...0x24F,  // Latin-1 and Latin Extended
    0x300...0x36F,  // combining marks
    0x590...0x6FF,  // Hebrew and Arabic
    0x200C...0x200F,  // joiners and direction marks
    0x4E00...0x9FFF,  // CJK
    0x1F300...0x1FAFF,  // emoji
    0x1F3FB...0x1F3FF,  // skin tone modifiers
    0xFE0F...0xFE0F,  // variation selector
    0x0...0x10FFFF,  // anything
  ]

  /// A string of up to `maximumLength` scalars; with `controls: false` it has no Cc character.
  static func string(
    using generator: inout SeededGenerator, maximumLength: Int = 40, controls: Bool = true
  ) -> String {
    let length = Int.random(in: 0...maximumLength, using: &generator)
    var scalars = String.UnicodeScalarView()
    while scalars.count < length {
      let pool = pools[Int.random(in: 0..<pools.count, using: &generator)]
      guard let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &generator)) else {
        continue
      }
      if !controls && scalar.properties.generalCategory == .control { continue }
      scalars.append(scalar)
    }
    return String(scalars)
  }

  /// A token of `rule`-like characters: `alphabet`, `length` long.
  static func token(
    from alphabet: String, length: ClosedRange<Int>, using generator: inout SeededGenerator
  ) -> String {
    let characters = Array(alphabet)
    let count = Int.random(in: length, using: &generator)
    return String(
      (0..<count).map { _ in characters[Int.random(in: 0..<characters.count, using: &generator)] })
  }
}
