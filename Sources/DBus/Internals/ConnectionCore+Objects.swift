/// The objects a connection exports, by path.
struct ObjectTable {
  var interfaces: [ObjectPath: [InterfaceName: Interface]] = [:]
}

extension ConnectionCore {
  /// Answers one incoming method call: introspection, or a method of an exported interface.
  func handleMethodCall(_ message: Message) {
    guard let path = message.path, let member = message.member else {
      reply(to: message, error: DBusError(.unknownMethod, "the call names no object or method"))
      return
    }
    let (exported, children) = objects.withLock { table in
      (table.interfaces[path], childNames(of: path, in: table))
    }
    if message.interface == .introspectable || (message.interface == nil && member.rawValue == "Introspect") {
      guard member.rawValue == "Introspect" else {
        reply(to: message, error: DBusError(.unknownMethod, "no method \(member) in \(InterfaceName.introspectable)"))
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
    let candidates: [Method]
    if let interfaceName = message.interface {
      guard let interface = exported[interfaceName] else {
        reply(to: message, error: DBusError(.unknownInterface, "object \(path) has no interface \(interfaceName)"))
        return
      }
      candidates = interface.methods.filter { $0.name == member }
    } else {
      candidates = exported.values.flatMap { $0.methods.filter { $0.name == member } }
    }
    guard let method = candidates.first else {
      let interfaceText = message.interface.map { " in \($0)" } ?? ""
      reply(to: message, error: DBusError(.unknownMethod, "no method \(member)\(interfaceText) at \(path)"))
      return
    }
    guard message.signature == method.inputs.rawValue else {
      reply(
        to: message,
        error: DBusError(
          .invalidArgs, "\(member) takes arguments of type '\(method.inputs)', not '\(message.signature)'"))
      return
    }
    let call = MethodCall(message: message)
    switch method.handler {
    case .immediate(let handler):
      finish(call, method: method) { try handler(call) }
    case .async(let handler):
      Task { [self] in
        let result: Result<[DBusValue], any Error>
        do { result = .success(try await handler(call)) } catch { result = .failure(error) }
        finish(call, method: method) { try result.get() }
      }
    }
  }

  /// Sends the reply a handler produced, or the error it threw.
  private func finish(_ call: MethodCall, method: Method, _ produce: () throws -> [DBusValue]) {
    do {
      let values = try produce()
      let produced = Signature(values.map(\.type))
      guard produced == method.outputs else {
        reply(
          to: call.message,
          error: DBusError(
            .failed, "\(method.name) produced a reply of type '\(produced)' instead of '\(method.outputs)'"))
        return
      }
      reply(to: call.message, values: values)
    } catch let error as DBusError {
      reply(to: call.message, error: error)
    } catch {
      reply(to: call.message, error: DBusError(.failed, "\(error)"))
    }
  }

  private func reply(to call: Message, values: [DBusValue]) {
    guard !call.noReplyExpected else { return }
    do {
      let reply = try call.makeReturn()
      try reply.append(values: values)
      try send(reply)
    } catch {
      self.reply(to: call, error: error)
    }
  }

  private func reply(to call: Message, error: DBusError) {
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
