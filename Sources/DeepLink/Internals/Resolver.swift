/// Fills the slots of one route from a scanned link, one slot per rule.
///
/// A slot left absent was not given (or was an empty text); defaults are
/// the route's business.
struct Resolver: LinkVisitor {
  /// Kept alive by the router for the whole resolution, so not counted here;
  /// read for messages only, as every use of a class reference costs a retain.
  unowned(unsafe) let table: CompiledRoutes
  private let tables: CompiledRoutes.Tables
  let slots: UnsafeMutableBufferPointer<Slot>
  /// The index of the route in the table, once seen.
  var route = -1
  /// One bit per rule whose key was seen.
  var seen: UInt64 = 0
  var ignored: [String] = []

  init(table: CompiledRoutes, slots: UnsafeMutableBufferPointer<Slot>) {
    self.table = table
    tables = table.tables
    self.slots = slots
  }

  /// Whether `other` equals the `count` bytes of the table at `start`.
  private func matches(_ other: UnsafeBufferPointer<UInt8>, _ start: Int, count: Int) -> Bool {
    guard other.count == count, let base = other.baseAddress else { return other.count == count }
    return tables.matches(base, start, count: count)
  }

  func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(DeepLinkError) {
    guard matches(scheme, 0, count: tables.schemeCount) else {
      throw DeepLinkError(
        .badScheme, at: 0, "the scheme must be '\(table.schemeName)', not '\(ASCII.excerpt(scheme))'")
    }
  }

  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) throws(DeepLinkError) {
    for (index, entry) in tables.routes.enumerated() where matches(route, entry.nameStart, count: entry.nameCount) {
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
    let entry = tables.routes[route]
    for slot in 0..<entry.ruleCount {
      let index = entry.firstRule + slot
      guard matches(key, tables.rules[index].keyStart, count: tables.rules[index].keyCount) else { continue }
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
    let entry = tables.routes[route]
    for slot in 0..<entry.ruleCount where tables.rules[entry.firstRule + slot].required && slots[slot].state == .absent
    {
      let index = entry.firstRule + slot
      throw DeepLinkError(
        .missingParameter, at: offset,
        "the route '\(table.routeNames[route])' needs a value for '\(table.parameterRules[index].key)'")
    }
  }

  /// The slot of decoded bytes checked against the rule at `index`; absent for an empty text.
  private func slot(_ bytes: UnsafeBufferPointer<UInt8>, decodedAt start: Int, at offset: Int, rule index: Int)
    throws(DeepLinkError) -> Slot
  {
    if let slot = tables.rules[index].slot(bytes, decodedAt: start, in: tables) { return slot }
    // The value is wrong: the slow path says why.
    let rule = table.parameterRules[index]
    switch rule.kind {
    case .integer(let range):
      throw rule.outOfRange(range, ASCII.excerpt(bytes), at: offset)
    case .token(let token):
      if let problem = token.problem(bytes) {
        throw DeepLinkError(.invalidValue, at: offset, "\(rule.key): \(problem.message)")
      }
    case .text:
      break
    }
    throw DeepLinkError(.invalidValue, at: offset, "\(rule.key) is not valid")
  }

  private func twice(_ key: String, at offset: Int) -> DeepLinkError {
    DeepLinkError(.duplicateParameter, at: offset, "the parameter '\(key)' is given twice")
  }
}
