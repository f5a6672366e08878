/// The resolver's fast path: one pass over a plain link, and no errors.
///
/// Nearly every link a router sees is plain: the router's scheme and one of
/// its routes, then only keys of that route, each once, with values that are
/// valid. This path reads such a link once, byte by byte through the class
/// tables, compares the scheme, route and keys with the table's bytes a word
/// at a time, decodes each value as it goes and checks it against its rule.
/// It gives up at anything else (an unknown key, a wrong byte, a bad value)
/// and says nothing about why: the router then runs the strict
/// ``LinkScanner`` with the ``Resolver`` from the start, which finds the
/// first problem from the left and names it, or accepts the link.
///
/// So this path must accept only links the strict path accepts, and fill the
/// same slots; the tests and the fuzzer hold both to that on random input.
enum FastResolver {
  /// Fills `slots` from `link` and returns the index of its route, or `nil`
  /// when the link is not a plain one.
  ///
  /// - Parameters:
  ///   - decoded: Room for `link.count` bytes and 16 more, where the values
  ///     are decoded one after the other; the 16 bytes after them are set to
  ///     zero, so that ``RouteValues/text(_:)`` may read them.
  ///   - slots: One slot per rule of the table's longest route, all absent.
  static func resolve(
    _ link: UnsafeBufferPointer<UInt8>, in tables: CompiledRoutes.Tables,
    decodingInto decoded: UnsafeMutablePointer<UInt8>, slots: UnsafeMutablePointer<Slot>
  ) -> Int? {
    let count = link.count
    guard count <= DeepLink.maximumLength, let source = link.baseAddress else { return nil }

    // `scheme://`, the letters without case.
    guard count >= tables.prefixCount && tables.matches(source, 0, count: tables.prefixCount) else { return nil }

    // A route name, followed by `?` or the end.
    var index = tables.prefixCount
    let rest = FastResolver.word(source + index, available: count &- index)
    var found = 0
    while true {
      guard found < tables.routes.count else { return nil }
      let name = tables.routes[found]
      let end = index &+ name.nameCount
      if end <= count && (end == count || source[end] == UInt8(ascii: "?"))
        && (rest | name.nameFold) & name.nameMask == name.nameWord
        && (name.nameCount <= 8 || tables.matches(source + index, name.nameStart, count: name.nameCount))
      {
        index = end
        break
      }
      found &+= 1
    }
    let route = tables.routes[found]
    let rules = tables.rules + route.firstRule

    var seen: UInt64 = 0
    var present: UInt64 = 0
    var written = 0
    if index < count {
      // Past the `?`: `key=value` pairs separated by `&`, at least one.
      index &+= 1
      while true {
        guard let slot = rule(at: &index, of: source, count: count, rules: rules, route.ruleCount, tables) else {
          return nil
        }
        // `slot` is below 64, the most rules a route may have.
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: slot)
        guard seen & bit == 0 else { return nil }
        seen |= bit
        guard let length = decodeValue(at: &index, of: source, count: count, into: decoded + written, tables) else {
          return nil
        }
        let value = UnsafeBufferPointer(start: decoded + written, count: length)
        guard let filled = rules[slot].slot(value, decodedAt: written, in: tables) else { return nil }
        slots[slot] = filled
        if filled.state != .absent { present |= bit }
        written &+= length
        // `decodeValue` stops at the end or at a `&`.
        if index == count { break }
        index &+= 1
      }
    }
    guard route.required & ~present == 0 else { return nil }
    (decoded + written).initialize(repeating: 0, count: 16)
    return found
  }

  /// The slot of the rule whose key starts at `index`, which is moved past
  /// the `=`; `nil` for a malformed key or one the route does not have.
  ///
  /// A rule's key is valid, so a key that equals it and ends at a `=` is valid
  /// too: the bytes are compared with each key in turn, a word at a time,
  /// without reading them one by one.
  @inline(__always)
  private static func rule(
    at index: inout Int, of source: UnsafePointer<UInt8>, count: Int, rules: UnsafePointer<CompiledRoutes.RuleEntry>,
    _ ruleCount: Int, _ tables: CompiledRoutes.Tables
  ) -> Int? {
    let start = index
    let word = FastResolver.word(source + start, available: count &- start)
    for slot in 0..<ruleCount {
      // Through the pointer, so that only the fields compared are read.
      let rule = rules + slot
      let end = start &+ rule.pointee.keyCount
      guard
        end < count && word & rule.pointee.keyMask == rule.pointee.packedKey && source[end] == UInt8(ascii: "=")
          && (end &- start <= 8 || tables.matches(source + start, rule.pointee.keyStart, count: end &- start))
      else { continue }
      index = end &+ 1
      return slot
    }
    return nil
  }

  /// The bytes at `bytes`, up to eight of the `available` ones, as a
  /// little-endian word padded with zeros.
  @inline(__always)
  private static func word(_ bytes: UnsafePointer<UInt8>, available: Int) -> UInt64 {
    if available >= 8 { return UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self) }
    var word: UInt64 = 0
    var index = 0
    while index < available {
      word |= UInt64(bytes[index]) &<< UInt64(index &* 8)
      index &+= 1
    }
    return word
  }

  /// Decodes the value at `index` into `output` up to the end or a `&`,
  /// where it leaves `index`, and returns how many bytes it wrote; `nil` at a
  /// raw byte that is not allowed, a bad escape, a control character or bytes
  /// that are not UTF-8.
  ///
  /// Not inlined: on its own, its loop keeps every pointer in a register.
  @inline(never)
  private static func decodeValue(
    at index: inout Int, of source: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>,
    _ tables: CompiledRoutes.Tables
  ) -> Int? {
    let classes = tables.classes
    let unreserved = ByteTables.Class.unreserved.rawValue
    var input = source + index
    let end = source + count
    var target = output
    // The UTF-8 sequence being decoded: continuation bytes still to come, and
    // the range of the next one.
    var pending: UInt32 = 0
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    while true {
      // A run of unreserved bytes, copied as they are; none may fall inside a sequence.
      let available = end - input
      var run = 0
      while run < available && classes[Int(input[run])] & unreserved != 0 {
        target[run] = input[run]
        run &+= 1
      }
      guard pending == 0 || run == 0 else { return nil }
      input += run
      target += run
      guard input < end && input.pointee == UInt8(ascii: "%") else { break }
      guard end - input > 2 else { return nil }
      let high = tables.hexValues[Int(input[1])]
      let low = tables.hexValues[Int(input[2])]
      guard high | low < 0x10 else { return nil }
      let decoded = high << 4 | low
      if pending > 0 {
        guard decoded >= lower && decoded <= upper else { return nil }
        pending &-= 1
        lower = 0x80
        upper = 0xBF
      } else if decoded >= 0x80 {
        let lead = tables.utf8Leads[Int(decoded)]
        guard lead != 0 else { return nil }
        pending = lead & 0xFF
        lower = UInt8(truncatingIfNeeded: lead &>> 8)
        upper = UInt8(truncatingIfNeeded: lead &>> 16)
      } else if classes[Int(decoded)] & ByteTables.Class.control.rawValue != 0 {
        return nil
      }
      target.pointee = decoded
      target += 1
      input += 3
    }
    guard pending == 0 && (input == end || input.pointee == UInt8(ascii: "&")) else { return nil }
    index = input - source
    return target - output
  }
}
