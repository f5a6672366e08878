/// An interface exported on an object: its methods, and the signals it declares.
///
/// Built from an ``InterfaceContract`` with a handler for each of its methods,
/// or, for values whose types are known only at run time, from methods with
/// signatures given as text.
public struct Interface: Sendable {
  public let name: InterfaceName
  public let methods: [Method]
  public let signals: [SignalDeclaration]
  public let annotations: [Annotation]

  /// - Throws: `InvalidArgs` for an invalid interface name or two methods with one name.
  public init(
    _ name: String, methods: [Method], signals: [SignalDeclaration] = [], annotations: [Annotation] = []
  ) throws(DBusError) {
    self.name = try InterfaceName(name)
    var seen = Set<MemberName>()
    for method in methods {
      guard seen.insert(method.name).inserted else {
        throw DBusError(.invalidArgs, "method \(method.name) is declared twice in \(name)")
      }
    }
    self.methods = methods
    self.signals = signals
    self.annotations = annotations
  }

  /// The interface `contract` declares, answered by `methods`.
  ///
  /// - Throws: `InvalidArgs` when a method is not one the contract declares
  ///   (by name and signatures), is given twice, or a declared one is missing.
  public init(_ contract: InterfaceContract, methods: [Method]) throws(DBusError) {
    for method in methods where !contract.methods.contains(method.declaration) {
      throw DBusError(
        .invalidArgs, "\(contract.name) declares no method \(method.name)(\(method.inputs)) → \(method.outputs)")
    }
    for declared in contract.methods where !methods.contains(where: { $0.name == declared.name }) {
      throw DBusError(.invalidArgs, "\(contract.name).\(declared.name) has no handler")
    }
    try self.init(
      contract.name.rawValue, methods: methods, signals: contract.signals, annotations: contract.annotations)
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
    case immediate(@Sendable (MethodCall) throws -> Reply)
    case async(@Sendable (MethodCall) async throws -> Reply)
  }

  /// What a handler answers: values checked against the declared outputs, or
  /// typed values whose types are the declared outputs already.
  enum Reply: Sendable {
    case values([DBusValue])
    case typed(@Sendable (Message) throws(DBusError) -> Void)
  }

  let declaration: MethodDeclaration
  let handler: Handler

  public var name: MemberName { declaration.name }
  public var inputs: Signature { declaration.inputs }
  public var outputs: Signature { declaration.outputs }

  /// A declared method answered at once where the connection is dispatched (see ``Connection``).
  ///
  /// The handler gets the call and its arguments, read as the contract's
  /// types (a call with other arguments gets `InvalidArgs` without reaching
  /// it), and must not block. A ``DBusError`` it throws becomes the error
  /// reply, any other error becomes `org.freedesktop.DBus.Error.Failed`.
  public init<each Input: DBusArgument, each Output: DBusArgument>(
    _ contract: MethodContract<(repeat each Input) -> (repeat each Output)>,
    _ handler: @escaping @Sendable (MethodCall, repeat each Input) throws -> (repeat each Output)
  ) {
    declaration = contract.declaration
    self.handler = .immediate { call in
      let inputs = try Self.arguments(of: call, repeat (each Input).self)
      let outputs = try handler(call, repeat each inputs)
      return Self.reply(repeat each outputs)
    }
  }

  /// A declared method whose handler runs as a task, for work that waits (calls to other services).
  ///
  /// The reply is sent when the handler returns; calls keep being dispatched meanwhile.
  public init<each Input: DBusArgument, each Output: DBusArgument>(
    _ contract: MethodContract<(repeat each Input) -> (repeat each Output)>,
    async handler: @escaping @Sendable (MethodCall, repeat each Input) async throws -> (repeat each Output)
  ) {
    declaration = contract.declaration
    self.handler = .async { call in
      let inputs = try Self.arguments(of: call, repeat (each Input).self)
      let outputs = try await handler(call, repeat each inputs)
      return Self.reply(repeat each outputs)
    }
  }

  /// A declared method whose handler reads the arguments itself, from
  /// ``MethodCall/message``: for bounded reads that skip what is too large
  /// before it is built. The dispatcher has checked the signature.
  public init<each Input: DBusArgument, each Output: DBusArgument>(
    _ contract: MethodContract<(repeat each Input) -> (repeat each Output)>,
    reading handler: @escaping @Sendable (MethodCall) throws -> (repeat each Output)
  ) {
    declaration = contract.declaration
    self.handler = .immediate { call in
      let outputs = try handler(call)
      return Self.reply(repeat each outputs)
    }
  }

  /// Reads the arguments the dispatcher has checked the signature of.
  private static func arguments<each Input: DBusArgument>(
    of call: MethodCall, _ types: repeat (each Input).Type
  ) throws(DBusError) -> (repeat each Input) {
    var reader = call.message.reader()
    return (repeat try reader.read((each Input).self))
  }

  // Takes the outputs as a pack, not as one tuple: Swift 6.3's SILGen crashes on the tuple.
  private static func reply<each Output: DBusArgument>(_ outputs: repeat each Output) -> Reply {
    let outputs = (repeat each outputs)
    return .typed { message throws(DBusError) in try message.append(repeat each outputs) }
  }

  /// A method answered at once where the connection is dispatched (see ``Connection``).
  ///
  /// For values whose types are known only at run time; a declared method is
  /// built from its ``MethodContract``. The handler must not block. It returns
  /// the reply's values, which must match `outputs`; a ``DBusError`` it throws
  /// becomes the error reply, any other error becomes `org.freedesktop.DBus.Error.Failed`.
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
    try self.init(name, inputs, outputs, inputNames, outputNames, .immediate { .values(try handler($0)) })
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
    try self.init(name, inputs, outputs, inputNames, outputNames, .async { .values(try await handler($0)) })
  }

  private init(
    _ name: String, _ inputs: String, _ outputs: String, _ inputNames: [String], _ outputNames: [String],
    _ handler: Handler
  ) throws(DBusError) {
    declaration = MethodDeclaration(
      name: try MemberName(name), inputs: try Signature(inputs), outputs: try Signature(outputs),
      inputNames: inputNames, outputNames: outputNames)
    self.handler = handler
  }
}

/// A signal an interface declares, for introspection.
public struct SignalDeclaration: Sendable, Hashable {
  public let name: MemberName
  public let signature: Signature
  public let argumentNames: [String]

  init(name: MemberName, signature: Signature, argumentNames: [String]) {
    self.name = name
    self.signature = signature
    self.argumentNames = argumentNames
  }

  /// - Throws: `InvalidArgs` or `InvalidSignature` for an invalid name or signature.
  public init(_ name: String, signature: String = "", argumentNames: [String] = []) throws(DBusError) {
    self.name = try MemberName(name)
    self.signature = try Signature(signature)
    self.argumentNames = argumentNames
  }
}
