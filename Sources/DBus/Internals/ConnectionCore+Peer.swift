import CDBus

extension ConnectionCore {
  /// Answers a call of `org.freedesktop.DBus.Peer`, on any object path, as libdbus would.
  ///
  /// libdbus answers `Ping` and `GetMachineId` whatever arguments they come
  /// with; here a call with arguments is refused with `InvalidArgs`, as every
  /// exported method refuses a signature it does not take.
  func answerPeer(_ message: Message, member: MemberName) {
    guard member == PeerInterface.ping.name || member == PeerInterface.getMachineId.name else {
      reply(to: message, error: DBusError(.unknownMethod, "no method \(member) in \(InterfaceName.peer)"))
      return
    }
    guard message.hasSignature("") else {
      reply(to: message, error: DBusError(.invalidArgs, "\(member) takes no arguments, not '\(message.signature)'"))
      return
    }
    guard member == PeerInterface.getMachineId.name else {
      reply(to: message, values: [])
      return
    }
    do {
      reply(to: message, values: [.string(try Self.machineID())])
    } catch {
      reply(to: message, error: error)
    }
  }

  /// The machine's id (`/etc/machine-id`, or D-Bus's own), as libdbus reads it.
  private static func machineID() throws(DBusError) -> String {
    let text = try DBusError.check { error in dbus_try_get_local_machine_id(error) }
    guard let text else { throw DBusError(.failed, "the machine id cannot be read") }
    defer { dbus_free(text) }
    return String(cString: text)
  }
}
