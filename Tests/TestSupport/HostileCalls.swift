public import DBus

/// The arguments a hostile peer sends to a method: wrong signatures, huge
/// strings and values nested as deep as the bus lets them through.
///
/// Only what libdbus can build and the bus accepts: libdbus aborts the sender
/// on invalid input (such as invalid UTF-8, which it refuses to marshal), and
/// the bus drops the connection of a peer whose message nests deeper than the
/// specification allows, so neither ever reaches the service.
public enum HostileCalls {
  /// One set of arguments and what it is, for the test's messages.
  public struct Arguments: Sendable {
    public var label: String
    public var values: [DBusValue]

    public init(_ label: String, _ values: [DBusValue]) {
      self.label = label
      self.values = values
    }
  }

  /// How long a huge string is: several megabytes, far beyond any name or link.
  public static let hugeLength = 4 << 20

  /// The bus's limit on nested containers in one message (arrays, structs and
  /// variants together): twice `DBUS_MAXIMUM_TYPE_RECURSION_DEPTH`.
  public static let totalDepthLimit = 64

  /// The bus's limit on arrays nested in one signature, and on structs.
  public static let signatureDepthLimit = 32

  /// A string of ``hugeLength`` bytes of `character`.
  public static func hugeString(_ character: Character = "x") -> String {
    String(repeating: character, count: hugeLength)
  }

  /// An `int32` inside `depth` variants.
  public static func nestedVariant(depth: Int) -> DBusValue {
    var value = DBusValue.int32(1)
    for _ in 0..<depth { value = .variant(value) }
    return value
  }

  /// An `int32` inside `depth` arrays, one element in each.
  public static func nestedArrays(depth: Int) -> DBusValue {
    var value = DBusValue.int32(1)
    for _ in 0..<depth { value = .array(element: value.type, [value]) }
    return value
  }

  /// An `int32` inside `structs` structs, inside `arrays` arrays.
  public static func nestedStructsInArrays(structs: Int, arrays: Int) -> DBusValue {
    var value = DBusValue.int32(1)
    for _ in 0..<structs { value = .structure([value]) }
    for _ in 0..<arrays { value = .array(element: value.type, [value]) }
    return value
  }

  /// Every set of arguments with another signature than `valid`'s: none, the
  /// wrong types, one too many, a huge string of the wrong type, and values
  /// nested to the bus's limits.
  ///
  /// - Parameters:
  ///   - valid: Arguments the method accepts.
  ///   - huge: Whether one set has a string of ``hugeLength`` bytes; the tests
  ///     share one process, and a test that measures its memory sees every megabyte.
  public static func wrongSignatures(for valid: [DBusValue], huge: Bool = true) -> [Arguments] {
    var calls: [Arguments] = []
    if !valid.isEmpty {
      calls.append(Arguments("no arguments", []))
      calls.append(Arguments("every argument of another type", valid.map(otherType)))
    }
    calls.append(Arguments("one argument too many", valid + [.string("extra")]))
    if huge { calls.append(Arguments("a huge string too many", valid + [.string(hugeString())])) }
    calls.append(Arguments("variants nested to the limit", [nestedVariant(depth: totalDepthLimit)]))
    calls.append(Arguments("arrays nested to the limit", [nestedArrays(depth: signatureDepthLimit)]))
    calls.append(
      Arguments(
        "structs in arrays nested to the limit",
        [nestedStructsInArrays(structs: signatureDepthLimit, arrays: signatureDepthLimit)]))
    return calls
  }

  /// A value of another type: a number for a string, a string for anything else.
  private static func otherType(_ value: DBusValue) -> DBusValue {
    if case .string = value { return .uint32(7) }
    return .string("not the type")
  }

  /// Calls `member` with `arguments` and returns the reply or the error reply.
  ///
  /// - Throws: only when the call cannot be built or sent; an error reply is the result.
  public static func call(
    _ connection: Connection, destination: BusName, path: ObjectPath, interface: InterfaceName?,
    member: MemberName, _ arguments: [DBusValue], timeout: Duration = HangBound.answer
  ) async throws(DBusError) -> Result<Message, DBusError> {
    let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
    try message.append(values: arguments)
    do {
      return .success(try await connection.call(message, timeout: timeout))
    } catch {
      return .failure(error)
    }
  }
}
