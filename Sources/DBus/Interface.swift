/// An interface exported on an object: its methods, and the signals it declares.
public struct Interface: Sendable {
  public let name: InterfaceName
  public let methods: [Method]
  public let signals: [SignalDeclaration]

  /// - Throws: `InvalidArgs` for an invalid interface name or two methods with one name.
  public init(_ name: String, methods: [Method], signals: [SignalDeclaration] = []) throws(DBusError) {
    self.name = try InterfaceName(name)
    var seen = Set<MemberName>()
    for method in methods {
      guard seen.insert(method.name).inserted else {
        throw DBusError(.invalidArgs, "method \(method.name) is declared twice in \(name)")
      }
    }
    self.methods = methods
    self.signals = signals
  }
}

/// An incoming method call, as a handler sees it.
public struct MethodCall: Sendable {
  /// The call itself.
  public let message: Message

  /// The unique name of the caller; `nil` only on a connection without a bus.
  public var sender: BusName? { message.sender }

  /// Reads the arguments; the dispatcher has already checked the signature.
  ///
  /// - Throws: `InvalidArgs` when the arguments are not of these types.
  public func decode<each T: DBusArgument>(_ types: repeat (each T).Type) throws(DBusError) -> (repeat each T) {
    try message.decode(repeat each types)
  }
}

/// A method of an exported interface.
public struct Method: Sendable {
  enum Handler: Sendable {
    case immediate(@Sendable (MethodCall) throws -> [DBusValue])
    case async(@Sendable (MethodCall) async throws -> [DBusValue])
  }

  public let name: MemberName
  public let inputs: Signature
  public let outputs: Signature
  let inputNames: [String]
  let outputNames: [String]
  let handler: Handler

  /// A method answered at once where the connection is dispatched (see ``Connection``).
  ///
  /// The handler must not block. It returns the reply's values, which must
  /// match `outputs`; a ``DBusError`` it throws becomes the error reply, any
  /// other error becomes `org.freedesktop.DBus.Error.Failed`.
  ///
  /// - Parameters:
  ///   - inputs, outputs: The signatures of the arguments and of the reply; a
  ///     call with other arguments gets `InvalidArgs` without reaching the handler.
  ///   - inputNames, outputNames: Argument names for introspection.
  /// - Throws: `InvalidArgs` or `InvalidSignature` for an invalid name or signature.
  public init(
    _ name: String, inputs: String = "", outputs: String = "", inputNames: [String] = [],
    outputNames: [String] = [], _ handler: @escaping @Sendable (MethodCall) throws -> [DBusValue]
  ) throws(DBusError) {
    try self.init(name, inputs, outputs, inputNames, outputNames, .immediate(handler))
  }

  /// A method whose handler runs as a task, for work that waits (calls to other services).
  ///
  /// The reply is sent when the handler returns; calls keep being dispatched meanwhile.
  ///
  /// - Throws: `InvalidArgs` or `InvalidSignature` for an invalid name or signature.
  public init(
    _ name: String, inputs: String = "", outputs: String = "", inputNames: [String] = [],
    outputNames: [String] = [], async handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]
  ) throws(DBusError) {
    try self.init(name, inputs, outputs, inputNames, outputNames, .async(handler))
  }

  private init(
    _ name: String, _ inputs: String, _ outputs: String, _ inputNames: [String], _ outputNames: [String],
    _ handler: Handler
  ) throws(DBusError) {
    self.name = try MemberName(name)
    self.inputs = try Signature(inputs)
    self.outputs = try Signature(outputs)
    self.inputNames = inputNames
    self.outputNames = outputNames
    self.handler = handler
  }
}

/// A signal an interface declares, for introspection.
public struct SignalDeclaration: Sendable {
  public let name: MemberName
  public let signature: Signature
  let argumentNames: [String]

  /// - Throws: `InvalidArgs` or `InvalidSignature` for an invalid name or signature.
  public init(_ name: String, signature: String = "", argumentNames: [String] = []) throws(DBusError) {
    self.name = try MemberName(name)
    self.signature = try Signature(signature)
    self.argumentNames = argumentNames
  }
}
