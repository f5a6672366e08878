/// What the link scanner reports, part by part, in the order of the link.
protocol LinkVisitor {
  /// The scheme: the bytes before `://`, syntactically valid.
  mutating func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(DeepLinkError)
  /// The route after `://`, a valid route name, at `offset`.
  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int)
    throws(DeepLinkError)
  /// One parameter: its key as written and its value decoded once.
  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, at valueOffset: Int
  ) throws(DeepLinkError)
  /// The end of the link, at `offset` (its length).
  mutating func visitEnd(at offset: Int) throws(DeepLinkError)
}

/// The strict scanner of the link grammar.
///
/// ```
/// link  = scheme "://" route [ "?" param *( "&" param ) ]
/// param = key "=" value          ; key: [a-z][a-z0-9-]*
/// value = *( unreserved / "%" HEXDIG HEXDIG )
/// ```
/// It splits on the raw delimiters first and decodes each value once
/// afterwards, so an escaped `%26` or `%3D` stays data. The first problem from
/// the left is the one reported.
enum LinkScanner {
  static func scan(_ link: UnsafeBufferPointer<UInt8>, into visitor: inout some LinkVisitor)
    throws(DeepLinkError)
  {
    let count = link.count
    guard count <= DeepLink.maximumLength else {
      throw DeepLinkError(
        .tooLong, at: DeepLink.maximumLength,
        "the link has \(count) bytes; at most \(DeepLink.maximumLength) are allowed")
    }
    let routeStart = try scanScheme(link)
    try visitor.visitScheme(UnsafeBufferPointer(rebasing: link[0..<(routeStart - 3)]))

    var routeEnd = routeStart
    while routeEnd < count && link[routeEnd] != UInt8(ascii: "?") { routeEnd += 1 }
    let route = UnsafeBufferPointer(rebasing: link[routeStart..<routeEnd])
    if let problem = routeSyntaxProblem(route) {
      throw DeepLinkError(.unknownRoute, at: routeStart, problem)
    }
    try visitor.visitRoute(route, at: routeStart)

    if routeEnd < count {
      // Values decode to at most their own length; the scratch space lives on the stack.
      try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) {
        scratch throws(DeepLinkError) in
        guard let scratch = scratch.baseAddress else { return }
        var start = routeEnd + 1
        while true {
          var end = start
          while end < count && link[end] != UInt8(ascii: "&") { end += 1 }
          try scanParameter(link, start..<end, scratch: scratch, into: &visitor)
          if end == count { break }
          start = end + 1
        }
      }
    }
    try visitor.visitEnd(at: count)
  }

  /// Checks `scheme "://"` and returns the offset just after it.
  private static func scanScheme(_ link: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) -> Int {
    guard let first = link.first, ASCII.isLetter(first) else {
      throw DeepLinkError(
        .badScheme, at: 0, "a link starts with a scheme and '://', such as 'shieldbridge://'")
    }
    var index = 1
    while index < link.count && ASCII.isSchemeByte(link[index]) { index += 1 }
    let separator: [UInt8] = [UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "/")]
    for (position, expected) in separator.enumerated()
    where index + position >= link.count || link[index + position] != expected {
      let scheme = ASCII.excerpt(UnsafeBufferPointer(rebasing: link[0..<index]))
      throw DeepLinkError(
        .badScheme, at: index + position, "the scheme '\(scheme)' must be followed by '://'")
    }
    return index + 3
  }

  /// Why `route` is not a route name, or `nil` when it is one.
  static func routeSyntaxProblem(_ route: UnsafeBufferPointer<UInt8>) -> String? {
    guard let first = route.first else { return "the link has no route after '://'" }
    if ASCII.isLetter(first) && route.allSatisfy(ASCII.isRouteByte) { return nil }
    return "'\(ASCII.excerpt(route))' is not a route name (letters, digits and '-')"
  }

  private static func scanParameter(
    _ link: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
    scratch: UnsafeMutablePointer<UInt8>, into visitor: inout some LinkVisitor
  ) throws(DeepLinkError) {
    guard !range.isEmpty else {
      let after =
        range.lowerBound == 0 ? "" : " after \(ASCII.describe(link[range.lowerBound - 1]))"
      throw DeepLinkError(
        .malformedParameter, at: range.lowerBound, "a parameter is missing\(after)")
    }
    var equals = range.lowerBound
    while equals < range.upperBound && link[equals] != UInt8(ascii: "=") {
      let byte = link[equals]
      let allowed =
        equals == range.lowerBound ? ASCII.isLowercaseLetter(byte) : ASCII.isKeyByte(byte)
      guard allowed else {
        throw DeepLinkError(
          .malformedParameter, at: equals,
          "\(ASCII.describe(byte)) cannot stand in a parameter key, which is [a-z][a-z0-9-]*")
      }
      equals += 1
    }
    let key = UnsafeBufferPointer(rebasing: link[range.lowerBound..<equals])
    guard equals < range.upperBound else {
      throw DeepLinkError(
        .malformedParameter, at: range.upperBound,
        "the parameter '\(ASCII.excerpt(key))' has no '=' and value")
    }
    guard !key.isEmpty else {
      throw DeepLinkError(.malformedParameter, at: equals, "a parameter has an empty key")
    }
    let valueOffset = equals + 1
    let written = try PercentDecoder.decode(
      UnsafeBufferPointer(rebasing: link[valueOffset..<range.upperBound]), base: valueOffset,
      into: scratch, using: .strictUnreserved, check: .textWithoutControls)
    try visitor.visitParameter(
      key: key, at: range.lowerBound, value: UnsafeBufferPointer(start: scratch, count: written),
      at: valueOffset)
  }
}
