/// What the link scanner does with each part of a link, in the order of the
/// link, and with a problem (its ``Reporter``).
protocol LinkVisitor {
  associatedtype Reporter: ProblemReporter
  typealias Failure = Reporter.Failure

  /// How many bytes the scheme the visitor expects and `://` take at the
  /// start of `link`, when it starts with them; `nil` otherwise.
  ///
  /// A shortcut, not a second grammar: the visitor's scheme is valid, so the
  /// scanner need not read those bytes one by one, and it does not call
  /// ``visitScheme(_:)`` for a scheme the visitor has recognised. A visitor
  /// that expects no scheme in particular leaves it to the default, `nil`.
  func expectedSchemeLength(in link: UnsafeBufferPointer<UInt8>) -> Int?
  /// How many bytes one of the visitor's routes takes at `start` in `link`,
  /// when one stands there followed by `?` or the end; the visitor takes it
  /// as the link's route, and the scanner does not call ``visitRoute(_:at:)``.
  /// `nil` otherwise, and by default. A shortcut like the one for the scheme.
  mutating func takeExpectedRoute(in link: UnsafeBufferPointer<UInt8>, at start: Int) -> Int?
  /// The byte tables the scan reads; by default read from their globals, a
  /// check that they were initialised each time, which a visitor that keeps
  /// them spares.
  var byteTables: PercentDecoder.KeptBytes { get }
  /// The scheme: the bytes before `://`, syntactically valid.
  mutating func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(Failure)
  /// The route after `://`, a valid route name, at `offset`.
  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure)
  /// One parameter: its key as written and its value decoded once, which
  /// stays at `decodedOffset` in the decoded bytes until the scan is over.
  /// `word` holds the key's first eight bytes, little-endian, padded with zeros.
  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, word: UInt64, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, decodedAt decodedOffset: Int, at valueOffset: Int
  ) throws(Failure)
  /// The end of the link, at `offset` (its length).
  mutating func visitEnd(at offset: Int) throws(Failure)
}

extension LinkVisitor {
  func expectedSchemeLength(in link: UnsafeBufferPointer<UInt8>) -> Int? { nil }
  mutating func takeExpectedRoute(in link: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? { nil }
  var byteTables: PercentDecoder.KeptBytes { .strictUnreserved }
}

/// The scanner of the link grammar: the only one, for every use of a link.
///
/// ```
/// link  = scheme "://" route [ "?" param *( "&" param ) ]
/// param = key "=" value          ; key: [a-z][a-z0-9-]*
/// value = *( unreserved / "%" HEXDIG HEXDIG )
/// ```
/// It splits on the raw delimiters first and decodes each value once
/// afterwards, so an escaped `%26` or `%3D` stays data. The first problem from
/// the left is the one reported, through the visitor's ``LinkVisitor/Reporter``:
/// named on the strict path, a bare stop on the router's fast path. Both are
/// this code, specialised for each visitor.
enum LinkScanner {
  /// Scans `link`, with the decoded values in scratch space on the stack.
  static func scan<Visitor: LinkVisitor>(_ link: UnsafeBufferPointer<UInt8>, into visitor: inout Visitor)
    throws(Visitor.Failure)
  {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, link.count)) {
      decoded throws(Visitor.Failure) in
      guard let decoded = decoded.baseAddress else { return }
      try scan(link, decodingInto: decoded, into: &visitor)
    }
  }

  /// Scans `link`, decoding the values one after the other into `decoded`,
  /// which has room for `link.count` bytes.
  @inline(__always)
  static func scan<Visitor: LinkVisitor>(
    _ link: UnsafeBufferPointer<UInt8>, decodingInto decoded: UnsafeMutablePointer<UInt8>,
    into visitor: inout Visitor
  ) throws(Visitor.Failure) {
    let count = link.count
    guard count <= DeepLink.maximumLength else {
      throw Visitor.Reporter.failure(.tooLong(length: count))
    }
    // The tables, read once: each read of a global checks that it was initialised.
    let kept = visitor.byteTables
    let classes = kept.table
    let routeStart: Int
    if let expected = visitor.expectedSchemeLength(in: link) {
      routeStart = expected
    } else {
      routeStart = try scanScheme(link, classes, Visitor.Reporter.self)
      try visitor.visitScheme(UnsafeBufferPointer(rebasing: link[0..<(routeStart &- 3)]))
    }

    // One pass over the route: it ends at `?` or at the end, and is a name.
    let routeEnd: Int
    if let expected = visitor.takeExpectedRoute(in: link, at: routeStart) {
      routeEnd = expected
    } else {
      routeEnd = try scanRoute(link, from: routeStart, classes, into: &visitor)
    }

    if routeEnd < count {
      // Values decode to at most their own length, so all of them fit.
      var start = routeEnd &+ 1
      var written = 0
      while true {
        let end = try scanParameter(link, from: start, decoded: decoded, written: &written, kept, into: &visitor)
        if end == count { break }
        start = end &+ 1
      }
    }
    try visitor.visitEnd(at: count)
  }

  /// Reads the route name at `start`, hands it to the visitor, and returns where it ends.
  @inline(__always)
  private static func scanRoute<Visitor: LinkVisitor>(
    _ link: UnsafeBufferPointer<UInt8>, from routeStart: Int, _ classes: UnsafePointer<UInt8>,
    into visitor: inout Visitor
  ) throws(Visitor.Failure) -> Int {
    let count = link.count
    let route = ByteTables.Class.route.rawValue
    var routeEnd = routeStart
    while routeEnd < count && classes[Int(link[routeEnd])] & route != 0 { routeEnd &+= 1 }
    if routeEnd == routeStart || !ASCII.isLetter(link[routeStart])
      || (routeEnd < count && link[routeEnd] != UInt8(ascii: "?"))
    {
      while routeEnd < count && link[routeEnd] != UInt8(ascii: "?") { routeEnd &+= 1 }
      let route = UnsafeBufferPointer(rebasing: link[routeStart..<routeEnd])
      throw Visitor.Reporter.failure(
        DeepLinkError(.unknownRoute, at: routeStart, routeSyntaxProblem(route) ?? "not a route name"))
    }
    try visitor.visitRoute(UnsafeBufferPointer(rebasing: link[routeStart..<routeEnd]), at: routeStart)
    return routeEnd
  }

  /// Checks `scheme "://"` and returns the offset just after it.
  @inline(__always)
  private static func scanScheme<Reporter: ProblemReporter>(
    _ link: UnsafeBufferPointer<UInt8>, _ classes: UnsafePointer<UInt8>, _ reporter: Reporter.Type
  ) throws(Reporter.Failure) -> Int {
    guard let first = link.first, ASCII.isLetter(first) else {
      throw Reporter.failure(
        DeepLinkError(.badScheme, at: 0, "a link starts with a scheme and '://', such as 'shieldbridge://'"))
    }
    let scheme = ByteTables.Class.scheme.rawValue
    var index = 1
    while index < link.count && classes[Int(link[index])] & scheme != 0 { index &+= 1 }
    var position = index
    for expected in "://".utf8 {
      guard position < link.count && link[position] == expected else {
        throw Reporter.failure(
          DeepLinkError(
            .badScheme, at: position,
            "the scheme '\(ASCII.excerpt(UnsafeBufferPointer(rebasing: link[0..<index])))' must be followed by '://'"))
      }
      position &+= 1
    }
    return position
  }

  /// Why `route` is not a route name, or `nil` when it is one.
  static func routeSyntaxProblem(_ route: UnsafeBufferPointer<UInt8>) -> String? {
    guard let first = route.first else { return "the link has no route after '://'" }
    if ASCII.isLetter(first) && route.allSatisfy(ASCII.isRouteByte) { return nil }
    return "'\(ASCII.excerpt(route))' is not a route name (letters, digits and '-')"
  }

  /// Reads the parameter at `start` and returns where it ends: at `&` or at the end.
  @inline(__always)
  private static func scanParameter<Visitor: LinkVisitor>(
    _ link: UnsafeBufferPointer<UInt8>, from start: Int, decoded: UnsafeMutablePointer<UInt8>,
    written: inout Int, _ kept: PercentDecoder.KeptBytes, into visitor: inout Visitor
  ) throws(Visitor.Failure) -> Int {
    let count = link.count
    guard start < count && link[start] != UInt8(ascii: "&") else {
      throw Visitor.Reporter.failure(
        DeepLinkError(
          .malformedParameter, at: start,
          "a parameter is missing\(start == 0 ? "" : " after \(ASCII.describe(link[start &- 1]))")"))
    }
    // One pass over the key's bytes, gathering its first eight into a word
    // for the visitor to compare in one go; a key that is not `[a-z][a-z0-9-]*`
    // followed by `=` is read again, by `keyProblem`, to name what is wrong.
    let classes = kept.table
    let keyByte = ByteTables.Class.key.rawValue
    var equals = start
    while equals < count && classes[Int(link[equals])] & keyByte != 0 { equals &+= 1 }
    guard
      equals < count && link[equals] == UInt8(ascii: "=") && equals > start && ASCII.isLowercaseLetter(link[start])
    else {
      throw Visitor.Reporter.failure(keyProblem(link, from: start))
    }
    let keyWord = word(link, from: start, count: equals &- start)
    // The value is split off at the raw `&` and decoded once, in the same pass.
    let valueStart = equals &+ 1
    let value = try PercentDecoder.decode(
      UnsafeBufferPointer(rebasing: link[valueStart..<count]), base: valueStart, into: decoded + written,
      keeping: kept, check: .textWithoutControls, stoppingAt: UInt8(ascii: "&"), reporting: Visitor.Reporter.self)
    try visitor.visitParameter(
      key: UnsafeBufferPointer(rebasing: link[start..<equals]), word: keyWord, at: start,
      value: UnsafeBufferPointer(start: decoded + written, count: value.written), decodedAt: written, at: valueStart)
    written &+= value.written
    return valueStart &+ value.read
  }

  /// Up to eight bytes of `link` from `start`, the first `count`, as a
  /// little-endian word padded with zeros: one load where the link has eight
  /// bytes left, as it does before almost every key.
  @inline(__always)
  private static func word(_ link: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UInt64 {
    guard let base = link.baseAddress else { return 0 }
    let kept: UInt64 = count >= 8 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
    if link.count &- start >= 8 { return UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self) & kept }
    var word: UInt64 = 0
    for index in 0..<min(count, 8) {
      word |= UInt64(base[start &+ index]) &<< UInt64(truncatingIfNeeded: index &* 8)
    }
    return word
  }

  /// What is wrong with the key at `start`, which is not `[a-z][a-z0-9-]*` followed by `=`.
  private static func keyProblem(_ link: UnsafeBufferPointer<UInt8>, from start: Int) -> DeepLinkError {
    var equals = start
    while equals < link.count && link[equals] != UInt8(ascii: "&") && link[equals] != UInt8(ascii: "=") {
      let byte = link[equals]
      guard equals == start ? ASCII.isLowercaseLetter(byte) : ASCII.isKeyByte(byte) else {
        return DeepLinkError(
          .malformedParameter, at: equals,
          "\(ASCII.describe(byte)) cannot stand in a parameter key, which is [a-z][a-z0-9-]*")
      }
      equals &+= 1
    }
    guard equals < link.count && link[equals] == UInt8(ascii: "=") else {
      return DeepLinkError(
        .malformedParameter, at: equals,
        "the parameter '\(ASCII.excerpt(UnsafeBufferPointer(rebasing: link[start..<equals])))' has no '=' and value")
    }
    return DeepLinkError(.malformedParameter, at: equals, "a parameter has an empty key")
  }
}
