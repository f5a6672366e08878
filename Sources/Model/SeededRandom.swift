/// A small, fast random number generator that repeats its sequence for a seed (SplitMix64).
///
/// `shieldbridge puzzle --seed S` uses it so that a test, or a person checking
/// a report, sees the same tasks again. It is not for secrets.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

extension RandomNumberGenerator {
  /// A uniformly distributed number in `range`, drawn by Lemire's method.
  ///
  /// The standard library's `Int.random(in:using:)` does not promise the same
  /// draws across Swift versions; this does, so a seed keeps its tasks.
  mutating func uniform(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    var product = next().multipliedFullWidth(by: span)
    if product.low < span {
      let threshold = (0 &- span) % span
      while product.low < threshold {
        product = next().multipliedFullWidth(by: span)
      }
    }
    return range.lowerBound + Int(product.high)
  }
}
