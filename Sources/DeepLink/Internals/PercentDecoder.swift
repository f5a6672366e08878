/// The strict decoding loop shared by ``PercentEncoding`` and the link parser.
enum PercentDecoder {
  /// What the decoded bytes must be.
  enum Check {
    /// Any bytes.
    case bytes
    /// UTF-8.
    case text
    /// UTF-8 without control characters: a deep link's values.
    case textWithoutControls
  }

  /// Decodes `input` into `output`, which has room for at least `input.count` bytes.
  ///
  /// - Parameters:
  ///   - base: The offset of `input` in the whole text, for errors.
  ///   - terminator: A raw byte that ends the encoded text, such as `&`
  ///     after a link's value; any other raw byte outside the set is an error.
  ///   - reporter: What a problem becomes: a ``DeepLinkError`` that names it,
  ///     or on the fast path a bare stop.
  /// - Returns: How many bytes of `input` were read (up to the terminator) and how many were written.
  @inline(__always)
  static func decode<Reporter: ProblemReporter>(
    _ input: UnsafeBufferPointer<UInt8>, base: Int = 0, into output: UnsafeMutablePointer<UInt8>,
    keeping kept: KeptBytes = .strictUnreserved, check: Check, stoppingAt terminator: UInt8? = nil,
    reporting reporter: Reporter.Type
  ) throws(Reporter.Failure) -> (read: Int, written: Int) {
    guard let source = input.baseAddress else { return (0, 0) }
    let table = kept.table
    let mask = kept.mask
    let count = input.count
    let rejectingControls = check == .textWithoutControls
    var index = 0
    var written = 0
    while index < count {
      // The hot loop: raw bytes of the set are copied, and need no other check.
      let byte = source[index]
      if table[Int(byte)] & mask != 0 {
        output[written] = byte
        written &+= 1
        index &+= 1
        continue
      }
      if byte == terminator { break }
      let decoded = try escape(source, at: index, count: count, base: base, kept.hexValues, reporter)
      output[written] = decoded
      written &+= 1
      index &+= 3
      if check == .bytes { continue }
      if decoded < 0x80 {
        if rejectingControls && (decoded < 0x20 || decoded == 0x7F) {
          throw Reporter.failure(
            DeepLinkError(
              .controlCharacter, at: base &+ index &- 3, "byte 0x\(ASCII.hex(decoded)) is a control character"))
        }
        continue
      }
      // A lead byte: the rest of its sequence must follow as escapes. For a
      // link's values a table gives how many, and the range of the first; a
      // well-formed sequence is decoded here in one go, and anything else is
      // read again below, byte by byte, which names the problem.
      if rejectingControls {
        let lead = kept.utf8Leads[Int(decoded)]
        var pending = lead & 0xFF
        var lower = UInt8(truncatingIfNeeded: lead &>> 8)
        var upper = UInt8(truncatingIfNeeded: lead &>> 16)
        var at = index
        var end = written
        while pending > 0 && at &+ 2 < count && source[at] == UInt8(ascii: "%") {
          let high = kept.hexValues[Int(source[at &+ 1])]
          let low = kept.hexValues[Int(source[at &+ 2])]
          let next = high << 4 | low
          guard high | low < 0x10 && next >= lower && next <= upper else { break }
          output[end] = next
          end &+= 1
          at &+= 3
          pending &-= 1
          lower = 0x80
          upper = 0xBF
        }
        if lead != 0 && pending == 0 {
          index = at
          written = end
          continue
        }
      }
      var utf8 = UTF8Check(rejectingControlCharacters: rejectingControls)
      do throws(DeepLinkError) { try utf8.consume(decoded, at: base &+ index &- 3) } catch {
        throw Reporter.failure(error)
      }
      while utf8.pending > 0 {
        guard index < count && source[index] == UInt8(ascii: "%") else {
          if index < count && source[index] != terminator && table[Int(source[index])] & mask == 0 {
            // A raw byte that is wrong in itself is reported as such.
            _ = try escape(source, at: index, count: count, base: base, kept.hexValues, reporter)
          }
          throw Reporter.failure(utf8.cutShort)
        }
        let next = try escape(source, at: index, count: count, base: base, kept.hexValues, reporter)
        do throws(DeepLinkError) { try utf8.consume(next, at: base &+ index) } catch {
          throw Reporter.failure(error)
        }
        output[written] = next
        written &+= 1
        index &+= 3
      }
    }
    return (index, written)
  }

  /// The byte that the escape at `index` stands for.
  ///
  /// - Throws: `unencoded-character` when there is no `%` at `index`,
  ///   `bad-percent-escape` when two hexadecimal digits do not follow it.
  @inline(__always)
  private static func escape<Reporter: ProblemReporter>(
    _ source: UnsafePointer<UInt8>, at index: Int, count: Int, base: Int, _ hexValues: UnsafePointer<UInt8>,
    _ reporter: Reporter.Type
  ) throws(Reporter.Failure) -> UInt8 {
    let byte = source[index]
    guard byte == UInt8(ascii: "%") else {
      throw Reporter.failure(
        DeepLinkError(
          .unencodedCharacter, at: base &+ index,
          "\(ASCII.describe(byte)) must be percent-encoded as %\(ASCII.hex(byte))"))
    }
    guard index &+ 2 < count else { throw Reporter.failure(badEscape(at: base &+ index)) }
    let high = hexValues[Int(source[index &+ 1])]
    let low = hexValues[Int(source[index &+ 2])]
    guard high | low < 0x10 else { throw Reporter.failure(badEscape(at: base &+ index)) }
    return high << 4 | low
  }

  private static func badEscape(at offset: Int) -> DeepLinkError {
    DeepLinkError(.badPercentEscape, at: offset, "'%' must be followed by two hexadecimal digits")
  }

  /// Decodes `input` into a new array, keeping raw what `set` does not encode.
  static func decode(
    _ input: UnsafeBufferPointer<UInt8>, using set: some PercentEncodeSet, check: Check
  ) throws(DeepLinkError) -> [UInt8] {
    var failure: DeepLinkError?
    let decoded = KeptBytes.with(set) { kept in
      [UInt8](unsafeUninitializedCapacity: input.count) { buffer, initialized in
        guard let base = buffer.baseAddress else { return }
        do throws(DeepLinkError) {
          initialized = try decode(input, into: base, keeping: kept, check: check, reporting: ReportingProblems.self)
            .written
        } catch {
          failure = error
        }
      }
    }
    if let failure { throw failure }
    return decoded
  }

  /// The bytes that may stand raw: those whose entry in `table` has a bit of `mask`.
  struct KeptBytes {
    let table: UnsafePointer<UInt8>
    let mask: UInt8
    /// ``ByteTables/hexValues`` and ``ByteTables/utf8Leads``, read once with the table.
    var hexValues = ByteTables.hexValues
    var utf8Leads = ByteTables.utf8Leads

    /// The strict unreserved set, from ``ByteTables``.
    static var strictUnreserved: KeptBytes {
      KeptBytes(table: ByteTables.classes, mask: ByteTables.Class.unreserved.rawValue)
    }

    /// Calls `body` with the bytes `set` keeps, in a table on the stack unless it is the strict set.
    static func with<Result>(_ set: some PercentEncodeSet, _ body: (KeptBytes) -> Result) -> Result {
      if type(of: set) == StrictUnreservedEncodeSet.self { return body(.strictUnreserved) }
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { table in
        for byte in 0...255 {
          table[byte] = byte < 0x80 && !set.shouldPercentEncode(ascii: UInt8(byte)) ? 1 : 0
        }
        return body(
          KeptBytes(
            table: UnsafePointer(table.baseAddress ?? UnsafeMutablePointer(mutating: ByteTables.classes)), mask: 1))
      }
    }
  }
}
