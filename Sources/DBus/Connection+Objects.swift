extension Connection {
  /// Exports `interfaces` on the object at `path`.
  ///
  /// Calls to them are answered from then on; `org.freedesktop.DBus.Introspectable`
  /// describes them, and `org.freedesktop.DBus.Peer` is answered on every path.
  ///
  /// - Throws: `InvalidArgs` when an interface is already exported at `path`,
  ///   or one of the standard interfaces is given.
  public func export(_ interfaces: [Interface], at path: ObjectPath) throws(DBusError) {
    try core.ensureOpen()
    for interface in interfaces where interface.name == .introspectable || interface.name == .peer {
      throw DBusError(.invalidArgs, "\(interface.name) is provided by the connection itself")
    }
    let clash: InterfaceName? = core.objects.withLock { table in
      var exported = table.interfaces[path] ?? [:]
      for interface in interfaces {
        if exported[interface.name] != nil { return interface.name }
        exported[interface.name] = interface
      }
      table.interfaces[path] = exported
      return nil
    }
    if let clash { throw DBusError(.invalidArgs, "\(clash) is already exported at \(path)") }
  }

  /// Stops exporting everything at `path`.
  public func unexport(_ path: ObjectPath) {
    _ = core.objects.withLock { $0.interfaces.removeValue(forKey: path) }
  }

  /// Emits a signal with typed arguments.
  ///
  /// - Parameter destination: A unicast target; `nil` broadcasts to every matching rule.
  /// - Throws: `Disconnected` when the connection is closed, `InvalidArgs` for arguments that cannot be sent.
  public func emit<each A: DBusArgument>(
    path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil,
    _ arguments: repeat each A
  ) throws(DBusError) {
    let message = try Message.signal(path: path, interface: interface, member: member, destination: destination)
    try message.append(repeat each arguments)
    try send(message)
  }
}
