/// Fills the slots of one route from a scanned link, one slot per rule.
///
/// A slot left absent was not given (or was an empty text); defaults are
/// the route's business. `Policy` says what a problem becomes: with
/// ``ReportingProblems`` (the strict path) a ``DeepLinkError`` that names
/// it, and keys the route does not know are kept in ``ignored``; with
/// ``StoppingAtProblems`` (the router's fast path) the resolver only
/// collects values, and stops at a problem or an unknown key without a word.
struct Resolver<Policy: ProblemReporter>: LinkVisitor {
  typealias Reporter = Policy

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
  @inline(__always)
  private func matches(_ other: UnsafeBufferPointer<UInt8>, _ start: Int, count: Int) -> Bool {
    guard other.count == count, let base = other.baseAddress else { return other.count == count }
    return tables.matches(base, start, count: count)
  }

  @inline(__always)
  func expectedSchemeLength(in link: UnsafeBufferPointer<UInt8>) -> Int? {
    guard link.count >= tables.prefixCount, let base = link.baseAddress,
      tables.matches(base, 0, count: tables.prefixCount)
    else { return nil }
    return tables.prefixCount
  }

  @inline(__always)
  mutating func takeExpectedRoute(in link: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    guard let base = link.baseAddress else { return nil }
    for index in 0..<tables.routes.count {
      let entry = tables.routes[index]
      let end = start &+ entry.nameCount
      guard
        end <= link.count && (end == link.count || base[end] == UInt8(ascii: "?"))
          && tables.matches(base + start, entry.nameStart, count: entry.nameCount)
      else { continue }
      route = index
      return end
    }
    return nil
  }

  var byteTables: PercentDecoder.KeptBytes {
    @inline(__always) get { tables.byteTables }
  }

  @inline(__always)
  func visitScheme(_ scheme: UnsafeBufferPointer<UInt8>) throws(Failure) {
    guard matches(scheme, 0, count: tables.schemeCount) else {
      throw Policy.failure(
        DeepLinkError(
          .badScheme, at: 0, "the scheme must be '\(table.schemeName)', not '\(ASCII.excerpt(scheme))'"))
    }
  }

  @inline(__always)
  mutating func visitRoute(_ route: UnsafeBufferPointer<UInt8>, at offset: Int) throws(Failure) {
    for index in 0..<tables.routes.count
    where matches(route, tables.routes[index].nameStart, count: tables.routes[index].nameCount) {
      self.route = index
      return
    }
    throw Policy.failure(
      DeepLinkError(
        .unknownRoute, at: offset,
        "'\(ASCII.excerpt(route))' is not a route; the routes are \(table.routeNames.map { "'\($0)'" }.joined(separator: ", "))"
      ))
  }

  @inline(__always)
  mutating func visitParameter(
    key: UnsafeBufferPointer<UInt8>, word: UInt64, at keyOffset: Int,
    value: UnsafeBufferPointer<UInt8>, decodedAt decodedOffset: Int, at valueOffset: Int
  ) throws(Failure) {
    guard route >= 0 else { return }
    let entry = tables.routes[route]
    for slot in 0..<entry.ruleCount {
      let index = entry.firstRule &+ slot
      // Through the pointer, so that only the fields compared are read.
      let rule = tables.rules + index
      // Keys of up to eight bytes are compared as words; longer ones byte by byte after that.
      guard
        rule.pointee.keyCount == key.count && rule.pointee.packedKey == word
          && (key.count <= 8 || matches(key, rule.pointee.keyStart, count: rule.pointee.keyCount))
      else { continue }
      // `slot` is below 64, the most rules a route may have.
      let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: slot)
      guard seen & bit == 0 else {
        throw Policy.failure(twice(table.parameterRules[index].key, at: keyOffset))
      }
      seen |= bit
      guard let filled = tables.rules[index].slot(value, decodedAt: decodedOffset, in: tables) else {
        throw Policy.failure(invalid(value, at: valueOffset, rule: index))
      }
      slots[slot] = filled
      return
    }
    guard Policy.keepsNotes else {
      throw Policy.failure(DeepLinkError(.malformedParameter, at: keyOffset, "a key the route does not know"))
    }
    let name = String(decoding: key, as: UTF8.self)
    guard !ignored.contains(name) else { throw Policy.failure(twice(name, at: keyOffset)) }
    ignored.append(name)
  }

  @inline(__always)
  func visitEnd(at offset: Int) throws(Failure) {
    guard route >= 0 else { return }
    let entry = tables.routes[route]
    for slot in 0..<entry.ruleCount where tables.rules[entry.firstRule &+ slot].required && slots[slot].state == .absent
    {
      throw Policy.failure(
        DeepLinkError(
          .missingParameter, at: offset,
          "the route '\(table.routeNames[route])' needs a value for '\(table.parameterRules[entry.firstRule + slot].key)'"
        ))
    }
  }

  /// Why the decoded bytes are not a value of the rule at `index`.
  private func invalid(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, rule index: Int) -> DeepLinkError {
    let rule = table.parameterRules[index]
    switch rule.kind {
    case .integer(let range):
      return rule.outOfRange(range, ASCII.excerpt(bytes), at: offset)
    case .token(let token):
      if let problem = token.problem(bytes) {
        return DeepLinkError(.invalidValue, at: offset, "\(rule.key): \(problem.message)")
      }
    case .text:
      break
    }
    return DeepLinkError(.invalidValue, at: offset, "\(rule.key) is not valid")
  }

  private func twice(_ key: String, at offset: Int) -> DeepLinkError {
    DeepLinkError(.duplicateParameter, at: offset, "the parameter '\(key)' is given twice")
  }
}
