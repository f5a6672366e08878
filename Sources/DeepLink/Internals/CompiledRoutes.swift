/// A router's table flattened into bytes and trivial structs for the resolver.
///
/// The resolver runs for every link. Reading names, keys and rules out of
/// Swift arrays of strings and class instances costs a retain and a release
/// per access, which was most of its time; here they live in buffers owned by
/// this object and are read through pointers while the router holds it. The
/// strings and rules are kept beside them for error messages only.
final class CompiledRoutes: @unchecked Sendable {
  // Immutable after `init`, hence safe to share between threads.

  struct RouteEntry {
    /// The lowercase name, in `bytes`.
    var name: Range<Int>
    /// The route's rules, in `rules`.
    var rules: Range<Int>
  }

  struct RuleEntry {
    enum Kind {
      case text
      case integer
      case token
    }

    /// The key, in `bytes`.
    var key: Range<Int>
    var kind: Kind
    /// The values of an integer, or the lengths of a token.
    var range: ClosedRange<Int>
    /// The bytes a token may hold, as in ``TokenRule``.
    var allowed: (low: UInt64, high: UInt64)
    var required: Bool
  }

  let bytes: UnsafeMutableBufferPointer<UInt8>
  let routes: UnsafeMutableBufferPointer<RouteEntry>
  let rules: UnsafeMutableBufferPointer<RuleEntry>
  /// The lowercase scheme, in `bytes`.
  let scheme: Range<Int>
  /// The most rules of any route: the slots a resolution needs.
  let slotCount: Int
  /// For messages: the scheme, the route names, and the rules in the order of `rules`.
  let schemeName: String
  let routeNames: [String]
  let parameterRules: [ParameterRule]

  init(scheme: String, routes: [(name: String, rules: [ParameterRule])]) {
    var bytes = Array(scheme.utf8)
    var routeEntries: [RouteEntry] = []
    var ruleEntries: [RuleEntry] = []
    func append(_ text: String) -> Range<Int> {
      let start = bytes.count
      bytes.append(contentsOf: text.utf8)
      return start..<bytes.count
    }
    for route in routes {
      let name = append(route.name)
      let first = ruleEntries.count
      for rule in route.rules {
        let key = append(rule.key)
        let required = if case .required = rule.requirement { true } else { false }
        switch rule.kind {
        case .text:
          ruleEntries.append(RuleEntry(key: key, kind: .text, range: 0...0, allowed: (0, 0), required: required))
        case .integer(let range):
          ruleEntries.append(RuleEntry(key: key, kind: .integer, range: range, allowed: (0, 0), required: required))
        case .token(let token):
          ruleEntries.append(
            RuleEntry(key: key, kind: .token, range: token.length, allowed: token.masks, required: required))
        }
      }
      routeEntries.append(RouteEntry(name: name, rules: first..<ruleEntries.count))
    }
    self.bytes = .allocate(capacity: bytes.count)
    _ = self.bytes.initialize(from: bytes)
    self.routes = .allocate(capacity: routeEntries.count)
    _ = self.routes.initialize(from: routeEntries)
    self.rules = .allocate(capacity: ruleEntries.count)
    _ = self.rules.initialize(from: ruleEntries)
    self.scheme = 0..<scheme.utf8.count
    slotCount = routes.map(\.rules.count).max() ?? 0
    schemeName = scheme
    routeNames = routes.map(\.name)
    parameterRules = routes.flatMap(\.rules)
  }

  deinit {
    bytes.deallocate()
    routes.deallocate()
    rules.deallocate()
  }
}

/// Fills the slots of one route from a scanned link, one slot per rule.
///
/// A slot left absent was not given (or was an empty text); defaults are
/// the route's business.
struct Resolver: LinkVisitor {
  /// Kept alive by the router for the whole resolution, so not counted here;
  /// read for messages only, as every use of a class reference costs a retain.
  unowned(unsafe) let table: CompiledRoutes
  // The table's buffers, copied out: plain pointers, no reference counting.
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let routes: UnsafeMutableBufferPointer<CompiledRoutes.RouteEntry>
  private let rules: UnsafeMutableBufferPointer<CompiledRoutes.RuleEntry>
  private let scheme: Range<Int>
  let slots: UnsafeMutableBufferPointer<Slot>
  /// The index of the route in the table, once seen.
  var route = -1
  /// One bit per rule whose key was seen.
  var seen: UInt64 = 0
  var ignored: [String] = []

  init(table: CompiledRoutes, slots: UnsafeMutableBufferPointer<Slot>) {
    self.table = table
    bytes = table.bytes
    routes = table.routes
    rules = table.rules
    scheme = table.scheme
    self.slots = slots
  }

  /// Whether `other` equals the table's bytes in `range`; see ``ASCII/equal(_:_:count:foldingCase:)``.
  private func matches(_ other: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, ignoringCase: Bool) -> Bool {
    guard other.count == range.count, let base = other.baseAddress, let table = bytes.baseAddress else {
      return other.count == range.count
    }
    return ASCII.equal(base, table + range.lowerBound, count: range.count, foldingCase: ignoringCase)
  }

  func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) {
    guard matches(scheme, self.scheme, ignoringCase: true) else {
      throw DeepLinkError(
        .badScheme, at: 0, "the scheme must be '\(table.schemeName)', not '\(ASCII.excerpt(scheme))'")
    }
  }

  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) throws(DeepLinkError) {
    for index in routes.indices where matches(route, routes[index].name, ignoringCase: true) {
      self.route = index
      return
    }
    let known = table.routeNames.map { "'\($0)'" }.joined(separator: ", ")
    throw DeepLinkError(
      .unknownRoute, at: offset, "'\(ASCII.excerpt(route))' is not a route; the routes are \(known)")
  }

  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, decodedAt decodedOffset: Int, at valueOffset: Int
  ) throws(DeepLinkError) {
    guard route >= 0 else { return }
    let range = routes[route].rules
    for index in range where matches(key, rules[index].key, ignoringCase: false) {
      let slot = index - range.lowerBound
      guard seen & (1 << UInt64(slot)) == 0 else {
        throw twice(table.parameterRules[index].key, at: keyOffset)
      }
      seen |= 1 << UInt64(slot)
      slots[slot] = try self.slot(value, decodedAt: decodedOffset, at: valueOffset, rule: index)
      return
    }
    let name = String(decoding: key, as: UTF8.self)
    guard !ignored.contains(name) else { throw twice(name, at: keyOffset) }
    ignored.append(name)
  }

  func visitEnd(at offset: Int) throws(DeepLinkError) {
    guard route >= 0 else { return }
    let range = routes[route].rules
    for index in range where rules[index].required && slots[index - range.lowerBound].state == .absent {
      throw DeepLinkError(
        .missingParameter, at: offset,
        "the route '\(table.routeNames[route])' needs a value for '\(table.parameterRules[index].key)'")
    }
  }

  /// The slot of decoded bytes checked against the rule at `index`; absent for an empty text.
  private func slot(_ bytes: UnsafeBufferPointer<UInt8>, decodedAt start: Int, at offset: Int, rule index: Int)
    throws(DeepLinkError) -> Slot
  {
    let rule = rules[index]
    let text = Slot(state: bytes.isEmpty ? .absent : .text, start: start, count: bytes.count, integer: 0)
    switch rule.kind {
    case .text:
      return text
    case .integer:
      var number = 0
      var valid = !bytes.isEmpty && bytes.count <= 18
      for byte in bytes where valid {
        valid = ASCII.isDigit(byte)
        number = number &* 10 &+ Int(byte &- UInt8(ascii: "0"))
      }
      guard valid && rule.range.contains(number) else {
        throw table.parameterRules[index].outOfRange(rule.range, ASCII.excerpt(bytes), at: offset)
      }
      return Slot(state: .integer, start: start, count: bytes.count, integer: number)
    case .token:
      var valid = rule.range.contains(bytes.count)
      for byte in bytes where valid {
        valid = byte < 0x80 && ((byte < 64 ? rule.allowed.low : rule.allowed.high) >> UInt64(byte & 63)) & 1 == 1
      }
      guard valid else {
        // The slow path finds the offending character for the message.
        guard case .token(let token) = table.parameterRules[index].kind, let problem = token.problem(bytes) else {
          throw DeepLinkError(.invalidValue, at: offset, "\(table.parameterRules[index].key) is not valid")
        }
        throw DeepLinkError(.invalidValue, at: offset, "\(table.parameterRules[index].key): \(problem.message)")
      }
      return text
    }
  }

  private func twice(_ key: String, at offset: Int) -> DeepLinkError {
    DeepLinkError(.duplicateParameter, at: offset, "the parameter '\(key)' is given twice")
  }
}
