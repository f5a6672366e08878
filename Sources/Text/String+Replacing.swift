/// Finding and replacing text, without the standard library's string processing
/// (`_StringProcessing`), which no module of the shipped binary imports, so that it
/// and `_RegexParser` are not linked in (docs/developing/benchmarks.md, "Size").
extension StringProtocol {
  /// Whether `text` occurs in this one (the empty text does).
  public func includes(_ text: some StringProtocol) -> Bool {
    firstRange(ofText: text) != nil
  }

  /// This text with every occurrence of `target` replaced by `replacement`, from left to right
  /// (an occurrence that overlaps one replaced already is not one). An empty `target` replaces nothing.
  public func replacingAll(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
    guard !target.isEmpty else { return String(self) }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(ofText: target) {
      result.append(contentsOf: rest[..<range.lowerBound])
      result.append(contentsOf: replacement)
      rest = rest[range.upperBound...]
    }
    result.append(contentsOf: rest)
    return result
  }

  /// The first range of `text` in this one, compared by characters as `==` compares strings.
  private func firstRange(ofText text: some StringProtocol) -> Range<Index>? {
    guard let first = text.first else { return startIndex..<startIndex }
    var index = startIndex
    while index != endIndex {
      if self[index] == first, self[index...].hasPrefix(text) {
        return index..<self.index(index, offsetBy: text.count)
      }
      formIndex(after: &index)
    }
    return nil
  }
}
