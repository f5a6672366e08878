extension Puzzle {
  /// The first task printed in `text` (``text``: `47 + 38`, `47 + 38 − 19`),
  /// as a notification's body, the shield page or the terminal shows it
  /// among other words; `nil` when there is none.
  ///
  /// Words are separated by spaces, line ends and question marks (`?`, `؟`);
  /// a number may carry other marks around it (`「47`), which are dropped.
  /// Besides the printed signs, `-`, `*` and `x` are read as they would be
  /// typed. A two-step task is found whole, not as its first step.
  public static func find(in text: some StringProtocol) -> Puzzle? {
    let words = text.split { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "?" || $0 == "؟" }
    func number(_ index: Int) -> Int? {
      guard index < words.count else { return nil }
      let digits = String(words[index].filter { $0.isASCII && $0.isNumber })
      return digits.isEmpty || digits.count > 9 ? nil : Int(digits)
    }
    func operation(_ index: Int) -> Operation? {
      guard index < words.count else { return nil }
      switch words[index] {
      case "+": return .addition
      case "\u{2212}", "-": return .subtraction
      case "\u{00D7}", "*", "x": return .multiplication
      default: return nil
      }
    }
    for index in words.indices {
      guard let left = number(index), let first = operation(index + 1), let right = number(index + 2) else {
        continue
      }
      if let second = operation(index + 3), let operand = number(index + 4) {
        return Puzzle(left, first, right, then: second, operand)
      }
      if let puzzle = Puzzle(left, first, right) { return puzzle }
    }
    return nil
  }
}
