/// Where one parameter's checked value is, while a link is resolved.
///
/// A plain value, so that the slots of a resolution cost no reference
/// counting: a text stays in the decoded bytes until the action asks for it.
struct Slot {
  enum State: UInt8 {
    /// Not given, or an empty text.
    case absent
    case text
    case integer
  }

  var state = State.absent
  /// A text's place in the decoded bytes.
  var start = 0
  var count = 0
  var integer = 0
}

/// The checked values of one route's parameters, in the order of its rules.
struct RouteValues {
  let slots: UnsafeBufferPointer<Slot>
  /// The link's values, decoded one after the other.
  let decoded: UnsafePointer<UInt8>
  /// The defaults of the route's rules, in the same order; read only when a
  /// value is absent.
  let defaults: UnsafePointer<ParameterValue?>
  /// The same defaults' texts as bytes in `tableBytes`, for the lent values;
  /// without them (values made by hand) a lent value has no default.
  var defaultTexts: UnsafePointer<CompiledRoutes.TextRange>? = nil
  var tableBytes: UnsafePointer<UInt8>? = nil

  var count: Int { slots.count }

  /// The text at `index`, or `nil` when it was absent or is not a text.
  @inline(__always)
  func text(_ index: Int) -> String? {
    guard index < slots.count, slots[index].state == .text else { return nil }
    let bytes = UnsafeBufferPointer(start: decoded + slots[index].start, count: slots[index].count)
    // The scanner has checked that a text value is well-formed UTF-8 (the
    // decoder follows table 3-7 of the Unicode Standard, as the standard
    // library does), so the bytes are handed over as a `UTF8Span` without
    // being checked a second time, which for short values costs more than
    // parsing them did.
    return String(copying: UTF8Span(unchecked: bytes.span))
  }

  /// The bytes of the text at `index` in place, or `nil` when it was absent or is not a text.
  @inline(__always)
  func textBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
    guard index < slots.count, slots[index].state == .text else { return nil }
    return UnsafeBufferPointer(start: decoded + slots[index].start, count: slots[index].count)
  }

  /// The bytes of the text at `index`, or of its default when it was absent;
  /// `nil` when there is neither.
  @inline(__always)
  private func lentText(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
    if let bytes = textBytes(index) { return bytes }
    guard let defaultTexts, let tableBytes else { return nil }
    let range = defaultTexts[index]
    guard range.count >= 0 else { return nil }
    return UnsafeBufferPointer(start: tableBytes + range.start, count: range.count)
  }

  /// The integer at `index`, or `nil` when it was absent or is not an integer.
  @inline(__always)
  func integer(_ index: Int) -> Int? {
    guard index < slots.count, slots[index].state == .integer else { return nil }
    return slots[index].integer
  }

  /// The value at `index`, or `nil` when it was absent.
  func value(_ index: Int) -> ParameterValue? {
    if let integer = integer(index) { return .integer(integer) }
    return text(index).map(ParameterValue.text)
  }

  /// The text of a declared parameter, its default when the link left it out.
  @inline(__always)
  subscript(_ parameter: ParameterIndex<String>) -> String? {
    text(parameter.position) ?? defaults[parameter.position]?.text
  }

  /// The text of a declared optional parameter, `nil` when the link left it out.
  @inline(__always)
  subscript(_ parameter: ParameterIndex<String?>) -> String? {
    text(parameter.position) ?? defaults[parameter.position]?.text
  }

  /// The bytes of a declared parameter's text in place, its default's when
  /// the link left it out: the bytes the subscript makes a string of.
  @inline(__always)
  func lent(_ parameter: ParameterIndex<String>) -> UnsafeBufferPointer<UInt8>? {
    lentText(parameter.position)
  }

  /// The bytes of a declared optional parameter's text in place, `nil` when the link left it out.
  @inline(__always)
  func lent(_ parameter: ParameterIndex<String?>) -> UnsafeBufferPointer<UInt8>? {
    lentText(parameter.position)
  }

  /// The integer of a declared parameter, its default when the link left it out.
  @inline(__always)
  subscript(_ parameter: ParameterIndex<Int>) -> Int? {
    integer(parameter.position) ?? defaults[parameter.position]?.integer
  }
}

extension RouteValues {
  /// Calls `body` with scratch space on the stack for resolving a link of
  /// `length` bytes: room for its decoded values (no link past
  /// ``DeepLink/maximumLength`` is decoded), not initialised, and `slotCount`
  /// absent slots.
  @inline(__always)
  static func withScratch<Result, Failure: Error>(
    length: Int, slotCount: Int,
    _ body: (UnsafeMutableBufferPointer<UInt8>, UnsafeMutableBufferPointer<Slot>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let capacity = max(1, min(length, DeepLink.maximumLength))
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { decoded throws(Failure) in
      try withUnsafeTemporaryAllocation(of: Slot.self, capacity: max(1, slotCount)) { slots throws(Failure) in
        slots.initialize(repeating: Slot())
        return try body(decoded, slots)
      }
    }
  }
}
