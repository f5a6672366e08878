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

  var count: Int { slots.count }

  /// The text at `index`, or `nil` when it was absent or is not a text.
  func text(_ index: Int) -> String? {
    guard index < slots.count, slots[index].state == .text else { return nil }
    return String(
      decoding: UnsafeBufferPointer(start: decoded + slots[index].start, count: slots[index].count), as: UTF8.self)
  }

  /// The integer at `index`, or `nil` when it was absent or is not an integer.
  func integer(_ index: Int) -> Int? {
    guard index < slots.count, slots[index].state == .integer else { return nil }
    return slots[index].integer
  }

  /// The value at `index`, or `nil` when it was absent.
  func value(_ index: Int) -> ParameterValue? {
    if let integer = integer(index) { return .integer(integer) }
    return text(index).map(ParameterValue.text)
  }
}
