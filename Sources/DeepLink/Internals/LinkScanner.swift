/// What the link scanner does with each part of a link, in the order of the
/// link, and with a problem (its ``Reporter``).
protocol LinkVisitor {
  associatedtype Reporter: ProblemReporter
  typealias Failure = Reporter.Failure

  /// The scheme: the bytes before `://`, syntactically valid.
  mutating func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(Failure)
  /// The route after `://`, a valid route name, at `offset`.
  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure)
  /// One parameter: its key as written and its value decoded once, which
  /// stays at `decodedOffset` in the decoded bytes until the scan is over.
  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, decodedAt decodedOffset: Int, at valueOffset: Int
  ) throws(Failure)
  /// The end of the link, at `offset` (its length).
  mutating func visitEnd(at offset: Int) throws(Failure)
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
      throw Visitor.Reporter.failure(
        DeepLinkError(
          .tooLong, at: DeepLink.maximumLength,
          "the link has \(count) bytes; at most \(DeepLink.maximumLength) are allowed"))
    }
    let routeStart = try scanScheme(link, Visitor.Reporter.self)
    try visitor.visitScheme(UnsafeBufferPointer(rebasing: link[0..<(routeStart &- 3)]))

    // One pass over the route: it ends at `?` or at the end, and is a name.
    let classes = ByteTables.classes
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

    if routeEnd < count {
      // Values decode to at most their own length, so all of them fit.
      var start = routeEnd &+ 1
      var written = 0
      while true {
        let end = try scanParameter(link, from: start, decoded: decoded, written: &written, into: &visitor)
        if end == count { break }
        start = end &+ 1
      }
    }
    try visitor.visitEnd(at: count)
  }

  /// Checks `scheme "://"` and returns the offset just after it.
  @inline(__always)
  private static func scanScheme<Reporter: ProblemReporter>(
    _ link: UnsafeBufferPointer<UInt8>, _ reporter: Reporter.Type
  ) throws(Reporter.Failure) -> Int {
    guard let first = link.first, ASCII.isLetter(first) else {
      throw Reporter.failure(
        DeepLinkError(.badScheme, at: 0, "a link starts with a scheme and '://', such as 'shieldbridge://'"))
    }
    let classes = ByteTables.classes
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
    written: inout Int, into visitor: inout Visitor
  ) throws(Visitor.Failure) -> Int {
    let count = link.count
    guard start < count && link[start] != UInt8(ascii: "&") else {
      throw Visitor.Reporter.failure(
        DeepLinkError(
          .malformedParameter, at: start,
          "a parameter is missing\(start == 0 ? "" : " after \(ASCII.describe(link[start &- 1]))")"))
    }
    let classes = ByteTables.classes
    var allowed = ByteTables.Class.lowercase.rawValue
    var equals = start
    while true {
      guard equals < count && link[equals] != UInt8(ascii: "&") else {
        throw Visitor.Reporter.failure(
          DeepLinkError(
            .malformedParameter, at: equals,
            "the parameter '\(ASCII.excerpt(UnsafeBufferPointer(rebasing: link[start..<equals])))' has no '=' and value"
          ))
      }
      let byte = link[equals]
      if byte == UInt8(ascii: "=") { break }
      defer { allowed = ByteTables.Class.key.rawValue }
      guard classes[Int(byte)] & allowed != 0 else {
        throw Visitor.Reporter.failure(
          DeepLinkError(
            .malformedParameter, at: equals,
            "\(ASCII.describe(byte)) cannot stand in a parameter key, which is [a-z][a-z0-9-]*"))
      }
      equals &+= 1
    }
    guard equals > start else {
      throw Visitor.Reporter.failure(DeepLinkError(.malformedParameter, at: equals, "a parameter has an empty key"))
    }
    // The value is split off at the raw `&` and decoded once, in the same pass.
    let valueStart = equals &+ 1
    let value = try PercentDecoder.decode(
      UnsafeBufferPointer(rebasing: link[valueStart..<count]), base: valueStart, into: decoded + written,
      check: .textWithoutControls, stoppingAt: UInt8(ascii: "&"), reporting: Visitor.Reporter.self)
    try visitor.visitParameter(
      key: UnsafeBufferPointer(rebasing: link[start..<equals]), at: start,
      value: UnsafeBufferPointer(start: decoded + written, count: value.written), decodedAt: written, at: valueStart)
    written &+= value.written
    return valueStart &+ value.read
  }
}
