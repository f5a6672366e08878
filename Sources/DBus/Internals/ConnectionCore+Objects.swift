import CDBus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The objects a connection exports, by path.
struct ObjectTable {
  var interfaces: [ObjectPath: [InterfaceName: Interface]] = [:] {
    didSet { routes.removeAll() }
  }
  /// The methods recent calls went to, so that a call like one of them is
  /// routed by comparing the message's C strings, without building names and
  /// hashing them; forgotten whenever the exports change.
  private var routes: [Route] = []

  private struct Route {
    var path: String
    var interface: String?
    var member: String
    var method: Method
  }

  /// How many routes are remembered.
  private static let routeLimit = 8

  /// The method a call to `path`, `interface` and `member` went to before, if one did.
  func route(
    path: UnsafePointer<CChar>, interface: UnsafePointer<CChar>?, member: UnsafePointer<CChar>
  ) -> Method? {
    func same(_ text: String, _ cString: UnsafePointer<CChar>) -> Bool {
      text.withCString { strcmp($0, cString) == 0 }
    }
    for route in routes
    where same(route.member, member) && same(route.path, path)
      && (route.interface.map { name in interface.map { same(name, $0) } ?? false } ?? (interface == nil))
    {
      return route.method
    }
    return nil
  }

  /// Remembers where a call went, forgetting the oldest route past the limit.
  mutating func remember(path: String, interface: String?, member: String, method: Method) {
    if routes.count == Self.routeLimit { routes.removeFirst() }
    routes.append(Route(path: path, interface: interface, member: member, method: method))
  }
}

extension ConnectionCore {
  /// Answers one incoming method call: introspection, or a method of an exported interface.
  func handleMethodCall(_ message: Message) {
    if let path = dbus_message_get_path(message.raw), let member = dbus_message_get_member(message.raw),
      let method = objects.withLock({
        $0.route(path: path, interface: dbus_message_get_interface(message.raw), member: member)
      })
    {
      call(method, with: message)
      return
    }
    guard let path = message.path, let member = message.member else {
      reply(to: message, error: DBusError(.unknownMethod, "the call names no object or method"))
      return
    }
    if message.interface == .peer {
      answerPeer(message, member: member)
      return
    }
    let exported = objects.withLock { $0.interfaces[path] }
    let introspect = IntrospectableInterface.introspect.name
    if message.interface == .introspectable || (message.interface == nil && member == introspect) {
      let children = objects.withLock { childNames(of: path, in: $0) }
      guard member == introspect else {
        reply(to: message, error: DBusError(.unknownMethod, "no method \(member) in \(InterfaceName.introspectable)"))
        return
      }
      guard message.hasSignature("") else {
        reply(
          to: message, error: DBusError(.invalidArgs, "\(introspect) takes no arguments, not '\(message.signature)'"))
        return
      }
      guard exported != nil || !children.isEmpty || path == .root else {
        reply(to: message, error: DBusError(.unknownObject, "no object at \(path)"))
        return
      }
      let xml = introspectionXML(interfaces: Array((exported ?? [:]).values), children: children)
      reply(to: message, values: [.string(xml)])
      return
    }
    guard let exported else {
      reply(to: message, error: DBusError(.unknownObject, "no object at \(path)"))
      return
    }
    let found: Method?
    if let interfaceName = message.interface {
      guard let interface = exported[interfaceName] else {
        reply(to: message, error: DBusError(.unknownInterface, "object \(path) has no interface \(interfaceName)"))
        return
      }
      found = interface.methods.first { $0.name == member }
    } else {
      found = exported.values.lazy.compactMap { $0.methods.first { $0.name == member } }.first
    }
    guard let method = found else {
      let interfaceText = message.interface.map { " in \($0)" } ?? ""
      reply(to: message, error: DBusError(.unknownMethod, "no method \(member)\(interfaceText) at \(path)"))
      return
    }
    objects.withLock {
      $0.remember(path: path.rawValue, interface: message.interface?.rawValue, member: member.rawValue, method: method)
    }
    call(method, with: message)
  }

  /// Checks the arguments of a call against `method` and runs its handler.
  private func call(_ method: Method, with message: Message) {
    guard message.hasSignature(method.inputs.rawValue) else {
      reply(
        to: message,
        error: DBusError(
          .invalidArgs, "\(method.name) takes arguments of type '\(method.inputs)', not '\(message.signature)'"))
      return
    }
    let call = MethodCall(message: message)
    switch method.handler {
    case .immediate(let handler):
      finish(call, method: method) { try handler(call) }
    case .async(let handler):
      Task { [self] in
        let result: Result<Method.Reply, any Error>
        do { result = .success(try await handler(call)) } catch { result = .failure(error) }
        finish(call, method: method) { try result.get() }
      }
    }
  }

  /// Sends the reply a handler produced, or the error it threw.
  private func finish(_ call: MethodCall, method: Method, _ produce: () throws -> Method.Reply) {
    do {
      switch try produce() {
      case .values(let values):
        // Compared type by type: building the signature text for every reply costs more.
        guard values.count == method.outputs.types.count,
          zip(values, method.outputs.types).allSatisfy({ $0.type == $1 })
        else {
          let produced = Signature(values.map(\.type))
          reply(
            to: call.message,
            error: DBusError(
              .failed, "\(method.name) produced a reply of type '\(produced)' instead of '\(method.outputs)'"))
          return
        }
        reply(to: call.message, values: values)
      case .typed(let append):
        reply(to: call.message, appending: append)
      }
    } catch let error as DBusError {
      reply(to: call.message, error: error)
    } catch {
      reply(to: call.message, error: DBusError(.failed, "\(error)"))
    }
  }

  /// Sends a reply whose arguments `append` writes, or the error it throws.
  private func reply(to call: Message, appending append: (Message) throws(DBusError) -> Void) {
    guard !call.noReplyExpected else { return }
    do {
      let reply = try call.makeReturn()
      try append(reply)
      try send(reply)
    } catch {
      self.reply(to: call, error: error)
    }
  }

  func reply(to call: Message, values: [DBusValue]) {
    guard !call.noReplyExpected else { return }
    do {
      let reply = try call.makeReturn()
      try reply.append(values: values)
      try send(reply)
    } catch {
      self.reply(to: call, error: error)
    }
  }

  func reply(to call: Message, error: DBusError) {
    guard !call.noReplyExpected, let reply = try? call.makeError(error) else { return }
    try? send(reply)
  }

  /// The names of the path elements directly below `path` that lead to exported objects.
  private func childNames(of path: ObjectPath, in table: ObjectTable) -> [String] {
    let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
    var names = Set<String>()
    for exported in table.interfaces.keys where exported.rawValue.hasPrefix(prefix) && exported != path {
      let rest = exported.rawValue.dropFirst(prefix.count)
      if let name = rest.split(separator: "/").first { names.insert(String(name)) }
    }
    return names.sorted()
  }
}
