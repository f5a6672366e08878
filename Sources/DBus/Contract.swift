// An interface is declared once, as contracts: each method's name, argument
// names and Swift types, each signal's the same. The signatures follow from
// the types (`DBusArgument.dbusType`), and from the one declaration come the
// exported method (`Method(contract) { … }`), the introspection XML, the
// client's call (`connection.call(contract, …)`) and the signal's emit and
// decode, so that no name or signature is written twice.

/// A method as its interface declares it: the name, and the names and types of its arguments and reply.
///
/// `Function` is the method's Swift shape, such as `(String, UInt32) -> String`
/// for `SiteFocus(s site, u browserPid) → s state`; `() -> Void` takes and answers nothing.
///
/// ```swift
/// static let siteFocus = MethodContract<(String, UInt32) -> String>(
///   name, "SiteFocus", inputs: ["site", "browserPid"], outputs: ["state"])!
/// ```
public struct MethodContract<Function>: Sendable {
  /// The interface the method belongs to.
  public let interface: InterfaceName
  /// The name, signatures and argument names, as the dispatcher and introspection read them.
  public let declaration: MethodDeclaration

  /// The member name.
  public var name: MemberName { declaration.name }

  /// Declares a method; `nil` for an invalid member name or a name list of another length than the arguments.
  ///
  /// Declarations are literals checked once, where the interface is declared;
  /// the force unwrap there cannot fail for them and no input reaches it.
  public init?<each Input: DBusArgument, each Output: DBusArgument>(
    _ interface: InterfaceName, _ name: String, inputs inputNames: [String] = [], outputs outputNames: [String] = []
  ) where Function == (repeat each Input) -> (repeat each Output) {
    var inputs: [SignatureType] = []
    for type in repeat (each Input).self { inputs.append(type.dbusType) }
    var outputs: [SignatureType] = []
    for type in repeat (each Output).self { outputs.append(type.dbusType) }
    guard let member = MemberName(rawValue: name), inputNames.count == inputs.count,
      outputNames.count == outputs.count
    else { return nil }
    self.interface = interface
    declaration = MethodDeclaration(
      name: member, inputs: Signature(inputs), outputs: Signature(outputs), inputNames: inputNames,
      outputNames: outputNames)
  }

  /// A call of this method to `destination` at `path` with `inputs`, not yet sent.
  ///
  /// For a call that needs more than ``Connection/call(_:destination:path:_:timeout:autoStart:)``
  /// gives: the reply's sender, or a reply handled as it arrives.
  ///
  /// - Throws: `InvalidArgs` for an argument that cannot be sent (a string with a NUL byte).
  public func message<each Input: DBusArgument, each Output: DBusArgument>(
    destination: BusName, path: ObjectPath, _ inputs: repeat each Input
  ) throws(DBusError) -> Message where Function == (repeat each Input) -> (repeat each Output) {
    let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: name)
    try message.append(repeat each inputs)
    return message
  }

  /// The values of a reply to this method.
  ///
  /// - Throws: `InvalidSignature` when the reply carries other types than the method answers with.
  public func reply<each Input: DBusArgument, each Output: DBusArgument>(
    from message: Message
  ) throws(DBusError) -> (repeat each Output) where Function == (repeat each Input) -> (repeat each Output) {
    guard message.hasSignature(declaration.outputs.rawValue) else {
      throw DBusError(
        .invalidSignature,
        "\(name) answered with '\(message.signature)' instead of '\(declaration.outputs)'")
    }
    var reader = message.reader()
    return (repeat try reader.read((each Output).self))
  }
}

/// A method's name, signatures and argument names, whatever its Swift types.
public struct MethodDeclaration: Sendable, Hashable {
  public let name: MemberName
  public let inputs: Signature
  public let outputs: Signature
  public let inputNames: [String]
  public let outputNames: [String]
}

/// A signal as its interface declares it: the name, and the names and types of its arguments.
///
/// ```swift
/// static let unlocked = SignalContract<String, UInt32>(name, "Unlocked", arguments: ["rule", "minutes"])!
/// ```
public struct SignalContract<each Argument: DBusArgument>: Sendable {
  /// The interface the signal belongs to.
  public let interface: InterfaceName
  /// The name, signature and argument names, for introspection.
  public let declaration: SignalDeclaration

  /// The member name.
  public var name: MemberName { declaration.name }

  /// Declares a signal; `nil` for an invalid member name or a name list of another length than the arguments.
  public init?(_ interface: InterfaceName, _ name: String, arguments argumentNames: [String]) {
    var types: [SignatureType] = []
    for type in repeat (each Argument).self { types.append(type.dbusType) }
    guard let member = MemberName(rawValue: name), argumentNames.count == types.count else { return nil }
    self.interface = interface
    declaration = SignalDeclaration(name: member, signature: Signature(types), argumentNames: argumentNames)
  }

  /// Whether `message` is this signal (by its interface and member; the arguments are not read).
  public func matches(_ message: Message) -> Bool {
    message.kind == .signal && message.isSignal(interface, name.rawValue)
  }

  /// The rule that receives this signal, from `sender`, at `path` and with these string
  /// `arguments` (by index, as ``MatchRule/arguments``) when they are given.
  public func rule(sender: BusName? = nil, path: ObjectPath? = nil, arguments: [Int: String] = [:]) -> MatchRule {
    MatchRule(sender: sender, interface: interface, member: name, path: path, arguments: arguments)
  }

  /// The arguments of this signal.
  ///
  /// - Throws: `InvalidArgs` when `message` is another signal, or this one with arguments of other types.
  public func decode(_ message: Message) throws(DBusError) -> (repeat each Argument) {
    guard matches(message) else {
      let other = "\(message.interface?.rawValue ?? "")\(message.member.map { ".\($0)" } ?? "")"
      throw DBusError(.invalidArgs, "expected the signal \(interface).\(name), not \(other)")
    }
    guard message.hasSignature(declaration.signature.rawValue) else {
      throw DBusError(
        .invalidArgs,
        "\(interface).\(name) carries '\(message.signature)' instead of '\(declaration.signature)'")
    }
    var reader = message.reader()
    return (repeat try reader.read((each Argument).self))
  }
}

/// An interface declared once: its name, methods and signals.
///
/// The exported side is built from it (``Interface/init(_:methods:)``), which
/// refuses a method the contract does not declare or misses one it does; the
/// introspection XML names what it declares.
public struct InterfaceContract: Sendable {
  public let name: InterfaceName
  public let methods: [MethodDeclaration]
  public let signals: [SignalDeclaration]
  /// The interface's `<annotation>` elements, in this order.
  public let annotations: [Annotation]

  public init(
    _ name: InterfaceName, methods: [MethodDeclaration], signals: [SignalDeclaration] = [],
    annotations: [Annotation] = []
  ) {
    self.name = name
    self.methods = methods
    self.signals = signals
    self.annotations = annotations
  }

  /// The interface's `<interface>` element, as `Introspect` describes it.
  public var introspectionXML: String {
    interfaceXML(name: name, methods: methods, signals: signals, annotations: annotations)
      .joined(separator: "\n") + "\n"
  }
}

/// An `<annotation name="…" value="…"/>` of an interface's introspection, such as the version of its service.
public struct Annotation: Sendable, Equatable {
  public let name: String
  public let value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

extension Connection {
  /// Calls a declared method and returns its typed reply.
  ///
  /// ```swift
  /// let id = try await connection.call(ServiceInterface.shield, destination: name, path: path, "Instagram")
  /// ```
  ///
  /// - Parameters:
  ///   - autoStart: Whether the bus may start the destination's service to deliver the call.
  /// - Throws: as ``call(_:timeout:)``, and `InvalidSignature` for a reply of other types than declared.
  public func call<each Input: DBusArgument, each Output: DBusArgument>(
    _ contract: MethodContract<(repeat each Input) -> (repeat each Output)>, destination: BusName, path: ObjectPath,
    _ inputs: repeat each Input, timeout: Duration = .seconds(25), autoStart: Bool = true
  ) async throws(DBusError) -> (repeat each Output) {
    let message = try contract.message(destination: destination, path: path, repeat each inputs)
    if !autoStart { message.autoStart = false }
    return try contract.reply(from: try await call(message, timeout: timeout))
  }

  /// Emits a declared signal.
  ///
  /// - Parameter destination: A unicast target; `nil` broadcasts to every matching rule.
  /// - Throws: `Disconnected` when the connection is closed, `InvalidArgs` for arguments that cannot be sent.
  public func emit<each Argument: DBusArgument>(
    _ signal: SignalContract<repeat each Argument>, path: ObjectPath, destination: BusName? = nil,
    _ arguments: repeat each Argument
  ) throws(DBusError) {
    try emit(
      path: path, interface: signal.interface, member: signal.name, destination: destination, repeat each arguments)
  }
}
