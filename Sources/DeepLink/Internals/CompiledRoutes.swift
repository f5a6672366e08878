/// A router's table flattened into bytes and trivial structs for the resolver.
///
/// The resolver runs for every link. Reading names, keys and rules out of
/// Swift arrays of strings and class instances costs a retain and a release
/// per access, which was most of its time; here they live in buffers owned by
/// this object and are read through the plain pointers of ``tables`` while
/// the router holds it. The strings and rules are kept beside them for error
/// messages only.
final class CompiledRoutes: @unchecked Sendable {
  // Immutable after `init`, hence safe to share between threads.

  struct RouteEntry {
    /// The lowercase name, in `bytes`.
    var nameStart: Int
    var nameCount: Int
    /// The route's rules, in `rules`.
    var firstRule: Int
    var ruleCount: Int
  }

  struct RuleEntry {
    enum Kind {
      case text
      case integer
      case token
    }

    /// The key, in `bytes`.
    var keyStart: Int
    var keyCount: Int
    /// The key's first eight bytes, little-endian and padded with zeros, to compare in one go.
    var packedKey: UInt64
    var kind: Kind
    /// The values of an integer, or the lengths of a token.
    var range: ClosedRange<Int>
    /// Where the bytes a token may hold are in ``Tables/tokens``: 256 bytes, 1 for those allowed.
    var tokenTable: Int
    var required: Bool
  }

  /// Where a text lies in ``Tables/bytes``; a negative count for no text.
  struct TextRange {
    var start: Int
    var count: Int
  }

  /// The buffers, as plain pointers that cost no reference counting to pass around.
  struct Tables {
    /// The scheme followed by `://`, the route names and the keys, one after
    /// the other, then eight zeros so that a word can be read at any of them.
    var bytes: UnsafePointer<UInt8>
    /// For each byte of `bytes`, what is ORed into a link's byte before they
    /// are compared: 0x20 for the letters of the scheme and the route names,
    /// which are compared without case; see ``ASCII/equal(_:_:folds:count:)``.
    var folds: UnsafePointer<UInt8>
    var routes: UnsafeBufferPointer<RouteEntry>
    var rules: UnsafePointer<RuleEntry>
    /// 256 bytes for each token rule; see ``RuleEntry/tokenTable``.
    var tokens: UnsafePointer<UInt8>
    /// The lowercase scheme, at the start of `bytes`.
    var schemeCount: Int
    /// The scheme and `://`, at the start of `bytes`.
    var prefixCount: Int
    /// The byte tables of the scan, read here without the check that a
    /// global has been initialised.
    var byteTables: PercentDecoder.KeptBytes

    /// Whether `count` bytes at `bytes` equal those of the table at `start`.
    @inline(__always)
    func matches(_ bytes: UnsafePointer<UInt8>, _ start: Int, count: Int) -> Bool {
      ASCII.equal(bytes, self.bytes + start, folds: folds + start, count: count)
    }
  }

  let tables: Tables
  /// The most rules of any route: the slots a resolution needs.
  let slotCount: Int
  /// For messages: the scheme, the route names (which resolutions carry
  /// too), and the rules in the order of `rules`.
  let schemeName: String
  let routeNames: [String]
  let parameterRules: [ParameterRule]
  /// For each route, by index, what the resolver for ``ShieldAction`` needs
  /// to make its action in place when it is a standard one (see
  /// ``StandardRoute``): behind a pointer, so that reading it retains nothing.
  let standardRoutes: UnsafeMutablePointer<StandardRoute?>
  /// The default of every rule, in the order of `rules`, for ``RouteValues``.
  let defaults: UnsafeMutablePointer<ParameterValue?>
  /// The same defaults' texts as bytes in ``Tables/bytes``, for a resolution
  /// that lends its texts rather than making strings of them.
  let defaultTexts: UnsafePointer<TextRange>
  private let routeCount: Int

  init(scheme: String, routes: [(name: String, rules: [ParameterRule])], standard: [StandardRoute?]) {
    var bytes: [UInt8] = []
    var folds: [UInt8] = []
    var routeEntries: [RouteEntry] = []
    var ruleEntries: [RuleEntry] = []
    var tokens: [UInt8] = []
    func append(_ text: String, foldingCase: Bool) -> (start: Int, count: Int) {
      let start = bytes.count
      bytes.append(contentsOf: text.utf8)
      folds.append(contentsOf: text.utf8.map { foldingCase && ASCII.isLetter($0) ? 0x20 : 0 })
      return (start, bytes.count - start)
    }
    let schemeCount = append(scheme, foldingCase: true).count
    let prefixCount = schemeCount + append("://", foldingCase: false).count
    for route in routes {
      let name = append(route.name, foldingCase: true)
      let first = ruleEntries.count
      for rule in route.rules {
        let key = append(rule.key, foldingCase: false)
        var entry = RuleEntry(
          keyStart: key.start, keyCount: key.count,
          packedKey: rule.key.utf8.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }, kind: .text, range: 0...0,
          tokenTable: 0, required: false)
        if case .required = rule.requirement {
          entry.required = true
        }
        switch rule.kind {
        case .text:
          break
        case .integer(let range):
          entry.kind = .integer
          entry.range = range
        case .token(let token):
          entry.kind = .token
          entry.range = token.length
          entry.tokenTable = tokens.count
          tokens += (0...255).map { token.allows(UInt8($0)) ? 1 : 0 }
        }
        ruleEntries.append(entry)
      }
      routeEntries.append(
        RouteEntry(nameStart: name.start, nameCount: name.count, firstRule: first, ruleCount: route.rules.count))
    }
    var defaultTexts: [TextRange] = []
    for rule in routes.flatMap(\.rules) {
      guard let text = rule.defaultValue?.text else {
        defaultTexts.append(TextRange(start: 0, count: -1))
        continue
      }
      let range = append(text, foldingCase: false)
      defaultTexts.append(TextRange(start: range.start, count: range.count))
    }
    bytes += Array(repeating: 0, count: 8)
    folds += Array(repeating: 0, count: 8)
    tables = Tables(
      bytes: CompiledRoutes.copy(bytes), folds: CompiledRoutes.copy(folds),
      routes: UnsafeBufferPointer(start: CompiledRoutes.copy(routeEntries), count: routeEntries.count),
      rules: CompiledRoutes.copy(ruleEntries), tokens: CompiledRoutes.copy(tokens), schemeCount: schemeCount,
      prefixCount: prefixCount, byteTables: .strictUnreserved)
    slotCount = routes.map(\.rules.count).max() ?? 0
    schemeName = scheme
    routeNames = routes.map(\.name)
    parameterRules = routes.flatMap(\.rules)
    defaults = .allocate(capacity: max(1, parameterRules.count))
    defaults.initialize(from: parameterRules.map(\.defaultValue), count: parameterRules.count)
    self.defaultTexts = CompiledRoutes.copy(defaultTexts)
    routeCount = routes.count
    standardRoutes = .allocate(capacity: max(1, routes.count))
    for index in routes.indices {
      let entry = standard.indices.contains(index) ? standard[index] : nil
      (standardRoutes + index).initialize(to: entry)
    }
  }

  /// The checked values of the route at `route`, from scratch space that a scan filled.
  @inline(__always)
  func values(of route: Int, slots: UnsafeMutableBufferPointer<Slot>, decoded: UnsafePointer<UInt8>) -> RouteValues {
    let entry = tables.routes[route]
    return RouteValues(
      slots: UnsafeBufferPointer(rebasing: slots[0..<entry.ruleCount]), decoded: decoded,
      defaults: defaults + entry.firstRule, defaultTexts: defaultTexts + entry.firstRule, tableBytes: tables.bytes)
  }

  /// `elements` in a buffer of their own, never empty, so that its address is never `nil`.
  private static func copy<Element>(_ elements: [Element]) -> UnsafePointer<Element> {
    let buffer = UnsafeMutablePointer<Element>.allocate(capacity: max(1, elements.count))
    for (index, element) in elements.enumerated() {
      (buffer + index).initialize(to: element)
    }
    return UnsafePointer(buffer)
  }

  deinit {
    // Every element is a trivial value: nothing to deinitialise.
    tables.bytes.deallocate()
    tables.folds.deallocate()
    tables.routes.baseAddress?.deallocate()
    tables.rules.deallocate()
    tables.tokens.deallocate()
    defaultTexts.deallocate()
    standardRoutes.deinitialize(count: routeCount)
    standardRoutes.deallocate()
    defaults.deinitialize(count: parameterRules.count)
    defaults.deallocate()
  }
}

extension CompiledRoutes.RuleEntry {
  /// The slot for the decoded value `bytes`, which stands at `start` in the
  /// decoded bytes; absent for an empty text, `nil` when the rule rejects the value.
  @inline(__always)
  func slot(_ bytes: UnsafeBufferPointer<UInt8>, decodedAt start: Int, in tables: CompiledRoutes.Tables) -> Slot? {
    switch kind {
    case .text:
      return Slot(state: bytes.isEmpty ? .absent : .text, start: start, count: bytes.count, integer: 0)
    case .integer:
      guard let number = integer(bytes) else { return nil }
      return Slot(state: .integer, start: start, count: bytes.count, integer: number)
    case .token:
      guard range.contains(bytes.count) else { return nil }
      let allowed = tables.tokens + tokenTable
      for byte in bytes where allowed[Int(byte)] == 0 { return nil }
      return Slot(state: .text, start: start, count: bytes.count, integer: 0)
    }
  }

  /// The number that `bytes` spell in decimal, when it is in `range`.
  @inline(__always)
  private func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard !bytes.isEmpty && bytes.count <= 18 else { return nil }
    var number = 0
    for byte in bytes {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      number = number &* 10 &+ Int(digit)
    }
    return range.contains(number) ? number : nil
  }
}
